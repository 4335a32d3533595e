"""A person's game is not slowed by the tables of bots alone.

The server runs as its own process. A person plays at a table with three
bots while the server is idle, then while 499 tables of bots alone play as
fast as their bots go (the table cap, opened from 50 addresses: some of
four hard bots, which search, the rest of four easy ones): the time from one
turn of the person's game to the next, the bots' turns, stays within 1.5
times what it is on the idle server (medians of 24 turns each). Bounded in
count and time: about a minute.

A ratio measured within one run is the server's promise to a person at a
busy server (their game goes at its bots' pace, ``--bot-delay``), not a
speed measurement of the library: the other tables' bots share threads of
their own, which a table with a person never waits behind.
"""

from __future__ import annotations

import http.client
import json
import socket
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from websockets.sync.client import ClientConnection, connect

from web_table_support import server_process

pytestmark = pytest.mark.integration("web")

BOT_DELAY = 0.4
TURNS = 24
"""Bots' turns timed, idle and under the flood."""
FLOOD = 499
HARD_TABLES = 100
"""Of the flood's tables, these have four hard bots; the rest four easy ones."""


def post(port: int, address: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.sock = socket.create_connection(
        ("127.0.0.1", port), timeout=60, source_address=(address, 0)
    )
    try:
        connection.request(
            "POST", "/api/tables", json.dumps(body), {"content-type": "application/json"}
        )
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def flood(port: int) -> int:
    """Open :data:`FLOOD` tables of bots alone, ten from each address; how many opened."""

    def open_ten(index: int) -> int:
        opened = 0
        for n in range(10):
            number = index * 10 + n
            if number >= FLOOD:
                break
            level = "hard" if number < HARD_TABLES else "easy"
            body = {"variant": "classic", "players": dict.fromkeys("NESW", level)}
            status, _ = post(port, f"127.3.{index // 250}.{index % 250 + 1}", body)
            opened += status == 200
        return opened

    with ThreadPoolExecutor(10) as pool:
        return sum(pool.map(open_ten, range((FLOOD + 9) // 10)))


class Player:
    """The person at South, in a thread of their own (as a browser would be),
    answering at once whenever it is their turn, and timing the bots' turns."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.turns: list[tuple[float, float]] = []
        """When each bot's turn came, and how long after the turn before it
        (turns across a deal are not counted)."""
        self.stop = threading.Event()
        self.failure: BaseException | None = None
        self.thread = threading.Thread(target=self._play, daemon=True)
        self.thread.start()

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=60))
        assert message["type"] == "state", message
        return message

    def _play(self) -> None:
        try:
            state, seen = self.receive(), time.monotonic()
            while not self.stop.is_set():
                if state["phase"] == "DEAL" and state["waiting_for_next"] == ["S"]:
                    self.socket.send(json.dumps({"type": "next"}))
                elif state["to_act"] == "S" and state["legal_actions"]:
                    action = state["legal_actions"][0]
                    self.socket.send(
                        json.dumps(
                            {"type": "bid", "value": action}
                            if isinstance(action, int)
                            else {"type": "play", "card": action}
                        )
                    )
                before, at = state, seen
                state, seen = self.receive(), time.monotonic()
                moved = moves(state) != moves(before)
                same_hand = state["hand_number"] == before["hand_number"]
                if moved and same_hand and before["to_act"] not in (None, "S"):
                    self.turns.append((seen, seen - at))
        except BaseException as error:  # reported by the test
            self.failure = error

    def turns_after(self, start: float, count: int) -> list[float]:
        """The times of the first ``count`` bots' turns that came after ``start``."""
        deadline = time.monotonic() + 120
        while True:
            assert self.failure is None, self.failure
            later = [took for at, took in list(self.turns) if at > start]
            if len(later) >= count:
                return later[:count]
            assert time.monotonic() < deadline, f"only {len(later)} bots' turns came: {later}"
            time.sleep(0.1)


def moves(state: dict[str, Any]) -> str:
    """What changes with every bid and card of a hand."""
    return json.dumps(
        [state["hand_number"], state["phase"], state["bids"], state["cards_left"]], sort_keys=True
    )


def test_a_persons_game_keeps_its_pace_under_a_flood_of_bot_tables(tmp_path: Path) -> None:
    with server_process(tmp_path, bot_delay=BOT_DELAY, files=False) as (port, server, log):
        players = {"N": "normal", "E": "normal", "W": "normal"}
        status, answer = post(port, "127.0.0.1", {"variant": "classic", "players": players})
        assert status == 200, answer
        parts = urlsplit(answer["url"])
        table, token = parts.path.rsplit("/", 1)[-1], parse_qs(parts.query)["token"][0]
        with connect(f"ws://127.0.0.1:{port}/ws/{table}?token={token}", open_timeout=30) as ws:
            person = Player(ws)
            try:
                idle = person.turns_after(0.0, TURNS)
                opened = flood(port)
                time.sleep(5)  # the flood's bots are all playing
                flooded = person.turns_after(time.monotonic(), TURNS)
            finally:
                person.stop.set()
        person.thread.join(timeout=60)
        # The flood was playing: its tables' records grew past a fresh table's.
        sizes = [path.stat().st_size for path in (tmp_path / "tables").glob("*.record.json")]
        playing = sum(size > min(sizes) for size in sizes)
        assert server.poll() is None, log.read_text()[-3000:]
    assert opened == FLOOD
    assert playing > FLOOD * 3 // 4, playing
    idle_median, flooded_median = statistics.median(idle), statistics.median(flooded)
    print(
        f"\nbots' turns: idle median {idle_median:.3f} s (max {max(idle):.3f}), "
        f"under the flood median {flooded_median:.3f} s (max {max(flooded):.3f}), "
        f"ratio {flooded_median / idle_median:.2f}; tables of the flood playing {playing}"
    )
    assert idle_median >= BOT_DELAY  # the bots keep their pace...
    assert flooded_median <= 1.5 * idle_median, (idle, flooded)  # ...and the flood barely slows it
