"""Helpers for the web table's tests: the example's server module, loaded by
path, a scan for cards a seat may not see, and a real uvicorn server in a thread."""

from __future__ import annotations

import importlib.util
import re
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import spades_core as sc

pytestmark = pytest.mark.integration("web")

SERVER_PATH = Path(__file__).resolve().parents[1] / "examples" / "web_table" / "server.py"
CARD = re.compile(r"[2-9TJQKA][SHDC]")


def _load_server() -> ModuleType:
    name = "web_table_server"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, SERVER_PATH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclass-like introspection needs the module registered
    spec.loader.exec_module(module)
    return module


server = _load_server()


def cards_in(message: object) -> set[str]:
    """Every string anywhere in ``message`` that is a card in the library's notation."""
    found: set[str] = set()
    stack = [message]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if CARD.fullmatch(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def visible_to(game: sc.Game, seat: sc.Seat) -> set[str]:
    """Cards ``seat`` may see during the current hand of ``game``: its own
    cards and every card played in the hand so far."""
    seen = {str(card) for card in game.dealt_hand(seat)}
    for trick in game.tricks:
        seen.update(str(card) for card in trick.cards)
    seen.update(str(card) for _, card in game.current_trick)
    return seen


def assert_nothing_hidden(message: dict[str, Any], game: sc.Game, seat: sc.Seat) -> None:
    """Fail if ``message`` to ``seat`` names a card it may not see, or the seed.

    ``game`` is the game now; the message may be a little older, from the
    same hand or from the hand that has just ended (whose cards have all been
    played, so are all public). Between hands only the final trick of the hand
    just scored may be shown.
    """
    number = message["hand_number"]
    if message["phase"] in ("DEAL", "GAME_OVER"):
        final = game.hand_results[number - 1].played[-1] if number else None
        allowed = {str(card) for card in final.cards} if final else set()
    elif game.phase in (sc.Phase.DEAL, sc.Phase.GAME_OVER) and number == game.hand_number - 1:
        allowed = {str(card) for trick in game.hand_results[-1].played for card in trick.cards}
    else:
        assert number == game.hand_number
        assert game.phase in (sc.Phase.BID, sc.Phase.PLAY)
        allowed = visible_to(game, seat)
    leaked = cards_in(message) - allowed
    assert not leaked, f"{seat.name} was sent hidden cards {sorted(leaked)}"
    assert "seed" not in repr(message).lower()
    assert str(game.seed) not in repr(message)


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def running_server(data: Path, *, bot_delay: float) -> Iterator[tuple[str, Any]]:
    """A uvicorn server of the web table on a free port, in a thread; yields
    its URL and the application (whose tables the tests inspect)."""
    import uvicorn

    app = server.create_app(data, bot_delay=bot_delay)
    port = free_port()
    web = uvicorn.Server(server.uvicorn_config(app, "127.0.0.1", port))
    thread = threading.Thread(target=web.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not web.started:
        assert thread.is_alive(), "the web table server did not start"
        assert time.monotonic() < deadline, "the web table server took too long to start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        web.should_exit = True
        thread.join(timeout=20)
        assert not thread.is_alive(), "the web table server did not stop"
