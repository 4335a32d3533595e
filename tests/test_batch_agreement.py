"""The batch engine plays exactly the hands the checked engine plays.

``batch.play_hands(..., policy="lowest")`` is compared hand by hand with the
checked engine (``legal_actions()`` and ``apply()``) driven by the same
rule, over 21,000 seeds across the three variants with Hypothesis choosing
the options: once with the policy bidding, once with given legal bids. The
easy policy is compared with the easy bot the same way, and the normal
policy's bids with the normal bot's (its cards follow rules of its own: it
is held to legality and to beating the easy policy).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from spades_core import batch
from spades_core.batch import _policies as batch_policies
from spades_core.bots import bidding
from spades_core.testing.strategies import option_sets

pytestmark = pytest.mark.integration("batch")

SEEDS_PER_EXAMPLE = 1000
EXAMPLES_PER_VARIANT = 7
"""7 examples × 1000 seeds × 3 variants: 21,000 hands, each played twice
(with the policy's bids and with given bids)."""


def lowest_hand(game: sc.Game, bids: list[int] | None = None) -> sc.HandResult:
    """The hand of ``game`` (dealt) played by the checked engine, every
    decision the lowest legal action unless ``bids`` gives the bid by seat."""
    while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
        if game.phase is sc.Phase.BID and bids is not None:
            seat = game.to_act
            assert seat is not None
            game = game.bid(bids[seat])
        else:
            game = game.apply(game.legal_actions()[0])
    return game.hand_results[0]


def random_legal_bids(game: sc.Game, rnd: random.Random) -> list[int]:
    """A legal bid for every seat of a dealt game, each drawn from the bids
    legal at its turn."""
    bids = [0, 0, 0, 0]
    while game.phase is sc.Phase.BID:
        seat = game.to_act
        assert seat is not None
        bids[seat] = rnd.choice(game.legal_bids())
        game = game.bid(bids[seat])
    return bids


def assert_rows_match(result: batch.BatchResult, row: int, hand: sc.HandResult) -> None:
    where = f"seed {int(result.seeds[row])}"
    assert int(result.dealer[row]) == int(hand.dealer), where
    assert [set(map(int, cards)) for cards in result.hands[row]] == [
        {card.id for card in hand.deal[seat]} for seat in sc.Seat
    ], where
    assert tuple(map(int, result.bids[row])) == tuple(hand.bids.values()), where
    assert tuple(map(int, result.tricks[row])) == tuple(hand.tricks.values()), where
    assert tuple(map(int, result.points[row])) == tuple(hand.points.values()), where
    assert tuple(map(int, result.bags[row])) == tuple(hand.bags.values()), where


def check_block(variant: str, first_seed: int, options: dict[str, Any]) -> None:
    seeds = range(first_seed, first_seed + SEEDS_PER_EXAMPLE)
    games = [sc.new_game(variant, seed=seed, **options).deal() for seed in seeds]

    chosen_by_policy = batch.play_hands(variant, seeds, policy="lowest", **options)
    for row, game in enumerate(games):
        assert_rows_match(chosen_by_policy, row, lowest_hand(game))

    rnd = random.Random(first_seed)
    given_bids = [random_legal_bids(game, rnd) for game in games]
    with_given = batch.play_hands(
        variant, seeds, bids=np.array(given_bids), policy="lowest", chunk_size=300, **options
    )
    for row, game in enumerate(games):
        assert_rows_match(with_given, row, lowest_hand(game, given_bids[row]))


# Each example of a variant plays its own slice of the seed space: its k-th
# example takes seeds in [k * 2**56, (k + 1) * 2**56), at an offset Hypothesis
# chooses, so the 7 blocks of a variant never overlap and 21,000 different
# hands are compared.
_SLICE = 2**56
_examples_run = dict.fromkeys(("classic", "mirror", "whiz"), 0)


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
@settings(max_examples=EXAMPLES_PER_VARIANT, deadline=None)
@given(offset=st.integers(0, _SLICE - SEEDS_PER_EXAMPLE), data=st.data())
def test_lowest_policy_matches_the_checked_engine(
    variant: str, offset: int, data: st.DataObject
) -> None:
    block = _examples_run[variant] % (2**64 // _SLICE)
    _examples_run[variant] += 1
    check_block(variant, block * _SLICE + offset, data.draw(option_sets(variant), label="options"))


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", {}),
        ("classic", {"max_team_bid": 3, "first_lead": "two_of_clubs"}),
        ("mirror", {}),
        ("whiz", {}),
        ("whiz", {"whiz_nil_needs_no_ace": True, "break_rule": "offsuit_spade"}),
    ],
)
def test_easy_policy_plays_exactly_as_the_easy_bot(variant: str, options: dict[str, Any]) -> None:
    seeds = range(250)
    result = batch.play_hands(variant, seeds, policy="easy", **options)
    bots = [sc.bots.make("easy", seed=0) for _ in sc.Seat]
    for row, seed in enumerate(seeds):
        game = sc.new_game(variant, seed=seed, **options).deal()
        while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
            seat = game.to_act
            assert seat is not None
            game = game.apply(bots[seat].choose(game.view(seat)))
        assert_rows_match(result, row, game.hand_results[0])


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", {}),
        ("classic", {"max_team_bid": 3, "nil_tricks": "bags_only"}),
        ("mirror", {}),
        ("whiz", {}),
        ("whiz", {"whiz_nil_needs_no_ace": True}),
    ],
)
def test_normal_policy_bids_exactly_as_the_normal_bot(
    variant: str, options: dict[str, Any]
) -> None:
    seeds = range(400)
    result = batch.play_hands(variant, seeds, policy="normal", **options)
    bots = [sc.bots.make("normal", seed=0) for _ in sc.Seat]
    for row, seed in enumerate(seeds):
        game = sc.new_game(variant, seed=seed, **options).deal()
        while game.phase is sc.Phase.BID:
            seat = game.to_act
            assert seat is not None
            game = game.apply(bots[seat].choose(game.view(seat)))
        assert tuple(map(int, result.bids[row])) == tuple(game.bids.values_), seed


@settings(max_examples=30, deadline=None)
@given(st.lists(st.permutations(range(52)), min_size=1, max_size=40))
def test_the_normal_bids_estimates_on_arrays_equal_the_bots(decks: list[list[int]]) -> None:
    hands = [sum(1 << card for card in deck[:13]) for deck in decks]
    masks = np.array(hands, dtype=np.uint64)
    estimates = batch_policies.estimate_tricks(masks)
    risks = batch_policies.nil_risk(masks)
    for row, hand in enumerate(hands):
        assert estimates[row] == bidding.estimate_tricks(hand)
        assert risks[row] == bidding.nil_risk(hand)


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", {}),
        ("classic", {"first_lead": "two_of_clubs", "break_rule": "offsuit_spade"}),
        ("mirror", {"nil_tricks": "bags_only"}),
        ("whiz", {}),
    ],
)
def test_normal_policy_plays_legally_and_beats_the_easy_policy(
    variant: str, options: dict[str, Any]
) -> None:
    # Tables.step refuses an illegal action: two whole games at 500 tables.
    tables = batch.Tables(variant, 500, seed=3, episode="game", **options)
    for _ in range(2 * 56):
        tables.step(tables.choose("normal"))
    # Each deal played from both sides, so the cards' luck cancels.
    seeds = range(4000)
    ahead = batch.play_hands(variant, seeds, policy=["normal", "easy", "normal", "easy"], **options)
    behind = batch.play_hands(
        variant, seeds, policy=["easy", "normal", "easy", "normal"], **options
    )
    margin = (ahead.points[:, 0] - ahead.points[:, 1]) - (behind.points[:, 0] - behind.points[:, 1])
    assert margin.mean() / 2 > 5.0
