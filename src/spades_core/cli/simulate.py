"""``spades simulate``: measure bot levels against each other.

Two modes:

* ``--hands N`` plays N single hands. Hand ``i`` is the first hand of a game
  seeded with a seed derived from ``(--seed, i)``: dealer and cards come from
  that seed, and the hand is bid, played and scored from 0-0 with no bags.
* ``--games N`` plays N full games to the end, game ``i`` seeded the same way
  (each game stops after ``--max-hands`` hands at most and then counts as
  unfinished).

With ``--duplicate`` every deal is played twice with the partnerships' cards
swapped: in hands mode the second copy gives each seat's cards to the seat on
its left (and moves the dealer one seat too, so bidding and leads stay with
the same cards); in games mode the two levels swap seats and replay the same
seed, so every hand of the game is dealt to them the other way round. This
cancels most of the luck of the deal.

Every seed (deals and bots) is derived from ``(--seed, index)``, and results
are combined in index order, so the output does not depend on ``--workers``.

Reported: mean points per hand for each level, the mean difference per deal
with a 95% confidence interval (normal approximation), and for games the
``--ns`` level's win rate with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import secrets
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final, TextIO

import attrs

from spades_core import bots
from spades_core.actions import Deal
from spades_core.cards import CardSet
from spades_core.cli.play import add_option_argument, parse_options
from spades_core.errors import SpadesError
from spades_core.game import Game, Phase, new_game
from spades_core.rng import SeedStream
from spades_core.seats import Seat, Team

__all__ = ["SimulationConfig", "register", "run", "simulate", "summarize", "wilson_interval"]

DEAL_PURPOSE: Final = 0x5100
"""The seed-stream purpose each hand's or game's seed is derived with."""
_BOT_PURPOSE: Final = 0x5101
_Z95: Final = 1.959963984540054
DEFAULT_MAX_HANDS: Final = 200


@attrs.frozen
class SimulationConfig:
    """What to simulate. ``ns`` and ``ew`` are bot levels; ``count`` is the
    number of hands (``mode="hands"``) or games (``mode="games"``)."""

    variant: str
    ns: str
    ew: str
    mode: str
    count: int
    seed: int
    duplicate: bool = False
    options: tuple[tuple[str, object], ...] = ()
    max_hands: int = DEFAULT_MAX_HANDS
    bot_options: tuple[tuple[str, int], ...] = ()


@attrs.frozen
class ItemResult:
    """One deal (hands mode) or one seeded game (games mode), all copies.

    ``points``/``bags`` are summed per level over the copies' hands
    (``[ns_level, ew_level]``); ``hands`` counts them; ``wins`` counts games
    won by each level and ``unfinished`` games that hit the hand limit.
    """

    points: tuple[int, int]
    bags: tuple[int, int]
    hands: int
    wins: tuple[int, int] = (0, 0)
    unfinished: int = 0


def _derived(seed: int, purpose: int, index: int) -> int:
    return SeedStream(seed, purpose, index).next64()


def _players(config: SimulationConfig, index: int, copy: int, swapped: bool) -> list[bots.Bot]:
    players = []
    options = dict(config.bot_options)
    for seat in Seat:
        level = config.ns if (seat.team is Team.NS) != swapped else config.ew
        seed = _derived(config.seed, _BOT_PURPOSE, index * 8 + copy * 4 + int(seat))
        players.append(bots.make(level, seed=seed, **(options if level == "hard" else {})))
    return players


def _play_hand(game: Game, players: list[bots.Bot]) -> Game:
    while game.phase in (Phase.BID, Phase.PLAY):
        seat = game.to_act
        if seat is None:  # pragma: no cover - bidding and play always have a seat to act
            break
        game = game.apply(players[seat].choose(game.view(seat)), seat=seat)
    return game


def run_item(config: SimulationConfig, index: int) -> ItemResult:
    """Simulate item ``index`` (a deal or a game, with its duplicate copy)."""
    seed = _derived(config.seed, DEAL_PURPOSE, index)
    options: dict[str, Any] = dict(config.options)
    points = [0, 0]
    bags = [0, 0]
    hands = 0
    wins = [0, 0]
    unfinished = 0
    copies = (False, True) if config.duplicate else (False,)
    if config.mode == "hands":
        first = new_game(config.variant, seed=seed, **options).deal()
        for copy, swapped in enumerate(copies):
            if swapped:
                dealt = [first.dealt_hand(seat) for seat in Seat]
                rotated = tuple(dealt[(seat - 1) % 4] for seat in range(4))
                start = new_game(
                    config.variant, seed=seed, dealer=Seat((first.dealer + 1) % 4), **options
                )
                game = start.apply(Deal(_four(rotated)))
            else:
                game = first
            # The levels keep their seats; the rotated deal hands each side
            # the other side's cards.
            game = _play_hand(game, _players(config, index, copy, swapped=False))
            result = game.hand_results[0]
            for team in Team:
                points[team] += result.points[team]
                bags[team] += result.bags[team]
            hands += 1
        return ItemResult((points[0], points[1]), (bags[0], bags[1]), hands)
    for copy, swapped in enumerate(copies):
        game = new_game(config.variant, seed=seed, **options)
        game = bots.play_game(
            game, _players(config, index, copy, swapped), max_hands=config.max_hands
        )
        for result in game.hand_results:
            for team in Team:
                level_slot = int(team) ^ int(swapped)
                points[level_slot] += result.points[team]
                bags[level_slot] += result.bags[team] - _bags_before(game, result.number, team)
            hands += 1
        if game.winner is None:
            unfinished += 1
        else:
            wins[int(game.winner) ^ int(swapped)] += 1
    return ItemResult(
        (points[0], points[1]), (bags[0], bags[1]), hands, (wins[0], wins[1]), unfinished
    )


def _bags_before(game: Game, number: int, team: Team) -> int:
    return game.hand_results[number - 1].bags[team] if number else 0


def _four(hands: tuple[CardSet, ...]) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    return (hands[0], hands[1], hands[2], hands[3])


def _run_task(task: tuple[SimulationConfig, int]) -> ItemResult:
    return run_item(*task)


def simulate(
    config: SimulationConfig, *, workers: int = 1, progress: TextIO | None = None
) -> list[ItemResult]:
    """Every item's result, in index order (the same for any ``workers``)."""
    tasks = [(config, index) for index in range(config.count)]
    results: list[ItemResult] = []
    bar = _Progress(progress, config.count)
    if workers <= 1 or config.count <= 1:
        for task in tasks:
            results.append(_run_task(task))
            bar.advance()
    else:
        context = multiprocessing.get_context("spawn")
        chunk = max(1, min(16, config.count // (workers * 8)))
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            for result in pool.map(_run_task, tasks, chunksize=chunk):
                results.append(result)
                bar.advance()
    bar.finish()
    return results


class _Progress:
    def __init__(self, out: TextIO | None, total: int) -> None:
        self.out = out
        self.total = total
        self.done = 0

    def advance(self) -> None:
        self.done += 1
        if self.out is None:
            return
        width = 30
        filled = width * self.done // max(1, self.total)
        self.out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}")
        self.out.flush()

    def finish(self) -> None:
        if self.out is not None:
            self.out.write("\n")
            self.out.flush()


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean and its 95% confidence interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, math.nan, math.nan)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = _Z95 * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion.

    >>> low, high = wilson_interval(160, 200)
    >>> round(low, 3), round(high, 3)
    (0.739, 0.85)
    """
    if trials == 0:
        return (math.nan, math.nan)
    z2 = _Z95 * _Z95
    p = successes / trials
    center = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (center - half, center + half)


def summarize(config: SimulationConfig, results: list[ItemResult]) -> dict[str, Any]:
    """The JSON-ready summary of a simulation."""
    hands = sum(r.hands for r in results)
    points = [sum(r.points[i] for r in results) for i in (0, 1)]
    bags = [sum(r.bags[i] for r in results) for i in (0, 1)]
    differences = [(r.points[0] - r.points[1]) / r.hands for r in results if r.hands]
    mean, low, high = mean_interval(differences)
    summary: dict[str, Any] = {
        "variant": config.variant,
        "options": dict(config.options),
        "mode": config.mode,
        "count": config.count,
        "duplicate": config.duplicate,
        "seed": config.seed,
        "ns": config.ns,
        "ew": config.ew,
        "hands": hands,
        "mean_points": {
            "NS": _round(points[0] / hands if hands else math.nan),
            "EW": _round(points[1] / hands if hands else math.nan),
        },
        "mean_bags": {
            "NS": _round(bags[0] / hands if hands else math.nan),
            "EW": _round(bags[1] / hands if hands else math.nan),
        },
        "difference": {"mean": _round(mean), "ci95": [_round(low), _round(high)]},
    }
    if config.bot_options:
        summary["bot_options"] = dict(config.bot_options)
    if config.mode == "games":
        games = len(results) * (2 if config.duplicate else 1)
        ns_wins = sum(r.wins[0] for r in results)
        ew_wins = sum(r.wins[1] for r in results)
        unfinished = sum(r.unfinished for r in results)
        w_low, w_high = wilson_interval(ns_wins, games)
        summary["games"] = {
            "played": games,
            "ns_wins": ns_wins,
            "ew_wins": ew_wins,
            "unfinished": unfinished,
            "ns_win_rate": _round(ns_wins / games if games else math.nan, 4),
            "ci95": [_round(w_low, 4), _round(w_high, 4)],
        }
    return summary


def _round(value: float, digits: int = 2) -> float | None:
    return None if math.isnan(value) else round(value, digits)


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a small text table."""
    mode = summary["mode"]
    count = summary["count"]
    kind = ("duplicate " if summary["duplicate"] else "") + (
        "deals" if mode == "hands" else "games"
    )
    if mode == "games" and summary["duplicate"]:
        kind = "seeds, each played twice with the sides swapped"
    options = " ".join(f"{k}={v}" for k, v in summary["options"].items())
    lines = [
        f"{summary['variant']}{' ' + options if options else ''}: {count} {kind}, "
        f"{summary['hands']} hands, seed {summary['seed']}",
        "",
        f"{'side':<6}{'level':<10}{'points/hand':>12}{'bags/hand':>11}",
    ]
    for side, key in (("NS", "ns"), ("EW", "ew")):
        lines.append(
            f"{side:<6}{summary[key]:<10}{_fmt(summary['mean_points'][side]):>12}"
            f"{_fmt(summary['mean_bags'][side]):>11}"
        )
    diff = summary["difference"]
    low, high = diff["ci95"]
    lines += [
        "",
        f"difference (NS - EW): {_fmt(diff['mean'], sign=True)} points per hand, "
        f"95% CI [{_fmt(low, sign=True)}, {_fmt(high, sign=True)}]",
    ]
    if "games" in summary:
        games = summary["games"]
        rate = games["ns_win_rate"]
        w_low, w_high = games["ci95"]
        lines.append(
            f"{summary['ns']} (NS) won {games['ns_wins']} of {games['played']} games "
            f"({_pct(rate)}), 95% CI [{_pct(w_low)}, {_pct(w_high)}]; "
            f"{summary['ew']} (EW) won {games['ew_wins']}, unfinished {games['unfinished']}"
        )
    return "\n".join(lines)


def _fmt(value: float | None, *, sign: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value:+.2f}" if sign else f"{value:.2f}"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


# -- command line ------------------------------------------------------------------


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulate`` subcommand."""
    parser = subparsers.add_parser(
        "simulate",
        help="play many hands or games between two bot levels",
        description=(
            "Play many hands or games between two bot levels and report the mean points "
            "per hand, their difference with a 95% confidence interval and, for games, "
            "the win rate."
        ),
    )
    parser.add_argument("--variant", default="classic", help="variant id (default: classic)")
    parser.add_argument(
        "--ns", default="normal", metavar="LEVEL", help="level of North-South (default: normal)"
    )
    parser.add_argument(
        "--ew", default="easy", metavar="LEVEL", help="level of East-West (default: easy)"
    )
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--hands", type=int, metavar="N", help="play N single hands (default 100)")
    count.add_argument("--games", type=int, metavar="N", help="play N full games")
    parser.add_argument("--seed", type=int, help="master seed (default: random, printed)")
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play every deal twice with the partnerships' cards swapped",
    )
    parser.add_argument(
        "--workers", type=int, default=1, metavar="N", help="worker processes (default 1)"
    )
    parser.add_argument(
        "--max-hands",
        type=int,
        default=DEFAULT_MAX_HANDS,
        metavar="N",
        help=f"games mode: stop a game after N hands (default {DEFAULT_MAX_HANDS})",
    )
    parser.add_argument(
        "--steps", type=int, metavar="N", help="hard bots: simulated card plays per card decision"
    )
    parser.add_argument(
        "--bid-steps", type=int, metavar="N", help="hard bots: simulated card plays per bid"
    )
    add_option_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument(
        "--engine",
        choices=("engine", "batch"),
        default="engine",
        help="engine (default) or batch: numpy arrays, --hands only, levels random and easy "
        "(needs spades-core[batch])",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run a simulation; exit status 2 for bad arguments."""
    try:
        config = _config(args)
        # Fail fast on a bad variant, option or level, before any worker starts.
        options: dict[str, Any] = dict(config.options)
        new_game(config.variant, seed=0, **options)
        for level in (config.ns, config.ew):
            bots.make(level, seed=0, **(dict(config.bot_options) if level == "hard" else {}))
        if args.engine == "batch":
            from spades_core.batch.simulate import simulate_hands

            results = simulate_hands(config)
    except (SpadesError, ValueError) as error:
        print(f"spades simulate: {error}", file=sys.stderr)
        return 2
    if args.engine != "batch":
        progress = sys.stderr if sys.stderr.isatty() else None
        results = simulate(config, workers=args.workers, progress=progress)
    summary = summarize(config, results)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print(format_summary(summary))
    return 0


def _config(args: argparse.Namespace) -> SimulationConfig:
    if args.games is not None:
        mode, count = "games", args.games
    else:
        mode, count = "hands", 100 if args.hands is None else args.hands
    if count < 1:
        raise ValueError(f"--{mode} must be at least 1; got {count}")
    if args.workers < 1:
        raise ValueError(f"--workers must be at least 1; got {args.workers}")
    if args.max_hands < 1:
        raise ValueError(f"--max-hands must be at least 1; got {args.max_hands}")
    seed = secrets.randbits(63) if args.seed is None else args.seed
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"--seed must be from 0 to 2**64-1; got {seed}")
    bot_options = []
    for name in ("steps", "bid_steps"):
        value = getattr(args, name)
        if value is not None:
            bot_options.append((name, value))
    return SimulationConfig(
        variant=args.variant,
        ns=args.ns,
        ew=args.ew,
        mode=mode,
        count=count,
        seed=seed,
        duplicate=args.duplicate,
        options=tuple(parse_options(args.options).items()),
        max_hands=args.max_hands,
        bot_options=tuple(bot_options),
    )
