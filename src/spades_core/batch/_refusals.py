"""Why the batch engine refuses an action: the engine's own reason.

The batch engine checks actions on arrays against its legal masks; for the
rows it refuses, :func:`row_refusal` asks the engine's one statement of the
reasons (:mod:`spades_core.legality`), so an illegal action gets the same
:class:`~spades_core.IllegalReason` and explanation on every path.
"""

from __future__ import annotations

from collections.abc import Sequence

from spades_core.engine.encoding import BID_ID_BASE, NUM_ACTIONS
from spades_core.engine.game import Phase
from spades_core.rules.legality import bid_refusal, card_refusal, phase_refusal
from spades_core.rules.variant import Variant
from spades_core.values.errors import IllegalActionError, IllegalReason, VariantLoadError
from spades_core.values.options import Rules

__all__ = ["row_refusal"]


def row_refusal(
    variant: Variant,
    rules: Rules,
    *,
    bidding: bool,
    seat: int,
    hand: int,
    bids: Sequence[int],
    trick: Sequence[int],
    broken: bool,
    leads_two_of_clubs: bool,
    action: int,
) -> IllegalActionError:
    """The engine's refusal of action id ``action`` at one table: seat
    number ``seat`` to ``bidding`` or play, holding the mask ``hand``, after
    ``bids`` (by seat, -1 for none yet) and the cards ``trick`` of the trick
    in progress, spades ``broken`` or not, ``leads_two_of_clubs`` when a
    lead now is the forced first lead of the 2♣.

    The batch engine calls this only for an action its legal mask refuses;
    a variant whose hooks allow it has array forms that disagree with them,
    a :class:`~spades_core.VariantLoadError`.
    """
    if not 0 <= action < NUM_ACTIONS:
        return IllegalActionError(
            IllegalReason.NOT_AN_ACTION,
            f"{action} is not an action id: ids are 0-51 for cards and 52-65 for bids",
        )
    refusal: IllegalActionError | None
    if bidding:
        if action < BID_ID_BASE:
            return phase_refusal(Phase.BID, seat, "play a card")
        made = tuple(None if bid < 0 else bid for bid in bids)
        refusal = bid_refusal(variant, rules, seat, hand, made, action - BID_ID_BASE)
    elif action >= BID_ID_BASE:
        return phase_refusal(Phase.PLAY, seat, "bid")
    else:
        refusal = card_refusal(seat, hand, trick, broken, leads_two_of_clubs, action)
    if refusal is None:
        raise VariantLoadError(
            f"variant {variant.id!r}: the batch engine refused action id {action}, which "
            "the variant's hooks allow: its array forms disagree with its hooks"
        )
    return refusal
