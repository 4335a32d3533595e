"""Where simulation tasks run: this process, a local process pool, or Ray.

A task is a contiguous range of item indices of one match
(:func:`~spades_core.simulation.work.run_chunk`). Its result depends only on
the match and the indices, so a task can be run again anywhere: a task that
raises, or whose worker dies, is submitted again (up to ``retries`` times)
and nothing is lost or counted twice. Results are handed back per task and
combined by index, never in the order they finish.

* ``local`` — with one worker, this process; otherwise a pool of ``workers``
  processes (``spawn``). A worker that dies breaks the pool: it is replaced
  and every task that was in it runs again.
* ``ray`` — Ray tasks. Without an address a local Ray instance with
  ``workers`` CPUs is started and stopped around the run; with one, the run
  joins that cluster (and leaves it running). When Ray is already
  initialized in this process, the run uses that connection.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import math
import multiprocessing
import signal
import socket
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, Literal

import attrs

from spades_core.simulation.progress import Progress
from spades_core.simulation.work import ItemResult, Match, run_chunk
from spades_core.values.errors import SpadesError, brief

__all__ = [
    "BACKENDS",
    "DEFAULT_RETRIES",
    "BackendError",
    "BackendName",
    "Finished",
    "Planner",
    "Recorder",
    "SimulationError",
    "Task",
    "Tracker",
    "check_address",
    "plan_tasks",
    "run_tasks",
]

BackendName = Literal["local", "ray"]
"""The backends: ``"local"`` (default) and ``"ray"``."""
BACKENDS: Final = ("local", "ray")
"""The names a run's ``backend`` may take."""
DEFAULT_RETRIES: Final = 3
"""How many times a failed task is run again before the run fails."""
_CONNECT_TIMEOUT: Final = 5.0
_TASKS_PER_WORKER: Final = 8
_MAX_TASK_SIZE: Final = 64
_POLL: Final = 0.5
"""Seconds between looks at running tasks (and progress ticks)."""


class SimulationError(SpadesError):
    """A simulation task failed on every attempt; ``__cause__`` is the last failure."""


class BackendError(SimulationError):
    """A backend cannot run: Ray is not installed, or a cluster cannot be reached."""


@attrs.frozen
class Task:
    """Items ``start`` to ``stop - 1`` of ``match``."""

    match: Match
    start: int
    stop: int

    def describe(self) -> str:
        """The task in words, for error messages."""
        kind = "deals" if self.match.mode == "hands" else "games"
        return f"{kind} {self.start + 1}-{self.stop} of {self.match.first} vs {self.match.second}"


def plan_tasks(
    matches: Sequence[Match],
    count: int,
    workers: int,
    size: int | None,
    kept: Sequence[Collection[int]] | None = None,
) -> list[Task]:
    """Split ``count`` items of each match into tasks of ``size`` items,
    leaving out the item indices ``kept[m]`` has for match ``m``. The matches'
    tasks alternate, so that progress and the time left are seen early for all
    of them.

    Without ``size``, tasks hold about an eighth of a worker's share of the
    run, at most 64 items; but each match's first tasks are smaller, 1 item,
    then 2, 4 and so on up to that size, so that the first results (and a
    rate to report) come after one item, not after a whole task: a task of
    hard players' deals takes minutes.
    """
    chunks: list[list[tuple[int, int]]] = []
    for number in range(len(matches)):
        have = kept[number] if kept is not None else ()
        chunks.append(_missing_ranges(count, have))
    largest = size
    if largest is None:
        total = sum(stop - start for ranges in chunks for start, stop in ranges)
        largest = max(1, min(_MAX_TASK_SIZE, math.ceil(total / (workers * _TASKS_PER_WORKER))))
    split = [_cut(ranges, largest, ramp=size is None) for ranges in chunks]
    return [
        Task(match, *tasks[turn])
        for turn in range(max((len(tasks) for tasks in split), default=0))
        for match, tasks in zip(matches, split, strict=True)
        if turn < len(tasks)
    ]


def _cut(ranges: Sequence[tuple[int, int]], size: int, *, ramp: bool) -> list[tuple[int, int]]:
    """``ranges`` cut into consecutive pieces of ``size`` items; with ``ramp``,
    the first pieces hold 1, 2, 4, ... items until they reach ``size``."""
    pieces: list[tuple[int, int]] = []
    for start, stop in ranges:
        low = start
        while low < stop:
            length = min(size, 1 << len(pieces)) if ramp and len(pieces) < size else size
            pieces.append((low, min(stop, low + length)))
            low += length
    return pieces


def _missing_ranges(count: int, have: Collection[int]) -> list[tuple[int, int]]:
    """The runs of indices below ``count`` that ``have`` lacks, as ``(start, stop)``."""
    ranges: list[tuple[int, int]] = []
    start = None
    for index in range(count + 1):
        missing = index < count and index not in have
        if missing and start is None:
            start = index
        elif not missing and start is not None:
            ranges.append((start, index))
            start = None
    return ranges


Planner = Callable[[int], list[Task]]
"""The tasks of a run for a number of workers (CPUs)."""
Finished = list[tuple[Task, tuple[ItemResult, ...]]]
"""Every task with its results, in task order."""
Recorder = Callable[[Match, int, tuple[ItemResult, ...]], None]
"""Told each finished task's match, first item index and results."""


def run_tasks(
    planner: Planner,
    *,
    total: int,
    backend: BackendName,
    workers: int,
    address: str | None,
    retries: int,
    progress: Callable[[Progress], None] | None,
    record: Recorder | None = None,
) -> Finished:
    """Run the tasks ``planner`` makes for the backend's workers (on Ray, the
    cluster's CPUs) and return them with their results; ``progress`` is told
    after each task how many of the ``total`` items are done, and ``record``
    is given each task's results as it ends."""
    if backend == "ray":
        return _run_ray(planner, total, workers, address, retries, progress, record)
    tasks = planner(workers)
    tracker = Tracker(tasks, total, progress, record)
    if workers <= 1 or len(tasks) <= 1:
        _run_here(tasks, retries, tracker)
    else:
        _run_pool(tasks, workers, retries, tracker)
    return _finished(tasks, tracker.slots)


def _finished(tasks: Sequence[Task], slots: Sequence[tuple[ItemResult, ...] | None]) -> Finished:
    done = []
    for task, results in zip(tasks, slots, strict=True):
        if results is None:  # pragma: no cover - every task is reported or the run raises
            raise SimulationError(f"the task for {task.describe()} reported nothing")
        done.append((task, results))
    return done


class _Attempts:
    """Counts each task's failures and stops the run when one fails too often."""

    def __init__(self, tasks: Sequence[Task], retries: int) -> None:
        self.tasks = tasks
        self.retries = retries
        self.failures = [0] * len(tasks)
        self.retried = 0

    def failed(self, number: int, error: BaseException) -> None:
        self.failures[number] += 1
        if self.failures[number] > self.retries:
            raise SimulationError(
                f"the task for {self.tasks[number].describe()} failed "
                f"{self.failures[number]} times; last: {type(error).__name__}: {error}"
            ) from error
        self.retried += 1


def _run_here(tasks: Sequence[Task], retries: int, tracker: Tracker) -> None:
    attempts = _Attempts(tasks, retries)
    for number, task in enumerate(tasks):
        while True:
            try:
                results: list[ItemResult] = []
                # Deal by deal, so that progress can tick inside a long task.
                for index in range(task.start, task.stop):
                    results.extend(run_chunk(task.match, index, index + 1))
                    tracker.tick()
            except Exception as error:
                attempts.failed(number, error)
                continue
            tracker.done(number, tuple(results), attempts.retried)
            break


def _run_pool(tasks: Sequence[Task], workers: int, retries: int, tracker: Tracker) -> None:
    attempts = _Attempts(tasks, retries)
    pending = collections.deque(range(len(tasks)))
    context = multiprocessing.get_context("spawn")

    def new_pool() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_leave_interrupts_to_the_run
        )

    pool = new_pool()
    running: dict[Future[tuple[ItemResult, ...]], int] = {}
    try:
        while pending or running:
            # A bounded window: a broken pool loses only the tasks inside it.
            while pending and len(running) < 2 * workers:
                number = pending.popleft()
                task = tasks[number]
                # Submitting may start a worker process, which keeps the signal
                # mask it starts with: Ctrl-C is then never delivered to it.
                with _interrupts_held():
                    future = pool.submit(run_chunk, task.match, task.start, task.stop)
                running[future] = number
            finished, _ = wait(running, timeout=_POLL, return_when=FIRST_COMPLETED)
            if not finished:
                tracker.tick()
            broken: BrokenProcessPool | None = None
            for future in finished:
                number = running.pop(future)
                try:
                    results = future.result()
                except BrokenProcessPool as error:
                    broken = error
                    attempts.failed(number, error)
                    pending.appendleft(number)
                except Exception as error:
                    attempts.failed(number, error)
                    pending.appendleft(number)
                else:
                    tracker.done(number, results, attempts.retried)
            if broken is not None:
                # A dead worker breaks the whole pool: start a new one and
                # run again every task that was still in the old one.
                for number in running.values():
                    attempts.failed(number, broken)
                    pending.appendleft(number)
                running.clear()
                pool.shutdown(wait=False, cancel_futures=True)
                pool = new_pool()
    except BaseException:
        # Ctrl-C, or a task that failed too often: the tasks still running
        # are abandoned, so their workers are stopped now rather than waited for
        # (a task of hard players' deals runs for minutes).
        _stop_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _leave_interrupts_to_the_run() -> None:
    """A pool worker's first step: ignore Ctrl-C, which the process running
    the pool handles by stopping every worker (here too where the signal mask
    could not keep it out, such as on Windows)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Block Ctrl-C (SIGINT) in this thread for the duration; a Ctrl-C that
    comes meanwhile is delivered when it ends (or to another thread of the
    process, which interrupts this one all the same). Processes started
    meanwhile begin with it blocked. A no-op where signal masks do not exist."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's worker processes without waiting for their tasks."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    if callable(terminate):
        terminate()
        return
    # Before 3.14 the executor offers no way to stop a running task; its
    # workers are in its ``_processes`` mapping (process id -> Process).
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.terminate()


def _ray() -> Any:
    try:
        import ray
    except ImportError as error:
        raise BackendError("the ray backend needs Ray: pip install 'spades-core[ray]'") from error
    return ray


def check_address(address: str) -> None:
    """Fail fast, with a clear :class:`BackendError`, when nothing listens at a
    Ray ``address`` (``HOST:PORT`` or ``ray://HOST:PORT``; ``auto`` is left to Ray)."""
    if address == "auto":
        return
    target = address.removeprefix("ray://")
    host, colon, port_text = target.rpartition(":")
    if not colon or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise BackendError(
            f"a Ray address is HOST:PORT (like 127.0.0.1:6379), ray://HOST:PORT or auto; "
            f"got {brief(address)}"
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port_text)), _CONNECT_TIMEOUT):
            pass
    except OSError as error:
        raise BackendError(
            f"cannot reach a Ray cluster at {address}: {error}; start one with "
            "'ray start --head', or leave out the address to start a local Ray instance"
        ) from error


def _run_ray(
    planner: Planner,
    total: int,
    workers: int,
    address: str | None,
    retries: int,
    progress: Callable[[Progress], None] | None,
    record: Recorder | None,
) -> Finished:
    ray = _ray()
    started = False
    if not ray.is_initialized():
        if address is not None:
            check_address(address)
        try:
            ray.init(
                address=address,
                num_cpus=None if address is not None else workers,
                include_dashboard=False if address is None else None,
                log_to_driver=False,
                logging_level=logging.ERROR,
                configure_logging=address is None,
            )
        except KeyboardInterrupt:
            _stop_ray(ray, at_once=True)
            raise
        except Exception as error:
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise BackendError(
                f"could not start or join {where}: {type(error).__name__}: {error}"
            ) from error
        started = True
    at_once = False
    try:
        # Tasks are sized for the whole cluster, which may be larger than this machine.
        cpus = int(ray.cluster_resources().get("CPU", 0)) or workers
        tasks = planner(cpus)
        tracker = Tracker(tasks, total, progress, record)
        _run_on_ray(ray, tasks, retries, tracker)
        return _finished(tasks, tracker.slots)
    except KeyboardInterrupt:
        at_once = True
        raise
    finally:
        if started:
            _stop_ray(ray, at_once=at_once)


def _stop_ray(ray: Any, *, at_once: bool) -> None:
    """Leave Ray, stopping the instance this process started (if it did).

    ``ray.shutdown()`` asks each process of a local instance to stop and gives
    it a second. Its autoscaler monitor takes all of that second, trying to
    report its end to a server already stopped; after Ctrl-C (``at_once``)
    the monitor is killed first, through the node object ``ray.shutdown()``
    stops the processes with, so that the command ends within moments. Should
    a Ray version lack that object, the plain shutdown runs.
    """
    node = getattr(getattr(getattr(ray, "_private", None), "worker", None), "_global_node", None)
    kill_monitor = getattr(node, "kill_monitor", None)
    if at_once and callable(kill_monitor):
        with contextlib.suppress(Exception):
            kill_monitor(check_alive=False)
    ray.shutdown()


def _run_on_ray(ray: Any, tasks: Sequence[Task], retries: int, tracker: Tracker) -> None:
    # Ray's own retries are off: the run counts attempts the same way on
    # every backend, and retries exceptions as well as lost workers.
    remote = ray.remote(max_retries=0)(run_chunk)
    attempts = _Attempts(tasks, retries)

    def submit(number: int) -> Any:
        task = tasks[number]
        return remote.remote(task.match, task.start, task.stop)

    running = {submit(number): number for number in range(len(tasks))}
    try:
        while running:
            # A bounded wait, so that Ctrl-C reaches Python between waits.
            finished, _ = ray.wait(list(running), num_returns=1, timeout=_POLL)
            if not finished:
                tracker.tick()
            for ref in finished:
                number = running.pop(ref)
                try:
                    results = ray.get(ref)
                except ray.exceptions.RayError as error:
                    attempts.failed(number, error)
                    running[submit(number)] = number
                else:
                    tracker.done(number, results, attempts.retried)
    finally:
        for ref in running:
            ray.cancel(ref, force=True)


class Tracker:
    """Keeps each task's results, hands them to ``record`` as they come, and
    tells ``on_progress`` how far the run is (with ``total`` items in the
    run): after every task, and on every :meth:`tick` while tasks are
    running, so that a log shows the run is alive."""

    def __init__(
        self,
        tasks: Sequence[Task],
        total: int,
        on_progress: Callable[[Progress], None] | None,
        record: Recorder | None = None,
    ) -> None:
        self.tasks = tasks
        self.record = record
        self.slots: list[tuple[ItemResult, ...] | None] = [None] * len(tasks)
        self.total = total
        self.on_progress = on_progress
        self.start = time.monotonic()
        self.items = 0
        self.hands = 0
        self.retried = 0
        self.first_ended = math.nan
        self.first_items = 0

    def done(self, number: int, results: tuple[ItemResult, ...], retried: int) -> None:
        """Task ``number`` finished with ``results``; ``retried`` tasks so far."""
        if self.record is not None:
            task = self.tasks[number]
            self.record(task.match, task.start, results)
        self.slots[number] = results
        if not self.items:
            self.first_ended = time.monotonic() - self.start
            self.first_items = len(results)
        self.items += len(results)
        self.hands += sum(result.hands for result in results)
        self.retried = retried
        self.tick()

    def tick(self) -> None:
        """Report the progress as it stands."""
        if self.on_progress is not None:
            elapsed = time.monotonic() - self.start
            self.on_progress(
                Progress(
                    self.items,
                    self.total,
                    self.hands,
                    elapsed,
                    self.retried,
                    self.first_ended,
                    self.first_items,
                )
            )
