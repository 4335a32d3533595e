"""``examples/rl_loop.py``: the loop an RL user writes around the PettingZoo
environment runs as a script, is reproducible, and never picks an illegal action."""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

pytestmark = pytest.mark.integration("pettingzoo")

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "rl_loop.py"


# The example's functions, without running its main().
example = SimpleNamespace(**runpy.run_path(str(SCRIPT), run_name="rl_loop_example"))


def test_the_script_prints_each_episodes_points() -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-W",
            "error::DeprecationWarning",
            str(SCRIPT),
            "--episodes",
            "3",
            "--variant",
            "whiz",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    header, *lines = completed.stdout.splitlines()
    # The header says what the lines hold.
    assert header == "Points North-South scored in each episode (one hand of whiz, then learning):"
    assert [line.split(":")[0] for line in lines[:3]] == [
        "episode   1",
        "episode   2",
        "episode   3",
    ]
    found = [re.search(r"North-South ([+-]\d+)$", line) for line in lines[:3]]
    points = [int(match[1]) for match in found if match is not None]
    assert len(points) == 3
    assert lines[3] == f"mean over 3 hands: {np.mean(points):+.1f}"


def test_training_is_reproducible_for_a_seed() -> None:
    assert example.train("classic", 2, seed=4) == example.train("classic", 2, seed=4)


def test_the_policy_gives_illegal_actions_no_probability() -> None:
    policy = example.LinearPolicy(5, 66, seed=1)
    policy.weights = np.random.default_rng(2).normal(size=(66, 5))
    mask = np.zeros(66, np.int8)
    mask[[3, 52, 60]] = 1
    probabilities = policy.probabilities(np.ones(5), mask)
    assert abs(probabilities.sum() - 1.0) < 1e-12
    assert set(np.flatnonzero(probabilities)) == {3, 52, 60}
    for _ in range(20):
        action, gradient = policy.act(np.ones(5), mask)
        assert action in (3, 52, 60)
        assert gradient.shape == (66, 5)
