"""Every player's budget has a documented range, checked when the player is
made: a value past it (a number too large to print included) raises
``RulesError`` naming the range, a value of another type
``ArgumentTypeError``, an option the player does not have ``RulesError``;
what is not a player is refused as a wrong type wherever a player is asked;
and a decision at the top of every range does bounded work."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import spades_core as sc
from spades_core import bots
from spades_core.bots import sim
from spades_core.bots.perfect import PerfectInfoBot
from spades_core.players import PlayerError, make_player

GAME = sc.new_game("classic", seed=4).deal()

pytestmark = pytest.mark.integration("batch")  # numpy arrays offered as players


@pytest.mark.parametrize(("option", "limits"), sorted(bots.BUDGET_LIMITS.items()))
@pytest.mark.parametrize("past", ["below", "above", "huge", "negative huge"])
def test_a_budget_past_its_range_is_a_rules_error_naming_the_range(
    option: str, limits: tuple[int, int], past: str
) -> None:
    lowest, highest = limits
    value = {
        "below": lowest - 1,
        "above": highest + 1,
        "huge": 10**5000,
        "negative huge": -(10**5000),
    }[past]
    with pytest.raises(
        sc.RulesError, match=f"{option} must be a whole number ≥ {lowest:,} and ≤ {highest:,}"
    ):
        bots.HardBot(1, **{option: value})  # type: ignore[arg-type]
    with pytest.raises(PlayerError, match=f"{option} must be a whole number"):
        make_player(f"hard:{option}={value if past in ('below', 'above') else 10**30}", seed=1)


@pytest.mark.parametrize("option", sorted(bots.BUDGET_LIMITS))
@pytest.mark.parametrize("value", [1.5, "7", None, True, np.int64(5), [3]])
def test_a_budget_of_another_type_is_an_argument_type_error(option: str, value: object) -> None:
    with pytest.raises(sc.ArgumentTypeError, match=f"{option} must be a whole number"):
        bots.HardBot(1, **{option: value})  # type: ignore[arg-type]


def test_every_budget_at_the_ends_of_its_range_is_taken() -> None:
    lowest: dict[str, Any] = {option: low for option, (low, _) in bots.BUDGET_LIMITS.items()}
    highest: dict[str, Any] = {option: high for option, (_, high) in bots.BUDGET_LIMITS.items()}
    assert bots.HardBot(1, **lowest).budget.draws == 1
    assert bots.HardBot(1, **highest).budget.max_samples == 1_000
    # The defaults lie inside the ranges.
    for option, (low, high) in bots.BUDGET_LIMITS.items():
        assert low <= getattr(bots.DEFAULT_BUDGET, option) <= high


@pytest.mark.parametrize("confidence", [-0.5, 100, 1e300, float("inf"), float("nan")])
def test_confidence_out_of_range_is_a_rules_error(confidence: float) -> None:
    with pytest.raises(sc.RulesError, match="confidence must be from 0 to below 100"):
        bots.HardBot(1, confidence=confidence)


@pytest.mark.parametrize(
    "cls", [bots.RandomBot, bots.EasyBot, bots.NormalBot, bots.HardBot, PerfectInfoBot]
)
def test_an_unknown_keyword_is_the_rules_error_of_an_unknown_option(cls: type[Any]) -> None:
    with pytest.raises(sc.RulesError, match=f"{cls.__name__} has no option bogus"):
        cls(bogus=1)
    with pytest.raises(sc.RulesError, match="has no option x, xy, xyy, xyyy, xyyyy and 1 more"):
        cls(1, **{f"x{'y' * n}": n for n in range(6)})
    # A keyword of any text is shown cut short.
    with pytest.raises(sc.RulesError) as raised:
        cls(**{"z" * 10_000: 1})
    assert len(str(raised.value)) < 300


def test_make_refuses_an_unknown_option_for_every_level() -> None:
    with pytest.raises(sc.RulesError, match="unknown hard bot option bogus"):
        bots.make("hard", bogus=1)
    with pytest.raises(sc.RulesError, match="the normal bot takes no options"):
        bots.make("normal", bogus=1)


@pytest.mark.parametrize(
    "value", [np.int64(3), np.float64(2.0), np.array([1, 2]), 3, 2.5, "easy", b"x", None]
)
def test_a_value_is_not_a_player_wherever_a_player_is_asked(value: object) -> None:
    # numpy's scalars and arrays have a choose method of their own.
    with pytest.raises(sc.ArgumentTypeError, match="is not a player"):
        bots.ask(value, GAME, GAME.to_act)  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="is not a player"):
        bots.play_game(GAME, [value, *(bots.make("random", seed=s) for s in range(3))])  # type: ignore[list-item]


def test_a_decision_at_the_top_of_every_range_does_bounded_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    top: dict[str, Any] = {option: high for option, (_, high) in bots.BUDGET_LIMITS.items()}
    hard = bots.HardBot(3, **top, prune=False, inference=True)
    # Late in a hand, where the play-outs are short: 11 tricks played by easy bots.
    game = GAME
    easy = bots.make("easy", seed=1)

    def step(game: sc.Game) -> sc.Game:
        seat = game.to_act
        assert seat is not None
        return game.apply(bots.ask(easy, game, seat), seat=seat)

    while game.phase is sc.Phase.BID or len(game.tricks) < 11 or game.current_trick:
        game = step(game)
    while len(game.legal_actions()) < 2:
        game = step(game)
    seat = game.to_act
    assert seat is not None
    played = 0
    samples_drawn = 0
    play_out = sim.Sim.play_out
    sample = sim.BidReader.sample

    def counted_play_out(sim: Any) -> None:
        nonlocal played
        played += 1
        play_out(sim)

    def counted_sample(reader: Any, *args: Any) -> Any:
        nonlocal samples_drawn
        samples_drawn += 1
        return sample(reader, *args)

    monkeypatch.setattr(sim.Sim, "play_out", counted_play_out)
    monkeypatch.setattr(sim.BidReader, "sample", counted_sample)
    view = game.view(seat)
    assert hard.choose(view) in view.legal_actions()
    candidates = len(view.legal_actions())
    assert 0 < played <= top["max_samples"] * candidates
    assert samples_drawn <= top["max_samples"]


@pytest.mark.parametrize("cls", [bots.RandomBot, bots.NormalBot, bots.HardBot, PerfectInfoBot])
def test_the_seed_is_taken_by_position_or_by_name_but_not_both(cls: type[Any]) -> None:
    assert cls(5).seed == cls(seed=5).seed == 5
    with pytest.raises(sc.RulesError, match="the seed is given twice"):
        cls(5, seed=6)
    with pytest.raises(sc.RulesError, match="has no option self"):
        cls(5, self=6)
