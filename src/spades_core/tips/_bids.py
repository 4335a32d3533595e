"""The coach's words for a bid: the variant's limits, a weak hand's Nil, and
the estimate the normal player bids from, item by item."""

from __future__ import annotations

from spades_core.bots import Why
from spades_core.bots.bidding import EstimatePart, estimate_parts, estimate_tricks
from spades_core.engine.views import View
from spades_core.rules.tricks import FIRST_SPADE, RANKS, SPADE_MASK, SPADES
from spades_core.tips._words import (
    SUIT_NAMES,
    bid_text,
    card_names,
    cards_desc,
    join_words,
    name,
    plural,
)
from spades_core.values.actions import Bid
from spades_core.values.cards import SUIT_MASKS, Rank
from spades_core.values.options import DoubleNil

__all__ = ["bid_reason"]


def bid_reason(view: View, bid: int, why: Why) -> str:
    """Why to make ``bid`` (the normal player's, for idea ``why``) in ``view``."""
    legal = tuple(a.value for a in view.legal_actions() if isinstance(a, Bid))
    limits = view.explain_bids()
    hand = view.hand().mask
    if len(legal) == 1:
        # One bid is always a limit, so the variant explains it (checked: never None).
        return limits or f"{bid_text(bid)} is your only legal bid."
    if why is Why.BID_NIL_WEAK and bid == 0:
        return _weak_hand_reason(view, hand)
    if why is Why.BID_WHIZ_COUNT:
        prefix = f"{limits} " if limits else ""
        return f"{prefix}{_nil_too_risky(hand)}: bid {bid_text(bid)}."
    return _estimate_reason(view, legal, limits, bid)


def _weak_hand_reason(view: View, hand: int) -> str:
    cards = cards_desc(hand)
    top_rank = max(card % RANKS for card in cards)
    tops = [card for card in cards if card % RANKS == top_rank]
    best = (
        f"your best card is the {name(tops[0])}"
        if len(tops) == 1
        else f"your best cards are the {card_names(tops)}"
    )
    spades = cards_desc(hand & SPADE_MASK)
    spade_part = "no spades" if not spades else f"only the {card_names(spades)} in spades"
    rules = view.rules
    partner = view.bids[view.seat.partner] if view.seat is not None else None
    if partner == 0 and rules.double_nil is not DoubleNil.INDEPENDENT:
        # Two Nils in one team score together under this option: no single value to name.
        worth = " as your partner did"
    else:
        worth = f" for {rules.nil_value} points"
    return f"Your hand is weak ({best}, with {spade_part}), so bid Nil{worth}."


def _nil_too_risky(hand: int) -> str:
    strong = _strong_cards(hand)
    spades = (hand & SPADE_MASK).bit_count()
    if strong:
        return f"Nil is too risky with the {card_names(strong)}"
    if spades > 1:
        return f"Nil is too risky holding {spades} spades"
    return "Nil is too risky with this hand"


def _strong_cards(hand: int) -> list[int]:
    """Aces, kings with company, and the Q♠ with two more spades: the cards
    likely to win tricks, spades first."""
    out = []
    for suit in range(4):
        bits = hand & SUIT_MASKS[suit]
        length = bits.bit_count()
        ace = RANKS * suit + Rank.ACE
        king = ace - 1
        queen = ace - 2
        if bits >> ace & 1:
            out.append(ace)
        if bits >> king & 1 and length >= 2:
            out.append(king)
        if suit == SPADES and bits >> queen & 1 and length >= 3:
            out.append(queen)
    return sorted(out, key=lambda c: (-(c >= FIRST_SPADE), -(c % RANKS), c))


def _estimate_reason(view: View, legal: tuple[int, ...], limits: str | None, bid: int) -> str:
    """The tricks the hand is expected to take, item by item as
    :func:`~spades_core.bots.bidding.estimate_parts` counts them, so the words
    account for the whole estimate; then how the bid follows from it."""
    hand = view.hand().mask
    estimate = estimate_tricks(hand)
    expected = int(estimate + 0.5)
    parts = estimate_parts(hand)
    # A card worth a whole trick is a winner; everything else adds a part of one.
    whole = [part.kind == "card" and part.value == 1.0 for part in parts]
    winners = [part.what for part, is_whole in zip(parts, whole, strict=True) if is_whole]
    others = [
        _part_words(part, hand) for part, is_whole in zip(parts, whole, strict=True) if not is_whole
    ]
    sure = len(winners)
    rest = expected - sure
    if expected == 0:
        head = (
            "You can expect less than half a trick, from " + join_words(others)
            if others
            else "You can expect no tricks"
        )
    elif sure and rest:
        head = (
            f"You can expect about {plural(expected, 'trick')}: the {card_names(winners)} should "
            f"take {sure}, and {join_words(others)} about {rest} more"
        )
    elif sure:
        head = (
            f"You can expect about {plural(expected, 'trick')}: the {card_names(winners)} should "
            f"take {sure}"
        )
        if others:
            verb = "adds" if len(others) == 1 else "add"
            head += f", and {join_words(others)} {verb} less than half a trick"
    else:
        head = f"You can expect about {plural(expected, 'trick')} from {join_words(others)}"
    counts = [value for value in legal if value]
    partner = view.bids[view.seat.partner] if view.seat is not None else None
    if bid == expected:
        choice = f", so bid {bid_text(bid)}"
    elif counts and bid == max(counts) and bid < expected:
        choice = f"; bid {bid}, the most you may"
    elif counts and bid == min(counts) and bid > expected:
        if partner == 0:
            why_not_nil = " (your partner bid Nil)"
        elif 0 in legal:
            why_not_nil = " (Nil looks too risky)"
        else:
            why_not_nil = ""
        choice = f"; bid {bid}, the least you may above Nil{why_not_nil}"
    elif bid in counts and all(abs(bid - expected) <= abs(v - expected) for v in counts):
        choice = f"; bid {bid}, the nearest you may to {expected}"
    else:
        choice = f"; bid {bid_text(bid)}"
    partner_part = (
        f" (with your partner's {bid_text(partner)}, a team contract of {partner + bid})"
        if partner is not None
        else ""
    )
    sentence = f"{head}{choice}{partner_part}."
    if limits and bid != expected:
        return f"{limits} {sentence}"
    return sentence


def _part_words(part: EstimatePart, hand: int) -> str:
    kind, what, _ = part
    if kind == "card":
        return f"the {name(what)}"
    if kind == "length":
        return f"the length of your {(hand & SPADE_MASK).bit_count()} spades"
    suits = [SUIT_NAMES[suit] for suit in range(3) if what >> suit & 1]
    return f"trumping in your short {join_words(suits)}"
