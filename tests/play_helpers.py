"""Running ``spades play`` in-process with scripted input, shared by the
command-line tests: a private data directory and a helper feeding lines."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from spades_core.cli import main
from spades_core.cli.saves import DATA_DIR_ENV


@pytest.fixture(name="data")
def private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private data directory for the autosave (the ``data`` fixture)."""
    directory = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_ENV, str(directory))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return directory


def run_play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    lines: list[str],
) -> tuple[int, str, str]:
    """Run ``spades play ARGS`` with ``lines`` as its standard input; the exit
    status, standard output and standard error."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    status = main(["play", "--delay", "0", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err
