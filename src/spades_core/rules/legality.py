"""Why an action is not legal, on plain numbers, and the legal actions those
numbers give.

:func:`card_refusal`, :func:`bid_refusal` and :func:`phase_refusal` are the
one statement of those reasons; the engine (:mod:`spades_core.engine.game`,
whose :meth:`Game.apply <spades_core.Game.apply>` raises what they return)
and the batch engine both ask them. :func:`bid_values` asks the variant
which bids are open, checked; :func:`plays_of_mask` turns a mask of legal
cards into the pre-built plays. The trick rules themselves are those of
:mod:`spades_core.tricks`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from spades_core.rules.hooks import checked_explain_bids
from spades_core.rules.slices import SliceTable
from spades_core.rules.tricks import NO_SUIT, RANKS, legal_card_mask
from spades_core.rules.variant import Variant, checked_legal_bids
from spades_core.values.actions import BIDS, PLAYS, Bid, Deal, Play
from spades_core.values.cards import ALL_CARDS, SUIT_MASKS, CardSet
from spades_core.values.errors import IllegalActionError, IllegalReason
from spades_core.values.options import Rules
from spades_core.values.phase import Phase
from spades_core.values.seats import Seat

__all__ = [
    "PLAYS_BY_MASK",
    "bid_actions",
    "bid_explanation",
    "bid_refusal",
    "bid_values",
    "bids_made",
    "card_refusal",
    "explicit_hands",
    "phase_refusal",
    "plays_of_mask",
    "turn_refusal",
]

_SEATS: Final = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)

# Turning a legal-card mask into action objects is one lookup (when the
# cards are in one suit) or one per suit.
PLAYS_BY_MASK: Final[SliceTable[Play]] = SliceTable(PLAYS.__getitem__)
"""The pre-built plays of a card mask (:func:`plays_of_mask` reads it)."""
_plays_of_one_suit: Final = PLAYS_BY_MASK.one_suit.get
_plays_of_slices: Final = PLAYS_BY_MASK.of_mask


def plays_of_mask(mask: int) -> tuple[Play, ...]:
    """The pre-built plays of the cards in ``mask``, lowest card id first."""
    return _plays_of_one_suit(mask) or _plays_of_slices(mask)


def bid_values(
    variant: Variant, rules: Rules, seat: int, hand: int, bids: tuple[int | None, ...]
) -> tuple[int, ...]:
    """The bids ``variant`` allows seat number ``seat`` holding the mask
    ``hand`` when ``bids`` (by seat, ``None`` for no bid yet) have been made.

    Calls the variant's :meth:`~spades_core.Variant.legal_bids` hook and checks
    its answer: a plugin that raises or answers nonsense gets a
    :class:`~spades_core.VariantLoadError` naming it.
    """
    return checked_legal_bids(variant, rules, _SEATS[seat], CardSet(hand), bids_made(bids))


# The read-only mapping of each tuple of bids met so far, as the variant's
# hooks take it: asked at every bid, and the same few tuples come up each hand.
_BIDS_MADE: Final[dict[tuple[int | None, ...], Mapping[Seat, int]]] = {}
_MOST_BIDS_MADE: Final = 4096


def bids_made(bids: tuple[int | None, ...]) -> Mapping[Seat, int]:
    """The bids made so far (``bids`` by seat number, ``None`` for no bid
    yet) as the read-only seat mapping the variant's hooks take."""
    made = _BIDS_MADE.get(bids)
    if made is None:
        if len(_BIDS_MADE) >= _MOST_BIDS_MADE:
            _BIDS_MADE.clear()
        made = _BIDS_MADE[bids] = MappingProxyType(
            {_SEATS[i]: b for i, b in enumerate(bids) if b is not None}
        )
    return made


def bid_explanation(
    variant: Variant, rules: Rules, seat: int, hand: int, bids: tuple[int | None, ...]
) -> str | None:
    """The variant's sentence on what limits the bids of seat number ``seat``
    holding the mask ``hand`` after ``bids``, checked by
    :func:`~spades_core.variant.checked_explain_bids`; ``None`` when every bid is open."""
    return checked_explain_bids(variant, rules, _SEATS[seat], CardSet(hand), bids_made(bids))


# The bid actions of each answer of bid_values (at most 2**14 distinct ones).
_BID_ACTIONS: Final[dict[tuple[int, ...], tuple[Bid, ...]]] = {}


def bid_actions(values: tuple[int, ...]) -> tuple[Bid, ...]:
    """The pre-built bids of ``values`` (an answer of :func:`bid_values`), in order."""
    actions = _BID_ACTIONS.get(values)
    if actions is None:
        actions = _BID_ACTIONS[values] = tuple(BIDS[value] for value in values)
    return actions


# -- refusals ----------------------------------------------------------------


def _illegal(reason: IllegalReason, message: str) -> IllegalActionError:
    return IllegalActionError(reason, message)


def phase_refusal(phase: Phase, to_act: int, what: str) -> IllegalActionError:
    """The error for trying to ``what`` (``"deal"``, ``"bid"``, ``"play a
    card"``) in ``phase``, seat number ``to_act`` (-1 for none) to act."""
    needed = {
        Phase.DEAL: "the next hand must be dealt",
        Phase.BID: f"{_SEATS[to_act].name} must bid" if to_act >= 0 else "",
        Phase.PLAY: f"{_SEATS[to_act].name} must play a card" if to_act >= 0 else "",
        Phase.VARIANT: (
            f"{_SEATS[to_act].name} must act in the variant's phase (see legal_actions())"
            if to_act >= 0
            else ""
        ),
        Phase.GAME_OVER: "the game is over",
    }[phase]
    return _illegal(IllegalReason.WRONG_PHASE, f"cannot {what} now: {needed}")


def turn_refusal(phase: Phase, to_act: int, seat: object) -> IllegalActionError:
    """The error for ``seat`` acting in ``phase`` when seat number ``to_act``
    (-1 for none) is the one to act."""
    if to_act < 0:
        return _illegal(
            IllegalReason.NOT_YOUR_TURN,
            f"no seat is to act now ({phase.name}); "
            + ("the game is over" if phase is Phase.GAME_OVER else "deal the next hand"),
        )
    name = seat.name if hasattr(seat, "name") else repr(seat)
    return _illegal(
        IllegalReason.NOT_YOUR_TURN, f"it is {_SEATS[to_act].name}'s turn, not {name}'s"
    )


def bid_refusal(
    variant: Variant,
    rules: Rules,
    seat: int,
    hand: int,
    bids: tuple[int | None, ...],
    value: int,
) -> IllegalActionError | None:
    """Why seat number ``seat`` holding the mask ``hand`` may not bid
    ``value`` after ``bids`` (by seat, ``None`` for no bid yet), as the
    :class:`IllegalActionError` the engine raises; ``None`` if the bid is
    legal. The variant's ``legal_bids`` hook decides, checked, and its
    :meth:`~spades_core.Variant.explain_bids` sentence says why: the one
    phrasing of a refused bid."""
    who = _SEATS[seat]
    cards = CardSet(hand)
    made = bids_made(bids)
    legal = checked_legal_bids(variant, rules, who, cards, made)
    if value in legal:
        return None
    shown = BIDS[value] if 0 <= value <= 13 else value
    why = checked_explain_bids(variant, rules, who, cards, made) or "bids are Nil (0) to 13."
    return _illegal(IllegalReason.BID_NOT_ALLOWED, f"{who.name} may not bid {shown}: {why}")


def card_refusal(
    seat: int,
    held: int,
    trick: Sequence[int],
    broken: bool,
    leads_two_of_clubs: bool,
    card: int,
) -> IllegalActionError | None:
    """Why seat number ``seat`` holding the mask ``held`` may not play card
    id ``card`` to the trick so far (``trick``, card ids; empty for a lead),
    spades ``broken`` or not, ``leads_two_of_clubs`` when a lead now is the
    hand's forced first lead of the 2♣: the :class:`IllegalActionError` the
    engine raises, or ``None`` if the card is legal.

    The one statement of why a card is refused; the engine and the batch
    engine (for the rows it refuses) both ask it.
    """
    who = _SEATS[seat]
    shown = ALL_CARDS[card]
    if not held >> card & 1:
        return _illegal(IllegalReason.CARD_NOT_IN_HAND, f"{who.name} does not hold {shown}")
    led = trick[0] // RANKS if trick else NO_SUIT
    if legal_card_mask(held, led, broken, leads_two_of_clubs and not trick) >> card & 1:
        return None
    if trick:
        suit = ALL_CARDS[trick[0]].suit
        follow = CardSet(held & SUIT_MASKS[suit])
        return _illegal(
            IllegalReason.MUST_FOLLOW_SUIT,
            f"{who.name} must follow {suit.name.lower()} ({follow}) and cannot play {shown}",
        )
    if leads_two_of_clubs:
        return _illegal(
            IllegalReason.MUST_LEAD_TWO_OF_CLUBS,
            f"{who.name} must lead the 2C to the first trick, not {shown}",
        )
    return _illegal(
        IllegalReason.SPADES_NOT_BROKEN,
        f"{who.name} cannot lead {shown}: spades are not broken and {who.name} holds other suits",
    )


def explicit_hands(action: Deal) -> object:
    """The hands of a :class:`Deal` as :func:`~spades_core.actions.deal_of` reads them."""
    # A Deal holds hands in seat order; deal_of reads a seat mapping and
    # reports anything else (wrong length, wrong type) as INVALID_DEAL.
    # Read untyped: a Deal built with anything (it does not check) must reach
    # deal_of, also in the compiled build, which checks what it reads by type.
    given: object = _untyped(action).hands
    if isinstance(given, tuple) and len(given) == 4:
        return dict(zip(_SEATS, given, strict=True))
    return given


def _untyped(value: object) -> Any:
    return value
