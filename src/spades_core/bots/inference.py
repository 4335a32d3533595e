"""What the other seats' plays say about their hands: inference for the hard bot.

A card played says something about the cards its player kept. A seat that
let an opponent's card win the trick had nothing to beat it with (or chose
not to); a seat that ducked under its partner's card had no card that was
sure to win; a Nil bidder that played the 7♥ under the 9♥ holds no 8♥. The
normal policy is a model of sensible play, so :class:`PlayReading` asks it,
for a sampled deal, what each other seat would have played at each of its
turns so far, holding the cards the deal gives it then; every play that
differs counts against the deal.

The reading is *soft*: a deal that does not explain a play is only less
likely to be kept (the hard bot keeps the best of a few deals it draws,
:class:`~spades_core.bots._search.BidReader`), never excluded, since a
player may play otherwise than the model for reasons of its own. The
certainties (shown-out suits, revealed spade counts, legal bids) are
:class:`~spades_core.sampling.HiddenCards`' hard constraints.

>>> import random
>>> import spades_core as sc
>>> from spades_core.bots.table import table_from_view
>>> game = sc.new_game("classic", seed=3).deal()
>>> players = [sc.bots.make("normal", seed=s) for s in range(4)]
>>> while len(game.tricks) < 4:
...     game = game.apply(players[game.to_act].choose(game.view(game.to_act)))
>>> view = game.view(game.to_act)
>>> reading = PlayReading(view, table_from_view(view))
>>> true_hands = tuple(game.hand(seat).mask for seat in sc.Seat)
>>> reading.misfit(true_hands)  # normal players' plays are what the model predicts
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from spades_core.bots._play import normal_play
from spades_core.bots.sim import Sim
from spades_core.bots.table import FULL, NO_BID, Table
from spades_core.engine.game import Phase
from spades_core.engine.views import View
from spades_core.rules.tricks import NO_SUIT, RANKS, legal_card_mask
from spades_core.values import checks
from spades_core.values.checks import described
from spades_core.values.errors import ArgumentTypeError

__all__ = ["PLAY_MISFIT", "PlayReading"]

PLAY_MISFIT: Final = 1.0
"""What one play a deal does not explain adds to the deal's misfit (the bid
reader's unit: about one trick of difference between a bid and a hand)."""


class _Turn:
    """One play of another seat: the table its player saw, and what it played."""

    __slots__ = ("card", "first_lead_two_of_clubs", "later", "led", "read", "seat", "table")

    def __init__(self, table: Table, seat: int, card: int, first_lead_two_of_clubs: bool) -> None:
        self.table = table
        self.seat = seat
        self.card = card
        trick = table.trick
        self.led = trick[0] // RANKS if trick else NO_SUIT
        self.first_lead_two_of_clubs = first_lead_two_of_clubs
        self.later = 0
        """The cards ``seat`` played from this turn on (this one included)."""
        self.read: dict[int, bool] = {}
        """Hands already read at this turn: whether the play fits each."""


class PlayReading:
    """The plays the seats hidden from ``view`` have made this hand, read
    against the normal policy. ``table`` is the view's
    (:func:`~spades_core.bots.table.table_from_view`).

    :meth:`misfit` scores a deal of the hidden cards (the hands as held now):
    :data:`PLAY_MISFIT` for each play of another seat that the normal policy,
    holding that deal's cards, would not have made. Cards that are equivalent
    for their holder (touching, with nothing between them still out) count as
    the same play. The score is finite for every deal, so no deal is ruled out.
    """

    __slots__ = ("_turns",)

    def __init__(self, view: View, table: Table) -> None:
        checks.instance(view, View, "PlayReading", "view", "a View (game.view(seat))")
        checks.instance(table, Table, "PlayReading", "table", "the view's Table")
        self._turns: tuple[_Turn, ...] = ()
        if view.phase is not Phase.PLAY or NO_BID in table.bids:
            return
        plays = [(int(seat), card.id) for trick in view.tricks for seat, card in trick.plays]
        plays += [(int(seat), card.id) for seat, card in view.current_trick]
        if not plays:
            return
        # The search's table, replayed from the start of the hand: the same
        # bookkeeping its play-outs use, so every turn sees what its player saw.
        start = table.copy()
        start.trick = []
        start.won = [0, 0, 0, 0]
        start.played = 0
        start.voids = [0, 0, 0, 0]
        counts = view.spade_counts.values_
        start.spades_left = [-1 if count is None else count for count in counts]
        start.broken = False
        start.tricks_done = 0
        start.seat = plays[0][0]
        replay = Sim(view, start, (FULL, FULL, FULL, FULL))
        replay.leader = plays[0][0]
        viewer = -1 if view.seat is None else int(view.seat)
        turns: list[_Turn] = []
        for seat, card in plays:
            if seat != viewer:
                snapshot = replay.copy()
                snapshot.seat = seat
                first = replay.two_of_clubs and replay.tricks_done == 0
                turns.append(_Turn(snapshot, seat, card, first))
            replay.play(card)
        later = [0, 0, 0, 0]
        for turn in reversed(turns):
            later[turn.seat] |= 1 << turn.card
            turn.later = later[turn.seat]
        self._turns = tuple(turns)

    @property
    def informative(self) -> bool:
        """Whether there is any play of another seat to read."""
        return bool(self._turns)

    def misfit(self, held: Sequence[int], bound: float = math.inf) -> float:
        """How badly the deal ``held`` (the four hands as held now, 52-bit
        masks by seat number) explains the other seats' plays; counting stops
        once it reaches ``bound``."""
        if (
            not isinstance(held, Sequence)
            or len(held) != 4
            or any(type(mask) is not int or not 0 <= mask < 1 << 52 for mask in held)
        ):
            raise ArgumentTypeError(
                f"PlayReading.misfit: held must be four 52-bit card masks; got {described(held)}"
            )
        if type(bound) not in (int, float):
            raise ArgumentTypeError(
                f"PlayReading.misfit: bound must be a number; got {described(bound)}"
            )
        return self.unchecked_misfit(held, bound)

    def unchecked_misfit(self, held: Sequence[int], bound: float = math.inf) -> float:
        """:meth:`misfit` without checking its arguments: the sampler asks it
        for every deal it draws."""
        total = 0.0
        for turn in self._turns:
            hand = held[turn.seat] | turn.later
            fits = turn.read.get(hand)
            if fits is None:
                fits = turn.read[hand] = _fits(turn, hand)
            if not fits:
                total += PLAY_MISFIT
                if total >= bound:
                    break
        return total


def _fits(turn: _Turn, hand: int) -> bool:
    """Whether the normal policy holding ``hand`` at ``turn`` plays its card
    (or one equivalent to it)."""
    table = turn.table
    legal = legal_card_mask(hand, turn.led, table.broken, turn.first_lead_two_of_clubs)
    if not legal & (legal - 1):
        return True
    table.hand = hand
    table.legal = legal
    expected = normal_play(table)[0]
    card = turn.card
    return expected == card or _equivalent(expected, card, hand | table.played)


def _equivalent(first: int, second: int, known: int) -> bool:
    """Whether two cards are of one suit with every card between them in
    ``known`` (held by the same player or already played)."""
    if first // RANKS != second // RANKS:
        return False
    low, high = (first, second) if first < second else (second, first)
    between = ((1 << high) - 1) & ~((2 << low) - 1)
    return between & ~known == 0
