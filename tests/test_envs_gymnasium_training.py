"""``examples/train_agent.py``: its training loop on the vector environment
runs (finite loss, parameters that move, reproducible for a seed), its
policy never picks an illegal id, its duplicate evaluation and its script
run. A short training: this checks the loop, not the score."""

from __future__ import annotations

import math
import runpy
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

pytestmark = [pytest.mark.integration("gymnasium"), pytest.mark.integration("plot")]

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "train_agent.py"

# The example's functions, without running its main().
example = SimpleNamespace(**runpy.run_path(str(SCRIPT), run_name="train_agent_example"))


def test_a_short_training_runs_and_moves_the_parameters() -> None:
    start = example.Policy(681, 16, 66, seed=3)
    policy, history = example.train(tables=64, hidden=16, seed=3, updates=3)
    assert len(history) == 3
    for update in history:
        assert update.hands == 64
        assert math.isfinite(update.loss)
        assert math.isfinite(update.margin)
        assert 0 < update.entropy < math.log(66)
    for name, value in policy.params.items():
        assert np.isfinite(value).all()
        assert not np.array_equal(value, start.params[name]), name


def test_training_is_reproducible_for_a_seed() -> None:
    first, history = example.train(tables=32, hidden=8, seed=5, updates=2)
    second, again = example.train(tables=32, hidden=8, seed=5, updates=2)
    assert history == again
    for name, value in first.params.items():
        np.testing.assert_array_equal(value, second.params[name])


def test_the_policy_gives_illegal_ids_no_probability() -> None:
    policy = example.Policy(681, 8, 66, seed=1)
    rng = np.random.default_rng(2)
    for name, value in policy.params.items():
        policy.params[name] = rng.normal(size=value.shape).astype(np.float32)
    observations = rng.random((50, 681), dtype=np.float32)
    masks = (rng.random((50, 66)) < 0.2).astype(np.int8)
    masks[:, 7] = 1
    _, probabilities = policy.forward(observations, masks)
    assert (probabilities[masks == 0] == 0).all()
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-5)
    actions, _, _ = policy.act(observations, masks, rng)
    assert masks[np.arange(50), actions].all()
    assert masks[np.arange(50), policy.greedy(observations, masks)].all()


def test_the_duplicate_evaluation_runs() -> None:
    policy, _ = example.train(tables=32, hidden=8, seed=1, updates=1)
    for opponents in ("random", "easy"):
        margin = example.duplicate_margin(policy, opponents=opponents, deals=48)
        assert math.isfinite(margin.value)
        assert margin.low <= margin.value <= margin.high


def test_the_script_trains_evaluates_and_plots(tmp_path: Path) -> None:
    picture = tmp_path / "curve.png"
    completed = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--updates",
            "3",
            "--tables",
            "48",
            "--deals",
            "40",
            "--plot",
            str(picture),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    lines = completed.stdout.splitlines()
    assert lines[0].startswith("trained on 144 hands in ")
    assert any(line.startswith("duplicate margin vs random over 40 deals: ") for line in lines)
    assert any(line.startswith("duplicate margin vs easy   over 40 deals: ") for line in lines)
    assert picture.read_bytes().startswith(b"\x89PNG")
