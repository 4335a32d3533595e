"""Checks of the arguments public calls receive.

A public call checks what it is given before it uses it, so that bad input
of any type raises a :class:`~spades_core.SpadesError` naming the argument
instead of an ``AttributeError`` or ``TypeError`` from deep inside. The
checks live here so that every call words them the same way.
"""

from __future__ import annotations

import enum
import random
from typing import TypeVar

from spades_core.errors import ArgumentTypeError, InvalidNotationError, brief
from spades_core.seats import Seat

__all__ = ["described", "instance", "not_a_member", "random_generator", "seat", "whole_number"]

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


def not_a_member(enum_class: type[enum.Enum], value: object) -> InvalidNotationError:
    """The error for ``EnumClass(value)`` when no member has that value (an
    enum's ``_missing_`` raises it, so the lookup fails with a SpadesError)."""
    members = ", ".join(repr(member.value) for member in enum_class)
    return InvalidNotationError(
        f"not a {enum_class.__name__}: {brief(value)}; the values are {members}"
    )


def random_generator(value: object, call: str, name: str = "rng") -> random.Random:
    """``value`` if it is a :class:`random.Random` (or a subclass)."""
    return instance(value, random.Random, call, name, "a random.Random")


def whole_number(value: object, call: str, name: str) -> int:
    """``value`` if it is an int (a bool is not a number here)."""
    if type(value) is int:
        return value
    raise ArgumentTypeError(f"{call}: {name} must be a whole number; got {described(value)}")


def seat(value: object, call: str, name: str = "seat") -> Seat:
    """The seat an argument names: a :class:`Seat`, or what :meth:`Seat.parse`
    reads (``"S"``, ``"south"``). Every public call that takes a seat reads it
    here; anything else (a number, a bool, a :class:`Team`…) raises
    :class:`InvalidNotationError` naming the argument."""
    if isinstance(value, Seat):
        return value
    try:
        return Seat.parse(value)  # type: ignore[arg-type]
    except InvalidNotationError as error:
        raise InvalidNotationError(f"{call}: {name}: {error}") from None
