"""Cards, suits, ranks and int-backed card sets.

A card is an int id ``suit * 13 + rank`` with suits clubs, diamonds, hearts,
spades (0-3) and ranks deuce (0) to ace (12): the numbering OpenSpiel's
``spades`` uses. A set of cards is a 52-bit mask; bit ``id`` is set when the
card is present. :class:`Card` and :class:`CardSet` are thin immutable
wrappers over those ints.

>>> Card.parse("10h")
Card('TH')
>>> str(Card.parse("A♠"))
'AS'
>>> hand = CardSet.parse("AS KS 2C")
>>> len(hand), Card.parse("KS") in hand
(3, True)
>>> str(hand.suit(Suit.SPADES))
'KS AS'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import Final, final

import attrs

from spades_core.errors import InvalidNotationError

__all__ = [
    "ALL_CARDS",
    "FULL_DECK_MASK",
    "SUIT_MASKS",
    "Card",
    "CardSet",
    "Rank",
    "Suit",
]


class Suit(enum.IntEnum):
    """A suit; spades are always trump."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @classmethod
    def _missing_(cls, value: object) -> Suit:
        # Suit(7) is bad input to a public call: a SpadesError, not a bare ValueError.
        raise InvalidNotationError(f"not a suit: {value!r}; suits are 0-3 (C, D, H, S)")

    @property
    def letter(self) -> str:
        """One-letter name: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self]

    @property
    def mask(self) -> int:
        """The 52-bit mask of the 13 cards of this suit."""
        return SUIT_MASKS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter or symbol (``"S"``, ``"s"``, ``"♠"``)."""
        found = _SUIT_BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
        if found is None:
            raise InvalidNotationError(f"not a suit: {text!r}; write one of C, D, H, S or ♣ ♦ ♥ ♠")
        return found


class Rank(enum.IntEnum):
    """A rank, deuce (0) low to ace (12) high."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @classmethod
    def _missing_(cls, value: object) -> Rank:
        raise InvalidNotationError(f"not a rank: {value!r}; ranks are 0 (deuce) to 12 (ace)")

    @property
    def letter(self) -> str:
        """One-character name: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return "23456789TJQKA"[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank: ``"A"``, ``"k"``, ``"T"``, ``"10"``, ``"7"``."""
        found = _RANK_BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
        if found is None:
            raise InvalidNotationError(
                f"not a rank: {text!r}; write one of 2-9, T (or 10), J, Q, K, A"
            )
        return found


_SUIT_BY_TEXT: Final = {
    **{s.letter: s for s in Suit},
    **{s.symbol: s for s in Suit},
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}
_RANK_BY_TEXT: Final = {**{r.letter: r for r in Rank}, "10": Rank.TEN}

SUIT_MASKS: Final[tuple[int, int, int, int]] = tuple(  # type: ignore[assignment]
    ((1 << 13) - 1) << (13 * s) for s in range(4)
)
"""The 52-bit mask of each suit, indexed by suit number."""

FULL_DECK_MASK: Final = (1 << 52) - 1
"""The mask holding all 52 cards."""


@final
@attrs.frozen(order=True, repr=False)
class Card:
    """One playing card. ``id`` is ``suit * 13 + rank`` (0-51).

    Build cards with :meth:`parse`, :meth:`of` or :meth:`from_id`; cards
    compare and sort by id.
    """

    id: int

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self.id // 13)

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank(self.id % 13)

    @property
    def mask(self) -> int:
        """The single-bit mask of this card."""
        return 1 << self.id

    @property
    def symbol(self) -> str:
        """The card as the board shows it: ``"A♠"``, ``"10♥"`` (ten written out)."""
        return ("10" if self.rank is Rank.TEN else self.rank.letter) + self.suit.symbol

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """The card of a rank and a suit."""
        return ALL_CARDS[Suit(suit) * 13 + Rank(rank)]

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card with id ``card_id`` (0-51)."""
        if type(card_id) is not int or not 0 <= card_id < 52:
            raise InvalidNotationError(f"not a card id: {card_id!r}; card ids are 0-51")
        return ALL_CARDS[card_id]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: rank then suit, any case, ``10`` or ``T`` for ten,
        a letter or a symbol for the suit (``"AS"``, ``"as"``, ``"10D"``, ``"A♠"``)."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise InvalidNotationError(f"not a card: {text!r}; write a card like 'AS' or '10D'")
        found = _CARD_BY_TEXT.get(text.strip().upper())
        if found is None:
            raise InvalidNotationError(
                f"not a card: {text!r}; write rank then suit, like 'AS', 'TD', '10d' or 'Q♥'"
            )
        return found

    def __str__(self) -> str:
        return "23456789TJQKA"[self.id % 13] + "CDHS"[self.id // 13]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


ALL_CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
"""The 52 cards, indexed by id."""

_CARD_BY_TEXT: Final = {
    rank_text + suit_text: ALL_CARDS[suit * 13 + rank]
    for rank_text, rank in _RANK_BY_TEXT.items()
    for suit_text, suit in _SUIT_BY_TEXT.items()
}


def cards_of_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a 52-bit mask, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


@final
@attrs.frozen(repr=False)
class CardSet:
    """An immutable set of cards backed by a 52-bit int ``mask``.

    Iteration goes by card id: clubs 2 to ace, then diamonds, hearts, spades.
    """

    mask: int

    @classmethod
    def of(cls, cards: Iterable[Card | str]) -> CardSet:
        """The set of the given cards (``Card`` objects or notation strings)."""
        mask = 0
        for card in cards:
            mask |= Card.parse(card).mask if isinstance(card, str) else _as_card(card).mask
        return cls(mask)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read space- or comma-separated cards: ``"AS KS 10D"``."""
        if not isinstance(text, str):
            raise InvalidNotationError(f"not a list of cards: {text!r}")
        return cls.of(part for part in text.replace(",", " ").split() if part)

    @classmethod
    def full_deck(cls) -> CardSet:
        """All 52 cards."""
        return cls(FULL_DECK_MASK)

    def suit(self, suit: Suit) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    def count(self, suit: Suit) -> int:
        """How many cards of ``suit`` the set holds."""
        return (self.mask & SUIT_MASKS[suit]).bit_count()

    def highest(self) -> Card | None:
        """The card with the highest id (in spades, the highest spade)."""
        return ALL_CARDS[self.mask.bit_length() - 1] if self.mask else None

    def lowest(self) -> Card | None:
        """The card with the lowest id."""
        return ALL_CARDS[(self.mask & -self.mask).bit_length() - 1] if self.mask else None

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        if isinstance(card, Card):
            return bool(self.mask >> card.id & 1)
        if isinstance(card, str):
            try:
                return bool(self.mask >> Card.parse(card).id & 1)
            except InvalidNotationError:
                return False
        return False

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of_mask(self.mask))

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __str__(self) -> str:
        return " ".join(str(card) for card in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


def _as_card(card: object) -> Card:
    if isinstance(card, Card):
        return card
    raise InvalidNotationError(f"not a card: {card!r}")
