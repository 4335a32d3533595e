"""The solver's one twin of a kernel rule and its equivalent cards, held to the
kernel; its bounded table.

:func:`beating_cards` (which orders the search's moves) must name exactly the
cards that :func:`~spades_core.tricks.trick_winner` lets beat the best card
so far, on random tricks; :func:`equivalence_classes` must pick the lowest
card of each run of a hand that no other card still in play splits.
"""

from __future__ import annotations

import random

import pytest

from analysis_support import endgame
from spades_core.analysis._search import ALL_CARDS_MASK, beating_cards, equivalence_classes
from spades_core.analysis.solve import position_of
from spades_core.tricks import RANKS, SUIT_MASKS, trick_winner


@pytest.mark.parametrize("seed", range(5))
def test_beating_cards_are_the_cards_trick_winner_lets_win(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(500):
        played = rnd.sample(range(52), rnd.randint(1, 3))
        # The best card so far, by the kernel: pad the trick with its lead.
        best = played[trick_winner((*played, played[0], played[0], played[0])[:4])]
        led = played[0] // RANKS
        held = rnd.getrandbits(52) & ~sum(1 << card for card in played)
        expected = 0
        for card in range(52):
            # The card played next, the trick padded with copies of its lead.
            trick = (*played, card, played[0], played[0])[:4]
            if held >> card & 1 and trick_winner(trick) == len(played):
                expected |= 1 << card
        assert beating_cards(held, best, led) == expected


@pytest.mark.parametrize("seed", range(5))
def test_equivalence_classes_pick_the_lowest_card_of_each_run(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(1000):
        alive = rnd.getrandbits(52)
        held = alive & rnd.getrandbits(52)
        expected = 0
        for card in range(52):
            if not held >> card & 1:
                continue
            suit = SUIT_MASKS[card // RANKS]
            below = alive & suit & ((1 << card) - 1)
            # The lowest of its run: the next card below in play is not held.
            if not below or not held >> (below.bit_length() - 1) & 1:
                expected |= 1 << card
        assert equivalence_classes(held, alive) == expected
        assert equivalence_classes(held, alive) & ~held & ALL_CARDS_MASK == 0


def test_a_table_that_starts_afresh_when_full_gives_the_same_values() -> None:
    for seed in range(3):
        game = endgame("classic", seed, 6)
        assert game is not None
        position = position_of(game)
        roomy = position.search()
        small = position.search()
        small.limit = 4
        assert position.card_values(small) == position.card_values(roomy)
        assert len(small.table) <= 4
