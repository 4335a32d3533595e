"""``spades play``: a game in the terminal, you (South) and a bot partner
against two bot opponents.

At your turn the table and your hand are shown; type a card (``QH``,
``10h``, ``q♥``) or its number in the displayed hand, a bid (a number or
``nil``), or a command: ``hint``, ``show``, ``save FILE``, ``help``, ``quit``.
It works with piped input too, so a whole game can be scripted.

The game is saved after every action to ``autosave.json`` in the data
directory (:func:`data_dir`), and ``spades play --continue`` resumes it. The
autosave is a small JSON wrapper around a game record::

    {"format": "spades-play-session", "version": 1,
     "seat": "S", "partner": "normal", "opponents": "normal", "coach": true,
     "record": { ...the record sc.dumps(game) writes... }}

``save FILE`` and ``--resume FILE`` use plain records (``--resume`` also
reads an autosave file). End of input, Ctrl-C and ``quit`` save and exit
with status 0.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, TextIO, final

import attrs

from spades_core import bots
from spades_core.actions import Action, Bid, Play
from spades_core.cards import Card, CardSet
from spades_core.cli import render
from spades_core.cli.render import Style, seat_name
from spades_core.coach import coach
from spades_core.errors import SpadesError
from spades_core.game import new_game
from spades_core.records import dumps, from_record, loads, to_record
from spades_core.rng import SeedStream
from spades_core.scoring import why_games_may_not_end
from spades_core.seats import Seat
from spades_core.state import Game, Phase
from spades_core.views import View

__all__ = [
    "AUTOSAVE_NAME",
    "DATA_DIR_ENV",
    "SESSION_FORMAT",
    "PlayerConfig",
    "bot_move",
    "bot_seed",
    "data_dir",
    "parse_option",
    "parse_options",
    "register",
]

DATA_DIR_ENV: Final = "SPADES_CORE_DATA_DIR"
"""Environment variable naming the directory for the autosave (overrides the default)."""
AUTOSAVE_NAME: Final = "autosave.json"
"""File name of the autosave inside :func:`data_dir`."""
SESSION_FORMAT: Final = "spades-play-session"
"""``format`` of the autosave wrapper."""
SESSION_VERSION: Final = 1
DEFAULT_LEVEL: Final = "normal"
HUMAN_SEAT: Final = Seat.SOUTH

_BOT_SEED_PURPOSE: Final = 0x5B07
_HELP: Final = """\
Commands:
  a card          play it: QH, 10h, q♥, T♦ (rank then suit)
  a number        while playing: the card with that number in your hand;
                  while bidding: your bid (0 or nil for Nil)
  nil             bid Nil
  Enter           take the only legal action, when there is just one
  hint            ask the coach for a move and the reason
  show            show the table and your hand again
  save FILE       save the game as a record to FILE (resume with --resume FILE)
  help            this list
  quit            save and leave (resume with spades play --continue)"""


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
    parser.add_argument("--variant", help="variant id (default: classic)")
    add_option_argument(parser)
    parser.add_argument(
        "--partner", metavar="LEVEL", help=f"your partner's level (default: {DEFAULT_LEVEL})"
    )
    parser.add_argument(
        "--opponents", metavar="LEVEL", help=f"the opponents' level (default: {DEFAULT_LEVEL})"
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
        type=float,
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


def data_dir() -> Path:
    """Where ``spades play`` keeps its autosave: ``$SPADES_CORE_DATA_DIR`` if
    set; otherwise ``%LOCALAPPDATA%\\spades-core`` on Windows,
    ``~/Library/Application Support/spades-core`` on macOS, and
    ``$XDG_DATA_HOME/spades-core`` (default ``~/.local/share/spades-core``)
    elsewhere."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "spades-core"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "spades-core"
    xdg = os.environ.get("XDG_DATA_HOME")
    base_dir = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base_dir / "spades-core"


def bot_seed(game: Game, seat: Seat) -> int:
    """The seed for the bot in ``seat`` deciding its next move in ``game``.

    It is derived from the game's seed, the hand number and how many actions
    the hand has seen, so the same ``--seed`` and the same input give the
    same game, also when it is saved and resumed in between (a bot is made
    afresh for every decision and keeps no state across them).
    """
    step = len(game.bids) + 4 * len(game.tricks) + len(game.current_trick)
    index = ((game.hand_number * 64 + step) * 4 + int(seat)) & 0xFFFFFFFF
    return SeedStream(game.seed, _BOT_SEED_PURPOSE, index).next64()


def bot_move(game: Game, seat: Seat, level: str) -> Action:
    """The move of a ``level`` bot in ``seat``, given only that seat's view."""
    player = bots.make(level, seed=bot_seed(game, seat))
    return player.choose(game.view(seat))


@final
@attrs.frozen
class PlayerConfig:
    """Who sits where: the human's seat, the bots' levels, and whether hints are on."""

    partner: str = DEFAULT_LEVEL
    opponents: str = DEFAULT_LEVEL
    coach: bool = True
    seat: Seat = HUMAN_SEAT

    def level(self, seat: Seat) -> str:
        """The level of the bot in ``seat``."""
        return self.partner if seat == self.seat.partner else self.opponents

    def to_json(self) -> dict[str, object]:
        """The configuration as it is stored in the autosave."""
        return {
            "seat": self.seat.letter,
            "partner": self.partner,
            "opponents": self.opponents,
            "coach": self.coach,
        }


class _SaveFileError(Exception):
    """A save file that cannot be read; the message is for the player."""


def session_json(game: Game, config: PlayerConfig) -> str:
    """The autosave document for ``game`` played with ``config``."""
    document: dict[str, Any] = {"format": SESSION_FORMAT, "version": SESSION_VERSION}
    document.update(config.to_json())
    document["record"] = to_record(game)
    return json.dumps(document)


def read_save(path: Path) -> tuple[Game, dict[str, Any]]:
    """The game in a save file (a record or an autosave) and the player
    configuration it stores (empty for a plain record)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise _SaveFileError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        document = json.loads(text)
    except ValueError:
        document = None
    settings: dict[str, Any] = {}
    try:
        if isinstance(document, dict) and document.get("format") == SESSION_FORMAT:
            if document.get("version") != SESSION_VERSION:
                raise _SaveFileError(
                    f"{path} is a version {document.get('version')!r} save; "
                    f"this spades-core reads version {SESSION_VERSION}"
                )
            keys = ("seat", "partner", "opponents", "coach")
            settings = {key: document.get(key) for key in keys}
            game = from_record(document.get("record"))
        else:
            game = loads(text)
    except SpadesError as error:
        raise _SaveFileError(f"{path} is not a saved game: {error}") from None
    return game, settings


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text + "\n", encoding="utf-8")
    os.replace(partial, path)


class _Quit(Exception):
    """The player asked to leave."""


@final
class PlaySession:
    """One terminal game: the loop that asks the human, moves the bots,
    reports tricks and hands, and autosaves after every action."""

    def __init__(
        self,
        game: Game,
        config: PlayerConfig,
        *,
        autosave: Path,
        out: TextIO,
        read_line: Callable[[str], str],
        echo_input: bool,
        delay: float,
    ) -> None:
        self.game = game
        self.config = config
        self.autosave = autosave
        self.out = out
        self.read_line = read_line
        self.echo_input = echo_input
        self.delay = delay
        self.style = Style(colour=render.use_colour(out))
        self._autosave_failed = False

    def say(self, *lines: str) -> None:
        """Write lines to the player."""
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def labels(self) -> dict[Seat, str]:
        """Notes shown after each seat's name at the table."""
        me = self.config.seat
        return {
            seat: "you"
            if seat == me
            else f"partner, {self.config.level(seat)}"
            if seat == me.partner
            else self.config.level(seat)
            for seat in Seat
        }

    def run(self) -> int:
        """Play until the game ends or the player leaves; the exit status."""
        try:
            while not self.game.is_over:
                self.step()
        except _Quit:
            return self.leave("Game saved.")
        except EOFError:
            return self.leave("End of input: game saved.")
        except KeyboardInterrupt:
            return self.leave("Interrupted: game saved.")
        self.finish()
        return 0

    def step(self) -> None:
        """Take the next action: deal, a bot's move, or the human's."""
        game = self.game
        if game.phase is Phase.DEAL:
            self.advance(game.legal_actions()[0])
            self.say(
                "",
                self.style.heading(
                    f"Hand {self.game.hand_number + 1}: {seat_name(self.game.dealer)} deals."
                ),
            )
            return
        seat = game.to_act
        assert seat is not None
        if seat == self.config.seat:
            action = self.ask_human()
        else:
            action = bot_move(game, seat, self.config.level(seat))
            self.say(f"{seat_name(seat)} {render.action_text(action, self.style)}")
            if self.delay:
                time.sleep(self.delay)
        self.advance(action)

    def advance(self, action: Action) -> None:
        """Apply ``action``, autosave, and report a finished trick or hand."""
        before = self.game
        self.game = before.apply(action)
        self.save_autosave()
        if before.phase is Phase.PLAY and len(before.current_trick) == 3:
            finished_hand = len(self.game.hand_results) > len(before.hand_results)
            trick = self.game.hand_results[-1].played[-1] if finished_hand else self.game.tricks[-1]
            winning = dict(trick.plays)[trick.winner]
            self.say(
                f"  → {seat_name(trick.winner)} wins trick {len(before.tricks) + 1} with "
                f"{render.card_text(winning, self.style)} "
                f"({render.trick_text(trick.plays, self.style)})"
            )
            if finished_hand:
                result = self.game.hand_results[-1]
                bags_before = (
                    before.hand_results[-1].bags.values_ if before.hand_results else (0, 0)
                )
                self.say(
                    "",
                    *render.result_lines(
                        self.game.rules,
                        result,
                        (bags_before[0], bags_before[1]),
                        self.style,
                    ),
                )

    def show(self, view: View) -> None:
        """Print the table and the human's hand."""
        playing = view.phase is Phase.PLAY and view.is_my_turn
        legal = (
            CardSet.of(a.card for a in view.legal_actions if isinstance(a, Play))
            if playing
            else None
        )
        heading = "Your hand (* = you may play it):" if playing else "Your hand:"
        self.say(
            "",
            *render.table_lines(view, self.style, labels=self.labels()),
            heading,
            *render.hand_lines(view.hand, self.style, legal=legal, numbered=playing),
        )

    def ask_human(self) -> Action:
        """Show the table and read commands until the human gives a legal action."""
        view = self.game.view(self.config.seat)
        self.show(view)
        if view.phase is Phase.BID:
            values = [a.value for a in view.legal_actions if isinstance(a, Bid)]
            prompt = f"Your bid ({_bid_choices(values)}): "
        else:
            prompt = "Your card (a card or its number; 'help' for commands): "
        while True:
            line = self.read_line(prompt)
            if self.echo_input:
                self.say(line)
            action = self.interpret(line.strip(), view)
            if action is not None:
                return action

    def interpret(self, text: str, view: View) -> Action | None:
        """The action ``text`` asks for, or ``None`` after handling a command
        or explaining why the input cannot be taken."""
        command, _, argument = text.partition(" ")
        command = command.lower()
        if not text:
            if len(view.legal_actions) == 1:
                return view.legal_actions[0]
            self.say("Type your " + ("bid" if view.phase is Phase.BID else "card") + ", or 'help'.")
            return None
        if command in ("help", "?"):
            self.say(_HELP)
        elif command == "hint":
            self.hint(view)
        elif command in ("show", "table", "hand"):
            self.show(view)
        elif command in ("quit", "exit"):
            raise _Quit
        elif command == "save":
            self.save_to(argument.strip())
        else:
            return self.parse_action(text, view)
        return None

    def parse_action(self, text: str, view: View) -> Action | None:
        """A bid or play typed by the human, checked against the rules."""
        words = text.split()
        if len(words) == 2 and words[0].lower() in ("bid", "play"):
            text = words[1]
        action: Action
        try:
            if view.phase is Phase.BID:
                if text.lower() == "nil":
                    action = Bid.of(0)
                elif text.isdigit():
                    action = Bid.of(int(text))
                else:
                    self.say(f"Type your bid as a number or 'nil'; got {text!r}.")
                    return None
            else:
                if text.isdigit():
                    order = render.sorted_hand(view.hand)
                    number = int(text)
                    if not 1 <= number <= len(order):
                        held = f"{len(order)} card" + ("s" if len(order) > 1 else "")
                        self.say(
                            f"There is no card number {number}: your hand has {held}, "
                            f"numbered 1 to {len(order)}."
                        )
                        return None
                    card = order[number - 1]
                else:
                    card = Card.parse(text)
                action = Play.of(card)
        except SpadesError as error:
            self.say(f"{error}. Type 'help' for the commands.")
            return None
        problem = self.game.why_illegal(action)
        if problem is not None:
            self.say(f"Not allowed: {problem}.")
            return None
        return action

    def hint(self, view: View) -> None:
        """Print the coach's suggestion, when the coach is on."""
        if not self.config.coach:
            self.say("The coach is off (start with --coach to get hints).")
            return
        tip = coach(view)
        suggestion = render.action_text(tip.action, self.style, imperative=True)
        self.say(f"Coach: {suggestion}. {tip.reason}")

    def save_to(self, name: str) -> None:
        """Write the game as a record to the file ``name``."""
        if not name:
            self.say("Write 'save FILE', for example: save game.json")
            return
        path = Path(name).expanduser()
        try:
            _write_atomically(path, dumps(self.game))
        except OSError as error:
            self.say(f"Could not save to {path}: {error.strerror or error}")
            return
        self.say(f"Saved to {path}. Resume with: spades play --resume {path}")

    def save_autosave(self) -> None:
        """Save the session to the autosave file; warn once if that fails."""
        try:
            _write_atomically(self.autosave, session_json(self.game, self.config))
        except OSError as error:
            if not self._autosave_failed:
                self._autosave_failed = True
                self.say(f"(Cannot autosave to {self.autosave}: {error.strerror or error})")

    def leave(self, message: str) -> int:
        """Save and say how to come back; the exit status (0)."""
        self.save_autosave()
        self.say("", f"{message} Continue later with: spades play --continue")
        return 0

    def finish(self) -> None:
        """Announce the winner and remove the autosave of the finished game."""
        winner = self.game.winner
        scores = self.game.scores
        if winner is None:  # equal scores at the hand limit
            self.say("", self.style.heading(f"Game over: a draw at {scores.values_[0]} all."))
            with contextlib.suppress(OSError):
                self.autosave.unlink(missing_ok=True)
            return
        loser = winner.opponent
        ours = "you and your partner" if winner == self.config.seat.team else "your opponents"
        self.say(
            "",
            self.style.heading(
                f"Game over: {winner.name} ({ours}) win, "
                f"{scores[winner]} to {scores[loser]}, after "
                f"{len(self.game.hand_results)} hands."
            ),
        )
        with contextlib.suppress(OSError):
            self.autosave.unlink(missing_ok=True)


def _bid_choices(values: Sequence[int]) -> str:
    """The legal bids for a prompt: ``Nil or 1-13``, ``Nil, 4``, ``4``.

    >>> _bid_choices(range(14)), _bid_choices([0, 4]), _bid_choices([1, 2, 3])
    ('Nil or 1-13', 'Nil or 4', '1-3')
    """
    counts = [value for value in values if value]
    parts = ["Nil"] if 0 in values else []
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        parts.append(f"{counts[0]}-{counts[-1]}")
    else:
        parts += [str(value) for value in counts]
    return " or ".join(parts) if len(parts) == 2 else ", ".join(parts)


def _input_line(prompt: str) -> str:
    return input(prompt)


def _start(args: argparse.Namespace, autosave: Path) -> tuple[Game, PlayerConfig, str]:
    """The game to play and its configuration, from the arguments; raises
    ``_SaveFileError`` or ``SpadesError`` (bad arguments) with a message."""
    resuming = args.continue_game or args.resume is not None
    if resuming and (args.variant is not None or args.options or args.seed is not None):
        raise _UsageError(
            "--variant, --option and --seed start a new game; "
            "they cannot be combined with --continue or --resume"
        )
    saved: Mapping[str, Any] = {}
    if args.continue_game:
        if not autosave.exists():
            raise _SaveFileError(f"there is no game to continue (no {autosave})")
        game, saved = read_save(autosave)
        note = f"Continuing the game saved in {autosave}."
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
        if autosave.exists():
            previous = autosave.with_name("autosave.previous.json")
            try:
                os.replace(autosave, previous)
                note += f" The game that was in progress was moved to {previous}."
            except OSError:
                pass
    config = _config(args, saved)
    return game, config, note


def _config(args: argparse.Namespace, saved: Mapping[str, Any]) -> PlayerConfig:
    def pick(given: object, key: str, default: object) -> Any:
        if given is not None:
            return given
        value = saved.get(key)
        return default if value is None else value

    partner = pick(args.partner, "partner", DEFAULT_LEVEL)
    opponents = pick(args.opponents, "opponents", DEFAULT_LEVEL)
    use_coach = pick(args.coach, "coach", True)
    if not isinstance(partner, str) or not isinstance(opponents, str):
        raise _SaveFileError("the save names bot levels that are not text")
    return PlayerConfig(partner=partner, opponents=opponents, coach=bool(use_coach))


class _UsageError(Exception):
    """Arguments that do not make sense together."""


def run(args: argparse.Namespace) -> int:
    """Play a game; exit status 0 when it ends or is saved, 2 for bad
    arguments, 1 for a save file that cannot be read."""
    autosave = data_dir() / AUTOSAVE_NAME
    try:
        game, config, note = _start(args, autosave)
        for level in {config.partner, config.opponents}:
            bots.make(level)
    except _UsageError as error:
        print(f"spades play: {error}", file=sys.stderr)
        return 2
    except _SaveFileError as error:
        print(f"spades play: {error}", file=sys.stderr)
        return 1
    except SpadesError as error:
        print(f"spades play: {error}", file=sys.stderr)
        return 2
    delay = args.delay
    if delay is None:
        delay = 0.4 if _is_terminal(sys.stdout) and _is_terminal(sys.stdin) else 0.0
    session = PlaySession(
        game,
        config,
        autosave=autosave,
        out=sys.stdout,
        read_line=_input_line,
        echo_input=not _is_terminal(sys.stdin),
        delay=max(0.0, delay),
    )
    session.say(
        note,
        f"You sit South; your partner North plays at level {config.partner}, "
        f"East and West at level {config.opponents}. Type 'help' for the commands.",
    )
    if game.phase is not Phase.DEAL and not game.is_over:
        session.say(f"Hand {game.hand_number + 1} is in progress.")
    endless = why_games_may_not_end(game.rules)
    if endless:
        session.say(f"Warning: this game may never end: {endless}.")
    return session.run()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
