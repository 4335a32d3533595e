"""The engine's side of the phases a variant adds to a hand
(:mod:`spades_core.rules.phases`), on a game's parts: hands as masks and
seats as numbers by seat, as :mod:`spades_core.engine.game` keeps them.

The engine asks here whose turn it is in a variant's phase and what comes
after it (:func:`next_position`), why an action of a phase is refused
(:func:`action_refusal`), what taking one changes (:func:`step_effect`) and
whose cards a phase hides (:func:`hidden_seats`). Every answer of a plugin's
phase is checked first (:func:`checked_turn`).
"""

from __future__ import annotations

from typing import Final

from spades_core.rules.legality import phase_refusal
from spades_core.rules.phases import MOST_PHASE_STEPS, HandPhase, PhaseStep, PhaseTable, Turn, Where
from spades_core.rules.tricks import LEFT_OF, first_leader
from spades_core.values.actions import BLIND_NIL, PASSES, Action, BlindNil, Look, Pass, PhaseAction
from spades_core.values.cards import CardSet
from spades_core.values.errors import (
    IllegalActionError,
    IllegalReason,
    SpadesError,
    VariantLoadError,
    brief,
)
from spades_core.values.options import FirstLead, Rules
from spades_core.values.phase import Phase
from spades_core.values.seats import Seat, SeatMap, TeamMap

__all__ = [
    "action_refusal",
    "checked_turn",
    "hidden_seats",
    "next_bidder",
    "next_position",
    "next_turn",
    "step_effect",
    "table_of",
    "waiting_for",
]

_ACTION_TYPES: Final = (BlindNil, Look, Pass)


def table_of(
    hand_number: int,
    dealer: int,
    scores: tuple[int, int],
    held: tuple[int, ...],
    bids: tuple[int | None, ...],
    steps: tuple[PhaseStep, ...],
) -> PhaseTable:
    """The :class:`PhaseTable` a phase's hooks read, from the game's parts."""
    return PhaseTable(
        hand_number=hand_number,
        dealer=Seat(dealer),
        scores=TeamMap(scores),
        hands=SeatMap(tuple(CardSet(mask) for mask in held)),
        bids=SeatMap(bids),
        steps=steps,
    )


def checked_turn(phase: HandPhase, rules: Rules, table: PhaseTable, variant_id: str) -> Turn | None:
    """``phase.turn(rules, table)``, refused with a
    :class:`~spades_core.VariantLoadError` naming the variant and the phase
    when it fails or answers a turn the engine cannot take (see :class:`Turn`)."""
    try:
        turn: object = phase.turn(rules, table)
    except SpadesError:
        raise
    except (Exception, SystemExit) as error:
        raise VariantLoadError(
            f"variant {variant_id!r}: phase {phase.name!r} failed in turn: "
            f"{type(error).__name__}: {brief(str(error), 200)}"
        ) from error
    if turn is None:
        return None
    problem = _turn_problem(turn, table)
    if problem is None and len(table.steps_of(phase.name)) >= MOST_PHASE_STEPS:
        problem = f"it asked for more than {MOST_PHASE_STEPS} actions in one hand"
    if problem is not None:
        raise VariantLoadError(f"variant {variant_id!r}: phase {phase.name!r}: {problem}")
    return turn  # type: ignore[return-value]


def _turn_problem(turn: object, table: PhaseTable) -> str | None:
    """What is wrong with a phase's answer ``turn``, ``None`` if nothing."""
    if type(turn) is not Turn:
        return f"turn must return a Turn or None; it returned {brief(turn)}"
    if type(turn.seat) is not Seat or type(turn.actions) is not tuple or not turn.actions:
        return f"a turn names a Seat and a non-empty tuple of actions; got {brief(turn)}"
    if any(type(action) not in _ACTION_TYPES for action in turn.actions):
        return f"a turn offers BlindNil, Look and Pass actions only; got {brief(turn.actions)}"
    if len(set(turn.actions)) != len(turn.actions):
        return f"a turn offers an action twice: {brief(turn.actions)}"
    passes = [action for action in turn.actions if type(action) is Pass]
    held = table.hands[turn.seat].mask
    if any(len(action.cards) != 1 or action.cards.mask & ~held for action in passes):
        return f"{turn.seat.name} is offered a pass of several cards or of cards it does not hold"
    if passes and (type(turn.receiver) is not Seat or turn.receiver is turn.seat):
        return f"a pass needs a receiver other than the seat passing; got {brief(turn.receiver)}"
    if not passes and turn.receiver is not None:
        return "a turn names a receiver but offers no pass"
    if type(turn.count) is not int or not 1 <= turn.count <= max(1, len(passes)):
        return f"a turn's count must be 1 to the passes offered; got {brief(turn.count)}"
    if BLIND_NIL in turn.actions and table.bids[turn.seat] is not None:
        return f"Blind Nil offered to {turn.seat.name}, who has bid"
    return None


def next_turn(
    phases: tuple[HandPhase, ...], rules: Rules, variant_id: str, table: PhaseTable, where: Where
) -> tuple[HandPhase, Turn] | None:
    """The first of ``phases`` at ``where`` with a turn to take, and the turn."""
    for phase in phases:
        if phase.where is where:
            turn = checked_turn(phase, rules, table, variant_id)
            if turn is not None:
                return phase, turn
    return None


def next_bidder(dealer: int, seat: int, bids: tuple[int | None, ...]) -> int | None:
    """The seat number to bid after seat number ``seat`` (skipping those with
    a bid already: a Blind Nil), ``None`` when the bidding is over."""
    while seat != dealer:
        seat = LEFT_OF[seat]
        if bids[seat] is None:
            return seat
    return None


def next_position(
    phases: tuple[HandPhase, ...],
    rules: Rules,
    variant_id: str,
    table: PhaseTable,
    where: Where,
    bid_by: int = -1,
) -> tuple[Phase, int]:
    """Where a hand of a variant with ``phases`` goes on at ``where``, as the
    phase and the seat number to act: the first phase there with a turn, or
    else bidding (the first seat without a bid) or playing (the first leader).
    After seat number ``bid_by`` bid, the next seat without a bid bids, or
    the phases after the bidding begin."""
    bids = tuple(table.bids.values())
    dealer = int(table.dealer)
    if bid_by >= 0:
        bidder = next_bidder(dealer, bid_by, bids)
        if bidder is not None:
            return Phase.BID, bidder
        where = Where.AFTER_BIDDING
    if where is Where.BEFORE_BIDDING and None in bids:
        found = next_turn(phases, rules, variant_id, table, where)
        if found is not None:
            return Phase.VARIANT, int(found[1].seat)
        first = LEFT_OF[dealer]
        bidder = first if bids[first] is None else next_bidder(dealer, first, bids)
        assert bidder is not None  # a seat has no bid yet
        return Phase.BID, bidder
    found = next_turn(phases, rules, variant_id, table, Where.AFTER_BIDDING)
    if found is not None:
        return Phase.VARIANT, int(found[1].seat)
    held = tuple(hand.mask for hand in table.hands.values())
    return Phase.PLAY, first_leader(dealer, held, rules.first_lead is FirstLead.TWO_OF_CLUBS)


def action_refusal(turn: Turn | None, action: PhaseAction, now: str) -> IllegalActionError | None:
    """Why the seat to act may not take ``action`` of a variant's phase, whose
    ``turn`` is in progress (``None``: none is), as the error the engine
    raises, ending with ``now`` (what the game waits for); ``None`` if it may."""
    offered = () if turn is None else turn.actions
    if type(action) is BlindNil:
        if BLIND_NIL in offered:
            return None
        return IllegalActionError(
            IllegalReason.BLIND_TOO_LATE,
            "Blind Nil is declared before looking at one's cards, where the variant offers "
            f"it; {now}",
        )
    if type(action) is Look:
        if action in offered:
            return None
        return IllegalActionError(
            IllegalReason.NOT_OFFERED, f"no phase offers looking at one's cards now; {now}"
        )
    assert type(action) is Pass
    allowed = 0
    for offer in offered:
        if type(offer) is Pass:
            allowed |= offer.cards.mask
    if turn is None or not allowed:
        return IllegalActionError(
            IllegalReason.NOT_PASSING, f"no exchange asks for a pass now; {now}"
        )
    cards = action.cards
    if len(cards) > turn.count:
        return IllegalActionError(
            IllegalReason.WRONG_PASS_COUNT,
            f"{turn.seat.name} has {turn.count} card{'s' * (turn.count != 1)} left to pass, "
            f"not {len(cards)}",
        )
    if cards.mask & ~allowed:
        return IllegalActionError(
            IllegalReason.PASS_NOT_ALLOWED,
            f"{turn.seat.name} may not pass {CardSet(cards.mask & ~allowed)}; "
            f"it may pass {CardSet(allowed)}",
        )
    return None


def waiting_for(phase: Phase, to_act: int, legal: tuple[Action, ...]) -> str:
    """What a game in ``phase`` waits for (seat number ``to_act`` choosing
    among ``legal``), said to a player whose action was refused."""
    if phase is not Phase.VARIANT:
        return str(phase_refusal(phase, to_act, "do that")).split(": ", 1)[-1]
    choices = ", ".join(str(action) for action in legal[:6])
    more = ", ..." if len(legal) > 6 else ""
    return f"{Seat(to_act).name} must choose one of: {choices}{more}"


def step_effect(
    phase: HandPhase,
    turn: Turn,
    action: PhaseAction,
    held: tuple[int, ...],
    bids: tuple[int | None, ...],
) -> tuple[tuple[int, ...], tuple[int | None, ...], tuple[PhaseStep, ...]]:
    """``(held, bids, steps)`` after the turn's seat takes ``action``: a pass
    moves its cards to the receiver (one step per card), a Blind Nil makes
    the seat's bid Nil, a look changes nothing but is a step."""
    seat = turn.seat
    if type(action) is Pass:
        receiver = turn.receiver
        assert receiver is not None
        mask = action.cards.mask
        moved = list(held)
        moved[seat] &= ~mask
        moved[receiver] |= mask
        steps = tuple(
            PhaseStep(phase.name, seat, PASSES[card.id], receiver) for card in action.cards
        )
        return tuple(moved), bids, steps
    if type(action) is BlindNil:
        made = list(bids)
        made[seat] = 0
        bids = tuple(made)
    return held, bids, (PhaseStep(phase.name, seat, action),)


def hidden_seats(
    phase: HandPhase, rules: Rules, table: PhaseTable, variant_id: str
) -> frozenset[Seat]:
    """The seats whose own cards ``phase`` (in progress) hides from them,
    checked: a failing hook or an answer that is not a frozenset of seats
    raises :class:`~spades_core.VariantLoadError`."""
    try:
        hidden: object = phase.hidden(rules, table)
    except SpadesError:
        raise
    except (Exception, SystemExit) as error:
        raise VariantLoadError(
            f"variant {variant_id!r}: phase {phase.name!r} failed in hidden: "
            f"{type(error).__name__}: {brief(str(error), 200)}"
        ) from error
    if type(hidden) is not frozenset or any(type(seat) is not Seat for seat in hidden):
        raise VariantLoadError(
            f"variant {variant_id!r}: phase {phase.name!r}: hidden must return a frozenset "
            f"of seats; it returned {brief(hidden)}"
        )
    return hidden
