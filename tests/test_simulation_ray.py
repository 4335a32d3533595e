"""The Ray backend against a real local Ray instance (2 CPUs, no dashboard),
started once for this module and stopped after it: the same bytes as the local
backend, a killed task run again with nothing lost, joining a running head
with an address, and a bad address failing fast."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
import ray

from spades_core.simulation import BackendError, Progress, simulate, tournament

pytestmark = pytest.mark.ray

BIN = Path(sys.executable).parent
START_TIMEOUT = 120


def ray_env() -> dict[str, str]:
    """This environment without Ray settings, and with Ray's token
    authentication off: the tests' clusters must not depend on a token
    left in the home directory."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    env["RAY_AUTH_MODE"] = "disabled"
    return env


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One Ray instance for the module; the backend uses it while it is up."""
    assert not ray.is_initialized()
    saved = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
    )
    try:
        yield
    finally:
        ray.shutdown()
        if saved is None:
            del os.environ["RAY_AUTH_MODE"]
        else:
            os.environ["RAY_AUTH_MODE"] = saved


def json_of(result: Any) -> str:
    return json.dumps(result.to_json(), sort_keys=True)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"hands": 6, "seed": 3},
        {"hands": 5, "seed": 4, "duplicate": True, "variant": "whiz"},
        {"games": 2, "seed": 5, "duplicate": True, "target_score": 100},
        {"hands": 4, "seed": 6, "bag_limit": 5, "nil_value": 50},
    ],
    ids=["hands", "duplicate", "games", "options"],
)
def test_ray_gives_the_same_bytes_as_the_local_backend(
    local_ray: None, kwargs: dict[str, Any]
) -> None:
    local = simulate("normal", "easy", workers=1, **kwargs)
    on_ray = simulate("normal", "easy", backend="ray", task_size=2, **kwargs)
    assert json_of(on_ray) == json_of(local)


def test_a_tournament_on_ray_equals_the_local_one(local_ray: None) -> None:
    kwargs: dict[str, Any] = {"hands": 3, "seed": 7, "duplicate": True}
    local = tournament(["random", "easy", "normal"], workers=2, **kwargs)
    on_ray = tournament(["random", "easy", "normal"], backend="ray", task_size=1, **kwargs)
    assert json_of(on_ray) == json_of(local)


def test_a_journal_kept_locally_serves_a_run_on_ray(local_ray: None, tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    kwargs: dict[str, Any] = {"seed": 8, "duplicate": True}
    simulate("normal", "easy", hands=4, workers=1, task_size=4, journal=journal, **kwargs)
    seen: list[Progress] = []
    on_ray = simulate(
        "normal", "easy", hands=8, backend="ray", task_size=2, journal=journal,
        progress=seen.append, **kwargs,
    )  # fmt: skip
    assert json_of(on_ray) == json_of(simulate("normal", "easy", hands=8, workers=1, **kwargs))
    assert seen[-1].total == 4
    # The header, the local task, and the two tasks Ray ran.
    assert len(journal.read_text().splitlines()) == 4


def _running_tasks() -> list[psutil.Process]:
    # ray.init() started the raylet as a child of this process, and the
    # raylet started the workers: a busy one is titled ray::run_chunk.
    found = []
    for process in psutil.Process().children(recursive=True):
        try:
            if "ray::run_chunk" in " ".join(process.cmdline()):
                found.append(process)
        except psutil.Error:
            continue
    return found


def test_a_killed_ray_task_is_run_again_and_no_deal_is_lost(local_ray: None) -> None:
    killed: list[int] = []
    seen: list[Progress] = []

    def kill_a_running_task(progress: Progress) -> None:
        seen.append(progress)
        deadline = time.monotonic() + 20
        while not killed and time.monotonic() < deadline:
            for process in _running_tasks():
                process.send_signal(signal.SIGKILL)
                killed.append(process.pid)
                break
            else:
                time.sleep(0.05)

    # Hard players make each task last a good part of a second: with tasks of
    # a few milliseconds, the rest could all be done before the first progress
    # came back, leaving nothing running to kill.
    on_ray = simulate(
        "hard", "easy", hands=8, seed=8, duplicate=True, backend="ray", task_size=2,
        progress=kill_a_running_task,
    )  # fmt: skip
    assert killed, "no running task was found to kill"
    assert seen[-1].retried >= 1
    assert seen[-1].done == 8
    local = simulate("hard", "easy", hands=8, seed=8, duplicate=True, workers=1)
    assert json_of(on_ray) == json_of(local)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _stop_head(temp_dir: Path) -> None:
    """Stop the processes of the head started with ``temp_dir`` (and theirs),
    found by that directory in their command lines: never any other Ray."""
    mine = []
    for process in psutil.process_iter(["cmdline"]):
        try:
            if str(temp_dir) in " ".join(process.info["cmdline"] or ()):
                mine.append(process)
                mine.extend(process.children(recursive=True))
        except psutil.Error:
            continue
    for process in mine:
        try:
            process.kill()
        except psutil.Error:
            continue
    psutil.wait_procs(mine, timeout=10)


@pytest.fixture
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Ray head on loopback, started with ``ray start --head`` and stopped after."""
    # A short directory: Ray's socket paths must stay under the Unix limit.
    temp_dir = Path(f"/tmp/spades-ray-{os.getpid()}")
    port = _free_port()
    try:
        subprocess.run(
            [
                str(BIN / "ray"), "start", "--head", "--node-ip-address=127.0.0.1",
                f"--port={port}", "--num-cpus=1", "--include-dashboard=false",
                "--disable-usage-stats", f"--temp-dir={temp_dir}",
            ],
            check=True, capture_output=True, timeout=START_TIMEOUT, env=ray_env(),
        )  # fmt: skip
        yield f"127.0.0.1:{port}"
    finally:
        _stop_head(temp_dir)


def _spades(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "spades"), *args],
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
        env=ray_env(),
    )


def test_address_joins_a_running_head(ray_head: str) -> None:
    args = ["simulate", "--ns", "normal", "--ew", "random", "--hands", "4", "--seed", "2"]
    joined = _spades(*args, "--backend", "ray", "--address", ray_head, "--json")
    assert joined.returncode == 0, joined.stderr
    assert f"Ray at {ray_head}" in joined.stderr
    local = simulate("normal", "random", hands=4, seed=2, workers=1)
    assert joined.stdout.strip() == json_of(local)


def test_a_bad_address_fails_fast_with_a_clear_error() -> None:
    nobody = f"127.0.0.1:{_free_port()}"
    done = _spades("simulate", "--hands", "1", "--backend", "ray", "--address", nobody)
    assert done.returncode == 2
    assert done.stderr.startswith(f"spades simulate: cannot reach a Ray cluster at {nobody}")
    assert "ray start --head" in done.stderr
    with pytest.raises(BackendError, match="cannot reach a Ray cluster"):
        simulate("easy", "easy", hands=1, backend="ray", address=nobody)
