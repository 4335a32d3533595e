"""Phases a variant adds to each hand: what a plugin writes to put Blind Nil
decisions, a card exchange or any other round of actions before or after
the bidding.

A variant lists its phases in :meth:`Variant.phases
<spades_core.Variant.phases>`. Each is a :class:`HandPhase` with a name of
the variant's choosing, a place in the hand (:class:`Where`), and two
hooks, both functions of a read-only :class:`PhaseTable`:

* :meth:`HandPhase.turn` — who acts next in the phase and what they may do
  (a :class:`Turn`), or ``None`` when the phase is over;
* :meth:`HandPhase.hidden` — the seats that may not see their own cards yet.

The phase only answers questions. The engine owns every change of state:
it asks for the turn, checks the answer, applies the action the seat takes
(a :class:`~spades_core.BlindNil` makes the seat's bid Nil, a
:class:`~spades_core.Pass` moves its cards to the turn's receiver, a
:class:`~spades_core.Look` changes nothing but is recorded) and records it
as one :class:`PhaseStep` per card passed or decision taken. The variant's
scoring hook sees the steps (:meth:`Variant.score_phased_hand
<spades_core.Variant.score_phased_hand>`).

A phase before the bidding ends at the latest when every seat has a bid
(four Blind Nils); a seat with a Blind Nil does not bid again.
"""

from __future__ import annotations

import enum
from typing import Final, final

import attrs

from spades_core.values import checks
from spades_core.values.actions import BlindNil, Look, Pass, PhaseAction
from spades_core.values.cards import CardSet
from spades_core.values.enums import CheckedLookup
from spades_core.values.errors import RulesError, brief
from spades_core.values.options import Rules
from spades_core.values.seats import Seat, SeatMap, TeamMap

__all__ = [
    "MOST_PHASE_STEPS",
    "MOST_TITLE_CHARACTERS",
    "HandPhase",
    "PhaseStep",
    "PhaseTable",
    "Turn",
    "Where",
    "hands_after_passes",
]

MOST_PHASE_STEPS: Final = 64
"""The most actions one phase may take in one hand; a phase asking for more is refused."""

MOST_TITLE_CHARACTERS: Final = 40
"""The longest :attr:`HandPhase.title` (it is shown in a phone's header)."""


class Where(enum.Enum, metaclass=CheckedLookup):
    """Where a variant's phase sits in the hand."""

    @classmethod
    def _missing_(cls, value: object) -> Where:
        raise checks.not_a_member(cls, value)

    BEFORE_BIDDING = "before_bidding"
    """After the deal, before the first bid."""
    AFTER_BIDDING = "after_bidding"
    """After the last bid, before the first card is played."""


@final
@attrs.frozen
class PhaseStep:
    """One action taken in a variant's phase this hand: the phase's name, the
    seat that acted, the action (a pass of one card), and for a pass the seat
    that received it. The engine builds steps; do not call the constructor."""

    phase: str
    seat: Seat
    action: PhaseAction
    receiver: Seat | None = None


@final
@attrs.frozen
class Turn:
    """A phase's answer to "who acts now?": ``seat`` chooses one of
    ``actions``; a :class:`~spades_core.Pass` (of one card, as
    :data:`~spades_core.PASSES` holds them) goes to ``receiver``, and
    ``count`` says how many cards the seat still passes in a row (it may
    pass them at once, as one :class:`~spades_core.Pass` of several cards).

    The engine refuses (with :class:`~spades_core.VariantLoadError`) a turn
    with no actions, an action twice, a pass of several cards or of a card
    the seat does not hold, a pass without a receiver (or to the seat
    itself), a receiver without a pass, a count outside 1 to the passes
    offered, and a Blind Nil offered to a seat that has bid.
    """

    seat: Seat
    actions: tuple[PhaseAction, ...]
    receiver: Seat | None = None
    count: int = 1


@final
@attrs.frozen
class PhaseTable:
    """What a phase's hooks may read of the hand in progress (every hand, not
    only the acting seat's: the hooks are the rules, not a player). The
    engine builds tables; do not call the constructor."""

    hand_number: int
    """0-based index of the hand."""
    dealer: Seat
    scores: TeamMap[int]
    """Running scores before this hand."""
    hands: SeatMap[CardSet]
    """The cards each seat holds now."""
    bids: SeatMap[int | None]
    """Bids made so far (a Blind Nil is a bid of 0); ``None``: not yet."""
    steps: tuple[PhaseStep, ...]
    """Every action taken in the variant's phases this hand, in order."""

    def bidding_order(self) -> tuple[Seat, ...]:
        """The four seats in bidding order: left of the dealer first."""
        return tuple(Seat((self.dealer + i) % 4) for i in range(1, 5))

    def steps_of(self, phase: str, seat: Seat | None = None) -> tuple[PhaseStep, ...]:
        """The steps of the phase named ``phase`` (by ``seat``, if given)."""
        return tuple(
            step
            for step in self.steps
            if step.phase == phase and (seat is None or step.seat is seat)
        )

    def received(self, phase: str, seat: Seat) -> CardSet:
        """The cards passed to ``seat`` in the phase named ``phase``."""
        mask = 0
        for step in self.steps:
            if step.phase == phase and step.receiver is seat and isinstance(step.action, Pass):
                mask |= step.action.cards.mask
        return CardSet(mask)

    def blind(self) -> frozenset[Seat]:
        """The seats that declared Blind Nil this hand."""
        return frozenset(step.seat for step in self.steps if isinstance(step.action, BlindNil))

    def looked(self) -> frozenset[Seat]:
        """The seats that chose to look at their cards this hand."""
        return frozenset(step.seat for step in self.steps if isinstance(step.action, Look))


class HandPhase:
    """A phase a variant adds to every hand. Subclass it, give it a ``name``
    (lowercase letters, digits and ``_``; unique among the variant's phases),
    a place (:class:`Where`) and, if its name in words is not the best title
    for people, a ``title`` (``"Passing cards"``), and override :meth:`turn`
    (and :meth:`hidden` if the phase keeps cards from their holders).

    A phase is stateless: everything it needs is in the :class:`PhaseTable`,
    including the steps it has taken so far this hand.
    """

    name: str
    """The phase's name, shown as :attr:`Game.phase_name <spades_core.Game.phase_name>`."""
    where: Where
    """Where in the hand the phase sits."""
    title: str
    """The phase's name for people, shown as :attr:`Game.phase_title
    <spades_core.Game.phase_title>` (by default the name in words:
    ``"blind_nil"`` is ``"Blind nil"``)."""

    def __init__(self, name: str, where: Where, title: str | None = None) -> None:
        if not isinstance(name, str) or not name.isidentifier() or name != name.lower():
            raise RulesError(
                f"a phase's name must be lowercase letters, digits and '_'; got {brief(name)}"
            )
        if type(where) is not Where:
            raise RulesError(f"phase {name!r}: where must be a Where; got {brief(where)}")
        if title is None:
            title = name.replace("_", " ").capitalize()
        elif type(title) is not str or not title.strip() or len(title) > MOST_TITLE_CHARACTERS:
            raise RulesError(
                f"phase {name!r}: title must be text of 1 to {MOST_TITLE_CHARACTERS} "
                f"characters; got {brief(title)}"
            )
        self.name = name
        self.where = where
        self.title = title

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} {self.where.value}>"

    # Phases are stateless: two of one class, name, place and title are the same
    # phase, so games of one variant made apart compare equal.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandPhase):
            return NotImplemented
        mine = (type(self), self.name, self.where, self.title)
        return mine == (type(other), other.name, other.where, other.title)

    def __hash__(self) -> int:
        return hash((type(self), self.name, self.where, self.title))

    def turn(self, rules: Rules, table: PhaseTable) -> Turn | None:
        """The next turn of this phase, or ``None`` when the phase is over.
        ``rules`` is the game's :class:`~spades_core.Rules`."""
        raise NotImplementedError(f"phase {self.name!r} does not define turn")

    def hidden(self, rules: Rules, table: PhaseTable) -> frozenset[Seat]:
        """The seats whose own cards are hidden from them while this phase is
        in progress (a seat yet to decide on Blind Nil). The default hides none."""
        return frozenset()


def hands_after_passes(hands: tuple[int, ...], steps: tuple[PhaseStep, ...]) -> tuple[int, ...]:
    """The hands (masks by seat number) after the passes among ``steps``:
    what the seats hold when play starts, from what they were dealt."""
    held = list(hands)
    for step in steps:
        if step.receiver is not None and type(step.action) is Pass:
            mask = step.action.cards.mask
            held[step.seat] &= ~mask
            held[step.receiver] |= mask
    return tuple(held)
