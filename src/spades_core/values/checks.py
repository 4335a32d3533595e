"""Checks of the arguments public calls receive: the one place that decides
which error each kind of bad argument raises (``docs/design.md``, "The
public API", Errors).

A public call checks what it is given before it uses it, so that bad input
of any type raises a :class:`~spades_core.SpadesError` naming the call and
the argument instead of an ``AttributeError`` or ``TypeError`` from deep
inside. The kinds:

* a value of a type the argument does not take: :class:`ArgumentTypeError`
  (:func:`instance`, :func:`whole_number`, :func:`random_generator`; the
  engine's :mod:`~spades_core.engine.arguments` adds games and views);
* a value of the right type that the argument does not take (a seed or a
  count out of range): :class:`RulesError` (:func:`seed`, :func:`count`);
* a seat that cannot be read, of any type: :class:`InvalidNotationError`
  (:func:`seat`).
"""

from __future__ import annotations

import enum
import random
from typing import Final, TypeVar

from spades_core.values.errors import ArgumentTypeError, InvalidNotationError, RulesError, brief
from spades_core.values.seats import Seat

__all__ = [
    "MAX_SEED",
    "bid_value",
    "count",
    "described",
    "instance",
    "not_a_member",
    "random_generator",
    "seat",
    "seed",
    "whole_number",
]


T = TypeVar("T")

MAX_SEED: Final = (1 << 64) - 1
"""The largest seed: seeds are whole numbers from 0 to 2**64-1."""

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


def count(value: object, call: str, name: str, *, minimum: int = 0) -> int:
    """``value`` if it is a whole number of at least ``minimum``:
    :class:`ArgumentTypeError` for another type, :class:`RulesError` below it."""
    number = whole_number(value, call, name)
    if number < minimum:
        raise RulesError(f"{call}: {name} must be a whole number ≥ {minimum}; got {brief(value)}")
    return number


def bid_value(value: object, call: str, name: str = "bid") -> int:
    """``value`` if it is a whole number from 0 (Nil) to 13, as a bid is
    written: :class:`ArgumentTypeError` for another type, :class:`RulesError`
    outside that range."""
    number = whole_number(value, call, name)
    if not 0 <= number <= 13:
        raise RulesError(f"{call}: {name} must be a bid from 0 (Nil) to 13; got {brief(value)}")
    return number


def seed(value: object, call: str, name: str = "seed", *, maximum: int = MAX_SEED) -> int:
    """``value`` if it is a whole number from 0 to ``maximum`` (2**64-1 for
    the seeds that decide deals)."""
    number = whole_number(value, call, name)
    if not 0 <= number <= maximum:
        limit = f"2**{maximum.bit_length()}-1" if maximum & (maximum + 1) == 0 else str(maximum)
        raise RulesError(
            f"{call}: {name} must be a whole number from 0 to {limit}; got {brief(value)}"
        )
    return number


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
