"""How far each player is from perfect: the tricks it throws away a hand against double dummy.

Every level plays all four seats of the same seeded deals (one hand each,
dealt from the game's seed, so each level gets the same cards), and each
finished hand is reviewed (:func:`spades_core.analysis.review`). Per side and
hand it counts

* ``thrown``: the tricks the side's own bid still needed that its cards let
  go, each costly card's :attr:`~spades_core.analysis.Mistake.cost` summed;
* ``bags``: the needless bags its cards took once the contract was made.

A hand's figure is the mean of its two sides, so the hands are independent
items and each mean has a 95% Student's t interval
(:func:`spades_core.simulation.stats.mean_interval`). The review judges the
cards only, from the bids made: a level that bids worse is not charged for
the bids here.

    .venv/bin/python bench/dd_yardstick.py --deals 40
    .venv/bin/python bench/dd_yardstick.py --deals 10 --levels normal hard --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import spades_core as sc
from spades_core.analysis import MistakeKind, review
from spades_core.players import make_player
from spades_core.simulation.stats import mean_interval

LEVELS = ("random", "easy", "normal", "hard", "expert", "perfect-info")


def hand_figures(level: str, variant: str, seed: int) -> tuple[float, float]:
    """One seeded hand played by four ``level`` players: (thrown, bags), each
    the mean of the two sides."""
    game = sc.new_game(variant, seed=seed)
    players = [make_player(level, seed=seed * 4 + seat) for seat in range(4)]
    game = sc.bots.play_game(game, players, hands=1)
    thrown = bags = 0
    for mistake in review(game, 0):
        if mistake.kind is MistakeKind.NEEDLESS_BAG:
            bags += mistake.cost
        else:
            thrown += mistake.cost
    return thrown / 2, bags / 2


def measure(levels: list[str], variant: str, deals: int, seed: int) -> dict[str, Any]:
    """Each level's thrown tricks and needless bags a side and hand, with intervals."""
    rows: dict[str, Any] = {}
    for level in levels:
        start = time.process_time()
        figures = [hand_figures(level, variant, seed + index) for index in range(deals)]
        rows[level] = {
            "thrown": mean_interval([thrown for thrown, _ in figures]).to_json(),
            "bags": mean_interval([bags for _, bags in figures]).to_json(),
            "cpu_seconds": round(time.process_time() - start, 1),
        }
        print(f"  {level} done", file=sys.stderr, flush=True)
    return {"variant": variant, "deals": deals, "seed": seed, "levels": rows}


def _shown(interval: dict[str, float | None]) -> str:
    value, low, high = interval["value"], interval["low"], interval["high"]
    assert value is not None
    if low is None or high is None:
        return f"{value:.2f}"
    return f"{value:.2f} [{low:.2f}, {high:.2f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="seeded deals (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), metavar="PLAYER")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    result = measure(args.levels, args.variant, args.deals, args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.variant}, {args.deals} deals from seed {args.seed}, a side a hand:")
    print("| level | tricks thrown away | needless bags |")
    print("|---|---|---|")
    for level, row in result["levels"].items():
        print(f"| {level} | {_shown(row['thrown'])} | {_shown(row['bags'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
