"""A multiplayer Spades table in the browser, built on spades-core's public API.

Starlette serves a start page, a table page and one WebSocket per player;
uvicorn runs it::

    python examples/web_table/server.py --port 8000 --data build/web_tables

Each table is one :class:`spades_core.Game`. Every message a player receives
is built from ``game.view(seat)`` for that player's seat, so no other hand and
no seed ever leaves the server. Seats without a person are played by the
library's bots; the coach's tip comes from :func:`spades_core.tips.coach`. Tables
are saved as game records (:func:`spades_core.dumps`) after every action (a
table where nobody holding a seat's link is connected in the background, at
most one write behind) and loaded back (:func:`spades_core.loads`) when the
server starts again.

What a seat is told and what a player may send is ``table_protocol.py``,
which the browser app runs too; this module adds the network, the limits,
the links and the files.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import logging
import math
import os
import queue
import re
import secrets
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Collection, Mapping
from functools import partial
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import spades_core as sc
import table_protocol as protocol
from table_protocol import HOST_SEAT, PERSON

__all__ = ["Limits", "Table", "TableStore", "create_app", "main", "uvicorn_config"]

STATIC = Path(__file__).resolve().with_name("static")
"""The page, shared with the web app (examples/web_app)."""
WORKER_MARK = '<meta name="spades-transport" content="worker">'
"""How the shared page says it runs the engine itself; this server tells it otherwise."""
WATCH = "watch"
"""The key of a table's spectator token (its view shows no hand)."""
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")
_log = logging.getLogger("web_table")
T = TypeVar("T")


BOT_THREAD_SWITCH_SECONDS = 0.0005
"""How often CPython hands its lock between threads while the server runs (the default is 5 ms)."""


class Limits:
    """What the server and each client may hold; bounded so no client can
    starve the others, lock players out, or exhaust the server's memory,
    threads or file descriptors. docs/reliability.md lists them all."""

    message_chars = 512
    """Longest WebSocket message read (the real ones are under 60 characters)."""
    body_bytes = 16_384
    """Largest request body (a new table's settings)."""
    rate = 8.0
    """Refused messages per second a connection may send on average (actions
    taken are paced by the game and cost nothing)..."""
    burst = 24.0
    """...and at once."""
    strikes = 50
    """Refused messages (too big, too fast, malformed) a connection may have
    against it before it is closed..."""
    strikes_forgiven_per_second = 0.5
    """...each forgotten after a while, so an occasional mistake never adds up."""
    tables = 500
    """Tables the server holds."""
    new_tables_burst = 10
    """Tables one client (address) may open at once..."""
    new_tables_per_minute = 2.0
    """...and on average after that."""
    unclaimed_table_seconds = 600.0
    """A table whose links nobody has opened is removed (from disk too) after this long."""
    idle_table_seconds = 6 * 3600.0
    """A table nobody is connected to, where no person acts, is removed after this long..."""
    finished_table_seconds = 1800.0
    """...and after this long once its game is over."""
    sweep_seconds = 30.0
    """How often expired tables are looked for."""
    sockets_per_seat = 4
    """Open sockets of one seat's link (reloads, a second tab); a new one
    closes the oldest, so the seat's holder always gets in."""
    spectators_per_table = 8
    """Open sockets of a table's spectator link; spectators never take a seat's place."""
    connections = 2048
    """Open connections (HTTP and WebSocket) the server keeps, at most; fewer
    when its file-descriptor limit is lower (see :func:`connection_cap`).
    Past it, the newest connection closes an anonymous one (see
    :class:`ConnectionGuard`)."""
    spare_files = 192
    """File descriptors kept free of connections for record saves, logs and imports."""
    sockets_share = 0.75
    """The share of :attr:`connections` WebSockets may hold, so that a
    seat's holder can always reach the server to claim a socket."""
    connections_per_client = 64
    """Open anonymous connections (ones that presented no seat's token) of
    one client address; its oldest closes for a new one past this."""
    sockets_per_client = 32
    """Open WebSockets of one client address."""
    first_request_seconds = 2.0
    """How long a new connection has to send its first request before
    anonymous connections elsewhere may close it (see :class:`ConnectionGuard`)."""
    quiet_connection_seconds = 10.0
    """A connection that sends no request is closed after this long..."""
    keep_alive_seconds = 5
    """...and one idle between requests after this long (uvicorn's ``timeout_keep_alive``)."""
    bot_threads = 1
    """Threads in which the bots of tables without a person play (every
    move of every such table: they share it, however many there are)..."""
    person_bot_threads = 1
    """...and, apart, those in which the searching (hard) bots of tables
    where a person is connected think, which never wait behind the others."""
    save_threads = 1
    """Threads that write the records of tables without a person, in the
    background (each table at most one write behind)..."""
    person_save_threads = 2
    """...and, apart, those that write the records of tables where a person
    is connected, before each move is shown, which never wait behind the others."""
    variant_load_seconds = 5.0
    """How long a plugin may take to import before it is reported broken and not offered."""
    seating_bytes = 65_536
    """Largest ``table.json`` read back when the server starts."""
    log_repeats = 5
    """Log records of one kind written per :attr:`log_window_seconds`; the
    rest are counted and reported in one line."""
    log_window_seconds = 60.0
    """See :attr:`log_repeats`."""


def connection_cap() -> int:
    """Open connections the server keeps: :attr:`Limits.connections`, or
    fewer, so that :attr:`Limits.spare_files` descriptors stay free under the
    process's file-descriptor limit (``ulimit -n``)."""
    cap = Limits.connections
    with contextlib.suppress(ImportError, OSError, ValueError):
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY:
            cap = min(cap, soft - Limits.spare_files)
    return max(cap, 8)


def socket_cap() -> int:
    """Open WebSockets the server keeps (a share of :func:`connection_cap`)."""
    return max(int(connection_cap() * Limits.sockets_share), 4)


class RepeatedLogFilter(logging.Filter):
    """Lets at most :attr:`Limits.log_repeats` records of one kind (logger,
    level and message template) through per :attr:`Limits.log_window_seconds`;
    only the first carries its traceback. The next record let through says
    how many were held back, so a flood of one error cannot fill the disk."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._clock = clock
        """Seconds for the windows: the monotonic clock unless a test passes its own."""
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, int, str], list[float]] = {}
        """Per kind: [window start, records let through, records held back]."""

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg)[:200])
        now = self._clock()
        with self._lock:
            entry = self._seen.get(key)
            if entry is None or now - entry[0] >= Limits.log_window_seconds:
                held = 0 if entry is None else int(entry[2])
                if len(self._seen) >= 1000:
                    self._seen.clear()  # many kinds at once: forget, never grow
                self._seen[key] = entry = [now, 0.0, 0.0]
                if held:
                    record.msg = f"{record.msg} [{held} more like this were not logged]"
            if entry[1] >= Limits.log_repeats:
                entry[2] += 1
                return False
            entry[1] += 1
            if entry[1] > 1:
                record.exc_info = None  # one traceback of a kind per window is enough
                record.exc_text = None
            return True


# -- storage -----------------------------------------------------------------------


class TableStore:
    """A directory of tables: ``<id>.record.json`` (the game record) and
    ``<id>.table.json`` (who sits where, their tokens, the coach setting)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)

    def write(self, name: str, text: str) -> None:
        """Replace ``name`` with ``text`` atomically: a reader sees the old file or the new one."""
        handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=f".{name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.directory / name)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def save_game(self, table_id: str, game: sc.Game) -> None:
        """Write the table's game record."""
        self.write(f"{table_id}.record.json", sc.dumps(game))

    def save_seating(self, table_id: str, seating: Mapping[str, Any]) -> None:
        """Write the table's seating (once when it opens, again when first claimed)."""
        self.write(f"{table_id}.table.json", json.dumps(seating, indent=1))

    def delete(self, table_id: str) -> None:
        """Remove the table's files (an expired table)."""
        for suffix in (".record.json", ".table.json"):
            with contextlib.suppress(FileNotFoundError):
                (self.directory / f"{table_id}{suffix}").unlink()

    def load_all(self, variant_ids: Collection[str]) -> list[StoredTable]:
        """Every stored table of one of ``variant_ids`` (those that load); an
        unreadable one, or one of another variant, is skipped with one log line."""
        found = []
        for path in sorted(self.directory.glob("*.table.json")):
            table_id = path.name.removesuffix(".table.json")
            if not _TABLE_ID.fullmatch(table_id):
                continue
            try:
                found.append(self._load(table_id, path, variant_ids))
            except (OSError, ValueError, RecursionError, sc.SpadesError) as error:
                _log.warning("table %s not restored: %s", table_id, str(error)[:200])
        return found

    def _load(self, table_id: str, path: Path, variant_ids: Collection[str]) -> StoredTable:
        record_path = self.directory / f"{table_id}.record.json"
        if path.stat().st_size > Limits.seating_bytes:
            raise ValueError(f"its table.json is over {Limits.seating_bytes:,} bytes")
        seating = json.loads(path.read_text(encoding="utf-8"))
        _check_seating(seating)
        if record_path.stat().st_size > sc.records.MAX_RECORD_SIZE:
            raise ValueError("its record is larger than a record may be")
        record = record_path.read_text(encoding="utf-8")
        # Its variant first: reading a record imports its variant, which may be
        # a plugin that hangs (and was not offered for that reason).
        head = json.loads(record)
        variant = head.get("variant") if isinstance(head, dict) else None
        if isinstance(variant, str) and variant not in variant_ids:
            raise ValueError(f"its variant {variant!r} is not available")
        game = sc.loads(record)
        touched = max(path.stat().st_mtime, record_path.stat().st_mtime)
        return StoredTable(table_id, seating, game, opened=path.stat().st_ctime, touched=touched)


class StoredTable:
    """A table read back from disk, with the wall-clock times its files tell."""

    def __init__(
        self, table_id: str, seating: dict[str, Any], game: sc.Game, opened: float, touched: float
    ) -> None:
        self.id = table_id
        self.seating = seating
        self.game = game
        self.opened = opened
        self.touched = touched


def _check_seating(seating: object) -> None:
    """Refuse (:class:`ValueError`) a ``table.json`` that is not what the server writes."""
    if not isinstance(seating, dict):
        raise ValueError("its table.json is not a JSON object")
    players, tokens = seating.get("players"), seating.get("tokens")
    letters = {seat.letter for seat in sc.Seat}
    if not isinstance(players, dict) or set(players) != letters:
        raise ValueError("its table.json does not name a player for each seat")
    if not all(isinstance(kind, str) for kind in players.values()):
        raise ValueError("its table.json names a player that is not text")
    protocol.seat_players(players, friends=True)  # an unknown bot level is refused here
    if (
        not isinstance(tokens, dict)
        or set(tokens) != letters | {WATCH}
        or not all(isinstance(token, str) and 16 <= len(token) <= 64 for token in tokens.values())
    ):
        raise ValueError("its table.json does not hold a link for each seat and the spectators")
    if type(seating.get("coach")) is not bool:
        raise ValueError("its table.json does not say whether the coach is on")


# -- threads -------------------------------------------------------------------------


class ThreadJobs:
    """A few threads of their own that run calls in the order asked, each
    answered on the asking event loop: where bots think, apart from the
    event loop and from the records being written."""

    def __init__(self, threads: int, name: str) -> None:
        self._queue: queue.SimpleQueue[tuple[Callable[[], Any], _Answer] | None] = (
            queue.SimpleQueue()
        )
        self._size = threads
        self._name = name
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    async def run(self, call: Callable[[], T]) -> T:
        """What ``call()`` returns (or raises), computed in one of the threads."""
        self._start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put((call, _Answer(loop, future)))
        return await future

    def _start(self) -> None:
        with self._lock:
            while len(self._threads) < self._size:
                thread = threading.Thread(
                    target=self._work, name=f"{self._name}-{len(self._threads)}", daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            call, answer = job
            if answer.wanted():
                answer.give(call)

    def close(self) -> None:
        """Let the threads end once the calls before them are done (on shutdown)."""
        with self._lock:
            for _ in self._threads:
                self._queue.put(None)
            self._threads.clear()


class _Answer:
    """Where the outcome of one call of :class:`ThreadJobs` goes: a future of the asking loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any]) -> None:
        self.loop = loop
        self.future = future

    def wanted(self) -> bool:
        """Whether anyone still waits (a table that expired, or a server stopping, does not)."""
        return not self.future.done()

    def give(self, call: Callable[[], Any]) -> None:
        try:
            outcome: Any = call()
            failed = False
        except Exception as error:  # the table logs it, as it would a bot playing inline
            outcome, failed = error, True
        with contextlib.suppress(RuntimeError):  # the loop has closed meanwhile
            self.loop.call_soon_threadsafe(self._settle, outcome, failed)

    def _settle(self, outcome: Any, failed: bool) -> None:
        if self.future.done():
            return
        if failed:
            self.future.set_exception(outcome)
        else:
            self.future.set_result(outcome)


class _Pending:
    """What is still to be written of one table: its latest game and seating
    (older ones are never written once a newer one is asked), or its removal."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self.game: sc.Game | None = None
        self.seating: Mapping[str, Any] | None = None
        self.delete = False
        self.urgent = False
        self.waiting: list[concurrent.futures.Future[None]] = []


class RecordSaver:
    """Writes the tables' files in threads of its own, each table's in the
    order asked and never two at once.

    A table where a person is connected is saved *urgently*: by threads
    that write nothing else (:attr:`Limits.person_save_threads`), and the
    table waits for the write before it shows the move. Any other table is
    saved in the background (:attr:`Limits.save_threads`): it does not wait,
    and while a write of it is waiting its turn a newer game replaces the
    older one, so however many tables of bots play, each is at most one
    write behind and the queue holds one entry per table at most."""

    def __init__(self, urgent_threads: int, background_threads: int) -> None:
        self._ready = threading.Condition()
        self._pending: dict[str, _Pending] = {}
        self._urgent: deque[str] = deque()
        self._background: deque[str] = deque()
        self._writing: set[str] = set()
        self._closing = False
        self._threads = [
            threading.Thread(target=self._work, args=(True,), name=f"web-table-person-save-{n}")
            for n in range(urgent_threads)
        ] + [
            threading.Thread(target=self._work, args=(False,), name=f"web-table-save-{n}")
            for n in range(background_threads)
        ]
        for thread in self._threads:
            thread.daemon = True
            thread.start()

    def save(
        self,
        store: TableStore,
        table_id: str,
        *,
        game: sc.Game | None = None,
        seating: Mapping[str, Any] | None = None,
        delete: bool = False,
        urgent: bool = False,
    ) -> concurrent.futures.Future[None]:
        """Ask for ``game``, ``seating`` or the removal of the table's files
        to be written; the future is done once they are (or failed)."""
        done: concurrent.futures.Future[None] = concurrent.futures.Future()
        with self._ready:
            if self._closing:
                done.set_exception(RuntimeError("the server is stopping"))
                return done
            pending = self._pending.get(table_id)
            if pending is None:
                pending = self._pending[table_id] = _Pending(store)
            if delete:
                pending.delete, pending.game, pending.seating = True, None, None
            elif not pending.delete:
                pending.game = game if game is not None else pending.game
                pending.seating = seating if seating is not None else pending.seating
            pending.waiting.append(done)
            if urgent and not pending.urgent:
                pending.urgent = True
                self._urgent.append(table_id)
            elif len(pending.waiting) == 1 and not urgent:
                self._background.append(table_id)
            self._ready.notify_all()
        return done

    async def wait(self, done: concurrent.futures.Future[None]) -> None:
        """Wait, on the event loop, for a write asked with :meth:`save`."""
        await asyncio.wrap_future(done)

    def _next(self, urgent_only: bool) -> tuple[str, _Pending] | None:
        """The next table to write and what to write (taken out of the
        queue), waiting for one; ``None`` once closed and nothing is left."""
        with self._ready:
            while True:
                for lane in (self._urgent,) if urgent_only else (self._urgent, self._background):
                    while lane:
                        table_id = lane.popleft()
                        if table_id in self._writing or table_id not in self._pending:
                            continue  # its writer queues it again when done
                        self._writing.add(table_id)
                        return table_id, self._pending.pop(table_id)
                if self._closing and not self._pending:
                    return None
                self._ready.wait()

    def _work(self, urgent_only: bool) -> None:
        while (taken := self._next(urgent_only)) is not None:
            table_id, pending = taken
            error: BaseException | None = None
            try:
                if pending.delete:
                    pending.store.delete(table_id)
                else:
                    if pending.seating is not None:
                        pending.store.save_seating(table_id, pending.seating)
                    if pending.game is not None:
                        pending.store.save_game(table_id, pending.game)
            except Exception as failed:  # a full disk, say: told to whoever waits, or logged
                error = failed
                if not pending.urgent:
                    _log.error("table %s not saved: %s", table_id, str(failed)[:200])
            for done in pending.waiting:
                # One whose waiter was cancelled (a table stopping) is done already.
                with contextlib.suppress(concurrent.futures.InvalidStateError):
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
            with self._ready:
                self._writing.discard(table_id)
                later = self._pending.get(table_id)
                if later is not None:  # asked again while this write was under way
                    (self._urgent if later.urgent else self._background).append(table_id)
                self._ready.notify_all()

    def close(self) -> None:
        """Write everything asked so far, then stop the threads (on shutdown)."""
        with self._ready:
            self._closing = True
            self._ready.notify_all()
        for thread in self._threads:
            thread.join()


class Workers:
    """The server's threads: where the bots of tables with a person think
    (:attr:`Limits.person_bot_threads`), where every bot of the other tables
    thinks (:attr:`Limits.bot_threads`), and the :class:`RecordSaver`."""

    def __init__(self) -> None:
        self.person_bots = ThreadJobs(Limits.person_bot_threads, "web-table-person-bot")
        self.bots = ThreadJobs(Limits.bot_threads, "web-table-bot")
        self.saves = RecordSaver(Limits.person_save_threads, Limits.save_threads)

    def close(self) -> None:
        """Finish the writes asked for and stop every thread (on shutdown)."""
        self.person_bots.close()
        self.bots.close()
        self.saves.close()


# -- one table -----------------------------------------------------------------------

CLOSE_POLICY = 1008
"""Close code of a refusal the page should not retry (a bad link, a flood,
a seat opened in another tab)."""
CLOSE_TRY_LATER = 1013
"""Close code of a refusal for want of room; the page tries again, waiting longer each time."""


class Connection:
    """One open socket of one seat: the latest state is sent, older ones are skipped."""

    def __init__(self, socket: WebSocket, seat: sc.Seat | None, client: str = "") -> None:
        self.socket = socket
        self.seat = seat
        self.client = client
        """The client's address (connections are counted per address)."""
        self.opened = time.monotonic()
        self.errors: deque[str] = deque(maxlen=4)
        self.wake = asyncio.Event()
        self.stale = True
        self.allowance = Limits.burst
        self.checked_at = time.monotonic()
        self.strikes = 0.0
        self.struck_at = time.monotonic()
        self.closing: tuple[int, str] | None = None
        """The close code and the reason, once the server has decided to close it."""

    def notify(self) -> None:
        """The table changed: send the new state when the socket is free."""
        self.stale = True
        self.wake.set()

    def refuse(self, message: str) -> None:
        """Tell this client (only) that its message was refused."""
        self.errors.append(message)
        self.wake.set()

    def close(self, code: int, message: str) -> None:
        """Tell the client ``message`` and close the socket with ``code``."""
        if self.closing is None:
            self.closing = (code, message)
            self.wake.set()

    def within_rate(self) -> bool:
        """Spend one message from the token bucket; ``False`` when it is empty."""
        now = time.monotonic()
        self.allowance = min(Limits.burst, self.allowance + (now - self.checked_at) * Limits.rate)
        self.checked_at = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    def strike(self) -> bool:
        """Count a refused message against the connection (older ones count
        less and less); whether it has had too many."""
        now = time.monotonic()
        forgiven = (now - self.struck_at) * Limits.strikes_forgiven_per_second
        self.strikes = max(0.0, self.strikes - forgiven) + 1
        self.struck_at = now
        return self.strikes > Limits.strikes

    async def send_forever(self, table: Table) -> None:
        """Send refusals and the current state of ``table`` whenever there is
        news; close the socket when told to (this task is its one writer)."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.errors:
                await self.socket.send_json({"type": "error", "message": self.errors.popleft()})
            if self.closing is not None:
                code, message = self.closing
                await self.socket.send_json({"type": "error", "message": message})
                await self.socket.close(code=code)
                return
            if self.stale:
                self.stale = False
                await self.socket.send_json(table.state_for(self.seat))


class Table:
    """A game, its four seats and the sockets watching it.

    Every seat has a token (a secret link). A seat kept for a person waits for
    them; any other seat is played by its bot while nobody holding its token
    is connected, so a friend may take a bot's seat by opening its link.
    Once a hand is scored, the next is dealt when every person at the table
    has asked for it (right away when nobody is there to ask).
    """

    def __init__(
        self,
        table_id: str,
        game: sc.Game,
        seating: Mapping[str, Any],
        store: TableStore,
        bot_delay: float,
        workers: Workers | None = None,
    ) -> None:
        self.id = table_id
        self.game = game
        self.players: dict[sc.Seat, str] = {
            sc.Seat.parse(letter): kind for letter, kind in seating["players"].items()
        }
        self.tokens: dict[sc.Seat | None, str] = {
            None if key == WATCH else sc.Seat.parse(key): token
            for key, token in seating["tokens"].items()
        }
        self.coach_on: bool = bool(seating["coach"])
        self.claimed: bool = seating.get("claimed") is True
        """Whether anyone has opened one of the table's links (an unclaimed table expires soon)."""
        self.active_at = time.monotonic()
        """When someone last joined, left or acted (bots' moves do not count)."""
        self.bots = protocol.make_bots(self.players)
        self.asked: set[sc.Seat] = set()
        """Seats whose people asked for the next hand since the last deal."""
        self.store = store
        self.bot_delay = bot_delay
        self.workers = workers or Workers()
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.holders: Counter[sc.Seat | None] = Counter()
        """Open sockets per seat (kept apart so it can be read at any moment)."""
        self.driver: asyncio.Task[None] | None = None
        self._spectator_state: tuple[sc.Game, frozenset[sc.Seat], dict[str, Any]] | None = None

    def seating_json(self) -> dict[str, Any]:
        """The table's ``table.json``: who sits where, the links, the coach, whether claimed."""
        return {
            "players": {seat.letter: kind for seat, kind in self.players.items()},
            "tokens": {
                WATCH if seat is None else seat.letter: token for seat, token in self.tokens.items()
            },
            "coach": self.coach_on,
            "claimed": self.claimed,
        }

    def seat_of(self, token: str) -> tuple[bool, sc.Seat | None]:
        """Whether ``token`` belongs to this table (compared in constant time),
        and its seat (``None``: a spectator)."""
        found: tuple[bool, sc.Seat | None] = (False, None)
        for seat, secret in self.tokens.items():
            if secrets.compare_digest(secret.encode(), token.encode()):
                found = (True, seat)
        return found

    def occupied(self, seat: sc.Seat) -> bool:
        """Whether someone holding ``seat``'s token is connected."""
        return self.holders[seat] > 0

    def join(self, connection: Connection) -> bool:
        """A socket of a seat (or a spectator) opened; whether this is the
        first time any of the table's links was used."""
        self.connections.add(connection)
        self.holders[connection.seat] += 1
        self.active_at = time.monotonic()
        first = not self.claimed
        self.claimed = True
        self.notify_all()  # others see the seat taken
        return first

    def leave(self, connection: Connection) -> None:
        """A socket closed (or is being closed): the seat may be a bot's again."""
        if connection not in self.connections:
            return
        self.connections.discard(connection)
        self.holders[connection.seat] -= 1
        self.active_at = time.monotonic()
        self.notify_all()
        self.wake_driver()

    def expired(self, now: float) -> bool:
        """Whether the table is to be removed: nobody is connected, and nobody
        has joined or acted for longer than its kind of table is kept."""
        if self.connections:
            return False
        if not self.claimed:
            keep = Limits.unclaimed_table_seconds
        elif self.game.is_over:
            keep = Limits.finished_table_seconds
        else:
            keep = Limits.idle_table_seconds
        return now - self.active_at > keep

    def bot_for(self, seat: sc.Seat) -> sc.bots.Bot | None:
        """The bot playing ``seat`` now: none for a person's seat or a taken one."""
        return None if self.occupied(seat) else self.bots.get(seat)

    def waiting_for_next(self) -> list[sc.Seat]:
        """The seats whose people must still ask for the next hand."""
        present = [seat for seat in sc.Seat if self.occupied(seat)]
        return protocol.waiting_for_next(self.game, present, self.asked)

    # -- what a seat is told --------------------------------------------------

    def state_for(self, seat: sc.Seat | None) -> dict[str, Any]:
        """The message for ``seat`` (``None``: a spectator): its view, and
        nothing another seat holds."""
        online = frozenset(other for other in sc.Seat if self.occupied(other))
        if seat is None and self._spectator_state is not None:
            # Every spectator is told the same: built once per change, however many watch.
            game, was_online, state = self._spectator_state
            if game is self.game and was_online == online and not self.waiting_for_next():
                return state
        state = protocol.state_message(
            self.game,
            seat,
            players=self.players,
            online=online,
            coach_on=self.coach_on,
            waiting=self.waiting_for_next(),
        )
        state["table"] = self.id
        if seat == HOST_SEAT:
            state["invites"] = {
                WATCH if other is None else other.letter: token
                for other, token in self.tokens.items()
                if other != seat
            }
        if seat is None:
            self._spectator_state = (self.game, online, state)
        return state

    def notify_all(self) -> None:
        """Every socket gets the new state."""
        for connection in self.connections:
            connection.notify()

    # -- actions ----------------------------------------------------------------

    async def take(self, seat: sc.Seat | None, text: str) -> str | None:
        """Apply a player's message (JSON text) for ``seat``; the refusal, or ``None``."""
        try:
            action = protocol.read_message(text)
        except protocol.MessageError as error:
            return str(error)
        if seat is None:
            return "a spectator may not act"
        if action == protocol.NEXT_HAND:
            refusal = protocol.next_hand_refusal(self.game)
            if refusal is None and seat in self.asked:
                refusal = "you have asked for the next hand already"
            if refusal is None:
                self.asked.add(seat)
                self.active_at = time.monotonic()
                self.notify_all()  # the others see who is still to ask
        else:
            assert isinstance(action, sc.Action)
            try:
                async with self.lock:
                    game = self.game.apply(action, seat=seat)  # the engine checks the turn too
                    await self._commit(game, person=True)
            except sc.SpadesError as error:
                return str(error)
            self.active_at = time.monotonic()
            refusal = None
        if refusal is None:
            self.wake_driver()
        return refusal

    def people_here(self) -> bool:
        """Whether someone holding a seat's link is connected."""
        return any(self.holders[seat] > 0 for seat in sc.Seat)

    async def _commit(self, game: sc.Game, *, person: bool = False) -> None:
        """Make ``game`` the table's game and announce it. Hold the lock.

        At a table with a person (``person``: a person's own action) the
        record is saved first, by the urgent writers; elsewhere it is saved
        in the background, and the bots never wait for it."""
        saving = self.workers.saves.save(
            self.store, self.id, game=game, urgent=person or self.people_here()
        )
        if person or self.people_here():
            await self.workers.saves.wait(saving)
        self.game = game
        self.notify_all()

    # -- bots and dealing -------------------------------------------------------------

    def wake_driver(self) -> None:
        """Let the bots (and the dealer) move if it is their turn."""
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        try:
            await self._drive_until_a_person_acts()
        except asyncio.CancelledError:
            raise
        except Exception:  # a table's failure must not reach the others
            _log.exception("table %s stopped", self.id)

    async def _drive_until_a_person_acts(self) -> None:
        while True:
            game = self.game
            if game.is_over:
                return
            if game.phase is sc.Phase.DEAL:
                if self.waiting_for_next():
                    return  # their "next" (or leaving) wakes the driver again
                if not self.asked:
                    # Nobody to ask: a pause on the last trick, so watchers see it.
                    await asyncio.sleep(self.bot_delay * 2)
                async with self.lock:
                    # Someone may have sat down meanwhile, who has not seen the hand's end.
                    if self.game is game and not self.waiting_for_next():
                        self.asked.clear()
                        await self._commit(game.deal())
                continue
            seat = game.to_act
            bot = None if seat is None else self.bot_for(seat)
            if bot is None or seat is None:
                return  # a person's turn: their message (or leaving) wakes the driver again
            await asyncio.sleep(self.bot_delay)
            if not self.people_here():
                # Bots alone: the whole move in the bots' thread, which tables
                # with a person never wait behind; however many such tables
                # there are, they share that one thread.
                after = await self.workers.bots.run(partial(_bot_move, bot, game, seat))
            elif self.players[seat] == "hard":  # it searches for a while: in a thread of its own
                after = await self.workers.person_bots.run(partial(_bot_move, bot, game, seat))
            else:
                after = _bot_move(bot, game, seat)
            async with self.lock:
                # Someone may have taken the seat while the bot thought.
                if self.game is game and self.bot_for(seat) is bot:
                    await self._commit(after)


def _bot_move(bot: sc.bots.Bot, game: sc.Game, seat: sc.Seat) -> sc.Game:
    """``game`` after ``bot``'s move for ``seat``, chosen from that seat's view."""
    return game.apply(bot.choose(game.view(seat)), seat=seat)


class Variants:
    """The installed variants the server offers. Each is imported once, in a
    thread of its own and within :attr:`Limits.variant_load_seconds`: a plugin
    that fails or hangs at import is logged once and never offered, and
    neither holds up the server nor any request."""

    def __init__(self) -> None:
        self.loaded: dict[str, sc.Variant] = {}
        self.broken: dict[str, str] = {}
        """Why each variant that could not be loaded is not offered."""
        self._loading: dict[str, asyncio.Future[sc.Variant]] = {}
        self._catalogue: tuple[tuple[str, ...], dict[str, Any]] | None = None

    async def offered(self) -> list[str]:
        """The ids of the variants that loaded, trying each new one first."""
        ids = sc.available_variants()
        waiting = {
            variant_id: self._loading.get(variant_id) or self._start(variant_id)
            for variant_id in ids
            if variant_id not in self.loaded and variant_id not in self.broken
        }
        if waiting:
            await asyncio.wait(waiting.values(), timeout=Limits.variant_load_seconds)
        for variant_id, future in waiting.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                self.loaded[variant_id] = future.result()
            elif future.done() and not future.cancelled():
                self.broken[variant_id] = str(future.exception())
            else:
                self.broken[variant_id] = (
                    f"its plugin gave no answer within {Limits.variant_load_seconds:g} s "
                    "of starting to import"
                )
            if variant_id in self.broken:
                _log.warning("variant %s not offered: %s", variant_id, self.broken[variant_id])
            self._loading.pop(variant_id, None)
        return [variant_id for variant_id in ids if variant_id in self.loaded]

    def _start(self, variant_id: str) -> asyncio.Future[sc.Variant]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[sc.Variant] = loop.create_future()

        def settle(outcome: sc.Variant | Exception) -> None:
            if future.done():
                return
            if isinstance(outcome, Exception):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)

        def load() -> None:
            outcome: sc.Variant | Exception
            try:
                outcome = sc.load_variant(variant_id)
            except Exception as error:  # a SpadesError, or the registry's own failure
                outcome = error
            with contextlib.suppress(RuntimeError):  # the server stopped meanwhile
                loop.call_soon_threadsafe(settle, outcome)

        # A daemon thread: one stuck in a plugin's import never keeps the server from exiting.
        threading.Thread(target=load, name=f"web-table-import-{variant_id}", daemon=True).start()
        self._loading[variant_id] = future
        return future

    async def catalogue(self) -> dict[str, Any]:
        """Every variant offered with its options, and who may take a seat."""
        ids = tuple(await self.offered())
        if self._catalogue is None or self._catalogue[0] != ids:
            self._catalogue = (ids, protocol.catalogue(friends=True, variant_ids=ids))
        return self._catalogue[1]


def new_table_settings(body: object) -> tuple[sc.Game, dict[str, Any]]:
    """Check a start-page request and start its game; :class:`ValueError` says what is wrong."""
    settings = protocol.read_settings(body, friends=True)
    seating = settings.seating_json()
    seating["tokens"] = {key: secrets.token_urlsafe(16) for key in (*seating["players"], WATCH)}
    seating["claimed"] = False
    return settings.game, seating


def server_page() -> str:
    """The shared page, told that this server holds the tables.

    By itself the page runs the engine in a Web Worker (the web app); here it
    talks to the server over a WebSocket, and, served at ``/t/<id>`` too,
    finds its files from the root.
    """
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    if WORKER_MARK not in html:
        raise RuntimeError(f"{STATIC / 'index.html'} lacks {WORKER_MARK}")
    return html.replace(
        WORKER_MARK, '<base href="/"><meta name="spades-transport" content="server">', 1
    )


# -- the application -------------------------------------------------------------------


class Tables:
    """Every table the server holds, by id, and every socket open to them."""

    def __init__(self, store: TableStore, bot_delay: float) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.workers = Workers()
        self.variants = Variants()
        self.by_id: dict[str, Table] = {}
        self.opening = 0
        """Tables being opened (counted against the cap before they are saved)."""
        self.new_table_allowance: dict[str, tuple[float, float]] = {}
        """Per client address: tables it may still open at once, and when that was computed."""
        self.sockets: dict[str, list[Connection]] = {}
        """Open sockets per client address, oldest first."""
        self.socket_count = 0
        self.sweeper: asyncio.Task[None] | None = None

    # -- opening and expiring tables --------------------------------------------------

    async def restore(self) -> None:
        """Load every stored table that has not expired (the newest, up to the
        cap) and let its bots go on; remove the expired ones from disk."""
        offered = await self.variants.offered()
        stored = await asyncio.to_thread(self.store.load_all, offered)
        stored.sort(key=lambda found: found.touched, reverse=True)
        now, wall = time.monotonic(), time.time()
        for found in stored:
            try:
                table = Table(
                    found.id, found.game, found.seating, self.store, self.bot_delay, self.workers
                )
            except (KeyError, TypeError, AttributeError, ValueError, sc.SpadesError) as error:
                _log.warning("table %s not restored: bad seating (%s)", found.id, error)
                continue
            since = found.touched if table.claimed else found.opened
            table.active_at = now - max(0.0, wall - since)
            if table.expired(now):
                await self.workers.saves.wait(
                    self.workers.saves.save(self.store, found.id, delete=True)
                )
                continue
            if len(self.by_id) >= Limits.tables:
                _log.warning("table %s not restored: the server holds %d", found.id, Limits.tables)
                continue
            self.by_id[found.id] = table
            table.wake_driver()

    def may_open(self, client: str) -> float | None:
        """Spend one of ``client``'s new tables; ``None`` when it may open one,
        else the seconds until it may."""
        now = time.monotonic()
        allowance, at = self.new_table_allowance.get(client, (Limits.new_tables_burst, now))
        per_second = Limits.new_tables_per_minute / 60
        allowance = min(Limits.new_tables_burst, allowance + (now - at) * per_second)
        if allowance < 1:
            self.new_table_allowance[client] = (allowance, now)
            return (1 - allowance) / per_second
        self.new_table_allowance[client] = (allowance - 1, now)
        return None

    def reserve(self) -> bool:
        """Count a table about to be opened against :attr:`Limits.tables`;
        ``False`` when the server is full. Checked and counted in one step
        (no await between), so concurrent requests cannot overshoot the cap."""
        if len(self.by_id) + self.opening >= Limits.tables:
            return False
        self.opening += 1
        return True

    async def open(self, game: sc.Game, seating: dict[str, Any]) -> Table:
        """Store and start a new table, for which :meth:`reserve` made room."""
        try:
            table_id = secrets.token_urlsafe(9)
            # Someone waits for the table's link: written by the urgent writers.
            written = self.workers.saves.save(
                self.store, table_id, game=game, seating=seating, urgent=True
            )
            await self.workers.saves.wait(written)
            table = Table(table_id, game, seating, self.store, self.bot_delay, self.workers)
            self.by_id[table_id] = table
        finally:
            self.opening -= 1
        table.wake_driver()
        return table

    def get(self, table_id: str) -> Table | None:
        """The table of this id, if any."""
        return self.by_id.get(table_id) if _TABLE_ID.fullmatch(table_id) else None

    def presents_seat(self, scope: Mapping[str, Any]) -> bool:
        """Whether the request of the ASGI ``scope`` presents a seat's token of
        a table: in a seat's link (``/t/<table>?token=``, ``/ws/<table>?token=``)
        or in the :data:`SEAT_COOKIE` its page set. A spectator's token is not a seat's."""
        path = str(scope.get("path", ""))
        for prefix in ("/t/", "/ws/"):
            if path.startswith(prefix):
                query = bytes(scope.get("query_string", b"")).decode("latin-1")
                tokens = parse_qs(query, max_num_fields=8).get("token", [])
                if tokens and self._is_seat(path[len(prefix) :], tokens[0]):
                    return True
        for name, value in scope.get("headers", ()):
            if name == b"cookie":
                for part in value.decode("latin-1").split(";")[:32]:
                    key, _, pair = part.strip().partition("=")
                    table_id, _, token = pair.partition(".")
                    if key == SEAT_COOKIE and self._is_seat(table_id, token):
                        return True
        return False

    def _is_seat(self, table_id: str, token: str) -> bool:
        table = self.get(table_id)
        if table is None:
            return False
        known, seat = table.seat_of(token)
        return known and seat is not None

    async def sweep(self) -> None:
        """Remove the expired tables, from disk too, and forget the clients
        whose allowance of new tables is whole again."""
        now = time.monotonic()
        for table in [t for t in self.by_id.values() if t.expired(now)]:
            del self.by_id[table.id]
            if table.driver is not None:
                table.driver.cancel()
            await self.workers.saves.wait(
                self.workers.saves.save(self.store, table.id, delete=True)
            )
        per_second = Limits.new_tables_per_minute / 60
        for client, (allowance, at) in list(self.new_table_allowance.items()):
            if allowance + (now - at) * per_second >= Limits.new_tables_burst:
                del self.new_table_allowance[client]

    async def sweep_forever(self) -> None:
        """Sweep every :attr:`Limits.sweep_seconds` while the server runs."""
        while True:
            await asyncio.sleep(Limits.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # a full disk, say: the next sweep tries again
                _log.exception("removing expired tables failed")

    # -- sockets -------------------------------------------------------------------------

    def admit(self, table: Table, connection: Connection) -> str | None:
        """Make room for ``connection`` and count it, or say why it must wait.

        A seat's holder always gets in: a seat's oldest socket gives way to
        its new one, and where a client or the server is at its limit a
        spectator (of the busiest client first) gives way. A spectator is
        refused when there is no room. Done in one step (no await), so
        concurrent sockets cannot overshoot a limit."""
        seat = connection.seat
        if seat is None:
            if table.holders[None] >= Limits.spectators_per_table:
                return "this table has all the spectators it takes; trying again shortly"
        elif table.holders[seat] >= Limits.sockets_per_seat:
            same_seat = [c for c in table.connections if c.seat == seat]
            self.evict(min(same_seat, key=lambda c: c.opened), CLOSE_POLICY, OTHER_TAB)
        mine = self.sockets.get(connection.client, [])
        if len(mine) >= Limits.sockets_per_client:
            if seat is None:
                return "too many tables are open from your address; trying again shortly"
            self.evict(_first_to_go(mine), CLOSE_TRY_LATER, ROOM_FOR_A_SEAT)
        if self.socket_count >= socket_cap():
            if seat is None:
                return "the server is busy; trying again shortly"
            busiest = max(self.sockets.values(), key=len)
            self.evict(_first_to_go(busiest), CLOSE_TRY_LATER, ROOM_FOR_A_SEAT)
        self.sockets.setdefault(connection.client, []).append(connection)
        self.socket_count += 1
        return None

    def release(self, table: Table, connection: Connection) -> None:
        """``connection`` is closed or closing: it no longer counts."""
        table.leave(connection)
        mine = self.sockets.get(connection.client)
        if mine is None or connection not in mine:
            return
        mine.remove(connection)
        self.socket_count -= 1
        if not mine:
            del self.sockets[connection.client]

    def evict(self, connection: Connection, code: int, message: str) -> None:
        """Close ``connection`` to make room; its place is free at once."""
        for table in self.by_id.values():
            if connection in table.connections:
                self.release(table, connection)
                break
        else:
            mine = self.sockets.get(connection.client, [])
            if connection in mine:
                mine.remove(connection)
                self.socket_count -= 1
        connection.close(code, message)

    async def stop(self) -> None:
        """Stop every table's bots and the sweeper, then the threads (on shutdown)."""
        tasks = [t.driver for t in self.by_id.values() if t.driver is not None]
        if self.sweeper is not None:
            tasks.append(self.sweeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(self.workers.close)


OTHER_TAB = "this seat was opened in another tab or window"
ROOM_FOR_A_SEAT = "closed to make room for a player; trying again shortly"


def _first_to_go(connections: list[Connection]) -> Connection:
    """Of one client's sockets, the one closed to make room: its oldest
    spectator, else its oldest seat."""
    spectators = [c for c in connections if c.seat is None]
    return (spectators or connections)[0]


def _client_of(scope_client: Any) -> str:
    """The client's address, the key of its limits."""
    return str(scope_client.host) if scope_client is not None else "unknown"


async def _read_body(request: Request) -> bytes | None:
    """The request body, or ``None`` when it is larger than the limit."""
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > Limits.body_bytes:
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > Limits.body_bytes:
            return None
    return body


def create_app(data: Path, *, bot_delay: float = 0.6) -> Starlette:
    """The web table application, keeping its tables in the directory ``data``."""
    tables = Tables(TableStore(data), bot_delay)

    page = server_page()

    async def start_page(request: Request) -> Response:
        return HTMLResponse(page)

    async def table_page(request: Request) -> Response:
        table = tables.get(request.path_params["table_id"])
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        response = HTMLResponse(page)
        token = request.query_params.get("token", "")
        known, seat = table.seat_of(token)
        if known and seat is not None:
            # The page's other requests (its files, its socket) then come as the seat holder's.
            response.set_cookie(
                SEAT_COOKIE, f"{table.id}.{token}", path="/", httponly=True, samesite="strict"
            )
        return response

    async def variants(request: Request) -> Response:
        return JSONResponse(await tables.variants.catalogue())

    async def open_table(request: Request) -> Response:
        body = await _read_body(request)
        if body is None:
            return JSONResponse({"error": "request too large"}, status_code=413)
        wait = tables.may_open(_client_of(request.client))
        if wait is not None:
            return JSONResponse(
                {"error": f"too many new tables from your address; try again in {wait:.0f} s"},
                status_code=429,
                headers={"retry-after": str(math.ceil(wait))},
            )
        offered = await tables.variants.offered()
        try:
            settings = json.loads(body)
            chosen = settings.get("variant") if isinstance(settings, dict) else None
            if (
                isinstance(chosen, str)
                and chosen not in offered
                and chosen in tables.variants.broken
            ):
                raise ValueError(
                    f"variant {chosen!r} is not available: {tables.variants.broken[chosen]}"
                )
            game, seating = new_table_settings(settings)
        except (ValueError, RecursionError) as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        if not tables.reserve():
            return JSONResponse({"error": "the server is full; try later"}, status_code=503)
        table = await tables.open(game, seating)
        host = HOST_SEAT.letter if seating["players"][HOST_SEAT.letter] == PERSON else WATCH
        return JSONResponse(
            {"table": table.id, "url": f"/t/{table.id}?token={seating['tokens'][host]}"}
        )

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        table = tables.get(websocket.path_params["table_id"])
        token = websocket.query_params.get("token", "")
        known, seat = (False, None) if table is None else table.seat_of(token)
        if table is None or not known:
            await websocket.send_json({"type": "error", "message": "no such table or seat"})
            await websocket.close(code=CLOSE_POLICY)
            return
        connection = Connection(websocket, seat, _client_of(websocket.client))
        refusal = tables.admit(table, connection)
        if refusal is not None:
            await websocket.send_json({"type": "error", "message": refusal})
            await websocket.close(code=CLOSE_TRY_LATER)
            return
        if table.join(connection):
            saving = tables.workers.saves.save(
                tables.store, table.id, seating=table.seating_json(), urgent=True
            )
            await tables.workers.saves.wait(saving)
        sender = asyncio.get_running_loop().create_task(connection.send_forever(table))
        try:
            await _receive(websocket, table, connection, sender)
        finally:
            tables.release(table, connection)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await tables.restore()
        tables.sweeper = asyncio.get_running_loop().create_task(tables.sweep_forever())
        yield
        await tables.stop()

    guard = ConnectionGuard()
    app = Starlette(
        middleware=[Middleware(SeatHolders, tables=tables, guard=guard)],
        routes=[
            Route("/", start_page),
            Route("/t/{table_id}", table_page),
            Route("/api/variants", variants),
            Route("/api/tables", open_table, methods=["POST"]),
            WebSocketRoute("/ws/{table_id}", socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.tables = tables
    app.state.guard = guard
    return app


async def _receive(
    websocket: WebSocket, table: Table, connection: Connection, sender: asyncio.Task[None]
) -> None:
    """Read one client's messages until it leaves, refusing what is not allowed."""
    while not sender.done():
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        if connection.closing is not None:
            continue  # being closed: its messages are no longer read
        text = message.get("text")
        refusal = None
        if not connection.within_rate():
            refusal = "too many messages; wait a moment"
        elif text is None:
            refusal = "send text messages (JSON), not binary ones"
        elif len(text) > Limits.message_chars:
            refusal = f"a message may be at most {Limits.message_chars} characters"
        else:
            refusal = await table.take(connection.seat, text)
            if refusal is None:
                # A taken action is paced by the game itself; only refusals use up the rate.
                connection.allowance = min(Limits.burst, connection.allowance + 1)
        if refusal is not None:
            connection.refuse(refusal)
            if connection.strike():
                connection.close(CLOSE_POLICY, "too many refused messages; reload the page")


# -- connections -------------------------------------------------------------------------

UVICORN_WRITTEN_FOR = "0.55"
"""The uvicorn release (major.minor) :func:`guarded_http_protocol` was written
and tested for; ``tests/test_web_table_limits.py`` fails on any other, so
that the one hook into uvicorn's own classes is looked at again."""
SEAT_COOKIE = "spades_seat"
"""The cookie the page of a seat's link sets (``<table>.<token>``, HttpOnly,
same site only), so that the page's other requests come as its seat holder's."""


class _Link:
    """One open connection, as the :class:`ConnectionGuard` knows it."""

    __slots__ = ("address", "holder", "key", "served", "timer", "transport", "young")

    def __init__(self, key: tuple[str, int], transport: asyncio.Transport) -> None:
        self.key = key
        self.address = key[0]
        self.transport = transport
        self.holder = False
        """Whether one of its requests presented a seat's token (of a link or the cookie)."""
        self.served = False
        """Whether a request of it has reached the application."""
        self.young = True
        """Whether it is still within its time for a first request
        (:attr:`Limits.first_request_seconds`), not yet read."""
        self.timer: asyncio.TimerHandle | None = None


class ConnectionGuard:
    """Every open connection of the server, and which to close when there are too many.

    Every connection is accepted, and has :attr:`Limits.first_request_seconds`
    to send its first request. It is *anonymous* until a request of it
    presents a valid seat's token (in a seat's link, or the page's
    :data:`SEAT_COOKIE`), which the application tells (:class:`SeatHolders`,
    an ASGI middleware); from then on it is a seat holder's, and no number
    of anonymous connections closes it.

    Past :func:`connection_cap` open connections, the newest closes an
    anonymous connection that has had its time: the oldest of the address
    holding the most such connections; of addresses holding equally many,
    the one that has held that many longest, and never the newcomer's own
    address when another holds as many (a tie never refuses a newcomer).
    Only when no anonymous connection has had its time does the oldest
    connection still waiting for its first request close; the newcomer
    itself, only when every other connection is a seat holder's. An address
    past :attr:`Limits.connections_per_client` anonymous connections closes
    its own oldest. A connection that sends no request is closed after
    :attr:`Limits.quiet_connection_seconds`.

    So a seat holder always gets in, however many addresses fill the server
    with connections of their own: a page's connections (all at once from
    one address) are the newest there are while their requests are read,
    and seat holders' once they are.
    """

    def __init__(self, cap: Callable[[], int] = lambda: connection_cap()) -> None:
        self._cap = cap
        self._links: dict[tuple[str, int], _Link] = {}
        self._young: dict[_Link, None] = {}
        """Connections waiting for their first request, oldest first."""
        self._anonymous: dict[str, dict[_Link, None]] = {}
        """Per address, its anonymous connections (waiting or not), oldest first."""
        self._settled: dict[str, dict[_Link, None]] = {}
        """Per address, its anonymous connections that have had their time, oldest first."""
        self._by_count: dict[int, dict[str, None]] = {}
        """Addresses by their number of settled connections, in the order they came to it."""
        self._most = 0
        self._unknown = 0

    def __len__(self) -> int:
        return len(self._links)

    def anonymous(self, address: str) -> int:
        """How many anonymous connections ``address`` holds."""
        return len(self._anonymous.get(address, ()))

    def holders(self) -> int:
        """How many connections are seat holders'."""
        return sum(link.holder for link in self._links.values())

    def accepted(self, transport: asyncio.Transport) -> None:
        """A connection was accepted: count it, and close one if there are too many."""
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and len(peer) >= 2:
            key = (str(peer[0]), int(peer[1]))
        else:  # a socket without an address: each is an address of its own
            self._unknown += 1
            key = (f"unknown-{self._unknown}", 0)
        stale = self._links.get(key)
        if stale is not None:  # its earlier connection closed unheard (an upgraded socket)
            self._forget(stale)
        link = _Link(key, transport)
        self._links[key] = link
        self._young[link] = None
        mine = self._anonymous.setdefault(link.address, {})
        mine[link] = None
        if len(mine) > Limits.connections_per_client:
            self._close(next(iter(mine)))
        while len(self._links) > self._cap():
            victim = self._victim(link)
            if victim is None:
                _log.warning("a connection was refused: every connection is a seat holder's")
                self._close(link)
                return
            self._close(victim)
        link.timer = asyncio.get_running_loop().call_later(
            Limits.first_request_seconds, self._first_request_due, link
        )

    def served(self, client: object, *, holder: bool) -> None:
        """A request of the connection from ``client`` (the ASGI scope's) reached
        the application; ``holder``: it presented a seat's token."""
        link = self._links.get(_key(client))
        if link is None or link.holder:
            return
        link.served = True
        if link.timer is not None:
            link.timer.cancel()
            link.timer = None
        if holder:
            self._leave_anonymous(link)
            link.holder = True
        elif link.young:
            self._settle(link)

    def lost(self, transport: asyncio.BaseTransport) -> None:
        """The connection of ``transport`` closed."""
        link = self._links.get(_key(transport.get_extra_info("peername")))
        if link is not None and link.transport is transport:
            self._forget(link)

    def closed(self, client: object) -> None:
        """The WebSocket of ``client`` ended (the application said so: after
        the upgrade uvicorn's HTTP protocol hears no more of it)."""
        link = self._links.get(_key(client))
        if link is not None:
            self._forget(link)

    def _victim(self, newcomer: _Link) -> _Link | None:
        """The connection to close for ``newcomer`` (see the class's documentation)."""
        while self._most > 0:
            addresses = self._by_count[self._most]
            chosen = next((a for a in addresses if a != newcomer.address), newcomer.address)
            victim = next(iter(self._settled[chosen]))
            if not victim.transport.is_closing():
                return victim
            self._forget(victim)  # closing already: it makes room by itself
            if len(self._links) <= self._cap():
                return None
        for waiting in self._young:
            if waiting is not newcomer:
                return waiting
        return None

    def _first_request_due(self, link: _Link) -> None:
        """``link`` has had its time for a first request: it counts with its address's."""
        if self._links.get(link.key) is not link or link.served:
            return
        self._settle(link)
        link.timer = asyncio.get_running_loop().call_later(
            max(0.0, Limits.quiet_connection_seconds - Limits.first_request_seconds),
            self._quiet,
            link,
        )

    def _quiet(self, link: _Link) -> None:
        if not link.served and self._links.get(link.key) is link:
            self._close(link)

    def _close(self, link: _Link) -> None:
        self._forget(link)
        link.transport.abort()

    def _forget(self, link: _Link) -> None:
        if self._links.get(link.key) is not link:
            return
        del self._links[link.key]
        if not link.holder:
            self._leave_anonymous(link)
        if link.timer is not None:
            link.timer.cancel()
            link.timer = None

    def _settle(self, link: _Link) -> None:
        """A young anonymous connection joins its address's settled ones."""
        self._young.pop(link, None)
        link.young = False
        settled = self._settled.setdefault(link.address, {})
        self._recount(link.address, len(settled), len(settled) + 1)
        settled[link] = None

    def _leave_anonymous(self, link: _Link) -> None:
        """``link`` is anonymous no more (a seat holder's, or closed)."""
        address = link.address
        if link.young:
            self._young.pop(link, None)
        else:
            settled = self._settled[address]
            if settled.pop(link, False) is None:
                self._recount(address, len(settled) + 1, len(settled))
            if not settled:
                del self._settled[address]
        mine = self._anonymous.get(address)
        if mine is not None:
            mine.pop(link, None)
            if not mine:
                del self._anonymous[address]

    def _recount(self, address: str, before: int, after: int) -> None:
        """Move ``address`` from the addresses settled ``before`` times to ``after``."""
        if before:
            self._by_count[before].pop(address, None)
            if not self._by_count[before]:
                del self._by_count[before]
        if after:
            self._by_count.setdefault(after, {})[address] = None
        self._most = max(self._most, after)
        while self._most and self._most not in self._by_count:
            self._most -= 1


def _key(client: object) -> tuple[str, int]:
    """The key of a connection from its peer address (asyncio's or the ASGI scope's)."""
    if isinstance(client, tuple | list) and len(client) >= 2:
        with contextlib.suppress(TypeError, ValueError):
            return (str(client[0]), int(client[1]))
    return ("", -1)


class SeatHolders:
    """ASGI middleware in front of the application: tells the
    :class:`ConnectionGuard` which connections are seat holders' as soon as
    their requests are read, and puts ``Referrer-Policy: no-referrer`` on
    every response, so that the tokens in the links never travel in a
    ``Referer`` header."""

    def __init__(self, app: Any, tables: Tables, guard: ConnectionGuard) -> None:
        self.app = app
        self.tables = tables
        self.guard = guard

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        self.guard.served(client, holder=self.tables.presents_seat(scope))
        if kind == "websocket":
            try:
                await self.app(scope, receive, send)
            finally:
                self.guard.closed(client)
            return

        async def send_with_policy(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), (b"referrer-policy", b"no-referrer")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_policy)


def guarded_http_protocol(guard: ConnectionGuard) -> type[Any]:
    """uvicorn's HTTP/1.1 protocol, telling ``guard`` of every connection
    as it is accepted and as it closes.

    The one hook into uvicorn's own classes (the rest goes through its
    documented settings, :func:`uvicorn_config`, and the ASGI interface):
    it overrides only ``connection_made`` and ``connection_lost``, asyncio's
    ``Protocol`` interface, and reads nothing of uvicorn's. Written for
    uvicorn :data:`UVICORN_WRITTEN_FOR`; a test fails on another release."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        """uvicorn's HTTP/1.1 protocol, counted by the :class:`ConnectionGuard`."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            # Kept under a name of this class's own, none of uvicorn's.
            self.__transport = transport
            super().connection_made(transport)
            guard.accepted(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            guard.lost(self.__transport)

    return GuardedH11Protocol


def uvicorn_config(app: Starlette, host: str, port: int) -> Any:
    """The uvicorn configuration the server runs with: its limits through
    uvicorn's documented settings, and the :class:`ConnectionGuard` of ``app``."""
    import uvicorn

    if not uvicorn.__version__.startswith(UVICORN_WRITTEN_FOR + "."):
        _log.warning(
            "the connection limits were written for uvicorn %s; this is uvicorn %s",
            UVICORN_WRITTEN_FOR,
            uvicorn.__version__,
        )
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_http_protocol(app.state.guard),
        ws_max_size=Limits.message_chars * 4,
        timeout_keep_alive=Limits.keep_alive_seconds,
        # A backstop only: the guard keeps the connections under the cap.
        limit_concurrency=connection_cap() + Limits.spare_files // 2,
        h11_max_incomplete_event_size=Limits.body_bytes,
        # The address a limit counts is the connection's own: a forwarded
        # header is anyone's to write, and the guard knows connections by it.
        proxy_headers=False,
        log_level="warning",  # no access log: the links' tokens are never written down
        log_config=None,  # the records go to the root logger, through RepeatedLogFilter
    )


def configure_logging() -> None:
    """Log to stderr, each kind of record at most :attr:`Limits.log_repeats`
    times a minute (asyncio's and uvicorn's too)."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(RepeatedLogFilter())


def main(argv: list[str] | None = None) -> int:
    """Run the web table with uvicorn."""
    import uvicorn

    parser = argparse.ArgumentParser(description="A multiplayer Spades table in the browser.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data", type=Path, default=Path("build/web_tables"))
    parser.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits")
    args = parser.parse_args(argv)
    if args.bot_delay < 0:
        parser.error("--bot-delay may not be negative")
    configure_logging()
    # The bots think in a thread of their own. With CPython's default 5 ms
    # switch interval the event loop, which gives the lock up at every socket
    # wait, waits up to 5 ms to get it back each time; a shorter interval keeps
    # people's actions answered while bots think.
    sys.setswitchinterval(BOT_THREAD_SWITCH_SECONDS)
    app = create_app(args.data, bot_delay=args.bot_delay)
    print(f"Web table: open http://{args.host}:{args.port}/  (tables are kept in {args.data})")
    uvicorn.Server(uvicorn_config(app, args.host, args.port)).run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
