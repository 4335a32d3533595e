"""``spades variants``: every discovered variant with its version, distribution
and status — ``ok``, or why it cannot be used, in one line.

Each variant is loaded to find its status, so a broken plugin shows here with
its error while the others are listed as usual. Third-party entry points that
claim a built-in id are listed as ``ignored``. ``--json`` prints the same as
JSON. The exit status is 1 when a variant cannot be loaded, else 0.
"""

from __future__ import annotations

import argparse
import json
import warnings
from typing import Any

from spades_core.errors import VariantError
from spades_core.registry import (
    BUILTIN_ONLY_ENV,
    ReservedVariantWarning,
    builtin_only,
    load_variant,
    refresh_variants,
    shadowed_entries,
    variant_entries,
)

__all__ = ["register", "run", "variant_rows"]

_HEADERS = ("ID", "VERSION", "DISTRIBUTION", "STATUS")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``variants`` subcommand."""
    parser = subparsers.add_parser(
        "variants",
        help="list the installed variants and whether they load",
        description=(
            "List every discovered variant with its rules version, the distribution "
            "providing it and its status: ok, or the error that prevents loading it. "
            f"Set {BUILTIN_ONLY_ENV}=1 to ignore third-party plugins."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.set_defaults(handler=run)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def variant_rows() -> tuple[list[dict[str, Any]], list[str]]:
    """One dict per discovered variant (and per ignored claim of a built-in id),
    sorted by id, and the one-line warnings discovery raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        refresh_variants()
        entries = variant_entries()
        shadowed = shadowed_entries()
    rows: list[dict[str, Any]] = []
    for entry in entries:
        row: dict[str, Any] = {
            "id": entry.id,
            "version": None,
            "title": None,
            "distribution": entry.distribution,
            "distribution_version": entry.distribution_version,
            "target": entry.target,
            "builtin": entry.is_builtin,
            "status": "ok",
            "error": None,
        }
        try:
            variant = load_variant(entry.id)
        except VariantError as error:
            row["status"] = "error"
            row["error"] = _one_line(f"{type(error).__name__}: {error}")
        else:
            row["version"] = variant.version
            row["title"] = variant.title
        rows.append(row)
    for entry in shadowed:
        rows.append(
            {
                "id": entry.id,
                "version": None,
                "title": None,
                "distribution": entry.distribution,
                "distribution_version": entry.distribution_version,
                "target": entry.target,
                "builtin": False,
                "status": "ignored",
                "error": f"{entry.id!r} is a built-in variant id; this entry point is ignored",
            }
        )
    rows.sort(key=lambda row: (row["id"], row["status"] == "ignored"))
    # Ignored claims of built-in ids are rows already; other warnings are notes.
    notes = [
        _one_line(str(warning.message))
        for warning in caught
        if not issubclass(warning.category, ReservedVariantWarning)
    ]
    return rows, notes


def _status(row: dict[str, Any]) -> str:
    if row["status"] == "ok":
        return "ok"
    return f"{row['status']}: {row['error']}"


def run(args: argparse.Namespace) -> int:
    """Print the variants; exit status 1 if any cannot be loaded."""
    rows, notes = variant_rows()
    failed = any(row["status"] == "error" for row in rows)
    if args.json:
        print(
            json.dumps(
                {"builtin_only": builtin_only(), "variants": rows, "warnings": notes}, indent=2
            )
        )
        return 1 if failed else 0
    table = [
        (
            row["id"],
            "-" if row["version"] is None else str(row["version"]),
            f"{row['distribution']} {row['distribution_version']}".strip(),
            _status(row),
        )
        for row in rows
    ]
    widths = [max(len(line[i]) for line in (_HEADERS, *table)) for i in range(3)]
    for line in (_HEADERS, *table):
        cells = [cell.ljust(width) for cell, width in zip(line[:3], widths, strict=True)]
        print("  ".join([*cells, line[3]]))
    if not rows:
        print("(no variants installed)")
    if builtin_only():
        print(f"\nthird-party variants are ignored: {BUILTIN_ONLY_ENV} is set")
    for note in notes:
        print(f"warning: {note}")
    return 1 if failed else 0
