"""Bytecodes a random classic hand runs through the checked API, by function.

Time in interpreted code follows the bytecodes it runs and the calls it
makes more than anything else, and unlike time they do not move with the
load. This plays ``--warm-up`` hands first (the engine's tables of plays
fill up), then counts, with ``sys.settrace``'s opcode events, the bytecodes
each function runs over ``--hands`` more, and prints the counts a hand::

    python bench/opcode_counts.py --hands 200 --top 20

The loop is ``bench/run.py``'s ``checked_hand``, so the counts include its
own and ``random.choice``'s share.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run
import spades_core as sc

Key = tuple[str, str]
"""A function: its file's name and its own name."""


def counted(hands: int, seed: int) -> tuple[collections.Counter[Key], collections.Counter[Key]]:
    """Bytecodes run and calls made by each function over ``hands`` hands."""
    opcodes: collections.Counter[Key] = collections.Counter()
    calls: collections.Counter[Key] = collections.Counter()

    def on_call(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        key = (Path(frame.f_code.co_filename).name, frame.f_code.co_qualname)
        calls[key] += 1

        def on_opcode(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "opcode":
                opcodes[key] += 1
            return on_opcode

        return on_opcode

    rng = random.Random(seed)
    sys.settrace(on_call)
    try:
        for i in range(hands):
            run.checked_hand(sc.new_game("classic", seed=seed + i), rng)
    finally:
        sys.settrace(None)
    return opcodes, calls


def main(argv: list[str] | None = None) -> int:
    """Print the bytecodes and calls a hand, by function, most first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands counted")
    parser.add_argument("--warm-up", type=int, default=2000, help="hands played before")
    parser.add_argument("--top", type=int, default=20, help="functions shown")
    options = parser.parse_args(argv)
    rng = random.Random(7)
    for i in range(options.warm_up):
        run.checked_hand(sc.new_game("classic", seed=i), rng)
    opcodes, calls = counted(options.hands, 1_000_003)
    hands = options.hands
    print(
        f"bytecodes a hand: {sum(opcodes.values()) / hands:,.0f}; "
        f"calls a hand: {sum(calls.values()) / hands:,.1f}"
    )
    print(f"{'bytecodes':>10} {'calls':>7}  function")
    for key, count in opcodes.most_common(options.top):
        print(f"{count / hands:10,.0f} {calls[key] / hands:7.1f}  {key[0]}: {key[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
