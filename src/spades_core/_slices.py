"""Per-card items of a 52-bit mask as a tuple, lowest card id first.

A :class:`SliceTable` keeps, for each suit, the tuple of items of every
13-bit slice it has met, so turning a mask into its tuple costs four lookups
and three concatenations once the slices are known; a mask within one suit
(the legal cards when following suit, mostly) is kept whole and found with
one lookup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Generic, TypeVar

__all__ = ["SliceTable"]

T = TypeVar("T")

_SLICE: Final = 0x1FFF


class SliceTable(Generic[T]):
    """The items ``item(card)`` of the cards of a mask, in card id order."""

    __slots__ = ("_item", "_slices", "one_suit")

    def __init__(self, item: Callable[[int], T]) -> None:
        self._item = item
        self._slices: list[list[tuple[T, ...] | None]] = [[None] * 8192 for _ in range(4)]
        self.one_suit: dict[int, tuple[T, ...]] = {}
        """The tuples of the masks within one suit met so far (at most 4 * 8191):
        callers in a hurry look a mask up here first, and call :meth:`of_mask`
        when it is not there."""

    def of_mask(self, mask: int) -> tuple[T, ...]:
        """The items of the cards in ``mask``, lowest card id first."""
        clubs, diamonds, hearts, spades = self._slices
        found_clubs = clubs[mask & _SLICE]
        found_diamonds = diamonds[(mask >> 13) & _SLICE]
        found_hearts = hearts[(mask >> 26) & _SLICE]
        found_spades = spades[mask >> 39]
        if (
            found_clubs is None
            or found_diamonds is None
            or found_hearts is None
            or found_spades is None
        ):
            found = (
                self._of_slice(0, mask & _SLICE)
                + self._of_slice(1, (mask >> 13) & _SLICE)
                + self._of_slice(2, (mask >> 26) & _SLICE)
                + self._of_slice(3, mask >> 39)
            )
        else:
            found = found_clubs + found_diamonds + found_hearts + found_spades
        if mask and ((mask & -mask).bit_length() - 1) // 13 == (mask.bit_length() - 1) // 13:
            self.one_suit[mask] = found
        return found

    def _of_slice(self, suit: int, bits: int) -> tuple[T, ...]:
        table = self._slices[suit]
        found = table[bits]
        if found is None:
            item = self._item
            found = table[bits] = tuple(
                item(13 * suit + rank) for rank in range(13) if bits >> rank & 1
            )
        return found
