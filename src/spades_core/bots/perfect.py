"""The perfect-information reference player: the hard bot's search on the true hands.

:class:`PerfectInfoBot` (the player ``perfect-info``) decides exactly as the
hard bot does, candidates, play-outs by the normal policy, scoring and all,
except that every play-out is played on the cards the seats really hold
instead of on sampled deals. It measures how much the hard bot loses by not
knowing the hidden cards: the ceiling of any better reading of the bids and
plays.

It is for measurement only. It needs every seat's hand, which
:func:`spades_core.bots.ask` hands over to it (and only to it), so it plays
in :func:`spades_core.bots.play_game`, :func:`spades_core.simulate` and
:func:`spades_core.tournament`; asked with a view alone it refuses. Its
``for_human_tables`` is ``False``: a table where a person plays refuses to
seat it (:func:`spades_core.players.check_human_table`).

>>> import spades_core as sc
>>> game = sc.new_game("classic", seed=2)
>>> players = [PerfectInfoBot(seed=1), sc.bots.make("hard", seed=2, steps=500, bid_steps=500)] * 2
>>> sc.bots.play_game(game, players, hands=1).hand_number
1
"""

from __future__ import annotations

from typing import Final, NoReturn

from spades_core.bots import DEFAULT_BUDGET, Bot
from spades_core.bots._search import search_bid, search_play
from spades_core.bots.table import Table
from spades_core.bots.why import Why
from spades_core.engine.game import SEATS
from spades_core.engine.views import View
from spades_core.players import PlayerError
from spades_core.values.actions import Action
from spades_core.values.cards import CardSet
from spades_core.values.errors import ArgumentTypeError, InconsistentViewError
from spades_core.values.seats import SeatMap

__all__ = ["PERFECT_INFO", "PerfectInfoBot"]

PERFECT_INFO: Final = "perfect-info"
"""The player's name in the ``spades_core.players`` entry-point group."""


class PerfectInfoBot(Bot):
    """The hard bot's search given the true hands of every seat (see the module docs).

    Its play-outs are deterministic on known cards, so one per candidate
    decides; the search is otherwise the hard bot's at its default settings.
    """

    level = PERFECT_INFO
    _true_hands: tuple[int, int, int, int] | None = None
    """The hands of the decision in progress (set only while deciding)."""
    sees_all_hands: Final = True
    """It is handed every seat's hand (:class:`spades_core.bots.SeesAllHands`)."""
    for_human_tables: Final = False
    """Tables where a person plays refuse it."""

    def choose(self, view: View) -> NoReturn:
        """Refused with :class:`~spades_core.players.PlayerError`: this player
        needs every seat's hand (:meth:`choose_seeing`)."""
        _refuse_view()

    def decide(self, view: View) -> NoReturn:
        """Refused, as :meth:`choose`."""
        _refuse_view()

    def choose_seeing(self, view: View, hands: SeatMap[CardSet]) -> Action:
        """The hard bot's choice for ``view`` with its play-outs on ``hands``
        (the cards every seat holds now). Hands that the view contradicts
        raise :class:`~spades_core.InconsistentViewError`."""
        return self.decide_seeing(view, hands)[0]

    def decide_seeing(self, view: View, hands: SeatMap[CardSet]) -> tuple[Action, Why]:
        """:meth:`choose_seeing` with the idea behind the choice."""
        # A view that is no View is refused by Bot.decide in the bots' own words.
        self._true_hands = _held(view, hands) if isinstance(view, View) else None
        try:
            return Bot.decide(self, view)
        finally:
            self._true_hands = None

    def _bid(self, view: View, table: Table) -> tuple[int, Why]:
        return search_bid(view, table, self._rng, DEFAULT_BUDGET, self._true_hands)

    def _play(self, view: View, table: Table) -> tuple[int, Why]:
        return search_play(view, table, self._rng, DEFAULT_BUDGET, self._true_hands)


def _refuse_view() -> NoReturn:
    raise PlayerError(
        f"{PERFECT_INFO} sees every seat's cards and cannot choose from a view alone; "
        "seat it in play_game, simulate or tournament, which hand it the cards"
    )


def _held(view: View, hands: object) -> tuple[int, int, int, int]:
    """The hands as masks by seat number, checked against the view."""
    if not isinstance(hands, SeatMap) or not all(
        isinstance(hand, CardSet) for hand in hands.values_
    ):
        raise ArgumentTypeError(
            f"hands must be a SeatMap of CardSets (the cards each seat holds); "
            f"got {type(hands).__name__}"
        )
    masks = tuple(hand.mask for hand in hands.values_)
    seen = 0
    for seat, mask in zip(SEATS, masks, strict=True):
        if mask.bit_count() != view.cards_left[seat]:
            raise InconsistentViewError(
                f"{seat.name} holds {mask.bit_count()} cards by the hands given, "
                f"but {view.cards_left[seat]} by the view"
            )
        if seen & mask:
            raise InconsistentViewError(f"{CardSet(seen & mask)} is in two hands")
        seen |= mask
    if seen & view.played.mask:
        raise InconsistentViewError(f"{CardSet(seen & view.played.mask)} was played already")
    if view.seat is not None and masks[view.seat] != view.hand().mask:
        raise InconsistentViewError(
            f"the hands give {view.seat.name} {CardSet(masks[view.seat])}, but the view "
            f"shows {view.hand()}"
        )
    return (masks[0], masks[1], masks[2], masks[3])
