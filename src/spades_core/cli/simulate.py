"""``spades simulate``: measure two players against each other.

The work is :func:`spades_core.simulation.simulate`'s; this module reads the
arguments, prints the header (with the seed) and a warning when hard players
make the run long before the work starts, shows progress on standard error,
and prints the result as a table or, with ``--json``, exactly
:meth:`~spades_core.simulation.SimulationResult.to_json`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import Any, Final

from spades_core.bots import DEFAULT_BUDGET
from spades_core.cli import Interrupted, add_variant_option
from spades_core.cli.play import add_option_argument, parse_options
from spades_core.players import PlayerSpec, parse_player
from spades_core.simulation import (
    DEFAULT_HAND_LIMIT,
    DEFAULT_HANDS,
    Interval,
    JournalError,
    SimulationError,
    SimulationResult,
)
from spades_core.simulation.backends import BACKENDS
from spades_core.simulation.core import RunPlan, check_player, plan_run, summarize
from spades_core.simulation.journal import Kept
from spades_core.simulation.progress import ProgressPrinter, format_duration
from spades_core.simulation.work import DEAL_PURPOSE, ItemResult, Match
from spades_core.values.errors import RulesError, SpadesError

__all__ = [
    "DEAL_PURPOSE",
    "add_run_arguments",
    "endless_note",
    "format_result",
    "hard_warning",
    "header",
    "interrupted_line",
    "journal_note",
    "plan_from_args",
    "register",
    "run",
    "run_matches",
    "to_json_text",
    "with_budget",
]

HARD_SECONDS_PER_MOVE: Final = 0.019
"""What a hard player costs a move at the default budget on one core: its
share of a whole classic hand (its bids, the engine and the other side's
moves included) over 13 moves in each of its two seats."""
_LONG_RUN: Final = 60.0
_HANDS_PER_GAME: Final = 10


def add_run_arguments(parser: argparse.ArgumentParser, default_count: str) -> None:
    """The arguments ``simulate`` and ``tournament`` share."""
    add_variant_option(parser)
    count = parser.add_mutually_exclusive_group()
    count.add_argument(
        "--hands", type=int, metavar="N", help=f"play N single deals ({default_count})"
    )
    count.add_argument("--games", type=int, metavar="N", help="play N full games")
    parser.add_argument("--seed", type=int, help="master seed (default: random, printed)")
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play every deal twice with the partnerships' cards swapped",
    )
    parser.add_argument(
        "--max-hands",
        type=int,
        default=DEFAULT_HAND_LIMIT,
        metavar="N",
        help=f"games mode: stop a game after N hands (default {DEFAULT_HAND_LIMIT})",
    )
    parser.add_argument(
        "--steps", type=int, metavar="N", help="hard players: simulated card plays per card"
    )
    parser.add_argument(
        "--bid-steps", type=int, metavar="N", help="hard players: simulated card plays per bid"
    )
    add_option_argument(parser)
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="where the work runs: local processes (default) or Ray",
    )
    parser.add_argument(
        "--address",
        metavar="ADDR",
        help="ray backend: join the Ray cluster at ADDR (HOST:PORT) instead of starting one",
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="processes, or CPUs of a local Ray instance (default: the number of cores)",
    )
    parser.add_argument(
        "--task-size",
        type=int,
        metavar="N",
        help="deals or games per task (default: about eight tasks per worker)",
    )
    parser.add_argument(
        "--journal",
        metavar="FILE",
        help="keep finished work in FILE; run again with it to pick up where a stopped run "
        "left off, or to add hands or players",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="print no header or progress on stderr"
    )


def with_budget(spec: PlayerSpec, args: argparse.Namespace) -> PlayerSpec:
    """``spec`` with ``--steps``/``--bid-steps`` added when it is a hard player
    that does not set them itself."""
    if spec.name != "hard":
        return spec
    options = dict(spec.options)
    for name in ("steps", "bid_steps"):
        value = getattr(args, name)
        if value is not None:
            options.setdefault(name, value)
    return PlayerSpec(spec.name, tuple(sorted(options.items())))


def plan_from_args(args: argparse.Namespace) -> RunPlan:
    """The checked run plan of the command's arguments."""
    return plan_run(
        variant=args.variant,
        hands=args.hands,
        games=args.games,
        seed=args.seed,
        duplicate=args.duplicate,
        options=parse_options(args.options),
        max_hands=args.max_hands,
        backend=args.backend,
        workers=args.workers,
        address=args.address,
        task_size=args.task_size,
        retries=3,
        journal=args.journal,
    )


def header(plan: RunPlan, players: str, pairings: int = 1) -> str:
    """The run in one line: variant, players, size, seed and where it runs."""
    options = "".join(f" {key}={value}" for key, value in plan.options)
    each = " per pairing" if pairings > 1 else ""
    if plan.mode == "hands":
        size = f"{plan.count} {'duplicate ' * plan.duplicate}deals{each}" + (
            f" ({2 * plan.count * pairings} hands)" if plan.duplicate else ""
        )
    else:
        size = f"{plan.count} games{each}" + (" each played twice, sides swapped" * plan.duplicate)
    where = (
        f"Ray at {plan.address}"
        if plan.address
        else f"{plan.backend}, {plan.workers} worker{'s' * (plan.workers != 1)}"
    )
    return f"{plan.variant}{options}: {players}; {size}; seed {plan.seed}; {where}"


def hard_warning(plan: RunPlan, matches: Sequence[Match], kept: Kept | None = None) -> str | None:
    """A warning when hard players will make the run take longer than a minute
    (at their speed on an idle core: a busy machine is slower), counting only
    the items ``kept`` (a journal's) does not already have."""
    default = DEFAULT_BUDGET.steps
    seconds = 0.0
    slowest = 0.0
    for number, match in enumerate(matches):
        items = plan.count - (len(kept[number]) if kept else 0)
        hands = items * (2 if plan.duplicate else 1)
        if plan.mode == "games":
            hands *= _HANDS_PER_GAME
        for spec in (match.first, match.second):
            if spec.name == "hard":
                steps = int(dict(spec.options).get("steps", default))
                per_move = HARD_SECONDS_PER_MOVE * steps / default
                slowest = max(slowest, per_move)
                # A hard player holds two seats and makes 13 moves a hand in each.
                seconds += hands * 2 * 13 * per_move
    seconds /= plan.workers
    if seconds < _LONG_RUN:
        return None
    return (
        f"note: hard players think about {1000 * slowest:.0f} ms a move, so this run will "
        f"take {format_duration(seconds)} or more"
        + ("" if plan.address else f" on {plan.workers} worker{'s' * (plan.workers != 1)}")
        + " (a smaller budget, such as --steps 2000, is faster and weaker)"
    )


def journal_note(plan: RunPlan, kept: Kept) -> str | None:
    """How much of the run the journal already has, or ``None`` without one."""
    if plan.journal is None:
        return None
    unit = "deals" if plan.mode == "hands" else "games"
    have = sum(len(items) for items in kept)
    total = plan.count * len(kept)
    if have == 0:
        return f"journal {plan.journal}: nothing kept yet; every finished task is added to it"
    if have == total:
        return f"journal {plan.journal}: all {total} {unit} kept; nothing to play"
    left = total - have
    return f"journal {plan.journal}: {have} of {total} {unit} kept; playing the other {left}"


def endless_note(plan: RunPlan) -> str | None:
    """In games mode, a note when the house rules let games go on for ever."""
    if plan.mode != "games" or plan.endless is None:
        return None
    return (
        f"note: {plan.endless}; each game stops after {plan.max_hands} hands "
        "(--max-hands) and counts as unfinished"
    )


def run_matches(
    command: str,
    args: argparse.Namespace,
    plan: RunPlan,
    players: str,
    matches: list[Match],
    kept: Kept,
) -> list[list[ItemResult]] | None:
    """Announce the run on stderr (header, what its journal has already, and
    a note when hard players make it long), run it with progress unless
    ``--quiet``, and return every match's item results; ``None`` after
    reporting a failed run. Ctrl-C raises :class:`~spades_core.cli.Interrupted`
    once the work has stopped. ``kept`` is what the journal had when the
    arguments were checked."""
    if not args.quiet:
        print(header(plan, players, len(matches)), file=sys.stderr)
        notes = (journal_note(plan, kept), hard_warning(plan, matches, kept), endless_note(plan))
        for note in notes:
            if note:
                print(note, file=sys.stderr)
        sys.stderr.flush()
    unit = "deals" if plan.mode == "hands" else "games"
    printer = None if args.quiet else ProgressPrinter(sys.stderr, unit)
    try:
        return plan.run(matches, printer)
    except (SimulationError, JournalError, KeyboardInterrupt) as error:
        if printer is not None:
            printer.close()  # the message starts on a line of its own
        if isinstance(error, KeyboardInterrupt):
            raise Interrupted(interrupted_line(command, plan)) from None
        print(f"spades {command}: {error}", file=sys.stderr)
        return None
    finally:
        if printer is not None:
            printer.close()


def interrupted_line(command: str, plan: RunPlan) -> str:
    """The one line a run stopped by Ctrl-C ends with."""
    if plan.journal is None:
        return f"spades {command}: interrupted"
    return (
        f"spades {command}: interrupted; the journal {plan.journal} keeps every finished "
        "task, so the same command goes on from there"
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulate`` subcommand."""
    parser = subparsers.add_parser(
        "simulate",
        help="play many hands or games between two players",
        description=(
            "Play many hands or games between two players (bot levels such as hard or "
            "hard:steps=2000, or players other packages install) and report points, bags "
            "and bag-adjusted points per hand, the bag-adjusted difference with a 95% "
            "confidence interval and, for games, the win rates."
        ),
    )
    parser.add_argument(
        "--ns", default="normal", metavar="PLAYER", help="North-South (default: normal)"
    )
    parser.add_argument("--ew", default="easy", metavar="PLAYER", help="East-West (default: easy)")
    add_run_arguments(parser, f"default {DEFAULT_HANDS}")
    parser.add_argument(
        "--engine",
        choices=("engine", "batch"),
        default="engine",
        help="engine (default) or batch: numpy arrays in this process, --hands only, "
        "players random and easy (needs spades-core[batch])",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run a simulation; exit status 2 for bad arguments, 1 when the run fails."""
    try:
        plan = plan_from_args(args)
        first, second = (
            check_player(with_budget(parse_player(text), args)) for text in (args.ns, args.ew)
        )
        match = plan.match(first, second)
        batch = None
        if args.engine == "batch":
            if plan.journal is not None:
                raise RulesError("--journal is for the engine's runs, not --engine batch")
            from spades_core.batch.simulate import simulate_hands

            batch = simulate_hands(match, plan.count)
        kept = plan.kept([match])
    except (SpadesError, ValueError) as error:
        print(f"spades simulate: {error}", file=sys.stderr)
        return 2
    if batch is not None:
        results = batch
    else:
        players = f"{first} (NS) vs {second} (EW)"
        done = run_matches("simulate", args, plan, players, [match], kept)
        if done is None:
            return 1
        (results,) = done
    result = summarize(plan, match, results)
    if args.json:
        print(to_json_text(result.to_json()))
    else:
        print(format_result(result))
    return 0


def format_result(result: SimulationResult) -> str:
    """The result as a small text table."""
    kind = ("duplicate " if result.duplicate else "") + (
        "deals" if result.mode == "hands" else "games"
    )
    if result.mode == "games" and result.duplicate:
        kind = "game seeds, each played twice with the sides swapped"
    options = "".join(f" {key}={value}" for key, value in result.options)
    width = max(8, len(result.ns.player), len(result.ew.player)) + 2
    lines = [
        f"{result.variant}{options}: {result.count} {kind}, {result.hands} hands, "
        f"seed {result.seed}",
        "",
        f"{'side':<6}{'player':<{width}}{'points/hand':>12}{'bags/hand':>11}{'bag-adjusted':>14}",
    ]
    for side, stats in (("NS", result.ns), ("EW", result.ew)):
        lines.append(
            f"{side:<6}{stats.player:<{width}}{number(stats.points):>12}"
            f"{number(stats.bags):>11}{number(stats.adjusted):>14}"
        )
    lines += [
        "",
        f"difference (NS - EW), bag-adjusted: {with_interval(result.difference)} points "
        "per hand (95% CI)",
        f"difference (NS - EW), raw points:   {with_interval(result.raw_difference)}",
        f"(a bag scores 1 point and costs {number(result.bag_cost)} of the bag penalty: "
        f"it nets {number(1 - result.bag_cost, sign=True)})",
    ]
    games = result.games
    if games is not None:
        lines += [
            "",
            f"games: {games.played} played, {games.unfinished} unfinished",
            f"  {result.ns.player} (NS) won {games.wins[0]}: {rate(games.ns_win_rate)}",
            f"  {result.ew.player} (EW) won {games.wins[1]}: {rate(games.ew_win_rate)}",
        ]
    return "\n".join(lines)


def number(value: float, *, sign: bool = False, digits: int = 2) -> str:
    """A figure with ``digits`` decimals (``n/a`` when undefined)."""
    if math.isnan(value):
        return "n/a"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def with_interval(interval: Interval, digits: int = 2) -> str:
    """``+12.34 [+10.00, +14.68]``."""
    low, high = (number(v, sign=True, digits=digits) for v in (interval.low, interval.high))
    return f"{number(interval.value, sign=True, digits=digits)} [{low}, {high}]"


def rate(interval: Interval) -> str:
    """A win rate with its Wilson interval, in percent."""

    def pct(value: float) -> str:
        return "n/a" if math.isnan(value) else f"{100 * value:.1f}%"

    return f"{pct(interval.value)}, 95% CI [{pct(interval.low)}, {pct(interval.high)}]"


def to_json_text(data: dict[str, Any]) -> str:
    """The JSON text the commands print."""
    return json.dumps(data, sort_keys=True)
