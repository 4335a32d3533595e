"""``spades watch``: four bots play a whole game, shown trick by trick.

Each hand starts with the four dealt hands and the bids; each trick is one
line; each hand ends with its score breakdown, and the game with the winner.
``--delay`` sets the pause after each trick (0 for none).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from spades_core import bots
from spades_core.cli import add_variant_option, level_name, render, seconds
from spades_core.cli.play import add_option_argument, bot_move, parse_options
from spades_core.cli.render import Style, seat_name
from spades_core.engine.game import Game, Phase, new_game
from spades_core.rules.scoring import why_games_may_not_end
from spades_core.values.errors import SpadesError, brief
from spades_core.values.seats import Seat, Team

__all__ = ["register", "watch"]

DEFAULT_LEVEL = "normal"
DEFAULT_DELAY = 1.0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``watch`` subcommand."""
    parser = subparsers.add_parser(
        "watch",
        help="watch four bots play a game",
        description="Watch four bots play a whole game of Spades, trick by trick.",
    )
    add_variant_option(parser)
    add_option_argument(parser)
    parser.add_argument("--seed", type=int, help="seed for the deals and the bots")
    parser.add_argument(
        "--level",
        default=DEFAULT_LEVEL,
        type=level_name,
        metavar="LEVEL",
        help=f"level of all four bots (default: {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--ns", type=level_name, metavar="LEVEL", help="level of North and South (default: --level)"
    )
    parser.add_argument(
        "--ew", type=level_name, metavar="LEVEL", help="level of East and West (default: --level)"
    )
    parser.add_argument(
        "--hands",
        type=_positive_int,
        metavar="N",
        help="stop after N hands (default: play the game to the end)",
    )
    parser.add_argument(
        "--delay",
        type=seconds,
        default=DEFAULT_DELAY,
        metavar="SECONDS",
        help=f"pause after each trick (default: {DEFAULT_DELAY}; 0 for none)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Watch a game; exit status 2 for a bad variant, option or level, 1 when
    the variant fails during the game."""
    levels = {Team.NS: args.ns or args.level, Team.EW: args.ew or args.level}
    try:
        game = new_game(args.variant, seed=args.seed, **parse_options(args.options))
        for level in set(levels.values()):
            bots.make(level)
    except (SpadesError, ValueError) as error:
        print(f"spades watch: {error}", file=sys.stderr)
        return 2
    endless = why_games_may_not_end(game.rules) if args.hands is None else None
    if endless:
        print(f"spades watch: this game may never end: {endless}, or --hands", file=sys.stderr)
        return 2
    try:
        watch(game, levels, out=sys.stdout, delay=args.delay, max_hands=args.hands)
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stdout)
    except SpadesError as error:
        # A plugin hook that fails or answers nonsense mid-game, reported as
        # the engine words it (VariantLoadError names the variant and hook).
        sys.stdout.flush()
        print(f"spades watch: the game cannot go on: {error}", file=sys.stderr)
        return 1
    return 0


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a number of hands is 1 or more; got {brief(text)}")
    return value


def watch(
    game: Game,
    levels: dict[Team, str],
    *,
    out: TextIO,
    delay: float = 0.0,
    max_hands: int | None = None,
) -> Game:
    """Play ``game`` with bots of ``levels``, writing each trick to ``out``,
    to the end or until ``max_hands`` hands have been played; the game reached."""
    style = Style(colour=render.use_colour(out))

    def say(*lines: str) -> None:
        for line in lines:
            print(line, file=out)
        out.flush()

    say(
        style.heading(
            f"{game.variant.title}: NS ({levels[Team.NS]}) against EW ({levels[Team.EW]})"
        )
        + f" · seed {game.seed}"
    )
    while not game.is_over:
        if game.phase is Phase.DEAL and max_hands is not None and game.hand_number >= max_hands:
            plural = "s" if max_hands > 1 else ""
            say(
                "",
                f"Stopped after {max_hands} hand{plural}: "
                f"NS {game.scores[Team.NS]}, EW {game.scores[Team.EW]}.",
            )
            return game
        if game.phase is Phase.DEAL:
            game = game.apply(game.legal_actions()[0])
            say(
                "", style.heading(f"Hand {game.hand_number + 1}, dealt by {seat_name(game.dealer)}")
            )
            for holder in Seat:
                say(f"  {seat_name(holder):<5}  {render.hand_line(game.hand(holder), style)}")
            continue
        seat = game.to_act
        assert seat is not None
        before = game
        game = game.apply(bot_move(game, seat, levels[seat.team]))
        if before.phase is Phase.BID and game.phase is Phase.PLAY:
            say(
                "Bids: "
                + ", ".join(f"{seat_name(s)} {render.bid_text(game.bids[s])}" for s in Seat)
            )
        if before.phase is Phase.PLAY and len(before.current_trick) == 3:
            finished_hand = len(game.hand_results) > len(before.hand_results)
            trick = game.hand_results[-1].played[-1] if finished_hand else game.tricks[-1]
            say(
                f"Trick {len(before.tricks) + 1:>2}: {render.trick_text(trick.plays, style)}"
                f"  → {seat_name(trick.winner)}"
            )
            if finished_hand:
                say("", *render.result_lines(game, style))
            if delay:
                time.sleep(delay)
    winner = game.winner
    hands = len(game.hand_results)
    after = f"after {hands} hand{'' if hands == 1 else 's'}"
    say(
        "",
        style.heading(
            f"A draw at {game.scores[Team.NS]} all {after}."
            if winner is None
            else f"{winner.name} wins {game.scores[winner]} to {game.scores[winner.opponent]} "
            f"{after}."
        ),
    )
    return game
