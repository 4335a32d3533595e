"""Card-mask arithmetic shared by the bot policies and the coach.

Cards are ids and sets of cards are 52-bit masks, as in
:mod:`spades_core.tricks`, whose functions say which card wins a trick. Within
one suit a higher id is a higher rank, so a suit's best card is its highest bit.
"""

from __future__ import annotations

from typing import Final

from spades_core.rules.tricks import (
    FIRST_SPADE,
    NON_SPADE_MASK,
    RANKS,
    SPADE_MASK,
    SUIT_MASKS,
    trick_winner,
)

__all__ = [
    "ABOVE",
    "above",
    "beaters",
    "high",
    "highest_rank",
    "least_covered",
    "low",
    "lowest_rank",
    "winner_so_far",
]

RANK_BITS: Final = (1 << RANKS) - 1
"""The 13 bits of one suit, shifted down to the lowest place."""
NON_SPADES: Final = NON_SPADE_MASK
"""Every club, diamond and heart."""
_NO_KEY: Final = 1 << 30


def high(mask: int) -> int:
    """The highest card id in ``mask`` (within one suit: the highest rank)."""
    return mask.bit_length() - 1


def low(mask: int) -> int:
    """The lowest card id in ``mask`` (within one suit: the lowest rank)."""
    return (mask & -mask).bit_length() - 1


ABOVE: Final[tuple[int, ...]] = tuple(
    SUIT_MASKS[card // RANKS] & ~((2 << card) - 1) for card in range(52)
)
"""By card id, the mask of the cards of its suit ranked above it: the policies
index it at every simulated card, sooner than calling :func:`above`."""


def above(card: int) -> int:
    """The mask of cards of ``card``'s suit ranked above it."""
    return ABOVE[card]


def beaters(mask: int, best: int) -> int:
    """The cards of ``mask`` that would beat ``best`` if played to its trick."""
    out = mask & ABOVE[best]
    if best < FIRST_SPADE:
        out |= mask & SPADE_MASK
    return out


def winner_so_far(trick: list[int]) -> tuple[int, int]:
    """(position from the leader, card) of the card winning a trick in progress."""
    # Filling the empty places with the led card leaves the winner unchanged:
    # it neither outranks the best card of its suit nor trumps.
    count = len(trick)
    if count == 1:
        return 0, trick[0]
    position = trick_winner(trick if count == 4 else (*trick, *(trick[0],) * (4 - count)))
    return position, trick[position]


def lowest_rank(mask: int, hand: int) -> int:
    """The card of ``mask`` with the lowest rank; ties go to the shortest suit in ``hand``."""
    best = -1
    key = _NO_KEY
    for suit in range(4):
        bits = (mask >> (RANKS * suit)) & RANK_BITS
        if bits:
            rank = (bits & -bits).bit_length() - 1
            # (rank, suit length) in one int: lengths are below 16.
            k = rank * 16 + (hand & SUIT_MASKS[suit]).bit_count()
            if k < key:
                key, best = k, RANKS * suit + rank
    return best


def highest_rank(mask: int, hand: int) -> int:
    """The card of ``mask`` with the highest rank; ties go to the shortest suit in ``hand``."""
    best = -1
    key = -_NO_KEY
    for suit in range(4):
        bits = (mask >> (RANKS * suit)) & RANK_BITS
        if bits:
            rank = bits.bit_length() - 1
            k = rank * 16 - (hand & SUIT_MASKS[suit]).bit_count()
            if k > key:
                key, best = k, RANKS * suit + rank
    return best


def least_covered(mask: int, unseen: int, spade_discount: int) -> int:
    """The card of ``mask`` with the most ``unseen`` cards of its suit above it,
    spades counting ``spade_discount`` fewer; ties go to the lowest rank, then
    the lowest id."""
    best = -1
    best_count = -99
    best_rank = 99
    while mask:
        bit = mask & -mask
        mask ^= bit
        card = bit.bit_length() - 1
        count = (unseen & ABOVE[card]).bit_count()
        if card >= FIRST_SPADE:
            count -= spade_discount
        if count > best_count or (count == best_count and card % RANKS < best_rank):
            best, best_count, best_rank = card, count, card % RANKS
    return best
