"""A multiplayer Spades table in the browser, built on spades-core's public API.

Starlette serves a start page, a table page and one WebSocket per player;
uvicorn runs it::

    python examples/web_table/server.py --port 8000 --data build/web_tables

Each table is one :class:`spades_core.Game`. Every message a player receives
is built from ``game.view(seat)`` for that player's seat, so no other hand and
no seed ever leaves the server. Seats without a person are played by the
library's bots; the coach's tip comes from :func:`spades_core.tips.coach`. Tables
are saved as game records (:func:`spades_core.dumps`) after every action and
loaded back (:func:`spades_core.loads`) when the server starts again.

What a seat is told and what a player may send is ``table_protocol.py``,
which the browser app runs too; this module adds the network, the limits,
the links and the files.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import re
import secrets
import tempfile
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import spades_core as sc
import table_protocol as protocol
from table_protocol import HOST_SEAT, PERSON

__all__ = ["Limits", "Table", "TableStore", "create_app", "main"]

STATIC = Path(__file__).resolve().with_name("static")
"""The page, shared with the web app (examples/web_app)."""
WORKER_MARK = '<meta name="spades-transport" content="worker">'
"""How the shared page says it runs the engine itself; this server tells it otherwise."""
WATCH = "watch"
"""The key of a table's spectator token (its view shows no hand)."""
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")
_log = logging.getLogger("web_table")


class Limits:
    """What one client may ask of the server; bounded so no client can starve the others."""

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
    """Refused messages (too big, too fast, malformed) before the connection is closed."""
    tables = 500
    """Tables the server holds."""
    connections_per_table = 16
    """Open sockets per table (a few per seat for reloads and second tabs)."""


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
        """Write the table's seating (written once, after its first record)."""
        self.write(f"{table_id}.table.json", json.dumps(seating, indent=1))

    def load_all(self) -> list[tuple[str, dict[str, Any], sc.Game]]:
        """Every table stored, as (id, seating, game); unreadable ones are logged and skipped."""
        found = []
        for path in sorted(self.directory.glob("*.table.json")):
            table_id = path.name.removesuffix(".table.json")
            if not _TABLE_ID.fullmatch(table_id):
                continue
            try:
                seating = json.loads(path.read_text(encoding="utf-8"))
                record = (self.directory / f"{table_id}.record.json").read_text(encoding="utf-8")
                game = sc.loads(record)
            except (OSError, ValueError, sc.SpadesError) as error:
                _log.warning("table %s not restored: %s", table_id, error)
                continue
            found.append((table_id, seating, game))
        return found


# -- one table -----------------------------------------------------------------------


class Connection:
    """One open socket of one seat: the latest state is sent, older ones are skipped."""

    def __init__(self, socket: WebSocket, seat: sc.Seat | None) -> None:
        self.socket = socket
        self.seat = seat
        self.errors: deque[str] = deque(maxlen=4)
        self.wake = asyncio.Event()
        self.stale = True
        self.allowance = Limits.burst
        self.checked_at = time.monotonic()
        self.strikes = 0

    def notify(self) -> None:
        """The table changed: send the new state when the socket is free."""
        self.stale = True
        self.wake.set()

    def refuse(self, message: str) -> None:
        """Tell this client (only) that its message was refused."""
        self.errors.append(message)
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

    async def send_forever(self, table: Table) -> None:
        """Send refusals and the current state of ``table`` whenever there is news."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.errors:
                await self.socket.send_json({"type": "error", "message": self.errors.popleft()})
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
        self.bots = protocol.make_bots(self.players)
        self.asked: set[sc.Seat] = set()
        """Seats whose people asked for the next hand since the last deal."""
        self.store = store
        self.bot_delay = bot_delay
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.holders: Counter[sc.Seat | None] = Counter()
        """Open sockets per seat (kept apart so it can be read at any moment)."""
        self.driver: asyncio.Task[None] | None = None

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

    def join(self, connection: Connection) -> None:
        """A socket of a seat (or a spectator) opened."""
        self.connections.add(connection)
        self.holders[connection.seat] += 1
        self.notify_all()  # others see the seat taken

    def leave(self, connection: Connection) -> None:
        """A socket closed: the seat may be a bot's again."""
        self.connections.discard(connection)
        self.holders[connection.seat] -= 1
        self.notify_all()
        self.wake_driver()

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
        state = protocol.state_message(
            self.game,
            seat,
            players=self.players,
            online=[other for other in sc.Seat if self.occupied(other)],
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
                self.notify_all()  # the others see who is still to ask
        else:
            assert isinstance(action, sc.Action)
            try:
                async with self.lock:
                    game = self.game.apply(action, seat=seat)  # the engine checks the turn too
                    await self._commit(game)
            except sc.SpadesError as error:
                return str(error)
            refusal = None
        if refusal is None:
            self.wake_driver()
        return refusal

    async def _commit(self, game: sc.Game) -> None:
        """Make ``game`` the table's game: saved first, then announced. Hold the lock."""
        await asyncio.to_thread(self.store.save_game, self.id, game)
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
            view = game.view(seat)
            if self.players[seat] == "hard":  # it searches for a while: keep the server responsive
                action = await asyncio.to_thread(bot.choose, view)
            else:
                action = bot.choose(view)
            async with self.lock:
                # Someone may have taken the seat while the bot thought.
                if self.game is game and self.bot_for(seat) is bot:
                    await self._commit(game.apply(action, seat=seat))


def catalogue() -> dict[str, Any]:
    """Every installed variant (plugins too) with its options, and who may take a seat."""
    return protocol.catalogue(friends=True)


def new_table_settings(body: object) -> tuple[sc.Game, dict[str, Any]]:
    """Check a start-page request and start its game; :class:`ValueError` says what is wrong."""
    settings = protocol.read_settings(body, friends=True)
    seating = settings.seating_json()
    seating["tokens"] = {key: secrets.token_urlsafe(16) for key in (*seating["players"], WATCH)}
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
    """Every table the server holds, by id."""

    def __init__(self, store: TableStore, bot_delay: float) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.by_id: dict[str, Table] = {}

    def restore(self) -> None:
        """Load every stored table and let its bots go on."""
        for table_id, seating, game in self.store.load_all():
            try:
                table = Table(table_id, game, seating, self.store, self.bot_delay)
            except (KeyError, TypeError, AttributeError, ValueError, sc.SpadesError) as error:
                _log.warning("table %s not restored: bad seating (%s)", table_id, error)
                continue
            self.by_id[table_id] = table
            table.wake_driver()

    async def open(self, game: sc.Game, seating: dict[str, Any]) -> Table:
        """Store and start a new table."""
        table_id = secrets.token_urlsafe(9)
        await asyncio.to_thread(self.store.save_game, table_id, game)
        await asyncio.to_thread(self.store.save_seating, table_id, seating)
        table = Table(table_id, game, seating, self.store, self.bot_delay)
        self.by_id[table_id] = table
        table.wake_driver()
        return table

    def get(self, table_id: str) -> Table | None:
        """The table of this id, if any."""
        return self.by_id.get(table_id) if _TABLE_ID.fullmatch(table_id) else None

    async def stop(self) -> None:
        """Stop every table's bots (on shutdown)."""
        drivers = [t.driver for t in self.by_id.values() if t.driver is not None]
        for driver in drivers:
            driver.cancel()
        await asyncio.gather(*drivers, return_exceptions=True)


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
        if tables.get(request.path_params["table_id"]) is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        return HTMLResponse(page)

    async def variants(request: Request) -> Response:
        return JSONResponse(catalogue())

    async def open_table(request: Request) -> Response:
        body = await _read_body(request)
        if body is None:
            return JSONResponse({"error": "request too large"}, status_code=413)
        if len(tables.by_id) >= Limits.tables:
            return JSONResponse({"error": "the server is full; try later"}, status_code=503)
        try:
            game, seating = new_table_settings(json.loads(body))
        except (ValueError, RecursionError) as error:
            return JSONResponse({"error": str(error)}, status_code=400)
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
            await websocket.close(code=1008)
            return
        if len(table.connections) >= Limits.connections_per_table:
            await websocket.send_json({"type": "error", "message": "too many open tabs"})
            await websocket.close(code=1008)
            return
        connection = Connection(websocket, seat)
        table.join(connection)
        sender = asyncio.get_running_loop().create_task(connection.send_forever(table))
        try:
            await _receive(websocket, table, connection, sender)
        finally:
            table.leave(connection)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tables.restore()
        yield
        await tables.stop()

    app = Starlette(
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
            connection.strikes += 1
            connection.refuse(refusal)
            if connection.strikes > Limits.strikes:
                await websocket.close(code=1008)
                return


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
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    app = create_app(args.data, bot_delay=args.bot_delay)
    print(f"Web table: open http://{args.host}:{args.port}/  (tables are kept in {args.data})")
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=Limits.message_chars * 4,
        log_level="warning",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
