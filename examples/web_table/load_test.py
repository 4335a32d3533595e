"""Load test of the web table: many tables of four bots at once, each followed
through the WebSocket protocol by a spectator until its game is over.

    python examples/web_table/load_test.py --tables 50

The server runs as its own process (as ``make web`` runs it, with no bot
delay), so its memory can be read from /proc.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

SERVER = Path(__file__).resolve().with_name("server.py")


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def address(index: int) -> str:
    """The loopback address the ``index``-th table's client uses: the server
    limits what one address may open, and every 127.x.y.z is this machine."""
    return f"127.0.{10 + index // 250}.{1 + index % 250}"


def post(url: str, body: dict[str, Any], source: str) -> dict[str, Any]:
    """POST ``body`` as JSON from the address ``source``; the JSON answer."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(
        parts.hostname or "127.0.0.1", parts.port, timeout=30, source_address=(source, 0)
    )
    try:
        connection.request(
            "POST", parts.path, json.dumps(body), {"content-type": "application/json"}
        )
        response = connection.getresponse()
        answer: dict[str, Any] = json.load(response)
    finally:
        connection.close()
    if response.status != 200:
        raise SystemExit(f"the server refused a table: {answer}")
    return answer


def wait_until_up(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/api/variants", timeout=2):
                return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start") from None
            time.sleep(0.1)


def memory_kib(pid: int) -> dict[str, int]:
    """The process's resident memory now and at its peak (KiB), from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields


async def follow(base: str, url: str, source: str) -> dict[str, Any]:
    """Watch one table from the address ``source`` until its game is over; its last state."""
    socket_url = base.replace("http", "ws", 1) + url.replace("/t/", "/ws/", 1)
    async with connect(socket_url, local_addr=(source, 0)) as websocket:
        async for text in websocket:
            state: dict[str, Any] = json.loads(text)
            if state.get("phase") == "GAME_OVER":
                return state
    raise SystemExit(f"the socket of {url} closed before the game ended")


async def run(base: str, tables: int, variant: str, level: str) -> tuple[float, list[Any]]:
    bots = dict.fromkeys("NESW", level)
    body = {"variant": variant, "players": bots, "coach": False}
    urls = [post(base + "/api/tables", body, address(index))["url"] for index in range(tables)]
    started = time.perf_counter()
    finals = await asyncio.gather(
        *(follow(base, url, address(index)) for index, url in enumerate(urls))
    )
    return time.perf_counter() - started, finals


def main(argv: list[str] | None = None) -> int:
    """Run the load test and print throughput and server memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--level", default="easy")
    args = parser.parse_args(argv)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        command = [sys.executable, str(SERVER), "--port", str(port), "--data", data]
        server = subprocess.Popen([*command, "--bot-delay", "0"], stdout=subprocess.DEVNULL)
        try:
            wait_until_up(base, server)
            idle = memory_kib(server.pid)
            seconds, finals = asyncio.run(run(base, args.tables, args.variant, args.level))
            memory = memory_kib(server.pid)
            cpu = Path(f"/proc/{server.pid}/stat").read_text().split()
            ticks = (int(cpu[13]) + int(cpu[14])) / 100  # utime + stime, at 100 ticks per second
        finally:
            server.terminate()
            server.wait(timeout=30)
    hands = sum(len(state["hand_results"]) for state in finals)
    # Per hand: a deal, four bids and 52 cards, each saved and sent to the watcher.
    actions = hands * 57
    print(f"{args.tables} tables of four {args.level} bots ({args.variant}), all games over")
    print(f"  wall time      {seconds:.1f} s")
    print(f"  hands          {hands} ({hands / seconds:.1f} hands/s)")
    print(f"  actions        {actions} ({actions / seconds:.0f} actions/s, each saved with fsync)")
    print(f"  server CPU     {ticks:.1f} s")
    idle_mib, peak_mib = idle["VmRSS"] / 1024, memory["VmHWM"] / 1024
    print(f"  server memory  {idle_mib:.0f} MiB idle, {peak_mib:.0f} MiB peak")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
