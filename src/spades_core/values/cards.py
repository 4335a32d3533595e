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
from typing import Final, TypeVar, final, overload

import attrs

from spades_core.values.enums import CheckedLookup
from spades_core.values.errors import ArgumentTypeError, InvalidNotationError, RulesError, brief
from spades_core.values.notation import not_a, read_notation

__all__ = [
    "ALL_CARDS",
    "FULL_DECK_MASK",
    "SUIT_MASKS",
    "Card",
    "CardSet",
    "Rank",
    "Suit",
]


class Suit(enum.IntEnum, metaclass=CheckedLookup):
    """A suit; spades are always trump."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @classmethod
    def _missing_(cls, value: object) -> Suit:
        # Suit(7) is bad input to a public call: a SpadesError, not a bare ValueError.
        raise not_a("suit", value, _SUIT_NUMBERS)

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
    def parse(cls, value: Suit | str) -> Suit:
        """Read a suit from its letter or symbol (``"S"``, ``"s"``, ``"♠"``);
        a :class:`Suit` is returned as it is."""
        return read_notation(
            Suit, value, _SUIT_BY_TEXT, "suit", "write one of C, D, H, S or ♣ ♦ ♥ ♠, or a Suit"
        )


class Rank(enum.IntEnum, metaclass=CheckedLookup):
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
        raise not_a("rank", value, _RANK_NUMBERS)

    @property
    def letter(self) -> str:
        """One-character name: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return "23456789TJQKA"[self]

    @classmethod
    def parse(cls, value: Rank | str) -> Rank:
        """Read a rank: ``"A"``, ``"k"``, ``"T"``, ``"10"``, ``"7"``; a
        :class:`Rank` is returned as it is."""
        return read_notation(
            Rank, value, _RANK_BY_TEXT, "rank", "write one of 2-9, T (or 10), J, Q, K, A, or a Rank"
        )


_CARD_IDS: Final = "card ids are 0-51"
_SUIT_NUMBERS: Final = "suits are 0-3 (C, D, H, S)"
_RANK_NUMBERS: Final = "ranks are 0 (deuce) to 12 (ace)"
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


def _card_id(value: object) -> int:
    # Card(12), Card("QH") and Card(Card("QH")) all mean the queen of hearts;
    # anything else is refused before a Card exists.
    if type(value) is int:
        if 0 <= value < 52:
            return value
        raise not_a("card id", value, _CARD_IDS)
    if isinstance(value, Card):
        return value.id
    if isinstance(value, str):
        return Card.parse(value).id
    raise InvalidNotationError(f"not a card: {brief(value)}; give a card like 'QH', or its id 0-51")


def _card_mask(value: object) -> int:
    if type(value) is int and 0 <= value <= FULL_DECK_MASK:
        return value
    raise InvalidNotationError(
        f"not a card mask: {brief(value)}; a CardSet mask is a whole number from 0 to 2**52-1 "
        "(bit i set for the card with id i); CardSet.of and CardSet.parse read cards"
    )


@final
@attrs.frozen(order=True, repr=False)
class Card:
    """One playing card. ``id`` is ``suit * 13 + rank`` (0-51).

    ``Card("QH")`` reads notation as :meth:`parse` does and ``Card(10)`` takes
    an id; anything else raises :class:`~spades_core.InvalidNotationError`.
    :meth:`of` and :meth:`from_id` also build cards; cards compare and sort by id.
    """

    id: int = attrs.field(converter=_card_id)

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
        return ALL_CARDS[_suit(suit) * 13 + _rank(rank)]

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card with id ``card_id`` (0-51)."""
        if type(card_id) is not int or not 0 <= card_id < 52:
            raise not_a("card id", card_id, _CARD_IDS)
        return ALL_CARDS[card_id]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: rank then suit, any case, ``10`` or ``T`` for ten,
        a letter or a symbol for the suit (``"AS"``, ``"as"``, ``"10D"``, ``"A♠"``)."""
        if not isinstance(text, str) and not isinstance(text, Card):
            raise not_a("card", text, "write a card like 'AS' or '10D'")
        return read_notation(
            Card,
            text,
            _CARD_BY_TEXT,
            "card",
            "write rank then suit, like 'AS', 'TD', '10d' or 'Q♥'",
        )

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


def ids_of_mask(mask: int) -> list[int]:
    """The card ids of a 52-bit mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cards_of_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a 52-bit mask, lowest id first."""
    return tuple([ALL_CARDS[card] for card in ids_of_mask(mask)])


@final
@attrs.frozen(repr=False)
class CardSet:
    """An immutable set of cards backed by a 52-bit int ``mask``.

    ``CardSet(mask)`` checks that ``mask`` is a whole number from 0 to
    2**52-1 (raising :class:`~spades_core.InvalidNotationError` otherwise).
    Iteration goes by card id: clubs 2 to ace, then diamonds, hearts, spades.
    """

    mask: int = attrs.field(converter=_card_mask)

    @classmethod
    def of(cls, cards: Iterable[Card | str]) -> CardSet:
        """The set of the given cards (``Card`` objects or notation strings)."""
        items: Iterator[object] | None = None
        if not isinstance(cards, str | bytes) and isinstance(cards, Iterable):
            try:  # an Iterable may still refuse to iterate (a 0-d numpy array)
                items = iter(cards)
            except TypeError:
                items = None
        if items is None:
            raise InvalidNotationError(
                f"not a collection of cards: {brief(cards)}; "
                "give a list of cards, or use CardSet.parse for text"
            )
        mask = 0
        for card in items:
            mask |= Card.parse(card).mask if isinstance(card, str) else _as_card(card).mask
        return cls(mask)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read space- or comma-separated cards: ``"AS KS 10D"``."""
        if not isinstance(text, str):
            raise InvalidNotationError(f"not a list of cards: {brief(text)}")
        return cls.of(part for part in text.replace(",", " ").split() if part)

    @classmethod
    def full_deck(cls) -> CardSet:
        """All 52 cards."""
        return cls(FULL_DECK_MASK)

    def suit(self, suit: Suit | int | str) -> CardSet:
        """The cards of one suit: a :class:`Suit`, its number or its notation."""
        return CardSet(self.mask & SUIT_MASKS[_suit(suit)])

    def count(self, suit: Suit | int | str) -> int:
        """How many cards of ``suit`` the set holds."""
        return (self.mask & SUIT_MASKS[_suit(suit)]).bit_count()

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

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Card, ...]: ...
    def __getitem__(self, index: int | slice) -> Card | tuple[Card, ...]:
        """The card at ``index`` in card-id order (``cards[0]`` is the lowest),
        or a tuple of the cards of a slice, as a sorted tuple would give."""
        if type(index) is not int and not isinstance(index, slice):
            raise ArgumentTypeError(
                f"CardSet: an index is a whole number or a slice; got {brief(index)}"
            )
        cards = cards_of_mask(self.mask)
        if isinstance(index, slice):
            return cards[index]
        if not -len(cards) <= index < len(cards):
            raise _IndexOutOfRange(
                f"CardSet: index {brief(index)} is out of range for {len(cards)} cards"
            )
        return cards[index]

    def __or__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask & ~other.mask)

    def __str__(self) -> str:
        return " ".join(str(card) for card in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


class _IndexOutOfRange(RulesError, IndexError):
    """A position past the end of a :class:`CardSet`: a RulesError, and the
    IndexError every sequence raises there."""


_SuitOrRank = TypeVar("_SuitOrRank", Suit, Rank)


def _member(kind: type[_SuitOrRank], value: object, numbers: str) -> _SuitOrRank:
    # A suit or rank argument: the member, its number (a real int, not a bool)
    # or notation. Numbers are range-checked here: Suit(n) would format a huge
    # n in its own message.
    if type(value) is int:
        if 0 <= value < len(kind):
            return kind(value)
        raise not_a(kind.__name__.lower(), value, numbers)
    return kind.parse(value)  # type: ignore[arg-type]


def _suit(value: object) -> Suit:
    return _member(Suit, value, _SUIT_NUMBERS)


def _rank(value: object) -> Rank:
    return _member(Rank, value, _RANK_NUMBERS)


def _as_card(card: object) -> Card:
    if isinstance(card, Card):
        return card
    raise InvalidNotationError(f"not a card: {brief(card)}")
