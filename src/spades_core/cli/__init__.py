"""The ``spades`` command line (also ``python -m spades_core``).

Each subcommand lives in its own module of this package, which defines
``register(subparsers)`` adding an ``argparse`` parser whose ``handler``
default is a function ``(args) -> int`` returning the exit status.

This module also holds what every subcommand shares: reading variant and
bot level names whatever their case (:func:`variant_name`, :func:`level_name`),
the ``--variant`` option with its default (:func:`add_variant_option`),
a delay that may not be negative (:func:`seconds`), the command as the user
started it (:func:`command_name`), a quiet exit when the reader of the
output goes away (``spades ... | head``) and one line for Ctrl-C: :func:`main`
catches the broken pipe and the interrupt for every subcommand.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import spades_core
from spades_core.values.errors import brief

__all__ = [
    "DEFAULT_VARIANT",
    "INTERRUPTED",
    "Interrupted",
    "add_variant_option",
    "build_parser",
    "command_name",
    "level_name",
    "main",
    "seconds",
    "variant_name",
]

DEFAULT_VARIANT = "classic"
"""The variant a command plays when ``--variant`` is not given."""
INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C, as a shell reports it (128 + SIGINT)."""

SUBCOMMAND_MODULES = ("play", "watch", "rules", "variants", "replay", "simulate", "tournament")
"""Subcommand modules, in the order ``spades --help`` lists them."""


class Interrupted(Exception):
    """A command stopped by Ctrl-C after cleaning up; :func:`main` prints the
    message, its one line, and returns :data:`INTERRUPTED`."""


def variant_name(text: str) -> str:
    """A variant id typed in any case (``Classic``), as the installed variant
    spells it; a name that matches no installed variant is returned as typed,
    so that loading it reports what is installed. For ``type=`` in argparse."""
    from spades_core.rules.registry import available_variants

    wanted = text.strip()
    for variant_id in available_variants():
        if variant_id.casefold() == wanted.casefold():
            return variant_id
    return wanted


def add_variant_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--variant VARIANT``, read by :func:`variant_name`, defaulting to
    :data:`DEFAULT_VARIANT`."""
    parser.add_argument(
        "--variant",
        default=DEFAULT_VARIANT,
        type=variant_name,
        help=f"variant id (default: {DEFAULT_VARIANT})",
    )


def level_name(text: str) -> str:
    """A bot level typed in any case (``Hard``), as :func:`spades_core.bots.make`
    spells it; an unknown level is returned as typed for ``make`` to refuse.
    For ``type=`` in argparse."""
    from spades_core.bots import LEVELS

    wanted = text.strip().casefold()
    return wanted if wanted in LEVELS or wanted == "medium" else text


def seconds(text: str) -> float:
    """A pause in seconds, 0 or more. For ``type=`` in argparse, which
    reports the error with the command's usage (exit status 2)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(
            f"a delay is a number of seconds, 0 or more (0 for none); got {brief(text)}"
        )
    return value


def command_name() -> str:
    """How the user started this command, to repeat it in advice: ``spades``
    when that is what the shell finds, the path typed (``.venv/bin/spades``)
    when it is not on the ``PATH``, ``python -m spades_core`` for the module."""
    started = sys.argv[0] if sys.argv and sys.argv[0] else "spades"
    path = Path(started)
    if path.name == "__main__.py":
        # Another package's __main__ (python -m pytest) embeds the command.
        return "python -m spades_core" if path.parent.name == "spades_core" else "spades"
    if path.name in ("-m", "-c") or not started.strip():
        return "python -m spades_core"
    if path.name != "spades":
        return "spades"  # embedded in another program: name the installed command
    found = shutil.which("spades")
    if os.sep not in started or (found and Path(found).resolve() == Path(started).resolve()):
        return "spades"
    return started


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="spades",
        description="Play, watch, replay and simulate partnership Spades.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"spades-core {spades_core.__version__}"
        + (" (compiled with mypyc)" if spades_core.COMPILED else ""),
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(f"spades_core.cli.{name}")
        except ModuleNotFoundError as error:
            # A partial checkout still runs the subcommands it has.
            if error.name != f"spades_core.cli.{name}":
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    When standard output is a pipe whose reader has gone (``spades rules whiz | head``),
    the command stops quietly with status 0 instead of a traceback.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) if not isinstance(exit_.code, str) else 2
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        status: int = args.handler(args)
        sys.stdout.flush()
    except BrokenPipeError:
        _discard_stdout()
        return 0
    except Interrupted as stop:
        print(stop, file=sys.stderr)
        return INTERRUPTED
    except KeyboardInterrupt:
        # Ctrl-C where the command does not handle it itself: one line, no
        # traceback, and the status a shell gives a command stopped by SIGINT.
        print(f"spades {args.command}: interrupted", file=sys.stderr)
        return INTERRUPTED
    return status


def _discard_stdout() -> None:
    # Whatever is still buffered would raise again when Python flushes at exit;
    # point the descriptor at the null device so that flush succeeds silently.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # stdout is not a real file (a test's capture): nothing to flush at exit
