"""Long runs of ``spades simulate`` and ``spades tournament`` with hard
players: Ctrl-C stops them at once, cleanly, on the local pool and on Ray;
the first progress line with a rate comes early; and a picture that cannot be
drawn is refused before any work.

The Ctrl-C tests run the real command in a session of its own and send
SIGINT to its whole process group, as a terminal does when Ctrl-C is
pressed, so the workers receive it too."""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from spades_core.cli import main
from spades_core.players import parse_player
from spades_core.simulation import Progress
from spades_core.simulation.backends import plan_tasks
from spades_core.simulation.progress import ProgressPrinter
from spades_core.simulation.work import Match

# psutil, which watches the workers, comes with the ray extra's install.
pytestmark = pytest.mark.integration("ray")

BIN = Path(sys.executable).parent
RATE_LINE = r"^\d+/\d+ deals \(\d+%\), [1-9]\d* hands?, \d+\.\d hands/s, "
"""A progress line with a rate: some hands played, and how many a second."""
STOP_WITHIN = 2.0
FIRST_RATE_WITHIN = 15.0
START_TIMEOUT = 120.0


def command_env() -> dict[str, str]:
    """This environment without Ray settings and with Ray's token
    authentication off, so that a local Ray instance starts unattended."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    env["RAY_AUTH_MODE"] = "disabled"
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def _default_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class RunningCommand:
    """A ``spades`` command in a process group of its own, with its standard
    error read as it comes and its descendants noted as they appear."""

    def __init__(self, args: list[str]) -> None:
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [str(BIN / "spades"), *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=command_env(),
            start_new_session=True,
            # As from a terminal: a shell that starts a command in the
            # background (a CI script's `&`) leaves it ignoring Ctrl-C, and a
            # child inherits that; the run under test must begin with the default.
            preexec_fn=_default_interrupt,
        )
        assert self.process.stderr is not None
        os.set_blocking(self.process.stderr.fileno(), False)
        self.err = b""
        self.seen: dict[int, psutil.Process] = {}

    def poll(self) -> None:
        """Read what standard error has, and note new descendants."""
        assert self.process.stderr is not None
        while True:
            try:
                chunk = os.read(self.process.stderr.fileno(), 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            self.err += chunk
        try:
            for child in psutil.Process(self.process.pid).children(recursive=True):
                self.seen.setdefault(child.pid, child)
        except psutil.Error:
            pass

    @property
    def text(self) -> str:
        return self.err.decode("utf-8", errors="replace")

    def wait_for(self, pattern: str, timeout: float) -> float:
        """Seconds from the start until ``pattern`` matches a line of standard error."""
        while time.monotonic() - self.started < timeout:
            self.poll()
            if re.search(pattern, self.text, flags=re.M):
                return time.monotonic() - self.started
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.poll()
        pytest.fail(f"no line matching {pattern!r} within {timeout} s; stderr:\n{self.text}")

    def alive(self) -> list[str]:
        """The descendants seen so far that still run."""
        running = []
        for child in self.seen.values():
            try:
                if child.is_running() and child.status() != psutil.STATUS_ZOMBIE:
                    running.append(f"{child.pid} {' '.join(child.cmdline())[:100]}")
            except psutil.Error:
                continue
        return running

    def kill_everything(self) -> None:
        """Leave nothing behind, whatever the test found."""
        with_children = [*self.seen.values()]
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGKILL)
        for child in with_children:
            try:
                child.kill()
            except psutil.Error:
                continue
        self.process.wait(timeout=30)
        psutil.wait_procs(with_children, timeout=30)
        if self.process.stderr is not None:
            self.process.stderr.close()


@pytest.fixture
def running() -> Iterator[list[RunningCommand]]:
    started: list[RunningCommand] = []
    yield started
    for command in started:
        command.kill_everything()


HARD_RUNS = {
    "simulate-local": ["simulate", "--ns", "hard", "--ew", "easy", "--hands", "1000"],
    "tournament-local": ["tournament", "--players", "normal,hard", "--hands", "500"],
    "simulate-ray": ["simulate", "--ns", "hard", "--ew", "normal", "--hands", "1000",
                     "--backend", "ray"],
    "tournament-ray": ["tournament", "--players", "easy,hard", "--hands", "500",
                       "--backend", "ray"],
}  # fmt: skip


@pytest.mark.parametrize(
    "run",
    [
        pytest.param(run, marks=[pytest.mark.ray] if "ray" in run else [])
        for run in sorted(HARD_RUNS)
    ],
)
def test_ctrl_c_stops_a_run_of_hard_players_at_once_with_one_line(
    running: list[RunningCommand], run: str
) -> None:
    args = [*HARD_RUNS[run], "--duplicate", "--seed", "1", "--workers", "2"]
    command = RunningCommand(args)
    running.append(command)
    # The first report with a rate (hands played, hands per second) comes
    # after the first small task.
    first_rate = command.wait_for(RATE_LINE, START_TIMEOUT)
    assert first_rate <= FIRST_RATE_WITHIN, command.text
    command.poll()
    workers = [child for child in command.seen.values() if child.pid != command.process.pid]
    assert len(workers) >= 2, "the run should have started its worker processes"
    before = command.text

    os.killpg(command.process.pid, signal.SIGINT)
    interrupted = time.monotonic()
    try:
        status = command.process.wait(timeout=STOP_WITHIN)
    except subprocess.TimeoutExpired:
        command.poll()
        pytest.fail(f"still running {STOP_WITHIN} s after Ctrl-C; stderr:\n{command.text}")
    while command.alive() and time.monotonic() - interrupted < STOP_WITHIN:
        time.sleep(0.05)
    left = command.alive()
    command.poll()

    assert status == 130
    assert not left, f"processes left running after Ctrl-C: {left}"
    assert "Traceback" not in command.text
    assert "KeyboardInterrupt" not in command.text
    after = command.text[len(before) :]
    assert after.strip().splitlines() == [f"spades {args[0]}: interrupted"], after


def test_without_a_journal_the_line_says_only_interrupted_and_with_one_how_to_go_on(
    tmp_path: Path,
) -> None:
    from spades_core.cli.simulate import interrupted_line
    from spades_core.simulation.core import plan_run

    assert interrupted_line("simulate", plan_run(hands=4, seed=1)) == (
        "spades simulate: interrupted"
    )
    journal = tmp_path / "run.jsonl"
    line = interrupted_line("tournament", plan_run(hands=4, seed=1, journal=journal))
    assert line.startswith(f"spades tournament: interrupted; the journal {journal} keeps")
    assert "the same command goes on from there" in line


def test_ctrl_c_in_the_api_reaches_the_caller_and_leaves_no_pool_worker() -> None:
    from spades_core.simulation import simulate

    def interrupt(progress: Progress) -> None:
        if progress.done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        # Without the interrupt this would take minutes of hard players' deals.
        simulate("hard", "easy", hands=400, seed=2, workers=2, progress=interrupt)
    leftover = [
        child
        for child in psutil.Process().children(recursive=True)
        if "multiprocessing" in " ".join(child.cmdline())
        and "resource_tracker" not in " ".join(child.cmdline())
    ]
    _, alive = psutil.wait_procs(leftover, timeout=STOP_WITHIN)
    assert not alive, [child.cmdline() for child in alive]


# -- small first tasks ------------------------------------------------------------------


def match(name: str) -> Match:
    return Match("classic", parse_player(name), parse_player("easy"), "hands", 1)


def test_the_first_tasks_are_small_and_grow_to_the_usual_size() -> None:
    tasks = plan_tasks([match("hard")], 1000, workers=2, size=None)
    sizes = [task.stop - task.start for task in tasks]
    # About eight tasks per worker (1000 / 16, so 63), but the first hold 1, 2, 4, ...
    assert sizes[:7] == [1, 2, 4, 8, 16, 32, 63]
    assert max(sizes) == 63
    assert [(t.start, t.stop) for t in tasks] == sorted((t.start, t.stop) for t in tasks)
    covered = [index for task in tasks for index in range(task.start, task.stop)]
    assert covered == list(range(1000))


def test_every_match_of_a_tournament_starts_with_a_one_item_task() -> None:
    matches = [match("hard"), match("normal"), match("random")]
    tasks = plan_tasks(matches, 300, workers=2, size=None)
    assert [(t.match, t.stop - t.start) for t in tasks[:3]] == [(m, 1) for m in matches]
    for each in matches:
        covered = sorted(i for t in tasks if t.match == each for i in range(t.start, t.stop))
        assert covered == list(range(300))


def test_a_chosen_task_size_is_kept_from_the_first_task_and_kept_items_are_left_out() -> None:
    tasks = plan_tasks([match("hard")], 10, workers=2, size=3)
    assert [(t.start, t.stop) for t in tasks] == [(0, 3), (3, 6), (6, 9), (9, 10)]
    ramped = plan_tasks([match("hard")], 40, workers=1, size=None, kept=[{0, 1, 2, 5}])
    # 36 items left for one worker: tasks of 5 (36 / 8), after 1, 2 (cut short
    # by the kept item 5) and 4.
    assert [(t.start, t.stop) for t in ramped][:5] == [(3, 4), (4, 5), (6, 10), (10, 15), (15, 20)]
    covered = [i for t in ramped for i in range(t.start, t.stop)]
    assert covered == [i for i in range(40) if i not in {0, 1, 2, 5}]


def test_the_first_line_with_a_rate_is_printed_at_once_and_none_before_a_hand() -> None:
    stream = io.StringIO()
    printer = ProgressPrinter(stream, "deals", terminal=False, every=3600)
    printer(Progress(0, 10, 0, 1.0))
    printer(Progress(0, 10, 0, 2.0))  # within the hour: not printed
    printer(Progress(1, 10, 1, 3.0, first_ended=3.0, first_items=1))  # the first rate: at once
    printer(Progress(2, 10, 2, 4.0, first_ended=3.0, first_items=1))  # within the hour again
    assert stream.getvalue().splitlines() == [
        "0/10 deals (0%), 0 hands, time left not known yet",
        # One deal tells the rate so far, not yet the time left (see test_simulate_cli.py).
        "1/10 deals (10%), 1 hand, 0.3 hands/s, time left not known yet",
    ]


# -- a picture that cannot be drawn ----------------------------------------------------------


def test_tournament_plot_without_matplotlib_is_refused_before_playing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import spades_core.cli.tournament as command

    def no_play(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the tournament was played")

    monkeypatch.setattr(command, "run_matches", no_play)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    picture = tmp_path / "x.png"
    status = main(
        ["tournament", "--players", "easy,random", "--hands", "1", "--plot", str(picture)]
    )
    err = capsys.readouterr().err
    assert status == 2
    assert err == (
        "spades tournament: drawing a plot needs matplotlib: pip install 'spades-core[plot]'\n"
    )
    assert not picture.exists()


def test_ctrl_c_in_any_other_command_prints_one_line_and_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Interrupting(io.BytesIO):
        def readline(self, size: int | None = -1) -> bytes:
            raise KeyboardInterrupt

    class Stdin:
        buffer = Interrupting()

    monkeypatch.setattr(sys, "stdin", Stdin())
    try:
        status = main(["replay", "-"])
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped the command as a KeyboardInterrupt")
    assert status == 130
    captured = capsys.readouterr()
    assert captured.err == "spades replay: interrupted\n"
    assert captured.out == ""
