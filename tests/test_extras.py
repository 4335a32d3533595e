"""Runs without every extra: tests that need one say so with a mark, are left
out when it is missing, and make a missing extra an error under
``SPADES_REQUIRE_EXTRAS=1`` (``make test``), never a skip (tests/extras_support.py,
whose hooks the root conftest.py hands to pytest).

A missing extra is pretended in a child pytest by putting ``None`` in
``sys.modules`` for its module, which ``importlib.util.find_spec`` and
``import`` both take for "not installed".
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import extras_support as extras

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"


def child_pytest(
    missing: str, *args: str, require: bool = False
) -> subprocess.CompletedProcess[str]:
    """pytest on ``args`` in a child where module ``missing`` seems absent."""
    code = (
        "import sys\n"
        f"sys.modules[{missing!r}] = None\n"
        "import pytest\n"
        "sys.exit(pytest.main(sys.argv[1:]))\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "SPADES_REQUIRE_EXTRAS"}
    if require:
        env["SPADES_REQUIRE_EXTRAS"] = "1"
    return subprocess.run(
        [sys.executable, "-c", code, "-p", "no:cacheprovider", "-q", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
        check=False,
    )


@pytest.mark.slow
def test_a_module_that_needs_a_missing_extra_is_left_out_not_skipped() -> None:
    done = child_pytest(
        "numpy",
        "tests",
        "src",  # the doctests: the batch package's modules, whatever they import
        # Of the tests, only test_b*.py: the batch tests and two core modules.
        "--ignore-glob=tests/[!t]*.py",
        "--ignore-glob=tests/test_[!b]*.py",
        "--co",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ERROR" not in done.stdout
    assert not re.search(r"\b\d+ errors?\b", done.stdout)
    assert "tests/test_batch" not in done.stdout
    assert "tests/test_bids.py::" in done.stdout  # the core modules are collected
    summary = done.stdout.split("left out: extras not installed", 1)[1]
    assert "batch: " in summary
    assert "(pip install -e '.[batch]')" in summary


@pytest.mark.slow
def test_the_core_tests_run_when_an_extra_is_missing() -> None:
    done = child_pytest("numpy", "tests/test_action_notation.py", "-rs")
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout
    assert "skipped" not in done.stdout


@pytest.mark.slow
def test_a_test_marked_for_a_missing_extra_is_deselected() -> None:
    done = child_pytest("pyspiel", "tests/test_envs_imports.py", "-vv")  # -q is given too
    assert done.returncode == 0, done.stdout + done.stderr
    assert "test_importing_spades_core_imports_no_framework PASSED" in done.stdout
    assert "spades_core.envs.openspiel" not in done.stdout
    assert " deselected" in done.stdout
    assert "openspiel: " in done.stdout.split("left out: extras not installed", 1)[1]


@pytest.mark.slow
def test_a_missing_extra_is_an_error_when_every_extra_is_required() -> None:
    done = child_pytest("numpy", "tests/test_action_notation.py", require=True)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR
    assert "SPADES_REQUIRE_EXTRAS=1: every extra must be installed" in done.stderr
    assert "batch: no numpy (pip install -e '.[batch]')" in done.stderr


@pytest.mark.slow
def test_the_marks_can_be_selected_away() -> None:
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--co"),
            *("-m", "not integration and not browser and not ray", "tests/test_envs_imports.py"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert "test_an_integration_imports_its_framework" not in done.stdout
    assert "test_importing_spades_core_imports_no_framework" in done.stdout


def _test_modules() -> list[Path]:
    return sorted(TESTS.glob("*.py"))


@pytest.mark.parametrize("path", _test_modules(), ids=lambda path: path.name)
def test_a_module_importing_an_extra_declares_it(path: Path) -> None:
    declared = extras.declared_extras(path)
    unmet = {
        module
        for module in extras.imported_modules(path)
        if not any(module in extras.EXTRA_MODULES[extra] for extra in declared)
    }
    assert unmet == set(), f"{path.name}: add pytestmark = pytest.mark.integration(...)"


def test_the_root_conftest_reads_the_marks_statically(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        'import pytest\npytestmark = [pytest.mark.integration("batch"), pytest.mark.browser]\n',
        encoding="utf-8",
    )
    assert extras.declared_extras(sample) == {"batch", "browser"}
    sample.write_text("try:\n    import numpy\nexcept ImportError:\n    pass\n", encoding="utf-8")
    assert extras.imported_modules(sample) == {"numpy"}
    assert extras.extra_of("numpy") == "batch"
    assert ast.parse(sample.read_text(encoding="utf-8"))
