"""The vector environment of :mod:`spades_core.envs.gymnasium`:
:class:`SpadesVectorEnv`, thousands of tables at once on
:class:`spades_core.batch.Tables`."""

from __future__ import annotations

from typing import Any

import attrs
import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from spades_core import batch
from spades_core.engine.encoding import NUM_ACTIONS
from spades_core.envs._gym_parts import (
    ArrayPolicy,
    Setup,
    Vector,
    observation_space,
)
from spades_core.envs._learner import (
    check_base_seed,
    episode_seeds,
    seats_of_others,
)
from spades_core.rules.rng import MAX_SEED
from spades_core.rules.variant import Variant
from spades_core.values.errors import (
    ArgumentTypeError,
    IllegalActionError,
    IllegalReason,
    RulesError,
    brief,
)

__all__ = ["SpadesVectorEnv"]


class SpadesVectorEnv(VectorEnv[Vector, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` tables stepped at once on :class:`spades_core.batch.Tables`,
    the learner's seat (or team) at each against batch policies (see the
    module docs). Observations are ``(num_envs, 681)`` float32, rewards
    float64, masks ``info["action_mask"]`` ``(num_envs, 66)`` int8 and
    :meth:`action_masks`."""

    # A plain dict on the class, as Gymnasium reads it (see SpadesEnv.metadata).
    metadata = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 1,
        variant: str | Variant = "classic",
        *,
        seat: object = "north",
        opponents: object = "random",
        reward: str = "points",
        episode: str = "hand",
        illegal: str = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        n = num_envs
        if type(n) is not int:
            raise ArgumentTypeError(f"num_envs must be a whole number; got {brief(n)}")
        if not 1 <= n <= batch.MAX_TABLES:
            raise RulesError(f"num_envs must be 1 to {batch.MAX_TABLES:,}; got {brief(n)}")
        if render_mode is not None:
            raise RulesError(f"the vector environment does not render; got {brief(render_mode)}")
        self._setup = setup = Setup(
            variant, seat, reward, episode, illegal, illegal_reward, options
        )
        self.num_envs = n
        self.render_mode = None
        self.single_observation_space = observation_space()
        self.single_action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        others = seats_of_others(opponents, setup.learner, "batch policy")
        # Checked now: a name that is no batch policy fails here, not at the first step.
        _check_policies(others)
        self._on_arrays = tuple(item if isinstance(item, ArrayPolicy) else None for item in others)
        batched = [
            item for item in others if item is not None and not isinstance(item, ArrayPolicy)
        ]
        # The learner's seats (and those of array policies) are never asked: any policy fills them.
        filler = batched[0] if batched else "lowest"
        self._policies = tuple(
            item if item is not None and not isinstance(item, ArrayPolicy) else filler
            for item in others
        )
        self._batched_at = np.array(
            [item is not None and not isinstance(item, ArrayPolicy) for item in others]
        )
        self._uniform = all(
            item is None or (isinstance(item, str) and item == "random") for item in others
        )
        self._learner_at = np.array([seat in setup.learner for seat in range(4)])
        self._forms = batch.CheckedForms(setup.variant, batch.array_forms_of(setup.variant))
        self._free_rules = (
            attrs.evolve(setup.rules, bag_limit=None) if setup.reward == "adjusted" else None
        )
        self._tables: batch.Tables | None = None
        self._bases = np.zeros(n, dtype=np.uint64)
        self._episodes = np.zeros(n, dtype=np.int64)
        self._seeds = np.zeros(n, dtype=np.uint64)
        self._next_seeds = np.zeros(n, dtype=np.uint64)
        self._rng = np.random.default_rng()
        self._autoreset = np.zeros(n, dtype=np.bool_)
        self._mask = np.zeros((n, NUM_ACTIONS), dtype=np.bool_)

    @property
    def variant(self) -> Variant:
        """The variant played."""
        return self._setup.variant

    @property
    def tables(self) -> batch.Tables:
        """The tables underneath (after :meth:`reset`)."""
        if self._tables is None:
            raise IllegalActionError(IllegalReason.WRONG_PHASE, "no tables yet: call reset()")
        return self._tables

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        """Start the next episode at every table: with ``seed``, table ``i``
        plays the game of seed ``seed + i`` (or of ``seed[i]`` for a list)."""
        n = self.num_envs
        if options:
            raise RulesError(
                f"reset takes no options (pass variant options to the environment); "
                f"got {brief(options)}"
            )
        if seed is None:
            if self._tables is None:
                bases = self._fresh_bases()
                self._set_bases(bases, np.random.default_rng())
            else:
                self._episodes += 1
        elif isinstance(seed, int) and not isinstance(seed, bool):
            first = check_base_seed(seed, "reset", n)
            self._set_bases([first + i for i in range(n)], np.random.default_rng(first))
        elif isinstance(seed, list | tuple) and len(seed) == n:
            bases = [check_base_seed(value, "reset") for value in seed]
            self._set_bases(bases, np.random.default_rng(bases))
        else:
            raise ArgumentTypeError(
                f"seed must be None, a whole number or a list of {n} whole numbers; "
                f"got {brief(seed)}"
            )
        super().reset(seed=seed if isinstance(seed, int) else None)
        everywhere = np.arange(n)
        seeds = self._episode_seeds(everywhere)
        if self._tables is None:
            consecutive = _consecutive(seeds)
            self._tables = batch.Tables(
                self._setup.variant,
                n,
                seed=int(seeds[0]) if consecutive else 0,
                episode=self._setup.episode,
                **self._setup.options,
            )
            if not consecutive:
                self._tables.restart(everywhere, seeds)
        else:
            self._tables.restart(everywhere, seeds)
        self._queue_next(everywhere)
        self._seeds = seeds
        self._autoreset[:] = False
        rewards = np.zeros(n)
        done = np.zeros(n, dtype=np.bool_)
        self._advance(rewards, done)
        return self._observations(done), self._infos()

    def _fresh_bases(self) -> list[int]:
        source = np.random.default_rng()
        return [
            int(value)
            for value in source.integers(0, MAX_SEED, size=self.num_envs, dtype=np.uint64)
        ]

    def _set_bases(self, bases: list[int], rng: np.random.Generator) -> None:
        self._bases = np.array(bases, dtype=np.uint64)
        self._episodes[:] = 0
        self._rng = rng

    def _episode_seeds(self, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.uint64]:
        return episode_seeds(self._bases[rows], self._episodes[rows])

    def _queue_next(self, rows: npt.NDArray[np.intp]) -> None:
        """Name the seed of the episode after this one at ``rows``: the tables
        restart from it themselves when this one ends."""
        following = episode_seeds(self._bases[rows], self._episodes[rows] + 1)
        self.tables.queue_seeds(rows, following)

    def step(
        self, actions: object
    ) -> tuple[
        Vector,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Every table's learner takes its action (one id per table); the
        other seats act until each table's learner is to act again or its
        episode has ended. A table whose episode ended in the last step
        starts its next one instead (its action is not read)."""
        tables = self.tables
        n = self.num_envs
        ids = np.asarray(actions)
        if ids.shape != (n,) or ids.dtype.kind not in "iu":
            raise IllegalActionError(
                IllegalReason.NOT_AN_ACTION,
                f"step needs {n} whole-number action ids, one per table; got {brief(actions)}",
            )
        restarted = self._autoreset
        acting = ~restarted
        outside = acting & ((ids < 0) | (ids >= NUM_ACTIONS))
        if outside.any():
            row = int(np.flatnonzero(outside)[0])
            raise IllegalActionError(
                IllegalReason.NOT_AN_ACTION,
                f"table {row}: an action is an id from 0 to {NUM_ACTIONS - 1}; got {int(ids[row])}",
            )
        rewards = np.zeros(n)
        if self._setup.illegal == "penalize":
            legal = self._mask[np.arange(n), np.where(acting, ids, 0)]
            refused = acting & ~legal
            rewards[refused] = self._setup.illegal_reward
            acting &= legal
        done = np.zeros(n, dtype=np.bool_)
        points, finished = tables.step(ids, where=acting)
        self._seeds[restarted] = self._next_seeds[restarted]
        self._collect(points, finished, rewards, done)
        self._advance(rewards, done)
        self._autoreset = done
        return (
            self._observations(done),
            rewards,
            done.copy(),
            np.zeros(n, dtype=np.bool_),
            self._infos(),
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal action ids at every table now, ``(num_envs, 66)`` booleans
        (none at a table whose episode has just ended)."""
        return self._mask.copy()

    # -- playing ----------------------------------------------------------------------

    def _advance(self, rewards: npt.NDArray[np.float64], done: npt.NDArray[np.bool_]) -> None:
        """Play the other seats until every table's learner is to act."""
        tables = self.tables
        learner_at = self._learner_at
        uniform = self._uniform
        while True:
            waiting = ~learner_at[tables.to_act]
            if not waiting.any():
                return
            # With "random" at every other seat, uniform legal ids drawn at once for the
            # waiting tables cost less than asking the policy seat by seat.
            if uniform:
                chosen = tables.random_actions(self._rng, where=waiting)
            else:
                chosen = self._choose(waiting)
            points, finished = tables.step(chosen, where=waiting)
            self._collect(points, finished, rewards, done)

    def _choose(self, waiting: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
        """The other seats' choices at the waiting tables."""
        tables = self.tables
        seat = tables.to_act
        batched = waiting & self._batched_at[seat]
        chosen = tables.choose(self._policies, where=batched, rng=self._rng)
        if batched is waiting or (batched == waiting).all():
            return chosen
        observations = tables.observe()
        masks = tables.legal_mask().view(np.int8)
        for number, policy in enumerate(self._on_arrays):
            if policy is None:
                continue
            rows = np.flatnonzero(waiting & (seat == number))
            if not len(rows):
                continue
            answer = np.asarray(policy.function(observations[rows], masks[rows]))
            if answer.shape != (len(rows),) or answer.dtype.kind not in "iu":
                raise IllegalActionError(
                    IllegalReason.NOT_AN_ACTION,
                    f"an ArrayPolicy must return one whole-number action id per table "
                    f"({len(rows)} here); got {brief(answer)}",
                )
            chosen[rows] = answer
        return chosen

    def _collect(
        self,
        points: npt.NDArray[np.int64],
        finished: npt.NDArray[np.bool_],
        rewards: npt.NDArray[np.float64],
        done: npt.NDArray[np.bool_],
    ) -> None:
        """Add what the hands scored in one step of the tables pay, and start
        the next episode (from its seed) at the tables that finished one."""
        tables = self.tables
        setup = self._setup
        own = setup.team
        kind = setup.reward
        if kind == "points":
            rewards += points[:, own]
        elif kind == "margin":
            rewards += points[:, own] - points[:, 1 - own]
        elif kind == "adjusted":
            rows = np.flatnonzero(tables.scored)
            if len(rows):
                assert self._free_rules is not None
                base, taken = self._forms.score_hands(
                    self._free_rules,
                    tables.scored_bids[rows],
                    tables.scored_tricks[rows],
                    np.zeros((len(rows), 2), dtype=np.int64),
                )
                value = base - setup.bag_cost * taken
                rewards[rows] += value[:, own] - value[:, 1 - own]
        if not finished.any():
            return
        rows = np.flatnonzero(finished)
        if kind == "win":
            winners = tables.winners[rows]
            rewards[rows] += np.where(winners < 0, 0.0, np.where(winners == own, 1.0, -1.0))
        done[rows] = True
        self._episodes[rows] += 1
        # The tables restarted from the seeds queued for these episodes; info["seed"]
        # names the finished episode's game until the table's next step.
        self._next_seeds[rows] = tables.seeds[rows]
        self._queue_next(rows)

    def _observations(self, done: npt.NDArray[np.bool_]) -> Vector:
        tables = self.tables
        observations = tables.observe()
        mask = tables.legal_mask()
        if done.any():
            # An episode's last observation is the finished game's, seen from the learner's
            # (first) seat; nobody acts there.
            rows = np.flatnonzero(done)
            observations[rows] = tables.final_observations(rows, self._setup.learner[0])
            mask[rows] = False
        self._mask = mask
        return observations

    def _infos(self) -> dict[str, Any]:
        n = self.num_envs
        every = np.ones(n, dtype=np.bool_)
        return {
            "action_mask": self._mask.astype(np.int8),
            "_action_mask": every,
            "seed": self._seeds.copy(),
            "_seed": every.copy(),
        }


def _consecutive(seeds: npt.NDArray[np.uint64]) -> bool:
    first = int(seeds[0])
    if first + len(seeds) - 1 > MAX_SEED:
        return False
    steps = np.arange(len(seeds), dtype=np.uint64)
    return bool((seeds - seeds[0] == steps).all())


def _check_policies(policies: tuple[object, ...]) -> None:
    for item in policies:
        if item is None or isinstance(item, ArrayPolicy):
            continue
        if isinstance(item, str) and item not in batch.BUILTIN_POLICIES:
            names = ", ".join(map(repr, batch.BUILTIN_POLICIES))
            raise RulesError(
                f"the vector environment's other seats are played by batch policies ({names}) "
                f"or a policy function of a batch.Decision; got {brief(item)} (the engine's "
                "players, such as 'hard', play in SpadesEnv, or in make_vec(..., "
                "vectorization_mode='sync'))"
            )
        if not isinstance(item, str) and not callable(item):
            raise ArgumentTypeError(
                f"a batch policy is a name or a function of a batch.Decision; got {brief(item)}"
            )
