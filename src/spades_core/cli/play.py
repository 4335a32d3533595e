"""``spades play``: a game in the terminal, you (South) and a bot partner
against two bot opponents.

At your turn the table and your hand are shown; type a card (``QH``,
``10h``, ``q♥``) or its number in the displayed hand, a bid (a number or
``nil``), or a command: ``hint``, ``show``, ``last``, ``score``,
``save FILE``, ``help``, ``quit``. It works with piped input too, so a whole
game can be scripted; on a terminal it waits for Enter before each new deal.

The game is saved after every action to ``autosave.json`` in the data
directory (:func:`~spades_core.cli.saves.data_dir`), and ``spades play
--continue`` resumes it; :mod:`spades_core.cli.saves` describes the files
and what saving promises, :mod:`spades_core.cli.session` the game loop and
:mod:`spades_core.cli.commands` what the player types. End of input, Ctrl-C
and ``quit`` save and exit with status 0, or 1 if the game could not be saved.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from spades_core import bots
from spades_core.cli import command_name, level_name, seconds, variant_name
from spades_core.cli.render import screen_lines, seat_name
from spades_core.cli.saves import (
    AUTOSAVE_NAME,
    DATA_DIR_ENV,
    DEFAULT_LEVEL,
    PREVIOUS_KEPT,
    SESSION_FORMAT,
    PlayerConfig,
    SaveFileError,
    SessionBusyError,
    SessionLock,
    data_dir,
    keep_previous,
    previous_games,
    read_save,
    set_aside,
)
from spades_core.cli.session import PlaySession, bot_move, bot_seed
from spades_core.engine.game import Game, Phase, new_game
from spades_core.players import PlayerError, check_human_table
from spades_core.rules.scoring import why_games_may_not_end
from spades_core.values.errors import SpadesError
from spades_core.values.seats import Seat

__all__ = [
    "AUTOSAVE_NAME",
    "DATA_DIR_ENV",
    "SESSION_FORMAT",
    "PlayerConfig",
    "add_option_argument",
    "bot_move",
    "bot_seed",
    "data_dir",
    "parse_option",
    "parse_options",
    "read_save",
    "register",
    "run",
]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description=(
            "Play Spades in the terminal: you sit South with a bot partner against two bot "
            "opponents. Type 'help' at the prompt for the commands."
        ),
    )
    parser.add_argument("--variant", type=variant_name, help="variant id (default: classic)")
    add_option_argument(parser)
    parser.add_argument(
        "--partner",
        metavar="LEVEL",
        type=level_name,
        help=f"your partner's level (default: {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--opponents",
        metavar="LEVEL",
        type=level_name,
        help=f"the opponents' level (default: {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--seed", type=int, help="seed for the deals and the bots (default: random)"
    )
    parser.add_argument(
        "--coach",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="allow coach tips with the 'hint' command (default: on)",
    )
    parser.add_argument(
        "--delay",
        type=seconds,
        metavar="SECONDS",
        help="pause after each bot move (default: 0.4 on a terminal, 0 otherwise)",
    )
    start = parser.add_mutually_exclusive_group()
    start.add_argument(
        "--continue",
        dest="continue_game",
        action="store_true",
        help="resume the autosaved game",
    )
    start.add_argument("--resume", metavar="FILE", help="resume a game saved with 'save FILE'")
    parser.set_defaults(handler=run)


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """Add the repeatable ``--option NAME=VALUE`` argument."""
    parser.add_argument(
        "--option",
        "-o",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a house rule, repeatable (see 'spades rules VARIANT'), e.g. target_score=300",
    )


def parse_option(text: str) -> tuple[str, object]:
    """Read ``NAME=VALUE``: whole numbers become ints, ``None``/``null`` None,
    ``true``/``false`` booleans, anything else stays a string.

    >>> parse_option("target_score=300"), parse_option("loss_floor=none")
    (('target_score', 300), ('loss_floor', None))
    >>> parse_option("whiz_nil_needs_no_ace=true"), parse_option("nil_tricks=bags_only")
    (('whiz_nil_needs_no_ace', True), ('nil_tricks', 'bags_only'))
    """
    name, equals, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not equals or not name:
        raise ValueError(f"an option is written NAME=VALUE, like target_score=300; got {text!r}")
    lowered = raw.lower()
    value: object
    if lowered in ("none", "null"):
        value = None
    elif lowered in ("true", "false"):
        value = lowered == "true"
    else:
        try:
            value = int(raw)
        except ValueError:
            value = raw
    return name, value


def parse_options(texts: Sequence[str]) -> dict[str, Any]:
    """Read every ``NAME=VALUE``; a later value of an option replaces an earlier one."""
    return dict(parse_option(text) for text in texts)


class _UsageError(Exception):
    """Arguments that do not make sense together."""


def _input_line(prompt: str) -> str:
    return input(prompt)


def _start(
    args: argparse.Namespace, autosave: Path, say: Callable[[str], None]
) -> tuple[Game, PlayerConfig, str]:
    """The game to play and its configuration, from the arguments; raises
    ``_UsageError``, ``SaveFileError`` or ``SpadesError`` with a message."""
    resuming = args.continue_game or args.resume is not None
    if resuming and (args.variant is not None or args.options or args.seed is not None):
        raise _UsageError(
            "--variant, --option and --seed start a new game; "
            "they cannot be combined with --continue or --resume"
        )
    saved: Mapping[str, Any] = {}
    if args.continue_game:
        if not autosave.exists():
            elsewhere = _previous_note(autosave)
            raise SaveFileError(
                f"there is no game to continue (no {autosave})"
                + (f"; {elsewhere}" if elsewhere else "")
            )
        try:
            game, saved = read_save(autosave)
        except SaveFileError as error:
            aside = set_aside(autosave)
            say(f"spades play: {error}")
            say(f"The unreadable save was kept as {aside}.")
            raise _OfferNewGame from None
        note = f"Continuing the game saved in {autosave}."
        elsewhere = _previous_note(autosave)
        if elsewhere:
            note += f" ({elsewhere[0].upper()}{elsewhere[1:]}.)"
    elif args.resume is not None:
        path = Path(args.resume).expanduser()
        game, saved = read_save(path)
        note = f"Resuming the game saved in {path}."
    else:
        try:
            options = parse_options(args.options)
        except ValueError as error:
            raise _UsageError(str(error)) from None
        game = new_game(args.variant or "classic", seed=args.seed, **options)
        note = f"New game of {game.variant.title} (seed {game.seed})."
        kept = None
        if autosave.exists() and not autosave.is_file():
            # A pipe or a device there holds no game to keep: set it aside, as
            # --continue does with any save it cannot read.
            note += f" {autosave} was not a save; it was moved to {set_aside(autosave)}."
        else:
            try:
                kept = keep_previous(autosave)
            except SaveFileError as error:
                # Better no new game than one whose first autosave destroys the old one.
                raise SaveFileError(f"{error}; the new game was not started") from None
        if kept is not None:
            note += (
                f" The game that was in progress is kept as {kept} (the last {PREVIOUS_KEPT} "
                f"are kept); take it up again with: {command_name()} play --resume {kept}"
            )
    config = _config(args, saved)
    return game, config, note


def _previous_note(autosave: Path) -> str:
    """For ``--continue``: where the games that were in progress when new
    ones started are, and how to take one up; empty when there are none."""
    kept = previous_games(autosave)
    if not kept:
        return ""
    count = f"{len(kept)} game{'s' if len(kept) > 1 else ''}"
    return (
        f"{count} set aside when new games started {'are' if len(kept) > 1 else 'is'} kept "
        f"in {autosave.parent}, {kept[0].name} the most recent: take one up with "
        f"{command_name()} play --resume FILE"
    )


class _OfferNewGame(Exception):
    """The autosave could not be read (and was set aside): offer a new game."""


def _config(args: argparse.Namespace, saved: Mapping[str, Any]) -> PlayerConfig:
    """The arguments' choices, falling back on the save's, then the defaults."""
    partner = args.partner or saved.get("partner", DEFAULT_LEVEL)
    opponents = args.opponents or saved.get("opponents", DEFAULT_LEVEL)
    for level in {partner, opponents}:
        try:
            # A player for measurement only (perfect-info) is refused by name.
            check_human_table(level_name(level))
            bots.make(level_name(level))
        except PlayerError as error:
            if level in (args.partner, args.opponents):
                raise
            raise SaveFileError(f"the save names a player that cannot sit here: {error}") from None
        except SpadesError as error:
            if level in (args.partner, args.opponents):
                raise
            raise SaveFileError(f"the save names an unknown bot level: {error}") from None
    use_coach = args.coach if args.coach is not None else saved.get("coach", True)
    seat = Seat.parse(saved["seat"]) if "seat" in saved else Seat.SOUTH
    return PlayerConfig(
        partner=level_name(partner), opponents=level_name(opponents), coach=use_coach, seat=seat
    )


def run(args: argparse.Namespace) -> int:
    """Play a game; exit status 0 when it ends or is saved, 2 for bad
    arguments, 1 for a save file that cannot be read or a game that could
    not be saved."""
    directory = data_dir()
    autosave = directory / AUTOSAVE_NAME
    command = command_name()
    interactive = _is_terminal(sys.stdin)

    def say_error(text: str) -> None:
        for line in screen_lines(text, wrap=_is_terminal(sys.stderr)):
            print(line, file=sys.stderr)

    lock = SessionLock(directory)
    try:
        lock.acquire()
    except SessionBusyError as error:
        say_error(f"spades play: {error}")
        return 1
    except SaveFileError as error:
        say_error(f"spades play: {error}; the game cannot be saved.")
    try:
        try:
            game, config, note = _start(args, autosave, say_error)
        except _OfferNewGame:
            if not (interactive and _yes(_input_line("Start a new game instead? [Y/n] "))):
                say_error(f"Start a new game with: {command} play")
                return 1
            args.continue_game = False
            game, config, note = _start(args, autosave, say_error)
        return _play(game, config, note, args, autosave, command, interactive)
    except _UsageError as error:
        say_error(f"spades play: {error}")
        return 2
    except SaveFileError as error:
        say_error(f"spades play: {error}")
        return 1
    except SpadesError as error:
        say_error(f"spades play: {error}")
        return 2
    except (EOFError, KeyboardInterrupt):
        return 1
    finally:
        lock.release()


def _play(
    game: Game,
    config: PlayerConfig,
    note: str,
    args: argparse.Namespace,
    autosave: Path,
    command: str,
    interactive: bool,
) -> int:
    """Introduce the game and run the session; its exit status."""
    delay = args.delay
    if delay is None:
        delay = 0.4 if _is_terminal(sys.stdout) and interactive else 0.0
    session = PlaySession(
        game,
        config,
        autosave=autosave,
        out=sys.stdout,
        read_line=_input_line,
        echo_input=not interactive,
        delay=delay,
        pause_between_hands=interactive,
        command=command,
        wrap=_is_terminal(sys.stdout),
    )
    me = config.seat
    first, second = (seat_name(seat) for seat in me.team.opponent.seats)
    session.say(
        note,
        f"You sit {seat_name(me)}; your partner {seat_name(me.partner)} plays at level "
        f"{config.partner}, {first} and {second} at level {config.opponents}. "
        "Type 'help' for the commands.",
    )
    if game.phase is not Phase.DEAL and not game.is_over:
        session.say(f"Hand {game.hand_number + 1} is in progress.")
    endless = why_games_may_not_end(game.rules)
    if endless:
        session.say(f"Warning: this game may never end: {endless}.")
    return session.run()


def _yes(answer: str) -> bool:
    """Whether a [Y/n] question was answered yes (Enter is yes)."""
    return answer.strip().lower() in ("", "y", "yes")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
