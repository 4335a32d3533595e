"""What a game keeps beyond the hand in progress: :class:`GameSetup`, fixed
for the whole game, and :class:`Standing`, carried from hand to hand.

Both are parts of a :class:`~spades_core.Game` (``spades_core.engine.game``
re-exports them); a game's transitions share one :class:`Standing` between
the games of a hand.
"""

from __future__ import annotations

from typing import final

import attrs

from spades_core.rules import phase_turns
from spades_core.rules.phases import HandPhase, PhaseStep, PhaseTable, Turn, Where
from spades_core.rules.results import HandResults
from spades_core.rules.variant import Variant
from spades_core.values.options import Rules
from spades_core.values.phase import Phase
from spades_core.values.seats import Seat, Team

__all__ = ["GameSetup", "Standing"]


@final
@attrs.frozen
class GameSetup:
    """What stays fixed for a whole game: variant, rules, seed, first dealer,
    and the phases the variant adds to each hand (none for most variants)."""

    variant: Variant
    rules: Rules
    seed: int
    first_dealer: Seat
    phases: tuple[HandPhase, ...] = ()


@final
@attrs.frozen
class Standing:
    """What a game keeps from one hand to the next: the setup, the dealer of
    the hand in progress (or of the next), the running scores and bags, the
    finished hands and the winner; also the steps taken in the variant's
    phases this hand. Every game within a hand's bidding and play shares one,
    so a transition copies one field for all seven."""

    setup: GameSetup
    dealer: Seat
    scores: tuple[int, int]
    bags: tuple[int, int]
    results: HandResults
    winner: Team | None
    steps: tuple[PhaseStep, ...] = ()

    # -- the variant's phases, asked with the hand's cards and bids by seat number

    def phase_table(self, held: tuple[int, ...], bids: tuple[int | None, ...]) -> PhaseTable:
        """What the variant's phases read of the hand in progress."""
        number, dealer = len(self.results), self.dealer
        return phase_turns.table_of(number, dealer, self.scores, held, bids, self.steps)

    def next_turn(
        self, held: tuple[int, ...], bids: tuple[int | None, ...], where: Where
    ) -> tuple[HandPhase, Turn] | None:
        """The variant's phase at ``where`` with a turn to take, and the turn."""
        setup = self.setup
        table = self.phase_table(held, bids)
        return phase_turns.next_turn(setup.phases, setup.rules, setup.variant.id, table, where)

    def position(
        self, held: tuple[int, ...], bids: tuple[int | None, ...], where: Where, bid_by: int
    ) -> tuple[Phase, int]:
        """The phase and seat number to act where the hand goes on at
        ``where`` (after seat number ``bid_by`` bid, when not -1), by
        :func:`~spades_core.rules.phase_turns.next_position`."""
        setup = self.setup
        table = self.phase_table(held, bids)
        return phase_turns.next_position(
            setup.phases, setup.rules, setup.variant.id, table, where, bid_by
        )

    def hidden(
        self, phase: HandPhase, held: tuple[int, ...], bids: tuple[int | None, ...]
    ) -> frozenset[Seat]:
        """The seats whose own cards ``phase``, in progress, hides from them."""
        table = self.phase_table(held, bids)
        return phase_turns.hidden_seats(phase, self.setup.rules, table, self.setup.variant.id)
