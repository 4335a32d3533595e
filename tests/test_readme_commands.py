"""Every command of the README runs as written, in a fresh checkout after
``make run``: a copy of this checkout's files without its ``.venv`` or
``build``, a home directory of its own, and ``.venv/bin`` first on the
``PATH``, as ``source .venv/bin/activate`` leaves it. So a README command
that breaks, or grows too slow, fails the suite.

Each command has a time limit. Some are run in a way that suits a test:
``make test`` is the suite itself, so it is only resolved (``make -n``);
``make web`` and ``make app-serve`` serve until stopped, so each is given a
free port (``WEB_ARGS``, ``APP_PORT``), asked for its page, and stopped; and
``make run`` comes first whatever its place in the README, since the others
run after it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SETUP_TIMEOUT = 900
COMMAND_TIMEOUT = 300
"""The most a README command may take here (an install of every extra included)."""
SERVE_TIMEOUT = 120
SERVERS = {"make web": "WEB_ARGS='--port {port}'", "make app-serve": "APP_PORT={port}"}
"""Commands that serve until stopped, and how each is given a port."""


def readme_commands() -> list[str]:
    """The README's commands, in order: each line of its ``console`` blocks
    without the comment."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            command = line.split(" #", 1)[0].strip()
            if command and not command.startswith("#"):
                commands.append(command)
    return commands


def fresh_copy(target: Path) -> None:
    """This checkout's files as a clone would have them: tracked files and new
    ones not ignored, with the changes not yet committed."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def outside_env(home: Path) -> dict[str, str]:
    """The environment of a new user's shell: its own home, no virtual
    environment active, none of this test run's settings."""
    ours = Path(sys.prefix)
    path = [
        entry
        for entry in os.environ.get("PATH", "").split(os.pathsep)
        if entry and not Path(entry).resolve().is_relative_to(ours.resolve())
    ]
    keep = ("LANG", "LC_ALL", "TERM", "TMPDIR", "PYENV_ROOT", "PIP_FIND_LINKS",
            "PIP_DEFAULT_TIMEOUT", "PIP_DISABLE_PIP_VERSION_CHECK", "PIP_CERT")  # fmt: skip
    env = {name: os.environ[name] for name in keep if name in os.environ}
    env.update(HOME=str(home), PATH=os.pathsep.join(path))
    return env


def activated(env: dict[str, str], checkout: Path) -> dict[str, str]:
    """``env`` after ``source .venv/bin/activate`` in ``checkout``."""
    venv = checkout / ".venv"
    return {**env, "VIRTUAL_ENV": str(venv), "PATH": f"{venv / 'bin'}{os.pathsep}{env['PATH']}"}


@dataclass
class Ran:
    """What one command did."""

    command: str
    status: int | None
    seconds: float
    output: str


def run(command: str, checkout: Path, env: dict[str, str], timeout: float) -> Ran:
    """``command`` through bash, as typed at a prompt, with no input."""
    started = time.monotonic()
    process = subprocess.Popen(
        ["bash", "-c", command],
        cwd=checkout,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
        status: int | None = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        status = None
    return Ran(command, status, time.monotonic() - started, output.decode(errors="replace"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serve(command: str, checkout: Path, env: dict[str, str]) -> Ran:
    """Start a serving command on a free port, wait until its page answers,
    then stop it as Ctrl-C would; the status is 0 when the page came."""
    port = free_port()
    started = time.monotonic()
    process = subprocess.Popen(
        ["bash", "-c", f"{command} {SERVERS[command.split(' WEB_ARGS=')[0]].format(port=port)}"],
        cwd=checkout,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    answered = False
    try:
        while time.monotonic() - started < SERVE_TIMEOUT and process.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    answered = page.status == 200 and b"<html" in page.read().lower()
                    break
            except OSError:
                time.sleep(0.5)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
        try:
            output, _ = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
    text = output.decode(errors="replace")
    return Ran(command, 0 if answered else 1, time.monotonic() - started, text)


def test_the_readme_opens_with_make_run_and_make_test() -> None:
    assert readme_commands()[:2] == ["make run", "make test"]


@pytest.mark.slow  # a fresh checkout, make run and every command: minutes
def test_every_readme_command_runs_as_written_in_a_fresh_checkout(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    checkout = tmp_path_factory.mktemp("fresh-checkout")
    home = tmp_path_factory.mktemp("home")
    fresh_copy(checkout)
    assert not (checkout / ".venv").exists()
    env = outside_env(home)
    commands = readme_commands()
    assert "make run" in commands
    setup = run("make run", checkout, env, SETUP_TIMEOUT)
    assert setup.status == 0, setup.output[-3000:]
    assert "Demo: one hand of Classic Spades" in setup.output
    shell = activated(env, checkout)

    failures = []
    done: list[Ran] = []
    for command in commands:
        if command == "make run":
            continue
        if command == "make test":
            ran = run("make -n test", checkout, shell, COMMAND_TIMEOUT)
            resolved = all(
                step in ran.output for step in ("ruff check", "mypy", "pytest", "mkdocs")
            )
            if not resolved:
                ran.status = 1
        elif command.split(" WEB_ARGS=")[0] in SERVERS:
            ran = serve(command, checkout, shell)
        else:
            ran = run(command, checkout, shell, COMMAND_TIMEOUT)
        done.append(ran)
        if ran.status != 0:
            ending = "timed out" if ran.status is None else f"exit status {ran.status}"
            failures.append(
                f"$ {command}\n({ending} after {ran.seconds:.0f} s)\n{ran.output[-2000:]}"
            )
    assert not failures, "\n\n".join(failures)
    slowest = max(done, key=lambda ran: ran.seconds)
    print(f"slowest README command: {slowest.command} ({slowest.seconds:.0f} s)")


def test_the_readme_command_list_is_what_the_fresh_checkout_runs() -> None:
    commands = readme_commands()
    words = [shlex.split(command) for command in commands]
    assert {w[0] for w in words} <= {"make", "spades", "python", "pip"}
    # One command for each capability the README promises more of.
    wanted = {
        "the web table": "make web",
        "a tournament": "spades tournament ",
        "PettingZoo": "examples/rl_loop.py",
        "OpenSpiel": "ismcts",
        "the batch engine": "--engine batch",
        "Ray": "--backend ray",
        "the contract odds example": "examples/contract_odds/",
        "the random game example": "examples/random_game.py",
        "a plugin from a checkout": "pip install -e examples/custom_variant",
    }
    for capability, needle in wanted.items():
        assert any(needle in command for command in commands), f"no README command for {capability}"
    for command in commands:
        if command.startswith("make "):
            target = command.split()[1]
            makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
            assert re.search(rf"^{re.escape(target)}:", makefile, flags=re.M), command


def test_the_plugin_readme_says_how_to_install_it_from_a_checkout() -> None:
    text = (ROOT / "examples" / "custom_variant" / "README.md").read_text(encoding="utf-8")
    lines = [
        line.strip().removeprefix("$ ")
        for block in re.findall(r"```console\n(.*?)```", text, flags=re.S)
        for line in block.splitlines()
    ]
    install = "pip install -e examples/custom_variant"
    assert install in lines
    assert lines.index(install) < lines.index("spades rules suicide")
    assert (ROOT / "examples" / "custom_variant" / "pyproject.toml").is_file()
    # The same command is in the README's list, so the fresh checkout runs it.
    assert install in readme_commands()
