"""Cards, seats, bids and lists in the coach's words."""

from __future__ import annotations

from typing import Final

from spades_core.values.cards import ALL_CARDS, ids_of_mask
from spades_core.values.seats import Seat

SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
"""Each suit's name in the plural, by suit number."""
SUIT_SINGULAR: Final = ("club", "diamond", "heart", "spade")
"""Each suit's name for one card, by suit number."""


def name(card: int) -> str:
    """A card for people: ``"10♥"``, ``"K♠"``."""
    return ALL_CARDS[card].symbol


def join_words(words: list[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def card_names(cards: list[int]) -> str:
    """The cards for people, joined: ``"A♠, K♦ and 10♥"``."""
    return join_words([name(c) for c in cards])


def cards_desc(mask: int) -> list[int]:
    """The card ids of ``mask``, highest first."""
    return ids_of_mask(mask)[::-1]


def seat_name(seat: int) -> str:
    """A seat number as a name: ``"North"``."""
    return Seat(seat).name.title()


def bid_text(bid: int) -> str:
    """A bid for people: ``"Nil"``, ``"4"``."""
    return "Nil" if bid == 0 else str(bid)


def plural(number: int, word: str) -> str:
    """``"1 spade"``, ``"3 spades"``."""
    return f"{number} {word}{'s' if number != 1 else ''}"
