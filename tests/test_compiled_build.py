"""The optional compiled build (mypyc): it is really compiled, and it computes
exactly what the pure-Python install computes.

``make test`` builds it into ``.venv-compiled`` (``make compiled``), runs the
agreement and property tests there as well (``make test-compiled``, which sets
``SPADES_EXPECT_COMPILED=1``), and runs this module in both environments. The
tests that compare the two builds run each build's interpreter on the same
seeds (``tests/build_digests.py`` and ``bench/bot_fingerprint.py``).
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import tomllib
from importlib.machinery import ExtensionFileLoader
from pathlib import Path

import pytest

import spades_core as sc
from extras_support import BUILD_PYTHONS

ROOT = Path(__file__).resolve().parent.parent
EXPECT_COMPILED = os.environ.get("SPADES_EXPECT_COMPILED") == "1"
"""Set by ``make test-compiled``: this run must be the compiled build's."""


def compiled_modules() -> list[str]:
    """The modules the compiled build compiles, as pyproject.toml lists them for its build hook."""
    with open(ROOT / "pyproject.toml", "rb") as file:
        project = tomllib.load(file)
    modules: list[str] = project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"][
        "modules"
    ]
    return modules


def test_the_build_under_test_is_the_one_this_run_expects() -> None:
    # The compiled run must not fall back silently to pure Python, and the
    # default install must build no C.
    assert sc.COMPILED is EXPECT_COMPILED
    modules = compiled_modules()
    assert "spades_core.rules.tricks" in modules
    for name in modules:
        module = importlib.import_module(name)
        assert isinstance(module.__loader__, ExtensionFileLoader) is EXPECT_COMPILED, name
        assert (Path(module.__file__ or "").suffix == ".py") is not EXPECT_COMPILED, name


def test_an_uncompiled_module_stays_python_in_both_builds() -> None:
    # Only the listed modules are compiled; the game and its transitions stay Python.
    for name in (
        "spades_core.engine.game",
        "spades_core.engine.transitions",
        "spades_core.engine.views",
    ):
        assert name not in compiled_modules()
        assert Path(importlib.import_module(name).__file__ or "").suffix == ".py"


def run_in(build: str, *args: str) -> str:
    """The standard output of ``args`` run by the interpreter of ``build``."""
    completed = subprocess.run(
        [str(BUILD_PYTHONS[build]), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        # Each interpreter imports its own install, never this run's path.
        env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"},
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


@pytest.mark.compiled
def test_both_builds_compute_the_same_digests_on_the_same_seeds() -> None:
    pure = json.loads(run_in("pure", "tests/build_digests.py"))
    compiled = json.loads(run_in("compiled", "tests/build_digests.py"))
    assert pure.pop("compiled") is False
    assert compiled.pop("compiled") is True
    assert set(pure) == {
        "bot records",
        "playouts",
        "action ids",
        "deals",
        "determinized deals",
        "batch hands",
    }
    assert compiled == pure


@pytest.mark.compiled
def test_the_bot_fingerprint_is_the_same_in_both_builds() -> None:
    arguments = ("bench/bot_fingerprint.py", "--hands", "1", "--default-hands", "0")
    pure = run_in("pure", *arguments)
    compiled = run_in("compiled", *arguments)
    assert pure.count("decisions") == 5
    assert compiled == pure


@pytest.mark.compiled
def test_the_version_says_which_build_runs() -> None:
    assert (
        run_in("pure", "-m", "spades_core", "--version").strip() == f"spades-core {sc.__version__}"
    )
    assert (
        run_in("compiled", "-m", "spades_core", "--version").strip()
        == f"spades-core {sc.__version__} (compiled with mypyc)"
    )
