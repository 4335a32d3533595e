"""The batch engine deals exactly the engine's seeded deals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from spades_core.batch import _deal
from spades_core.rules import rng
from spades_core.testing.strategies import seeds as any_seed

pytestmark = pytest.mark.integration("batch")


def test_first_dealers_and_deals_match_new_game_for_consecutive_seeds() -> None:
    seeds = np.arange(3000, dtype=np.uint64)
    dealers = _deal.first_dealers(seeds)
    masks, hands = _deal.deal_hands(seeds, np.zeros(3000, np.uint64), dealers)
    for row, seed in enumerate(range(3000)):
        game = sc.new_game("classic", seed=seed).deal()
        assert int(dealers[row]) == int(game.dealer)
        assert tuple(map(int, masks[row])) == tuple(game.dealt_hand(seat).mask for seat in sc.Seat)
        assert [list(map(int, cards)) for cards in hands[row]] == [
            sorted(card.id for card in game.dealt_hand(seat)) for seat in sc.Seat
        ]


@settings(max_examples=60)
@given(
    seeds=st.lists(any_seed(), min_size=1, max_size=40),
    hand_index=st.integers(0, 2**32 - 1),
    dealer=st.integers(0, 3),
)
def test_later_hands_and_any_dealer_match_rng_deal_masks(
    seeds: list[int], hand_index: int, dealer: int
) -> None:
    array = np.array(seeds, dtype=np.uint64)
    count = len(seeds)
    masks, _ = _deal.deal_hands(
        array, np.full(count, hand_index, np.uint64), np.full(count, dealer, np.int8)
    )
    for row, seed in enumerate(seeds):
        assert tuple(map(int, masks[row])) == rng.deal_masks(seed, hand_index, dealer)
        assert int(_deal.first_dealers(array[row : row + 1])[0]) == rng.first_dealer(seed)


def test_a_rejected_draw_falls_back_to_the_sequential_shuffle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Pretend the bounded draws accept only small outputs: almost every deal
    # then has a "rejected" draw and takes the sequential path, which must
    # give the same decks.
    strict = np.full(51, 1 << 62, dtype=np.uint64)
    monkeypatch.setattr(_deal, "_DRAW_HIGHEST", strict)
    seeds = np.arange(200, dtype=np.uint64)
    _, rejected = _deal._shuffle_draws(seeds, np.zeros(200, np.uint64))
    assert rejected.sum() > 150
    decks = _deal.shuffled_decks(seeds, np.zeros(200, np.uint64))
    for seed in range(200):
        assert decks[:, seed].tolist() == rng.shuffled_deck(seed, 0)


def test_mix64_matches_the_scalar_generator() -> None:
    values = [0, 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15]
    mixed = _deal.mix64(np.array(values, dtype=np.uint64))
    assert [int(v) for v in mixed] == [rng.mix64(v) for v in values]
