"""Train a Spades partnership on thousands of tables at once, with numpy alone.

    python examples/train_agent.py --minutes 8 --plot docs/images/train_agent_curve.png

One policy plays both seats of North-South (``seat="NS"``) of the vector
environment ``spades_core/Spades-v0`` against the easy batch policy. The
policy is a softmax over the 66 action ids of a small two-layer network of
the 681 observation features, its logits masked to the legal ids; it learns
by REINFORCE: every hand is 28 of the team's decisions at every table at
once, and after each hand every decision is pushed toward its action in
proportion to how much better than the batch's average the hand's
bag-adjusted margin came out (``reward="adjusted"``), with Adam steps. The
backward pass is written out by hand.

It then plays duplicate deals against ``random`` and ``easy``: every deal
once with the learner holding North-South's cards and once holding
East-West's (``seat="EW"`` on the same seeds), so luck of the cards cancels,
and prints the bag-adjusted margin per hand with its 95% interval
(:func:`spades_core.simulation.stats.mean_interval`). Needs the extra
``spades-core[gymnasium]`` (and ``spades-core[plot]`` for ``--plot``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from spades_core.envs.gymnasium import SpadesVectorEnv
from spades_core.simulation.stats import Interval, mean_interval

Array = npt.NDArray[np.float32]

TEAM_DECISIONS = 28
"""The decisions a partnership makes in a hand: two seats, a bid and 13 cards each."""


class Policy:
    """Logits ``W2 @ tanh(W1 @ x + b1) + b2`` over the action ids; illegal ids
    get no probability."""

    def __init__(self, inputs: int, hidden: int, actions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.params: dict[str, Array] = {
            "w1": (rng.standard_normal((inputs, hidden)) / np.sqrt(inputs)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": np.zeros((hidden, actions), np.float32),
            "b2": np.zeros(actions, np.float32),
        }

    def forward(self, observations: Array, masks: npt.NDArray[Any]) -> tuple[Array, Array]:
        """The hidden activations and the masked action probabilities, one row per table."""
        p = self.params
        hidden = np.tanh(observations @ p["w1"] + p["b1"])
        logits = hidden @ p["w2"] + p["b2"]
        logits = np.where(masks != 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        probabilities: Array = weights / weights.sum(axis=1, keepdims=True)
        return hidden, probabilities

    def act(
        self, observations: Array, masks: npt.NDArray[Any], rng: np.random.Generator
    ) -> tuple[npt.NDArray[np.int64], Array, Array]:
        """A sampled legal action per row (0 where none is legal), with the
        hidden activations and probabilities it was drawn from."""
        hidden, probabilities = self.forward(observations, masks)
        cumulative = probabilities.cumsum(axis=1)
        draws = rng.random((len(probabilities), 1), dtype=np.float32) * cumulative[:, -1:]
        actions = (cumulative < draws).sum(axis=1)
        legal = masks.any(axis=1)
        actions = np.where(legal, np.minimum(actions, probabilities.shape[1] - 1), 0)
        return actions.astype(np.int64), hidden, probabilities

    def greedy(self, observations: Array, masks: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        """The most probable legal action per row."""
        _, probabilities = self.forward(observations, masks)
        chosen: npt.NDArray[np.int64] = probabilities.argmax(axis=1).astype(np.int64)
        return chosen


class Adam:
    """Adam steps of a policy's parameters (ascending the objective)."""

    def __init__(self, params: dict[str, Array], rate: float) -> None:
        self.rate = rate
        self.steps = 0
        self.first = {name: np.zeros_like(value) for name, value in params.items()}
        self.second = {name: np.zeros_like(value) for name, value in params.items()}

    def step(self, params: dict[str, Array], gradients: dict[str, Array]) -> None:
        """Move ``params`` up ``gradients``."""
        self.steps += 1
        for name, gradient in gradients.items():
            self.first[name] = 0.9 * self.first[name] + 0.1 * gradient
            self.second[name] = 0.999 * self.second[name] + 0.001 * gradient**2
            first = self.first[name] / (1 - 0.9**self.steps)
            second = self.second[name] / (1 - 0.999**self.steps)
            params[name] += (self.rate * first / (np.sqrt(second) + 1e-8)).astype(np.float32)


@attrs.frozen
class Update:
    """One hand at every table, and what it taught."""

    hands: int
    margin: float
    """The hand's mean bag-adjusted margin (the learner's team minus the other)."""
    loss: float
    """The policy-gradient loss: minus the advantage-weighted log-probability, per decision."""
    entropy: float
    """The mean entropy of the policy's choices, in nats."""


def gradients(
    policy: Policy,
    observations: Array,
    hidden: Array,
    probabilities: Array,
    actions: npt.NDArray[np.int64],
    advantages: Array,
) -> tuple[dict[str, Array], float]:
    """The gradient of the mean advantage-weighted log-probability of the
    actions taken, by backpropagation through the two layers, and the loss."""
    count = len(actions)
    rows = np.arange(count)
    chosen = probabilities[rows, actions]
    loss = float(-(advantages * np.log(np.maximum(chosen, 1e-12))).mean())
    # d log softmax / d logits = onehot - probabilities (zero at masked ids).
    d_logits = -probabilities * advantages[:, None]
    d_logits[rows, actions] += advantages
    d_logits /= count
    p = policy.params
    d_hidden = (d_logits @ p["w2"].T) * (1 - hidden**2)
    return {
        "w2": hidden.T @ d_logits,
        "b2": d_logits.sum(axis=0),
        "w1": observations.T @ d_hidden,
        "b1": d_hidden.sum(axis=0),
    }, loss


def train(
    *,
    variant: str = "classic",
    tables: int = 1024,
    opponents: str = "easy",
    hidden: int = 64,
    rate: float = 3e-3,
    seed: int = 0,
    minutes: float | None = None,
    updates: int | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[Policy, list[Update]]:
    """Train for ``updates`` hands at every table, or for ``minutes``; the
    policy and one :class:`Update` per hand."""
    env = SpadesVectorEnv(
        tables, variant, seat="NS", opponents=opponents, reward="adjusted", **(options or {})
    )
    observations, infos = env.reset(seed=seed)
    size = observations.shape[1]
    policy = Policy(size, hidden, env.single_action_space.n, seed)  # type: ignore[attr-defined]
    optimizer = Adam(policy.params, rate)
    rng = np.random.default_rng(seed)
    history: list[Update] = []
    deadline = None if minutes is None else time.monotonic() + 60 * minutes
    while (updates is None or len(history) < updates) and (
        deadline is None or time.monotonic() < deadline
    ):
        steps: list[tuple[Array, Array, Array, npt.NDArray[np.int64]]] = []
        for _ in range(TEAM_DECISIONS):
            masks = infos["action_mask"]
            actions, hidden_now, probabilities = policy.act(observations, masks, rng)
            steps.append((observations, hidden_now, probabilities, actions))
            observations, rewards, terminated, _, infos = env.step(actions)
        # Every table finished its hand on its team's 28th decision.
        assert terminated.all()
        margins = rewards.astype(np.float32)
        advantages = (margins - margins.mean()) / (margins.std() + 1e-6)
        stacked = [np.concatenate(part) for part in zip(*steps, strict=True)]
        grads, loss = gradients(
            policy, stacked[0], stacked[1], stacked[2], stacked[3], np.tile(advantages, len(steps))
        )
        optimizer.step(policy.params, grads)
        probabilities = stacked[2]
        entropy = float(-(probabilities * np.log(np.maximum(probabilities, 1e-12))).sum(1).mean())
        history.append(Update(tables, float(margins.mean()), loss, entropy))
        # The step after an episode ends starts the next one (its actions are not read).
        observations, _, _, _, infos = env.step(np.zeros(tables, dtype=np.int64))
    return policy, history


def duplicate_margin(
    policy: Policy,
    *,
    opponents: str,
    deals: int,
    variant: str = "classic",
    seed: int = 10**9,
    options: dict[str, Any] | None = None,
) -> Interval:
    """The policy's bag-adjusted margin per hand over ``deals`` duplicate deals
    against ``opponents`` (a batch policy), greedy, with its 95% interval."""
    per_copy = []
    for seat in ("NS", "EW"):
        env = SpadesVectorEnv(
            deals, variant, seat=seat, opponents=opponents, reward="adjusted", **(options or {})
        )
        observations, infos = env.reset(seed=seed)
        total = np.zeros(deals)
        for _ in range(TEAM_DECISIONS):
            actions = policy.greedy(observations, infos["action_mask"])
            observations, rewards, terminated, _, infos = env.step(actions)
            total += rewards
        assert terminated.all()
        per_copy.append(total)
    # Each deal is played from both sides; its figure is the mean of the two copies.
    return mean_interval(((per_copy[0] + per_copy[1]) / 2).tolist())


def plot(history: Sequence[Update], path: str) -> None:
    """Save the learning curve: the mean margin of each hand, and a running mean."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    margins = np.array([update.margin for update in history])
    hands = np.cumsum([update.hands for update in history])
    window = max(1, len(margins) // 20)
    smooth = np.convolve(margins, np.ones(window) / window, mode="valid")
    figure, axis = plt.subplots(figsize=(7, 3.6), dpi=110)
    axis.plot(hands, margins, color="#9ab", linewidth=0.8, label="each hand (mean over tables)")
    axis.plot(hands[window - 1 :], smooth, color="#135", linewidth=2, label=f"mean of {window}")
    axis.axhline(0, color="#888", linewidth=0.6)
    axis.set_xlabel("hands played by the learner's partnership")
    axis.set_ylabel("bag-adjusted margin per hand")
    axis.set_title("Learning against the easy policy (classic)")
    axis.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv: Sequence[str] | None = None) -> int:
    """Train, print the learning curve's milestones and the duplicate margins."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--tables", type=int, default=1024)
    parser.add_argument("--minutes", type=float, default=8.0)
    parser.add_argument("--updates", type=int, default=None, help="stop after this many hands")
    parser.add_argument("--opponents", default="easy", help="the batch policy to learn against")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deals", type=int, default=20_000, help="duplicate deals per opponent")
    parser.add_argument("--plot", default=None, help="save the learning curve to this PNG")
    args = parser.parse_args(argv)
    started = time.monotonic()
    policy, history = train(
        variant=args.variant,
        tables=args.tables,
        opponents=args.opponents,
        seed=args.seed,
        minutes=None if args.updates else args.minutes,
        updates=args.updates,
    )
    seconds = time.monotonic() - started
    hands = sum(update.hands for update in history)
    print(f"trained on {hands:,} hands in {seconds:.0f} s ({len(history)} updates)")
    tenth = max(1, len(history) // 10)
    for index in range(0, len(history), tenth):
        chunk = history[index : index + tenth]
        print(
            f"  updates {index + 1:>4}-{index + len(chunk):<4} margin "
            f"{np.mean([u.margin for u in chunk]):+7.1f}  entropy "
            f"{np.mean([u.entropy for u in chunk]):.2f}"
        )
    for opponents in ("random", "easy"):
        margin = duplicate_margin(
            policy, opponents=opponents, deals=args.deals, variant=args.variant
        )
        print(
            f"duplicate margin vs {opponents:<6} over {args.deals:,} deals: "
            f"{margin.value:+.1f} points per hand (95% interval {margin.low:+.1f} to "
            f"{margin.high:+.1f})"
        )
    if args.plot:
        plot(history, args.plot)
        print(f"learning curve saved to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
