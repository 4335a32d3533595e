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


# -- the server as a process of its own ------------------------------------------------

FILE_LIMIT = 1024
"""The file-descriptor limit (``ulimit -n``) the attacked servers run under."""


def limit_files() -> None:
    """In the server's process, before it starts: ``ulimit -n 1024``."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, hard))


@contextmanager
def room_for_connections(count: int) -> Iterator[None]:
    """Let this process hold ``count`` more open files (the attackers' sockets)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = soft if soft == resource.RLIM_INFINITY else soft + count
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


class Watch:
    """Samples a process's open files from /proc while it runs."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.most_files = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import os

        while not self.stop.wait(0.2):
            try:
                files = len(os.listdir(f"/proc/{self.pid}/fd"))
            except OSError:
                return
            self.most_files = max(self.most_files, files)

    def peak_memory_mib(self) -> float:
        """The process's peak resident memory so far."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmHWM in /proc")


@contextmanager
def server_process(
    tmp_path: Path, *, bot_delay: float, files: bool = True
) -> Iterator[tuple[int, Any, Path]]:
    """The web table's server as a process of its own (under ``ulimit -n
    1024`` when ``files``), its log in a file; yields its port, the process
    and the log's path once it answers."""
    import subprocess
    import urllib.request

    port = free_port()
    log = tmp_path / "server.log"
    command = [
        sys.executable,
        str(SERVER_PATH),
        "--port",
        str(port),
        "--data",
        str(tmp_path / "tables"),
        "--bot-delay",
        str(bot_delay),
    ]
    with log.open("wb") as log_file:
        process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=log_file,
            preexec_fn=limit_files if files else None,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=5):
                    break
            except OSError:
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield port, process, log
    finally:
        process.terminate()
        process.wait(timeout=60)
