"""The built-in bots' choices in a variant's phases (:class:`~spades_core.HandPhase`):
whether to declare Blind Nil or look at the cards, and which cards to pass.

The choices read only the seat's view: the actions it offers (a
:class:`~spades_core.BlindNil` and a :class:`~spades_core.Look`, or
:class:`~spades_core.Pass` actions of one card each), the bids and the scores.
"""

from __future__ import annotations

from spades_core.bots.why import Why
from spades_core.engine.views import View
from spades_core.values.actions import Action, BlindNil, Look, Pass
from spades_core.values.cards import Card, Suit

__all__ = ["BLIND_NIL_DEFICIT", "phase_decision"]

BLIND_NIL_DEFICIT = 200
"""How far the bot's team must trail before the bot risks a Blind Nil."""


def phase_decision(view: View) -> tuple[Action, Why]:
    """The bot's action among ``view.legal_actions()`` in a variant's phase,
    with the idea behind it."""
    legal = view.legal_actions()
    blind = next((action for action in legal if type(action) is BlindNil), None)
    look = next((action for action in legal if type(action) is Look), None)
    if blind is not None or look is not None:
        return _blind_or_look(view, blind, look)
    passes = [action for action in legal if type(action) is Pass]
    if passes and view.seat is not None:
        if view.bids[view.seat] == 0:
            # A Nil bidder sheds the cards most likely to win a trick.
            return max(passes, key=lambda action: _strength(action)), (Why.PASS_HIGH_TO_PARTNER)
        # Its partner sends the cards least likely to win one.
        return min(passes, key=lambda action: _strength(action)), (Why.PASS_LOW_TO_NIL)
    return legal[0], Why.ONLY_CHOICE


def _blind_or_look(view: View, blind: Action | None, look: Action | None) -> tuple[Action, Why]:
    assert view.seat is not None
    team = view.seat.team
    behind = view.scores[team.opponent] - view.scores[team]
    if blind is not None and (look is None or behind >= BLIND_NIL_DEFICIT):
        return blind, Why.BLIND_NIL_BEHIND
    assert look is not None
    return look, Why.LOOK_FIRST


def _strength(action: Pass) -> tuple[bool, int]:
    """How likely the card passed is to win a trick, for ordering: spades
    above the other suits, then by rank."""
    card = Card.from_id(action.cards.mask.bit_length() - 1)
    return (card.suit is Suit.SPADES, int(card.rank))
