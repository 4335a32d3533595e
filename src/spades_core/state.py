"""Immutable game state: :class:`Game`, its :class:`Phase`, tricks and hand results.

A :class:`Game` is a frozen value. Every transition (:meth:`Game.deal`,
:meth:`Game.bid`, :meth:`Game.play`, :meth:`Game.apply`) returns a new game
and leaves the old one untouched; a rejected action raises
:class:`~spades_core.IllegalActionError` and changes nothing.

Internally hands are 52-bit masks and seats are ints (fields starting with
``_``); the public properties wrap them in :class:`~spades_core.CardSet`,
:class:`~spades_core.Seat` and read-only mappings.

>>> import spades_core as sc
>>> game = sc.new_game("classic", seed=7, dealer=sc.Seat.WEST)
>>> game.phase
<Phase.DEAL: 'deal'>
>>> game = game.deal()
>>> game.phase, game.to_act
(<Phase.BID: 'bid'>, <Seat.NORTH: 0>)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, final

import attrs

from spades_core import _check
from spades_core.actions import Action, Bid, Play, action_of
from spades_core.cards import ALL_CARDS, Card, CardSet
from spades_core.errors import IllegalActionError
from spades_core.options import Rules
from spades_core.seats import Seat, SeatMap, Team, TeamMap

if TYPE_CHECKING:
    from spades_core.variant import Variant
    from spades_core.views import View

__all__ = ["Game", "GameSetup", "HandResult", "Phase", "Trick"]

SEATS: Final = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
TEAMS: Final = (Team.NS, Team.EW)
NO_SEAT: Final = -1
"""``Game._to_act`` when no seat is to act (dealing, game over)."""


class Phase(enum.Enum):
    """Where a game is: ``DEAL`` → ``BID`` → ``PLAY`` → (scored) → ``DEAL`` … ``GAME_OVER``."""

    @classmethod
    def _missing_(cls, value: object) -> Phase:
        raise _check.not_a_member(cls, value)

    DEAL = "deal"
    """Waiting for the next hand to be dealt."""
    BID = "bid"
    """Players bid in turn, starting left of the dealer."""
    PLAY = "play"
    """Thirteen tricks are played; the hand is scored after the last one."""
    GAME_OVER = "game_over"
    """A team has won; no action is legal."""


@final
@attrs.frozen
class Trick:
    """A completed trick: who led, the four cards in play order, who won."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """``(seat, card)`` pairs in play order."""
        return tuple((SEATS[(self.leader + i) % 4], card) for i, card in enumerate(self.cards))


@final
@attrs.frozen(repr=False)
class HandResult:
    """A finished, scored hand.

    ``points`` is this hand's change per team, ``bags`` and ``scores`` the
    running totals after it. The engine builds results; do not call the
    constructor. Fields starting with ``_`` are its compact representation
    (masks, ints, the 52 card ids in play order) and may change between
    releases; the public properties wrap them, and :attr:`played` builds its
    :class:`Trick` records on first use, so simulations that never read them
    never pay for them.
    """

    _number: int
    _dealer: int
    _dealt: tuple[int, ...]
    _bids: tuple[int, ...]
    _won: tuple[int, ...]
    _points: tuple[int, int]
    _bags: tuple[int, int]
    _scores: tuple[int, int]
    _first_leader: int
    _plays: tuple[int, ...]
    _played: tuple[Trick, ...] | None = attrs.field(default=None, eq=False, repr=False, hash=False)

    @property
    def number(self) -> int:
        """0-based index of the hand in the game."""
        return self._number

    @property
    def dealer(self) -> Seat:
        """The seat that dealt the hand."""
        return SEATS[self._dealer]

    @property
    def deal(self) -> SeatMap[CardSet]:
        """The 13 cards each seat was dealt."""
        return SeatMap(tuple(map(CardSet, self._dealt)))

    @property
    def bids(self) -> SeatMap[int]:
        """Each seat's bid; 0 is Nil."""
        return SeatMap(self._bids)

    @property
    def tricks(self) -> SeatMap[int]:
        """Tricks each seat won."""
        return SeatMap(self._won)

    @property
    def points(self) -> TeamMap[int]:
        """What the hand scored per team."""
        return TeamMap(self._points)

    @property
    def bags(self) -> TeamMap[int]:
        """Bags carried per team after the hand."""
        return TeamMap(self._bags)

    @property
    def scores(self) -> TeamMap[int]:
        """Running score per team after the hand."""
        return TeamMap(self._scores)

    @property
    def played(self) -> tuple[Trick, ...]:
        """The 13 tricks in order."""
        played = self._played
        if played is None:
            played = _transitions.tricks_of_plays(self._first_leader, self._plays)
            _store_played(self, played)
        return played

    def summary(self) -> dict[str, Any]:
        """The result as plain JSON-ready data: dealer, bids, tricks, points,
        scores and bags, keyed by seat letter or team name."""
        return {
            "dealer": self.dealer.letter,
            "bids": {seat.letter: bid for seat, bid in self.bids.items()},
            "tricks": {seat.letter: won for seat, won in self.tricks.items()},
            "points": {team.name: points for team, points in self.points.items()},
            "scores": {team.name: score for team, score in self.scores.items()},
            "bags": {team.name: bags for team, bags in self.bags.items()},
        }

    @property
    def bidding_order(self) -> tuple[Seat, ...]:
        """The seats in the order they bid (left of the dealer first)."""
        return tuple(SEATS[(self._dealer + 1 + i) % 4] for i in range(4))

    def __repr__(self) -> str:
        return (
            f"<HandResult {self._number + 1}: dealer {SEATS[self._dealer].name}, "
            f"bids {self._bids}, tricks {self._won}, points {self._points}, "
            f"scores {self._scores}>"
        )


@final
@attrs.frozen
class GameSetup:
    """What stays fixed for a whole game: variant, rules, seed, first dealer."""

    variant: Variant
    rules: Rules
    seed: int
    first_dealer: Seat


@final
@attrs.frozen(repr=False)
class Game:
    """One game of Spades, from the first deal to the end, as an immutable value.

    Create games with :func:`spades_core.new_game`; do not call the
    constructor. Fields starting with ``_`` are the engine's representation
    and may change between releases.
    """

    _setup: GameSetup
    _phase: Phase
    _dealer: Seat
    _scores: tuple[int, int]
    _bags: tuple[int, int]
    _results: tuple[HandResult, ...]
    _winner: Team | None
    _dealt: tuple[int, ...]
    _held: tuple[int, ...]
    _bids: tuple[int | None, ...]
    _to_act: int
    _leader: int
    _trick: tuple[int, ...]
    _won: tuple[int, ...]
    _tricks: tuple[Trick, ...]
    _broken: bool
    _legal: tuple[Action, ...] | None = attrs.field(default=None, eq=False, repr=False, hash=False)

    # -- what everyone can see ------------------------------------------------

    @property
    def variant(self) -> Variant:
        """The variant being played."""
        return self._setup.variant

    @property
    def rules(self) -> Rules:
        """The resolved options."""
        return self._setup.rules

    @property
    def seed(self) -> int:
        """The seed the game's deals and first dealer come from."""
        return self._setup.seed

    @property
    def first_dealer(self) -> Seat:
        """The dealer of the first hand."""
        return self._setup.first_dealer

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._phase is Phase.GAME_OVER

    @property
    def dealer(self) -> Seat:
        """The dealer of the current hand (in ``DEAL``: of the hand about to be dealt)."""
        return self._dealer

    @property
    def to_act(self) -> Seat | None:
        """The seat to bid or play, or ``None`` while dealing and after the game."""
        return SEATS[self._to_act] if self._to_act >= 0 else None

    @property
    def hand_number(self) -> int:
        """0-based index of the current hand (in ``DEAL``: of the next hand)."""
        return len(self._results)

    @property
    def scores(self) -> TeamMap[int]:
        """Running score per team."""
        return TeamMap(self._scores)

    @property
    def bags(self) -> TeamMap[int]:
        """Bags carried per team."""
        return TeamMap(self._bags)

    @property
    def hand_results(self) -> tuple[HandResult, ...]:
        """Every finished hand, in order."""
        return self._results

    @property
    def winner(self) -> Team | None:
        """The winning team once the game is over."""
        return self._winner

    @property
    def bids(self) -> Mapping[Seat, int]:
        """The bids made so far this hand (0 is Nil)."""
        return MappingProxyType(
            {SEATS[i]: bid for i, bid in enumerate(self._bids) if bid is not None}
        )

    @property
    def tricks_won(self) -> SeatMap[int]:
        """Tricks each seat has won this hand."""
        return SeatMap(self._won)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The tricks completed this hand."""
        return self._tricks

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        """``(seat, card)`` for each card played to the trick in progress."""
        return tuple(
            (SEATS[(self._leader + i) % 4], ALL_CARDS[card]) for i, card in enumerate(self._trick)
        )

    @property
    def leader(self) -> Seat | None:
        """The seat that led (or is to lead) the current trick, during play."""
        return SEATS[self._leader] if self._phase is Phase.PLAY else None

    @property
    def spades_broken(self) -> bool:
        """Whether spades may be led (ignoring the only-spades exception)."""
        return self._broken

    def hand(self, seat: Seat | str) -> CardSet:
        """The cards ``seat`` holds now. Hidden information: give players views."""
        return CardSet(self._held[_check.seat(seat, "Game.hand")])

    def dealt_hand(self, seat: Seat | str) -> CardSet:
        """The 13 cards ``seat`` was dealt this hand."""
        return CardSet(self._dealt[_check.seat(seat, "Game.dealt_hand")])

    def __repr__(self) -> str:
        where = f"hand {self.hand_number + 1}, {self._phase.name}"
        if self._to_act >= 0:
            where += f", {SEATS[self._to_act].name} to act"
        return f"<Game {self.variant.id} {where}; NS {self._scores[0]}, EW {self._scores[1]}" + (
            f"; {self._winner.name} won>" if self._winner is not None else ">"
        )

    # -- legal actions -----------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the seat to act may take (in ``DEAL``: dealing from the seed;
        empty only when the game is over)."""
        legal = self._legal
        if legal is None:
            legal = _transitions.legal_actions(self)
            _store_legal(self, legal)
        return legal

    def legal_bids(self) -> tuple[int, ...]:
        """The bids open to the seat to act (empty outside bidding)."""
        if self._phase is not Phase.BID:
            return ()
        return tuple(action.value for action in self.legal_actions())  # type: ignore[union-attr]

    def legal_plays(self) -> CardSet:
        """The cards the seat to act may play (empty outside play)."""
        if self._phase is not Phase.PLAY:
            return CardSet(0)
        return CardSet(_transitions.legal_play_mask(self))

    def legal_mask(self) -> tuple[bool, ...]:
        """66 booleans, ``True`` at each legal action id (see :mod:`spades_core.encoding`)."""
        from spades_core.encoding import legal_mask

        return legal_mask(self)

    def why_illegal(
        self, action: object, *, seat: Seat | str | None = None
    ) -> IllegalActionError | None:
        """The error :meth:`apply` would raise for ``action``, or ``None`` if it is legal."""
        try:
            _transitions.check(self, action_of(action), seat)
        except IllegalActionError as error:
            return error
        return None

    # -- transitions -------------------------------------------------------------

    def apply(self, action: Action | str, *, seat: Seat | str | None = None) -> Game:
        """The game after the seat to act takes ``action`` (an action, or its
        notation as :func:`~spades_core.actions.action_of` reads it: ``"QH"``, ``"nil"``).

        With ``seat``, also checks that it is that seat's turn. Raises
        :class:`~spades_core.IllegalActionError` for anything not legal.
        """
        if type(action) is str:
            action = action_of(action)
        return _transitions.apply(self, action, seat)

    def deal(self, hands: Mapping[Seat, object] | Mapping[str, object] | None = None) -> Game:
        """The game with the next hand dealt: from the seed, or the explicit
        ``hands`` (a mapping from each seat to its 13 cards)."""
        return _transitions.deal(self, hands)

    def bid(self, value: int | str, *, seat: Seat | str | None = None) -> Game:
        """The game after the seat to act bids ``value`` (0 or ``"nil"`` is Nil, ``"3"``)."""
        kind = type(value)
        return _transitions.apply(
            self, Bid.of(value) if kind is int or kind is str else value, seat
        )

    def play(self, card: Card | str, *, seat: Seat | str | None = None) -> Game:
        """The game after the seat to act plays ``card`` (a Card or ``"QH"``)."""
        return _transitions.apply(self, Play.of(card), seat)

    def view(self, seat: Seat | str) -> View:
        """What ``seat`` may see of the game (see :mod:`spades_core.views`)."""
        from spades_core.views import view_for

        return view_for(self, _check.seat(seat, "Game.view"))

    def public_view(self) -> View:
        """What a spectator may see of the game."""
        from spades_core.views import view_for

        return view_for(self, None)


# The cache slots are written past the frozen __setattr__ (they are not part of the value).
_store_legal: Callable[[Game, tuple[Action, ...]], None] = vars(Game)["_legal"].__set__
_store_played: Callable[[HandResult, tuple[Trick, ...]], None] = vars(HandResult)["_played"].__set__

# Imported last: transitions builds Game objects, so it imports this module.
from spades_core import transitions as _transitions  # noqa: E402
