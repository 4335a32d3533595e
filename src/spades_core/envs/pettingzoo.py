"""Every installed variant as a PettingZoo AEC environment (extra ``spades-core[pettingzoo]``).

>>> from spades_core.envs.pettingzoo import env
>>> table = env(variant="whiz", target_score=200)
>>> table.reset(seed=1)
>>> observation, reward, termination, truncation, info = table.last()
>>> mask = observation["action_mask"]
>>> table.agent_selection, observation["observation"].shape, mask.shape, bool(mask.any())
('east', (681,), (66,), True)

:func:`env` returns :class:`raw_env` wrapped in PettingZoo's standard
wrappers for turn-based games (an illegal action ends the episode with
reward -1 for the player who tried it; out-of-range actions and calls out of
order are errors). The agents are ``"north"``, ``"east"``, ``"south"`` and
``"west"``, in seat order; North and South are partners.

* **Observation**: a ``Dict`` with ``"observation"``, the float32 vector of
  :func:`spades_core.envs.features.observation` (681 numbers, built from the
  agent's :class:`~spades_core.views.View` only), and ``"action_mask"``, 66
  int8 flags marking the agent's legal action ids (all zero when it is not
  its turn).
* **Actions**: ``Discrete(66)``, the ids of :mod:`spades_core.encoding`
  (0-51 play a card, 52-65 bid, 52 being Nil).
* **Rewards**: when a hand is scored, both partners receive their team's
  points for that hand (contract, bags, Nil and bag penalties), so an agent's
  rewards over an episode add up to its team's final score. Every other step
  rewards 0.
* **Termination**: after ``hands`` hands (1 or more), or at the end of the
  game with ``hands=0`` (the default: whole games). A whole game still
  undecided after 200 hands is *truncated* instead.
* **Seeding**: ``reset(seed=n)`` makes the deals of that episode and of
  every later ``reset()`` without a seed reproducible.
* **Rendering**: ``render_mode="ansi"`` makes :meth:`raw_env.render` return
  the table as the terminal game draws it (``spades play``), seen by the
  agent to act, with its hand.
"""

from __future__ import annotations

import random
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from spades_core.batch import features
from spades_core.cli import render
from spades_core.engine.encoding import (
    NUM_ACTIONS,
    action_from_id,
    after_legal_id,
    legal_id_bits,
)
from spades_core.engine.game import SEATS, Game, Phase, new_game
from spades_core.envs import _episode
from spades_core.envs._tracking import ObservationTracker
from spades_core.rules.registry import load_variant
from spades_core.rules.variant import Variant
from spades_core.values.errors import IllegalActionError, IllegalReason, RulesError, brief
from spades_core.values.seats import Seat

__all__ = ["AGENTS", "env", "raw_env"]

AGENTS: Final = ("north", "east", "south", "west")
"""The agents, in seat order."""
_SEAT_OF: Final = {name: SEATS[number] for number, name in enumerate(AGENTS)}
_NUMBER_OF: Final = {name: number for number, name in enumerate(AGENTS)}
_NO_REWARDS: Final = dict.fromkeys(AGENTS, 0.0)
_PLAIN: Final = render.Style(colour=False)

Observation = dict[str, npt.NDArray[Any]]


def env(variant: str | Variant = "classic", render_mode: str | None = None, **kwargs: Any) -> Any:
    """:class:`raw_env` in PettingZoo's standard wrappers (see the module docs);
    keywords are ``hands`` and the variant's options."""
    table: Any = raw_env(variant, render_mode=render_mode, **kwargs)
    table = _TerminateIllegal(table, illegal_reward=-1)
    table = _AssertOutOfBounds(table)
    return _OrderEnforcing(table)


# PettingZoo's wrappers find the table's bookkeeping (whose turn, the flags,
# the rewards) through each wrapper's __getattr__ in turn, several times a step.
# These subclasses behave as the standard wrappers do, and read it from the
# table in one step instead.
_FORWARDED: Final = (
    "agent_selection",
    "agents",
    "terminations",
    "truncations",
    "rewards",
    "infos",
    "_cumulative_rewards",
)


def _forwarded(name: str, *, after_reset: bool) -> property:
    def read(self: Any) -> Any:
        if after_reset and not self._has_reset:
            # The wrapper's own __getattr__ raises its error.
            raise AttributeError(name)
        return getattr(self._table, name)

    return property(read, doc=f"The table's ``{name}``.")


def _forwarding(
    name: str, cls: type, *, after_reset: bool, methods: dict[str, Any] | None = None
) -> type:
    """``cls``, a standard wrapper, reading :data:`_FORWARDED` from the table
    directly; ``name`` is the module's name for it (so that pickle finds it);
    ``methods`` replace the standard wrapper's, behaving as they do."""
    attributes: dict[str, Any] = {
        name: _forwarded(name, after_reset=after_reset) for name in _FORWARDED
    }
    attributes.update(methods or {})

    def __init__(self: Any, table: Any, *args: Any, **kwargs: Any) -> None:
        self._table = table.unwrapped
        cls.__init__(self, table, *args, **kwargs)  # type: ignore[misc]

    attributes["__init__"] = __init__
    attributes["__doc__"] = cls.__doc__
    attributes["__module__"] = __name__
    attributes["__qualname__"] = name
    return type(name, (cls,), attributes)


# The steps below are those of PettingZoo's wrappers on the common path, with
# each piece of the table's bookkeeping read once; anything else (an illegal
# action, a done agent, an action of another type) goes to the standard method.


def _observe_keeping_mask(self: Any, agent: str) -> Any:
    """TerminateIllegalWrapper.observe: the agent to act's observation is kept
    for the check of its next action."""
    observation = self.env.observe(agent)
    table = self._table
    selected = table.agent_selection
    if agent == selected:
        self._prev_obs = observation
        self._prev_info = table.infos.get(selected, {})
    return observation


def _step_unless_illegal(self: Any, action: Any) -> None:
    """TerminateIllegalWrapper.step: a legal action by an agent that is not
    done passes straight on; anything else goes to the standard step."""
    table = self._table
    agent = table.agent_selection
    if self._prev_obs is None:
        self.observe(agent)
    kept = self._prev_obs
    if (
        not self._terminated
        and type(kept) is dict
        and "action_mask" in kept
        and type(action) is int
        and not table.terminations[agent]
        and not table.truncations[agent]
        and kept["action_mask"][action]
    ):
        self._prev_obs = None
        self._prev_info = None
        self.env.step(action)
        return
    wrappers.TerminateIllegalWrapper.step(self, action)


def _step_in_bounds(self: Any, action: Any) -> None:
    """AssertOutOfBoundsWrapper.step: an int id in range is what
    ``Discrete(66).contains`` accepts, without asking gymnasium."""
    if type(action) is int and 0 <= action < NUM_ACTIONS:
        self.env.step(action)
        return
    wrappers.AssertOutOfBoundsWrapper.step(self, action)


def _last_after_reset(self: Any, observe: bool = True) -> Any:
    """AECEnv.last on the outer wrapper, the bookkeeping read from the table."""
    if not self._has_reset:
        return wrappers.OrderEnforcingWrapper.last(self, observe)
    table = self._table
    if not table.agents:
        # Every agent is done and has stepped: the table answers as raw_env
        # does, where PettingZoo's wrapper would look the last agent up in
        # bookkeeping that no longer holds it (a KeyError).
        return table.last(observe)
    agent = table.agent_selection
    observation = self.observe(agent) if observe else None
    return (
        observation,
        table._cumulative_rewards[agent],
        table.terminations[agent],
        table.truncations[agent],
        table.infos[agent],
    )


_TerminateIllegal: Final = _forwarding(
    "_TerminateIllegal",
    wrappers.TerminateIllegalWrapper,
    after_reset=False,
    methods={"observe": _observe_keeping_mask, "step": _step_unless_illegal},
)
_AssertOutOfBounds: Final = _forwarding(
    "_AssertOutOfBounds",
    wrappers.AssertOutOfBoundsWrapper,
    after_reset=False,
    methods={"step": _step_in_bounds},
)
_OrderEnforcing: Final = _forwarding(
    "_OrderEnforcing",
    wrappers.OrderEnforcingWrapper,
    after_reset=True,
    methods={"last": _last_after_reset},
)


# The int8 mask of each set of legal ids met lately (copied for each caller):
# a copy costs less than building the mask again.
_MASKS: Final[dict[int, npt.NDArray[np.int8]]] = {}
_MASKS_KEPT: Final = 4096
_MASK_BYTES: Final = (NUM_ACTIONS + 7) // 8


def _mask_of(bits: int) -> npt.NDArray[np.int8]:
    mask = _MASKS.get(bits)
    if mask is None:
        if len(_MASKS) >= _MASKS_KEPT:
            _MASKS.clear()
        # Bit n of the id mask is flag n: numpy unpacks the bytes of the int,
        # lowest bit first, in a few calls instead of a loop over the ids.
        packed = np.frombuffer(bits.to_bytes(_MASK_BYTES, "little"), np.uint8)
        mask = np.unpackbits(packed, count=NUM_ACTIONS, bitorder="little").view(np.int8)
        _MASKS[bits] = mask
    return mask.copy()


class raw_env(AECEnv):  # type: ignore[misc]
    """A table of four agents playing one variant (see the module docs)."""

    metadata: Final = {
        "render_modes": ["ansi"],
        "name": "spades_core_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Variant = "classic",
        render_mode: str | None = None,
        hands: int = _episode.WHOLE_GAME,
        **options: Any,
    ) -> None:
        super().__init__()
        self.variant = variant if isinstance(variant, Variant) else load_variant(variant)
        """The variant played."""
        self.rules = self.variant.rules(**options)
        """The resolved options."""
        self._options = options
        self.hands = _episode.check_hands(hands)
        """Hands per episode (0: whole games)."""
        if render_mode not in (None, "ansi"):
            raise RulesError(f"render_mode must be None or 'ansi'; got {brief(render_mode)}")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    low=features.OBSERVATION_LOW,
                    high=features.OBSERVATION_HIGH,
                    dtype=np.float32,
                ),
                "action_mask": gymnasium.spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(AGENTS, observation_space)
        self.action_spaces = {agent: gymnasium.spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self._seeds: random.Random | None = None
        self._observations = ObservationTracker()
        self._legal: tuple[Game | None, int] = (None, 0)
        self.game: Game = new_game(self.variant, seed=0, **options)
        """The engine's game being played."""
        self._reset_bookkeeping()

    def _reset_bookkeeping(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[0]
        self._truncated = False

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(66)``: the action ids."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode: a new game, its first hand dealt."""
        if seed is not None:
            if type(seed) is not int:
                raise RulesError(f"seed must be a whole number or None; got {brief(seed)}")
            self._seeds = random.Random(seed)
        elif self._seeds is None:
            self._seeds = random.Random()
        game_seed = self._seeds.getrandbits(64)
        self.game = new_game(self.variant, seed=game_seed, **self._options).deal()
        self._reset_bookkeeping()
        self._select()

    def _select(self) -> None:
        seat = self.game._to_act
        if seat >= 0:
            self.agent_selection = AGENTS[seat]

    def _legal_id_bits(self) -> int:
        # Asked by observe() and again by step(): worked out once per game.
        game, bits = self._legal
        if game is not self.game:
            bits = legal_id_bits(self.game)
            self._legal = (self.game, bits)
        return bits

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation vector and legal-action mask."""
        seat = _NUMBER_OF.get(agent) if isinstance(agent, str) else None
        if seat is None:
            seat = int(self.seat_of(agent))  # raises the error naming the agents
        game = self.game
        # An agent that is done and has stepped is no longer in these mappings.
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        if game._to_act == seat and not done:
            mask = _mask_of(self._legal_id_bits())
        else:
            mask = np.zeros(NUM_ACTIONS, np.int8)
        # Kept up to date from the last action (equal to features.observation(game.view(seat))).
        observation = self._observations.observation(game, seat)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """The agent to act takes action id ``action``."""
        agent = self.agent_selection
        if not self.agents:
            raise IllegalActionError(
                IllegalReason.WRONG_PHASE,
                "the episode is over and every agent is done; reset() starts another",
            )
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(
                    IllegalReason.WRONG_PHASE,
                    f"{agent} is done: the only step it takes is step(None); got {brief(action)}",
                )
            self._was_dead_step(action)
            return
        before = self.game
        self._cumulative_rewards[agent] = 0.0
        self.rewards = _NO_REWARDS.copy()
        # A step within a hand keeps the results object; scoring a hand makes a new one.
        finished = before._standing.results
        # Policies hand over numpy integers; anything else goes to the engine as it is.
        chosen = (
            action
            if type(action) is int
            else int(action)
            if isinstance(action, np.integer)
            else action
        )
        if (
            type(chosen) is int
            and 0 <= chosen < NUM_ACTIONS
            and (self._legal_id_bits() >> chosen) & 1
        ):
            game = after_legal_id(before, chosen)  # legal: no second check
        else:
            game = before.apply(action_from_id(before, chosen))  # type: ignore[arg-type]
        if game._standing.results is finished:
            # Within the hand every reward is 0, and adding them changes no total.
            self._observations.stepped(before, game)
            self.game = game
            self.agent_selection = AGENTS[game._to_act]
            return
        # A new results object: the action finished the hand, which is scored.
        points = game.hand_results[-1].points
        for name, seat in _SEAT_OF.items():
            self.rewards[name] = float(points[seat.team])
        if _episode.episode_over(game, 0, self.hands):
            stopped = not game.is_over and self.hands == _episode.WHOLE_GAME
            flags = self.truncations if stopped else self.terminations
            self._truncated = stopped
            for name in AGENTS:
                flags[name] = True
        else:
            game = game.deal()
        self.game = game
        self._select()
        self._accumulate_rewards()

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Any]:
        """The agent to act's observation, cumulative reward, termination,
        truncation and info; once every agent is done and has stepped, the
        end of the episode again (the last agent's final observation, no
        reward), until :meth:`reset`."""
        if self.agents:
            # AECEnv.last, written out: it runs before every step.
            agent = self.agent_selection
            observation = self.observe(agent) if observe else None
            return (
                observation,
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )
        observation = self.observe(self.agent_selection) if observe else None
        return observation, 0.0, not self._truncated, self._truncated, {}

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), or ``None`` with a warning."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called, but the environment has no render_mode")
            return None
        game = self.game
        if game.phase not in (Phase.BID, Phase.PLAY):
            lines = render.table_lines(game.public_view(), _PLAIN)
            if game.hand_results:
                lines += ["", *render.result_lines(game, _PLAIN)]
            return "\n".join(lines)
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        legal = game.legal_cards() if game.phase is Phase.PLAY else None
        lines = [
            *render.table_lines(view, _PLAIN, labels={seat: "to act"}),
            f"{render.seat_name(seat)}'s hand:",
            *render.hand_lines(view.hand(), _PLAIN, legal=legal),
        ]
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""

    def seat_of(self, agent: str) -> Seat:
        """The seat ``agent`` plays."""
        seat = _SEAT_OF.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise RulesError(f"no agent named {brief(agent)}; the agents are {', '.join(AGENTS)}")
        return seat
