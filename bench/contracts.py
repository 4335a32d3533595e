"""How two players bid and make their contracts on the same duplicate deals.

``spades simulate`` reports points and bags; this says where they come
from. Each deal of ``--hands`` is played twice as ``spades simulate
--duplicate`` plays it (the same deals and player seeds for the same
``--seed``), and for each player it counts the team contracts bid (Nil bids
apart; counted as the bots count tricks toward a contract), made and set,
the mean team bid, the overtricks per contract, and the Nil bids made.

    .venv/bin/python bench/contracts.py --ns perfect-info --ew hard --hands 30 --seed 11
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from spades_core.bots import ask
from spades_core.bots.table import Table
from spades_core.engine.game import Phase
from spades_core.players import parse_player
from spades_core.simulation.work import Match, item_seed, seat_players
from spades_core.values.actions import Deal
from spades_core.values.seats import Seat, Team


def tally(match: Match, index: int, totals: dict[int, dict[str, float]]) -> None:
    """Play item ``index`` of ``match`` (both copies) and add its contracts to ``totals``."""
    seed = item_seed(match, index)
    first = match.new_game(seed).deal()
    for copy in (0, 1):
        game = first
        if copy:
            dealt = [first.dealt_hand(seat) for seat in Seat]
            hands = tuple(dealt[(seat - 1) % 4] for seat in range(4))
            game = match.new_game(seed, dealer=Seat((first.dealer + 1) % 4)).apply(
                Deal((hands[0], hands[1], hands[2], hands[3]))
            )
        players = seat_players(match, index, copy)
        while game.phase in (Phase.BID, Phase.PLAY):
            seat = game.to_act
            assert seat is not None
            game = game.apply(ask(players[seat], game, seat), seat=seat)
        result = game.hand_results[0]
        # The bots' own count of the tricks toward a contract (Nil rules included).
        table = Table(game.rules)
        table.bids = list(result.bids.values_)
        table.won = list(result.tricks.values_)
        for team in Team:
            row = totals[int(team)]  # the first player sits North-South in both copies
            for seat in team.seats:
                if result.bids[seat] == 0:
                    row["nil_bids"] += 1
                    row["nils_made"] += result.tricks[seat] == 0
            member = int(team.seats[0])  # either seat of the team: one contract
            contract = table.contract(member)
            if not contract:
                continue
            need = table.need(member)
            row["contracts"] += 1
            row["bid"] += contract
            if need <= 0:
                row["made"] += 1
                row["overtricks"] += -need
            else:
                row["set"] += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--ns", default="hard")
    parser.add_argument("--ew", default="normal")
    parser.add_argument("--hands", type=int, default=20, help="duplicate deals (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    match = Match(
        args.variant, parse_player(args.ns), parse_player(args.ew), "hands", args.seed, True
    )
    keys = ("contracts", "bid", "made", "set", "overtricks", "nil_bids", "nils_made")
    totals: dict[int, dict[str, float]] = {slot: dict.fromkeys(keys, 0.0) for slot in (0, 1)}
    for index in range(args.hands):
        tally(match, index, totals)
    report: dict[str, Any] = {}
    for slot, spec in enumerate((args.ns, args.ew)):
        row = totals[slot]
        report[spec] = {
            "contracts": int(row["contracts"]),
            "mean_bid": round(row["bid"] / row["contracts"], 2),
            "made": int(row["made"]),
            "set": int(row["set"]),
            "overtricks_per_contract": round(row["overtricks"] / row["contracts"], 2),
            "nil_bids": int(row["nil_bids"]),
            "nils_made": int(row["nils_made"]),
        }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
