"""Helpers for the web app's tests: the built app (``make app``, which
``make test`` runs first), a static file server for it that can be switched
off, Chromium's settings, and Node with Pyodide.

The tests fail, never skip, when the build is missing or no longer matches
its sources, or when Chromium or Node is missing.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "build" / "app"
NODE = "/usr/bin/node"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Chromium's flags for tests here (Playwright adds --headless and a fresh --user-data-dir)."""
ARTEFACTS = ROOT / "build" / "test-artifacts" / "web_app"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def _load_builder() -> ModuleType:
    name = "web_app_build"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / "web_app" / "build.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


builder = _load_builder()


def built_app(directory: Path = APP) -> Path:
    """``directory``, once checked to hold a build of the current sources."""
    stale = builder.stale_inputs(directory)
    if stale:
        shown = ", ".join(stale[:5]) + (f" and {len(stale) - 5} more" if len(stale) > 5 else "")
        pytest.fail(
            f"{directory} is missing or out of date ({shown} changed): run `make app`", False
        )
    return directory


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the files quietly, counting the bytes of the bodies it sends."""

    served: list[int]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def copyfile(self, source: Any, outputfile: Any) -> None:
        start = source.tell()
        super().copyfile(source, outputfile)
        self.served.append(source.tell() - start)


class StaticServer:
    """A static file server of one directory on a free port of 127.0.0.1, in
    a thread, as any web server would serve the app."""

    def __init__(self, directory: Path) -> None:
        self.served: list[int] = []
        handler = functools.partial(
            type("Handler", (_Handler,), {"served": self.served}), directory=str(directory)
        )
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        self.running = True

    @property
    def bytes_served(self) -> int:
        """The bytes of all response bodies sent so far."""
        return sum(self.served)

    def stop(self) -> None:
        """Stop serving and close the port: the app has no server any more."""
        if self.running:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(timeout=20)
            self.running = False


@contextmanager
def static_server(directory: Path) -> Iterator[StaticServer]:
    """A :class:`StaticServer` of ``directory`` for the duration of the block."""
    server = StaticServer(directory)
    try:
        yield server
    finally:
        server.stop()


def run_under_pyodide(
    app: Path, script: Path, *args: str, snapshot: bool = False, timeout: float = 600
) -> str:
    """What ``script`` prints when run by Pyodide in Node, set up as the app's
    worker sets itself up (tests/pyodide_run.mjs); with ``snapshot``, as at a
    later visit, in an interpreter restored from a first start's memory snapshot."""
    mode = ["--snapshot"] if snapshot else []
    result = subprocess.run(
        [NODE, str(ROOT / "tests" / "pyodide_run.mjs"), *mode, str(app), str(script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, f"Pyodide failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def run_under_cpython(script: Path, *args: str, timeout: float = 600) -> str:
    """What ``script`` prints when run by this CPython, with the app's modules importable."""
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        str(ROOT / "examples" / name) for name in ("web_table", "web_app")
    )
    result = subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment,
        check=False,
    )
    assert result.returncode == 0, f"CPython failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout
