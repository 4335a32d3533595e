"""Action objects: dealing, bidding and playing a card.

Actions carry no seat: the seat to act performs them. The engine hands out
pre-built instances (:data:`BIDS`, :data:`PLAYS`), so comparing and hashing
actions is cheap.

Wherever an action is taken, the same notations are accepted (see
:func:`action_of`): a :class:`Bid` or :class:`Play`, a :class:`Card` (playing
it), a whole number 0-13 (bidding it), a card such as ``"QH"``, ``"10h"`` or
``"Q♥"``, and a bid such as ``"3"`` or ``"nil"``. Anything else raises
:class:`~spades_core.IllegalActionError`: ``NOT_AN_ACTION`` for what is
neither a bid nor a card, ``BID_NOT_ALLOWED`` for a number outside 0-13.

>>> Bid.of(0), Bid.of("nil"), Bid.of("3"), Play.of("QH")
(Bid(Nil), Bid(Nil), Bid(3), Play(QH))
>>> action_of("10h"), action_of("Nil"), action_of("bid 4")
(Play(TH), Bid(Nil), Bid(4))
>>> action_of(Card.parse("QH")), action_of(3)
(Play(QH), Bid(3))
"""

from __future__ import annotations

from typing import Final, final

import attrs

from spades_core.values import checks
from spades_core.values.cards import ALL_CARDS, Card, CardSet
from spades_core.values.errors import IllegalActionError, IllegalReason, InvalidNotationError, brief
from spades_core.values.seats import Seat

__all__ = [
    "BIDS",
    "BLIND_NIL",
    "LOOK",
    "MOST_CARDS_PASSED",
    "NIL",
    "PASSES",
    "PHASE_ACTION_TYPES",
    "PLAYS",
    "Action",
    "Bid",
    "BlindNil",
    "Deal",
    "Look",
    "Pass",
    "PhaseAction",
    "Play",
    "action_of",
]


def _bid_value(value: object) -> int:
    # A Bid holds a whole number, so the engine can compare it with the legal
    # bids; one outside 0-13 is refused when applied (BID_NOT_ALLOWED).
    if type(value) is int:
        return value
    raise IllegalActionError(
        IllegalReason.NOT_AN_ACTION,
        f"not a bid: {brief(value)}; a bid is a whole number 0-13 (0 = Nil)",
    )


@final
@attrs.frozen(repr=False)
class Bid:
    """A bid of ``value`` tricks; 0 is Nil. :meth:`of` gives the pre-built
    bids and reads notation."""

    value: int = attrs.field(converter=_bid_value)

    @property
    def is_nil(self) -> bool:
        """Whether this bid is Nil."""
        return self.value == 0

    @classmethod
    def of(cls, value: int | str | Bid) -> Bid:
        """The pre-built bid of ``value``: a whole number 0-13, its digits
        (``"3"``, ``"bid 3"``) or ``"nil"`` (any case) for 0, or a :class:`Bid`.

        A number outside 0-13 raises :class:`~spades_core.IllegalActionError`
        with reason ``BID_NOT_ALLOWED``; anything else that is not a bid,
        ``NOT_AN_ACTION``."""
        if type(value) is int:
            if 0 <= value <= 13:
                return BIDS[value]
            raise _bid_out_of_range(value)
        if type(value) is Bid:
            return BIDS[value.value] if 0 <= value.value <= 13 else value
        if isinstance(value, str):
            words = value.split()
            if len(words) == 2 and words[0].lower() == "bid":
                words = words[1:]
            if len(words) == 1:
                bid = _bid_of_text(words[0])
                if bid is not None:
                    return bid
        raise IllegalActionError(
            IllegalReason.NOT_AN_ACTION,
            f"not a bid: {brief(value)}; a bid is a whole number 0-13 or 'nil' (0 = Nil)",
        )

    def __str__(self) -> str:
        return "Nil" if self.value == 0 else str(self.value)

    def __repr__(self) -> str:
        return f"Bid({self})"


def _bid_out_of_range(value: object) -> IllegalActionError:
    return IllegalActionError(
        IllegalReason.BID_NOT_ALLOWED,
        f"no variant allows a bid of {brief(value)}; a bid is a whole number 0-13 (0 = Nil)",
    )


def _bid_of_text(text: str) -> Bid | None:
    """The bid one word names (``"nil"``, ``"3"``, ``"-1"``), ``None`` if it names none."""
    if text.lower() == "nil":
        return NIL
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()):
        return None
    # A long run of digits is shown as typed, never converted.
    number = int(text) if len(digits) <= 6 else None
    if number is None or not 0 <= number <= 13:
        raise _bid_out_of_range(text if number is None else number)
    return BIDS[number]


def _card_of_text(text: str) -> Card | None:
    """The card ``text`` names, ``None`` if it names none."""
    try:
        return Card.parse(text)
    except InvalidNotationError:
        return None


def _card_of(card: object) -> Card:
    """The card a play is of: a :class:`Card` or its notation; anything else
    is not an action."""
    if type(card) is Card:
        return card
    if isinstance(card, str):
        found = _card_of_text(card)
        if found is not None:
            return found
    raise IllegalActionError(
        IllegalReason.NOT_AN_ACTION,
        f"not a card to play: {brief(card)}; write a card like 'QH', '10h' or 'Q♥'",
    )


@final
@attrs.frozen(repr=False)
class Play:
    """Playing ``card`` to the current trick."""

    # Converting here means a Play always holds a real Card, so the engine's
    # hot path can trust it; anything else raises IllegalActionError (NOT_AN_ACTION).
    card: Card = attrs.field(converter=_card_of)

    @classmethod
    def of(cls, card: Card | str | Play) -> Play:
        """The pre-built play of a card (a :class:`Card` or its notation), or
        of a :class:`Play`'s card. Anything else raises
        :class:`~spades_core.IllegalActionError` (``NOT_AN_ACTION``)."""
        if type(card) is Play:
            return PLAYS[card.card.id]
        return PLAYS[_card_of(card).id]

    def __str__(self) -> str:
        return str(self.card)

    def __repr__(self) -> str:
        return f"Play({self.card})"


@final
@attrs.frozen
class Deal:
    """Dealing the next hand: from the game's seed when ``hands`` is ``None``,
    otherwise the given cards (``hands[seat]`` for each seat)."""

    hands: tuple[CardSet, CardSet, CardSet, CardSet] | None = None


@final
@attrs.frozen(repr=False)
class BlindNil:
    """Declaring Blind Nil: bidding Nil before looking at one's cards, in a
    variant phase that offers it (written ``"blind"``)."""

    def __str__(self) -> str:
        return "blind"

    def __repr__(self) -> str:
        return "BlindNil()"


@final
@attrs.frozen(repr=False)
class Look:
    """Looking at one's cards instead of declaring Blind Nil (written ``"look"``)."""

    def __str__(self) -> str:
        return "look"

    def __repr__(self) -> str:
        return "Look()"


def _pass_cards(cards: object) -> CardSet:
    """The cards a pass is of: a :class:`Card`, a :class:`CardSet` or their
    notation (``"QH"``, ``"QH 2C"``), one to three cards; anything else is
    not an action."""
    if type(cards) is Card:
        return CardSet(cards.mask)
    if type(cards) is CardSet:
        found: CardSet | None = cards
    elif isinstance(cards, str):
        try:
            found = CardSet.parse(cards)
        except InvalidNotationError:
            found = None
    else:
        found = None
    if found is not None and 1 <= len(found) <= MOST_CARDS_PASSED:
        return found
    raise IllegalActionError(
        IllegalReason.NOT_AN_ACTION,
        f"not a pass: {brief(cards)}; a pass is 1-{MOST_CARDS_PASSED} cards, written "
        "like 'pass QH' or 'pass QH 2C'",
    )


MOST_CARDS_PASSED: Final = 3
"""The most cards one :class:`Pass` moves."""


@final
@attrs.frozen(repr=False)
class Pass:
    """Passing ``cards`` (one to three) face down to the seat a variant's
    exchange names (written ``"pass QH"``, ``"pass QH 2C"``). The legal
    actions offer one card at a time; a pass of several cards is the same as
    passing them one after another."""

    cards: CardSet = attrs.field(converter=_pass_cards)

    @classmethod
    def of(cls, cards: Card | CardSet | str | Pass) -> Pass:
        """The pass of ``cards`` (a :class:`Card`, a :class:`CardSet` or
        notation), pre-built for one card. Anything else raises
        :class:`~spades_core.IllegalActionError` (``NOT_AN_ACTION``)."""
        found = cards.cards if type(cards) is Pass else _pass_cards(cards)
        if len(found) == 1:
            return PASSES[found.mask.bit_length() - 1]
        return cls(found)

    def __str__(self) -> str:
        return "pass " + " ".join(str(card) for card in self.cards)

    def __repr__(self) -> str:
        return f"Pass({' '.join(str(card) for card in self.cards)})"


PhaseAction = BlindNil | Look | Pass
"""An action taken in a phase a variant adds to the hand."""
PHASE_ACTION_TYPES: Final = (BlindNil, Look, Pass)
"""The classes of :data:`PhaseAction`."""

Action = Deal | Bid | Play | BlindNil | Look | Pass
"""Any action the engine accepts."""

BIDS: Final[tuple[Bid, ...]] = tuple(Bid(value) for value in range(14))
"""The pre-built bids, indexed by value."""
NIL: Final = BIDS[0]
"""The Nil bid."""
PLAYS: Final[tuple[Play, ...]] = tuple(Play(card) for card in ALL_CARDS)
"""The pre-built plays, indexed by card id."""
DEAL_FROM_SEED: Final = Deal()
"""The action that deals the next hand from the game's seed."""
BLIND_NIL: Final = BlindNil()
"""The Blind Nil declaration."""
LOOK: Final = Look()
"""Looking at one's cards."""
PASSES: Final[tuple[Pass, ...]] = tuple(Pass(card) for card in ALL_CARDS)
"""The pre-built passes of one card, indexed by card id."""


def action_of(value: object) -> Action:
    """The action ``value`` stands for, as every call that takes an action
    reads it: a :class:`Deal`, :class:`Bid` or :class:`Play` as it is, a
    :class:`Card` as playing it, a whole number as bidding it, or text naming
    a bid (``"3"``, ``"nil"``, ``"bid 3"``) or a card (``"QH"``, ``"10h"``,
    ``"Q♥"``, ``"play QH"``). The actions of variant phases are written
    ``"blind"`` (or ``"blind nil"``), ``"look"`` and ``"pass QH"`` (``"pass QH 2C"``).

    Raises :class:`IllegalActionError`: ``BID_NOT_ALLOWED`` for a number
    outside 0-13, ``NOT_AN_ACTION`` (saying how actions are written) for
    anything else that is not an action.
    """
    kind = type(value)
    if kind is Play or kind is Bid or kind is Deal or kind in PHASE_ACTION_TYPES:
        return value  # type: ignore[return-value]
    if kind is Card:
        return PLAYS[value.id]  # type: ignore[attr-defined]
    if kind is int:
        return Bid.of(value)  # type: ignore[arg-type]
    if isinstance(value, str):
        words = value.split()
        phase_action = _phase_action_of_text(words)
        if phase_action is not None:
            return phase_action
        verb = words[0].lower() if len(words) == 2 else ""
        text = words[1] if verb in ("bid", "play") else value.strip()
        if verb != "play":
            bid = _bid_of_text(text)
            if bid is not None:
                return bid
        if verb != "bid":
            card = _card_of_text(text)
            if card is not None:
                return PLAYS[card.id]
    raise IllegalActionError(
        IllegalReason.NOT_AN_ACTION,
        f"not an action: {brief(value)}; write a bid (0-13 or nil) or a card (QH, 10h, Q♥)",
    )


def _phase_action_of_text(words: list[str]) -> PhaseAction | None:
    """The phase action words name (``blind``, ``blind nil``, ``look``,
    ``pass QH``), ``None`` if they name none."""
    lowered = [word.lower() for word in words]
    if lowered in (["blind"], ["blind", "nil"]):
        return BLIND_NIL
    if lowered == ["look"]:
        return LOOK
    if len(words) >= 2 and lowered[0] == "pass":
        return Pass.of(" ".join(words[1:]))
    return None


def deal_of(hands: object) -> Deal:
    """A :class:`Deal` of explicit hands given as a mapping from seats (or
    seat letters) to cards (``Card`` objects or notation, or a ``CardSet``).

    Checks that the four hands are 13 distinct cards each and together the
    whole deck; raises :class:`IllegalActionError` (``INVALID_DEAL``) naming
    what is wrong.
    """
    if not hasattr(hands, "items"):
        raise _bad_deal(
            f"a deal is a mapping from the four seats to their cards; got {brief(hands)}"
        )
    by_seat: dict[Seat, int] = {}
    seen = 0
    for key, cards in hands.items():
        try:
            seat = checks.seat(key, "deal", "a key of the deal")
        except InvalidNotationError as error:
            raise _bad_deal(f"in the deal: {error}") from None
        if seat in by_seat:
            raise _bad_deal(f"the deal names {seat.name} twice")
        try:
            if isinstance(cards, CardSet):
                cardset = cards
            elif isinstance(cards, str):
                cardset = CardSet.parse(cards)
            else:
                ids = [Card.parse(card).id for card in cards]
                if len(set(ids)) != len(ids):
                    raise _bad_deal(f"{seat.name}'s hand lists a card twice")
                cardset = CardSet.of(ALL_CARDS[i] for i in ids)
        except InvalidNotationError as error:
            raise _bad_deal(f"in {seat.name}'s hand: {error}") from None
        except TypeError:
            raise _bad_deal(f"{seat.name}'s hand is not a list of cards: {brief(cards)}") from None
        if cardset.mask >> 52:
            # Only a CardSet forged past its checked constructor can get here.
            raise _bad_deal(f"{seat.name}'s hand holds bits beyond the 52 cards")
        if len(cardset) != 13:
            raise _bad_deal(f"{seat.name} has {len(cardset)} cards; every hand needs 13")
        if seen & cardset.mask:
            twice = CardSet(seen & cardset.mask)
            raise _bad_deal(f"dealt twice: {twice} (again in {seat.name}'s hand)")
        seen |= cardset.mask
        by_seat[seat] = cardset.mask
    missing = [seat.name for seat in Seat if seat not in by_seat]
    if missing:
        raise _bad_deal(f"the deal has no hand for {', '.join(missing)}")
    return Deal(tuple(CardSet(by_seat[seat]) for seat in Seat))  # type: ignore[arg-type]


def _bad_deal(message: str) -> IllegalActionError:
    return IllegalActionError(IllegalReason.INVALID_DEAL, message)
