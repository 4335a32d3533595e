"""The protocol of a variant's rules on arrays, for the batch engine.

A variant may return an object of this shape from
:meth:`Variant.array_forms <spades_core.Variant.array_forms>`; the batch
engine (:mod:`spades_core.batch`, the ``batch`` extra, which needs numpy)
checks and calls it. The protocol is stated here, beside the variant
contract, so that the contract needs nothing from the layers above it;
numpy is read only for the annotations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeAlias, runtime_checkable

from spades_core.values.options import Rules

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    U64: TypeAlias = npt.NDArray[np.uint64]
    I8: TypeAlias = npt.NDArray[np.int8]
    I32: TypeAlias = npt.NDArray[np.int32]
    I64: TypeAlias = npt.NDArray[np.int64]

__all__ = ["ArrayForms"]


@runtime_checkable
class ArrayForms(Protocol):
    """The array twins of a variant's hooks, one row per table.

    Hands are 52-bit card masks (``uint64``, bit ``i`` is card id ``i``),
    seats 0-3 (N, E, S, W), bids ``(n, 4)`` by seat with -1 for a seat that
    has not bid, teams 0 (NS) and 1 (EW). Every answer is a new array.
    """

    def legal_bids(self, rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
        """Twin of :meth:`~spades_core.Variant.legal_bids`: for each row, the
        bids seat ``seats[i]`` holding ``hands[i]`` may make after
        ``bids[i]``, as a 14-bit mask (``int32``; bit ``b`` is a bid of
        ``b``, bit 0 Nil) with at least one bit set."""
        ...

    def revealed_spade_counts(self, rules: Rules, bids: I8) -> I8:
        """Twin of :meth:`~spades_core.Variant.revealed_spade_counts`: the
        dealt spade count each seat's bid reveals, ``(n, 4)`` ``int8``, -1
        where the bids made so far (``bids``, -1 not yet) reveal none."""
        ...

    def score_hands(self, rules: Rules, bids: I8, tricks: I8, bags_before: I64) -> tuple[I64, I64]:
        """Twin of :meth:`~spades_core.Variant.score_hand`: each team's
        points this hand and bags after it, two ``(n, 2)`` integer arrays,
        for the bids and tricks ``(n, 4)`` and bags before ``(n, 2)``."""
        ...

    def game_outcomes(self, rules: Rules, scores: I64) -> I8:
        """Twin of :meth:`~spades_core.Variant.game_outcome`: the team that
        has won with the running ``scores`` ``(n, 2)``, or -1 to play on,
        ``(n,)`` ``int8``. (The hand limit ``max_hands`` is the engine's;
        it is applied after this.)"""
        ...
