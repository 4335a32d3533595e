"""The built-in bots' choices in a variant's phases (:class:`~spades_core.HandPhase`):
whether to declare Blind Nil or look at the cards, and which cards to pass.

The choices read only the seat's view: the actions it offers (a
:class:`~spades_core.BlindNil` and a :class:`~spades_core.Look`, or
:class:`~spades_core.Pass` actions of one card each), the bids, the scores
and the variant's own scoring. A bot passes one card at a time, the best
card to pass from what it holds then, so passing ``n`` cards is ``n``
decisions and a play-out of the hard bot passes as the bot does.

Passes. A Nil bidder sheds its likely winners: spades from the jack up,
then side aces and kings, then the last card of a side suit (a void lets it
throw its high cards away), then its spades from the 10 down to the 7, then
the highest card left. The partner of a Nil sends cards that let the Nil duck:
its lowest side card, from its shortest suit when ranks tie (a void of its
own lets it trump to cover the Nil), a spade only when it holds nothing else.

Blind Nil. The seat cannot see its cards, so the decision reads the match:
the expected points of the Blind Nil, ``stake × (2 × p - 1)`` with ``p``
:data:`BLIND_NIL_SUCCESS` (measured) and ``stake`` what the variant's
scoring gives for it, against :data:`BLIND_NIL_COST` (measured: what the
team gives up by bidding the seat's hand blind); it goes Blind Nil when the
expected gain is positive, always when the opponents are within
:data:`CLOSE_TO_TARGET` of the target (a trailing team needs the swing), and
not when a failure would put the team at the loss floor while it trails by
less than the stake (an ordinary hand can still catch up).
``bench/blind_nil.py`` measures both numbers.
"""

from __future__ import annotations

from typing import Final

from spades_core.bots.masks import RANK_BITS
from spades_core.bots.why import Why
from spades_core.engine.views import View
from spades_core.rules.hooks import checked_score_hand
from spades_core.rules.phases import PhaseStep
from spades_core.rules.tricks import SPADES
from spades_core.values.actions import BLIND_NIL, Action, BlindNil, Look, Pass
from spades_core.values.cards import CardSet
from spades_core.values.options import Rules

__all__ = [
    "BLIND_NIL_COST",
    "BLIND_NIL_SUCCESS",
    "CLOSE_TO_TARGET",
    "BlindNilOdds",
    "blind_nil_odds",
    "blind_nil_stake",
    "helper_pass",
    "nil_pass",
    "nil_sheds",
    "phase_decision",
]

BLIND_NIL_SUCCESS: Final = 0.768
"""How often the normal bot's Blind Nil succeeds with a two-card exchange
(``bench/blind_nil.py --deals 4000``: 0.768 ± 0.007)."""
BLIND_NIL_COST: Final = 39.7
"""The points a team gives up, on average, by declaring Blind Nil rather
than bidding the hand looked at, the Blind Nil's own value aside
(``bench/blind_nil.py --deals 4000``: the gain over looking was +67.5 ± 2.8
at a stake of 200, so ``200 × (2 × 0.768 - 1) - 67.5 = 39.7``)."""
CLOSE_TO_TARGET: Final = 150
"""Opponents this close to the target may win with their next hand: a
trailing team then takes the Blind Nil's swing whatever it costs."""

_SEVEN: Final = 5
_JACK: Final = 9
_KING: Final = 11


def _ranks(hand: int, suit: int) -> int:
    return (hand >> (13 * suit)) & RANK_BITS


def nil_pass(hand: int, offered: int) -> int:
    """The card (id) among ``offered`` a Nil bidder holding ``hand`` (masks)
    passes first: its likeliest winner, in the order of the module docs."""
    best = -1
    best_key = (-1, -1, 0)
    mask = offered
    while mask:
        bit = mask & -mask
        mask ^= bit
        card = bit.bit_length() - 1
        suit, rank = divmod(card, 13)
        length = _ranks(hand, suit).bit_count()
        if suit == SPADES and rank >= _SEVEN:
            tier = 4 if rank >= _JACK else 1
        elif rank >= _KING:
            tier = 3
        elif length == 1:
            tier = 2
        else:
            tier = 0
        # Within a tier: the higher card, then the shorter suit (nearer a void).
        key = (tier, rank, -length)
        if key > best_key:
            best, best_key = card, key
    return best


def helper_pass(hand: int, offered: int) -> int:
    """The card (id) among ``offered`` the partner of a Nil holding ``hand``
    (masks) passes first: its lowest side card, from its shortest suit when
    ranks tie; a spade only when it may pass no side card."""
    best = -1
    best_key = (2, 13, 14)
    mask = offered
    while mask:
        bit = mask & -mask
        mask ^= bit
        card = bit.bit_length() - 1
        suit, rank = divmod(card, 13)
        key = (int(suit == SPADES), rank, _ranks(hand, suit).bit_count())
        if key < best_key:
            best, best_key = card, key
    return best


def nil_sheds(hand: int, count: int) -> int:
    """The ``count`` cards (a mask) a Nil bidder holding ``hand`` passes, one
    at a time by :func:`nil_pass`: what the bidding expects it to give away."""
    shed = 0
    for _ in range(min(count, hand.bit_count())):
        card = nil_pass(hand & ~shed, hand & ~shed)
        shed |= 1 << card
    return shed


def blind_nil_stake(view: View) -> float:
    """What a Blind Nil of the view's seat wins or loses by the variant's
    scoring: the rules' ``nil_value``, plus half of how much more the
    variant's scoring separates a made Blind Nil from one failed by a trick
    than it separates a plain Nil's (the other seats' tricks the same)."""
    assert view.seat is not None
    seat = int(view.seat)
    step = (PhaseStep("blind_nil", view.seat, BLIND_NIL),)
    bids = [4, 4, 4, 4]
    bids[seat] = 0
    made = [4, 4, 4, 4]
    made[seat] = 0
    made[(seat + 1) & 3] = 5
    failed = list(made)
    failed[seat], failed[(seat + 1) & 3] = 1, 4
    bags = (view.bags.values_[0], view.bags.values_[1])
    team = seat & 1
    rules: Rules = view.rules

    def points(tricks: list[int], steps: tuple[PhaseStep, ...]) -> int:
        scored = checked_score_hand(view.variant, rules, tuple(bids), tuple(tricks), bags, steps)
        return scored[0][team]

    blind = points(made, step) - points(failed, step)
    plain = points(made, ()) - points(failed, ())
    return rules.nil_value + (blind - plain) / 2


class BlindNilOdds:
    """The numbers behind a Blind Nil decision, for the bot and the coach."""

    __slots__ = ("behind", "close", "expected", "fatal", "go", "stake")

    def __init__(self, view: View) -> None:
        assert view.seat is not None
        team = view.seat.team
        ours, theirs = view.scores[team], view.scores[team.opponent]
        rules = view.rules
        self.behind = theirs - ours
        """How far the seat's team trails."""
        self.stake = blind_nil_stake(view)
        """What the Blind Nil wins (or loses), by the variant's scoring."""
        self.expected = self.stake * (2 * BLIND_NIL_SUCCESS - 1) - BLIND_NIL_COST
        """Its expected gain over looking, in points."""
        self.close = theirs >= rules.target_score - CLOSE_TO_TARGET
        """Whether the opponents may win with their next hand."""
        floor = rules.loss_floor
        self.fatal = floor is not None and ours - self.stake <= floor
        """Whether failing would put the team at the loss floor."""
        self.go = self.close or (
            self.expected > 0 and (not self.fatal or self.behind >= self.stake)
        )
        """The decision: declare Blind Nil."""


def blind_nil_odds(view: View) -> BlindNilOdds:
    """The Blind Nil decision for the view's seat and the numbers it used."""
    return BlindNilOdds(view)


def phase_decision(view: View) -> tuple[Action, Why]:
    """The bot's action among ``view.legal_actions()`` in a variant's phase,
    with the idea behind it."""
    legal = view.legal_actions()
    blind = next((action for action in legal if type(action) is BlindNil), None)
    look = next((action for action in legal if type(action) is Look), None)
    if blind is not None and look is not None:
        odds = blind_nil_odds(view)
        return (blind, Why.BLIND_NIL_BEHIND) if odds.go else (look, Why.LOOK_FIRST)
    if blind is not None or look is not None:
        only = blind if blind is not None else look
        assert only is not None
        return only, (Why.BLIND_NIL_BEHIND if only is blind else Why.LOOK_FIRST)
    offered = 0
    for action in legal:
        if type(action) is Pass:
            offered |= action.cards.mask
    if offered and view.seat is not None:
        hand = view.hand().mask
        if view.bids[view.seat] == 0:
            card, why = nil_pass(hand, offered), Why.PASS_HIGH_TO_PARTNER
        else:
            card, why = helper_pass(hand, offered), Why.PASS_LOW_TO_NIL
        chosen = CardSet(1 << card)
        return next(a for a in legal if type(a) is Pass and a.cards == chosen), why
    return legal[0], Why.ONLY_CHOICE
