"""Importing spades_core (and its envs package) never imports the frameworks
the integrations wrap; importing an integration does. Checked in fresh
interpreters, since this test session has imported them all."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

FRAMEWORKS = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "numpy")

PROBE = """
import json, sys
import spades_core
import spades_core.envs
{extra}
print(json.dumps(sorted(name for name in {frameworks!r} if name in sys.modules)))
"""


def imported(extra: str = "") -> list[str]:
    """The frameworks a fresh interpreter has imported after the probe."""
    code = PROBE.format(extra=extra, frameworks=FRAMEWORKS)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr
    names: list[str] = json.loads(result.stdout)
    return names


def test_importing_spades_core_imports_no_framework() -> None:
    assert imported() == []


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        pytest.param(
            "spades_core.envs.openspiel",
            {"pyspiel", "numpy"},
            marks=pytest.mark.integration("openspiel"),
        ),
        pytest.param(
            "spades_core.envs.pettingzoo",
            {"pettingzoo", "gymnasium", "numpy"},
            marks=pytest.mark.integration("pettingzoo"),
        ),
        pytest.param(
            "spades_core.envs.gymnasium",
            {"gymnasium", "numpy"},
            marks=pytest.mark.integration("gymnasium"),
        ),
        pytest.param(
            "spades_core.envs.spades_v0",
            {"pettingzoo", "gymnasium", "numpy"},
            marks=pytest.mark.integration("pettingzoo"),
        ),
    ],
)
def test_an_integration_imports_its_framework(module: str, expected: set[str]) -> None:
    assert expected <= set(imported(f"import {module}"))
