"""Reading cards, suits, ranks, seats and teams from what people type.

Each of those types reads its text the same way: an object of the type is
taken as it is, text is looked up with surrounding blanks removed and in
upper case, and anything else is refused with an
:class:`~spades_core.InvalidNotationError` worded ``not a <what>: <value>;
<advice>``. That reading lives here so that every notation behaves alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from spades_core.values.errors import InvalidNotationError, brief

__all__ = ["not_a", "read_notation"]

T = TypeVar("T")


def not_a(what: str, value: object, advice: str) -> InvalidNotationError:
    """The error for a ``value`` that is not a ``what`` (``"suit"``, ``"seat"``…),
    saying what to give instead."""
    return InvalidNotationError(f"not a {what}: {brief(value)}; {advice}")


def read_notation(
    kind: type[T], value: object, by_text: Mapping[str, T], what: str, advice: str
) -> T:
    """``value`` if it is a ``kind`` already (a type other than ``str``), else
    the object its text names in ``by_text`` (whose keys are upper case);
    :func:`not_a` otherwise."""
    # Text is the common case (records, the command line): looked at first.
    if isinstance(value, str):
        found = by_text.get(value.strip().upper())
        if found is not None:
            return found
    elif isinstance(value, kind):
        return value
    raise not_a(what, value, advice)
