"""The testing kit for variant authors (``spades_core.testing``): the
built-in variants pass the conformance suite and the state machine, the
strategies produce valid objects, the kit is optional, and — most important —
it fails for broken variants, naming the check and a reproducing seed."""

from __future__ import annotations

import enum
import importlib.metadata
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

import spades_core as sc
import spades_core.engine.game
import spades_core.engine.views
from spades_core.testing import (
    CHECKS,
    ConformanceError,
    MissingTestingExtraError,
    VariantMachine,
    check_game,
    check_illegal_actions,
    check_record,
    check_variant,
    check_views,
)
from spades_core.testing.strategies import (
    action_sequences,
    card_sets,
    cards,
    deals,
    games,
    option_sets,
    option_values,
)
from spades_core.values.options import OptionSpec, int_option
from spades_variants.classic import ClassicVariant
from variant_doubles import like_classic

BUILTINS = ("classic", "mirror", "whiz")
SMALL = settings(max_examples=15, deadline=None)


# -- the built-in variants conform ---------------------------------------------------


@pytest.mark.parametrize("variant_id", BUILTINS)
def test_builtin_variant_passes_check_variant(variant_id: str) -> None:
    check_variant(variant_id, max_examples=6, hands=2)


def test_check_variant_replays_one_scenario_by_seed() -> None:
    check_variant("classic", seed=12345)
    check_variant(sc.load_variant("whiz"), seed=0, hands=3)


def test_option_combinations_cover_every_choice_of_the_standard_options() -> None:
    whiz = option_values("whiz")
    assert set(whiz) == {
        "nil_tricks",
        "double_nil",
        "bag_overflow",
        "break_rule",
        "first_lead",
        "whiz_nil_needs_no_ace",
    }
    assert whiz["nil_tricks"] == ("count_toward_contract", "bags_only", "bags_with_points")
    assert whiz["whiz_nil_needs_no_ace"] == (False, True)
    assert "whiz_nil_needs_no_ace" not in option_values("classic")


class _Dues(enum.StrEnum):
    NONE = "none"
    FLAT = "flat"


def test_a_plugins_own_flags_and_choices_are_tried_from_their_specs() -> None:
    """No option name is special: whatever an option spec lists is tried,
    Whiz's ace rule and a plugin's own flag and choice alike; a plugin's own
    whole-number option keeps its default unless values are given."""
    from spades_core.values.options import bool_option, choice_option, int_option

    generous = bool_option("generous", "a made Nil scores double")
    dues = choice_option("dues", "what each team pays per hand", _Dues)
    tax = int_option("tax", "points each team pays", minimum=0, maximum=9)

    class Own(sc.Variant):
        def legal_bids(self, rules: sc.Rules, seat: sc.Seat, hand: object, bids: object) -> range:
            return range(1, 14)

    own = Own(id="own", title="Own", options={generous: False, dues: "none", tax: 0})
    assert option_values(own) == {"generous": (False, True), "dues": ("none", "flat")}
    assert option_values(own, {"tax": (0, 5)})["tax"] == (0, 5)
    assert find(option_sets(own), lambda options: options.get("generous") is True)
    assert find(option_sets(own), lambda options: options.get("dues") == "flat")
    with pytest.raises(NoSuchExample):
        find(option_sets(own), lambda options: "tax" in options)


class ClassicMachine(VariantMachine):
    variant = "classic"


class MirrorMachine(VariantMachine):
    variant = "mirror"


class WhizMachine(VariantMachine):
    variant = "whiz"
    options: ClassVar[Mapping[str, object] | None] = {"whiz_nil_needs_no_ace": True}


MACHINE_SETTINGS = settings(max_examples=5, stateful_step_count=20, deadline=None)
TestClassicMachine = ClassicMachine.TestCase
TestClassicMachine.settings = MACHINE_SETTINGS
TestMirrorMachine = MirrorMachine.TestCase
TestMirrorMachine.settings = MACHINE_SETTINGS
TestWhizMachine = WhizMachine.TestCase
TestWhizMachine.settings = MACHINE_SETTINGS


# -- strategies ------------------------------------------------------------------------


@SMALL
@given(cards(), card_sets(min_size=3, max_size=7))
def test_cards_and_card_sets_strategies(card: sc.Card, cards_: sc.CardSet) -> None:
    assert isinstance(card, sc.Card)
    assert 0 <= card.id < 52
    assert isinstance(cards_, sc.CardSet)
    assert 3 <= len(cards_) <= 7


@SMALL
@given(deals())
def test_deals_strategy_gives_four_disjoint_hands_covering_the_deck(
    deal: sc.SeatMap[sc.CardSet],
) -> None:
    hands = list(deal.values())
    assert [len(hand) for hand in hands] == [13, 13, 13, 13]
    union = sc.CardSet(0)
    for hand in hands:
        assert not union & hand
        union = union | hand
    assert union == sc.CardSet.full_deck()
    assert sc.new_game("classic", seed=1).deal(deal).dealt_hand(sc.Seat.EAST) == deal[sc.Seat.EAST]


@pytest.mark.parametrize("variant_id", BUILTINS)
def test_option_sets_are_valid_for_their_variant(variant_id: str) -> None:
    variant = sc.load_variant(variant_id)

    @SMALL
    @given(option_sets(variant))
    def check(options: dict[str, object]) -> None:
        assert set(options) <= set(variant.option_specs)
        rules = variant.rules(**options)
        assert dict(rules.overrides).keys() == options.keys()

    check()


class TaxedClassic(ClassicVariant):
    """Classic with an option of its own the kit cannot guess values for."""


TAX: OptionSpec[int] = int_option("tax", "points every hand costs", minimum=0, maximum=50)
TAXED = TaxedClassic(id="taxed", title="Taxed classic", options={"target_score": 300, TAX: 5})


def test_option_sets_leave_unknown_plugin_options_at_their_default_unless_given_values() -> None:
    @SMALL
    @given(option_sets(TAXED))
    def without_values(options: dict[str, object]) -> None:
        assert "tax" not in options

    @SMALL
    @given(option_sets(TAXED, extra={"tax": [0, 50]}))
    def with_values(options: dict[str, object]) -> None:
        assert options.get("tax", 0) in (0, 50)

    without_values()
    with_values()
    assert option_values(TAXED, {"tax": [1, 2]}) == {"tax": (1, 2)}
    check_variant(TAXED, max_examples=2, hands=1, extra_option_values={"tax": [0, 50]})


@pytest.mark.parametrize("phase", [sc.Phase.DEAL, sc.Phase.BID, sc.Phase.PLAY])
@pytest.mark.parametrize("variant_id", BUILTINS)
def test_games_strategy_reaches_the_requested_phase_by_legal_play(
    variant_id: str, phase: sc.Phase
) -> None:
    @settings(max_examples=8, deadline=None)
    @given(games(variant_id, phase=phase, max_hands=3))
    def check(game: sc.Game) -> None:
        assert game.phase is phase
        assert game.variant.id == variant_id
        check_game(game)

    check()


def test_games_strategy_plays_to_game_over() -> None:
    @settings(max_examples=5, deadline=None)
    @given(games("mirror", phase=sc.Phase.GAME_OVER))
    def check(game: sc.Game) -> None:
        assert game.is_over
        # Without a winner only as a draw at the hand limit.
        scores = game.scores
        draw = (
            game.rules.max_hands == len(game.hand_results)
            and scores.values_[0] == scores.values_[1]
        )
        assert (game.winner is not None) or draw
        check_game(game)

    check()


def test_games_without_a_phase_reach_every_phase() -> None:
    # A statement about how often the strategy stops in each phase, so its examples
    # are pinned (any profile): the least common phase is about a fifth of them, and
    # a fixed draw of 40 keeps the test from depending on a lucky seed.
    seen: set[sc.Phase] = set()

    @settings(max_examples=40, deadline=None, derandomize=True, database=None)
    @given(games("classic", options=st.just({"target_score": 1}), max_hands=2))
    def check(game: sc.Game) -> None:
        seen.add(game.phase)
        check_game(game)

    check()
    # Classic adds no phases of its own, so it is never in VARIANT.
    assert seen == set(sc.Phase) - {sc.Phase.VARIANT}


@SMALL
@given(
    games("whiz", max_hands=1).flatmap(
        lambda game: st.tuples(st.just(game), action_sequences(game, min_size=1, max_size=30))
    )
)
def test_action_sequences_are_legal_one_after_another(start_and_actions: Any) -> None:
    start, actions = start_and_actions
    assert 1 <= len(actions) <= 30
    game = start
    for action in actions:
        assert action in game.legal_actions()
        game = game.apply(action)


# -- the kit catches broken variants -------------------------------------------------------


class TooHighBids(ClassicVariant):
    def legal_bids(
        self, rules: sc.Rules, seat: sc.Seat, hand: sc.CardSet, bids: Mapping[sc.Seat, int]
    ) -> Iterable[int]:
        return (*super().legal_bids(rules, seat, hand, bids), 14)


class FloatScores(ClassicVariant):
    def score_hand(
        self,
        rules: sc.Rules,
        bids: sc.SeatMap[int],
        tricks: sc.SeatMap[int],
        bags_before: sc.TeamMap[int],
    ) -> tuple[sc.TeamMap[int], sc.TeamMap[int]]:
        points, bags = super().score_hand(rules, bids, tricks, bags_before)
        return sc.TeamMap((points[sc.Team.NS] / 1, points[sc.Team.EW])), bags  # type: ignore[arg-type]


class BadOutcome(ClassicVariant):
    def game_outcome(self, rules: sc.Rules, scores: sc.TeamMap[int]) -> sc.Team | None:
        return 2  # type: ignore[return-value]


class LyingCounts(ClassicVariant):
    def revealed_spade_counts(
        self, rules: sc.Rules, bids: Mapping[sc.Seat, int]
    ) -> dict[sc.Seat, int]:
        return {seat: bid + 1 for seat, bid in bids.items()}


class CrashingCounts(ClassicVariant):
    def revealed_spade_counts(
        self, rules: sc.Rules, bids: Mapping[sc.Seat, int]
    ) -> dict[sc.Seat, int]:
        raise KeyError("oops")


_calls = [0]


class DriftingScores(ClassicVariant):
    def score_hand(
        self,
        rules: sc.Rules,
        bids: sc.SeatMap[int],
        tricks: sc.SeatMap[int],
        bags_before: sc.TeamMap[int],
    ) -> tuple[sc.TeamMap[int], sc.TeamMap[int]]:
        _calls[0] += 1
        points, bags = super().score_hand(rules, bids, tricks, bags_before)
        return sc.TeamMap((points[sc.Team.NS] + _calls[0], points[sc.Team.EW])), bags


def broken(cls: type[ClassicVariant]) -> sc.Variant:
    return like_classic(cls, "broken")


@pytest.mark.parametrize(
    ("variant_class", "check", "detail"),
    [
        (TooHighBids, "legal_actions", "legal_bids must return"),
        (FloatScores, "scores", "whole numbers"),
        (BadOutcome, "game_end", "game_outcome must return Team.NS, Team.EW or None"),
        (LyingCounts, "views", "spades"),
        # The engine reports a crashing hook as VariantLoadError, so the view fails.
        (CrashingCounts, "views", "KeyError"),
        (DriftingScores, "records|same_seed", "game"),
    ],
)
def test_check_variant_catches_a_broken_variant_and_names_check_and_seed(
    variant_class: type[ClassicVariant], check: str, detail: str
) -> None:
    variant = broken(variant_class)
    with pytest.raises(ConformanceError) as caught:
        check_variant(variant, max_examples=5, combinations=False)
    failure = caught.value
    # Nondeterministic scoring shows in whichever replay comes first: loading
    # a record or replaying the actions.
    assert failure.check in check.split("|")
    assert failure.check in CHECKS
    assert detail in str(failure)
    assert failure.variant_id == "broken"
    assert failure.seed is not None
    assert f"reproduce with: check_variant(variant, seed={failure.seed})" in str(failure)
    assert isinstance(failure, AssertionError)
    with pytest.raises(ConformanceError) as again:
        check_variant(variant, seed=failure.seed)
    assert again.value.check in check.split("|")


def test_option_combination_sweep_catches_a_failure_under_one_option_only() -> None:
    class BadTwoOfClubs(ClassicVariant):
        def game_outcome(self, rules: sc.Rules, scores: sc.TeamMap[int]) -> sc.Team | None:
            return 5 if rules.first_lead is sc.FirstLead.TWO_OF_CLUBS else None  # type: ignore[return-value]

    variant = broken(BadTwoOfClubs)
    with pytest.raises(ConformanceError) as caught:
        check_variant(variant, max_examples=1)
    assert caught.value.check == "game_end"
    assert "'first_lead': 'two_of_clubs'" in str(caught.value)


class NoTwoOfClubsLead(ClassicVariant):
    def check_rules(self, rules: sc.Rules) -> None:
        if rules.first_lead is sc.FirstLead.TWO_OF_CLUBS:
            raise sc.RulesError("this variant always starts left of the dealer")


class NoOverrides(ClassicVariant):
    def check_rules(self, rules: sc.Rules) -> None:
        if rules.overrides:
            raise sc.RulesError("this variant takes no options")


def test_the_kit_only_uses_option_combinations_the_variant_accepts() -> None:
    variant = broken(NoTwoOfClubsLead)

    @SMALL
    @given(option_sets(variant))
    def check(options: dict[str, object]) -> None:
        assert options.get("first_lead") != "two_of_clubs"

    check()
    check_variant(variant, max_examples=3, hands=1)


def test_a_variant_rejecting_every_option_combination_fails_the_definition_check() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_variant(broken(NoOverrides), max_examples=1)
    assert caught.value.check == "definition"
    assert "rejects every combination" in str(caught.value)


def test_check_views_catches_a_view_showing_another_seats_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_view_for = spades_core.engine.game._view

    def leaky_view_for(game: sc.Game, seat: sc.Seat | None) -> spades_core.engine.views.View:
        view = real_view_for(game, seat)
        if seat is None or game.phase is not sc.Phase.BID:
            return view
        return attrs.evolve(view, hand=view.hand() | game.hand(seat.next))

    game = sc.new_game("classic", seed=4).deal()
    check_views(game)
    monkeypatch.setattr(spades_core.engine.game, "_view", leaky_view_for)
    with pytest.raises(ConformanceError, match="'views' check"):
        check_views(game)


def test_check_views_catches_a_view_that_depends_on_hidden_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_view_for = spades_core.engine.game._view

    def telling_view_for(game: sc.Game, seat: sc.Seat | None) -> spades_core.engine.views.View:
        view = real_view_for(game, seat)
        # Leaks whether the next seat holds the ace of spades, through a public field.
        holds_ace = sc.Card.parse("AS") in game.hand(sc.Seat((view.dealer + 1) % 4))
        return attrs.evolve(view, spades_broken=holds_ace)

    monkeypatch.setattr(spades_core.engine.game, "_view", telling_view_for)
    failed_checks: list[str] = []
    for seed in range(12):
        try:
            check_views(sc.new_game("classic", seed=seed).deal())
        except ConformanceError as error:
            failed_checks.append(error.check)
    assert failed_checks
    assert set(failed_checks) == {"views"}


def test_single_state_checks_pass_on_a_game_in_progress() -> None:
    game = sc.new_game("mirror", seed=9).deal()
    while game.phase is sc.Phase.BID:
        game = game.apply(game.legal_actions()[0])
    for _ in range(7):
        game = game.apply(game.legal_actions()[-1])
    check_game(game)
    check_illegal_actions(game)
    check_views(game)
    check_record(game)


def test_check_game_catches_a_corrupted_state() -> None:
    game = sc.new_game("classic", seed=2).deal()
    held = list(game._held)
    held[0], held[1] = held[1], held[0]
    corrupt = attrs.evolve(game, held=tuple(held))
    with pytest.raises(ConformanceError) as caught:
        check_game(corrupt)
    assert caught.value.check == "cards_conserved"


def test_check_variant_of_an_unknown_id_fails_the_definition_check() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_variant("no-such-variant", max_examples=1)
    assert caught.value.check == "definition"


# -- the kit is optional ----------------------------------------------------------------------


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_importing_spades_core_does_not_import_the_testing_kit() -> None:
    result = run_python(
        """
        import sys
        import spades_core
        game = spades_core.new_game("classic", seed=1).deal()
        kit = ("spades_core.testing", "hypothesis", "pytest", "_pytest")
        loaded = [name for name in sys.modules if name.startswith(kit)]
        print(loaded)
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_testing_kit_without_hypothesis_says_how_to_install_it() -> None:
    result = run_python(
        """
        import sys
        sys.modules["hypothesis"] = None  # as if Hypothesis were not installed
        try:
            import spades_core.testing
        except ImportError as error:
            print(type(error).__name__, isinstance(error, ImportError), error)
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("MissingTestingExtraError True ")
    assert "pip install spades-core[testing]" in result.stdout
    assert issubclass(MissingTestingExtraError, ImportError)


# -- the pytest plugin ------------------------------------------------------------------------

PLUGIN_TEST = """
from spades_core import Variant
from spades_core.testing import check_variant


def test_each_variant(spades_variant, spades_variant_id):
    assert isinstance(spades_variant, Variant)
    assert spades_variant.id == spades_variant_id
    check_variant(spades_variant, max_examples=1, hands=1, combinations=False)
"""


def run_pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_plugin_use.py").write_text(PLUGIN_TEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    # Only the plugins named with -p load (others' autoloading costs seconds).
    environment = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-v",
            "-p",
            "no:cacheprovider",
            *args,
            "test_plugin_use.py",
        ],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_pytest_plugin_parametrizes_fixtures_over_installed_variants(tmp_path: Path) -> None:
    result = run_pytest(tmp_path, "-p", "spades_core.testing.pytest_plugin")
    assert result.returncode == 0, result.stdout + result.stderr
    for variant_id in BUILTINS:
        assert f"test_each_variant[{variant_id}] PASSED" in result.stdout
    assert "spades-core variants: classic (spades-core" in result.stdout


def test_pytest_plugin_restricts_variants_by_option(tmp_path: Path) -> None:
    result = run_pytest(
        tmp_path, "-p", "spades_core.testing.pytest_plugin", "--spades-variant", "whiz"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "test_each_variant[whiz] PASSED" in result.stdout
    assert "[classic]" not in result.stdout
    without_plugin = run_pytest(tmp_path)
    assert without_plugin.returncode != 0
    assert "fixture 'spades_variant' not found" in without_plugin.stdout


def test_pytest_plugin_is_not_loaded_automatically() -> None:
    # pytest autoloads exactly the "pytest11" entry points of installed distributions.
    groups = {entry.group for entry in importlib.metadata.distribution("spades-core").entry_points}
    assert "spades_core.variants" in groups
    assert "pytest11" not in groups
