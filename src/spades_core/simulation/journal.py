"""A run's finished work kept in a file, so that a stopped run picks up where
it left off, and a finished one grows by more deals or more players.

An item's result depends only on its match and its index (see
:mod:`spades_core.simulation.work`), so what one run kept is exactly what
another run with the same settings would compute: a run that takes part of
its items from a journal gives the same result, to the byte, as a run that
plays them all.

The journal is a text file of JSON lines. The first names the settings of
the run (variant, options, mode, seed, duplicate, hand limit) and the
version of spades-core that wrote it; a run with other settings, or another
version (whose players may choose differently), refuses the file. Every
other line is one finished task: its two players, its first item index, its
items' results and a checksum of them, so that a line changed by accident is
found rather than counted. A line is written and flushed as its task ends; a last
line cut short, by a run killed while writing, is dropped when the journal
is next opened. The file is locked while a run writes to it. A journal is a
regular file: a named pipe or a device given as one is refused before a
byte is read.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, BinaryIO, Final, TypeVar

from spades_core._files import open_regular
from spades_core.rules.rng import MAX_SEED
from spades_core.simulation.work import ItemResult, Match
from spades_core.values.errors import SpadesError, brief

try:
    import fcntl
except ImportError:  # pragma: no cover - platforms without fcntl do not lock
    fcntl = None  # type: ignore[assignment]

__all__ = ["JOURNAL_FORMAT", "Journal", "JournalError", "Kept", "journal_seed", "read_journal"]

JOURNAL_FORMAT: Final = 1
"""The version of the journal's layout, in its first line."""
_MARK: Final = "spades_core_journal"
_ITEM_FIELDS: Final = 10
_HEADER_LIMIT: Final = 64 * 1024
"""The longest first line read as a journal's header."""
# Item fields that count something, so can never be negative: the bags, the
# hands, the wins and the unfinished games.
_COUNTS: Final = (4, 5, 6, 7, 8, 9)

_T = TypeVar("_T")

Kept = list[dict[int, ItemResult]]
"""Per match of the run, in its order: the kept results by item index."""


class JournalError(SpadesError, ValueError):
    """A journal file that cannot be used: not a journal, written for another
    run or by another version of spades-core, damaged, in use by another run,
    or not readable or writable."""


def _settings(match: Match) -> dict[str, Any]:
    import spades_core

    return {
        "version": spades_core.__version__,
        "variant": match.variant,
        "options": dict(match.options),
        "mode": match.mode,
        "seed": match.seed,
        "duplicate": match.duplicate,
        "max_hands": match.max_hands if match.mode == "games" else None,
    }


def _pair(match: Match) -> tuple[str, str]:
    return (str(match.first), str(match.second))


def _item_json(result: ItemResult) -> list[int]:
    return [
        *result.points,
        *result.base,
        *result.bags,
        result.hands,
        *result.wins,
        result.unfinished,
    ]


def _checksum(first: str, second: str, start: int, items: object) -> str:
    text = json.dumps([first, second, start, items], separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _item(value: object) -> ItemResult | None:
    if not isinstance(value, list) or len(value) != _ITEM_FIELDS:
        return None
    if not all(type(field) is int for field in value):
        return None
    if any(value[field] < 0 for field in _COUNTS):
        return None
    return ItemResult(
        (value[0], value[1]),
        (value[2], value[3]),
        (value[4], value[5]),
        value[6],
        (value[7], value[8]),
        value[9],
    )


def _header(file: BinaryIO, path: str) -> tuple[dict[str, Any] | None, int]:
    """The journal's first line, read from the start of ``file``, and its
    length; ``(None, 0)`` for an empty file. Only that line is read, so that a
    large file given by mistake is refused at once with a :class:`JournalError`."""
    first = file.readline(_HEADER_LIMIT)
    if not first:
        return None, 0
    try:
        header = json.loads(first) if first.endswith(b"\n") else None
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict) or header.get(_MARK) != JOURNAL_FORMAT:
        raise JournalError(
            f"{path} is not a spades-core journal; give the name of a new file or of a journal"
        )
    return header, len(first)


def _reading(path: str, read: Callable[[BinaryIO], _T]) -> _T | None:
    """``read`` applied to the file at ``path`` opened for reading, or
    ``None`` when there is no such file."""
    try:
        with os.fdopen(open_regular(path, os.O_RDONLY), "rb") as file:
            return read(file)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _read_error(path, error) from error


def journal_seed(path: str) -> int | None:
    """The seed of the run that wrote the journal at ``path`` (``None`` when
    the file does not exist or is empty)."""
    header = _reading(path, lambda file: _header(file, path)[0])
    if header is None:
        return None
    seed = header.get("seed")
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise JournalError(f"the journal {path} is damaged at line 1: its seed is {brief(seed)}")
    return seed


def _parse(file: BinaryIO, path: str, matches: Sequence[Match]) -> tuple[Kept, int]:
    """The kept results of ``matches`` in a journal read from the start of
    ``file`` to its end, and the length of its whole lines (a last line
    without its newline is not counted)."""
    kept: Kept = [{} for _ in matches]
    header, head = _header(file, path)
    if header is None:
        return kept, 0
    expected = _settings(matches[0])
    differ = [name for name, value in expected.items() if header.get(name) != value]
    if differ:
        written = ", ".join(f"{name} {brief(header.get(name))}" for name in differ)
        wanted = ", ".join(f"{name} {brief(expected[name])}" for name in differ)
        raise JournalError(
            f"the journal {path} was written by a run with {written}; this run has {wanted}. "
            "Run with the journal's settings, or give another file"
        )
    rest = file.read()
    whole = rest.rfind(b"\n") + 1
    number = {_pair(match): index for index, match in enumerate(matches)}
    for line_number, line in enumerate(rest[:whole].split(b"\n")[:-1], start=2):
        pair, start, items = _record(line)
        if pair is None:
            raise JournalError(
                f"the journal {path} is damaged at line {line_number}; "
                "remove that line and the ones after it to keep the rest"
            )
        which = number.get(pair)
        if which is None:
            continue  # a pairing of another run with the same settings
        for index, result in enumerate(items, start):
            earlier = kept[which].setdefault(index, result)
            if earlier != result:
                raise JournalError(
                    f"the journal {path} disagrees with itself at line {line_number} "
                    f"about item {index + 1} of {pair[0]} vs {pair[1]}; it cannot be trusted"
                )
    return kept, head + whole


def _record(line: bytes) -> tuple[tuple[str, str] | None, int, list[ItemResult]]:
    """A task's line read: its pair of players (``None`` when the line is
    not a valid task), its first index and its items."""
    invalid: tuple[None, int, list[ItemResult]] = (None, 0, [])
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, or nested too deep to read
        return invalid
    if not isinstance(record, dict):
        return invalid
    first, second = record.get("first"), record.get("second")
    start, raw = record.get("start"), record.get("items")
    if not (isinstance(first, str) and isinstance(second, str)):
        return invalid
    if type(start) is not int or start < 0 or not isinstance(raw, list):
        return invalid
    if record.get("check") != _checksum(first, second, start, raw):
        return invalid
    items = [_item(value) for value in raw]
    if not items or None in items:
        return invalid
    return (first, second), start, [item for item in items if item is not None]


def _read_error(path: str, error: OSError) -> JournalError:
    return JournalError(f"cannot use the journal {path}: {error.strerror or error}")


def read_journal(path: str, matches: Sequence[Match]) -> Kept:
    """What the journal at ``path`` keeps for ``matches`` (nothing when the
    file does not exist), without opening it for writing."""
    kept = _reading(path, lambda file: _parse(file, path, matches)[0])
    return [{} for _ in matches] if kept is None else kept


class Journal:
    """The journal at ``path``, open for a run of ``matches`` (all with the
    same settings): created when it does not exist, checked, and locked until
    :meth:`close`. ``kept`` holds what it already has; :meth:`record` adds a
    finished task."""

    def __init__(self, path: str, matches: Sequence[Match]) -> None:
        self.path = path
        try:
            descriptor = open_regular(path, os.O_RDWR | os.O_CREAT)
        except OSError as error:
            raise _read_error(path, error) from error
        self._file: BinaryIO = os.fdopen(descriptor, "r+b")
        try:
            self._lock()
            self.kept, whole = _parse(self._file, path, matches)
            if whole == 0:
                self._file.seek(0)
                self._file.truncate()
                header = {_MARK: JOURNAL_FORMAT, **_settings(matches[0])}
                self._write(header)
            elif whole < self._file.tell():
                self._file.truncate(whole)  # a line cut short by a killed run
            self._file.seek(0, os.SEEK_END)
        except OSError as error:
            self._file.close()
            raise _read_error(path, error) from error
        except BaseException:
            self._file.close()
            raise

    def _lock(self) -> None:
        if fcntl is None:  # pragma: no cover
            return
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise JournalError(
                f"the journal {self.path} is in use by another run; wait for it to end, "
                "or give another file"
            ) from None

    def _write(self, data: dict[str, Any]) -> None:
        self._file.write(json.dumps(data, sort_keys=True).encode() + b"\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def record(self, match: Match, start: int, results: Sequence[ItemResult]) -> None:
        """Keep the ``results`` of ``match``'s items from ``start`` on."""
        first, second = _pair(match)
        items = [_item_json(result) for result in results]
        record = {"first": first, "second": second, "start": start, "items": items}
        try:
            self._write(record | {"check": _checksum(first, second, start, items)})
        except OSError as error:
            raise JournalError(
                f"cannot write to the journal {self.path}: {error.strerror or error}"
            ) from error

    def close(self) -> None:
        """Unlock and close the file (the lock goes with it)."""
        self._file.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
