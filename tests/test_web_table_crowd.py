"""A seat holder always gets in, however many addresses crowd the server.

The server runs as its own process under ``ulimit -n 1024`` (832
connections at most). First 900 loopback addresses hold one connection
each, then 150 addresses hold six each: more than the server keeps, every
address as busy as every other, each connection opened again a tenth of a
second after the server closes it. Meanwhile a person loads their seat's
page the way a browser does (the page, then its files on five connections
of their own, then the WebSocket), plays, and reloads the page three times:
every load must load, and every action be acknowledged within a second.
Bounded in count and time: well under a minute.

The one second is the server's promise to a person, not a speed measurement
of the library.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from websockets.sync.client import ClientConnection, connect

from web_table_support import FILE_LIMIT, Watch, room_for_connections, server_process

pytestmark = pytest.mark.integration("web")

ACK_SECONDS = 1.0
PERSON = "127.0.0.1"
FILES = ("/static/style.css", "/static/page.js", "/static/transports.js", "/static/icon.svg")
"""What the page asks for once it has loaded, besides ``/api/variants``."""
RECONNECT_SECONDS = 0.1
"""How long an attacker waits before opening again a connection the server closed."""


class Crowd:
    """Attackers, each from its own address, each holding connections that
    send nothing and are opened again when the server closes them."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.stats: Counter[str] = Counter()
        self.open: set[asyncio.StreamWriter] = set()
        self.tasks: list[asyncio.Task[None]] = []

    def start(self, addresses: list[str], each: int) -> None:
        for address in addresses:
            self.tasks += [asyncio.ensure_future(self._hold(address)) for _ in range(each)]

    async def _hold(self, address: str) -> None:
        while True:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(address, 0)
                )
            except OSError:
                self.stats["failed to open"] += 1
                await asyncio.sleep(RECONNECT_SECONDS)
                continue
            self.stats["opened"] += 1
            self.open.add(writer)
            try:
                await reader.read(1)  # until the server closes it
            except OSError:
                pass
            finally:
                self.open.discard(writer)
                writer.transport.abort()
            self.stats["closed by the server"] += 1
            await asyncio.sleep(RECONNECT_SECONDS)

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks.clear()
        for writer in list(self.open):
            writer.transport.abort()
        self.open.clear()
        await asyncio.sleep(0)  # the aborted transports close their sockets


def addresses(second: int, count: int) -> list[str]:
    """``count`` loopback addresses 127.<second>.x.y (every 127.x.y.z is this machine)."""
    return [f"127.{second}.{n // 250}.{n % 250 + 1}" for n in range(count)]


# -- the person, in a thread of their own (as a browser would be) ----------------------


def bound_socket(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(PERSON, 0))


def fetch(port: int, path: str, cookie: str) -> tuple[str, int]:
    """GET ``path`` on a connection of its own, as a browser fetches a page's files."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.sock = bound_socket(port)
    try:
        connection.request("GET", path, headers={"cookie": cookie})
        response = connection.getresponse()
        response.read()
        return path, response.status
    except OSError:
        return path, -1
    finally:
        connection.close()


class Person:
    """The holder of South's link: loads the page, plays, reloads."""

    def __init__(self, port: int, table: str, token: str) -> None:
        self.port = port
        self.table = table
        self.token = token
        self.loads: list[dict[str, object]] = []
        self.acks: list[float] = []
        self.socket: ClientConnection | None = None
        self.state: dict[str, Any] = {}

    def load(self) -> None:
        """Load the page as a browser does; record what came back."""
        if self.socket is not None:
            self.socket.close()  # a reload closes the page's socket
            self.socket = None
        outcome: dict[str, object] = {}
        page = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            page.sock = bound_socket(self.port)
            page.request("GET", f"/t/{self.table}?token={self.token}")
            response = page.getresponse()
            response.read()
            outcome["page"] = response.status
            cookie = (response.getheader("set-cookie") or "").split(";", 1)[0]
            outcome["cookie"] = bool(cookie)
            outcome["referrer-policy"] = response.getheader("referrer-policy")
            # The page's files, each on a connection of its own, all at once.
            with ThreadPoolExecutor(len(FILES) + 1) as pool:
                files = list(
                    pool.map(lambda path: fetch(self.port, path, cookie), [*FILES, "/api/variants"])
                )
            outcome["files"] = dict(files)
            # The same connection again for a file (keep-alive, as a browser reuses it).
            page.request("GET", FILES[1], headers={"cookie": cookie})
            again = page.getresponse()
            again.read()
            outcome["again"] = again.status
            self.socket = connect(
                f"ws://127.0.0.1:{self.port}/ws/{self.table}?token={self.token}",
                sock=bound_socket(self.port),
                additional_headers={"cookie": cookie},
                open_timeout=10,
            ).__enter__()
            self.state = self.receive()
            outcome["socket"] = self.state["seat"]
        except Exception as error:  # recorded: the test says what failed
            outcome["error"] = f"{type(error).__name__}: {error}"
            if self.socket is not None:
                self.socket.close()
                self.socket = None
        finally:
            page.close()
        self.loads.append(outcome)

    def receive(self) -> dict[str, Any]:
        assert self.socket is not None
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=30))
        assert message["type"] == "state", message
        return message

    def play(self, actions: int) -> None:
        """Take ``actions`` actions, each timed from sending it to the state that shows it."""
        assert self.socket is not None, f"the page did not load: {self.loads[-1]}"
        deadline = time.monotonic() + 60
        taken = 0
        state = self.state
        while taken < actions:
            assert time.monotonic() < deadline, f"the person could act only {taken} times"
            if state["phase"] == "DEAL" and state["waiting_for_next"] == ["S"]:
                self.socket.send(json.dumps({"type": "next"}))
                state = self.receive()
                continue
            if state["to_act"] != "S" or not state["legal_actions"]:
                state = self.receive()
                continue
            action = state["legal_actions"][0]
            message = (
                {"type": "bid", "value": action}
                if isinstance(action, int)
                else {"type": "play", "card": action}
            )
            before = progress(state)
            sent = time.monotonic()
            self.socket.send(json.dumps(message))
            state = self.receive()
            while progress(state) == before:
                state = self.receive()
            self.acks.append(time.monotonic() - sent)
            taken += 1
        self.state = state

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()


def progress(state: dict[str, Any]) -> tuple[object, ...]:
    return (state["hand_number"], state["phase"], state["bids"]["S"], len(state["hand"]))


def loaded(outcome: dict[str, object]) -> bool:
    files = outcome.get("files")
    return (
        "error" not in outcome
        and outcome.get("page") == 200
        and outcome.get("again") == 200
        and outcome.get("socket") == "S"
        and isinstance(files, dict)
        and set(files.values()) == {200}
    )


async def in_thread(call: Any) -> None:
    """Run ``call`` in a thread of its own, away from the attackers' event loop."""
    await asyncio.wait_for(asyncio.to_thread(call), 120)


async def crowd_and_play(port: int, person: Person) -> tuple[Crowd, list[int]]:
    crowd = Crowd(port)
    held: list[int] = []
    started = time.monotonic()

    async def stage(
        name: str, crowds: list[tuple[int, int, int]], loads: int, actions: int
    ) -> None:
        await crowd.stop()
        for second, count, each in crowds:
            crowd.start(addresses(second, count), each)
        await asyncio.sleep(4)
        held.append(len(crowd.open))
        for _ in range(loads):
            await in_thread(person.load)
            # Printed for a failure's report: when, how crowded, what came back.
            print(f"{time.monotonic() - started:.1f} s {name}: {held[-1]} held, {person.loads[-1]}")
            await in_thread(lambda: person.play(actions))

    try:
        # 900 addresses, one connection each: more than the server keeps. The
        # person loads the page, plays, reloads it and plays on...
        await stage("900 addresses, one each", [(1, 900, 1)], 2, 3)
        # ...then 150 addresses, six connections each, while they reload twice more.
        await stage("150 addresses, six each", [(2, 150, 6)], 2, 3)
    finally:
        await crowd.stop()
        person.close()
    return crowd, held


def test_crowds_of_addresses_never_keep_a_seat_holder_out(tmp_path: Path) -> None:
    with room_for_connections(3000), server_process(tmp_path, bot_delay=0.2) as (port, server, log):
        body = json.dumps(
            {"variant": "classic", "players": {"N": "easy", "E": "easy", "W": "easy"}}
        )
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("POST", "/api/tables", body, {"content-type": "application/json"})
        url = json.loads(connection.getresponse().read())["url"]
        connection.close()
        parts = urlsplit(url)
        person = Person(port, parts.path.rsplit("/", 1)[-1], parse_qs(parts.query)["token"][0])
        watch = Watch(server.pid)
        crowd, held = asyncio.run(crowd_and_play(port, person))
        watch.stop.set()
        assert server.poll() is None, log.read_text()[-3000:]
    # The crowds filled the server: it kept what its file limit allows and closed the rest.
    assert watch.most_files > 780, watch.most_files
    assert watch.most_files < FILE_LIMIT - 64, watch.most_files
    assert crowd.stats["closed by the server"] > 100, crowd.stats
    assert all(count > 700 for count in held), held
    # Every load of the page loaded, and every action was acknowledged within a second.
    assert len(person.loads) == 4
    assert all(loaded(outcome) for outcome in person.loads), person.loads
    assert all(outcome["referrer-policy"] == "no-referrer" for outcome in person.loads)
    assert all(outcome["cookie"] for outcome in person.loads)
    assert len(person.acks) == 12
    assert max(person.acks) < ACK_SECONDS, person.acks
    text = log.read_text()
    assert "Too many open files" not in text
    assert len(text) < 64_000, text[-3000:]
    print(
        f"\nacks {[round(a, 3) for a in person.acks]}; connections held by the crowd {held}; "
        f"most open files {watch.most_files}; crowd {dict(crowd.stats)}"
    )
