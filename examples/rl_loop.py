"""The loop a reinforcement-learning user writes around the PettingZoo environment.

    python examples/rl_loop.py --episodes 20 --variant mirror

One policy plays all four seats: a linear softmax over the 66 action ids,
restricted to the legal ones by the action mask. Each episode is one hand;
afterwards every decision is nudged toward actions that earned its team
points (REINFORCE with a running baseline). It learns little in a few
episodes (that is not its point): it shows where the observation, the mask,
the step and the rewards come from. Needs the extra ``spades-core[pettingzoo]``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from spades_core.envs.pettingzoo import env

Array = npt.NDArray[np.float64]


class LinearPolicy:
    """Action preferences ``weights @ observation``; illegal actions get no probability."""

    def __init__(self, observation_size: int, actions: int, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.weights: Array = np.zeros((actions, observation_size))

    def probabilities(self, observation: Array, mask: npt.NDArray[np.int8]) -> Array:
        """The softmax of the legal actions' preferences."""
        preferences = self.weights @ observation
        preferences[mask == 0] = -np.inf
        preferences -= preferences[mask == 1].max()
        exponentials = np.exp(preferences)
        probabilities: Array = exponentials / exponentials.sum()
        return probabilities

    def act(self, observation: Array, mask: npt.NDArray[np.int8]) -> tuple[int, Array]:
        """A sampled legal action and the gradient of its log-probability."""
        probabilities = self.probabilities(observation, mask)
        action = int(self.rng.choice(len(probabilities), p=probabilities))
        chosen = -probabilities
        chosen[action] += 1.0
        return action, np.outer(chosen, observation)


def train(variant: str, episodes: int, seed: int, learning_rate: float = 1e-4) -> list[float]:
    """Play ``episodes`` one-hand episodes, learning after each; North-South's
    points per episode."""
    table = env(variant=variant, hands=1)
    observation_size = table.observation_space("north")["observation"].shape[0]
    policy = LinearPolicy(observation_size, table.action_space("north").n, seed)
    baseline = 0.0
    history: list[float] = []
    table.reset(seed=seed)
    for _episode in range(episodes):
        table.reset()
        gradients: dict[str, list[Array]] = {agent: [] for agent in table.agents}
        returns = dict.fromkeys(table.agents, 0.0)
        for agent in table.agent_iter():
            observation, reward, termination, truncation, _info = table.last()
            returns[agent] += reward
            if termination or truncation:
                table.step(None)  # the environment's way to let a finished agent leave
                continue
            features = observation["observation"].astype(np.float64)
            action, gradient = policy.act(features, observation["action_mask"])
            gradients[agent].append(gradient)
            table.step(action)
        for agent, steps in gradients.items():
            advantage = returns[agent] - baseline
            for gradient in steps:
                policy.weights += learning_rate * advantage * gradient
        baseline += 0.1 * (sum(returns.values()) / len(returns) - baseline)
        history.append(returns["north"])
    table.close()
    return history


def main(argv: Sequence[str] | None = None) -> int:
    """Train briefly and print North-South's points per episode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    history = train(args.variant, args.episodes, args.seed)
    print(f"Points North-South scored in each episode (one hand of {args.variant}, then learning):")
    for number, points in enumerate(history, 1):
        print(f"episode {number:>3}: North-South {points:+.0f}")
    print(f"mean over {len(history)} hands: {np.mean(history):+.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
