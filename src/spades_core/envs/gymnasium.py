"""Every installed variant as a Gymnasium environment (extra ``spades-core[gymnasium]``):
one seat learns, bots play the other three.

Importing this module registers ``spades_core/Spades-v0`` with Gymnasium:

>>> import gymnasium
>>> import spades_core.envs.gymnasium as spades_gym
>>> gymnasium.register_envs(spades_gym)
>>> env = gymnasium.make("spades_core/Spades-v0", variant="mirror", opponents="easy")
>>> observation, info = env.reset(seed=7)
>>> observation.shape, info["action_mask"].shape, env.action_space
((681,), (66,), Discrete(66))
>>> vector = gymnasium.make_vec("spades_core/Spades-v0", num_envs=64)
>>> observations, infos = vector.reset(seed=7)
>>> observations.shape
(64, 681)

``gymnasium.make("spades_core.envs.gymnasium:spades_core/Spades-v0")`` imports
it on the way. :class:`SpadesEnv` is the single environment (the engine's
:class:`~spades_core.Game` underneath, any registered player at the other
seats); :class:`SpadesVectorEnv` steps thousands of tables at once as numpy
arrays (:class:`spades_core.batch.Tables` underneath, batch policies at the
other seats); ``gymnasium.make_vec`` builds it (its ``vector_entry_point``).

Both take the same keywords:

* ``variant`` — an installed variant's id or a :class:`~spades_core.Variant`,
  plugins included; any other keyword is one of its options (house rules).
* ``seat`` — who learns: a seat (``"north"``, ``"N"``, ``Seat.NORTH``) or a
  team (``"NS"``, ``Team.EW``), whose two seats one policy then plays.
* ``opponents`` — who plays the other seats: one for every other seat, or a
  sequence of four (N, E, S, W) with ``None`` at the learner's seats. In
  :class:`SpadesEnv` a registered player's spec (``"normal"``,
  ``"hard:steps=200"``, see :mod:`spades_core.players`), a player object, or
  a callable taking the seat's :class:`~spades_core.views.View` and returning
  an action or an action id; in :class:`SpadesVectorEnv` a batch policy
  (``"random"``, ``"lowest"``, ``"easy"``, or a function of a
  :class:`~spades_core.batch.Decision`, see :mod:`spades_core.batch`).
  ``"random"`` (the default) and ``"easy"`` are both: the easy bot and the
  easy batch policy choose alike, card for card; so is an
  :class:`ArrayPolicy`, a function of the observations and masks of its
  seat (a frozen copy of the learner, for self-play).
* ``episode`` — ``"hand"`` (the default: one hand from 0-0) or ``"game"``
  (a whole game: scores and bags carry over, the deal rotates).
* ``reward`` — what a step pays, from the learner's team's side, summed over
  the hands scored during the step: ``"points"`` (the default), the team's
  points for the hand; ``"margin"``, those minus the other team's;
  ``"adjusted"``, the margin with bags at their cost: each team's points
  without bag penalties, less ``bag_penalty / bag_limit`` a bag taken (the
  bag-adjusted figure :mod:`spades_core.simulation` reports); ``"win"``, +1
  when the game ends won, -1 lost, 0 drawn or not over (``episode="game"``
  only).
* ``illegal`` — an action that is not legal: ``"raise"`` (the default) raises
  the engine's :class:`~spades_core.IllegalActionError`, its ``reason`` the
  rule broken, and changes nothing; ``"penalize"`` pays ``illegal_reward``
  (default -1) and changes nothing else: the same seat is to act again, with
  the same observation. An id outside 0-65 or a value that is not a whole
  number raises under both (``NOT_AN_ACTION``). Gymnasium's ``check_env``
  steps with ids drawn from the whole action space: give it
  ``illegal="penalize"``.

**Observations** are :func:`spades_core.envs.features.observation` of the
learner's seat to act (681 float32 numbers, a ``Box`` from
``features.OBSERVATION_LOW`` to ``OBSERVATION_HIGH``); the legal action ids
are ``info["action_mask"]`` (66 int8 flags, what ``action_space.sample(mask)``
takes) and :meth:`SpadesEnv.action_masks` (booleans, what sb3-contrib's
``MaskablePPO`` reads). **Actions** are ``Discrete(66)``, the ids of
:mod:`spades_core.encoding`. Between two of the learner's decisions the
other seats act, so a step is one of the learner's bids or cards.

**Episodes end** by termination only, when the hand (or the game) is over;
nothing truncates them (Gymnasium's ``TimeLimit``, ``max_episode_steps=`` of
``make``, bounds a whole game's length; the house rule ``max_hands`` ends a
game by the rules). The observation returned with the end of an episode is
all zeros and its mask has no legal action: nobody acts at a finished table.

**Seeding**: ``reset(seed=s)`` plays the game of seed ``s`` — the deals of
``sc.new_game(variant, seed=s)`` — and later episodes games of seeds derived
from ``s`` and their number; the other seats' players are seeded from the
same two (``info["seed"]`` is the episode's game seed). The vector
environment's table ``i`` plays exactly what a single environment reset with
``s + i`` plays, and the same for a list of seeds, one per table: with
deterministic opponents (``"easy"``, ``"lowest"``) the observations, masks,
rewards and ends are equal step by step to Gymnasium's own ``SyncVectorEnv``
of single environments (``make_vec(..., vectorization_mode="sync")``).
Random opponents draw from one generator per vector environment, seeded by
``reset(seed=)`` too, so runs repeat but do not match the single
environments' draws.

**Vector autoreset** is Gymnasium's default, ``AutoresetMode.NEXT_STEP``
(declared in ``metadata["autoreset_mode"]``): the step after a table's
episode ended ignores its action and returns the first observation of its
next episode, with reward 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

import attrs
import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from spades_core import batch, bots, scoring
from spades_core.cli import render
from spades_core.encoding import NUM_ACTIONS, action_from_id, after_legal_id, legal_id_bits
from spades_core.envs import features
from spades_core.envs._learner import (
    ILLEGAL_POLICIES,
    REWARDS,
    check_base_seed,
    episode_seed,
    learner_seats,
    one_of,
    player_seed,
    seats_of_others,
)
from spades_core.envs._tracking import ObservationTracker
from spades_core.errors import (
    ArgumentTypeError,
    IllegalActionError,
    IllegalReason,
    RulesError,
    brief,
)
from spades_core.game import Game, Phase, new_game
from spades_core.players import PlayerSpec, make_player, parse_player
from spades_core.registry import load_variant
from spades_core.rng import MAX_SEED
from spades_core.seats import Seat, Team
from spades_core.simulation.work import score_without_penalty
from spades_core.variant import Variant

__all__ = ["ENV_ID", "ArrayPolicy", "SpadesEnv", "SpadesVectorEnv", "register"]

ENV_ID: Final = "spades_core/Spades-v0"
"""The id this module registers with Gymnasium."""

Vector = npt.NDArray[np.float32]
"""One observation, or one per table."""

_PLAIN: Final = render.Style(colour=False)
_MASK_BYTES: Final = (NUM_ACTIONS + 7) // 8
_IN_HAND: Final = (Phase.BID, Phase.PLAY)


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (importing this module does)."""
    gymnasium.register(
        id=ENV_ID,
        entry_point=f"{__name__}:SpadesEnv",
        vector_entry_point=f"{__name__}:SpadesVectorEnv",
    )


def _observation_space() -> gymnasium.spaces.Box:
    return gymnasium.spaces.Box(
        low=features.OBSERVATION_LOW, high=features.OBSERVATION_HIGH, dtype=np.float32
    )


def _mask_of(bits: int) -> npt.NDArray[np.int8]:
    # Bit n of the id mask is flag n: numpy unpacks the int's bytes, lowest bit first.
    packed = np.frombuffer(bits.to_bytes(_MASK_BYTES, "little"), np.uint8)
    return np.unpackbits(packed, count=NUM_ACTIONS, bitorder="little").view(np.int8)


def _action_id(action: object) -> int:
    """``action`` as an action id: an int or numpy integer in 0-65."""
    if isinstance(action, np.integer | np.ndarray) and np.ndim(action) == 0:
        action = int(action)
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(
            IllegalReason.NOT_AN_ACTION,
            f"an action is an id from 0 to {NUM_ACTIONS - 1} (a card 0-51, a bid 52-65); "
            f"got {brief(action)}",
        )
    return action


def _illegal_reward(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ArgumentTypeError(f"illegal_reward must be a number; got {brief(value)}")
    if not math.isfinite(value):
        raise RulesError(f"illegal_reward must be a finite number; got {brief(value)}")
    return float(value)


@attrs.frozen
class ArrayPolicy:
    """A player for the other seats that sees what the learner would see from
    its seat, in both environments: ``function(observations, masks)`` gets
    the ``(k, 681)`` float32 observations and ``(k, 66)`` int8 masks of the
    ``k`` tables where its seat is to act, and returns ``k`` action ids.

    :class:`SpadesEnv` calls it with ``k = 1``. It suits a frozen copy of the
    learner's own policy (self-play). Its choices are checked: an illegal id
    raises the engine's :class:`~spades_core.IllegalActionError`.
    """

    function: Callable[[Vector, npt.NDArray[np.int8]], npt.ArrayLike]
    """The chooser, on arrays."""


class _Setup:
    """The checked keywords both environments take (see the module docs)."""

    def __init__(
        self,
        variant: object,
        seat: object,
        reward: object,
        episode: object,
        illegal: object,
        illegal_reward: object,
        options: dict[str, Any],
    ) -> None:
        if isinstance(variant, str):
            variant = load_variant(variant)
        if not isinstance(variant, Variant):
            raise ArgumentTypeError(
                f"variant must be an installed variant's id or a Variant; got {brief(variant)}"
            )
        self.variant: Variant = variant
        self.rules = variant.rules(**options)
        self.options = options
        self.learner = learner_seats(seat)
        self.team = self.learner[0] & 1
        self.reward = one_of(reward, REWARDS, "reward")
        self.episode = one_of(episode, batch.EPISODES, "episode")
        if self.reward == "win" and self.episode != "game":
            raise RulesError("reward='win' pays at the end of a game: use it with episode='game'")
        self.illegal = one_of(illegal, ILLEGAL_POLICIES, "illegal")
        self.illegal_reward = _illegal_reward(illegal_reward)
        self.bag_cost = scoring.bag_cost(self.rules.bag_limit, self.rules.bag_penalty)


# -- the single environment -----------------------------------------------------------


_Chooser = Callable[[Game, int], object]


class SpadesEnv(gymnasium.Env[npt.NDArray[Any], np.int64]):
    """One table: the learner's seat (or team) against players at the other
    seats, on the engine's :class:`~spades_core.Game` (see the module docs).

    ``render_mode="ansi"`` makes :meth:`render` return the table as the
    terminal game draws it, seen from the learner's seat.
    """

    # Gymnasium declares metadata an instance attribute and reads it from the
    # class as a plain dict, so it can be neither a ClassVar nor read-only.
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        variant: str | Variant = "classic",
        *,
        seat: object = "north",
        opponents: object = "random",
        reward: str = "points",
        episode: str = "hand",
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self._setup = _Setup(variant, seat, reward, episode, illegal, illegal_reward, options)
        if render_mode not in (None, "ansi"):
            raise RulesError(f"render_mode must be None or 'ansi'; got {brief(render_mode)}")
        self.render_mode = render_mode
        self.observation_space = _observation_space()
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self._opponents = tuple(
            None if item is None else _player_source(item, self._observe)
            for item in seats_of_others(opponents, self._setup.learner, "player")
        )
        self._learner_at = tuple(seat in self._setup.learner for seat in range(4))
        self._base: int | None = None
        self._episode = 0
        self._players: tuple[_Chooser | None, ...] = (None,) * 4
        self._tracker = ObservationTracker()
        self._game: Game | None = None
        self._bits = 0
        self._over = True
        self._game_seed = 0

    @property
    def variant(self) -> Variant:
        """The variant played."""
        return self._setup.variant

    @property
    def learner(self) -> tuple[Seat, ...]:
        """The seats the learner plays."""
        return tuple(Seat(seat) for seat in self._setup.learner)

    @property
    def game(self) -> Game | None:
        """The engine's game being played (``None`` before :meth:`reset`)."""
        return self._game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        """Start an episode: the next game (the game of ``seed`` when given),
        its first hand dealt, played up to the learner's first decision."""
        if options:
            raise RulesError(
                f"reset takes no options (pass variant options to the environment); "
                f"got {brief(options)}"
            )
        if seed is not None:
            seed = check_base_seed(seed, "reset")
        super().reset(seed=seed)
        if seed is not None:
            self._base, self._episode = seed, 0
        elif self._base is None:
            self._base, self._episode = int(self.np_random.integers(MAX_SEED, dtype=np.uint64)), 0
        else:
            self._episode += 1
        base, number = self._base, self._episode
        self._game_seed = episode_seed(base, number)
        self._players = tuple(
            None if source is None else source(player_seed(base, number, seat))
            for seat, source in enumerate(self._opponents)
        )
        setup = self._setup
        game = new_game(setup.variant, seed=self._game_seed, **setup.options).deal()
        self._tracker = ObservationTracker()
        self._game, _reward, self._over = self._advance(game)
        return self._observation(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        """The learner takes action id ``action``; the other seats act until
        the learner's next decision or the end of the episode."""
        game = self._game
        if game is None or self._over:
            raise IllegalActionError(
                IllegalReason.WRONG_PHASE,
                "the episode is over (or not started): reset() starts the next one",
            )
        chosen = _action_id(action)
        if not (self._bits >> chosen) & 1:
            if self._setup.illegal == "raise":
                action_from_id(game, chosen)  # raises the engine's error for this id
            return self._observation(), self._setup.illegal_reward, False, False, self._info()
        after = after_legal_id(game, chosen)
        self._tracker.stepped(game, after)
        self._game, reward, self._over = self._advance(after)
        return self._observation(), reward, self._over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal action ids now, as 66 booleans (none once the episode is over)."""
        return self._mask().astype(np.bool_)

    def render(self) -> str | None:
        """The table as text from the learner's seat (``render_mode="ansi"``),
        or ``None`` with a warning."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called, but the environment has no render_mode")
            return None
        game = self._game
        if game is None:
            return "No game yet: reset() deals the first hand."
        seat = game.to_act
        if seat is None or not self._learner_at[seat]:
            seat = Seat(self._setup.learner[0])
        view = game.view(seat)
        lines = render.table_lines(view, _PLAIN, labels={seat: "learner"})
        if game.phase in _IN_HAND:
            legal = game.legal_cards() if game.phase is Phase.PLAY and not self._over else None
            lines += [f"{render.seat_name(seat)}'s hand:"]
            lines += render.hand_lines(view.hand(), _PLAIN, legal=legal)
        elif game.hand_results:
            lines += ["", *render.result_lines(game, _PLAIN)]
        return "\n".join(lines)

    # -- playing ----------------------------------------------------------------------

    def _advance(self, game: Game) -> tuple[Game, float, bool]:
        """Play the other seats until the learner is to act or the episode
        ends: the game then, the reward earned, and whether it ended."""
        setup = self._setup
        learner_at = self._learner_at
        players = self._players
        reward = 0.0
        while True:
            if game.phase in _IN_HAND:
                seat = game.to_act
                assert seat is not None
                if learner_at[seat]:
                    self._bits = legal_id_bits(game)
                    return game, reward, False
                player = players[seat]
                assert player is not None
                chosen = player(game, seat)
                if isinstance(chosen, np.integer):
                    chosen = int(chosen)
                if type(chosen) is int:
                    chosen = action_from_id(game, chosen)
                after = game.apply(chosen, seat=seat)  # type: ignore[arg-type]
                self._tracker.stepped(game, after)
                game = after
                continue
            # The hand is over and scored.
            reward += self._hand_reward(game)
            if setup.episode == "hand" or game.is_over:
                if setup.reward == "win":
                    winner = game.winner
                    reward += 0.0 if winner is None else 1.0 if winner == setup.team else -1.0
                self._bits = 0
                return game, reward, True
            game = game.deal()

    def _hand_reward(self, game: Game) -> float:
        setup = self._setup
        kind = setup.reward
        if kind == "win":
            return 0.0
        result = game.hand_results[-1]
        own, other = Team(setup.team), Team(1 - setup.team)
        if kind == "points":
            return float(result.points[own])
        if kind == "margin":
            return float(result.points[own] - result.points[other])
        base, taken = score_without_penalty(game.variant, game.rules, result.bids, result.tricks)
        cost = setup.bag_cost
        return float((base[own] - cost * taken[own]) - (base[other] - cost * taken[other]))

    def _mask(self) -> npt.NDArray[np.int8]:
        return _mask_of(self._bits)

    def _observe(self, game: Game, seat: int) -> Vector:
        # The tracker has followed every action of the episode up to game.
        return self._tracker.observation(game, seat)

    def _observation(self) -> Vector:
        game = self._game
        if self._over or game is None:
            return np.zeros(features.OBSERVATION_SIZE, np.float32)
        seat = game.to_act
        assert seat is not None
        return self._tracker.observation(game, int(seat))

    def _info(self) -> dict[str, Any]:
        # A numpy integer: Gymnasium's vectorizers gather it into a uint64 array.
        return {"action_mask": self._mask(), "seed": np.uint64(self._game_seed)}


def _player_source(
    item: object, observe: Callable[[Game, int], Vector]
) -> Callable[[int], _Chooser]:
    """What builds the player of one seat for an episode, from its seed;
    ``observe`` gives a seat's observation (for an :class:`ArrayPolicy`)."""
    if isinstance(item, ArrayPolicy):
        fixed = _on_arrays(item, observe)
    elif isinstance(item, str | PlayerSpec):
        spec = parse_player(item)
        make_player(spec, seed=0)  # an unknown name or a refused option fails here

        def from_spec(seed: int) -> _Chooser:
            return _asking(make_player(spec, seed=seed))

        return from_spec
    elif callable(getattr(item, "choose", None)):
        fixed = _asking(item)
    elif callable(item):
        fixed = _by_view(item)
    else:
        raise ArgumentTypeError(
            "an opponent is a player's spec ('normal', 'hard:steps=200'), a player (with "
            f"choose(view)) or a function of a view; got {brief(item)}"
        )

    def same(seed: int) -> _Chooser:
        return fixed

    return same


def _on_arrays(policy: ArrayPolicy, observe: Callable[[Game, int], Vector]) -> _Chooser:
    def choose(game: Game, seat: int) -> object:
        observation = observe(game, seat)[None, :]
        answer = np.asarray(policy.function(observation, _mask_of(legal_id_bits(game))[None, :]))
        if answer.shape != (1,) or answer.dtype.kind not in "iu":
            raise IllegalActionError(
                IllegalReason.NOT_AN_ACTION,
                f"an ArrayPolicy must return one whole-number action id per table; "
                f"got {brief(answer)}",
            )
        return action_from_id(game, int(answer[0]))

    return choose


def _asking(player: Any) -> _Chooser:
    def choose(game: Game, seat: int) -> object:
        return bots.ask(player, game, Seat(seat))

    return choose


def _by_view(function: Callable[[Any], object]) -> _Chooser:
    def choose(game: Game, seat: int) -> object:
        return function(game.view(Seat(seat)))

    return choose


# -- the vector environment -----------------------------------------------------------


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
        illegal: str = "raise",
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
        self._setup = setup = _Setup(
            variant, seat, reward, episode, illegal, illegal_reward, options
        )
        self.num_envs = n
        self.render_mode = None
        self.single_observation_space = _observation_space()
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
        bases = self._bases
        episodes = self._episodes
        return np.array(
            [episode_seed(int(bases[row]), int(episodes[row])) for row in rows], dtype=np.uint64
        )

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
            # With "random" at every other seat, a uniform legal id drawn for every
            # table at once costs less than asking the policy for the waiting ones.
            chosen = tables.random_actions(self._rng) if uniform else self._choose(waiting)
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
        seeds = self._episode_seeds(rows)
        # info["seed"] names the finished episode's game until the table's next step.
        self._next_seeds[rows] = seeds
        tables.restart(rows, seeds)

    def _observations(self, done: npt.NDArray[np.bool_]) -> Vector:
        tables = self.tables
        observations = tables.observe()
        mask = tables.legal_mask()
        if done.any():
            observations[done] = 0.0
            mask[done] = False
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
                "players, such as 'normal', play in SpadesEnv, or in make_vec(..., "
                "vectorization_mode='sync'))"
            )
        if not isinstance(item, str) and not callable(item):
            raise ArgumentTypeError(
                f"a batch policy is a name or a function of a batch.Decision; got {brief(item)}"
            )


register()
