"""The ratio rows of ``bench/run.py`` counted in instructions instead of time.

Time on a shared machine moves with the load, and the ratios of one run with
it; the instructions a random hand executes do not. For OpenSpiel's own
``spades`` played from a Python loop and for each Python path of
``bench/run.py`` (the engine by action ids, the OpenSpiel game, the
PettingZoo environments, the checked API), this script counts, under
callgrind, the instructions of one run of ``--hands`` random hands after a
warm-up of ``--warm-up`` hands: two processes per path, one playing the
warm-up alone and one playing it and then the measured run, and the
difference divided by the hands. The ratio printed is OpenSpiel's
instructions per hand over the path's, the speed ratio the path would have
if an instruction cost the same time everywhere (it does not quite: compare
with the timed ratios)::

    python bench/instruction_ratios.py            # every path, 200 hands each
    python bench/instruction_ratios.py --warm-up 100 --hands 100
    python bench/instruction_ratios.py --hands 100 --paths checked,ids

The warm-up matters: the engine keeps the tuples of pre-built plays it has
handed out (one per suit's slice of a hand), and a process that has played
few hands is still building them. ``bench/run.py`` times its ratio rows
after its sections have played thousands of hands, so the default warm-up,
:data:`WARM_UP_HANDS`, is long enough for the counts to describe that
state; a short one counts a process still filling its tables.

Needs valgrind; the OpenSpiel and PettingZoo paths need their extras.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

PATHS: dict[str, tuple[str, float | None]] = {
    # name: (the ratio row of bench/run.py, its goal)
    "native": ("OpenSpiel spades, Python loop", None),
    "ids": ("engine, action ids", 0.40),
    "openspiel": ("OpenSpiel game", 0.25),
    "raw_env": ("PettingZoo raw_env", 0.15),
    "env": ("PettingZoo env()", 0.10),
    "checked": ("random hands, checked API, classic", 0.6),
}
"""Each path this script counts, with its row and goal in ``bench/run.py``."""

WARM_UP_HANDS = 2000
"""Hands played before the measured run by default: by then the checked API's
tables of pre-built plays miss about twice a hand (over ten times after 100
hands), as they do when ``bench/run.py`` reaches its ratio rows."""


def path_run(name: str, hands: int) -> Callable[[int], float]:
    """The run of ``bench/run.py`` for path ``name``, playing ``hands`` hands."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    run: Any = importlib.import_module("run")
    made: Callable[[int], float] | None
    if name == "native":
        made = run.openspiel_native_run(hands)
    elif name == "ids":
        made = run.engine_ids_run(hands)
    elif name == "openspiel":
        made = run.openspiel_game_run(hands, chance_outcomes=False)
    elif name in ("raw_env", "env"):
        made = run.pettingzoo_run(hands, wrapped=name == "env")
    else:
        made = run.hand_rate_run(hands, "classic", run.checked_hand)
    if made is None:
        raise SystemExit(f"{name}: its framework is not installed")
    return made


def child(name: str, hands: int, warm_up: int, measured: bool) -> None:
    """Play ``warm_up`` hands of ``name``, and the measured run of ``hands``
    hands after them if ``measured``."""
    # Both runs are made in both processes, so that only playing differs.
    warm_up_run, measured_run = path_run(name, max(warm_up, 1)), path_run(name, hands)
    if warm_up:
        warm_up_run(-1)
    if measured:
        measured_run(0)


def instructions(name: str, hands: int, warm_up: int, measured: bool) -> int:
    """The instructions callgrind counts in one child process."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--child",
            name,
            "--hands",
            str(hands),
            "--warm-up",
            str(warm_up),
        ]
        if measured:
            command.append("--measured")
        # numpy's OpenBLAS threads wait for work by spinning, and callgrind
        # counts their instructions too: one thread keeps the counts steady.
        environment = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
        subprocess.run(command, check=True, capture_output=True, env=environment)
        found = re.search(r"^summary:\s*(\d+)", out.read_text(), re.MULTILINE)
        if found is None:
            raise SystemExit(f"no summary line in callgrind's output for {name}")
        return int(found.group(1))


def per_hand(name: str, hands: int, warm_up: int) -> float:
    """Instructions per hand of path ``name`` after ``warm_up`` hands."""
    measured = instructions(name, hands, warm_up, True)
    return (measured - instructions(name, hands, warm_up, False)) / hands


def main(argv: Sequence[str] | None = None) -> int:
    """Count each path and print its instructions per hand and its ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=200, help="hands in the measured run")
    parser.add_argument(
        "--warm-up",
        type=int,
        default=WARM_UP_HANDS,
        help=f"hands played before the measured run (default {WARM_UP_HANDS})",
    )
    parser.add_argument(
        "--paths",
        default=",".join(name for name in PATHS if name != "native"),
        help=f"comma-separated paths, of {', '.join(PATHS)}",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--measured", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.hands, args.warm_up, args.measured)
        return 0
    chosen = [name.strip() for name in args.paths.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in PATHS]
    if unknown:
        parser.error(f"unknown paths {unknown}; choose from {', '.join(PATHS)}")
    if args.hands < 1 or args.warm_up < 0:
        parser.error("--hands must be at least 1 and --warm-up at least 0")
    native = per_hand("native", args.hands, args.warm_up)
    print(f"{'path':<40} {'instructions/hand':>18} {'ratio':>6}  goal")
    print(f"{PATHS['native'][0]:<40} {native:>18,.0f} {1:>6.2f}")
    for name in chosen:
        if name == "native":
            continue
        row, goal = PATHS[name]
        count = per_hand(name, args.hands, args.warm_up)
        print(f"{row:<40} {count:>18,.0f} {native / count:>6.2f}  >= {goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
