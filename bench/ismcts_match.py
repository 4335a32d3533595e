"""OpenSpiel's IS-MCTS against the library's bots, hand by hand (docs/integrations.md).

    python bench/ismcts_match.py --deals 12 --simulations 50 --opponent normal

Each deal is played twice with the seats swapped (IS-MCTS as North-South,
then as East-West), so both sides get the same cards. The bot searches with
random roll-outs to the end of the hand and sees only its seat's view
(:class:`spades_core.envs.ismcts.ISMCTSPlayer`). Prints the mean points
per hand of each side and how many hands each side outscored the other.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence

import spades_core as sc
from spades_core.envs.ismcts import ISMCTSPlayer


def play_hand(game: sc.Game, seats: Sequence[sc.bots.Player]) -> sc.HandResult:
    """``game`` (waiting for a deal) dealt and played to the end of the hand."""
    game = game.deal()
    while game.phase is not sc.Phase.DEAL and not game.is_over:
        seat = game.to_act
        assert seat is not None
        game = game.apply(seats[seat].choose(game.view(seat)))
    return game.hand_results[-1]


def main(argv: Sequence[str] | None = None) -> int:
    """Play the match and print its summary as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--opponent", default="normal", choices=sc.bots.LEVELS)
    args = parser.parse_args(argv)
    search_points: list[int] = []
    bot_points: list[int] = []
    started = time.perf_counter()
    for deal in range(args.deals):
        for search_team in sc.Team:
            searching = ISMCTSPlayer.random_rollouts(args.simulations, seed=deal)
            seats = [
                searching
                if seat.team is search_team
                else sc.bots.make(args.opponent, seed=int(seat))
                for seat in sc.Seat
            ]
            result = play_hand(sc.new_game(args.variant, seed=deal), seats)
            search_points.append(result.points[search_team])
            bot_points.append(result.points[search_team.opponent])
    hands = len(search_points)
    summary = {
        "variant": args.variant,
        "opponent": args.opponent,
        "simulations": args.simulations,
        "hands": hands,
        "ismcts_mean_points": statistics.mean(search_points),
        "opponent_mean_points": statistics.mean(bot_points),
        "ismcts_outscored": sum(s > b for s, b in zip(search_points, bot_points, strict=True)),
        "opponent_outscored": sum(b > s for s, b in zip(search_points, bot_points, strict=True)),
        "seconds_per_hand": round((time.perf_counter() - started) / hands, 2),
    }
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
