"""Suicide Spades on arrays, for spades-core's batch engine (needs numpy).

:meth:`SuicideVariant.array_forms <spades_variant_suicide.SuicideVariant.array_forms>`
imports this module only when the batch engine asks for it, so the variant
itself loads without numpy. Only the bidding is Suicide's own; scoring and
the end of the game are the standard ones, which
:class:`~spades_core.batch.BaseArrayForms` already computes on arrays.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from spades_core import Rules
from spades_core.batch import BaseArrayForms, bid_masks, partner_bids
from spades_variant_suicide import MINIMUM_BID

__all__ = ["SuicideArrays"]

U64: TypeAlias = npt.NDArray[np.uint64]
I32: TypeAlias = npt.NDArray[np.int32]
I8: TypeAlias = npt.NDArray[np.int8]


class SuicideArrays(BaseArrayForms):
    """The array twin of :class:`~spades_variant_suicide.SuicideVariant`'s bidding."""

    def legal_bids(self, rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
        """Nil or 4 up to the team cap for the first partner to bid; after a
        Nil, 4 up to the cap; after a bid, only Nil."""
        highest = 13 if rules.max_team_bid is None else rules.max_team_bid
        partner = partner_bids(bids, seats)
        four_up = bid_masks(np.full(len(hands), MINIMUM_BID, np.int32), highest)
        masks = np.where(partner < 0, four_up | 1, np.where(partner == 0, four_up, 1))
        legal: I32 = masks.astype(np.int32)
        return legal
