"""Where pruning changes the hard bot's choices, and what it saves.

Seeded hands of each variant (classic, Mirror, Whiz) are played by four
normal bots; at every decision with a choice, a hard bot with ``prune=on``
and one with ``prune=off``, seeded alike, are asked in turn on the same view
(so both draw the same deals), and each call is timed with this process's
CPU time: a ratio measured in one run, which a busy machine disturbs little.
Prints, per variant, the decisions, how often each search overrode the
normal policy, how many choices differ, the median and mean time of each,
and every decision where the choices differ.

    .venv/bin/python bench/prune_choices.py --hands 2
    .venv/bin/python bench/prune_choices.py --hands 4 --seed 7 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

import spades_core as sc
from spades_core.bots import HardBot, Why, make

VARIANTS = ("classic", "mirror", "whiz")
SEARCHED = (Why.SEARCH, Why.BID_SIMULATED, Why.BID_NIL_SIMULATED)
"""The reasons a hard bot gives when its search overrides the normal policy."""


def compare(variant: str, hands: int, seed: int) -> dict[str, Any]:
    """Both searches on every decision with a choice of ``hands`` seeded hands."""
    rows: dict[str, Any] = {
        "decisions": 0,
        "overrides": {"on": 0, "off": 0},
        "differ": [],
        "ms": {"on": [], "off": []},
    }
    for index in range(hands):
        game = sc.new_game(variant, seed=seed + index).deal()
        normals = [make("normal", seed=seed * 10 + s) for s in range(4)]
        decision = 0
        while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if len(view.legal_actions()) > 1:
                chosen = {}
                for prune in ("on", "off"):
                    bot = HardBot(seed * 1000 + index * 100 + decision, prune=prune)
                    start = time.process_time()
                    chosen[prune] = bot.decide(view)
                    rows["ms"][prune].append((time.process_time() - start) * 1000)
                    rows["overrides"][prune] += chosen[prune][1] in SEARCHED
                rows["decisions"] += 1
                if chosen["on"][0] != chosen["off"][0]:
                    rows["differ"].append(
                        {
                            "hand": index,
                            "decision": decision,
                            "seat": seat.name,
                            "off": f"{chosen['off'][0]} ({chosen['off'][1].name})",
                            "on": f"{chosen['on'][0]} ({chosen['on'][1].name})",
                        }
                    )
            decision += 1
            game = game.apply(normals[seat].choose(view))
    for prune in ("on", "off"):
        times = rows["ms"][prune]
        rows["ms"][prune] = {
            "median": round(statistics.median(times), 2),
            "mean": round(statistics.fmean(times), 2),
        }
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2, help="hands per variant (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = {variant: compare(variant, args.hands, args.seed) for variant in VARIANTS}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"{'variant':<9}{'decisions':>10}{'overrides on/off':>18}{'differ':>8}"
        f"{'median ms on/off':>18}{'mean ms on/off':>16}"
    )
    for variant, rows in report.items():
        on, off = rows["ms"]["on"], rows["ms"]["off"]
        overrides = f"{rows['overrides']['on']}/{rows['overrides']['off']}"
        print(
            f"{variant:<9}{rows['decisions']:>10}{overrides:>18}{len(rows['differ']):>8}"
            f"{on['median']:>9.1f}/{off['median']:<8.1f}{on['mean']:>7.1f}/{off['mean']:<8.1f}"
        )
    for variant, rows in report.items():
        for row in rows["differ"]:
            print(
                f"  {variant} hand {row['hand']} decision {row['decision']} {row['seat']}: "
                f"prune=off {row['off']}, prune=on {row['on']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
