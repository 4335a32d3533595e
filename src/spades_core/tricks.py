"""The trick rules on ints: following suit, leading spades, the first lead,
the trick winner, breaking spades, and what a play shows about a hand.

Each rule is written here once. The checked engine, the fast play-out, the
hard bot's simulations and the views' inference all call these functions,
and an engine written in another form (vectorised, say) should mirror them
constant for constant.

Everything is a plain int:

* a card is its id ``suit * 13 + rank``: suits clubs, diamonds, hearts,
  spades (0-3), ranks deuce (0) to ace (12);
* a set of cards (a hand, the cards played) is a 52-bit mask, bit ``id`` set
  when the card is in it;
* a set of suits is a 4-bit mask, bit ``suit`` set when the suit is in it;
* the led suit of a trick is a suit number, or :data:`NO_SUIT` when the next
  card leads.

The two rule options enter as flags: ``any_spade`` (``break_rule`` is
``any_spade``) and ``two_of_clubs`` (``first_lead`` is ``two_of_clubs``);
:func:`rule_flags` reads both from :class:`~spades_core.Rules`.

>>> hand = (1 << 5) | (1 << FIRST_SPADE)  # the 7C and the 2S
>>> legal_mask(hand, NO_SUIT, broken=False, lead_two_of_clubs=False) == 1 << 5
True
>>> legal_mask(hand, SPADES, broken=False, lead_two_of_clubs=False) == 1 << FIRST_SPADE
True
>>> trick_winner((12, 0, FIRST_SPADE, 11))  # AC, 2C, 2S, KC: the spade wins
2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from spades_core.cards import SUIT_MASKS
from spades_core.options import BreakRule, FirstLead, Rules

__all__ = [
    "FIRST_SPADE",
    "NON_SPADE_MASK",
    "NON_SPADE_SUITS",
    "NO_SUIT",
    "RANKS",
    "SPADES",
    "SPADE_MASK",
    "SUIT_MASKS",
    "TWO_OF_CLUBS",
    "breaks_spades",
    "first_leader",
    "legal_mask",
    "rule_flags",
    "shown_out",
    "trick_winner",
]

RANKS: Final = 13
"""Cards per suit: a card's suit is ``card // RANKS``, its rank ``card % RANKS``."""
SPADES: Final = 3
"""The suit number of spades, always trump."""
FIRST_SPADE: Final = SPADES * RANKS
"""The id of the deuce of spades: a card is a spade when its id is at least this."""
TWO_OF_CLUBS: Final = 0
"""The id of the deuce of clubs, which leads the first trick under ``first_lead=two_of_clubs``."""
SPADE_MASK: Final = SUIT_MASKS[SPADES]
"""The 52-bit mask of the 13 spades."""
NON_SPADE_MASK: Final = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2]
"""The 52-bit mask of the 39 clubs, diamonds and hearts."""
NON_SPADE_SUITS: Final = (1 << SPADES) - 1
"""The 4-bit suit set of clubs, diamonds and hearts."""
NO_SUIT: Final = -1
"""The led suit while a trick has no card yet: the next card leads."""


def rule_flags(rules: Rules) -> tuple[bool, bool]:
    """``(any_spade, two_of_clubs)``: the two options the trick rules read."""
    return rules.break_rule is BreakRule.ANY_SPADE, rules.first_lead is FirstLead.TWO_OF_CLUBS


def legal_mask(held: int, led: int, broken: bool, lead_two_of_clubs: bool) -> int:
    """The cards of ``held`` that may be played to a trick led in suit ``led``
    (:data:`NO_SUIT`: the card leads).

    A card following must be of the led suit when ``held`` has one. A lead
    may be anything once spades are ``broken``, and otherwise anything but a
    spade unless ``held`` is all spades. ``lead_two_of_clubs`` is true for the
    first lead of a hand under ``first_lead=two_of_clubs``: then the only
    legal card is the deuce of clubs, which the leader holds.
    """
    if led >= 0:
        return held & SUIT_MASKS[led] or held
    if lead_two_of_clubs:
        return 1 << TWO_OF_CLUBS
    if broken:
        return held
    return held & NON_SPADE_MASK or held


def first_leader(dealer: int, held: Sequence[int], two_of_clubs: bool) -> int:
    """The seat (0-3) that leads a hand's first trick: left of ``dealer``, or
    under ``two_of_clubs`` the seat whose mask in ``held`` has the deuce of clubs."""
    if two_of_clubs:
        for seat in range(4):
            if held[seat] >> TWO_OF_CLUBS & 1:
                return seat
    return (dealer + 1) % 4


def breaks_spades(card: int, led: int, any_spade: bool) -> bool:
    """Whether playing ``card`` to a trick led in ``led`` (:data:`NO_SUIT`:
    leading it) breaks spades: a spade played to a trick led in another suit
    always does; under ``any_spade`` any spade does, one led or followed too."""
    return card >= FIRST_SPADE and (any_spade or 0 <= led < SPADES)


def shown_out(card: int, led: int, broken: bool) -> int:
    """The suits (a 4-bit set) the player of ``card`` proves to be out of by
    playing it to a trick led in ``led`` (:data:`NO_SUIT`: leading it), spades
    ``broken`` or not before the card: a card off the led suit shows the led
    suit out; a spade led before spades are broken shows every other suit out
    (the only-spades exception is the one way to lead it)."""
    if led >= 0:
        return 0 if card // RANKS == led else 1 << led
    if card >= FIRST_SPADE and not broken:
        return NON_SPADE_SUITS
    return 0


def trick_winner(cards: Sequence[int]) -> int:
    """Position (0-3, from the leader) of the winning card of a trick of four
    card ids in play order: the highest spade, else the highest card of the
    led suit."""
    best = cards[0]
    position = 0
    for i in (1, 2, 3):
        card = cards[i]
        # A higher card of the best card's suit, or a spade on another suit, is the new best.
        if card // RANKS == best // RANKS:
            if card > best:
                best, position = card, i
        elif card >= FIRST_SPADE:
            best, position = card, i
    return position
