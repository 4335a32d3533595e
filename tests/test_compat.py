"""Every public name of release 0.1 that was renamed or reshaped still works
until 0.3.0 and warns with a DeprecationWarning naming its replacement
(``spades_core.values.deprecation``; docs/design.md, "Changing the API"); the
few that 0.2.0 chose to drop are gone for good."""

from __future__ import annotations

import importlib
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import spades_core as sc
from spades_core.engine.playouts import playout
from spades_core.rules.results import HandResults
from spades_core.values import deprecation

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parent.parent


def deprecated(replacement: str) -> pytest.WarningsRecorder:
    """Expect one DeprecationWarning that names ``replacement`` and the removal release."""
    return pytest.warns(
        DeprecationWarning, match=rf"removed in spades-core 0\.3\.0; use .*{replacement}"
    )


def bidding() -> sc.Game:
    return sc.new_game("classic", seed=5, dealer="W").deal().bid(3)


def test_the_compatibility_code_is_removed_before_the_release_it_names() -> None:
    assert deprecation.REMOVED_IN == "0.3.0"
    version = tuple(int(part) for part in sc.__version__.split(".")[:2])
    assert version < (0, 3), "0.3.0 removes what spades_core.values.deprecation keeps"


# -- module attributes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "old", "home", "new", "replacement"),
    [
        ("spades_core.transitions", "check", "spades_core.engine.game", "check", "why_illegal"),
        (
            "spades_core.transitions",
            "legal_play_mask",
            "spades_core.engine.game",
            "legal_play_mask",
            "legal_cards",
        ),
        ("spades_core.transitions", "make_trick", "spades_core.results", "make_trick", None),
        ("spades_core.transitions", "trick_winner", "spades_core.tricks", "trick_winner", None),
        ("spades_core.tricks", "legal_mask", "spades_core.tricks", "legal_card_mask", None),
        (
            "spades_core.simulation",
            "DEFAULT_MAX_HANDS",
            "spades_core.simulation",
            "DEFAULT_HAND_LIMIT",
            None,
        ),
        (
            "spades_core.simulation.core",
            "DEFAULT_MAX_HANDS",
            "spades_core.simulation.core",
            "DEFAULT_HAND_LIMIT",
            None,
        ),
        ("spades_core.batch", "play", "spades_core.batch", "play_hands", None),
        ("spades_core.batch", "play_chunks", "spades_core.batch", "play_hands_in_chunks", None),
    ],
)
def test_an_old_module_attribute_is_the_new_object_with_a_warning(
    module: str, old: str, home: str, new: str, replacement: str | None
) -> None:
    with deprecated(replacement or f"{home}.{new}"):
        found = getattr(importlib.import_module(module), old)
    assert found is getattr(importlib.import_module(home), new)
    assert old not in importlib.import_module(module).__all__


def test_the_old_record_reasons_are_the_strings_of_release_0_1() -> None:
    with deprecated("RecordReason"):
        reasons = sc.records.REASONS
    assert {"bad_option", "too_large", "must_follow_suit"} <= reasons
    # Every reason of release 0.1 is a RecordReason's tag or an IllegalReason's.
    tags = {reason.value for reason in sc.RecordReason}
    assert reasons <= tags | {reason.value for reason in sc.IllegalReason}
    assert tags - reasons == {"illegal_action"}


def test_the_old_queries_of_transitions_answer_as_the_game_does() -> None:
    from spades_core import transitions

    game = bidding()
    with deprecated(r"Game\.legal_actions\(\)"):
        assert transitions.legal_actions(game) == game.legal_actions()
    with deprecated(r"Game\.legal_bids\(\)"):
        assert transitions.legal_bid_values(game) == game.legal_bids()
    setup = game._standing.setup
    with deprecated(r"Game\.legal_bids\(\)"):
        values = transitions.bid_values(setup, 1, game._held[1], game._bids)
    assert values == game.legal_bids()


def test_a_name_that_never_existed_is_still_an_attribute_error() -> None:
    from spades_core.engine import transitions

    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        transitions.nothing  # noqa: B018


# -- old module paths --------------------------------------------------------------


def fresh(code: str) -> str:
    """What ``code`` prints in a new interpreter, with deprecation warnings shown."""
    done = subprocess.run(
        [sys.executable, "-W", "default::DeprecationWarning", "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


@pytest.mark.parametrize(
    "old", ["spades_core.coach", "spades_core.determinize", "spades_core.playout"]
)
def test_the_old_module_paths_that_clashed_with_functions_are_gone(old: str) -> None:
    # 0.2.0 drops them: each named a module where the package has a function
    # (sc.coach, sc.determinize, sc.playout), which importing it would replace.
    printed = fresh(
        f"import importlib, spades_core as sc\n"
        f"try:\n    importlib.import_module({old!r})\nexcept ModuleNotFoundError:\n"
        "    print('gone')\n"
        "print(type(sc.coach).__name__, type(sc.determinize).__name__, type(sc.playout).__name__)"
    )
    assert printed.split() == ["gone", "function", "function", "function"]


def test_a_game_pickled_by_release_0_1_loads_and_plays_on() -> None:
    # Pickled by spades-core 0.1.0, whose Game lived in spades_core.state and
    # whose history was a plain tuple: Mirror, seed 11, two hands played, then
    # nine random actions of the third. Loading it imports spades_core.state.
    sys.modules.pop("spades_core.state", None)
    with deprecated("pickle it again"):
        loaded = pickle.loads((DATA / "game-0.1.0-mirror-mid-hand.pickle").read_bytes())
    assert isinstance(loaded, sc.Game)
    assert isinstance(loaded.hand_results, HandResults)
    assert loaded.hand_number == 2
    replayed = playout(
        sc.new_game("mirror", seed=11, first_lead="two_of_clubs"), random.Random(4), hands=2
    )
    assert loaded.hand_results == replayed.hand_results
    assert loaded.phase is sc.Phase.PLAY
    # Its completed trick was kept as Trick records; today's game keeps card ids.
    assert len(loaded.tricks) == 1
    assert loaded._played == tuple(card.id for card in loaded.tricks[0].cards)
    assert loaded.apply(loaded.legal_actions()[0]).tricks == loaded.tricks
    finished = playout(loaded, random.Random(5))
    assert len(finished.hand_results) == 3
    assert finished.hand_results[:2] == tuple(replayed.hand_results)
    assert pickle.loads(pickle.dumps(loaded)) == loaded


def test_a_game_pickled_before_the_engine_kept_card_ids_and_a_standing_loads_and_plays_on() -> None:
    # Pickled when a game held its completed tricks as Trick records and its
    # setup, dealer, scores, bags, results and winner as fields of their own,
    # and read its phase from `_phase`: classic with the deuce of clubs
    # leading, seed 23, two hands played, then the third dealt and bid, five
    # tricks and two cards played. The .txt file is its record, saved then.
    loaded = pickle.loads((DATA / "game-classic-mid-hand-tricks-as-records.pickle").read_bytes())
    saved = (DATA / "game-classic-mid-hand-tricks-as-records.txt").read_text()
    assert sc.dumps(loaded) == saved
    assert sc.loads(saved) == loaded
    assert loaded.phase is sc.Phase.PLAY
    assert len(loaded.tricks) == 5
    assert loaded._played == tuple(card.id for trick in loaded.tricks for card in trick.cards)
    assert loaded.hand_number == 2
    assert loaded.scores == sc.loads(saved).scores
    finished = playout(loaded, random.Random(5), hands=1)
    assert len(finished.hand_results) == 3
    assert [trick.cards for trick in finished.hand_results[2].played[:5]] == [
        trick.cards for trick in loaded.tricks
    ]
    assert pickle.loads(pickle.dumps(loaded)) == loaded


def test_the_names_of_release_0_1_still_import_from_state() -> None:
    sys.modules.pop("spades_core.state", None)
    with deprecated("spades_core.game"):
        state = importlib.import_module("spades_core.state")
    from spades_core.engine import game as game_module
    from spades_core.rules import results as results_module

    assert sorted(state.__all__) == sorted(
        ["NO_SEAT", "SEATS", "TEAMS", "Game", "GameSetup", "HandResult", "Phase", "Trick"]
    )
    for name in state.__all__:
        home = results_module if name in ("HandResult", "Trick") else game_module
        assert getattr(state, name) is getattr(home, name)


def test_sc_playout_is_the_function() -> None:
    start = sc.new_game("mirror", seed=7)
    assert sc.playout is playout
    assert sc.playout(start, random.Random(1)) == playout(start, random.Random(1))


# -- members -----------------------------------------------------------------------


def test_legal_plays_is_legal_cards() -> None:
    game = bidding().bid(2).bid(4).bid(1)
    with deprecated(r"Game\.legal_cards\(\)"):
        old = game.legal_plays()
    assert old == game.legal_cards()


def test_view_members_that_were_attributes_are_methods_only() -> None:
    # 0.2.0 chose the methods: they answer as the game's do.
    game = bidding()
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    assert view.hand() == game.hand(seat)
    assert view.legal_actions() == game.legal_actions()
    assert view.dealt_hand() == game.dealt_hand(seat)
    for name in ("hand", "legal_actions", "dealt_hand"):
        assert callable(getattr(view, name))
        with pytest.raises(TypeError):
            len(getattr(view, name))


def test_game_bids_lists_every_seat_while_the_bidding_is_under_way() -> None:
    # 0.2.0 gives Game.bids the shape View.bids has: every seat, None for a
    # seat yet to bid.
    game = bidding()  # West dealt, North bid 3
    assert game.bids == sc.SeatMap((3, None, None, None))
    assert dict(game.bids) == dict(zip(sc.Seat, (3, None, None, None), strict=True))
    assert len(game.bids) == 4
    assert game.bids == game.view(sc.Seat.EAST).bids
    done = game.bid(2).bid(4).bid(1)
    assert dict(done.bids) == {sc.Seat.NORTH: 3, sc.Seat.EAST: 2, sc.Seat.SOUTH: 4, sc.Seat.WEST: 1}
    assert type(done.bids) is sc.SeatMap


# -- keywords ----------------------------------------------------------------------


def test_play_game_max_hands_is_hands() -> None:
    def players() -> list[sc.bots.Bot]:
        return [sc.bots.make("random", seed=seat) for seat in range(4)]

    game = sc.new_game("classic", seed=2)
    with deprecated(r"bots\.play_game\(hands=\.\.\.\)"):
        old = sc.bots.play_game(game, players(), max_hands=1)
    assert old == sc.bots.play_game(game, players(), hands=1)
    assert old.hand_number == 1
    with deprecated("hands="), pytest.raises(sc.RulesError, match="give hands= alone"):
        sc.bots.play_game(game, players(), hands=1, max_hands=1)


def test_simulate_max_hands_and_options_are_hand_limit_and_keywords() -> None:
    common: dict[str, Any] = {"variant": "mirror", "games": 1, "seed": 4, "workers": 1}
    new = sc.simulate("random", "random", hand_limit=2, target_score=150, **common)
    with deprecated(r"simulate\(hand_limit=\.\.\.\)"), deprecated(r"option=value"):
        old = sc.simulate("random", "random", max_hands=2, options={"target_score": 150}, **common)
    assert old.to_json() == new.to_json()
    with deprecated(r"tournament\(hand_limit=\.\.\.\)"):
        sc.tournament(["random", "easy"], max_hands=2, **common)
    with deprecated("option=value"), pytest.raises(sc.RulesError, match="given twice"):
        sc.simulate("random", "random", options={"target_score": 150}, target_score=150, **common)


# -- nothing of the project uses an old name ---------------------------------------

OLD_NAMES = (
    r"\bspades_core\.(coach|determinize|playout|state)\b(?!\()",
    r"from spades_core import [^\n]*\b(state)\b",
    r"from spades_core\.transitions import [^\n]*\b(check|legal_actions|legal_play_mask|"
    r"bid_values|legal_bid_values|make_trick|trick_winner)\b",
    r"\btricks\.legal_mask\b",
    r"from spades_core\.tricks import [^\n]*\blegal_mask\b",
    r"\.legal_plays\(",
    r"\bbatch\.play\(",
    r"from spades_core\.batch import [^\n]*\b(play|play_chunks)\b(?!_)",
    r"\bplay_chunks\b",
    r"\bDEFAULT_MAX_HANDS\b",
    r"\brecords\.REASONS\b|from spades_core\.records import [^\n]*\bREASONS\b",
    r"play_game\([^\n]*max_hands=",
    r"\bsc\.playout\.\w",
    r"\bview\.(hand|legal_actions|dealt_hand)\b(?!\()",
)


def project_texts() -> list[Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for top in ("src", "examples", "bench"):
        found += sorted((ROOT / top).rglob("*.py"))
    kept = ("deprecation.py", "state.py")  # the old names' own homes
    return [path for path in found if path.name not in kept and "build" not in path.parts]


def test_the_library_its_examples_and_docs_use_no_old_name() -> None:
    import re

    offenders = []
    for path in project_texts():
        text = path.read_text(encoding="utf-8")
        # A module's table of its old names (deprecation.OldNames) names them
        # to keep them: blanked, line for line.
        text = re.sub(r"OldNames\((?:.|\n)*?\n\)", lambda table: "\n" * table[0].count("\n"), text)
        for pattern in OLD_NAMES:
            for match in re.finditer(pattern, text):
                line = text.count("\n", 0, match.start()) + 1
                if "deprecated" in text.splitlines()[line - 1].lower():
                    continue  # the old name kept, saying so
                offenders.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)}")
    assert offenders == []


def test_no_module_with_attrs_classes_has_a_global_named_compat() -> None:
    # attrs compiles a class's __repr__ with the globals of the class's module
    # laid over its own, among them its own `_compat` module: a module global
    # of that name breaks repr() of every attrs class there (repr(Tip) did).
    import pkgutil

    import attrs

    broken = []
    for info in pkgutil.walk_packages(sc.__path__, "spades_core."):
        if info.name.startswith(("spades_core.batch", "spades_core.envs", "spades_core.cli")):
            continue  # extras, and the command line, which imports no _compat
        module = importlib.import_module(info.name)
        classes = [
            value
            for value in vars(module).values()
            if isinstance(value, type) and attrs.has(value) and value.__module__ == info.name
        ]
        if classes and "_compat" in vars(module):
            broken.append(info.name)
    assert broken == []
    game = sc.new_game("classic", seed=1).deal()
    assert repr(sc.coach(game.view(sc.Seat.WEST))).startswith("Tip(action=")
