"""A fingerprint of the bots' choices: one sha256 over every decision they make.

Plays seeded hands per setting (classic, Mirror, Whiz, classic with
``break_rule=any_spade`` and ``first_lead=two_of_clubs``, classic with Nil
and bag options changed) with four hard seats at small fixed budgets, a few
hands at the default budget, and a table of normal and easy seats. Each
decision (setting, hand, seat, action, reason) feeds the hash. The budgets
are explicit, so the fingerprint only changes when a choice changes: an
optimisation of the bots must leave it equal.

    .venv/bin/python bench/bot_fingerprint.py              # 4 hands per setting
    .venv/bin/python bench/bot_fingerprint.py --hands 2 --default-hands 0
    .venv/bin/python bench/bot_fingerprint.py --prune off  # the search without pruning
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from typing import Any

import spades_core as sc
from spades_core.bots import HardBot, make

SETTINGS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("classic", "classic", {}),
    ("mirror", "mirror", {}),
    ("whiz", "whiz", {}),
    ("classic-any-spade-2c", "classic", {"break_rule": "any_spade", "first_lead": "two_of_clubs"}),
    (
        "classic-nil-bags",
        "classic",
        {
            "nil_tricks": "bags_only",
            "double_nil": "all_or_nothing",
            "bag_limit": 5,
            "nil_value": 50,
        },
    ),
)
"""(label, variant, options) of each setting played."""

SMALL_BUDGET: dict[str, Any] = {"steps": 2000, "bid_steps": 2000}
DEFAULT_BUDGET: dict[str, Any] = {"steps": 7000, "bid_steps": 6000}
"""Fixed here rather than taken from the bot's defaults, so runs compare like with like."""


PRUNE: dict[str, Any] = {"prune": "on"}
"""The hard bots' ``prune`` option (``--prune``)."""


def seat_bots(kind: str, seed: int) -> list[Any]:
    """The four players of one hand: ``hard-small``, ``hard-default`` or ``mixed``."""
    if kind == "hard-small":
        return [HardBot(seed + s, **SMALL_BUDGET, **PRUNE) for s in range(4)]
    if kind == "hard-default":
        return [HardBot(seed + s, **DEFAULT_BUDGET, **PRUNE) for s in range(4)]
    levels = ("normal", "easy", "normal", "easy")
    return [make(levels[s], seed=seed + s) for s in range(4)]


def play_hand(
    digest: Any, label: str, kind: str, variant: str, options: dict[str, Any], index: int
) -> int:
    """Play one seeded hand, feeding every decision to ``digest``; the number of decisions."""
    game = sc.new_game(variant, seed=1000 + index, **options).deal()
    players = seat_bots(kind, seed=100 * index)
    decisions = 0
    while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
        seat = game.to_act
        assert seat is not None
        action, why = players[seat].decide(game.view(seat))
        digest.update(f"{label}|{kind}|{index}|{int(seat)}|{action}|{why.name}\n".encode())
        game = game.apply(action)
        decisions += 1
    return decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hands", type=int, default=4, help="hard (small budget) and mixed hands per setting"
    )
    parser.add_argument(
        "--default-hands", type=int, default=1, help="hard hands per setting at the default budget"
    )
    parser.add_argument(
        "--prune", choices=("on", "off"), default="on", help="the hard bots' prune option"
    )
    args = parser.parse_args(argv)
    PRUNE["prune"] = args.prune
    total = hashlib.sha256()
    start = time.process_time()
    for label, variant, options in SETTINGS:
        part = hashlib.sha256()
        count = 0
        for kind, hands in (
            ("hard-small", args.hands),
            ("mixed", args.hands),
            ("hard-default", args.default_hands),
        ):
            for index in range(hands):
                count += play_hand(part, label, kind, variant, options, index)
        total.update(part.digest())
        print(f"{label:22} {count:5} decisions  {part.hexdigest()}")
    print(f"{'all':22} {'':17}  {total.hexdigest()}")
    print(f"cpu {time.process_time() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
