"""``spades replay FILE``: check and summarize a JSON Lines file of game records.

Each non-blank input line is one record (see ``docs/records.md``), or the
autosave of ``spades play`` (a record in its session wrapper); blank lines
are skipped. Every record is replayed through the engine and reported, in
order, one at a time, so memory stays bounded however long the file is; a
line longer than :data:`~spades_core.records.MAX_RECORD_SIZE` is refused
without being read into memory.

Two outputs:

* a summary for people (the default when standard output is a terminal, or
  ``--summary``): one line per record, then a total;
* JSON Lines (the default otherwise, or ``--json``): per record
  ``{"ok": true, "hands": [...], "phase": "DEAL", "winner": null}`` or
  ``{"ok": false, "error": {...}}``.

With ``--review`` each finished hand of a valid record is also replayed
against the double-dummy values (:func:`spades_core.analysis.review`):
the summary lists, under the record's line, every card that cost its team
tricks its contract needed or took a needless bag, with the better card; the
JSON output adds ``"review"``, one object per such card.

Both count hands, tricks and actions from 1 (``"hand": 2, "action": 5`` is
the message's "hand 2, action 5"), and both write seats and cards as the
board does (``West plays 6♥``), as ``spades play`` and ``spades watch`` do.

Exit status: 0 when every record is valid, 1 when any is not, 2 for a usage
error or an unreadable file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from spades_core.analysis.mistakes import Mistake, review
from spades_core.cli.render import board_notation
from spades_core.cli.saves import SESSION_FORMAT, SESSION_VERSION
from spades_core.engine.game import Game, Phase
from spades_core.engine.records import MAX_RECORD_SIZE, from_record, read_json
from spades_core.values.errors import RecordFormatError, RecordReason, SpadesError
from spades_core.values.seats import Team

__all__ = [
    "Outcome",
    "describe",
    "read_lines",
    "register",
    "replay_lines",
    "run",
    "summary",
]

_CHUNK = 1 << 16


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` subcommand."""
    parser = subparsers.add_parser(
        "replay",
        help="check and summarize game records (JSON Lines)",
        description=(
            "Replay every game record of a JSON Lines file (or a 'spades play' autosave) "
            "through the engine and report each: a summary for people when the output is "
            "a terminal, JSON Lines otherwise. Blank lines are skipped. Exit status: 0 if "
            "every record is valid, 1 if any is not, 2 for a usage error or an unreadable "
            "file."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="a JSON Lines file of records, or - for stdin")
    output = parser.add_mutually_exclusive_group()
    output.add_argument(
        "--summary", action="store_true", help="print a summary per record and a total"
    )
    output.add_argument(
        "--json", action="store_true", help="print one JSON line per record (JSON Lines)"
    )
    parser.add_argument(
        "--review",
        action="store_true",
        help=(
            "replay each finished hand against the double-dummy values and report every "
            "card that cost its team tricks its contract needed, or took a needless bag "
            "(a whole deal's search: seconds per hand, sometimes more)"
        ),
    )
    parser.set_defaults(handler=run)


def summary(game: Game) -> dict[str, Any]:
    """The ``ok`` output object for a loaded game."""
    return {
        "ok": True,
        "hands": [result.summary() for result in game.hand_results],
        "phase": game.phase.name,
        "winner": None if game.winner is None else game.winner.name,
    }


def _error_summary(error: SpadesError) -> dict[str, Any]:
    if isinstance(error, RecordFormatError):
        # The most specific tag: for an action the rules reject, the rule.
        specific = error.illegal_reason or error.reason
        reason, hand, action = str(specific.value), error.hand, error.action
    else:  # loading reports everything as RecordFormatError; kept for safety
        reason, hand, action = "invalid", None, None
    return {
        "ok": False,
        "error": {
            "type": type(error).__name__,
            "reason": reason,
            # From 1, as the message counts them (the error holds indexes from 0).
            "hand": None if hand is None else hand + 1,
            "action": None if action is None else action + 1,
            "message": board_notation(str(error)),
        },
    }


def read_lines(source: IO[bytes], limit: int = MAX_RECORD_SIZE) -> Iterator[tuple[int, bytes]]:
    """``(line number from 1, line)`` for each non-blank line of ``source``,
    without its line ending. A line longer than ``limit`` bytes is skipped in
    chunks, never held whole, and stands as ``b"\\n"`` (which no stripped
    line can be); replaying it reports ``too_large``."""
    number = 0
    while True:
        line = source.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit and not line.endswith(b"\n"):
            while True:
                rest = source.readline(_CHUNK)
                if not rest or rest.endswith(b"\n"):
                    break
            yield number, _TOO_LONG
            continue
        if line.strip():
            yield number, line.rstrip(b"\r\n")


# A marker no real line can be: read_lines strips line endings and skips blank lines.
_TOO_LONG = b"\n"


def _load(line: bytes | str) -> Game:
    """The game of one line: a record, or an autosave's record."""
    if line == _TOO_LONG:
        raise RecordFormatError(
            f"the line is too large: more than {MAX_RECORD_SIZE:,} bytes, the most a record "
            "may take; it was skipped unread",
            reason=RecordReason.TOO_LARGE,
        )
    document = read_json(line)
    if isinstance(document, dict) and document.get("format") == SESSION_FORMAT:
        if document.get("version") != SESSION_VERSION or "record" not in document:
            raise RecordFormatError(
                f"an autosave of spades play, version {SESSION_VERSION} with a 'record', "
                "is expected; this one cannot be read",
                reason=RecordReason.UNSUPPORTED_VERSION,
            )
        document = document["record"]
    return from_record(document)


class Outcome:
    """What replaying one line gave: the game, or the error, and with
    ``--review`` the mistakes of its finished hands."""

    __slots__ = ("error", "game", "line", "mistakes")

    def __init__(
        self,
        line: int,
        game: Game | None,
        error: SpadesError | None,
        mistakes: tuple[Mistake, ...] | None = None,
    ) -> None:
        self.line = line
        """The line number in the file, from 1."""
        self.game = game
        """The replayed game, when the record is valid."""
        self.error = error
        """Why the record is invalid, when it is."""
        self.mistakes = mistakes
        """The reviewed hands' mistakes in play order (``None``: not reviewed)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON Lines output object of this record."""
        if self.game is not None:
            result = summary(self.game)
            if self.mistakes is not None:
                result["review"] = [_mistake_json(mistake) for mistake in self.mistakes]
            return result
        assert self.error is not None
        return _error_summary(self.error)


def _mistake_json(mistake: Mistake) -> dict[str, Any]:
    return {
        "kind": mistake.kind.value,
        "hand": mistake.hand + 1,
        "trick": mistake.trick,
        "seat": mistake.seat.name,
        "card": mistake.card.symbol,
        "better": mistake.better.symbol,
        "tricks": mistake.tricks,
        "best": mistake.best,
        "needed": mistake.needed,
        "text": mistake.describe(),
    }


def _reviewed(game: Game) -> tuple[Mistake, ...]:
    return tuple(
        mistake for index in range(len(game.hand_results)) for mistake in review(game, index)
    )


def _outcomes(
    lines: Iterable[tuple[int, bytes | str]], reviewing: bool = False
) -> Iterator[Outcome]:
    for number, line in lines:
        try:
            game = _load(line)
        except SpadesError as error:
            yield Outcome(number, None, error)
            continue
        yield Outcome(number, game, None, _reviewed(game) if reviewing else None)


def replay_lines(lines: Iterable[bytes | str]) -> Iterator[tuple[str, bool]]:
    """For each non-blank line, lazily: its JSON output line (no newline) and
    whether the record was valid."""
    numbered = (
        (number, line.rstrip(b"\r\n") if isinstance(line, bytes) else line.rstrip("\r\n"))
        for number, line in enumerate(lines, start=1)
        if line.strip()
    )
    for outcome in _outcomes(numbered):
        result = outcome.to_json()
        yield json.dumps(result), bool(result["ok"])


def _phase_text(game: Game) -> str:
    if game.phase is Phase.GAME_OVER:
        assert game.winner is not None
        winner = game.winner
        hands = len(game.hand_results)
        return (
            f"{winner.name} won {game.scores[winner]} to {game.scores[winner.opponent]}"
            f" after {hands} hand{'' if hands == 1 else 's'}"
        )
    hand = len(game.hand_results) + 1
    where = {
        Phase.DEAL: f"hand {hand} not dealt yet",
        Phase.BID: f"bidding in hand {hand}",
        Phase.PLAY: f"trick {len(game.tricks) + 1} of hand {hand}",
    }[game.phase]
    played = len(game.hand_results)
    scores = f"NS {game.scores[Team.NS]}, EW {game.scores[Team.EW]}"
    return f"{played} hand{'' if played == 1 else 's'} played, {where}; {scores}"


def describe(outcome: Outcome) -> str:
    """One line for people about one record (and, reviewed, a line under it
    for each mistake)."""
    if outcome.game is not None:
        text = f"line {outcome.line}: ok — {outcome.game.variant.id}, {_phase_text(outcome.game)}"
        if outcome.mistakes is not None:
            hands = len(outcome.game.hand_results)
            if not outcome.mistakes:
                text += (
                    f"\n  review: no card cost a contract or took a needless bag in "
                    f"{hands} hand{'' if hands == 1 else 's'}"
                )
            for mistake in outcome.mistakes:
                text += "\n  review: " + mistake.describe()
        return text
    error = outcome.error
    specific = (
        (error.illegal_reason or error.reason) if isinstance(error, RecordFormatError) else None
    )
    reason = "" if specific is None else f" ({specific.value})"
    return f"line {outcome.line}: invalid{reason} — {board_notation(str(error))}"


def _write_json(outcomes: Iterator[Outcome], out: IO[str]) -> int:
    status = 0
    for outcome in outcomes:
        result = outcome.to_json()
        out.write(json.dumps(result) + "\n")
        if not result["ok"]:
            status = 1
    out.flush()
    return status


def _write_summary(outcomes: Iterator[Outcome], out: IO[str]) -> int:
    valid = invalid = hands = 0
    for outcome in outcomes:
        out.write(describe(outcome) + "\n")
        if outcome.game is None:
            invalid += 1
        else:
            valid += 1
            hands += len(outcome.game.hand_results)
    records = valid + invalid
    out.write(
        f"{records} record{'' if records == 1 else 's'}: {valid} valid, {invalid} invalid; "
        f"{hands} finished hand{'' if hands == 1 else 's'} in the valid ones\n"
    )
    out.flush()
    return 1 if invalid else 0


def run(args: argparse.Namespace) -> int:
    """Replay the records of ``args.file``; return the exit status."""
    path: str = args.file
    as_summary = args.summary or (not args.json and sys.stdout.isatty())
    write = _write_summary if as_summary else _write_json
    reviewing = bool(getattr(args, "review", False))
    try:
        if path == "-":
            return write(_outcomes(read_lines(sys.stdin.buffer), reviewing), sys.stdout)
        with open(path, "rb") as source:
            return write(_outcomes(read_lines(source), reviewing), sys.stdout)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, and keep Python
        # from complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as error:
        reason = error.strerror or type(error).__name__
        print(f"spades replay: cannot read {path}: {reason}", file=sys.stderr)
        return 2
