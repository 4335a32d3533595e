"""The ``spades`` command line (also ``python -m spades_core``).

Each subcommand lives in its own module of this package, which defines
``register(subparsers)`` adding an ``argparse`` parser whose ``handler``
default is a function ``(args) -> int`` returning the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

import spades_core

__all__ = ["build_parser", "main"]

SUBCOMMAND_MODULES = ("play", "watch", "rules", "variants", "replay", "simulate", "tournament")
"""Subcommand modules, in the order ``spades --help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="spades",
        description="Play, watch, replay and simulate partnership Spades.",
    )
    parser.add_argument(
        "--version", action="version", version=f"spades-core {spades_core.__version__}"
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
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) if not isinstance(exit_.code, str) else 2
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    status: int = args.handler(args)
    return status
