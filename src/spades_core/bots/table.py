"""What a seat knows at a decision, as plain ints: the bots' working state.

Bot policies read a :class:`Table` rather than a :class:`~spades_core.views.View`
so that the same policy code runs both on real views (one decision) and
inside the hard bot's play-outs (thousands of decisions on a mutable
table). Cards are ids (``suit * 13 + rank``), hands 52-bit masks, seats ints
0-3 (N, E, S, W).

A table keeps the public facts the policies read: the suits each seat has
shown out of, and the spades left that bids revealed (from the owner,
:func:`~spades_core.rules.knowledge.revealed_spades_left`). What counting
proves beyond them (exact voids, cards a seat must hold) is
:func:`~spades_core.sampling.knowledge_of`'s; the policies do not read it.
"""

from __future__ import annotations

from typing import Final, Self

from spades_core.engine.game import Phase
from spades_core.engine.views import View
from spades_core.rules.hooks import checked_phases
from spades_core.rules.knowledge import UNKNOWN, revealed_spades_left
from spades_core.rules.phase_turns import next_turn, table_of
from spades_core.rules.phases import HandPhase, Where
from spades_core.rules.tricks import SPADES
from spades_core.rules.variant import Variant
from spades_core.values.actions import Bid, Play
from spades_core.values.cards import FULL_DECK_MASK, SUIT_MASKS, ids_of_mask
from spades_core.values.options import NilTricks, Rules

__all__ = [
    "FULL",
    "NO_BID",
    "SPADE_MASK",
    "SUIT",
    "UNKNOWN",
    "Table",
    "after_bidding_phases",
    "nil_passes",
    "table_from_view",
]

FULL: Final = FULL_DECK_MASK
"""The 52-bit mask of the whole deck."""
NO_BID: Final = -1
"""A seat that has not bid yet."""
SPADE_MASK: Final = SUIT_MASKS[SPADES]
"""The 52-bit mask of the 13 spades."""
SUIT: Final = SUIT_MASKS
"""The 52-bit mask of each suit, by suit number."""


class Table:
    """The public state of a hand plus one seat's own cards, as ints.

    ``seat``/``hand``/``legal`` describe the seat deciding; everything else is
    public. Play-outs mutate a table in place; policies only read it.
    """

    __slots__ = (
        "bags",
        "bids",
        "broken",
        "hand",
        "leader",
        "legal",
        "legal_bids",
        "nil_counts",
        "nil_passes",
        "played",
        "rules",
        "scores",
        "seat",
        "spades_left",
        "trick",
        "tricks_done",
        "voids",
        "won",
    )

    def __new__(cls, *args: object) -> Self:
        # Written out so that ``Table.__new__(Table)`` makes a blank table for
        # copies in the compiled build too (mypyc's default ``__new__`` would
        # call ``__init__``).
        return object.__new__(cls)

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.nil_counts = rules.nil_tricks is NilTricks.COUNT_TOWARD_CONTRACT
        """Whether a Nil bidder's tricks count toward the partner's contract."""
        self.seat = 0
        self.hand = 0
        self.legal = 0
        """Legal plays as a mask (during play)."""
        self.legal_bids: tuple[int, ...] = ()
        """Legal bids (during bidding)."""
        self.trick: list[int] = []
        """Card ids of the trick in progress, in play order."""
        self.leader = 0
        self.bids: list[int] = [NO_BID] * 4
        self.won: list[int] = [0, 0, 0, 0]
        self.played = 0
        """Every card played this hand, the current trick included."""
        self.voids: list[int] = [0, 0, 0, 0]
        """Per seat, a 4-bit mask of the suits it has shown out of (the
        policies read these, not the voids counting proves:
        :func:`~spades_core.sampling.knowledge_of` has those)."""
        self.spades_left: list[int] = [UNKNOWN] * 4
        """Per seat, spades still held when public (Mirror/Whiz bids: the
        owner's :func:`~spades_core.rules.knowledge.revealed_spades_left`), else -1."""
        self.broken = False
        self.tricks_done = 0
        self.bags: tuple[int, int] = (0, 0)
        self.scores: tuple[int, int] = (0, 0)
        self.nil_passes = 0
        """How many cards a Nil bidder of this seat's team passes to its
        partner (and gets back) after the bidding: a variant's exchange."""

    # -- derived facts -------------------------------------------------------------

    def unseen(self) -> int:
        """Cards in other seats' hands (not played, not the seat's own)."""
        return FULL & ~self.played & ~self.hand

    def counted(self, seat: int) -> int:
        """Tricks of ``seat``'s team that count toward its contract."""
        bids = self.bids
        won = self.won
        partner = seat ^ 2
        if self.nil_counts:
            return won[seat] + won[partner]
        return (won[seat] if bids[seat] else 0) + (won[partner] if bids[partner] else 0)

    def contract(self, seat: int) -> int:
        """The contract of ``seat``'s team (Nil counts 0)."""
        mine = self.bids[seat]
        partners = self.bids[seat ^ 2]
        return (mine if mine > 0 else 0) + (partners if partners > 0 else 0)

    def need(self, seat: int) -> int:
        """Tricks ``seat``'s team still needs for its contract (≤ 0: made)."""
        return self.contract(seat) - self.counted(seat)

    def nil_alive(self, seat: int) -> bool:
        """Whether ``seat`` bid Nil and has not taken a trick yet."""
        return self.bids[seat] == 0 and self.won[seat] == 0

    def remaining(self) -> int:
        """Tricks not yet completed, the one in progress included."""
        return 13 - self.tricks_done

    def copy(self) -> Table:
        """An independent copy (lists copied)."""
        other = Table.__new__(Table)
        self.copy_into(other)
        return other

    def copy_into(self, other: Table) -> None:
        """Give ``other`` this table's state, with lists copied (for subclasses
        that add fields of their own)."""
        other.rules = self.rules
        other.nil_counts = self.nil_counts
        other.seat = self.seat
        other.hand = self.hand
        other.legal = self.legal
        other.legal_bids = self.legal_bids
        other.trick = list(self.trick)
        other.leader = self.leader
        other.bids = list(self.bids)
        other.won = list(self.won)
        other.played = self.played
        other.voids = list(self.voids)
        other.spades_left = list(self.spades_left)
        other.broken = self.broken
        other.tricks_done = self.tricks_done
        other.bags = self.bags
        other.scores = self.scores
        other.nil_passes = self.nil_passes


def table_from_view(view: View) -> Table:
    """The :class:`Table` of the seat of ``view`` (which must be in a hand)."""
    table = Table(view.rules)
    seat = view.seat
    table.seat = 0 if seat is None else int(seat)
    table.hand = view.hand().mask
    table.bids = [NO_BID if b is None else b for b in view.bids.values_]
    table.won = list(view.tricks_won.values_)
    table.bags = (view.bags.values_[0], view.bags.values_[1])
    table.scores = (view.scores.values_[0], view.scores.values_[1])
    table.broken = view.spades_broken
    table.tricks_done = len(view.tricks)
    if view.phase is Phase.BID:
        table.legal_bids = tuple(a.value for a in view.legal_actions() if type(a) is Bid)
    legal = 0
    if view.phase is Phase.PLAY:
        for action in view.legal_actions():
            if type(action) is Play:
                legal |= 1 << action.card.id
    table.legal = legal
    played_by = [0, 0, 0, 0]
    for trick in view.tricks:
        leader = int(trick.leader)
        for position, card in enumerate(trick.cards):
            played_by[(leader + position) % 4] |= 1 << card.id
    trick_cards = []
    for who, card in view.current_trick:
        trick_cards.append(card.id)
        played_by[who] |= 1 << card.id
    table.trick = trick_cards
    table.leader = int(view.leader) if view.leader is not None else 0
    table.played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
    table.voids = [sum(1 << suit for suit in suits) for suits in view.shown_out.values_]
    counts = [UNKNOWN if count is None else count for count in view.spade_counts.values_]
    table.spades_left = list(revealed_spades_left(counts, played_by))
    if view.phase is Phase.BID:
        table.nil_passes = nil_passes(view)
    return table


def after_bidding_phases(view: View) -> tuple[HandPhase, ...]:
    """The variant's phases after the bidding (a card exchange), in order."""
    variant = view.variant
    if type(variant).phases is Variant.phases:
        return ()
    return tuple(
        phase for phase in checked_phases(variant, view.rules) if phase.where is Where.AFTER_BIDDING
    )


def nil_passes(view: View) -> int:
    """How many cards the view's seat would pass after bidding Nil: the
    count of the first turn the variant's phases after the bidding give it,
    asked on a made-up deal where it bid Nil and the others 3 (0: none)."""
    phases = after_bidding_phases(view)
    seat = view.seat
    if not phases or seat is None:
        return 0
    own = view.hand().mask
    rest = ids_of_mask(FULL & ~own)
    held = [0, 0, 0, 0]
    held[seat] = own
    others = [number for number in range(4) if number != seat]
    for index, card in enumerate(rest):
        held[others[index * 3 // len(rest)]] |= 1 << card
    bids: list[int | None] = [3, 3, 3, 3]
    bids[seat] = 0
    table = table_of(
        view.hand_number,
        int(view.dealer),
        (view.scores.values_[0], view.scores.values_[1]),
        tuple(held),
        tuple(bids),
        view.phase_steps,
    )
    found = next_turn(phases, view.rules, view.variant.id, table, Where.AFTER_BIDDING)
    if found is None or found[1].seat is not seat or found[1].receiver is None:
        return 0
    return found[1].count
