"""``spades rules VARIANT``: a variant's rules summary and its options with defaults.

``--markdown`` prints the option table as Markdown, the form the variant
pages of the documentation embed (a test keeps them equal).
"""

from __future__ import annotations

import argparse
import enum
import sys
import textwrap

from spades_core.cli import variant_name
from spades_core.rules.registry import load_variant
from spades_core.rules.variant import Variant
from spades_core.values.errors import SpadesError

__all__ = ["format_value", "markdown_option_table", "register", "rules_text"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``rules`` subcommand."""
    parser = subparsers.add_parser(
        "rules",
        help="show a variant's rules and options",
        description="Show a variant's rules summary and its house-rule options with defaults.",
    )
    parser.add_argument(
        "variant",
        metavar="VARIANT",
        type=variant_name,
        help="variant id in any case, e.g. classic, mirror, whiz",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print the option table as Markdown"
    )
    parser.set_defaults(handler=run)


def format_value(value: object) -> str:
    """An option value as it is typed after ``--option NAME=``: enum members
    by their string, ``None``, ``true``/``false``, numbers as written."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rules_text(variant: Variant, width: int = 78) -> str:
    """The variant's title, id and version, summary and options, for a terminal."""
    lines = [f"{variant.title} ({variant.id}, rules version {variant.version})", ""]
    if variant.summary:
        lines += textwrap.wrap(variant.summary, width)
        lines.append("")
    lines.append("Options (set with --option NAME=VALUE):")
    for name, accepts, default, summary in variant.option_table():
        lines.append(f"  {name} = {format_value(default)}")
        lines += textwrap.wrap(
            f"{summary}; accepts {accepts}",
            width,
            initial_indent="      ",
            subsequent_indent="      ",
        )
    return "\n".join(lines)


def markdown_option_table(variant: Variant) -> str:
    """The variant's options as a Markdown table: option, default, accepted
    values, meaning."""
    rows = [
        "| option | default | accepts | meaning |",
        "|---|---|---|---|",
    ]
    for name, accepts, default, summary in variant.option_table():
        cells = (f"`{name}`", f"`{format_value(default)}`", accepts, summary)
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows)


def run(args: argparse.Namespace) -> int:
    """Print the rules of ``args.variant``; exit status 2 if it is not installed."""
    try:
        variant = load_variant(args.variant)
    except SpadesError as error:
        print(f"spades rules: {error}", file=sys.stderr)
        return 2
    print(markdown_option_table(variant) if args.markdown else rules_text(variant))
    return 0
