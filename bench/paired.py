"""Two runs on the same deals compared deal by deal, from their journals.

Two ``spades simulate`` runs with the same variant, seed and number of
duplicate deals play the same deals. Their journals (``--journal FILE``)
keep every deal's result, so the two margins can be compared deal by deal:
this prints the mean of (first run's bag-adjusted margin − second run's)
per hand with its 95% interval, which is narrower than the two runs'
intervals side by side because the luck of each deal cancels.

    python bench/paired.py --variant mirror --hands 100 --seed 11 \\
        --first hard:inference=on normal first.journal \\
        --second hard normal second.journal
"""

from __future__ import annotations

import argparse
import json
import sys

from spades_core.players import parse_player
from spades_core.simulation.core import item_differences, plan_run
from spades_core.simulation.journal import read_journal
from spades_core.simulation.stats import mean_interval


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--hands", type=int, required=True, help="duplicate deals of each run")
    parser.add_argument("--seed", type=int, required=True)
    for run in ("first", "second"):
        parser.add_argument(
            f"--{run}",
            nargs=3,
            required=True,
            metavar=("NS", "EW", "JOURNAL"),
            help=f"the {run} run",
        )
    args = parser.parse_args(argv)
    plan = plan_run(variant=args.variant, hands=args.hands, seed=args.seed, duplicate=True)
    margins = []
    for ns, ew, path in (args.first, args.second):
        match = plan.match(parse_player(ns), parse_player(ew))
        (kept,) = read_journal(path, [match])
        missing = [index for index in range(args.hands) if index not in kept]
        if missing:
            parser.error(f"{path} lacks {len(missing)} of the {args.hands} deals of {ns} - {ew}")
        results = [kept[index] for index in range(args.hands)]
        margins.append(item_differences(results, plan.bag_cost))
    paired = [a - b for a, b in zip(margins[0], margins[1], strict=True)]
    print(json.dumps({"deals": args.hands, "difference": mean_interval(paired).to_json()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
