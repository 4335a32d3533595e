"""The web table's limits, each against the abuse it stops: spectators
cannot lock a seat's holder out, table creation is rate-limited and capped
exactly, tables expire (on disk too), bots think in threads of their own,
sockets and connections are capped per client and server-wide, refusal
strikes decay, a bad ``table.json`` or a hanging plugin does not stop the
server, and a flood of one error is logged a few times, then counted."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import socket
import sys
import textwrap
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import spades_core as sc
from registry_isolation import registry_restored
from web_table_support import running_server, server

pytestmark = pytest.mark.integration("web")

EASY_BOTS = {"N": "easy", "E": "easy", "W": "easy"}
WAIT = 30.0


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "tables"


@pytest.fixture
def client(data: Path) -> Iterator[TestClient]:
    with TestClient(server.create_app(data, bot_delay=0)) as test_client:
        yield test_client


def open_table(client: TestClient, players: dict[str, str] = EASY_BOTS) -> tuple[str, str]:
    """Open a classic table; its id and the host's token."""
    response = client.post("/api/tables", json={"variant": "classic", "players": players})
    assert response.status_code == 200, response.text
    parts = urlsplit(response.json()["url"])
    return parts.path.rsplit("/", 1)[-1], parse_qs(parts.query)["token"][0]


def tables_of(client: TestClient) -> Any:
    return client.app.state.tables  # type: ignore[attr-defined]


def first_message(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = ws.receive_json()
    return message


def closed_with(ws: Any) -> int:
    """Read until the server closes ``ws``; its close code."""
    while True:
        try:
            ws.receive_json()
        except WebSocketDisconnect as closed:
            code: int = closed.code
            return code


# -- spectators and seats -------------------------------------------------------------


def test_spectators_filling_a_table_never_lock_a_seats_holder_out(client: TestClient) -> None:
    table_id, host_token = open_table(client)
    table = tables_of(client).by_id[table_id]
    watch = table.tokens[None]
    opened = []
    refusals = []
    try:
        for _ in range(20):  # more than any table takes
            ws = client.websocket_connect(f"/ws/{table_id}?token={watch}").__enter__()
            opened.append(ws)
            message = first_message(ws)
            if message["type"] != "state":
                refusals.append((message["message"], closed_with(ws)))
        assert 0 < len(opened) - len(refusals) < 20
        # A refusal for want of room says so, and closes with "try again later".
        assert refusals
        assert all("trying again shortly" in text for text, _ in refusals)
        assert {code for _, code in refusals} == {1013}
        # The seat's holder gets in, with its own hand.
        with client.websocket_connect(f"/ws/{table_id}?token={host_token}") as host:
            state = first_message(host)
            assert state["type"] == "state"
            assert state["seat"] == "S"
            assert len(state["hand"]) in (0, 13)
    finally:
        for ws in opened:
            ws.__exit__(None, None, None)


def test_a_seats_new_socket_closes_its_oldest_and_never_is_refused(client: TestClient) -> None:
    table_id, host_token = open_table(client)
    path = f"/ws/{table_id}?token={host_token}"
    sockets = []
    try:
        for _ in range(24):
            ws = client.websocket_connect(path).__enter__()
            sockets.append(ws)
            assert first_message(ws)["seat"] == "S"  # every one gets in
        # The oldest were closed as "opened in another tab", which the page does not retry.
        oldest = sockets[0]
        while (message := first_message(oldest))["type"] != "error":
            pass
        assert "another tab" in message["message"]
        assert closed_with(oldest) == 1008
        assert tables_of(client).by_id[table_id].holders[sc.Seat.SOUTH] <= 8
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


# -- opening tables ---------------------------------------------------------------------


def test_anonymous_table_creation_is_rate_limited_per_client(data: Path) -> None:
    app = server.create_app(data, bot_delay=0)
    body = {"variant": "classic", "players": EASY_BOTS}
    with TestClient(app, client=("192.0.2.1", 4000)) as greedy:
        answers = [greedy.post("/api/tables", json=body) for _ in range(40)]
        statuses = [answer.status_code for answer in answers]
        assert statuses.count(200) < 20
        assert statuses[0] == 200
        refused = next(answer for answer in answers if answer.status_code == 429)
        assert "too many new tables" in refused.json()["error"]
        assert int(refused.headers["retry-after"]) >= 1
        # Another client is not held back by the first.
        other = TestClient(app, client=("192.0.2.2", 4000))
        other.portal = greedy.portal  # the same running application
        assert other.post("/api/tables", json=body).status_code == 200


def _post(app: Any, body: bytes, address: str) -> Any:
    """POST ``body`` to ``/api/tables`` straight through ASGI; the status."""

    async def request() -> int:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/api/tables",
            "raw_path": b"/api/tables",
            "query_string": b"",
            "root_path": "",
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
            "client": (address, 1234),
            "server": ("testserver", 80),
        }
        sent = False
        status = 0

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]

        await app(scope, receive, send)
        return status

    return request


def test_two_hundred_concurrent_creations_at_the_cap_do_not_overshoot_it(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.Limits, "tables", 30)
    body = json.dumps({"variant": "classic", "players": EASY_BOTS}).encode()
    app = server.create_app(data, bot_delay=0)
    with TestClient(app) as test_client:
        for index in range(25):
            status = test_client.portal.call(_post(app, body, f"198.51.100.{index}"))  # type: ignore[union-attr]
            assert status == 200

        async def at_once() -> list[int]:
            requests = [_post(app, body, f"203.0.113.{n}")() for n in range(200)]
            return list(await asyncio.gather(*requests))

        statuses = test_client.portal.call(at_once)  # type: ignore[union-attr]
        assert statuses.count(200) == 5
        assert statuses.count(503) == 195
        assert len(tables_of(test_client).by_id) == 30
    assert len(list(data.glob("*.table.json"))) == 30


def test_tables_expire_and_are_removed_from_disk_and_after_a_restart(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.Limits, "unclaimed_table_seconds", 0.5, raising=False)
    monkeypatch.setattr(server.Limits, "sweep_seconds", 0.1, raising=False)
    with TestClient(server.create_app(data, bot_delay=0)) as client:
        forgotten, _ = open_table(client)
        kept, token = open_table(client)
        with client.websocket_connect(f"/ws/{kept}?token={token}") as ws:
            assert first_message(ws)["type"] == "state"
            deadline = time.monotonic() + WAIT
            # Its files are removed by the record writer, right after the table.
            while forgotten in tables_of(client).by_id or list(data.glob(f"{forgotten}.*")):
                assert time.monotonic() < deadline, "the unclaimed table never expired"
                time.sleep(0.05)
            assert kept in tables_of(client).by_id  # someone is at it
    # The claimed table, idle for longer than a table is kept, is gone after a restart.
    assert len(list(data.glob(f"{kept}.*"))) == 2
    long_ago = time.time() - 7 * 3600
    for path in data.glob(f"{kept}.*"):
        os.utime(path, (long_ago, long_ago))
    with TestClient(server.create_app(data, bot_delay=0)) as client:
        assert tables_of(client).by_id == {}
    assert not list(data.glob("*.json"))


# -- bots -------------------------------------------------------------------------------


def test_hard_bots_think_in_a_bounded_pool_of_their_own(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    hard = type(sc.bots.make("hard", seed=0))
    choose = hard.choose
    thinking = 0
    most = 0
    threads: set[str] = set()
    lock = threading.Lock()

    def watched(self: Any, view: Any) -> Any:
        nonlocal thinking, most
        with lock:
            thinking += 1
            most = max(most, thinking)
            threads.add(threading.current_thread().name)
        try:
            return choose(self, view)
        finally:
            with lock:
                thinking -= 1

    monkeypatch.setattr(hard, "choose", watched)
    save_threads: set[str] = set()
    save_game = server.TableStore.save_game

    def saved(self: Any, table_id: str, game: sc.Game) -> None:
        save_threads.add(threading.current_thread().name)
        save_game(self, table_id, game)

    monkeypatch.setattr(server.TableStore, "save_game", saved)
    ids = [open_table(client, {**EASY_BOTS, "S": "hard", "N": "hard"})[0] for _ in range(6)]
    tables = tables_of(client).by_id
    deadline = time.monotonic() + WAIT
    while sum(bids_made(tables[i].game) + 4 * tables[i].game.hand_number for i in ids) < 24:
        assert time.monotonic() < deadline, "the bots did not bid"
        time.sleep(0.05)
    assert threads
    assert all(name.startswith("web-table-bot-") for name in threads), threads
    assert most <= server.Limits.bot_threads
    assert save_threads
    assert not any(name.startswith("web-table-bot-") for name in save_threads)


# -- sockets and connections, over a real network --------------------------------------


def socket_from(address: str, port: int) -> socket.socket:
    """A TCP connection to the server from ``address`` (any 127.x.y.z is this machine)."""
    connection = socket.socket()
    connection.bind((address, 0))
    connection.connect(("127.0.0.1", port))
    return connection


def ws_from(address: str, base: str, table_id: str, token: str) -> ClientConnection:
    port = urlsplit(base).port
    assert port is not None
    return connect(
        f"ws://127.0.0.1:{port}/ws/{table_id}?token={token}",
        sock=socket_from(address, port),
        proxy=None,
        open_timeout=WAIT,
    )


def post_from(address: str, base: str, body: dict[str, Any]) -> dict[str, Any]:
    import http.client

    port = urlsplit(base).port
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    connection.sock = socket_from(address, port or 0)
    connection.request(
        "POST", "/api/tables", json.dumps(body), {"content-type": "application/json"}
    )
    answer: dict[str, Any] = json.loads(connection.getresponse().read())
    connection.close()
    return answer


def first_reply(ws: ClientConnection) -> tuple[dict[str, Any], int | None]:
    """The first message and, if the server then closes the socket, its code."""
    message: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
    if message["type"] == "state":
        return message, None
    try:
        ws.recv(timeout=WAIT)
    except ConnectionClosed as closed:
        received = closed.rcvd
    else:
        raise AssertionError(f"the socket stayed open after {message}")
    assert received is not None
    return message, received.code


def test_sockets_are_capped_per_client_and_server_wide_and_a_seat_still_gets_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.Limits, "connections", 40, raising=False)
    monkeypatch.setattr(server.Limits, "sockets_per_client", 10, raising=False)
    with running_server(tmp_path / "tables", bot_delay=0.05) as (base, app), ExitStack() as stack:
        tables = app.state.tables
        player = post_from("127.0.0.1", base, {"variant": "classic", "players": EASY_BOTS})
        table_id = player["table"]
        host_token = parse_qs(urlsplit(player["url"]).query)["token"][0]
        shared = [
            post_from("127.0.0.2", base, {"variant": "classic", "players": EASY_BOTS})["table"]
            for _ in range(6)
        ]
        refused = []
        for attacker in range(2, 7):
            for attempt in range(12):
                target = shared[(attacker + attempt) % len(shared)]
                watch = tables.by_id[target].tokens[None]
                ws = stack.enter_context(ws_from(f"127.0.0.{attacker}", base, target, watch))
                message, code = first_reply(ws)
                if code is not None:
                    refused.append((attacker, message["message"], code))
                assert len(tables.sockets.get(f"127.0.0.{attacker}", [])) <= 10
        cap = server.socket_cap()
        assert cap == 30
        assert tables.socket_count == cap
        assert {code for _, _, code in refused} == {1013}
        assert any("from your address" in text for _, text, _ in refused)
        assert any("the server is busy" in text for _, text, _ in refused)
        # The server is full of spectators: a seat's holder still gets in...
        with ws_from("127.0.0.1", base, table_id, host_token) as host:
            state, code = first_reply(host)
            assert code is None
            assert state["seat"] == "S"
            assert tables.socket_count == cap
            # ...but a spectator from the same address waits.
            watch = tables.by_id[table_id].tokens[None]
            with ws_from("127.0.0.1", base, table_id, watch) as spectator:
                message, code = first_reply(spectator)
                assert code == 1013
                assert "busy" in message["message"]


def test_connections_past_the_limits_close_the_oldest_of_the_busiest_addresses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.Limits, "connections", 40, raising=False)
    monkeypatch.setattr(server.Limits, "connections_per_client", 15, raising=False)
    monkeypatch.setattr(server.Limits, "quiet_connection_seconds", 300.0, raising=False)
    held: list[socket.socket] = []

    def closed_by_server(connection: socket.socket) -> bool:
        connection.settimeout(0.01)
        try:
            return connection.recv(1) == b""
        except TimeoutError:
            return False
        except ConnectionError:
            return True

    with running_server(tmp_path / "tables", bot_delay=0.05) as (base, _):
        port = urlsplit(base).port
        assert port is not None
        try:
            for attacker in range(2, 6):  # four addresses, 20 connections each
                held.extend(socket_from(f"127.0.0.{attacker}", port) for _ in range(20))
            deadline = time.monotonic() + WAIT
            while sum(closed_by_server(c) for c in held) < 40:
                assert time.monotonic() < deadline, "the server kept too many connections"
                time.sleep(0.05)
            time.sleep(0.5)
            assert sum(not closed_by_server(c) for c in held) <= 40
            for attacker in range(4):  # no address holds more than its share
                mine = held[attacker * 20 : attacker * 20 + 20]
                assert sum(not closed_by_server(c) for c in mine) <= 15
            # A newcomer still gets an answer.
            with urllib.request.urlopen(base + "/api/variants", timeout=WAIT) as answer:
                assert json.load(answer)["variants"]
        finally:
            for connection in held:
                connection.close()


# -- refusals -------------------------------------------------------------------------


def test_refusal_strikes_decay_so_occasional_mistakes_never_add_up(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.Limits, "strikes_forgiven_per_second", 30.0, raising=False)
    table_id, token = open_table(client)
    with client.websocket_connect(f"/ws/{table_id}?token={token}") as ws:
        assert first_message(ws)["type"] == "state"
        for _ in range(5):  # 100 refused messages, 20 at a time, well apart
            for _ in range(20):
                ws.send_text('{"type": "bid", "value": 99}')
            refusals = 0
            while refusals < 20:
                message = first_message(ws)
                refusals += message["type"] == "error"
            time.sleep(2.5)  # the rate's bucket fills again, the strikes are forgotten
        ws.send_text('{"type": "bid", "value": 99}')
        while (message := first_message(ws))["type"] != "error":
            pass
        assert "bid" in message["message"]  # still open, still answered


# -- files and plugins at startup ---------------------------------------------------------


def test_a_nested_or_malformed_table_json_is_skipped_with_one_log_line(
    data: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with TestClient(server.create_app(data, bot_delay=0)) as client:
        kept, _ = open_table(client)
    record = (data / f"{kept}.record.json").read_text()
    bad = {
        "Nested000001": "[" * 100_000 + "]" * 100_000,
        "Malformed001": '{"players": {"N": ',
        "WrongType001": json.dumps({"players": ["N"], "tokens": 3, "coach": "yes"}),
        "TooBig000001": json.dumps({"pad": "x" * 100_000}),
    }
    for table_id, text in bad.items():
        (data / f"{table_id}.table.json").write_text(text)
        (data / f"{table_id}.record.json").write_text(record)
    caplog.set_level(logging.WARNING, logger="web_table")
    with TestClient(server.create_app(data, bot_delay=0)) as client:
        assert list(tables_of(client).by_id) == [kept]
    for table_id in bad:
        lines = [r for r in caplog.records if table_id in r.getMessage()]
        assert len(lines) == 1, (table_id, [r.getMessage() for r in lines])
        assert len(lines[0].getMessage()) < 300


HANGING = """
import time

time.sleep(3600)
"""


def test_a_plugin_that_hangs_at_import_does_not_hang_the_server(
    tmp_path: Path, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.Limits, "variant_load_seconds", 1.0, raising=False)
    with registry_restored("spades_web_hang_"):
        sys.path.insert(0, str(tmp_path))
        (tmp_path / "spades_web_hang_plugin.py").write_text(textwrap.dedent(HANGING))
        info = tmp_path / "spades_variant_hangs-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            "Metadata-Version: 2.1\nName: spades-variant-hangs\nVersion: 1.0\n"
        )
        (info / "entry_points.txt").write_text(
            "[spades_core.variants]\nhangs = spades_web_hang_plugin:VARIANT\n"
        )
        sc.refresh_variants()
        assert "hangs" in sc.available_variants()
        outcome: dict[str, Any] = {}

        def use_the_server() -> None:
            with TestClient(server.create_app(data, bot_delay=0)) as client:
                outcome["variants"] = client.get("/api/variants").json()
                outcome["hangs"] = client.post(
                    "/api/tables", json={"variant": "hangs", "players": EASY_BOTS}
                )
                outcome["classic"] = client.post(
                    "/api/tables", json={"variant": "classic", "players": EASY_BOTS}
                )

        worker = threading.Thread(target=use_the_server, daemon=True)
        worker.start()
        worker.join(timeout=WAIT)
        assert not worker.is_alive(), "the server hung on the plugin"
        offered = [variant["id"] for variant in outcome["variants"]["variants"]]
        assert "hangs" not in offered
        assert "classic" in offered
        assert outcome["hangs"].status_code == 400
        assert "no answer within 1 s" in outcome["hangs"].json()["error"]
        assert outcome["classic"].status_code == 200


# -- the log -------------------------------------------------------------------------------


def test_a_flood_of_one_error_is_logged_a_few_times_then_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server.Limits, "log_window_seconds", 0.2, raising=False)
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    # The filter's own clock: the flood takes no time, however slow the machine.
    now = [100.0]
    handler.addFilter(server.RepeatedLogFilter(clock=lambda: now[0]))
    log = logging.getLogger("web_table.flood_test")
    log.addHandler(handler)
    log.propagate = False
    try:
        for _ in range(10_000):
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                log.exception("accept failed")
        now[0] += 0.3  # the window is over
        log.error("accept failed")
        log.error("another kind of error")
    finally:
        log.removeHandler(handler)
        log.propagate = True
    text = out.getvalue()
    assert text.count("Traceback") == 1
    assert text.count("accept failed") == server.Limits.log_repeats + 1
    assert "9995 more like this were not logged" in text
    assert "another kind of error" in text
    assert len(text) < 5_000


def bids_made(game: sc.Game) -> int:
    """How many bids the hand in progress has (none while dealing)."""
    if game.phase is sc.Phase.DEAL:
        return 0
    return sum(game.bids[seat] is not None for seat in sc.Seat)
