"""The metaclass of the library's enums: looking a member up by any value
raises the enum's own error, never another exception.

Python's lookup ``Seat(value)`` compares ``value`` with each member when it
cannot hash it, so an unhashable value whose comparison misbehaves (a numpy
array answers ``==`` with an array, whose truth is an error) escapes as a
``ValueError`` before the enum's ``_missing_`` is asked; and a value whose
``repr`` fails (an int of more than 4,300 digits) makes the lookup fail while
it words its own message. Every enum of spades-core defines ``_missing_`` to
raise its :class:`~spades_core.SpadesError`; with this metaclass that error is
what any failed lookup raises.
"""

from __future__ import annotations

import enum
from typing import Any, cast

__all__ = ["CheckedLookup"]


class CheckedLookup(enum.EnumType):
    """An enum's metaclass: a value no member has raises what the enum's
    ``_missing_`` raises, whatever the value (``_missing_`` must raise)."""

    def __call__(cls, value: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:  # the functional API, which makes a new enum
            return super().__call__(value, *args, **kwargs)
        try:
            return super().__call__(value)
        except Exception:  # _missing_ words the refusal, below
            pass
        cast("type[enum.Enum]", cls)._missing_(value)
        raise AssertionError(f"{cls.__name__}._missing_ must raise")  # pragma: no cover
