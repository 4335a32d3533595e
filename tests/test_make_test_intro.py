"""``make test`` says up front what it does, how long it takes and that it
installs Chromium with apt-get (which needs root) when Chromium is missing;
without root, that step stops at once with the command that does it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NOBODY = 65534


def make(*args: str, cwd: Path = ROOT, **options: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        **options,
    )


def test_make_test_begins_by_saying_what_it_does_and_what_it_costs(tmp_path: Path) -> None:
    missing = tmp_path / "no-chromium"
    said = make("test-intro", f"CHROMIUM={missing}")
    assert said.returncode == 0, said.stderr
    text = " ".join(said.stdout.split())
    assert text.startswith("make test: lint, type checks, the whole test suite")
    assert re.search(r"\d+ to \d+ minutes on two cores", text), text
    assert "Chromium for the browser tests is installed with apt-get (needs root" in text
    # With Chromium there, nothing is said about installing it.
    present = make("test-intro", "CHROMIUM=/bin/sh")
    assert "apt-get" not in present.stdout
    # And it comes first: before the tools are installed or anything runs.
    planned = make("-n", "test", f"CHROMIUM={missing}").stdout.splitlines()
    assert planned[0].startswith('echo "make test: lint, type checks')


def test_without_root_a_missing_chromium_stops_at_once_saying_sudo_make_browser(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "no-chromium"
    as_user: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as scratch:
        checkout = ROOT
        if os.geteuid() == 0:
            # Run the step as an ordinary user would, on a copy of the Makefile
            # that user can read wherever this checkout lives (a clone in a
            # directory of mktemp -d is root's alone).
            checkout = Path(scratch)
            checkout.chmod(0o755)
            shutil.copy(ROOT / "Makefile", checkout / "Makefile")
            (checkout / "src").mkdir()
            as_user = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
        stopped = make(
            "browser",
            f"CHROMIUM={missing}",
            cwd=checkout,
            env={"PATH": os.environ["PATH"]},
            **as_user,
        )
    assert stopped.returncode != 0
    assert "needs root. Install it with:  sudo make browser" in stopped.stdout
    assert "then run make test again." in stopped.stdout
    # apt-get was never started.
    assert "apt-get update" not in stopped.stdout + stopped.stderr
    assert "E: " not in stopped.stderr
