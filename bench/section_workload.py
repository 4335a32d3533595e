"""One section of ``bench/run.py`` at a small, fixed size, for counting instructions.

Wall-clock time on a shared machine moves with the load; the instructions a
section executes do not. Run this under callgrind, once per section and once
with ``none`` (imports only), and subtract::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.a \\
        .venv/bin/python bench/section_workload.py a
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.none \\
        .venv/bin/python bench/section_workload.py none

The ``summary:`` line of each output file is the count. Run every section
natively once first, so that no count includes compiling bytecode. Section
``g`` runs a fixed number of decisions (no time limit), so its count does not
depend on the speed of the machine.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from pathlib import Path
from typing import Any

SMALL_PLAN = {
    "hands": 150,
    "runs": 1,
    "sample_hands": 12,
    "decisions": 6,
    "bot_seconds": 1e9,
    "long_game": (40, 120),
}
"""Each section's size here: one warm-up and one timed run each."""
SMALL_BATCH_HANDS = 4000
SMALL_BATCH_TABLES = 256
OPTIONAL = (
    "numpy",
    "pyspiel",
    "pettingzoo",
    "spades_core.batch",
    "spades_core.envs.openspiel",
    "spades_core.envs.pettingzoo",
)
"""Imported by every run, ``none`` included, so that the difference is the section's own."""


def main(argv: list[str]) -> int:
    """Run the section named in ``argv`` (or ``none``)."""
    sys.path.insert(0, str(Path(__file__).parent))
    run: Any = importlib.import_module("run")
    if len(argv) != 1 or argv[0] not in (*run.SECTIONS, "none"):
        print(f"usage: section_workload.py {{{','.join(run.SECTIONS)},none}}", file=sys.stderr)
        return 2
    plan = run.Plan(**SMALL_PLAN)
    run.BATCH_HANDS.update(full=SMALL_BATCH_HANDS, quick=SMALL_BATCH_HANDS)
    run.BATCH_TABLES = SMALL_BATCH_TABLES
    for name in OPTIONAL:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    if argv[0] != "none":
        results = run.SECTIONS[argv[0]](plan)
        print(f"{argv[0]}: {len(results)} results", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
