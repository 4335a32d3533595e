"""Card-mask arithmetic shared by the bot policies and the coach.

Cards are ids (``suit * 13 + rank``, spades are 39-51) and sets of cards are
52-bit masks, as in :class:`~spades_core.bots.table.Table`. Within one suit a
higher id is a higher rank, so a suit's best card is its highest bit.
"""

from __future__ import annotations

from typing import Final

from spades_core.bots.table import SPADE_MASK, SUIT

__all__ = [
    "above",
    "beaters",
    "card_ids",
    "high",
    "highest_rank",
    "low",
    "lowest_rank",
    "winner_so_far",
]

RANK_BITS: Final = 0x1FFF
"""The 13 bits of one suit, shifted down to the lowest place."""
NON_SPADES: Final = SUIT[0] | SUIT[1] | SUIT[2]
"""Every club, diamond and heart."""


def high(mask: int) -> int:
    """The highest card id in ``mask`` (within one suit: the highest rank)."""
    return mask.bit_length() - 1


def low(mask: int) -> int:
    """The lowest card id in ``mask`` (within one suit: the lowest rank)."""
    return (mask & -mask).bit_length() - 1


def above(card: int) -> int:
    """The mask of cards of ``card``'s suit ranked above it."""
    return SUIT[card // 13] & ~((2 << card) - 1)


def beaters(mask: int, best: int) -> int:
    """The cards of ``mask`` that would beat ``best`` if played to its trick."""
    out = mask & above(best)
    if best < 39:
        out |= mask & SPADE_MASK
    return out


def winner_so_far(trick: list[int]) -> tuple[int, int]:
    """(position from the leader, card) of the card winning a trick in progress."""
    best = trick[0]
    position = 0
    for i in range(1, len(trick)):
        card = trick[i]
        if card // 13 == best // 13:
            if card > best:
                best, position = card, i
        elif card >= 39:
            best, position = card, i
    return position, best


def lowest_rank(mask: int, hand: int) -> int:
    """The card of ``mask`` with the lowest rank; ties go to the shortest suit in ``hand``."""
    best = -1
    key = (99, 99)
    for suit in range(4):
        bits = (mask >> (13 * suit)) & RANK_BITS
        if bits:
            rank = (bits & -bits).bit_length() - 1
            k = (rank, (hand & SUIT[suit]).bit_count())
            if k < key:
                key, best = k, 13 * suit + rank
    return best


def highest_rank(mask: int, hand: int) -> int:
    """The card of ``mask`` with the highest rank; ties go to the shortest suit in ``hand``."""
    best = -1
    key = (-1, -99)
    for suit in range(4):
        bits = (mask >> (13 * suit)) & RANK_BITS
        if bits:
            rank = bits.bit_length() - 1
            k = (rank, -(hand & SUIT[suit]).bit_count())
            if k > key:
                key, best = k, 13 * suit + rank
    return best


def card_ids(mask: int) -> list[int]:
    """The card ids in ``mask``, lowest first."""
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit.bit_length() - 1)
        mask ^= bit
    return out
