"""Checks of the arguments public calls receive.

A public call checks what it is given before it uses it, so that bad input
of any type raises a :class:`~spades_core.SpadesError` naming the argument
instead of an ``AttributeError`` or ``TypeError`` from deep inside. The
checks live here so that every call words them the same way.
"""

from __future__ import annotations

import random
from typing import TypeVar

from spades_core.errors import ArgumentTypeError, InvalidNotationError, brief
from spades_core.seats import Seat

__all__ = ["described", "instance", "random_generator", "seat", "whole_number"]

T = TypeVar("T")

_SHOWN_AS_VALUES = (type(None), bool, int, float, str, bytes)


def described(value: object) -> str:
    """``value`` as a message shows it: plain values briefly, other objects by type."""
    if isinstance(value, _SHOWN_AS_VALUES):
        return brief(value)
    return f"a {type(value).__name__}"


def instance(value: object, expected: type[T], call: str, name: str, what: str) -> T:
    """``value`` if it is an instance of ``expected``; otherwise an
    :class:`ArgumentTypeError` saying that argument ``name`` of ``call`` must
    be ``what``."""
    if isinstance(value, expected):
        return value
    raise ArgumentTypeError(f"{call}: {name} must be {what}; got {described(value)}")


def random_generator(value: object, call: str, name: str = "rng") -> random.Random:
    """``value`` if it is a :class:`random.Random` (or a subclass)."""
    return instance(value, random.Random, call, name, "a random.Random")


def whole_number(value: object, call: str, name: str) -> int:
    """``value`` if it is an int (a bool is not a number here)."""
    if type(value) is int:
        return value
    raise ArgumentTypeError(f"{call}: {name} must be a whole number; got {described(value)}")


def seat(value: object, call: str, name: str = "seat") -> Seat:
    """The seat an argument names: a :class:`Seat`, its number 0-3 (an int,
    never a bool or a float), or what :meth:`Seat.parse` reads (``"S"``,
    ``"south"``). Every public call that takes a seat reads it here; anything
    else raises :class:`InvalidNotationError` naming the argument."""
    if isinstance(value, Seat):
        return value
    if type(value) is int and 0 <= value < 4:
        return _SEATS[value]
    try:
        return Seat.parse(value)  # type: ignore[arg-type]
    except InvalidNotationError as error:
        raise InvalidNotationError(f"{call}: {name}: {error}; or a seat number 0-3") from None


_SEATS = tuple(Seat)
