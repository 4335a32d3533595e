"""Finished play: :class:`Trick` records, :class:`HandResult` and a game's
:class:`HandResults` history.

A game's history grows by one result per hand. :class:`HandResults` is a
read-only sequence that reads, compares, hashes and pickles like the tuple of
its results, but adding a hand shares the results already there instead of
copying them: a game of 60,000 hands costs the same per hand as one of 10.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, Final, SupportsIndex, final, overload

import attrs

from spades_core.rules.phases import PhaseStep
from spades_core.rules.tricks import LEFT_OF, trick_winner
from spades_core.values.cards import ALL_CARDS, Card, CardSet
from spades_core.values.seats import Seat, SeatMap, TeamMap

__all__ = [
    "SEATS",
    "HandResult",
    "HandResults",
    "Trick",
    "card_ids",
    "make_trick",
    "tricks_of_plays",
]

SEATS: Final = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
"""The seats by number: ``SEATS[0]`` is North."""


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
    _steps: tuple[PhaseStep, ...] = ()

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
    def steps(self) -> tuple[PhaseStep, ...]:
        """The actions taken in the variant's phases (Blind Nil, passes), in
        order; empty for a variant without phases."""
        return self._steps

    @functools.cached_property
    def played(self) -> tuple[Trick, ...]:
        """The 13 tricks in order."""
        return tricks_of_plays(self._first_leader, self._plays)

    def summary(self) -> dict[str, Any]:
        """The result as plain JSON-ready data: dealer, bids, tricks, points,
        scores and bags, keyed by seat letter or team name (and, for a hand
        with a variant's phases, its ``steps`` as ``[seat, action, receiver]``)."""
        summary: dict[str, Any] = {
            "dealer": self.dealer.letter,
            "bids": {seat.letter: bid for seat, bid in self.bids.items()},
            "tricks": {seat.letter: won for seat, won in self.tricks.items()},
            "points": {team.name: points for team, points in self.points.items()},
            "scores": {team.name: score for team, score in self.scores.items()},
            "bags": {team.name: bags for team, bags in self.bags.items()},
        }
        if self._steps:
            summary["steps"] = [
                [
                    step.seat.letter,
                    str(step.action),
                    None if step.receiver is None else step.receiver.letter,
                ]
                for step in self._steps
            ]
        return summary

    @property
    def bidding_order(self) -> tuple[Seat, ...]:
        """The seats in the order they bid (left of the dealer first)."""
        first = LEFT_OF[self._dealer]
        return tuple(SEATS[(first + i) % 4] for i in range(4))

    def __repr__(self) -> str:
        return (
            f"<HandResult {self._number + 1}: dealer {SEATS[self._dealer].name}, "
            f"bids {self._bids}, tricks {self._won}, points {self._points}, "
            f"scores {self._scores}>"
        )


@final
class HandResults(Sequence[HandResult]):
    """A game's finished hands, in order: a read-only sequence equal to (and
    hashing like) the tuple of its results.

    :meth:`appended` makes the history one hand longer in O(1) amortized
    time: the new history shares the old one's storage, which the old one
    never reads past its own length, so both stay unchanged. Only adding to
    a history that has been added to already (a game continued two ways
    from the end of a hand) copies it.

    >>> history = HandResults()
    >>> len(history), history == ()
    (0, True)
    """

    __slots__ = ("_items", "_length")

    def __init__(self, results: Iterable[HandResult] = ()) -> None:
        items = list(results)
        self._items: list[HandResult] = items
        self._length: int = len(items)

    def appended(self, result: HandResult) -> HandResults:
        """This history with ``result`` added at the end; this one is unchanged."""
        items = self._items
        length = self._length
        if len(items) == length:
            items.append(result)
            # Another history of this length may have added its own result
            # between the check and the append: then slot ``length`` is not ours.
            if items[length] is result:
                return _history(items, length + 1)
        items = items[:length]
        items.append(result)
        return _history(items, length + 1)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: SupportsIndex) -> HandResult: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[HandResult, ...]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> HandResult | tuple[HandResult, ...]:
        if isinstance(index, slice):
            return tuple(self._items[: self._length])[index]
        position = index.__index__()
        if position < 0:
            position += self._length
        if not 0 <= position < self._length:
            raise IndexError(f"hand {index} of {self._length} finished hands")
        return self._items[position]

    def __iter__(self) -> Iterator[HandResult]:
        return islice(self._items, self._length)

    def __reversed__(self) -> Iterator[HandResult]:
        return reversed(self._items[: self._length])

    def _as_list(self) -> list[HandResult]:
        return self._items[: self._length]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HandResults):
            if self._length != other._length:
                return False
            return self._items is other._items or self._as_list() == other._as_list()
        if isinstance(other, tuple):
            return tuple(self._as_list()) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._as_list()))

    def __repr__(self) -> str:
        return f"HandResults({self._as_list()!r})"

    def __reduce__(self) -> tuple[Callable[..., HandResults], tuple[tuple[HandResult, ...]]]:
        return HandResults, (tuple(self._as_list()),)


def _history(items: list[HandResult], length: int) -> HandResults:
    # A history sharing ``items``, of which it reads the first ``length``.
    history: HandResults = object.__new__(HandResults)
    history._items = items
    history._length = length
    return history


def make_trick(leader: int, cards: Sequence[int], winner: int) -> Trick:
    """The :class:`Trick` record of four card ids led by seat number ``leader``."""
    return Trick(
        SEATS[leader],
        (ALL_CARDS[cards[0]], ALL_CARDS[cards[1]], ALL_CARDS[cards[2]], ALL_CARDS[cards[3]]),
        SEATS[winner],
    )


def tricks_of_plays(first_leader: int, plays: Sequence[int]) -> tuple[Trick, ...]:
    """The :class:`Trick` records of card ids in play order (four per trick),
    the first trick led by seat number ``first_leader``."""
    tricks = []
    leader = first_leader
    for start in range(0, len(plays) - 3, 4):
        cards = tuple(plays[start : start + 4])
        winner = (leader + trick_winner(cards)) % 4
        tricks.append(make_trick(leader, cards, winner))
        leader = winner
    return tuple(tricks)


def card_ids(tricks: Sequence[Trick]) -> tuple[int, ...]:
    """The card ids of ``tricks`` in play order."""
    # A list made whole, then copied: sooner than a tuple fed by a generator,
    # which resumes once per card (every hand's end asks this for 52 cards).
    return tuple([card.id for trick in tricks for card in trick.cards])
