"""What is legal now: the legal actions of a :class:`~spades_core.Game`, and
why an action is not.

:func:`legal_actions` is what ``Game.legal_actions()`` returns (and caches);
:func:`check` raises the :class:`~spades_core.IllegalActionError` that
applying an illegal action raises, with the reason and an explanation.
:func:`card_refusal`, :func:`bid_refusal` and :func:`phase_refusal` are the
one statement of those reasons, on plain numbers, which the batch engine
asks too. The trick rules themselves are those of :mod:`spades_core.tricks`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from spades_core.engine._build import card_set
from spades_core.engine.game import NO_SEAT, SEATS, Game, GameSetup, Phase
from spades_core.rules._slices import SliceTable
from spades_core.rules.tricks import NO_SUIT, RANKS, legal_card_mask
from spades_core.rules.variant import Variant, checked_explain_bids, checked_legal_bids
from spades_core.values import _check
from spades_core.values.actions import BIDS, DEAL_FROM_SEED, PLAYS, Action, Bid, Deal, Play, deal_of
from spades_core.values.cards import ALL_CARDS, SUIT_MASKS, CardSet
from spades_core.values.errors import (
    IllegalActionError,
    IllegalReason,
    brief,
)
from spades_core.values.options import FirstLead, Rules
from spades_core.values.seats import Seat

__all__ = [
    "PLAYS_BY_MASK",
    "bid_explanation",
    "bid_refusal",
    "bid_values",
    "bids_made",
    "card_refusal",
    "check",
    "legal_actions",
    "legal_bid_values",
    "legal_play_mask",
    "phase_refusal",
    "plays_of_mask",
    "wrong_phase",
]

_TWO_OF_CLUBS_FIRST: Final = FirstLead.TWO_OF_CLUBS
# Looking a member up on an enum class costs more than a global in CPython 3.11.
_DEAL: Final = Phase.DEAL
_BID: Final = Phase.BID
_PLAY: Final = Phase.PLAY

# Turning a legal-card mask into action objects is one lookup (when the
# cards are in one suit) or one per suit.
PLAYS_BY_MASK: Final[SliceTable[Play]] = SliceTable(PLAYS.__getitem__)
"""The pre-built plays of a card mask (:func:`plays_of_mask` reads it; so does
``Game.legal_actions``, once per card, without that call)."""
_plays_of_one_suit: Final = PLAYS_BY_MASK.one_suit.get
_plays_of_slices: Final = PLAYS_BY_MASK.of_mask


def plays_of_mask(mask: int) -> tuple[Play, ...]:
    """The pre-built plays of the cards in ``mask``, lowest card id first."""
    return _plays_of_one_suit(mask) or _plays_of_slices(mask)


# -- queries -----------------------------------------------------------------


def legal_play_mask(game: Game) -> int:
    """The mask of cards the seat to act may play (the game must be in ``PLAY``)."""
    trick = game._trick
    if trick:
        return legal_card_mask(game._held[game._to_act], trick[0] // RANKS, game._broken, False)
    return legal_card_mask(
        game._held[game._to_act], NO_SUIT, game._broken, _leads_two_of_clubs(game)
    )


def _leads_two_of_clubs(game: Game) -> bool:
    # Whether a card leading now is the forced first lead of the hand.
    return not game._played and game._standing.setup.rules.first_lead is _TWO_OF_CLUBS_FIRST


def legal_bid_values(game: Game) -> tuple[int, ...]:
    """The bids the variant allows the seat to act (the game must be in ``BID``).

    Calls the variant's :meth:`~spades_core.Variant.legal_bids` hook and checks
    its answer: a plugin that raises or answers nonsense gets a
    :class:`~spades_core.VariantLoadError` naming it.
    """
    seat = game._to_act
    return bid_values(game._standing.setup, seat, game._held[seat], game._bids)


def bid_values(
    setup: GameSetup, seat: int, hand: int, bids: tuple[int | None, ...]
) -> tuple[int, ...]:
    """The bids the variant allows seat number ``seat`` holding the mask
    ``hand`` when ``bids`` (by seat, ``None`` for no bid yet) have been made;
    checked as :func:`legal_bid_values` describes."""
    return checked_legal_bids(
        setup.variant, setup.rules, SEATS[seat], card_set(hand), bids_made(bids)
    )


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
            {SEATS[i]: b for i, b in enumerate(bids) if b is not None}
        )
    return made


def bid_explanation(game: Game) -> str | None:
    """The variant's sentence on what limits the bids of the seat to act (the
    game must be in ``BID``), checked by
    :func:`~spades_core.variant.checked_explain_bids`; ``None`` when every bid is open."""
    seat = game._to_act
    setup = game._standing.setup
    return checked_explain_bids(
        setup.variant, setup.rules, SEATS[seat], card_set(game._held[seat]), bids_made(game._bids)
    )


# The bid actions of each answer of legal_bid_values (at most 2**14 distinct ones).
_BID_ACTIONS: Final[dict[tuple[int, ...], tuple[Bid, ...]]] = {}


def _bid_actions(values: tuple[int, ...]) -> tuple[Bid, ...]:
    actions = _BID_ACTIONS.get(values)
    if actions is None:
        actions = _BID_ACTIONS[values] = tuple(BIDS[value] for value in values)
    return actions


def legal_actions(game: Game) -> tuple[Action, ...]:
    """The legal actions of the seat to act (``Game.legal_actions`` caches this)."""
    phase = game.phase
    if phase is _PLAY:
        mask = legal_play_mask(game)
        return _plays_of_one_suit(mask) or _plays_of_slices(mask)
    if phase is _BID:
        return _bid_actions(legal_bid_values(game))
    if phase is _DEAL:
        return (DEAL_FROM_SEED,)
    return ()


# -- checking ----------------------------------------------------------------


def _illegal(reason: IllegalReason, message: str) -> IllegalActionError:
    return IllegalActionError(reason, message)


def check(game: Game, action: object, seat: object = None) -> None:
    """Raise the :class:`IllegalActionError` that applying ``action`` (by
    ``seat``, if given: a :class:`Seat` or its name) would raise; return ``None``
    if it is legal."""
    if seat is not None and type(seat) is not Seat:
        seat = _check.seat(seat, "Game.apply")
    phase = game.phase
    if seat is not None and (game._to_act == NO_SEAT or seat != game._to_act):
        if game._to_act == NO_SEAT:
            raise _illegal(
                IllegalReason.NOT_YOUR_TURN,
                f"no seat is to act now ({phase.name}); "
                + ("the game is over" if phase is Phase.GAME_OVER else "deal the next hand"),
            )
        name = seat.name if hasattr(seat, "name") else repr(seat)
        raise _illegal(
            IllegalReason.NOT_YOUR_TURN,
            f"it is {SEATS[game._to_act].name}'s turn, not {name}'s",
        )
    if isinstance(action, Deal):
        if phase is not Phase.DEAL:
            raise wrong_phase(game, "deal")
        given = explicit_hands(action)
        if given is not None:
            deal_of(given)
        return
    if isinstance(action, Bid):
        if phase is not Phase.BID:
            raise wrong_phase(game, "bid")
        setup = game._standing.setup
        seat = game._to_act
        refusal = bid_refusal(
            setup.variant, setup.rules, seat, game._held[seat], game._bids, action.value
        )
        if refusal is not None:
            raise refusal
        return
    if isinstance(action, Play):
        if phase is not Phase.PLAY:
            raise wrong_phase(game, "play a card")
        _check_play(game, action.card.id)
        return
    raise _illegal(
        IllegalReason.NOT_AN_ACTION,
        f"not an action: {brief(action)}; use one of game.legal_actions(), a Bid or a Play",
    )


def wrong_phase(game: Game, what: str) -> IllegalActionError:
    """The error for trying to ``what`` (``"bid"``, ``"play a card"``) in the wrong phase."""
    return phase_refusal(game.phase, game._to_act, what)


def phase_refusal(phase: Phase, to_act: int, what: str) -> IllegalActionError:
    """The error for trying to ``what`` (``"deal"``, ``"bid"``, ``"play a
    card"``) in ``phase``, seat number ``to_act`` (or :data:`NO_SEAT`) to act."""
    needed = {
        Phase.DEAL: "the next hand must be dealt",
        Phase.BID: f"{SEATS[to_act].name} must bid" if to_act >= 0 else "",
        Phase.PLAY: f"{SEATS[to_act].name} must play a card" if to_act >= 0 else "",
        Phase.GAME_OVER: "the game is over",
    }[phase]
    return _illegal(IllegalReason.WRONG_PHASE, f"cannot {what} now: {needed}")


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
    legal. The variant's ``legal_bids`` hook decides, checked."""
    legal = checked_legal_bids(variant, rules, SEATS[seat], card_set(hand), bids_made(bids))
    if value in legal:
        return None
    shown = ", ".join("Nil" if b == 0 else str(b) for b in legal)
    return _illegal(
        IllegalReason.BID_NOT_ALLOWED,
        f"{SEATS[seat].name} may not bid {BIDS[value] if 0 <= value <= 13 else value}; "
        f"the {variant.id} rules allow {shown}",
    )


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
    who = SEATS[seat]
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


def _check_play(game: Game, card: int) -> None:
    seat = game._to_act
    refusal = card_refusal(
        seat, game._held[seat], game._trick, game._broken, _leads_two_of_clubs(game), card
    )
    if refusal is not None:
        raise refusal


def explicit_hands(action: Deal) -> object:
    """The hands of a :class:`Deal` as :func:`~spades_core.actions.deal_of` reads them."""
    # A Deal holds hands in seat order; deal_of reads a seat mapping and
    # reports anything else (wrong length, wrong type) as INVALID_DEAL.
    # Read untyped: a Deal built with anything (it does not check) must reach
    # deal_of, also in the compiled build, which checks what it reads by type.
    given: object = _untyped(action).hands
    if isinstance(given, tuple) and len(given) == 4:
        return dict(zip(SEATS, given, strict=True))
    return given


def _untyped(value: object) -> Any:
    return value
