"""``spades variants``: every discovered variant with its version, distribution
and status — ``ok``, or why it cannot be used, in one line.

Each variant is loaded to find its status, so a broken plugin shows here with
its error while the others are listed as usual. Third-party entry points that
claim a built-in id are listed as ``ignored``. ``--json`` prints the same as
JSON. The exit status is 1 when a variant cannot be loaded, else 0.

``--check`` loads and exercises each variant in a child process of its own,
with a time limit (``--timeout``): a plugin that hangs, crashes the
interpreter or calls ``sys.exit`` is reported on its row while the command
itself always finishes. Without ``--check``, plugins are imported in this
process, where a plugin's import code runs with full rights.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import warnings
from typing import IO, Any

from spades_core.rules.registry import (
    BUILTIN_ONLY_ENV,
    ReservedVariantWarning,
    VariantEntry,
    builtin_only,
    load_variant,
    refresh_variants,
    shadowed_entries,
    variant_entries,
)
from spades_core.values.errors import VariantError
from spades_core.values.seats import Seat

__all__ = [
    "ANSWER_LIMIT",
    "DEFAULT_TIMEOUT",
    "OUTPUT_TAIL",
    "check_in_subprocess",
    "probe",
    "register",
    "run",
    "variant_rows",
]

DEFAULT_TIMEOUT = 20.0
"""Seconds ``--check`` gives each variant to load and play two hands."""
OUTPUT_TAIL = 64 * 1024
"""Bytes of a ``--check`` child's output kept to report its last line."""
ANSWER_LIMIT = 64 * 1024
"""The largest answer a ``--check`` child may give, in bytes."""
# How long the output of a child that has ended may take to end too.
_DRAIN_SECONDS = 2.0
# The most characters of the child's last line a report shows.
_LAST_LINE = 300

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
    parser.add_argument(
        "--check",
        action="store_true",
        help="load and exercise each variant in a child process with a time limit",
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"time limit per variant with --check (default {DEFAULT_TIMEOUT:g})",
    )
    parser.set_defaults(handler=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"a number of seconds from 0 to 3600; got {text!r}")
    return value


def probe(variant_id: str) -> dict[str, Any]:
    """Load ``variant_id`` and play two hands of it with random moves (every
    hook is called), in this process; ``version`` and ``title``, or ``error``.
    ``--check`` runs this in a child process."""
    from spades_core.engine.game import new_game
    from spades_core.engine.playouts import playout

    try:
        variant = load_variant(variant_id)
        game = new_game(variant, seed=1).deal()
        for seat in Seat:
            game.view(seat)
        playout(game, random.Random(1), hands=2)
    except (Exception, SystemExit) as error:
        return {"error": _one_line(f"{type(error).__name__}: {error}")}
    return {"version": variant.version, "title": variant.title}


def _answer_probe(variant_id: str, answer_path: str) -> None:
    """:func:`probe` ``variant_id`` and write its answer to the file
    ``answer_path``: what ``--check`` runs in the child process. The
    plugin's own output goes to the child's standard output and error."""
    answer = json.dumps(probe(variant_id))
    with open(answer_path, "w", encoding="utf-8") as stream:
        stream.write(answer)


def check_in_subprocess(variant_id: str, timeout: float) -> dict[str, Any]:
    """:func:`probe` run in a child Python process given ``timeout`` seconds.
    A child that hangs is killed (with every process it started); one that
    dies or gives no answer is reported as crashed, with the last line it
    printed.

    The answer comes back in a file of its own, so nothing the plugin
    prints can be taken for it, and of the child's output only the last
    :data:`OUTPUT_TAIL` bytes are kept, however much it prints.
    """
    env = dict(os.environ)
    # The child must see the same distributions, including any on a sys.path
    # changed at run time.
    env["PYTHONPATH"] = os.pathsep.join(path for path in sys.path if path)
    with tempfile.TemporaryDirectory(prefix="spades-check-") as scratch:
        answer_path = os.path.join(scratch, "answer.json")
        command = [
            sys.executable,
            "-c",
            "import sys; from spades_core.cli.variants import _answer_probe; "
            "_answer_probe(sys.argv[1], sys.argv[2])",
            variant_id,
            answer_path,
        ]
        child = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
        assert child.stdout is not None
        tail = _OutputTail(child.stdout)
        try:
            child.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop(child)
            tail.finish(_DRAIN_SECONDS)
            return {"error": f"no answer within {timeout:g} s: the plugin hangs (stopped)"}
        if not tail.finish(_DRAIN_SECONDS):
            # A process the plugin started still holds the output open.
            _stop(child)
            tail.finish(_DRAIN_SECONDS)
        answer = _read_answer(answer_path)
    if child.returncode == 0 and isinstance(answer, dict):
        return answer
    lines = tail.text().strip().splitlines()
    last = lines[-1].strip() if lines else "no output"
    if len(last) > _LAST_LINE:
        last = last[: _LAST_LINE - 1] + "…"
    if child.returncode < 0:
        how = f"the plugin crashed its process (killed by signal {-child.returncode})"
    elif child.returncode:
        how = f"the plugin crashed its process (exit status {child.returncode})"
    else:
        how = "the plugin ended its process before it answered (exit status 0)"
    return {"error": _one_line(f"{how}: {last}")}


class _OutputTail:
    """Reads a child's output to its end in a thread of its own, keeping the
    last :data:`OUTPUT_TAIL` bytes."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._kept = bytearray()
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := os.read(self._stream.fileno(), OUTPUT_TAIL):
                self._kept += chunk
                if len(self._kept) > OUTPUT_TAIL:
                    del self._kept[: len(self._kept) - OUTPUT_TAIL]

    def finish(self, timeout: float) -> bool:
        """Wait for the end of the output (at most ``timeout`` seconds);
        whether it came. The stream is closed once it has; until then the
        reading thread, a daemon, is left to it."""
        self._thread.join(timeout)
        if self._thread.is_alive():
            return False
        self._stream.close()
        return True

    def text(self) -> str:
        """The output kept, as text."""
        return self._kept.decode("utf-8", "replace")


def _stop(child: subprocess.Popen[bytes]) -> None:
    """Kill the child and every process it started (its session), and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()


def _read_answer(path: str) -> object:
    """The JSON answer the child wrote, or ``None`` when there is none to read."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(ANSWER_LIMIT + 1)
    except OSError:
        return None
    if len(data) > ANSWER_LIMIT:
        return None
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _entry_row(
    entry: VariantEntry, *, builtin: bool, status: str, error: str | None
) -> dict[str, Any]:
    """The row of one entry point, before its variant's version and title are known."""
    return {
        "id": entry.id,
        "version": None,
        "title": None,
        "distribution": entry.distribution,
        "distribution_version": entry.distribution_version,
        "target": entry.target,
        "builtin": builtin,
        "status": status,
        "error": error,
    }


def variant_rows(
    check: bool = False, timeout: float = DEFAULT_TIMEOUT
) -> tuple[list[dict[str, Any]], list[str]]:
    """One dict per discovered variant (and per ignored claim of a built-in id),
    sorted by id, and the one-line warnings discovery raised. With ``check``,
    each variant is loaded and exercised in a child process (see
    :func:`check_in_subprocess`) instead of in this one."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        refresh_variants()
        entries = variant_entries()
        shadowed = shadowed_entries()
    rows: list[dict[str, Any]] = []
    for entry in entries:
        row = _entry_row(entry, builtin=entry.is_builtin, status="ok", error=None)
        if check:
            answer = check_in_subprocess(entry.id, timeout)
        else:
            try:
                variant = load_variant(entry.id)
            except VariantError as error:
                answer = {"error": _one_line(f"{type(error).__name__}: {error}")}
            else:
                answer = {"version": variant.version, "title": variant.title}
        if "error" in answer:
            row["status"] = "error"
            row["error"] = str(answer["error"])
        else:
            row["version"] = answer.get("version")
            row["title"] = answer.get("title")
        rows.append(row)
    for entry in shadowed:
        message = f"{entry.id!r} is a built-in variant id; this entry point is ignored"
        rows.append(_entry_row(entry, builtin=False, status="ignored", error=message))
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
    rows, notes = variant_rows(check=args.check, timeout=args.timeout)
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
