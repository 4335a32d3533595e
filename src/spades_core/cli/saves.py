"""Saving and loading the terminal game: the autosave, ``save FILE`` and the
data directory ``spades play`` keeps them in.

The autosave is a small JSON wrapper around a game record::

    {"format": "spades-play-session", "version": 1,
     "seat": "S", "partner": "normal", "opponents": "normal", "coach": true,
     "record": { ...the record sc.dumps(game) writes... }}

What this module promises:

* A save is written to the temporary file ``.NAME.tmp`` beside it, flushed
  to disk, then moved over the old file in one step (``os.replace``): a
  reader sees the old save or the new one, never half of one. A save stopped
  by ``kill -9`` leaves that one file, which the next save reuses, so
  temporary files never pile up.
* ``save FILE`` writes only a regular file: a directory, a device such as
  ``/dev/null`` or a symbolic link is refused, so saving never replaces a
  link's target or anything that is not a save. Reading refuses a named
  pipe or a device before reading a byte, so it never waits on one.
* A save larger than :data:`MAX_SAVE_BYTES` is never written: what is
  written can always be read back.
* A save that cannot be read (not UTF-8, not JSON, nested too deeply, not a
  record, fields of the wrong type) raises :class:`SaveFileError` with a
  message for the player; a broken autosave is moved aside with
  :func:`set_aside`, never deleted.
* One ``spades play`` at a time uses a data directory: :class:`SessionLock`
  holds a lock file there for the whole game, and a second session is told
  which process holds it. A full disk does not stop the lock.
* Starting a new game keeps the game that was in progress: the last
  :data:`PREVIOUS_KEPT` of them are ``autosave.previous.1.json`` (the most
  recent) to ``autosave.previous.5.json`` (:func:`keep_previous`,
  :func:`previous_games`); ``--resume FILE`` takes any of them up again.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import sys
import time
from pathlib import Path
from typing import Any, Final, final

import attrs

from spades_core._files import open_regular
from spades_core.engine.game import Game
from spades_core.engine.records import from_record, to_record
from spades_core.values.errors import SpadesError, brief
from spades_core.values.seats import Seat

__all__ = [
    "AUTOSAVE_NAME",
    "DATA_DIR_ENV",
    "DEFAULT_LEVEL",
    "LOCK_NAME",
    "MAX_SAVE_BYTES",
    "PREVIOUS_KEPT",
    "SESSION_FORMAT",
    "SESSION_VERSION",
    "PlayerConfig",
    "SaveFileError",
    "SessionBusyError",
    "SessionLock",
    "data_dir",
    "keep_previous",
    "previous_games",
    "read_save",
    "session_json",
    "set_aside",
    "temporary_name",
    "write_save",
]

DATA_DIR_ENV: Final = "SPADES_CORE_DATA_DIR"
"""Environment variable naming the directory for the autosave (overrides the default)."""
AUTOSAVE_NAME: Final = "autosave.json"
"""File name of the autosave inside :func:`data_dir`."""
LOCK_NAME: Final = "play.lock"
"""File name of the lock a running ``spades play`` holds inside :func:`data_dir`."""
SESSION_FORMAT: Final = "spades-play-session"
"""``format`` of the autosave wrapper."""
SESSION_VERSION: Final = 1
"""``version`` of the autosave wrapper this spades-core writes and reads."""
MAX_SAVE_BYTES: Final = 8 * 1024 * 1024
"""The largest save file read; a game's record is a few kilobytes per hand."""
DEFAULT_LEVEL: Final = "normal"
"""The bot level of the partner and the opponents unless chosen."""

PREVIOUS_KEPT: Final = 5
"""How many games that were in progress when a new one started are kept."""
_LEGACY_PREVIOUS: Final = "autosave.previous.json"
"""The one previous game earlier versions kept; listed, never overwritten."""

_SESSION_KEYS: Final = frozenset({"format", "version", "seat", "partner", "opponents", "coach"})
_NO_FOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)
# Seconds a save waits for another save to the same file to finish.
_LOCK_WAIT: Final = 5.0

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock: saves are not locked
    fcntl = None  # type: ignore[assignment]


class SaveFileError(Exception):
    """A save file that cannot be read or written; the message is for the player."""


class SessionBusyError(SaveFileError):
    """Another ``spades play`` holds the data directory."""


@final
@attrs.frozen
class PlayerConfig:
    """Who sits where: the human's seat, the bots' levels, and whether hints are on."""

    partner: str = DEFAULT_LEVEL
    opponents: str = DEFAULT_LEVEL
    coach: bool = True
    seat: Seat = Seat.SOUTH

    def level(self, seat: Seat) -> str:
        """The level of the bot in ``seat``."""
        return self.partner if seat == self.seat.partner else self.opponents

    def to_json(self) -> dict[str, object]:
        """The configuration as it is stored in the autosave."""
        return {
            "seat": self.seat.letter,
            "partner": self.partner,
            "opponents": self.opponents,
            "coach": self.coach,
        }


def data_dir() -> Path:
    """Where ``spades play`` keeps its autosave: ``$SPADES_CORE_DATA_DIR`` if
    set; otherwise ``%LOCALAPPDATA%\\spades-core`` on Windows,
    ``~/Library/Application Support/spades-core`` on macOS, and
    ``$XDG_DATA_HOME/spades-core`` (default ``~/.local/share/spades-core``)
    elsewhere."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "spades-core"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "spades-core"
    xdg = os.environ.get("XDG_DATA_HOME")
    base_dir = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base_dir / "spades-core"


def session_json(game: Game, config: PlayerConfig) -> str:
    """The autosave document for ``game`` played with ``config``."""
    document: dict[str, Any] = {"format": SESSION_FORMAT, "version": SESSION_VERSION}
    document.update(config.to_json())
    document["record"] = to_record(game)
    return json.dumps(document)


def read_save(path: Path) -> tuple[Game, dict[str, Any]]:
    """The game in a save file (a record or an autosave) and the player
    settings an autosave stores (empty for a plain record), checked: ``seat``
    a seat letter, ``partner``/``opponents`` text, ``coach`` true or false.
    Raises :class:`SaveFileError` saying what is wrong."""
    document = _read_json(path)
    if isinstance(document, dict) and document.get("format") == SESSION_FORMAT:
        settings = _session_settings(path, document)
        record = document["record"]
    else:
        settings, record = {}, document
    try:
        game = from_record(record)
    except SpadesError as error:
        raise SaveFileError(
            f"{path} does not hold a game spades-core can resume: {error}"
        ) from None
    return game, settings


def _read_json(path: Path) -> object:
    try:
        with os.fdopen(open_regular(path, os.O_RDONLY), "rb") as stream:
            data = stream.read(MAX_SAVE_BYTES + 1)
    except OSError as error:
        raise SaveFileError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_SAVE_BYTES:
        raise SaveFileError(f"{path} is larger than any save ({MAX_SAVE_BYTES} bytes at most)")
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise SaveFileError(f"{path} is not a saved game: it is not UTF-8 text") from None
    except RecursionError:
        raise SaveFileError(f"{path} is not a saved game: its JSON is nested too deeply") from None
    except ValueError as error:
        raise SaveFileError(f"{path} is not a saved game: it is not valid JSON ({error})") from None


def _session_settings(path: Path, document: dict[str, Any]) -> dict[str, Any]:
    def bad(field: str, expected: str) -> SaveFileError:
        return SaveFileError(
            f"{path}: the save's {field!r} must be {expected}; got {brief(document.get(field))}"
        )

    version = document.get("version")
    if type(version) is not int or version != SESSION_VERSION:
        raise SaveFileError(
            f"{path} is a version {brief(version)} save; "
            f"this spades-core reads version {SESSION_VERSION}"
        )
    unknown = sorted(str(key) for key in document if key not in _SESSION_KEYS | {"record"})
    if unknown:
        raise SaveFileError(f"{path}: unknown field(s) {brief(', '.join(unknown))} in the save")
    if "record" not in document:
        raise SaveFileError(f"{path}: the save has no 'record'")
    settings: dict[str, Any] = {}
    seat = document.get("seat", "S")
    if not isinstance(seat, str) or seat not in {s.letter for s in Seat}:
        raise bad("seat", "one of N, E, S, W")
    settings["seat"] = seat
    for key in ("partner", "opponents"):
        level = document.get(key, DEFAULT_LEVEL)
        if not isinstance(level, str):
            raise bad(key, "a bot level such as normal")
        settings[key] = level
    use_coach = document.get("coach", True)
    if type(use_coach) is not bool:
        raise bad("coach", "true or false")
    settings["coach"] = use_coach
    return settings


def write_save(path: Path, text: str) -> None:
    """Write ``text`` to the file ``path`` safely (see the module's promises);
    raises :class:`SaveFileError` saying why it could not.

    A save larger than :data:`MAX_SAVE_BYTES`, which :func:`read_save` would
    refuse, is not written. The new save is written to ``.NAME.tmp`` beside
    ``path`` (one such name per save, so a save stopped by ``kill -9``
    leaves one file that the next save reuses); a save to the same file at
    the same moment waits for it.
    """
    data = (text + "\n").encode("utf-8")
    if len(data) > MAX_SAVE_BYTES:
        raise SaveFileError(
            f"the game is too long to save in {path}: its save takes {len(data):,} bytes, "
            f"and a save of more than {MAX_SAVE_BYTES:,} bytes cannot be read back"
        )
    try:
        existing = os.lstat(path)
    except FileNotFoundError:
        existing = None
    except OSError as error:
        raise SaveFileError(f"cannot save to {path}: {error.strerror or error}") from None
    if existing is not None:
        if stat.S_ISLNK(existing.st_mode):
            raise SaveFileError(
                f"{path} is a symbolic link; saving never replaces a link's target, "
                "so name the file itself"
            )
        if stat.S_ISDIR(existing.st_mode):
            raise SaveFileError(f"{path} is a directory; name a file in it, like {path}/game.json")
        if not stat.S_ISREG(existing.st_mode):
            raise SaveFileError(f"{path} is not a regular file; saves go to regular files only")
    directory = path.parent
    temporary = temporary_name(path)
    try:
        handle = _open_temporary(temporary)
    except OSError as error:
        raise SaveFileError(f"cannot save to {path}: {error.strerror or error}") from None
    try:
        os.ftruncate(handle, 0)
        written = 0
        while written < len(data):
            written += os.write(handle, data[written:])
        os.fsync(handle)
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise SaveFileError(f"cannot save to {path}: {error.strerror or error}") from None
    finally:
        os.close(handle)
    _sync_directory(directory)
    _remove_old_temporaries(path)


def temporary_name(path: Path) -> Path:
    """The one temporary file a save to ``path`` writes before it moves it
    over ``path``: ``.NAME.tmp`` in the same directory."""
    return path.with_name(f".{path.name}.tmp")


def _open_temporary(temporary: Path) -> int:
    """The temporary file, open for writing and locked for this save.

    The lock keeps two saves to one file from writing the same temporary at
    once: a save waits for another (a save takes a moment) for at most
    :data:`_LOCK_WAIT` seconds. A save that took the lock just as another
    finished holds the file that one has since moved into place, not the
    temporary: it opens the name again.
    """
    flags = os.O_WRONLY | os.O_CREAT | _NO_FOLLOW
    deadline = time.monotonic() + _LOCK_WAIT
    while True:
        handle = open_regular(temporary, flags, 0o600)
        try:
            if not _try_lock(handle):
                if time.monotonic() > deadline:
                    raise OSError(errno.EBUSY, "another save to the same file is being written")
                os.close(handle)
                time.sleep(0.01)
                continue
            opened = os.fstat(handle)
            try:
                named = os.lstat(temporary)
            except FileNotFoundError:
                named = None
            if named is not None and (named.st_dev, named.st_ino) == (
                opened.st_dev,
                opened.st_ino,
            ):
                return handle
        except BaseException:
            os.close(handle)
            raise
        os.close(handle)


def _try_lock(handle: int) -> bool:
    """Whether this process now holds the lock on ``handle`` (always, without flock)."""
    if fcntl is None:  # pragma: no cover - Windows
        return True
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _remove_old_temporaries(path: Path) -> None:
    """Remove the temporary files that earlier releases left beside ``path``
    when a save was stopped (``.NAME.<8 random characters>.tmp``)."""
    pattern = re.compile(re.escape(f".{path.name}.") + r"[a-z0-9_]{8}\.tmp")
    with contextlib.suppress(OSError):
        with os.scandir(path.parent) as entries:
            stray = [
                entry.path
                for entry in entries
                if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)
            ]
        for name in stray:
            with contextlib.suppress(OSError):
                os.unlink(name)


def _sync_directory(directory: Path) -> None:
    # The rename itself reaches the disk only when the directory is synced.
    with contextlib.suppress(OSError, AttributeError):
        descriptor = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def set_aside(path: Path) -> Path:
    """Move the unreadable save ``path`` to a new name beside it
    (``autosave.unreadable-20260130-101500.json``) and return that name;
    the file is kept, never deleted. Raises :class:`SaveFileError` if it
    cannot be moved."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for attempt in range(100):
        suffix = f"-{attempt}" if attempt else ""
        aside = path.with_name(f"{path.stem}.unreadable-{stamp}{suffix}{path.suffix}")
        try:
            # A hard link fails if the name is taken, so nothing is overwritten.
            os.link(path, aside)
        except FileExistsError:
            continue
        except OSError:
            # No hard links on this file system: rename, having checked the name is free.
            if aside.exists():
                continue
            try:
                os.rename(path, aside)
            except OSError as error:
                raise SaveFileError(
                    f"cannot move {path} aside: {error.strerror or error}"
                ) from None
            return aside
        os.unlink(path)
        return aside
    raise SaveFileError(f"cannot move {path} aside: too many unreadable saves beside it")


@final
class SessionLock:
    """The lock one ``spades play`` holds on its data directory while it runs.

    It is an advisory lock on ``play.lock`` (``flock`` on POSIX systems), so
    it is released when the process ends, however it ends. The file records
    the holder's process id for the message a second session shows. Where
    ``flock`` does not exist (Windows), sessions are not locked.
    """

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_NAME
        self._handle: int | None = None

    def acquire(self) -> None:
        """Take the lock; raises :class:`SessionBusyError` if another session
        holds it, :class:`SaveFileError` if the directory cannot be used.
        The process id is written when there is room for it: on a full disk
        the lock is held all the same."""
        if fcntl is None:  # pragma: no cover - Windows has no flock
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise SaveFileError(
                f"cannot use the data directory {self.path.parent}: {error.strerror or error}"
            ) from None
        try:
            handle = open_regular(self.path, os.O_RDWR | os.O_CREAT)
        except OSError as error:
            raise SaveFileError(
                f"cannot use the lock file {self.path}: {error.strerror or error}"
            ) from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                holder = os.read(handle, 20).decode("ascii", "replace").strip()
            except OSError:
                holder = ""
            os.close(handle)
            raise SessionBusyError(
                f"another spades play (process {holder or 'another process'}) is using "
                f"{self.path.parent}; finish that game first, or give this one its own "
                f"directory with {DATA_DIR_ENV}=DIR"
            ) from None
        # Who holds the lock is only told to a second session, so a full disk,
        # which stops this write, does not stop the game.
        with contextlib.suppress(OSError):
            os.ftruncate(handle, 0)
            os.write(handle, str(os.getpid()).encode("ascii"))
        self._handle = handle

    def release(self) -> None:
        """Give the lock up (closing the file releases it)."""
        if self._handle is not None:
            os.close(self._handle)
            self._handle = None


def _previous_path(autosave: Path, number: int) -> Path:
    """``autosave.previous.N.json`` beside ``autosave``, ``N`` from 1 (the most recent)."""
    return autosave.with_name(f"{autosave.stem}.previous.{number}{autosave.suffix}")


def keep_previous(autosave: Path) -> Path | None:
    """Keep the game in ``autosave`` as ``autosave.previous.1.json``, moving
    the ones kept before one place down (``.1`` to ``.2`` and so on) and
    letting go of the oldest beyond :data:`PREVIOUS_KEPT`; return where it
    went, or ``None`` when there was no autosave. Raises :class:`SaveFileError`
    when the files cannot be moved; the autosave then stays where it was."""
    if not autosave.exists():
        return None
    try:
        for number in range(PREVIOUS_KEPT - 1, 0, -1):
            older = _previous_path(autosave, number)
            if older.exists():
                os.replace(older, _previous_path(autosave, number + 1))
        newest = _previous_path(autosave, 1)
        os.replace(autosave, newest)
    except OSError as error:
        raise SaveFileError(
            f"cannot keep the game in progress beside {autosave}: {error.strerror or error}"
        ) from None
    _sync_directory(autosave.parent)
    return newest


def previous_games(autosave: Path) -> list[Path]:
    """The games kept by :func:`keep_previous` beside ``autosave``, most
    recent first (with the one file earlier versions kept, last)."""
    kept = [_previous_path(autosave, number) for number in range(1, PREVIOUS_KEPT + 1)]
    kept.append(autosave.with_name(_LEGACY_PREVIOUS))
    return [path for path in kept if path.is_file()]
