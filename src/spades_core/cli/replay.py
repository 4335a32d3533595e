"""``spades replay FILE``: check and summarize a JSON Lines file of game records.

Each non-blank input line is one record (see ``docs/records.md``); blank
lines are skipped. For each record one JSON line is printed, in order:
``{"ok": true, "hands": [...], "phase": "DEAL", "winner": null}`` for a valid
record, ``{"ok": false, "error": {...}}`` for an invalid one. Records are
read, replayed and printed one at a time, so memory stays bounded however
long the file is. Exit status: 0 when every record is valid, 1 when any is
not, 2 for a usage error or an unreadable file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from spades_core.errors import RecordFormatError, SpadesError
from spades_core.records import loads
from spades_core.state import Game

__all__ = ["register", "replay_lines", "run", "summary"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` subcommand."""
    parser = subparsers.add_parser(
        "replay",
        help="check and summarize game records (JSON Lines)",
        description=(
            "Replay every game record of a JSON Lines file through the engine and print "
            "one JSON line per record: its finished hands, phase and winner, or why it "
            "is invalid. Blank lines are skipped. Exit status: 0 if every record is "
            "valid, 1 if any is not, 2 for a usage error or an unreadable file."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="a JSON Lines file of records, or - for stdin")
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
        reason, hand, action = error.reason, error.hand, error.action
    else:  # loads() reports everything as RecordFormatError; kept for safety
        reason, hand, action = "invalid", None, None
    return {
        "ok": False,
        "error": {
            "type": type(error).__name__,
            "reason": reason,
            "hand": hand,
            "action": action,
            "message": str(error),
        },
    }


def replay_lines(lines: Iterable[bytes | str]) -> Iterator[tuple[str, bool]]:
    """For each non-blank line, lazily: its output line (no newline) and
    whether the record was valid."""
    for line in lines:
        if not line.strip():
            continue
        # Without its line ending, JSON error positions read "line 1 column N".
        text = line.rstrip(b"\r\n") if isinstance(line, bytes) else line.rstrip("\r\n")
        try:
            result = summary(loads(text))
        except SpadesError as error:
            result = _error_summary(error)
        yield json.dumps(result), bool(result["ok"])


def _write_all(source: IO[bytes], out: IO[str]) -> int:
    status = 0
    for text, ok in replay_lines(source):
        out.write(text + "\n")
        if not ok:
            status = 1
    out.flush()
    return status


def run(args: argparse.Namespace) -> int:
    """Replay the records of ``args.file``; return the exit status."""
    path: str = args.file
    try:
        if path == "-":
            return _write_all(sys.stdin.buffer, sys.stdout)
        with open(path, "rb") as source:
            return _write_all(source, sys.stdout)
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
