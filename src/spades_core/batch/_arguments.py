"""Checks of the arrays that the public calls of :mod:`spades_core.batch` take.

A public call reads each array argument here before it computes, so that a
bad array of any kind raises a :class:`~spades_core.SpadesError` naming the
call and the argument, never numpy's own ``TypeError``, ``ValueError``,
``OverflowError`` or ``IndexError``:

* what is not an array of whole numbers (``None``, text, a ragged list,
  floats, NaN, booleans, objects, numbers past 64 bits):
  :class:`~spades_core.ArgumentTypeError`;
* an array of whole numbers of the wrong shape, or holding a value out of
  its range (a card mask past 52 bits, a bid of 14, a seat of 4):
  :class:`~spades_core.RulesError`, naming the first such entry.

The engine's own calls skip these checks: its arrays are its own.
"""

from __future__ import annotations

import warnings
from typing import Final, cast

import numpy as np
import numpy.typing as npt

from spades_core.values import checks
from spades_core.values.cards import Card
from spades_core.values.errors import ArgumentTypeError, RulesError, brief
from spades_core.values.options import Rules

from ._types import I8, I64, U64, Ints

__all__ = [
    "MASK_LIMIT",
    "MAX_BAGS",
    "MAX_SCORE",
    "bids",
    "card_masks",
    "described",
    "hands_scored",
    "in_range",
    "member_number",
    "rows",
    "rules",
    "scores",
    "seats",
    "whole_numbers",
]

MASK_LIMIT: Final = (1 << 52) - 1
"""The largest 52-bit card mask: every card."""
MAX_BAGS: Final = 1_000_000_000
"""The most bags a team may hold before a hand scored on arrays (so no sum overflows)."""
MAX_SCORE: Final = 1 << 62
"""The largest running score, either way, that arrays of scores may hold."""
_MASKS: Final = "52-bit card masks (whole numbers from 0 to 2**52-1)"


def described(value: object) -> str:
    """``value`` as a message shows it: an array by its dtype and shape."""
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype} of shape {value.shape}"
    return checks.described(value)


def whole_numbers(value: object, call: str, name: str, what: str) -> Ints:
    """``value`` as an array of whole numbers (any integer dtype; booleans
    are not numbers here), or :class:`ArgumentTypeError` saying that
    ``name`` of ``call`` must be ``what``."""
    array: npt.NDArray[np.generic] | None = None
    if not isinstance(value, str | bytes | dict | set | frozenset) and value is not None:
        try:
            with warnings.catch_warnings():
                # A ragged list warns on older numpy before it fails; either way it is refused.
                warnings.simplefilter("ignore")
                array = np.asarray(value)
        except Exception:  # whatever an array-like's own conversion raises
            array = None
    if array is None or array.dtype.kind not in "iu":
        raise ArgumentTypeError(f"{call}: {name} must be {what}; got {described(value)}")
    numbers: Ints = array  # type: ignore[assignment]  # its dtype is an integer one
    return numbers


def in_range(array: Ints, lowest: int, highest: int, call: str, name: str, what: str) -> None:
    """Refuse (:class:`RulesError`) an ``array`` holding a value below
    ``lowest`` or above ``highest``, naming the first such entry."""
    if not array.size:
        return
    if array.min() >= lowest and array.max() <= highest:
        return
    where = tuple(int(i) for i in np.argwhere((array < lowest) | (array > highest))[0])
    at = f" at {where[0] if len(where) == 1 else where}" if where else ""
    raise RulesError(
        f"{call}: {name} must hold {what}; the entry{at} is {brief(int(array[where]))}"
    )


def rows(array: Ints, columns: int | None, call: str, name: str, count: int | None) -> int:
    """The number of rows of ``array``, which must be ``(n,)`` (``columns``
    ``None``) or ``(n, columns)``, with ``n`` equal to ``count`` when given:
    else :class:`RulesError`."""
    shape = (count if count is not None else "n",) + (() if columns is None else (columns,))
    expected = 1 if columns is None else 2
    if array.ndim != expected or (columns is not None and array.shape[1] != columns):
        raise RulesError(f"{call}: {name} must have the shape {_shape(shape)}; got {array.shape}")
    if count is not None and array.shape[0] != count:
        raise RulesError(
            f"{call}: {name} must have the shape {_shape(shape)}, one row per table; "
            f"got {array.shape}"
        )
    return int(array.shape[0])


def _shape(shape: tuple[object, ...]) -> str:
    return "(" + ", ".join(str(part) for part in shape) + ("," if len(shape) == 1 else "") + ")"


def rules(value: object, call: str) -> Rules:
    """``value`` if it is the :class:`~spades_core.Rules` of a variant."""
    return checks.instance(value, Rules, call, "rules", "the Rules of a variant (variant.rules())")


def card_masks(value: object, call: str, name: str = "hands", count: int | None = -1) -> U64:
    """An array of 52-bit card masks as ``uint64``: of any shape when
    ``count`` is -1, else ``(n,)`` (``count`` rows when it is not ``None``)."""
    array = whole_numbers(value, call, name, "an array of " + _MASKS)
    if count != -1:
        rows(array, None, call, name, count)
    in_range(array, 0, MASK_LIMIT, call, name, _MASKS)
    masks: U64 = array.astype(np.uint64, copy=False)
    return masks


def member_number(value: object, kind: type, highest: int, call: str) -> int:
    """A suit or a card given as its enum member or object, or as its number 0-``highest``."""
    name = kind.__name__.lower()
    if isinstance(value, Card):
        if kind is Card:
            return value.id
    elif isinstance(value, kind):
        return int(cast(int, value))
    what = f"a {kind.__name__} or its number 0-{highest}"
    if type(value) is not int and not isinstance(value, np.integer):
        raise ArgumentTypeError(f"{call}: {name} must be {what}; got {described(value)}")
    number = int(value)
    if not 0 <= number <= highest:
        raise RulesError(f"{call}: {name} must be {what}; got {brief(number)}")
    return number


def bids(value: object, call: str, count: int | None, *, lowest: int, name: str = "bids") -> I8:
    """An ``(n, 4)`` array of bids by seat, from ``lowest`` (-1: not yet) to 13, as ``int8``."""
    what = "bids (whole numbers from 0 to 13)" if lowest == 0 else "bids (-1: not yet, or 0-13)"
    array = whole_numbers(value, call, name, f"an (n, 4) array of {what}, by seat")
    rows(array, 4, call, name, count)
    in_range(array, lowest, 13, call, name, what)
    made: I8 = array.astype(np.int8, copy=False)
    return made


def seats(value: object, call: str, count: int | None) -> I8:
    """An ``(n,)`` array of seat numbers 0-3, as ``int8``."""
    what = "seat numbers (0-3: N, E, S, W)"
    array = whole_numbers(value, call, "seats", f"an (n,) array of {what}")
    rows(array, None, call, "seats", count)
    in_range(array, 0, 3, call, "seats", what)
    numbers: I8 = array.astype(np.int8, copy=False)
    return numbers


def table_numbers(value: object, call: str, tables: int) -> npt.NDArray[np.intp]:
    """An ``(k,)`` array of table numbers 0 to ``tables - 1``."""
    what = f"table numbers (0 to {tables - 1})"
    array = whole_numbers(value, call, "tables", f"a (k,) array of {what}")
    rows(array, None, call, "tables", None)
    in_range(array, 0, tables - 1, call, "tables", what)
    numbers: npt.NDArray[np.intp] = array.astype(np.intp, copy=False)
    return numbers


def scores(value: object, call: str, count: int | None, *, name: str = "scores") -> I64:
    """An ``(n, 2)`` array of running scores by team (NS, EW), as ``int64``."""
    what = "scores (whole numbers within ±2**62)"
    array = whole_numbers(value, call, name, f"an (n, 2) array of {what}, by team")
    rows(array, 2, call, name, count)
    in_range(array, -MAX_SCORE, MAX_SCORE, call, name, what)
    found: I64 = array.astype(np.int64, copy=False)
    return found


def hands_scored(
    value: object, made: object, won: object, before: object, call: str
) -> tuple[Rules, I8, I8, I64]:
    """The arguments of a scoring on arrays, checked: ``rules``, bids and
    tricks ``(n, 4)`` of hands as they end (bids 0-13, tricks 0-13 adding up
    to 13 in each row) and bags before ``(n, 2)`` from 0 to :data:`MAX_BAGS`."""
    checked_rules = rules(value, call)
    bid_rows = bids(made, call, None, lowest=0)
    count = len(bid_rows)
    tricks = whole_numbers(won, call, "tricks", "an (n, 4) array of tricks won, by seat")
    rows(tricks, 4, call, "tricks", count)
    in_range(tricks, 0, 13, call, "tricks", "tricks won (0-13)")
    totals = tricks.sum(axis=1)
    if (totals != 13).any():
        row = int(np.flatnonzero(totals != 13)[0])
        raise RulesError(
            f"{call}: the tricks of a hand add up to 13; row {row} has {int(totals[row])}"
        )
    what = f"bags (whole numbers from 0 to {MAX_BAGS:,})"
    bags = whole_numbers(before, call, "bags_before", f"an (n, 2) array of {what}, by team")
    rows(bags, 2, call, "bags_before", count)
    in_range(bags, 0, MAX_BAGS, call, "bags_before", what)
    won_rows: I8 = tricks.astype(np.int8, copy=False)
    bags_rows: I64 = bags.astype(np.int64, copy=False)
    return checked_rules, bid_rows, won_rows, bags_rows
