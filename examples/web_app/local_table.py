"""The web app's table: you at South, bots in the other seats, all in one
process (the page's Web Worker, under Pyodide).

It speaks the web table's protocol (``table_protocol.py``, the same module
the multiplayer server runs): the page sends the same messages and is sent
the same state. What differs is only where the game lives: here, and saved
by the page in the browser as a game record after every action.

The worker calls the module's functions with JSON text and gets JSON text
back, so nothing but strings crosses between JavaScript and Python.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

import spades_core as sc
import table_protocol as protocol

__all__ = ["LocalTable", "catalogue", "resume_game", "resume_refusal", "start_game"]

YOU: Final = protocol.HOST_SEAT


def catalogue() -> str:
    """What a game may be started with: every installed variant (the bundled
    plugins too) with its options, and the bot levels."""
    return json.dumps(protocol.catalogue(friends=False))


class LocalTable:
    """One game between you (South) and three bots.

    Between hands the next is dealt when you ask for it (``{"type":
    "next"}``), so the end of a hand stays on screen as long as you like.
    """

    def __init__(
        self,
        game: sc.Game,
        players: Mapping[sc.Seat, str],
        coach: bool,
        seeds: Mapping[sc.Seat, int] | None = None,
    ) -> None:
        if players.get(YOU) != protocol.PERSON:
            raise protocol.SettingsError("you sit South: South must be 'person'")
        self.players = dict(players)
        self.coach = coach
        self.bots = protocol.make_bots(self.players, seeds)
        self.game = game.deal() if _fresh(game) else game

    # -- starting ------------------------------------------------------------------

    @classmethod
    def start(cls, settings: str) -> LocalTable:
        """A new game from the start page's settings (JSON text, as the
        server's ``/api/tables`` takes); :class:`~table_protocol.SettingsError`
        says what is wrong."""
        checked = protocol.read_settings(_json(settings, "settings"), friends=False)
        return cls(checked.game, checked.players, checked.coach)

    @classmethod
    def resume(cls, record: str, seating: str) -> LocalTable:
        """The game of a saved or imported ``record`` (the library's record
        format, replayed through the engine by :func:`spades_core.loads`),
        played on by the players of ``seating`` (``{"players": {...},
        "coach": true}``). A record the engine refuses raises
        :class:`~table_protocol.SettingsError` with the engine's words."""
        seated = _json(seating, "seating")
        if not isinstance(seated, dict):
            raise protocol.SettingsError("the seating must be a JSON object")
        players = protocol.seat_players(seated.get("players", {}), friends=False)
        coach = seated.get("coach", True)
        if type(coach) is not bool:
            raise protocol.SettingsError(f"coach must be true or false; got {coach!r}")
        try:
            game = sc.loads(record)
        except sc.SpadesError as error:
            raise protocol.SettingsError(
                f"this is not a game record this app can play: {error}"
            ) from None
        return cls(game, players, coach)

    # -- playing -------------------------------------------------------------------

    def receive(self, text: str) -> str | None:
        """Take your message (JSON text); the refusal, or ``None`` when it was taken."""
        try:
            action = protocol.read_message(text)
        except protocol.MessageError as error:
            return str(error)
        if action == protocol.NEXT_HAND:
            refusal = protocol.next_hand_refusal(self.game)
            if refusal is None:
                self.game = self.game.deal()
            return refusal
        assert isinstance(action, sc.Action)
        try:
            self.game = self.game.apply(action, seat=YOU)
        except sc.SpadesError as error:
            return str(error)
        return None

    def bot_due(self) -> bool:
        """Whether a bot is to act now."""
        seat = self.game.to_act
        return seat is not None and seat in self.bots

    def bot_step(self) -> None:
        """The bot to act takes its action (only when :meth:`bot_due`)."""
        seat = self.game.to_act
        assert seat is not None
        bot = self.bots[seat]
        self.game = self.game.apply(bot.choose(self.game.view(seat)), seat=seat)

    def set_coach(self, on: bool) -> None:
        """Switch the coach's tips on or off, from the next state on (and in
        :meth:`seating`, so a resumed game keeps the choice)."""
        if type(on) is not bool:
            raise protocol.SettingsError(f"coach must be true or false; got {on!r}")
        self.coach = on

    # -- what the page is told -----------------------------------------------------------

    def state(self) -> str:
        """Your state message, as the server would send it."""
        waiting = protocol.waiting_for_next(self.game, [YOU], ())
        message = protocol.state_message(
            self.game,
            YOU,
            players=self.players,
            online=[YOU],
            coach_on=self.coach,
            waiting=waiting,
        )
        return json.dumps(message)

    def record(self) -> str:
        """The game as a record (:func:`spades_core.dumps`): what the page saves
        after every action, and exports for ``spades replay``."""
        return sc.dumps(self.game)

    def seating(self) -> str:
        """Who plays each seat and the coach setting, saved beside the record."""
        return json.dumps(
            {
                "players": {seat.letter: kind for seat, kind in self.players.items()},
                "coach": self.coach,
            }
        )


def start_game(settings: str) -> LocalTable | str:
    """:meth:`LocalTable.start`, or the reason it refused (for the worker)."""
    try:
        return LocalTable.start(settings)
    except protocol.SettingsError as error:
        return str(error)


def resume_game(record: str, seating: str) -> LocalTable | str:
    """:meth:`LocalTable.resume`, or the reason it refused (for the worker)."""
    try:
        return LocalTable.resume(record, seating)
    except protocol.SettingsError as error:
        return str(error)


def resume_refusal(record: str, seating: str) -> str | None:
    """Why a saved ``record`` and ``seating`` cannot be played on, or ``None``
    when they can (:meth:`LocalTable.resume`, nothing started): the page asks
    this of a save it keeps aside, to offer it back once it is readable."""
    made = resume_game(record, seating)
    return made if isinstance(made, str) else None


def _fresh(game: sc.Game) -> bool:
    """A game waiting for its first deal: dealt at once, with nothing to show before."""
    return game.phase is sc.Phase.DEAL and not game.hand_results


def _json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise protocol.SettingsError(f"the {what} must be JSON text") from None
