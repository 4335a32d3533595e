"""The loop of ``spades play``: deal, ask the human, move the bots, report
tricks and hands, and autosave after every action."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final, TextIO, final

from spades_core import bots
from spades_core.analysis.mistakes import review
from spades_core.cli import commands, render
from spades_core.cli.render import Style, seat_name
from spades_core.cli.saves import PlayerConfig, SaveFileError, session_json, write_save
from spades_core.engine.game import Game, Phase
from spades_core.engine.records import dumps
from spades_core.engine.views import View
from spades_core.rules.hooks import checked_game_outcome
from spades_core.rules.rng import SeedStream
from spades_core.tips import after_hand, coach
from spades_core.values.actions import Action, Bid, Play
from spades_core.values.cards import CardSet
from spades_core.values.seats import Seat, Team

__all__ = ["PlaySession", "bot_move", "bot_seed"]

_BOT_SEED_PURPOSE: Final = 0x5B07


def bot_seed(game: Game, seat: Seat) -> int:
    """The seed for the bot in ``seat`` deciding its next move in ``game``.

    It is derived from the game's seed, the hand number and how many actions
    the hand has seen, so the same ``--seed`` and the same input give the
    same game, also when it is saved and resumed in between (a bot is made
    afresh for every decision and keeps no state across them).
    """
    made = sum(1 for bid in game.bids.values_ if bid is not None)
    step = made + 4 * len(game.tricks) + len(game.current_trick)
    index = ((game.hand_number * 64 + step) * 4 + int(seat)) & 0xFFFFFFFF
    return SeedStream(game.seed, _BOT_SEED_PURPOSE, index).next64()


def bot_move(game: Game, seat: Seat, level: str) -> Action:
    """The move of a ``level`` bot in ``seat``, given only that seat's view."""
    player = bots.make(level, seed=bot_seed(game, seat))
    return player.choose(game.view(seat))


class _Quit(Exception):
    """The player asked to leave."""


@final
class PlaySession:
    """One terminal game: the loop that asks the human, moves the bots,
    reports tricks and hands, and autosaves after every action.

    ``command`` is how the player started the program (``spades``), for the
    advice on how to come back; ``pause_between_hands`` waits for Enter after
    a hand's score, so it can be read before the next deal. With ``wrap``
    (output to a terminal), lines longer than the terminal is wide are broken
    at spaces to fit it, at its width when each is written.
    """

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
        pause_between_hands: bool = False,
        command: str = "spades",
        wrap: bool = False,
    ) -> None:
        self.game = game
        self.config = config
        self.autosave = autosave
        self.out = out
        self.read_line = read_line
        self.echo_input = echo_input
        self.delay = delay
        self.pause_between_hands = pause_between_hands
        self.command = command
        self.wrap = wrap
        self.style = Style(colour=render.use_colour(out))
        self.save_error: str | None = None
        """Why the last autosave failed; ``None`` while autosaves succeed."""

    def say(self, *lines: str) -> None:
        """Write lines to the player (wrapped to the terminal's width with ``wrap``)."""
        for line in lines:
            for part in render.screen_lines(line, wrap=self.wrap):
                print(part, file=self.out)
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
        """Play until the game ends or the player leaves; the exit status
        (1 when the player leaves and the game could not be saved)."""
        try:
            while not self.game.is_over:
                self.step()
        except _Quit:
            return self.leave("")
        except EOFError:
            return self.leave("End of input: ")
        except KeyboardInterrupt:
            return self.leave("Interrupted: ")
        self.finish()
        return 0

    def step(self) -> None:
        """Take the next action: deal, a bot's move, or the human's."""
        game = self.game
        if game.phase is Phase.DEAL:
            if self.pause_between_hands and game.hand_results:
                self.wait_for_deal()
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
            self.say(f"{seat_name(seat)} (you) {render.action_text(action, self.style)}")
        else:
            action = bot_move(game, seat, self.config.level(seat))
            self.say(f"{seat_name(seat)} {render.action_text(action, self.style)}")
            if self.delay:
                time.sleep(self.delay)
        self.advance(action)

    def wait_for_deal(self) -> None:
        """Hold the hand's score on screen until the player asks for the next deal."""
        while True:
            line = self.read_line("Press Enter to deal the next hand ('review', 'score', 'quit'): ")
            if self.echo_input:
                self.say(line)
            command = line.strip().lower()
            if command in ("quit", "exit"):
                raise _Quit
            if command == "score":
                self.say(*commands.score_lines(self.game, self.style))
            elif command.startswith("review"):
                self.review(command.partition(" ")[2])
            elif command == "last":
                self.say(*commands.last_trick_lines(self.game, self.style))
            elif command in ("help", "?"):
                self.say(commands.HELP)
            else:
                return

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
                self.say("", *render.result_lines(self.game, self.style))

    def show(self, view: View) -> None:
        """Print the table and the human's hand."""
        playing = view.phase is Phase.PLAY and view.is_my_turn
        legal = (
            CardSet.of(a.card for a in view.legal_actions() if isinstance(a, Play))
            if playing
            else None
        )
        heading = "Your hand (* = you may play it):" if playing else "Your hand:"
        numbers = commands.card_numbers(view.dealt_hand()) if view.phase is Phase.PLAY else None
        self.say(
            "",
            *render.table_lines(view, self.style, labels=self.labels()),
            heading,
            *render.hand_lines(view.hand(), self.style, legal=legal, numbers=numbers),
        )

    def ask_human(self) -> Action:
        """Show the table and read commands until the human gives a legal action."""
        view = self.game.view(self.config.seat)
        self.show(view)
        if view.phase is Phase.BID:
            values = [a.value for a in view.legal_actions() if isinstance(a, Bid)]
            limits = view.explain_bids()
            if limits:
                self.say(limits)
            prompt = f"Your bid ({commands.bid_choices(values)}): "
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
            if len(view.legal_actions()) == 1:
                return view.legal_actions()[0]
            self.say("Type your " + ("bid" if view.phase is Phase.BID else "card") + ", or 'help'.")
            return None
        if command in ("help", "?"):
            self.say(commands.HELP)
        elif command == "hint":
            self.hint(view)
        elif command in ("show", "table", "hand"):
            self.show(view)
        elif command == "last":
            self.say(*commands.last_trick_lines(self.game, self.style))
        elif command == "score":
            self.say(*commands.score_lines(self.game, self.style))
        elif command == "review":
            self.review(argument)
        elif command in ("quit", "exit"):
            raise _Quit
        elif command == "save":
            self.save_to(argument.strip())
        else:
            if view.phase is Phase.BID:
                answer: Action | str = commands.read_bid(text, view)
            else:
                answer = commands.read_card(text, view, commands.card_numbers(view.dealt_hand()))
            if isinstance(answer, str):
                self.say(answer)
                return None
            return answer
        return None

    def hint(self, view: View) -> None:
        """Print the coach's suggestion, when the coach is on."""
        if not self.config.coach:
            self.say("The coach is off (start with --coach to get hints).")
            return
        tip = coach(view)
        suggestion = render.action_text(tip.action, self.style, imperative=True)
        self.say(f"Coach: {suggestion}. {tip.reason}")

    def review(self, which: str) -> None:
        """Show the double-dummy review of a finished hand (the last one, or
        hand ``which`` counting from 1): each card that cost a contract
        tricks or took a needless bag, then the coach's word on your side's."""
        finished = len(self.game.hand_results)
        if not finished:
            self.say("No hand has been finished yet: 'review' looks back at a finished hand.")
            return
        text = which.strip() or str(finished)
        number = int(text) if text.isdigit() and len(text) <= 4 else 0
        if not 1 <= number <= finished:
            self.say(f"Write 'review' for the last hand, or 'review N' for hand 1 to {finished}.")
            return
        # A hand takes a second or so in pure Python: say so before the wait.
        self.say(f"Reviewing hand {number} with every hand seen…")
        mistakes = review(self.game, number - 1)
        for mistake in mistakes:
            self.say("  " + mistake.describe())
        if self.config.coach:
            self.say(after_hand(mistakes, self.config.seat, number - 1))
        elif not mistakes:
            self.say("  No card cost a contract a trick or took a needless bag.")

    def save_to(self, name: str) -> None:
        """Write the game as a record to the file ``name``."""
        if not name:
            self.say("Write 'save FILE', for example: save game.json")
            return
        path = Path(name).expanduser()
        try:
            write_save(path, dumps(self.game))
        except SaveFileError as error:
            self.say(f"Not saved: {error}.")
            return
        self.say(f"Saved to {path}. Resume with: {self.command} play --resume {path}")

    def save_autosave(self) -> None:
        """Save the session to the autosave file; warn when that starts failing."""
        try:
            self.autosave.parent.mkdir(parents=True, exist_ok=True)
            write_save(self.autosave, session_json(self.game, self.config))
        except (SaveFileError, OSError) as error:
            if self.save_error is None:
                self.say(f"(The game is not being saved: {_reason(error, self.autosave)}.)")
            self.save_error = _reason(error, self.autosave)
        else:
            self.save_error = None

    def leave(self, opening: str) -> int:
        """Save and say how to come back; the exit status: 0 when the game
        was saved, 1 when it could not be."""
        self.save_autosave()
        if self.save_error is not None:
            lost = (
                f"{opening}the game could NOT be saved"
                if opening
                else "The game could NOT be saved"
            )
            self.say("", f"{lost}: {self.save_error}.")
            return 1
        message = f"{opening}game saved." if opening else "Game saved."
        self.say("", f"{message} Continue later with: {self.command} play --continue")
        return 0

    def finish(self) -> None:
        """Announce the winner and remove the autosave of the finished game."""
        game = self.game
        winner = game.winner
        scores = game.scores
        hands = len(game.hand_results)
        after = f"after {hands} hand{'' if hands == 1 else 's'}"
        # The variant's own end (target, loss floor) or, when it would play on,
        # the hand limit: computed, not guessed from the numbers.
        totals = (scores[Team.NS], scores[Team.EW])
        by_limit = checked_game_outcome(game.variant, game.rules, totals) is None
        if by_limit:
            after += f" (the hand limit, max_hands={game.rules.max_hands})"
        if winner is None:  # equal scores at the max_hands limit
            heading = f"Game over {after}: a draw at {scores.values_[0]} all."
        else:
            loser = winner.opponent
            ours = "you and your partner" if winner == self.config.seat.team else "your opponents"
            result = f"{winner.name} ({ours}) win, {scores[winner]} to {scores[loser]}"
            heading = (
                f"Game over {after}: {result}." if by_limit else f"Game over: {result}, {after}."
            )
        self.say("", self.style.heading(heading))
        if self.save_error is None:
            # Should removing fail, --continue finds a finished game and says so.
            with contextlib.suppress(OSError):
                self.autosave.unlink(missing_ok=True)


def _reason(error: Exception, path: Path) -> str:
    if isinstance(error, OSError):
        return f"cannot write {path}: {error.strerror or error}"
    return str(error)
