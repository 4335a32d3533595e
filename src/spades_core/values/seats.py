"""Seats, partnerships and small immutable per-seat and per-team mappings.

>>> Seat.NORTH.next, Seat.NORTH.partner, Seat.EAST.team
(<Seat.EAST: 1>, <Seat.SOUTH: 2>, <Team.EW: 1>)
>>> print(Seat.WEST, "of", Seat.WEST.team, "is seat number", int(Seat.WEST))
West of EW is seat number 3
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar, final

import attrs

from spades_core.values.enums import CheckedLookup
from spades_core.values.notation import not_a, read_notation

__all__ = ["Seat", "SeatMap", "Team", "TeamMap"]


_NUMERIC_FORMATS = frozenset("bcdoxXn")


def _format_member(member: enum.IntEnum, spec: str) -> str:
    """``format(member, spec)``: its text, or its number for a numeric spec."""
    if spec and spec[-1] in _NUMERIC_FORMATS:
        return format(int(member), spec)
    return format(str(member), spec)


class Seat(enum.IntEnum, metaclass=CheckedLookup):
    """A seat at the table, numbered clockwise from North."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def next(self) -> Seat:
        """The seat to this seat's left (the next to act, clockwise)."""
        return _SEATS[(self + 1) % 4]

    @property
    def partner(self) -> Seat:
        """The seat opposite."""
        return _SEATS[(self + 2) % 4]

    @property
    def team(self) -> Team:
        """The partnership this seat belongs to."""
        return _TEAMS[self % 2]

    @property
    def letter(self) -> str:
        """``N``, ``E``, ``S`` or ``W``."""
        return "NESW"[self]

    def __str__(self) -> str:
        """The seat's name as people write it: ``North``, ``East``, ``South``, ``West``."""
        return _SEAT_NAMES[self]

    def __format__(self, spec: str) -> str:
        # f"{seat}" reads like str(seat); a numeric spec ("d", "02d") still formats the number.
        return _format_member(self, spec)

    @classmethod
    def _missing_(cls, value: object) -> Seat:
        # Seat(7) and the like are bad input to a public call: a SpadesError.
        raise not_a("seat", value, "seats are 0-3 (N, E, S, W)")

    @classmethod
    def parse(cls, text: Seat | str) -> Seat:
        """Read a seat from its letter or its name, in any case (``"S"``,
        ``"south"``, ``"SOUTH"``); a :class:`Seat` is returned as it is.

        Every public call that takes a seat reads it here: a number, a bool
        or a :class:`Team` is never taken for a seat.

        >>> Seat.parse("s"), Seat.parse(" North ")
        (<Seat.SOUTH: 2>, <Seat.NORTH: 0>)
        """
        return read_notation(
            Seat, text, _SEAT_BY_TEXT, "seat", "write N, E, S or W, or a seat name (south)"
        )


_SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_SEAT_NAMES = tuple(seat.name.title() for seat in _SEATS)
_SEAT_BY_TEXT = {text: seat for seat in _SEATS for text in (seat.letter, seat.name)}


class Team(enum.IntEnum, metaclass=CheckedLookup):
    """A partnership: North-South or East-West."""

    NS = 0
    EW = 1

    @classmethod
    def _missing_(cls, value: object) -> Team:
        raise not_a("team", value, "teams are 0 (NS) and 1 (EW)")

    def __str__(self) -> str:
        """The team's letters: ``NS`` or ``EW``."""
        return self.name

    def __format__(self, spec: str) -> str:
        return _format_member(self, spec)

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The two seats of the partnership."""
        return (_SEATS[self], _SEATS[self + 2])

    @property
    def opponent(self) -> Team:
        """The other partnership."""
        return _TEAMS[1 - self]

    @classmethod
    def parse(cls, text: Team | str) -> Team:
        """Read a team: ``"NS"`` or ``"EW"`` in any case; a :class:`Team` is returned as it is."""
        return read_notation(Team, text, _TEAM_BY_NAME, "team", "write NS or EW")


_TEAMS = (Team.NS, Team.EW)
_TEAM_BY_NAME = {team.name: team for team in _TEAMS}

K = TypeVar("K", Seat, Team)
V = TypeVar("V")


class _KeyedTuple(Mapping[K, V], Generic[K, V]):
    """Read-only mapping whose keys are all members of a small int enum."""

    __slots__ = ()
    values_: tuple[V, ...]
    _keys: tuple[K, ...]

    def __getitem__(self, key: K) -> V:
        if type(key) is not type(self._keys[0]):
            raise KeyError(key)
        return self.values_[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k.name}: {v!r}" for k, v in zip(self._keys, self.values_, strict=True))
        return f"{type(self).__name__}({{{inner}}})"


@final
@attrs.frozen(repr=False, eq=True)
class SeatMap(_KeyedTuple[Seat, V]):
    """An immutable mapping from every seat to a value (``values_`` in seat order)."""

    values_: tuple[V, ...]
    _keys = _SEATS


@final
@attrs.frozen(repr=False, eq=True)
class TeamMap(_KeyedTuple[Team, V]):
    """An immutable mapping from both teams to a value (``values_`` in team order)."""

    values_: tuple[V, ...]
    _keys = _TEAMS
