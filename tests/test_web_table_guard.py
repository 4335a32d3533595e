"""The web table's connection guard, record writer and headers, each rule
on its own: which connection closes when there are too many (the busiest
address's oldest anonymous one; a tie never refuses a newcomer; a seat
holder's never; a new connection's first request waited for), the pages'
``Referrer-Policy`` and seat cookie, the records of tables without a person
written in the background without holding up those with one, and the one
hook into uvicorn pinned to the release it was written for."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from starlette.testclient import TestClient

import spades_core as sc
from web_table_support import server

pytestmark = pytest.mark.integration("web")

EASY_BOTS = {"N": "easy", "E": "easy", "W": "easy"}


class FakeTransport:
    """Just what the guard asks of a transport: its peer, and to be closed."""

    def __init__(self, address: str, port: int) -> None:
        self.peer = (address, port)
        self.aborted = False

    def get_extra_info(self, name: str) -> object:
        return self.peer if name == "peername" else None

    def is_closing(self) -> bool:
        return self.aborted

    def abort(self) -> None:
        self.aborted = True


class Guard:
    """A :class:`server.ConnectionGuard` of ``cap`` connections, driven by hand on a loop."""

    def __init__(self, cap: int) -> None:
        self.guard = server.ConnectionGuard(lambda: cap)
        self.loop = asyncio.new_event_loop()
        self.ports = iter(range(1000, 100_000))

    def open(self, address: str) -> FakeTransport:
        transport = FakeTransport(address, next(self.ports))

        async def accept() -> None:
            self.guard.accepted(transport)

        self.loop.run_until_complete(accept())
        return transport

    def request(self, transport: FakeTransport, *, holder: bool = False) -> None:
        self.guard.served(transport.peer, holder=holder)

    def settle(self) -> None:
        """Let every connection's time for a first request pass."""

        async def due() -> None:
            for link in list(self.guard._young):
                self.guard._first_request_due(link)

        self.loop.run_until_complete(due())

    def wait(self, seconds: float) -> None:
        self.loop.run_until_complete(asyncio.sleep(seconds))


@pytest.fixture
def guard() -> Iterator[Guard]:
    made = Guard(10)
    yield made
    made.loop.close()


def test_past_the_cap_the_busiest_addresss_oldest_anonymous_connection_closes(
    guard: Guard,
) -> None:
    busy = [guard.open("10.0.0.1") for _ in range(4)]
    others = [guard.open(f"10.0.1.{n}") for n in range(6)]
    guard.settle()
    newcomer = guard.open("10.0.2.1")
    assert busy[0].aborted  # the busiest address's oldest
    assert not any(t.aborted for t in [*busy[1:], *others, newcomer])
    assert len(guard.guard) == 10


def test_a_tie_never_refuses_a_newcomer(guard: Guard) -> None:
    crowd = [guard.open(f"10.0.1.{n}") for n in range(10)]  # ten addresses, one each
    guard.settle()
    arrivals = [guard.open(f"10.0.2.{n}") for n in range(5)]
    assert not any(t.aborted for t in arrivals)
    assert [t.aborted for t in crowd] == [True] * 5 + [False] * 5  # oldest first
    # A newcomer from an address that already holds as many as any other still gets in.
    guard.settle()
    again = guard.open("10.0.1.9")
    assert not again.aborted
    assert sum(t.aborted for t in crowd) == 6


def test_a_seat_holders_connection_is_never_closed_for_anonymous_ones(guard: Guard) -> None:
    holder = guard.open("10.0.0.1")
    guard.request(holder, holder=True)
    page = [guard.open("10.0.0.1") for _ in range(5)]
    for transport in page:
        guard.request(transport, holder=True)
    for n in range(200):  # a crowd coming and going
        guard.open(f"10.1.{n // 250}.{n % 250}")
        if n % 7 == 0:
            guard.settle()
    assert not holder.aborted
    assert not any(t.aborted for t in page)
    assert guard.guard.holders() == 6
    assert len(guard.guard) == 10


def test_a_new_connection_has_its_time_to_present_its_token(guard: Guard) -> None:
    crowd = [guard.open(f"10.0.1.{n}") for n in range(9)]
    guard.settle()
    # A page opens six connections at once from one address: the busiest
    # address now, but its connections are waiting for their first requests.
    page = [guard.open("10.0.0.1") for _ in range(6)]
    assert not any(t.aborted for t in page)
    assert sum(t.aborted for t in crowd) == 5
    for transport in page:
        guard.request(transport, holder=True)
    # Had they not sent their requests in time, they would count as any other.
    guard.settle()
    assert guard.guard.holders() == 6


def test_with_no_anonymous_connection_that_had_its_time_the_oldest_waiting_one_closes(
    guard: Guard,
) -> None:
    waiting = [guard.open(f"10.0.1.{n}") for n in range(10)]
    newcomer = guard.open("10.0.2.1")
    assert waiting[0].aborted
    assert not newcomer.aborted


def test_when_every_connection_is_a_seat_holders_the_newcomer_is_closed(guard: Guard) -> None:
    holders = [guard.open(f"10.0.1.{n}") for n in range(10)]
    for transport in holders:
        guard.request(transport, holder=True)
    newcomer = guard.open("10.0.2.1")
    assert newcomer.aborted
    assert not any(t.aborted for t in holders)


def test_an_address_past_its_anonymous_connections_closes_its_own_oldest(
    guard: Guard, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.Limits, "connections_per_client", 3)
    mine = [guard.open("10.0.0.1") for _ in range(5)]
    assert [t.aborted for t in mine] == [True, True, False, False, False]
    assert guard.guard.anonymous("10.0.0.1") == 3


def test_a_connection_that_sends_nothing_is_closed_after_a_while(
    guard: Guard, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.Limits, "first_request_seconds", 0.02)
    monkeypatch.setattr(server.Limits, "quiet_connection_seconds", 0.05)
    quiet = guard.open("10.0.0.1")
    talking = guard.open("10.0.0.2")
    guard.request(talking)
    guard.wait(0.3)
    assert quiet.aborted
    assert not talking.aborted
    assert len(guard.guard) == 1


def test_a_closed_connection_no_longer_counts(guard: Guard) -> None:
    transports = [guard.open(f"10.0.1.{n}") for n in range(10)]
    guard.guard.lost(transports[0])
    guard.guard.closed(transports[1].peer)  # a WebSocket that ended
    assert len(guard.guard) == 8
    assert guard.guard.anonymous("10.0.1.0") == 0
    newcomers = [guard.open(f"10.0.2.{n}") for n in range(2)]
    assert not any(t.aborted for t in [*transports, *newcomers])


# -- headers and the seat cookie --------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(server.create_app(tmp_path / "tables", bot_delay=0)) as test_client:
        yield test_client


def open_table(client: TestClient) -> tuple[str, str, Any]:
    response = client.post(
        "/api/tables", json={"variant": "classic", "players": {**EASY_BOTS, "N": "person"}}
    )
    assert response.status_code == 200, response.text
    parts = urlsplit(response.json()["url"])
    table_id = parts.path.rsplit("/", 1)[-1]
    table = client.app.state.tables.by_id[table_id]  # type: ignore[attr-defined]
    return table_id, parse_qs(parts.query)["token"][0], table


def test_every_response_says_no_referrer(client: TestClient) -> None:
    table_id, token, _ = open_table(client)
    for path in (
        "/",
        f"/t/{table_id}?token={token}",
        "/t/NoSuchTable00",
        "/static/page.js",
        "/static/nothing-here.js",
        "/api/variants",
    ):
        assert client.get(path).headers["referrer-policy"] == "no-referrer", path
    posted = client.post("/api/tables", content=b"{")
    assert posted.headers["referrer-policy"] == "no-referrer"


def test_a_seats_page_sets_its_seat_cookie_and_a_spectators_does_not(client: TestClient) -> None:
    table_id, token, table = open_table(client)
    page = client.get(f"/t/{table_id}?token={token}")
    cookie = page.headers["set-cookie"]
    assert cookie.startswith(f"{server.SEAT_COOKIE}={table_id}.{token};")
    assert "HttpOnly" in cookie
    assert "SameSite=strict" in cookie or "SameSite=Strict" in cookie
    assert "Path=/" in cookie
    watch = table.tokens[None]
    assert "set-cookie" not in client.get(f"/t/{table_id}?token={watch}").headers
    assert "set-cookie" not in client.get(f"/t/{table_id}?token=wrong").headers


def test_a_request_presents_a_seat_by_its_link_or_its_cookie(client: TestClient) -> None:
    table_id, token, table = open_table(client)
    tables = client.app.state.tables  # type: ignore[attr-defined]
    friend = table.tokens[sc.Seat.NORTH]

    def scope(path: str, query: str = "", cookie: str | None = None) -> dict[str, Any]:
        headers = [] if cookie is None else [(b"cookie", cookie.encode())]
        return {"path": path, "query_string": query.encode(), "headers": headers}

    assert tables.presents_seat(scope(f"/t/{table_id}", f"token={token}"))
    assert tables.presents_seat(scope(f"/ws/{table_id}", f"token={friend}"))
    assert tables.presents_seat(
        scope("/static/page.js", cookie=f"a=b; spades_seat={table_id}.{token}")
    )
    assert not tables.presents_seat(scope(f"/ws/{table_id}", f"token={table.tokens[None]}"))
    assert not tables.presents_seat(scope(f"/t/{table_id}", "token=nope"))
    assert not tables.presents_seat(scope("/static/page.js", cookie=f"spades_seat={table_id}.nope"))
    assert not tables.presents_seat(scope("/static/page.js", cookie="spades_seat=x" * 1000))
    assert not tables.presents_seat(scope("/api/variants"))


# -- records --------------------------------------------------------------------------


class SlowStore:
    """A table store whose writes of one table wait until they are let through."""

    def __init__(self, directory: Path, slow: str) -> None:
        self.store = server.TableStore(directory)
        self.slow = slow
        self.go = threading.Event()
        self.started = threading.Event()
        self.written: list[tuple[str, int]] = []
        self.lock = threading.Lock()

    def save_game(self, table_id: str, game: sc.Game) -> None:
        if table_id == self.slow:
            self.started.set()
            assert self.go.wait(30)
        with self.lock:
            self.written.append((table_id, len(game.hand_results)))
        self.store.save_game(table_id, game)

    def save_seating(self, table_id: str, seating: Any) -> None:
        self.store.save_seating(table_id, seating)

    def delete(self, table_id: str) -> None:
        self.store.delete(table_id)


def games(count: int) -> list[sc.Game]:
    """``count`` games of 0, 1, 2… hands played."""
    start = sc.new_game("classic", seed=1, target_score=10**6, loss_floor=-(10**6))
    return [start] + [sc.playout(start, random.Random(1), hands=n) for n in range(1, count)]


def test_background_writes_keep_the_newest_game_and_never_hold_up_a_persons(
    tmp_path: Path,
) -> None:
    store = SlowStore(tmp_path, slow="BotsAlone001")
    saver = server.RecordSaver(urgent_threads=1, background_threads=1)
    try:
        first, *later = games(5)
        saver.save(store, "BotsAlone001", game=first)
        assert store.started.wait(30)  # the background writer is held by this write
        for game in later:
            saver.save(store, "BotsAlone001", game=game)
        # A person's table is written at once, however busy the background is.
        person = saver.save(store, "Person000001", game=first, urgent=True)
        person.result(timeout=30)
        assert store.written == [("Person000001", 0)]
        store.go.set()
        last = saver.save(store, "BotsAlone001", game=later[-1])
        last.result(timeout=30)
    finally:
        store.go.set()
        saver.close()
    # The games asked for while a write was under way were written once, the newest.
    assert [hands for table, hands in store.written if table == "BotsAlone001"] == [0, 4]
    assert sc.loads((tmp_path / "BotsAlone001.record.json").read_text()) == later[-1]


def test_writes_of_one_table_keep_their_order_and_a_removal_wins(tmp_path: Path) -> None:
    store = SlowStore(tmp_path, slow="")
    saver = server.RecordSaver(urgent_threads=2, background_threads=2)
    played = games(3)
    try:
        for index in range(30):
            saver.save(store, "Table0000001", game=played[index % 3], urgent=index % 2 == 0)
        saver.save(store, "Table0000001", game=played[2]).result(timeout=30)
        assert sc.loads((tmp_path / "Table0000001.record.json").read_text()) == played[2]
        # A removal asked while writes wait wins over them.
        for game in played:
            saver.save(store, "Table0000001", game=game)
        saver.save(store, "Table0000001", delete=True).result(timeout=30)
    finally:
        saver.close()
    assert not list(tmp_path.glob("Table0000001.*"))


def test_tables_of_bots_alone_play_in_their_own_thread_and_people_elsewhere(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone: set[str] = set()
    with_person: set[tuple[str, str]] = set()
    """The thread and the level of each move of a bot at the person's table, once they sit."""
    easy: Any = type(sc.bots.make("easy", seed=0))
    hard: Any = type(sc.bots.make("hard", seed=0))
    watched_table: list[Any] = []

    def watched(cls: Any) -> Any:
        choose = cls.choose

        def choose_and_tell(self: Any, view: Any) -> Any:
            table = watched_table[0] if watched_table else None
            name = threading.current_thread().name
            if table is None or not any(self is bot for bot in table.bots.values()):
                alone.add(name)
            elif table.people_here():
                with_person.add((name, self.level))
            return choose(self, view)

        return choose_and_tell

    monkeypatch.setattr(easy, "choose", watched(easy))
    monkeypatch.setattr(hard, "choose", watched(hard))
    players = {"N": "hard", "E": "easy", "W": "hard"}
    response = client.post("/api/tables", json={"variant": "classic", "players": players})
    parts = urlsplit(response.json()["url"])
    table_id, token = parts.path.rsplit("/", 1)[-1], parse_qs(parts.query)["token"][0]
    watched_table.append(client.app.state.tables.by_id[table_id])  # type: ignore[attr-defined]
    bots_alone = {"variant": "classic", "players": dict.fromkeys("NESW", "easy")}
    assert client.post("/api/tables", json=bots_alone).status_code == 200
    with client.websocket_connect(f"/ws/{table_id}?token={token}") as ws:
        deadline = time.monotonic() + 60
        while not alone or {level for _, level in with_person} != {"easy", "hard"}:
            assert time.monotonic() < deadline, (alone, with_person)
            state = ws.receive_json()
            if state.get("to_act") == "S" and state.get("legal_actions"):
                action = state["legal_actions"][0]
                kind = "bid" if isinstance(action, int) else "play"
                ws.send_json({"type": kind, "value" if kind == "bid" else "card": action})
    assert all(name.startswith("web-table-bot-") for name in alone), alone
    # At the person's table the hard bots think in their own thread, the easy one on the loop.
    hard_threads = {name for name, level in with_person if level == "hard"}
    easy_threads = {name for name, level in with_person if level == "easy"}
    assert all(name.startswith("web-table-person-bot-") for name in hard_threads), with_person
    assert not any(name.startswith("web-table-") for name in easy_threads), with_person


# -- uvicorn ---------------------------------------------------------------------------


def test_the_hook_into_uvicorn_is_for_the_release_it_was_written_for() -> None:
    # guarded_http_protocol subclasses uvicorn's H11Protocol and overrides
    # asyncio's connection_made and connection_lost. A new uvicorn release
    # may change that class: read it, check the guard still hears of every
    # connection (tests/test_web_table_crowd.py), then move the pin.
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

    assert uvicorn.__version__.startswith(server.UVICORN_WRITTEN_FOR + "."), uvicorn.__version__
    guarded = server.guarded_http_protocol(server.ConnectionGuard())
    assert issubclass(guarded, H11Protocol)
    own = {name for name in vars(guarded) if not name.startswith("__")}
    assert own == {"connection_made", "connection_lost"}


def test_the_limits_go_through_uvicorns_documented_settings(tmp_path: Path) -> None:
    app = server.create_app(tmp_path / "tables", bot_delay=0)
    config = server.uvicorn_config(app, "127.0.0.1", 8000)
    assert config.timeout_keep_alive == server.Limits.keep_alive_seconds
    assert config.limit_concurrency is not None
    assert config.limit_concurrency > server.connection_cap()
    assert config.h11_max_incomplete_event_size == server.Limits.body_bytes
    assert config.ws_max_size == server.Limits.message_chars * 4
    assert config.proxy_headers is False
