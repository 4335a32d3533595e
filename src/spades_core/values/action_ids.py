"""The fixed integer ids of actions, the numbering OpenSpiel's ``spades`` uses:
ids 0-51 play a card (the card's own id), ids 52-65 bid (52 + the bid, so 52
is Nil). :mod:`spades_core.encoding` documents them and turns a game's legal
actions into ids; these are the numbers themselves.

A variant with phases (:meth:`Variant.phases <spades_core.Variant.phases>`)
also numbers its phases' actions after those: ids 66-117 pass one card
(66 + the card's id), 118 declares Blind Nil and 119 looks at one's cards.

>>> from spades_core.values.actions import BIDS, PLAYS
>>> action_id(PLAYS[0]), action_id(BIDS[0]), NUM_ACTIONS
(0, 52, 66)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from spades_core.values.actions import (
    BIDS,
    BLIND_NIL,
    LOOK,
    PASSES,
    PLAYS,
    Action,
    Bid,
    BlindNil,
    Deal,
    Look,
    Pass,
    PhaseAction,
    Play,
)
from spades_core.values.errors import IllegalActionError, IllegalReason, brief

__all__ = [
    "ACTIONS",
    "BID_ID_BASE",
    "BLIND_NIL_ID",
    "LOOK_ID",
    "NUM_ACTIONS",
    "NUM_CARD_IDS",
    "NUM_PHASE_ACTIONS",
    "PASS_ID_BASE",
    "PHASE_ACTIONS",
    "action_id",
    "mask_of",
    "phase_mask_of",
]

NUM_CARD_IDS: Final = 52
"""Ids 0-51 are card plays."""
BID_ID_BASE: Final = 52
"""The id of a Nil bid; a bid of ``n`` is ``BID_ID_BASE + n``."""
NUM_ACTIONS: Final = 66
"""The size of the action space: 52 cards and 14 bids."""

ACTIONS: Final[tuple[Play | Bid, ...]] = (*PLAYS, *BIDS)
"""The pre-built action of every id, indexed by id (no legality check)."""
PASS_ID_BASE: Final = NUM_ACTIONS
"""The id of passing the 2♣; passing card ``c`` is ``PASS_ID_BASE + c``."""
BLIND_NIL_ID: Final = PASS_ID_BASE + NUM_CARD_IDS
"""The id of declaring Blind Nil."""
LOOK_ID: Final = BLIND_NIL_ID + 1
"""The id of looking at one's cards instead of declaring Blind Nil."""
NUM_PHASE_ACTIONS: Final = LOOK_ID + 1
"""The size of the action space of a variant with phases: 120."""
PHASE_ACTIONS: Final[tuple[Play | Bid | PhaseAction, ...]] = (*ACTIONS, *PASSES, BLIND_NIL, LOOK)
"""The pre-built action of every id of a variant with phases, indexed by id."""


def action_id(action: object) -> int:
    """The id of a :class:`~spades_core.Bid` or :class:`~spades_core.Play`,
    or of an action of a variant's phase (a pass of one card, Blind Nil, look).

    A :class:`~spades_core.Deal` (a chance event), a pass of several cards
    (pass them one at a time) or anything that is not an action raises
    :class:`~spades_core.IllegalActionError` with reason ``NOT_AN_ACTION``.
    """
    if isinstance(action, Play):
        return action.card.id
    if isinstance(action, Bid):
        return BID_ID_BASE + action.value
    if isinstance(action, Pass) and len(action.cards) == 1:
        return PASS_ID_BASE + action.cards.mask.bit_length() - 1
    if isinstance(action, BlindNil):
        return BLIND_NIL_ID
    if isinstance(action, Look):
        return LOOK_ID
    if isinstance(action, Deal):
        what = "a Deal has no action id: dealing is a chance event, not a player's choice"
    elif isinstance(action, Pass):
        what = f"a pass of several cards has no action id; pass them one by one: {action}"
    else:
        what = f"not a bid or a play: {brief(action)}"
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


def phase_mask_of(actions: Iterable[Action]) -> tuple[bool, ...]:
    """:data:`NUM_PHASE_ACTIONS` booleans, ``True`` at the id of each bid,
    play, one-card pass, Blind Nil and look of ``actions``."""
    flags = [False] * NUM_PHASE_ACTIONS
    for action in actions:
        if type(action) is not Deal and not (type(action) is Pass and len(action.cards) != 1):
            flags[action_id(action)] = True
    return tuple(flags)
