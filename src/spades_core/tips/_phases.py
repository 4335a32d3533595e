"""The coach's words in a variant's phases: whether to go Blind Nil (with the
numbers the decision used) and which card to pass in an exchange, and why."""

from __future__ import annotations

from spades_core.bots.phases import (
    BLIND_NIL_COST,
    BLIND_NIL_SUCCESS,
    CLOSE_TO_TARGET,
    blind_nil_odds,
)
from spades_core.bots.why import Why
from spades_core.engine.views import View
from spades_core.rules.tricks import SPADES
from spades_core.tips._words import SUIT_NAMES, SUIT_SINGULAR, name, plural
from spades_core.values.actions import Action, Pass


def phase_reason(view: View, action: Action, why: Why) -> str:
    """One or two sentences for a Blind Nil decision or a pass."""
    if type(action) is Pass:
        card = action.cards.mask.bit_length() - 1
        hand = view.hand().mask
        if why is Why.PASS_HIGH_TO_PARTNER:
            return _nil_pass_reason(hand, card)
        return _helper_pass_reason(hand, card)
    legal = view.legal_actions()
    if len(legal) == 1:
        return "This is the only choice the rules leave you."
    odds = blind_nil_odds(view)
    numbers = (
        f"a Blind Nil wins or loses {odds.stake:.0f}, and with the exchange it succeeds "
        f"about {BLIND_NIL_SUCCESS:.0%} of the time, so after the {BLIND_NIL_COST:.0f} points "
        f"a blind hand gives up on average it is worth {odds.expected:+.0f} points"
    )
    trail = f"Your side trails by {odds.behind}"
    if why is Why.BLIND_NIL_BEHIND:
        if odds.close and odds.expected <= 0:
            return (
                f"{trail} and the opponents are within {CLOSE_TO_TARGET} of "
                f"{view.rules.target_score}: go Blind Nil for the swing, though {numbers}."
            )
        return f"{trail}: go Blind Nil; {numbers}."
    if odds.fatal and odds.behind < odds.stake:
        return (
            f"{trail}, but a failed Blind Nil would cost {odds.stake:.0f} and put your side "
            f"at the loss floor ({view.rules.loss_floor}), and an ordinary hand can still "
            "catch up: look at your cards and bid them."
        )
    return f"{trail}, but {numbers}: look at your cards and bid them."


def _nil_pass_reason(hand: int, card: int) -> str:
    suit, rank = divmod(card, 13)
    length = (hand >> (13 * suit) & 0x1FFF).bit_count()
    start = f"You bid Nil: pass your {name(card)}"
    if suit == SPADES and rank >= 9:
        return f"{start}, a high spade: it cannot be thrown away when spades are led."
    if suit != SPADES and rank >= 11:
        return f"{start}: {'an ace' if rank == 12 else 'a king'} is likely to win a trick."
    if suit != SPADES and length == 1:
        return (
            f"{start}, your last {SUIT_SINGULAR[suit]}: void in {SUIT_NAMES[suit]}, you can "
            "throw your high cards away when they are led."
        )
    if suit == SPADES and rank >= 5:
        return (
            f"{start}: a spade that high can win when spades are led, and you hold nothing "
            "likelier to win."
        )
    return f"{start}, the highest card you may pass: the likeliest to win a trick."


def _helper_pass_reason(hand: int, card: int) -> str:
    suit = card // 13
    length = (hand >> (13 * suit) & 0x1FFF).bit_count()
    start = f"Your partner bid Nil: pass your {name(card)}"
    if suit == SPADES:
        return f"{start}; you have only spades left to pass, and a low one is the safest."
    short = (
        f", from your {plural(length, SUIT_SINGULAR[suit])}: short there, you can trump "
        "to cover them"
    )
    return (
        f"{start}, a low card they can play under; keep your high cards to win the tricks "
        f"they must not take{short if length <= 3 else ''}."
    )
