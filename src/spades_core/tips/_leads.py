"""The coach's words for a lead: which card, and the fact that makes it good
(the highest card left, a partner who is out of the suit, a Nil to attack or
cover)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from spades_core.bots import Why
from spades_core.rules.tricks import FIRST_SPADE, NON_SPADE_MASK, RANKS, SPADE_MASK, SPADES
from spades_core.tips._seen import Seen
from spades_core.tips._words import (
    SUIT_NAMES,
    SUIT_SINGULAR,
    card_names,
    cards_desc,
    name,
    seat_name,
)
from spades_core.values.cards import SUIT_MASKS, ids_of_mask

__all__ = ["LEADS", "highest_words", "still_out"]


def _lead_ace(seen: Seen, card: int) -> str:
    if seen.highest_left(card):
        return f"Lead your {name(card)}: it is the highest {SUIT_SINGULAR[card // RANKS]} left."
    return f"Lead your {name(card)}."


def _lead_low(seen: Seen, card: int) -> str:
    suit = card // RANKS
    hand = seen.hand
    lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    longest = max(lengths)
    longest_side = max(lengths[:SPADES])
    where = ""
    if lengths[suit] == longest:
        where = "your longest suit" if lengths.count(longest) == 1 else "one of your longest suits"
    elif suit != SPADES and lengths[suit] == longest_side:
        # Spades are longer: say so, and whether they may be led.
        ties = lengths[:SPADES].count(longest_side)
        where = "your longest suit" if ties == 1 else "one of your longest suits"
        where += " outside spades"
        if not seen.legal & SPADE_MASK:
            where += " (spades may not be led yet)"
    text = f"Lead your lowest {SUIT_SINGULAR[suit]}, the {name(card)}"
    if not seen.lowest_of_suit(card):
        text = f"Lead the {name(card)}"
    if where:
        text += f", from {where}"
    if hand & SUIT_MASKS[suit] & ~((2 << card) - 1):
        text += f", and keep your higher {SUIT_NAMES[suit]} for later"
    return text + "."


def _cash_winner(seen: Seen, card: int) -> str:
    suit = card // RANKS
    if not seen.highest_left(card):
        return f"Lead your {name(card)}."
    text = f"The {name(card)} is the highest {SUIT_SINGULAR[suit]} left"
    if seen.opponents_may_trump():
        return (
            f"{text}: cash it now; an opponent who runs out of {SUIT_NAMES[suit]} could "
            "trump it later."
        )
    return f"{text}, and no opponent can trump it: cash it now."


def _draw_trumps(seen: Seen, card: int) -> str:
    if not seen.highest_left(card):
        return f"Lead your {name(card)}."
    text = f"Your {name(card)} is the highest spade left"
    if not seen.opponents_may_trump():
        return f"{text}: lead it."
    winners = [top for top in cards_desc(seen.hand & NON_SPADE_MASK) if seen.highest_left(top)]
    tail = f", so they cannot trump your {card_names(winners)}" if winners else ""
    return f"{text}: lead it to draw the opponents' spades{tail}."


def _lead_for_partner_ruff(seen: Seen, card: int) -> str:
    suit = card // RANKS
    partner = seen.partner
    if seen.shown_out[partner] >> suit & 1 and seen.may_hold(partner, SPADES):
        return (
            f"Your partner is out of {SUIT_NAMES[suit]} and may still hold spades: lead "
            f"the {name(card)} so they can trump it."
        )
    return f"Lead the {name(card)}."


def _lead_short_suit(seen: Seen, card: int) -> str:
    suit = card // RANKS
    if seen.hand & SUIT_MASKS[suit] == 1 << card and seen.hand & SPADE_MASK:
        return (
            f"Lead your last {SUIT_SINGULAR[suit]}, the {name(card)}: once you are out of "
            f"{SUIT_NAMES[suit]} you can trump them with your spades."
        )
    return f"Lead the {name(card)}."


def _nil_lead(seen: Seen, card: int) -> str:
    return f"You bid Nil: lead the {name(card)}, with {still_out(seen, card)}."


def still_out(seen: Seen, card: int) -> str:
    """``"9 higher diamonds still out"``, ``"no higher spade still out"``."""
    count = seen.higher_out(card)
    suit = card // RANKS
    if not count:
        return f"no higher {SUIT_SINGULAR[suit]} still out"
    word = SUIT_SINGULAR[suit] if count == 1 else SUIT_NAMES[suit]
    return f"{count} higher {word} still out"


def _protect_lead_void(seen: Seen, card: int) -> str:
    suit = card // RANKS
    if seen.shown_out[seen.partner] >> suit & 1:
        return (
            f"Your partner bid Nil and is out of {SUIT_NAMES[suit]}: lead the {name(card)} "
            "so they can throw away a dangerous card."
        )
    return f"Your partner bid Nil: lead the {name(card)}."


def _protect_lead_high(seen: Seen, card: int) -> str:
    return (
        f"Your partner bid Nil: lead your {name(card)}, {highest_words(seen, card)}, so "
        "they can play under it."
    )


def highest_words(seen: Seen, card: int) -> str:
    """Where ``card`` stands by rank among the hand's cards outside spades (or
    among its spades): ``"your highest card outside spades"``."""
    if card >= FIRST_SPADE:
        return "your highest spade" if seen.hand >> card == 1 else "one of your spades"
    ranks = [other % RANKS for other in ids_of_mask(seen.hand & NON_SPADE_MASK)]
    if card % RANKS != max(ranks):
        return "a card outside spades"
    if ranks.count(max(ranks)) > 1:
        return "one of your highest cards outside spades"
    return "your highest card outside spades"


def _attack_lead(seen: Seen, card: int) -> str:
    nils = [seat for seat in (seen.seat ^ 1, seen.seat ^ 3) if seen.nil_alive(seat)]
    names = " and ".join(
        seat_name(seat) for seat in sorted(nils, key=lambda s: (s - seen.seat) % 4)
    )
    who = f"{names} both bid Nil" if len(nils) == 2 else f"{names} bid Nil"
    suit = card // RANKS
    low = (
        f"your lowest {SUIT_SINGULAR[suit]}, the {name(card)}"
        if seen.lowest_of_suit(card)
        else f"the {name(card)}"
    )
    them = "them" if len(nils) == 1 else "them both"
    return f"{who}: lead {low}, to make it hard for {them} to stay under."


LEADS: Final[dict[Why, Callable[[Seen, int], str]]] = {
    Why.LEAD_ACE: _lead_ace,
    Why.LEAD_LOW: _lead_low,
    Why.CASH_WINNER: _cash_winner,
    Why.DRAW_TRUMPS: _draw_trumps,
    Why.LEAD_FOR_PARTNER_RUFF: _lead_for_partner_ruff,
    Why.LEAD_SHORT_SUIT: _lead_short_suit,
    Why.NIL_LEAD: _nil_lead,
    Why.PROTECT_LEAD_VOID: _protect_lead_void,
    Why.PROTECT_LEAD_HIGH: _protect_lead_high,
    Why.ATTACK_LEAD: _attack_lead,
}
"""The words for each idea of a lead."""
