"""The built-in variants' rules on arrays, for the batch engine (needs numpy).

Each class is the declared array twin of one variant's hooks (see
:class:`spades_core.batch.ArrayForms`); the variant's ``array_forms`` method
imports this module only when the batch engine asks for it, so the variants
themselves load without numpy (in the browser, under Pyodide). The built-in
variants pass :func:`spades_core.testing.check_array_forms` through their
entry points, as a plugin's variants do.
"""

from __future__ import annotations

from typing import Final, TypeAlias

import numpy as np
import numpy.typing as npt

from spades_core import Card, OptionSpec, Rules, Suit, Variant
from spades_core.batch import BaseArrayForms, bid_masks, holds, partner_bids, suit_counts

__all__ = ["ClassicArrays", "MirrorArrays", "WhizArrays"]

U64: TypeAlias = npt.NDArray[np.uint64]
I32: TypeAlias = npt.NDArray[np.int32]
I8: TypeAlias = npt.NDArray[np.int8]

_ACE_OF_SPADES: Final = Card.parse("AS")
_NIL: Final = np.int32(1)
"""The bid mask of Nil alone."""


class ClassicArrays(BaseArrayForms):
    """Classic Spades on arrays: bids from Nil up to what the team cap
    leaves after the partner's bid."""

    def legal_bids(self, rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
        """Twin of :meth:`spades_variants.classic.ClassicVariant.legal_bids`."""
        cap = rules.max_team_bid
        if cap is None:
            return bid_masks(np.zeros(len(hands), np.int32), 13)
        partner = np.maximum(partner_bids(bids, seats), 0).astype(np.int32)
        return bid_masks(0, np.minimum(13, cap - partner))


class MirrorArrays(BaseArrayForms):
    """Mirror Spades on arrays: the one bid is the spade count, and every bid reveals it."""

    def legal_bids(self, rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
        """Twin of :meth:`spades_variants.mirror.MirrorVariant.legal_bids`."""
        return bid_masks(suit_counts(hands, Suit.SPADES))

    def revealed_spade_counts(self, rules: Rules, bids: I8) -> I8:
        """Every bid made is the bidder's spade count."""
        counts: I8 = bids.astype(np.int8, copy=True)
        return counts


class WhizArrays(BaseArrayForms):
    """Whiz Spades on arrays: Nil or the spade count (only the count with the
    A♠ under ``whiz_nil_needs_no_ace``), and a non-Nil bid reveals the count.
    ``nil_needs_no_ace`` is that option, which the variant passes in."""

    def __init__(self, variant: Variant, nil_needs_no_ace: OptionSpec[bool]) -> None:
        super().__init__(variant)
        self._nil_needs_no_ace = nil_needs_no_ace

    def legal_bids(self, rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
        """Twin of :meth:`spades_variants.whiz.WhizVariant.legal_bids`."""
        count = bid_masks(suit_counts(hands, Suit.SPADES))
        # Nil or the count; with no spades the count is Nil itself (bit 0).
        masks: I32 = count | _NIL
        if rules.get(self._nil_needs_no_ace):
            masks = np.where(holds(hands, _ACE_OF_SPADES), count, masks)
        return masks

    def revealed_spade_counts(self, rules: Rules, bids: I8) -> I8:
        """A non-Nil bid is the bidder's spade count; Nil reveals nothing."""
        counts: I8 = np.where(bids > 0, bids, -1).astype(np.int8)
        return counts
