"""The double-dummy solver against endplay's DDS, on the same seeded positions.

Seeded random Classic deals are played (random bids and cards, through the
checked API) to ``--tricks`` tricks from the end, and each position is solved:

* ``spades``: our best value under Spades' rules, as ``best_tricks`` does
  (from the first lead of a whole deal, spades not broken);
* ``bridge rules``: our best value with spades counted as broken, which is
  bridge with spades as trumps, beside DDS's best value
  (``SolveBoard`` asked for one optimal card) on the same position; both
  values are printed side by side and must agree;
* with ``--all-cards``, the value of every legal card too, ours
  (``card_tricks``' search) beside DDS's (``solve_board``).

Times are this process's CPU time per position; the medians are printed. On
a busy machine they are rough, and only the ratio of the two solvers, timed
in one run, means much.

    .venv/bin/python bench/dd_solver.py --deals 5
    .venv/bin/python bench/dd_solver.py --deals 20 --tricks 8 --all-cards --json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

import endplay._dds as dds
from endplay.dds import solve_board
from endplay.types import Card as BridgeCard
from endplay.types import Deal as BridgeDeal
from endplay.types import Denom, Player

import spades_core as sc
from spades_core.analysis.solve import Position, position_of
from spades_core.testing.strategies import play_randomly, random_deal

_RANKS = "23456789TJQKA"
_SUITS = "CDHS"


def seeded_position(seed: int, tricks: int) -> sc.Game:
    """A Classic game ``tricks`` tricks from the end of its first hand, at a trick's start."""
    rnd = random.Random(seed)
    game = sc.new_game("classic", seed=seed).apply(random_deal(rnd))
    return play_randomly(game, rnd, steps=4 + (13 - tricks) * 4)


def bridge_deal(position: Position) -> BridgeDeal:
    """The position (at a trick's start) as a bridge deal with spades trumps."""
    hands = []
    for held in position.hands:
        suits = []
        for suit in (3, 2, 1, 0):
            ranks = [_RANKS[r] for r in range(12, -1, -1) if held >> (suit * 13 + r) & 1]
            suits.append("".join(ranks))
        hands.append(".".join(suits))
    return BridgeDeal("N:" + " ".join(hands), first=Player(position.to_act), trump=Denom.spades)


def ours(position: Position) -> tuple[int, float]:
    """Our best value for the team to act, and the CPU seconds it took."""
    start = time.process_time()
    value = position.team_tricks(position.search())
    return value, time.process_time() - start


def dds_best(deal: BridgeDeal) -> tuple[int, float]:
    """DDS's best value for the side to play (one optimal card), and its CPU seconds."""
    future = dds.futureTricks()
    start = time.process_time()
    dds.SolveBoard(deal._data, -1, 1, 1, future, 0)
    return int(future.score[0]), time.process_time() - start


def measure(seed: int, deals: int, tricks: int, all_cards: bool) -> dict[str, Any]:
    """Solve ``deals`` seeded positions; the medians in milliseconds."""
    times: dict[str, list[float]] = {"spades": [], "ours_bridge": [], "dds_bridge": []}
    if all_cards:
        times["ours_cards"] = []
        times["dds_cards"] = []
    disagreements = 0
    for index in range(deals):
        game = seeded_position(seed + index, tricks)
        position = position_of(game)
        _, elapsed = ours(position)
        times["spades"].append(elapsed)
        bridge = Position(
            position.hands, position.to_act, position.trick, True, position.any_spade, False
        )
        value, elapsed = ours(bridge)
        times["ours_bridge"].append(elapsed)
        expected, elapsed = dds_best(bridge_deal(bridge))
        times["dds_bridge"].append(elapsed)
        disagreements += value != expected
        if all_cards:
            start = time.process_time()
            values = bridge.card_values(bridge.search())
            times["ours_cards"].append(time.process_time() - start)
            start = time.process_time()
            theirs = {str(card): score for card, score in solve_board(bridge_deal(bridge))}
            times["dds_cards"].append(time.process_time() - start)
            mine = {
                str(BridgeCard(_SUITS[card // 13] + _RANKS[card % 13])): score
                for card, score in values.items()
            }
            disagreements += mine != theirs
        print(f"  position {index + 1}/{deals} done", file=sys.stderr, flush=True)
    medians = {key: round(statistics.median(values) * 1000, 2) for key, values in times.items()}
    return {
        "deals": deals,
        "tricks": tricks,
        "seed": seed,
        "median_ms": medians,
        "solve_rate_vs_dds": round(medians["dds_bridge"] / medians["ours_bridge"], 4),
        "disagreements": disagreements,
        "compiled": sc.COMPILED,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5, help="positions to solve (default 5)")
    parser.add_argument("--tricks", type=int, default=13, help="tricks left (default 13)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first position")
    parser.add_argument("--all-cards", action="store_true", help="also value every legal card")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    result = measure(args.seed, args.deals, args.tricks, args.all_cards)
    if args.json:
        print(json.dumps(result))
        return 0 if result["disagreements"] == 0 else 1
    medians = result["median_ms"]
    build = "compiled" if result["compiled"] else "pure Python"
    print(f"{args.deals} Classic positions, {args.tricks} tricks left, seed {args.seed} ({build}):")
    print(f"  ours, Spades rules (spades unbroken):  median {medians['spades']:9.2f} ms")
    print(f"  ours, bridge rules (spades broken):    median {medians['ours_bridge']:9.2f} ms")
    print(f"  endplay DDS, the same positions:       median {medians['dds_bridge']:9.2f} ms")
    if args.all_cards:
        print(f"  every card, ours:                      median {medians['ours_cards']:9.2f} ms")
        print(f"  every card, endplay DDS:               median {medians['dds_cards']:9.2f} ms")
    print(f"  our solve rate / DDS's: {result['solve_rate_vs_dds']:.4f}")
    print(f"  disagreements with DDS: {result['disagreements']}")
    return 0 if result["disagreements"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
