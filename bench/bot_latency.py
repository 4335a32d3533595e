"""Decision latency of the bots: median, 99th percentile and worst per player.

Each level plays every seat of ``--hands`` seeded hands per variant (classic,
Mirror, Whiz); every ``choose(view)`` call is timed with
``time.perf_counter``, or with this process's CPU time (``--cpu-time``,
steadier on a busy machine); building the view is not included. Bids and
plays are pooled, as a player experiences them.

    .venv/bin/python bench/bot_latency.py            # all levels, 6 hands per variant
    .venv/bin/python bench/bot_latency.py --levels hard --hands 20 --json
    .venv/bin/python bench/bot_latency.py --levels hard --cpu-time
    .venv/bin/python bench/bot_latency.py --players hard ismcts:simulations=50 --hands 2
    .venv/bin/python bench/bot_latency.py --players hard --variants classic --hands 1

``--players`` (or ``--levels``) takes any player spec ``spades simulate``
takes: a level, a level with options, or an installed player such as ``ismcts``
(``perfect-info`` is handed every seat's cards, as in a simulation).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import spades_core as sc
from spades_core.bots import LEVELS, SeesAllHands
from spades_core.players import make_player

VARIANTS = ("classic", "mirror", "whiz")

clock: Callable[[], float] = time.perf_counter
"""The timer: wall-clock time, or this process's CPU time with ``--cpu-time``."""


def percentile(sorted_values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of the sorted values fall (nearest rank)."""
    index = min(len(sorted_values) - 1, max(0, round(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


def time_level(player: str, variant: str, hands: int, seed: int) -> dict[str, list[float]]:
    """Seconds per decision, split into bids and plays."""
    timings: dict[str, list[float]] = {"bid": [], "play": []}
    for index in range(hands):
        game = sc.new_game(variant, seed=seed + index).deal()
        players = [make_player(player, seed=seed * 10 + index * 4 + s) for s in range(4)]
        while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            kind = "bid" if game.phase is sc.Phase.BID else "play"
            chooser = players[seat]
            if isinstance(chooser, SeesAllHands) and chooser.sees_all_hands is True:
                cards = sc.SeatMap(tuple(game.hand(other) for other in sc.Seat))
                start = clock()
                action = chooser.choose_seeing(view, cards)
            else:
                start = clock()
                action = chooser.choose(view)
            timings[kind].append(clock() - start)
            game = game.apply(action)
    return timings


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "decisions": len(ordered),
        "median_ms": round(statistics.median(ordered) * 1000, 3),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 3),
        "p99_ms": round(percentile(ordered, 0.99) * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--players", "--levels", nargs="+", default=list(LEVELS), help="player specs"
    )
    parser.add_argument("--hands", type=int, default=6, help="hands per variant (default 6)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--variants",
        nargs="+",
        choices=VARIANTS,
        default=list(VARIANTS),
        help="the variants to play (default all three)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time with this process's CPU time instead of the wall clock",
    )
    args = parser.parse_args(argv)
    global clock
    clock = time.process_time if args.cpu_time else time.perf_counter
    report: dict[str, Any] = {}
    for level in args.players:
        pooled: list[float] = []
        per_variant = {}
        for variant in args.variants:
            timings = time_level(level, variant, args.hands, args.seed)
            both = timings["bid"] + timings["play"]
            pooled += both
            per_variant[variant] = {
                "all": summary(both),
                "bids": summary(timings["bid"]),
                "plays": summary(timings["play"]),
            }
        report[level] = {"all": summary(pooled), "variants": per_variant}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    width = max(8, *(len(level) + 2 for level in report))
    print(
        f"{'player':<{width}}{'decisions':>10}{'median ms':>11}{'mean ms':>9}"
        f"{'p99 ms':>9}{'max ms':>9}"
    )
    for level, data in report.items():
        row = data["all"]
        print(
            f"{level:<{width}}{row['decisions']:>10}{row['median_ms']:>11.3f}{row['mean_ms']:>9.3f}"
            f"{row['p99_ms']:>9.3f}{row['max_ms']:>9.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
