"""Simulations for IS-MCTS that match the hard bot's CPU time per decision.

Seeded hands of each variant (classic, Mirror, Whiz) are played by four
normal bots; at every decision with a choice, the reference player
(``--reference``, default ``hard``) and IS-MCTS at each number of
simulations in ``--simulations`` are asked in turn on the same view, and
each call is timed with this process's CPU time. Interleaving the players on
the same positions makes the comparison a ratio measured in one run, which a
busy machine disturbs little. Prints each player's median and mean, and the
number of simulations whose median matches the reference's (interpolated
between the two nearest counts, IS-MCTS's time growing about linearly with
its simulations).

    .venv/bin/python bench/calibrate_ismcts.py --hands 2 --simulations 20 40 60
    .venv/bin/python bench/calibrate_ismcts.py --ismcts ismcts:rollout=normal --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

import spades_core as sc
from spades_core.bots import make
from spades_core.players import make_player

VARIANTS = ("classic", "mirror", "whiz")


def timings(
    reference: str, ismcts: str, counts: list[int], hands: int, seed: int
) -> dict[str, list[float]]:
    """CPU seconds per decision of every player, on the same positions."""
    specs = [reference, *(f"{ismcts}:simulations={count}" for count in counts)]
    seconds: dict[str, list[float]] = {spec: [] for spec in specs}
    for variant in VARIANTS:
        for index in range(hands):
            game = sc.new_game(variant, seed=seed + index).deal()
            normal = [make("normal", seed=seed + s) for s in range(4)]
            # One player per spec and seat for the hand, as a simulation seats them.
            players = {
                spec: [make_player(spec, seed=seed * 100 + index * 4 + s) for s in range(4)]
                for spec in specs
            }
            while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
                seat = game.to_act
                assert seat is not None
                view = game.view(seat)
                if len(view.legal_actions()) > 1:
                    for spec in specs:
                        start = time.process_time()
                        players[spec][seat].choose(view)
                        seconds[spec].append(time.process_time() - start)
                game = game.apply(normal[seat].choose(view))
    return seconds


def matching(reference: float, medians: dict[int, float]) -> float:
    """The simulations whose median time equals ``reference``, interpolated
    (or extrapolated) linearly between the two nearest measured counts."""
    counts = sorted(medians)
    below = [c for c in counts if medians[c] <= reference]
    above = [c for c in counts if medians[c] > reference]
    low = below[-1] if below else counts[0]
    high = above[0] if above else counts[-1]
    if low == high:
        other = counts[1] if low == counts[0] else counts[-2]
        low, high = min(low, other), max(low, other)
    slope = (medians[high] - medians[low]) / (high - low)
    return low + (reference - medians[low]) / slope


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", default="hard", help="the player to match (default hard)")
    parser.add_argument(
        "--ismcts", default="ismcts:rollout=normal", help="the IS-MCTS player, without simulations"
    )
    parser.add_argument("--simulations", type=int, nargs="+", default=[20, 40, 60])
    parser.add_argument("--hands", type=int, default=2, help="hands per variant (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if len(set(args.simulations)) < 2:
        parser.error("give at least two numbers of simulations")
    seconds = timings(args.reference, args.ismcts, args.simulations, args.hands, args.seed)
    report: dict[str, Any] = {
        spec: {
            "decisions": len(values),
            "median_ms": round(statistics.median(values) * 1000, 2),
            "mean_ms": round(statistics.fmean(values) * 1000, 2),
        }
        for spec, values in seconds.items()
    }
    reference = statistics.median(seconds[args.reference])
    medians = {
        count: statistics.median(seconds[f"{args.ismcts}:simulations={count}"])
        for count in args.simulations
    }
    report["matching_simulations"] = round(matching(reference, medians), 1)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for spec, row in report.items():
        if isinstance(row, dict):
            print(
                f"{spec:<40}{row['decisions']:>6} decisions  median {row['median_ms']:8.2f} ms"
                f"  mean {row['mean_ms']:8.2f} ms"
            )
    print(f"simulations matching the median of {args.reference}: {report['matching_simulations']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
