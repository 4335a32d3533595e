"""Speed-up of simulations from 1 to 2 workers, and the cost of a task, on the
local and Ray backends (docs/scaling.md explains the method).

    python bench/scaling.py                   # a table
    python bench/scaling.py --json            # machine-readable results
    python bench/scaling.py --backends local  # one backend only

For each backend and each number of workers the same simulation (``--hands``
duplicate deals of ``--ns`` against ``--ew``, seed 1) is timed ``--repeat``
times and the median wall-clock time is kept; a Ray instance with that many
CPUs is started before the timed runs and stopped after them (its start-up is
reported apart). The overhead per task is measured with random players, whose
hands cost almost nothing: the same ``--overhead-hands`` deals in one task per
worker and in one task per deal (the fastest of the repeats of each), the
extra time divided by the extra tasks. ``tiny_run_seconds`` is a run of two
random deals: on the local pool, mostly starting the worker processes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from spades_core.simulation import simulate


def _seconds(run: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return times


def _with_ray(workers: int, body: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    import ray

    start = time.perf_counter()
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    started = time.perf_counter() - start
    try:
        measured = body()
    finally:
        ray.shutdown()
    return {**measured, "startup_seconds": round(started, 2)}


def measure(backend: str, workers: int, args: argparse.Namespace) -> dict[str, Any]:
    """Median seconds of the simulation and of the two overhead runs."""

    def body() -> dict[str, Any]:
        def work() -> object:
            return simulate(
                args.ns, args.ew, hands=args.hands, duplicate=True, seed=1,
                backend=backend, workers=workers,  # type: ignore[arg-type]
            )  # fmt: skip

        seconds = statistics.median(_seconds(work, args.repeat))
        n = args.overhead_hands

        def tasks(size: int) -> Callable[[], object]:
            return lambda: simulate(
                "random", "random", hands=n, seed=1, backend=backend,  # type: ignore[arg-type]
                workers=workers, task_size=size,
            )  # fmt: skip

        big = max(1, -(-n // workers))
        # The fastest of the repeats: on a busy machine the others carry noise.
        few = min(_seconds(tasks(big), args.repeat))
        many = min(_seconds(tasks(1), args.repeat))
        extra_tasks = n - -(-n // big)

        def tiny() -> object:
            return simulate(
                "random", "random", hands=2, seed=1, backend=backend,  # type: ignore[arg-type]
                workers=workers,
            )  # fmt: skip

        startup = statistics.median(_seconds(tiny, args.repeat))
        return {
            "backend": backend,
            "workers": workers,
            "seconds": round(seconds, 2),
            "tiny_run_seconds": round(startup, 2),
            "hands_per_second": round(2 * args.hands / seconds, 1),
            "overhead_ms_per_task": round(1000 * (many - few) / extra_tasks, 2),
        }

    if backend == "ray":
        return _with_ray(workers, body)
    return body()


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ns", default="normal")
    parser.add_argument("--ew", default="easy")
    parser.add_argument("--hands", type=int, default=400, help="duplicate deals per run")
    parser.add_argument("--overhead-hands", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backends", default="local,ray")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    rows = [
        measure(backend, workers, args)
        for backend in args.backends.split(",")
        for workers in (1, 2)
    ]
    for row in rows:
        one = next(r for r in rows if r["backend"] == row["backend"] and r["workers"] == 1)
        row["speedup"] = round(one["seconds"] / row["seconds"], 2)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    if args.json:
        print(json.dumps({"rows": rows, "load_average": load}, indent=2))
        return 0
    print(f"{args.hands} duplicate deals of {args.ns} vs {args.ew}; load average {load}")
    print(f"{'backend':<8}{'workers':>8}{'seconds':>9}{'hands/s':>9}{'speed-up':>10}"
          f"{'ms/task':>9}{'tiny run s':>12}{'Ray start s':>13}")  # fmt: skip
    for row in rows:
        print(
            f"{row['backend']:<8}{row['workers']:>8}{row['seconds']:>9}"
            f"{row['hands_per_second']:>9}{row['speedup']:>10}"
            f"{row['overhead_ms_per_task']:>9}{row['tiny_run_seconds']:>12}"
            f"{row.get('startup_seconds', ''):>13}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
