"""Per-card items of a 52-bit mask as a tuple, lowest card id first.

A :class:`SliceTable` keeps, for each suit, the tuple of items of every
13-bit slice it has met, so turning a mask into its tuple costs four lookups
and three concatenations once the slices are known. Every slice it keeps is
also kept whole in :attr:`SliceTable.one_suit`, keyed by the mask of that
suit alone, so a mask within one suit (the legal cards when following suit,
mostly) is found with one lookup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Generic, TypeVar

__all__ = ["SliceTable"]

T = TypeVar("T")

_SLICE: Final = 0x1FFF
_HALF: Final = (1 << 26) - 1
_RANKS: Final = 13
# The set bits of a 13-bit slice, lowest first, from its low 7 bits and its
# high 6: a new slice is read in two lookups rather than thirteen tests.
_LOW_BITS: Final = tuple(tuple(bit for bit in range(7) if bits >> bit & 1) for bits in range(128))
_HIGH_BITS: Final = tuple(
    tuple(7 + bit for bit in range(6) if bits >> bit & 1) for bits in range(64)
)


class SliceTable(Generic[T]):
    """The items ``item(card)`` of the cards of a mask, in card id order."""

    __slots__ = ("of_mask", "one_suit")

    def __init__(self, item: Callable[[int], T]) -> None:
        slices: list[list[tuple[T, ...] | None]] = [[None] * 8192 for _ in range(4)]
        one_suit: dict[int, tuple[T, ...]] = {}
        self.one_suit = one_suit
        """The tuple of every mask within one suit whose slice is kept (at most
        4 * 8191): callers in a hurry look a mask up here first, and call
        :attr:`of_mask` when it is not there."""

        def of_slice(suit: int, bits: int) -> tuple[T, ...]:
            table = slices[suit]
            found = table[bits]
            if found is None:
                first = _RANKS * suit
                ranks = _LOW_BITS[bits & 0x7F] + _HIGH_BITS[bits >> 7]
                found = table[bits] = tuple(map(item, map(first.__add__, ranks)))
                if bits:
                    one_suit[bits << first] = found
            return found

        clubs, diamonds, hearts, spades = slices

        # A closure, not a method: it is asked for a hand's mask about twenty
        # times a hand, and reads its tables sooner from the closure's cells.
        # The mask is cut in two 26-bit halves first: shifting and masking an
        # int of one 30-bit digit costs less than one of two.
        def of_mask(mask: int) -> tuple[T, ...]:
            low = mask & _HALF
            high = mask >> 26
            try:
                # A slice not met yet is None, and adding None raises TypeError.
                return (
                    clubs[low & _SLICE]  # type: ignore[operator]
                    + diamonds[low >> 13]
                    + hearts[high & _SLICE]
                    + spades[high >> 13]
                )
            except TypeError:
                return (
                    of_slice(0, low & _SLICE)
                    + of_slice(1, low >> 13)
                    + of_slice(2, high & _SLICE)
                    + of_slice(3, high >> 13)
                )

        self.of_mask: Callable[[int], tuple[T, ...]] = of_mask
        """The items of the cards in ``mask``, lowest card id first."""
