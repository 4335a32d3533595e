"""Blind Nil by the numbers: how often the bots' Blind Nil succeeds with the
exchange, and what it gains over looking, on duplicate deals of Tournament
Spades (the example plugin; install it first:
``pip install -e examples/tournament_spades``).

Each deal is played twice from the same cards with ``blind_nil_margin=0``
(so the first North-South seat to bid may go Blind Nil at 0-0): once that
seat declares Blind Nil, once it looks; every other seat looks, and the
bots of ``--level`` bid, pass and play the rest. Reported: the Blind Nil's
success rate ``p`` (the seat took no trick) with its standard error, the
mean bag-adjusted margin of the hand (North-South points less East-West's,
10 points a bag) with and without it, and ``cost = stake × (2p - 1) - gain``,
what the team gives up by not bidding the hand looked at — the two numbers
``spades_core.bots.phases`` uses (BLIND_NIL_SUCCESS, BLIND_NIL_COST).

    .venv/bin/python bench/blind_nil.py                  # 2000 deals, normal bots
    .venv/bin/python bench/blind_nil.py --deals 200 --level hard
"""

from __future__ import annotations

import argparse
import math
import statistics

import spades_core as sc
from spades_core.bots import make

BAG = 10


def margin(game: sc.Game) -> float:
    """North-South's bag-adjusted points less East-West's, of the first hand."""
    result = game.hand_results[0]
    points = result.points.values_
    bags = result.bags.values_
    return (points[0] - BAG * bags[0]) - (points[1] - BAG * bags[1])


def play(seed: int, blind: bool, level: str, options: dict[str, int]) -> tuple[sc.Game, sc.Seat]:
    """One hand of a duplicate deal, the chosen seat blind or not."""
    game = sc.new_game("tournament", seed=seed, dealer=sc.Seat.WEST, **options).deal()
    bots = [make(level, seed=seed * 4 + i) for i in range(4)]
    chosen = None
    while not game.hand_results:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        if sc.BLIND_NIL in legal:
            if chosen is None and seat.team is sc.Team.NS:
                chosen = seat
                game = game.apply(sc.BLIND_NIL if blind else sc.LOOK, seat=seat)
            else:
                game = game.apply(sc.LOOK, seat=seat)
            continue
        game = game.apply(bots[seat].choose(game.view(seat)), seat=seat)
    assert chosen is not None
    return game, chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--stake", type=int, default=200, help="blind_nil_value")
    args = parser.parse_args()
    options = {"blind_nil_margin": 0, "blind_nil_value": args.stake, "target_score": 10_000}
    made = 0
    gains: list[float] = []
    blind_margins: list[float] = []
    look_margins: list[float] = []
    for index in range(args.deals):
        seed = args.seed * 1_000_003 + index
        blind_game, seat = play(seed, True, args.level, options)
        look_game, _ = play(seed, False, args.level, options)
        made += blind_game.hand_results[0].tricks[seat] == 0
        blind_margins.append(margin(blind_game))
        look_margins.append(margin(look_game))
        gains.append(blind_margins[-1] - look_margins[-1])
    n = args.deals
    p = made / n
    gain = statistics.fmean(gains)
    gain_se = statistics.stdev(gains) / math.sqrt(n) if n > 1 else 0.0
    print(f"deals {n}, level {args.level}, stake {args.stake}")
    print(f"blind nil success p = {p:.3f} ± {math.sqrt(p * (1 - p) / n):.3f}")
    blind_mean, look_mean = statistics.fmean(blind_margins), statistics.fmean(look_margins)
    print(f"margin blind {blind_mean:+.1f}, look {look_mean:+.1f}")
    print(f"gain of blind over look = {gain:+.1f} ± {gain_se:.1f}")
    print(f"cost = stake*(2p-1) - gain = {args.stake * (2 * p - 1) - gain:.1f}")


if __name__ == "__main__":
    main()
