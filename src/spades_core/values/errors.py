"""The exceptions spades-core raises.

Every error a public call raises is a :class:`SpadesError`. Callers branch on
the class (and, for illegal actions, on :attr:`IllegalActionError.reason`),
never on the message, which is written for people.
"""

from __future__ import annotations

import enum

from spades_core.values.enums import CheckedLookup

__all__ = [
    "ArgumentTypeError",
    "DuplicateVariantError",
    "IllegalActionError",
    "IllegalReason",
    "InconsistentViewError",
    "InvalidNotationError",
    "RecordFormatError",
    "RecordReason",
    "RulesError",
    "SpadesError",
    "VariantError",
    "VariantLoadError",
    "VariantNotFoundError",
    "brief",
]

_BRIEF_LIMIT = 40


def brief(value: object, limit: int = _BRIEF_LIMIT) -> str:
    """Return a short, safe text for ``value`` to echo in an error message.

    Huge ints are described by their size rather than written out (CPython
    refuses to format ints of more than 4,300 digits, and a long number helps
    nobody), and any other repr longer than ``limit`` characters is cut with
    ``…``. A repr that itself fails is reported by the value's type.

    >>> brief("QH")
    "'QH'"
    >>> brief(10**1000)
    'an int of 1001 digits'
    >>> brief(-(10**5000))
    'an int of about 5001 digits'
    >>> brief("x" * 100, limit=10)
    "'xxxxxxxx…"
    """
    if isinstance(value, int) and not isinstance(value, bool):
        magnitude = -value if value < 0 else value
        # bit_length is exact and cheap; formatting is not, past the limit.
        bits = magnitude.bit_length()
        if bits > 64:
            if bits > 13_000:  # beyond what str() may format; log10(2) ≈ 0.30103
                return f"an int of about {int(bits * 0.30103) + 1} digits"
            return f"an int of {len(str(magnitude))} digits"
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__} that cannot be shown"
    if len(text) > limit:
        return text[: limit - 1] + "…"
    return text


class SpadesError(Exception):
    """Base class of every error spades-core raises."""


class ArgumentTypeError(SpadesError, TypeError):
    """A public call was given an argument of a type it does not take (``None``
    for a game, a number for a random generator…); the message names the
    argument and what it takes."""


class IllegalReason(enum.Enum, metaclass=CheckedLookup):
    """Why an action was rejected; stable, machine-readable."""

    WRONG_PHASE = "wrong_phase"
    """The action does not belong to the game's current phase."""
    NOT_YOUR_TURN = "not_your_turn"
    """A seat other than the one to act tried to act."""
    NOT_AN_ACTION = "not_an_action"
    """The object given is not a spades-core action or card."""
    CARD_NOT_IN_HAND = "card_not_in_hand"
    """The card is not in the acting seat's hand."""
    MUST_FOLLOW_SUIT = "must_follow_suit"
    """The seat holds a card of the led suit and must play one."""
    SPADES_NOT_BROKEN = "spades_not_broken"
    """A spade was led before spades were broken."""
    MUST_LEAD_TWO_OF_CLUBS = "must_lead_two_of_clubs"
    """With ``first_lead="two_of_clubs"`` the first trick starts with the 2♣."""
    BID_NOT_ALLOWED = "bid_not_allowed"
    """The variant does not allow this bid in this position."""
    INVALID_DEAL = "invalid_deal"
    """An explicit deal is not four distinct hands of 13 cards."""
    BLIND_TOO_LATE = "blind_too_late"
    """Blind Nil declared after the seat has looked at its cards or bid, or
    where the variant offers no Blind Nil."""
    PASS_NOT_ALLOWED = "pass_not_allowed"
    """A card passed in an exchange that the seat may not pass (one it does
    not hold)."""
    WRONG_PASS_COUNT = "wrong_pass_count"
    """More cards passed at once than the exchange still asks of the seat."""
    NOT_PASSING = "not_passing"
    """Cards passed while no exchange asks the seat to pass."""
    NOT_OFFERED = "not_offered"
    """An action of a variant's phase (looking at one's cards) that no phase
    offers now."""

    @classmethod
    def _missing_(cls, value: object) -> IllegalReason:
        reasons = ", ".join(reason.value for reason in cls)
        raise InvalidNotationError(f"not an illegal-action reason: {brief(value)}; use {reasons}")


class IllegalActionError(SpadesError, ValueError):
    """An action that the rules do not allow in the current state.

    ``reason`` says why, as an :class:`IllegalReason`.
    """

    def __init__(self, reason: IllegalReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class InvalidNotationError(SpadesError, ValueError):
    """A card, seat, suit or action written in a form spades-core cannot read."""


class RulesError(SpadesError, ValueError):
    """An unknown option, a value of the wrong type or range, or an option the
    variant does not have."""


class VariantError(SpadesError):
    """Base class of the errors about finding and loading variants."""


class VariantNotFoundError(VariantError, LookupError):
    """No installed variant has the requested id."""


class VariantLoadError(VariantError):
    """A variant plugin could not be imported, is not a variant, or misbehaved."""


class DuplicateVariantError(VariantError):
    """Two installed distributions claim the same variant id."""


class InconsistentViewError(SpadesError, ValueError):
    """A view no deal of the hidden cards can produce, given to
    :func:`~spades_core.sampling.determinize` (never the case for a view of a real game)."""


class RecordReason(enum.StrEnum, metaclass=CheckedLookup):
    """Why a record was refused; stable and machine-readable.

    A ``str`` enum: each member equals its value (``"bad_option"``), the tag
    ``spades replay`` prints. An action the rules reject is
    ``ILLEGAL_ACTION``, and the error's ``illegal_reason`` says which rule.
    """

    @classmethod
    def _missing_(cls, value: object) -> RecordReason:
        reasons = ", ".join(reason.value for reason in cls)
        raise InvalidNotationError(f"not a record reason: {brief(value)}; use {reasons}")

    NOT_JSON = "not_json"
    """Not JSON (or not UTF-8, a key twice, ``NaN``, nesting or numbers too large)."""
    NOT_AN_OBJECT = "not_an_object"
    """JSON, but not an object."""
    WRONG_FORMAT = "wrong_format"
    """A ``format`` other than ``"spades-game"``."""
    UNSUPPORTED_VERSION = "unsupported_version"
    """A format ``version`` this library does not read."""
    MISSING_FIELD = "missing_field"
    """A required field is missing."""
    UNKNOWN_FIELD = "unknown_field"
    """A field the format does not define."""
    WRONG_TYPE = "wrong_type"
    """A value of the wrong JSON type, or a record that is not text."""
    BAD_VALUE = "bad_value"
    """A ``seed`` or ``first_dealer`` out of range."""
    UNKNOWN_VARIANT = "unknown_variant"
    """A variant that is not installed (or not the variant passed)."""
    VARIANT_UNAVAILABLE = "variant_unavailable"
    """A variant that is installed but broken."""
    VARIANT_VERSION = "variant_version"
    """Made under another version of the variant's rules."""
    BAD_OPTION = "bad_option"
    """An option the variant does not have, or a value it does not take."""
    TOO_LARGE = "too_large"
    """Larger than the limits of :mod:`spades_core.records`."""
    MISSING_DEAL = "missing_deal"
    """A hand without ``deal`` in a record without ``seed``."""
    INVALID_DEAL = "invalid_deal"
    """A deal that is not four hands of 13 distinct cards covering the deck."""
    BAD_CARD = "bad_card"
    """A play that is not a card."""
    TOO_MANY_BIDS = "too_many_bids"
    """More than four bids in a hand."""
    TOO_MANY_PLAYS = "too_many_plays"
    """More than 52 plays in a hand."""
    INCOMPLETE_HAND = "incomplete_hand"
    """An unfinished hand that is not the last."""
    AFTER_GAME_OVER = "after_game_over"
    """Hands after the one that ended the game."""
    ILLEGAL_ACTION = "illegal_action"
    """An action the rules reject when it is replayed (``illegal_reason`` says why)."""


class RecordFormatError(SpadesError, ValueError):
    """A game record that cannot be read or that breaks a rule when replayed.

    ``reason`` says why, as a :class:`RecordReason`; for an action the rules
    reject (``RecordReason.ILLEGAL_ACTION``) ``illegal_reason`` is the
    :class:`IllegalReason` applying it raised, otherwise ``None``. ``hand``
    and ``action`` locate the problem (``None`` when it is not inside a hand).
    """

    def __init__(
        self,
        message: str,
        *,
        reason: RecordReason,
        hand: int | None = None,
        action: int | None = None,
        illegal_reason: IllegalReason | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = RecordReason(reason)
        self.illegal_reason = illegal_reason
        self.hand = hand
        self.action = action
