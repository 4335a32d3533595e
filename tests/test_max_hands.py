"""Games that must end: the ``max_hands`` option of every variant, draws at the
hand limit, and :func:`spades_core.scoring.why_games_may_not_end` with the
command-line tools that use it."""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

import spades_core as sc
from spades_core.cli import main
from spades_core.cli.saves import PlayerConfig
from spades_core.cli.session import PlaySession
from spades_core.cli.watch import watch
from spades_core.rules.hooks import checked_game_end
from spades_core.rules.scoring import why_games_may_not_end
from spades_core.testing import check_game
from spades_variants.classic import ClassicVariant
from spades_variants.mirror import MirrorVariant


class LevelScores(MirrorVariant):
    """Mirror where no hand scores a point, so every game stays level."""

    def score_hand(
        self,
        rules: sc.Rules,
        bids: sc.SeatMap[int],
        tricks: sc.SeatMap[int],
        bags_before: sc.TeamMap[int],
    ) -> tuple[sc.TeamMap[int], sc.TeamMap[int]]:
        return sc.TeamMap((0, 0)), bags_before


LEVEL = LevelScores(id="level", title="Level", options={"target_score": 500})


def played(game: sc.Game, hands: int, seed: int = 0) -> sc.Game:
    """``game`` after random legal play through ``hands`` hands, or to its end."""
    rng = random.Random(seed)
    while not game.is_over and len(game.hand_results) < hands:
        legal = game.legal_actions()
        game = game.apply(legal[rng.randrange(len(legal))])
    return game


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
@pytest.mark.parametrize("limit", [1, 3])
def test_max_hands_ends_the_game_after_that_many_hands(variant: str, limit: int) -> None:
    # A target out of reach, and no floor: only the hand limit can end these games.
    game = sc.new_game(variant, seed=4, target_score=1_000_000, loss_floor=None, max_hands=limit)
    game = played(game, limit + 5)
    assert game.phase is sc.Phase.GAME_OVER
    assert len(game.hand_results) == limit
    ns, ew = game.scores[sc.Team.NS], game.scores[sc.Team.EW]
    assert game.winner is (None if ns == ew else sc.Team.NS if ns > ew else sc.Team.EW)
    assert game.legal_actions() == ()
    check_game(game)


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_without_max_hands_the_game_plays_on(variant: str) -> None:
    game = played(sc.new_game(variant, seed=4, target_score=1_000_000, loss_floor=None), 4)
    assert game.rules.max_hands is None
    assert game.phase is not sc.Phase.GAME_OVER
    assert len(game.hand_results) == 4


def test_the_target_still_ends_a_game_before_the_hand_limit() -> None:
    game = played(sc.new_game("classic", seed=4, target_score=1, max_hands=50), 60)
    assert game.is_over
    assert len(game.hand_results) < 50
    assert game.winner is not None


def test_equal_scores_at_the_hand_limit_are_a_draw() -> None:
    game = played(sc.new_game(LEVEL, seed=2, max_hands=2), 5)
    assert len(game.hand_results) == 2
    assert game.scores == sc.TeamMap((0, 0))
    assert game.phase is sc.Phase.GAME_OVER
    assert game.is_over
    assert game.winner is None
    assert game.legal_actions() == ()
    with pytest.raises(sc.IllegalActionError) as caught:
        game.deal()
    assert caught.value.reason is sc.IllegalReason.WRONG_PHASE
    assert "won" not in repr(game)
    check_game(game)


def test_a_drawn_game_round_trips_through_its_record() -> None:
    game = played(sc.new_game(LEVEL, seed=2, max_hands=2), 5)
    text = sc.dumps(game)
    again = sc.loads(text, variant=LEVEL)
    assert again == game
    assert (again.phase, again.winner) == (sc.Phase.GAME_OVER, None)


def test_a_record_with_max_hands_replays_to_the_same_end() -> None:
    game = played(sc.new_game("mirror", seed=9, target_score=1_000_000, max_hands=2), 5)
    text = sc.dumps(game)
    assert '"max_hands":2' in text
    assert sc.loads(text) == game


def test_the_variant_s_winner_comes_before_the_hand_limit() -> None:
    classic = sc.load_variant("classic")
    rules = classic.rules(max_hands=3)
    assert checked_game_end(classic, rules, (510, 100), 3) == (True, sc.Team.NS)
    assert checked_game_end(classic, rules, (10, 100), 2) == (False, None)
    assert checked_game_end(classic, rules, (10, 100), 3) == (True, sc.Team.EW)
    assert checked_game_end(classic, rules, (100, 10), 3) == (True, sc.Team.NS)
    assert checked_game_end(classic, rules, (10, 10), 3) == (True, None)
    assert checked_game_end(classic, rules, (10, 10), 4) == (True, None)
    unlimited = classic.rules()
    assert checked_game_end(classic, unlimited, (10, 10), 10**6) == (False, None)


def test_max_hands_applies_to_a_plugin_that_decides_the_end_itself() -> None:
    class NeverEnds(ClassicVariant):
        def game_outcome(self, rules: sc.Rules, scores: sc.TeamMap[int]) -> sc.Team | None:
            return None

        def legal_bids(
            self, rules: sc.Rules, seat: sc.Seat, hand: sc.CardSet, bids: Mapping[sc.Seat, int]
        ) -> Iterable[int]:
            return range(4)

    variant = NeverEnds(id="never", title="Never", options={"max_hands": 2})
    game = played(sc.new_game(variant, seed=1), 5)
    assert game.is_over
    assert len(game.hand_results) == 2


def test_max_hands_must_be_a_whole_number_in_range() -> None:
    for value in (0, -3, 1_000_001, 2.0, "3", True):
        with pytest.raises(sc.RulesError, match="'max_hands' accepts a whole number from 1"):
            sc.new_game("whiz", seed=1, dealer=None, max_hands=value)


# -- option sets whose games need not end ---------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_the_built_in_defaults_are_bound_to_end(variant: str) -> None:
    assert why_games_may_not_end(sc.load_variant(variant).rules()) is None


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("mirror", {"bag_limit": 1}),
        ("mirror", {"bag_limit": 1, "bag_overflow": "reset"}),
        ("whiz", {"bag_limit": 5}),
        ("mirror", {"bag_penalty": 101}),
        ("classic", {"loss_floor": None, "bag_limit": 2}),
        ("classic", {"loss_floor": None, "bag_penalty": 1_000_000, "bag_limit": 1000}),
    ],
)
def test_bags_dearer_than_tricks_without_a_floor_or_limit_may_never_end(
    variant: str, options: dict[str, object]
) -> None:
    rules = sc.load_variant(variant).rules(**options)
    reason = why_games_may_not_end(rules)
    assert reason is not None
    assert "more than the 10 points a bid trick earns" in reason
    assert reason.endswith("set loss_floor or max_hands")


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("mirror", {"bag_limit": 1, "max_hands": 200}),
        ("mirror", {"bag_limit": 1, "loss_floor": -1_000_000}),
        ("mirror", {"bag_limit": None}),
        ("mirror", {"bag_limit": 1, "bag_penalty": 10}),
        ("mirror", {"bag_penalty": 100, "bag_limit": 10}),
        ("classic", {"bag_limit": 1}),  # classic's -200 floor
        ("classic", {"loss_floor": None}),
    ],
)
def test_a_floor_a_hand_limit_or_cheap_bags_let_games_end(
    variant: str, options: dict[str, object]
) -> None:
    assert why_games_may_not_end(sc.load_variant(variant).rules(**options)) is None


def test_the_reason_names_the_bag_cost() -> None:
    mirror = sc.load_variant("mirror")
    one = why_games_may_not_end(mirror.rules(bag_limit=1))
    assert one is not None
    assert one.startswith("every bag costs 100 points, ")
    five = why_games_may_not_end(mirror.rules(bag_limit=5, bag_penalty=2500))
    assert five is not None
    assert five.startswith("every 5 bags cost 2,500 points, ")


def test_watch_refuses_options_whose_games_may_never_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["watch", "--variant", "mirror", "--delay", "0", "-o", "bag_limit=1"]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("spades watch: this game may never end: every bag costs 100")
    assert captured.err.rstrip().endswith("set loss_floor or max_hands, or --hands")


def test_watch_shows_such_options_for_a_number_of_hands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["watch", "--variant", "mirror", "--delay", "0", "--seed", "3", "--level", "easy"]
    assert main([*args, "-o", "bag_limit=1", "--hands", "1"]) == 0
    assert "Stopped after 1 hand: " in capsys.readouterr().out


def test_watch_plays_those_options_with_a_hand_limit_to_a_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["watch", "--variant", "mirror", "--delay", "0", "--seed", "3", "--level", "easy"]
    assert main([*args, "-o", "bag_limit=1", "-o", "max_hands=2"]) == 0
    out = capsys.readouterr().out
    assert out.count(" scored\n") == 2
    assert out.rstrip().endswith("after 2 hands.")


def test_watch_announces_a_draw() -> None:
    out = io.StringIO()
    levels = {sc.Team.NS: "easy", sc.Team.EW: "easy"}
    game = watch(sc.new_game(LEVEL, seed=3, max_hands=2), levels, out=out)
    assert (game.phase, game.winner) == (sc.Phase.GAME_OVER, None)
    assert out.getvalue().rstrip().splitlines()[-1] == "A draw at 0 all after 2 hands."


def test_play_warns_about_options_whose_games_may_never_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SPADES_CORE_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    status = main(["play", "--variant", "mirror", "--delay", "0", "-o", "bag_limit=1"])
    out = capsys.readouterr().out
    assert status == 0
    assert "Warning: this game may never end: every bag costs 100 points" in out


def test_play_gives_no_warning_for_the_defaults(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SPADES_CORE_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--variant", "mirror", "--delay", "0"]) == 0
    assert "may never end" not in capsys.readouterr().out


def test_play_announces_a_draw_and_clears_the_autosave(tmp_path: Path) -> None:
    autosave = tmp_path / "autosave.json"
    autosave.write_text("{}", encoding="utf-8")
    out = io.StringIO()
    drawn = played(sc.new_game(LEVEL, seed=3, max_hands=1), 3)
    session = PlaySession(
        drawn,
        PlayerConfig(),
        autosave=autosave,
        out=out,
        read_line=input,
        echo_input=False,
        delay=0.0,
    )
    session.finish()
    assert out.getvalue().strip() == (
        "Game over after 1 hand (the hand limit, max_hands=1): a draw at 0 all."
    )
    assert not autosave.exists()
