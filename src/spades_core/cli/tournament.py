"""``spades tournament``: a round robin among players over the same deals.

The work is :func:`spades_core.simulation.tournament`'s; this module reads
the arguments, prints the header, progress and result (a table, or exactly
:meth:`~spades_core.simulation.TournamentResult.to_json` with ``--json``),
and draws the picture ``--plot FILE`` asks for.
"""

from __future__ import annotations

import argparse
import sys

from spades_core.cli.simulate import (
    add_run_arguments,
    number,
    plan_from_args,
    rate,
    run_matches,
    to_json_text,
    with_budget,
    with_interval,
)
from spades_core.players import parse_player
from spades_core.simulation import TournamentResult
from spades_core.simulation.roundrobin import check_players, pairings, tournament_result
from spades_core.values.errors import SpadesError

__all__ = ["format_tournament", "register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``tournament`` subcommand."""
    parser = subparsers.add_parser(
        "tournament",
        help="a round robin among players over the same deals",
        description=(
            "Play every pair of players over the same seeded deals (or games) and report "
            "each pairing's bag-adjusted points per hand with 95% intervals, win rates in "
            "games mode, and a rating per player: its margin against the field."
        ),
    )
    parser.add_argument(
        "--players",
        required=True,
        metavar="LIST",
        help="comma-separated players, e.g. easy,normal,hard,hard:steps=2000",
    )
    add_run_arguments(parser, "default 100 per pairing")
    parser.add_argument(
        "--plot", metavar="FILE", help="also draw the ratings and pairwise margins (.svg, .png)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run a tournament; exit status 2 for bad arguments, 1 when the run fails."""
    try:
        plan = plan_from_args(args)
        specs = check_players(
            [with_budget(parse_player(text), args) for text in args.players.split(",")]
        )
        labels = [str(spec) for spec in specs]
        plot_path = None
        if args.plot is not None:
            from spades_core.simulation.plot import check_plot_path

            plot_path = check_plot_path(args.plot)
        matches = pairings(plan, specs)
        kept = plan.kept(matches)
    except (SpadesError, ValueError) as error:
        print(f"spades tournament: {error}", file=sys.stderr)
        return 2
    per_match = run_matches("tournament", args, plan, ", ".join(labels), matches, kept)
    if per_match is None:
        return 1
    result = tournament_result(plan, matches, per_match)
    if args.json:
        print(to_json_text(result.to_json()))
    else:
        print(format_tournament(result))
    if plot_path is not None:
        from spades_core.simulation.plot import plot_tournament

        try:
            plot_tournament(result, plot_path)
        except SpadesError as error:
            print(f"spades tournament: {error}", file=sys.stderr)
            return 1
        if not args.quiet:
            print(f"plot written to {plot_path}", file=sys.stderr)
    return 0


def format_tournament(result: TournamentResult) -> str:
    """The result as text tables: pairwise margins, ratings, and each pairing's figures."""
    names = list(result.players)
    n = len(names)
    kind = "duplicate deals" if result.duplicate else "deals"
    if result.mode == "games":
        kind = (
            "game seeds, each played twice with the sides swapped" if result.duplicate else "games"
        )
    options = "".join(f" {key}={value}" for key, value in result.options)
    first = max(len(name) for name in names) + 2
    cells = [
        ["·" if i == j else with_interval(result.margin(i, j), digits=1) for j in range(n)]
        for i in range(n)
    ]
    width = max(max(len(cell) for row in cells for cell in row), *map(len, names)) + 2
    lines = [
        f"{result.variant}{options}: {n} players, {result.count} {kind} per pairing, "
        f"{result.hands} hands, seed {result.seed}",
        "",
        "Bag-adjusted points per hand, row minus column, with 95% intervals:",
        " " * first + "".join(f"{name:<{width}}" for name in names).rstrip(),
    ]
    for i, name in enumerate(names):
        lines.append(f"{name:<{first}}" + "".join(f"{cell:<{width}}" for cell in cells[i]).rstrip())
    lines += ["", "Rating: bag-adjusted margin per hand against the field, 95% interval:"]
    ranked = sorted(range(n), key=lambda i: -result.ratings[i].value)
    for place, i in enumerate(ranked, 1):
        lines.append(f"{place:>3}. {names[i]:<{first}}{with_interval(result.ratings[i], 1)}")
    pair_width = max(len(f"{p.ns.player} - {p.ew.player}") for p in result.pairs) + 2
    lines += [
        "",
        "Per hand, first player / second:",
        f"{'':<{pair_width}}{'points':>16}{'bags':>14}{'bag-adjusted':>16}   raw difference",
    ]
    for pair in result.pairs:
        a, b = pair.ns, pair.ew
        lines.append(
            f"{a.player + ' - ' + b.player:<{pair_width}}"
            f"{number(a.points, digits=1) + ' / ' + number(b.points, digits=1):>16}"
            f"{number(a.bags) + ' / ' + number(b.bags):>14}"
            f"{number(a.adjusted, digits=1) + ' / ' + number(b.adjusted, digits=1):>16}"
            f"   {with_interval(pair.raw_difference, 1)}"
        )
    if result.mode == "games":
        lines += ["", "Games won by the first player, with 95% Wilson intervals:"]
        for pair in result.pairs:
            games = pair.games
            if games is not None:
                lines.append(
                    f"{pair.ns.player + ' - ' + pair.ew.player:<{pair_width}}"
                    f"{games.wins[0]} of {games.played}: {rate(games.ns_win_rate)}; "
                    f"{pair.ew.player} won {games.wins[1]}, {games.unfinished} unfinished"
                )
    return "\n".join(lines)
