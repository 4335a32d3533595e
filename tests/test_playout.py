"""The fast simulation path: ``playout`` gives exactly the games the
checked API gives for the same choices, and the engine's fast internals
(bulk seeded deal, direct game construction) equal their plain versions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from spades_core import IllegalActionError, IllegalReason, Phase
from spades_core.engine.playouts import playout
from spades_core.rules import rng

# Variants with option sets that change the paths playout takes: the first lead
# (two_of_clubs), what breaks spades, how bids are formed and how Nil tricks count.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"first_lead": "two_of_clubs"}),
    ("classic", {"break_rule": "any_spade", "max_team_bid": None}),
    ("classic", {"nil_tricks": "bags_only", "double_nil": "all_or_nothing", "target_score": 250}),
    ("mirror", {}),
    ("mirror", {"first_lead": "two_of_clubs", "break_rule": "offsuit_spade"}),
    ("whiz", {}),
    ("whiz", {"whiz_nil_needs_no_ace": True, "first_lead": "two_of_clubs"}),
]


def checked_hands(
    game: sc.Game, choose: Callable[[tuple[sc.Action, ...]], sc.Action], hands: int | None
) -> sc.Game:
    """The checked path: apply ``choose(legal_actions())`` until ``hands``
    hands are scored or the game is over."""
    finished = 0
    while not game.is_over and (hands is None or finished < hands):
        game = game.apply(choose(game.legal_actions()))
        if game.phase is Phase.DEAL:
            finished += 1
    return game


def advanced(game: sc.Game, steps: int, seed: int) -> sc.Game:
    """``game`` after up to ``steps`` random checked actions (stopping at the end)."""
    chooser = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game = game.apply(chooser.choice(game.legal_actions()))
    return game


def public_records(game: sc.Game) -> list[tuple[object, ...]]:
    """Every public field of every hand result, the decoded tricks included."""
    return [
        (
            result.number,
            result.dealer,
            result.deal,
            result.bids,
            result.tricks,
            result.points,
            result.bags,
            result.scores,
            result.played,
        )
        for result in game.hand_results
    ]


@st.composite
def starting_games(draw: st.DrawFn) -> sc.Game:
    """A game of one of CONFIGS at any point: waiting for a deal, bidding, or in
    the middle of a trick, sometimes with an explicitly dealt hand."""
    variant, options = draw(st.sampled_from(CONFIGS))
    game = sc.new_game(variant, seed=draw(st.integers(0, 2**64 - 1)), **options)
    # Half the time within the deal, the bidding and the first trick, where most rules differ.
    steps = draw(st.one_of(st.integers(0, 9), st.integers(0, 140)))
    game = advanced(game, steps, draw(st.integers(0, 2**32)))
    if game.phase is Phase.DEAL and draw(st.booleans()):
        deck = list(range(52))
        draw(st.randoms(use_true_random=False)).shuffle(deck)
        hands = {seat: [sc.Card.from_id(card) for card in deck[seat::4]] for seat in sc.Seat}
        game = game.deal(hands)
    return game


@settings(max_examples=60)
@given(game=starting_games(), seed=st.integers(0, 2**32), hands=st.integers(1, 3))
def test_playout_with_a_random_generator_equals_rng_choice_on_the_checked_path(
    game: sc.Game, seed: int, hands: int
) -> None:
    fast_rng, checked_rng = random.Random(seed), random.Random(seed)
    fast = playout(game, fast_rng, hands=hands)
    checked = checked_hands(game, checked_rng.choice, hands)
    assert fast == checked
    assert hash(fast) == hash(checked)
    assert fast.hand_results == checked.hand_results
    # playout records card ids only; the Trick records it builds on demand
    # are those the checked path made trick by trick.
    assert public_records(fast) == public_records(checked)
    # The generator was drawn from exactly as often, for the same bounds.
    assert fast_rng.getstate() == checked_rng.getstate()


@settings(max_examples=30)
@given(game=starting_games(), seed=st.integers(0, 2**32))
def test_playout_calls_the_chooser_once_per_decision_with_the_number_of_legal_actions(
    game: sc.Game, seed: int
) -> None:
    fast_calls: list[int] = []
    checked_calls: list[int] = []
    fast_source, checked_source = random.Random(seed), random.Random(seed)

    def fast_chooser(n: int) -> int:
        fast_calls.append(n)
        return fast_source.randrange(n)

    def checked_chooser(legal: tuple[sc.Action, ...]) -> sc.Action:
        checked_calls.append(len(legal))
        return legal[checked_source.randrange(len(legal))]

    fast = playout(game, fast_chooser, hands=2)
    assert fast == checked_hands(game, checked_chooser, 2)
    assert fast_calls == checked_calls


@pytest.mark.parametrize(("variant", "options"), CONFIGS)
@pytest.mark.parametrize("position", ["lowest", "highest"])
def test_playout_with_a_fixed_index_plays_the_same_actions(
    variant: str, options: dict[str, Any], position: str
) -> None:
    start = sc.new_game(variant, seed=2024, **options)
    index: Callable[[int], int] = (lambda n: 0) if position == "lowest" else (lambda n: n - 1)
    fast = playout(start, index, hands=4)
    checked = checked_hands(start, lambda legal: legal[index(len(legal))], 4)
    assert fast == checked
    assert public_records(fast) == public_records(checked)
    assert fast.hand_number == 4 or fast.is_over


@pytest.mark.parametrize(("variant", "options"), CONFIGS)
def test_playout_from_every_point_of_the_deal_bidding_and_first_trick(
    variant: str, options: dict[str, Any]
) -> None:
    # P6: with two_of_clubs the first lead is forced; a playout starting after
    # it, inside the first trick, must not force the next lead too.
    for steps in range(10):
        game = advanced(sc.new_game(variant, seed=31 + steps, **options), steps, steps)
        fast = playout(game, random.Random(steps), hands=1)
        assert fast == checked_hands(game, random.Random(steps).choice, 1)


@pytest.mark.parametrize(("variant", "options"), CONFIGS[:4])
def test_playout_until_the_game_is_over_equals_the_checked_path(
    variant: str, options: dict[str, Any]
) -> None:
    # Random classic games end quickly at the -200 floor.
    start = sc.new_game(variant, seed=99, **options)
    fast = playout(start, random.Random(5), hands=None)
    assert fast.is_over
    assert fast == checked_hands(start, random.Random(5).choice, None)


def test_playout_of_a_finished_game_or_zero_hands_returns_it_unchanged() -> None:
    calls: list[int] = []

    def chooser(n: int) -> int:
        calls.append(n)
        return 0

    over = playout(sc.new_game("classic", seed=3), random.Random(1), hands=None)
    assert over.is_over
    assert playout(over, chooser, hands=5) is over
    start = sc.new_game("mirror", seed=3)
    assert playout(start, chooser, hands=0) is start
    assert calls == []


def test_playout_leaves_its_input_alone() -> None:
    game = advanced(sc.new_game("whiz", seed=8), 30, 1)
    before = (game, game.legal_actions(), game.hand(sc.Seat.NORTH), game.tricks)
    playout(game, random.Random(2), hands=2)
    assert (game, game.legal_actions(), game.hand(sc.Seat.NORTH), game.tricks) == before


def test_a_random_subclass_with_its_own_draws_is_followed_exactly() -> None:
    class Cycling(random.Random):
        """A generator that overrides random(), so its choices come from there."""

        def random(self) -> float:
            value = super().random()
            return (value * 7) % 1.0

    start = sc.new_game("classic", seed=12)
    fast_rng, checked_rng = Cycling(4), Cycling(4)
    assert playout(start, fast_rng, hands=2) == checked_hands(start, checked_rng.choice, 2)
    assert fast_rng.getstate() == checked_rng.getstate()


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        (-1, sc.RulesError),
        (1.5, sc.ArgumentTypeError),
        ("2", sc.ArgumentTypeError),
        (True, sc.ArgumentTypeError),
    ],
)
def test_playout_rejects_a_bad_number_of_hands(bad: object, error: type[sc.SpadesError]) -> None:
    with pytest.raises(error, match="playout: hands must be a whole number"):
        playout(sc.new_game("classic", seed=1), random.Random(1), hands=bad)  # type: ignore[arg-type]


def test_playout_rejects_a_chooser_that_is_neither_a_generator_nor_a_function() -> None:
    with pytest.raises(sc.ArgumentTypeError, match="choose must be"):
        playout(sc.new_game("classic", seed=1), 3)  # type: ignore[arg-type]


@pytest.mark.parametrize("answer", [-1, 99, 1.0, None, True])
def test_a_chooser_answer_outside_the_legal_actions_is_not_an_action(answer: object) -> None:
    with pytest.raises(IllegalActionError) as raised:
        playout(sc.new_game("mirror", seed=1), lambda n: answer)  # type: ignore[arg-type,return-value]
    assert raised.value.reason is IllegalReason.NOT_AN_ACTION
    assert "index from 0 to 0" in str(raised.value)


def test_the_game_after_playout_plays_on_like_any_other() -> None:
    game = playout(sc.new_game("mirror", seed=77), random.Random(3), hands=1)
    assert game.phase is Phase.DEAL
    assert game.legal_actions() == (sc.Deal(),)
    assert game.deal().phase is Phase.BID
    assert sum(game.hand_results[0].tricks.values()) == 13


# -- the engine's fast internals ------------------------------------------------


def reference_deal(seed: int, hand_index: int, dealer: int) -> tuple[int, ...]:
    """A seeded deal straight from the sequential generator and shuffle."""
    masks = [0, 0, 0, 0]
    for position, card in enumerate(rng.shuffled_deck(seed, hand_index)):
        masks[(dealer + 1 + position) % 4] |= 1 << card
    return tuple(masks)


@given(seed=st.integers(0, 2**64 - 1), hand_index=st.integers(0, 10_000), dealer=st.integers(0, 3))
def test_bulk_seeded_deal_equals_the_sequential_shuffle(
    seed: int, hand_index: int, dealer: int
) -> None:
    assert rng.deal_masks(seed, hand_index, dealer) == reference_deal(seed, hand_index, dealer)


def test_bulk_seeded_deal_falls_back_to_the_sequential_stream_on_a_rejected_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A rejection is too rare to meet by chance. Limits of 0 reject every bulk
    # draw, and adding each lane's carry bit makes the quick test see one.
    monkeypatch.setattr(rng, "_DRAW_LIMITS", (0,) * 51)
    monkeypatch.setattr(rng, "_NEAR_LIMIT", rng._LANE_CARRIES)
    assert rng.deal_masks(1234, 5, 2) == reference_deal(1234, 5, 2)


def test_quick_rejection_test_flags_exactly_the_outputs_a_limit_could_reject() -> None:
    smallest = min(rng._DRAW_LIMITS)

    def flagged(lanes: int) -> bool:
        return bool((lanes + rng._NEAR_LIMIT) & rng._LANE_CARRIES)

    all_just_under = sum((smallest - 1) << (128 * lane) for lane in range(51))
    assert not flagged(all_just_under)
    for lane in (0, 1, 25, 50):
        for output in (smallest, 2**64 - 1):
            one_high = all_just_under - ((smallest - 1) << (128 * lane)) + (output << (128 * lane))
            assert flagged(one_high)


@pytest.mark.parametrize("steps", [0, 1, 4, 5, 30, 57, 60])
def test_every_game_the_step_makes_is_frozen_and_equal_to_its_fields_rebuilt(steps: int) -> None:
    game = advanced(sc.new_game("classic", seed=5), steps, 9)
    fields = {field.name: getattr(game, field.name) for field in attrs.fields(sc.Game)}
    reference = sc.Game(**{name.lstrip("_"): value for name, value in fields.items()})
    assert game == reference
    assert hash(game) == hash(reference)
    assert type(game) is sc.Game
    kept_before = game.legal_actions(), game.tricks
    for name in (*fields, "tricks", "_legal", "variant", "anything"):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(game, name, ())
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            delattr(game, name)
    assert (game.legal_actions(), game.tricks) == kept_before


def test_a_playout_result_builds_its_tricks_once_and_reads_like_any_other() -> None:
    game = playout(sc.new_game("classic", seed=3), random.Random(3))
    result = game.hand_results[0]
    assert result.dealer is game.first_dealer
    assert all(isinstance(cards, sc.CardSet) and len(cards) == 13 for cards in result.deal.values())
    played = result.played
    assert result.played is played
    assert len(played) == sum(result.tricks.values()) == 13
    assert [trick.leader for trick in played[1:]] == [trick.winner for trick in played[:-1]]
    assert sorted(card for trick in played for card in trick.cards) == list(sc.CardSet.full_deck())
    for seat in sc.Seat:
        assert result.tricks[seat] == sum(trick.winner is seat for trick in played)
    assert repr(result).startswith("<HandResult 1: dealer ")  # counted from 1, for people
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        result._number = 1  # type: ignore[misc]


@pytest.mark.parametrize(("variant", "options"), CONFIGS)
def test_a_playout_game_round_trips_through_a_record(variant: str, options: dict[str, Any]) -> None:
    fast = playout(sc.new_game(variant, seed=77, **options), random.Random(77), hands=3)
    loaded = sc.loads(sc.dumps(fast))
    assert loaded == fast
    assert public_records(loaded) == public_records(fast)
    assert sc.dumps(loaded) == sc.dumps(fast)
