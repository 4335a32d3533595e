"""Learner steps per second of the Gymnasium environments, against their goals.

    python bench/gym_envs.py             # a table
    python bench/gym_envs.py --json      # machine-readable results
    python bench/gym_envs.py --seconds 5 --tables 4096

* **vector, random learner**: ``SpadesVectorEnv`` with ``--tables`` tables,
  the other seats ``random`` (goal 1,000,000 learner steps/s at 4,096);
  the learner's actions are uniform among the legal ids, drawn for all
  tables at once with numpy (a random key per id, the largest legal key).
* **vector, normal** and **vector, easy**: the same with the ``normal``
  (goal 300,000 learner steps/s) or the ``easy`` batch policy at the other
  seats.
* **single**: ``SpadesEnv`` (one table on the engine, ``random`` bots at
  the other seats) and Shimmy's OpenSpiel ``spades``
  (``shimmy.OpenSpielCompatibilityV0(game_name="spades")``) stepped the
  same way: reset with a seed, then the learner's random legal action with
  Python's ``random`` from ``np.flatnonzero(mask).tolist()`` until the episode
  ends (goal: ours at least 1.0x Shimmy's steps/s). A step of ours is one of
  the learner's decisions and the three other seats' between them; one of
  Shimmy's is one seat's decision, so game actions per second are printed
  too. Shimmy's wrapper truncates ``spades`` after the four bids (its step
  count includes the 52 chance moves of the deal, and the game's
  ``max_game_length`` is 56), so its episodes are four steps and a reset.

Each figure is the best of ``--repeat`` runs of ``--seconds`` seconds after a
short warm-up. Measure on a quiet machine: on a busy one the ratios are rough.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from spades_core.envs.gymnasium import SpadesEnv, SpadesVectorEnv

GOALS = {
    "vector_random_steps_per_s": 1_000_000,
    "vector_normal_steps_per_s": 300_000,
    "single_vs_shimmy": 1.0,
}


def random_legal(masks: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.intp]:
    """A uniformly random legal id at each row (any id where none is legal)."""
    keys = rng.random(masks.shape, dtype=np.float32)
    keys[masks == 0] = -1.0
    chosen: npt.NDArray[np.intp] = keys.argmax(axis=1)
    return chosen


def vector_rate(opponents: str, tables: int, seconds: float) -> float:
    """Learner steps per second of the vector environment."""
    env = SpadesVectorEnv(tables, "classic", opponents=opponents)
    rng = np.random.default_rng(0)
    _, infos = env.reset(seed=1)
    for _ in range(5):
        *_, infos = env.step(random_legal(infos["action_mask"], rng))
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        *_, infos = env.step(random_legal(infos["action_mask"], rng))
        steps += tables
    return steps / (time.perf_counter() - start)


def loop_rate(reset: Callable[[int], Any], step: Callable[[int], Any], seconds: float) -> float:
    """Steps per second of a seeded reset-then-step-to-the-end loop."""
    rng = random.Random(0)
    steps = 0
    episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        mask = reset(episodes)
        episodes += 1
        while mask is not None:
            mask = step(rng.choice(np.flatnonzero(mask).tolist()))
            steps += 1
    return steps / (time.perf_counter() - start)


def ours(seconds: float) -> float:
    """Steps per second of SpadesEnv with random bots at the other seats."""
    env = SpadesEnv("classic", opponents="random")

    def reset(seed: int) -> Any:
        return env.reset(seed=seed)[1]["action_mask"]

    def step(action: int) -> Any:
        _, _, terminated, truncated, info = env.step(action)
        return None if terminated or truncated else info["action_mask"]

    return loop_rate(reset, step, seconds)


def shimmy(seconds: float) -> float:
    """Steps per second of Shimmy's OpenSpiel spades, every seat stepped alike."""
    from shimmy import OpenSpielCompatibilityV0

    env = OpenSpielCompatibilityV0(game_name="spades")

    def mask_now() -> Any:
        for _agent in env.agent_iter():
            _, _, terminated, truncated, info = env.last()
            if not (terminated or truncated):
                return info["action_mask"]
            env.step(None)
        return None

    def reset(seed: int) -> Any:
        env.reset(seed=seed)
        return mask_now()

    def step(action: int) -> Any:
        env.step(action)
        return mask_now()

    return loop_rate(reset, step, seconds)


def measure(tables: int, seconds: float, repeat: int) -> dict[str, Any]:
    """Every figure (the best of ``repeat`` runs each)."""

    def best(run: Callable[[], float]) -> float:
        return max(run() for _ in range(repeat))

    single = best(lambda: ours(seconds))
    reference = best(lambda: shimmy(seconds))
    results: dict[str, Any] = {
        "tables": tables,
        "vector_random_steps_per_s": best(lambda: vector_rate("random", tables, seconds)),
        "vector_normal_steps_per_s": best(lambda: vector_rate("normal", tables, seconds)),
        "vector_easy_steps_per_s": best(lambda: vector_rate("easy", tables, seconds)),
        "single_steps_per_s": single,
        "single_actions_per_s": single * 4,
        "shimmy_steps_per_s": reference,
        "single_vs_shimmy": single / reference,
    }
    results["vector_vs_single"] = results["vector_random_steps_per_s"] / single
    return results


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures beside their goals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = measure(args.tables, args.seconds, args.repeat)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"Gymnasium environments, classic, {args.tables:,} tables for the vector figures")
    rows = [
        ("vector, random learner, random seats", "vector_random_steps_per_s", "steps/s"),
        ("vector, random learner, normal seats", "vector_normal_steps_per_s", "steps/s"),
        ("vector, random learner, easy seats", "vector_easy_steps_per_s", "steps/s"),
        ("single, random learner, random bots", "single_steps_per_s", "steps/s"),
        ("  its game actions (4 a step)", "single_actions_per_s", "actions/s"),
        ("Shimmy OpenSpiel spades", "shimmy_steps_per_s", "steps/s"),
        ("single / Shimmy", "single_vs_shimmy", "x"),
        ("vector (random seats) / single", "vector_vs_single", "x"),
    ]
    for label, key, unit in rows:
        value = results[key]
        goal = GOALS.get(key)
        shown = f"{value:,.2f}" if unit == "x" else f"{value:,.0f}"
        target = "" if goal is None else f"   goal {goal:,}{'x' if unit == 'x' else ''}"
        print(f"  {label:<40}{shown:>14} {unit}{target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
