"""The fixed integer ids of actions, the numbering OpenSpiel's ``spades`` uses:
ids 0-51 play a card (the card's own id), ids 52-65 bid (52 + the bid, so 52
is Nil). :mod:`spades_core.encoding` documents them and turns a game's legal
actions into ids; these are the numbers themselves.

>>> from spades_core.values.actions import BIDS, PLAYS
>>> action_id(PLAYS[0]), action_id(BIDS[0]), NUM_ACTIONS
(0, 52, 66)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from spades_core.values.actions import BIDS, PLAYS, Action, Bid, Deal, Play
from spades_core.values.errors import IllegalActionError, IllegalReason, brief

__all__ = ["ACTIONS", "BID_ID_BASE", "NUM_ACTIONS", "NUM_CARD_IDS", "action_id", "mask_of"]

NUM_CARD_IDS: Final = 52
"""Ids 0-51 are card plays."""
BID_ID_BASE: Final = 52
"""The id of a Nil bid; a bid of ``n`` is ``BID_ID_BASE + n``."""
NUM_ACTIONS: Final = 66
"""The size of the action space: 52 cards and 14 bids."""

ACTIONS: Final[tuple[Play | Bid, ...]] = (*PLAYS, *BIDS)
"""The pre-built action of every id, indexed by id (no legality check)."""


def action_id(action: object) -> int:
    """The id of a :class:`~spades_core.Bid` or :class:`~spades_core.Play`.

    A :class:`~spades_core.Deal` (a chance event) or anything that is not an
    action raises :class:`~spades_core.IllegalActionError` with reason
    ``NOT_AN_ACTION``.
    """
    if isinstance(action, Play):
        return action.card.id
    if isinstance(action, Bid):
        return BID_ID_BASE + action.value
    what = (
        "a Deal has no action id: dealing is a chance event, not a player's choice"
        if isinstance(action, Deal)
        else f"not a bid or a play: {brief(action)}"
    )
    raise IllegalActionError(IllegalReason.NOT_AN_ACTION, what)


def mask_of(actions: Iterable[Action]) -> tuple[bool, ...]:
    """:data:`NUM_ACTIONS` booleans, ``True`` at the id of each bid and play
    of ``actions`` (a deal has no id and marks none)."""
    flags = [False] * NUM_ACTIONS
    for action in actions:
        if type(action) is Play:
            flags[action.card.id] = True
        elif type(action) is Bid:
            flags[BID_ID_BASE + action.value] = True
    return tuple(flags)
