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
  (``"random"``, ``"lowest"``, ``"easy"``, ``"normal"``, or a function of a
  :class:`~spades_core.batch.Decision`, see :mod:`spades_core.batch`).
  ``"random"`` (the default) and ``"easy"`` are both: the easy bot and the
  easy batch policy choose alike, card for card; so is an
  :class:`ArrayPolicy`, a function of the observations and masks of its
  seat (a frozen copy of the learner, for self-play). ``"normal"`` is both
  but not alike: the normal batch policy bids as the normal bot does and
  plays its cards by rules of its own.
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
* ``illegal`` — an action id of the action space that is not legal now:
  ``"penalize"`` (the default) pays ``illegal_reward`` (default -1) and
  changes nothing else: the same seat is to act again, with the same
  observation; ``"raise"`` raises the engine's
  :class:`~spades_core.IllegalActionError`, its ``reason`` the rule broken,
  and changes nothing (for debugging an agent that should never choose
  one). Every id of ``Discrete(66)`` is thus a valid input to ``step``, as
  Gymnasium's API asks of an action space, and ``check_env``, which steps
  with ids sampled from the whole space, passes in the default
  configuration. An id outside 0-65 or a value that is not a whole number
  raises under both (``NOT_AN_ACTION``).

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
the finished game's, seen from the learner's seat (its first for a team):
:func:`~spades_core.envs.features.observation` of that view once the last
hand is scored (waiting for the next deal, or the game over: no cards in
hand, the scores after the hand). Its mask has no legal action: nobody acts
at a finished table.

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
(declared in ``metadata["autoreset_mode"]``): the step that ends a table's
episode returns its final observation (as above), and the step after it
ignores the table's action and returns the first observation of its next
episode, with reward 0, as Gymnasium 1.x's ``NEXT_STEP`` mode has it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt

from spades_core import bots
from spades_core.batch import features
from spades_core.cli import render
from spades_core.engine.encoding import NUM_ACTIONS, action_from_id, after_legal_id, legal_id_bits
from spades_core.engine.game import Game, Phase, new_game
from spades_core.envs._gym_parts import (
    IN_HAND,
    PLAIN,
    ArrayPolicy,
    Chooser,
    Setup,
    Vector,
    action_id_of,
    mask_of,
    observation_space,
)
from spades_core.envs._learner import (
    check_base_seed,
    episode_seed,
    player_seed,
    seats_of_others,
)
from spades_core.envs._tracking import ObservationTracker
from spades_core.envs.gymnasium_vector import SpadesVectorEnv
from spades_core.players import PlayerSpec, make_player, parse_player
from spades_core.rules.rng import MAX_SEED
from spades_core.rules.variant import Variant
from spades_core.simulation.work import score_without_penalty
from spades_core.values.errors import (
    ArgumentTypeError,
    IllegalActionError,
    IllegalReason,
    RulesError,
    brief,
)
from spades_core.values.seats import Seat, Team

__all__ = ["ENV_ID", "ArrayPolicy", "SpadesEnv", "SpadesVectorEnv", "register"]

ENV_ID: Final = "spades_core/Spades-v0"
"""The id this module registers with Gymnasium."""


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
        illegal: str = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self._setup = Setup(variant, seat, reward, episode, illegal, illegal_reward, options)
        if render_mode not in (None, "ansi"):
            raise RulesError(f"render_mode must be None or 'ansi'; got {brief(render_mode)}")
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self._opponents = tuple(
            None if item is None else _player_source(item, self._observe)
            for item in seats_of_others(opponents, self._setup.learner, "player")
        )
        self._learner_at = tuple(seat in self._setup.learner for seat in range(4))
        self._base: int | None = None
        self._episode = 0
        self._players: tuple[Chooser | None, ...] = (None,) * 4
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
        chosen = action_id_of(action)
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
        lines = render.table_lines(view, PLAIN, labels={seat: "learner"})
        if game.phase in IN_HAND:
            legal = game.legal_cards() if game.phase is Phase.PLAY and not self._over else None
            lines += [f"{render.seat_name(seat)}'s hand:"]
            lines += render.hand_lines(view.hand(), PLAIN, legal=legal)
        elif game.hand_results:
            lines += ["", *render.result_lines(game, PLAIN)]
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
            if game.phase in IN_HAND:
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
        return mask_of(self._bits)

    def _observe(self, game: Game, seat: int) -> Vector:
        # The tracker has followed every action of the episode up to game.
        return self._tracker.observation(game, seat)

    def _observation(self) -> Vector:
        game = self._game
        if game is None:
            return np.zeros(features.OBSERVATION_SIZE, np.float32)
        if self._over:
            # The finished game as the learner's (first) seat sees it; nobody acts there.
            return features.observation(game.view(Seat(self._setup.learner[0])))
        seat = game.to_act
        assert seat is not None
        return self._tracker.observation(game, int(seat))

    def _info(self) -> dict[str, Any]:
        # A numpy integer: Gymnasium's vectorizers gather it into a uint64 array.
        return {"action_mask": self._mask(), "seed": np.uint64(self._game_seed)}


def _player_source(
    item: object, observe: Callable[[Game, int], Vector]
) -> Callable[[int], Chooser]:
    """What builds the player of one seat for an episode, from its seed;
    ``observe`` gives a seat's observation (for an :class:`ArrayPolicy`)."""
    if isinstance(item, ArrayPolicy):
        fixed = _on_arrays(item, observe)
    elif isinstance(item, str | PlayerSpec):
        spec = parse_player(item)
        make_player(spec, seed=0)  # an unknown name or a refused option fails here

        def from_spec(seed: int) -> Chooser:
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

    def same(seed: int) -> Chooser:
        return fixed

    return same


def _on_arrays(policy: ArrayPolicy, observe: Callable[[Game, int], Vector]) -> Chooser:
    def choose(game: Game, seat: int) -> object:
        observation = observe(game, seat)[None, :]
        answer = np.asarray(policy.function(observation, mask_of(legal_id_bits(game))[None, :]))
        if answer.shape != (1,) or answer.dtype.kind not in "iu":
            raise IllegalActionError(
                IllegalReason.NOT_AN_ACTION,
                f"an ArrayPolicy must return one whole-number action id per table; "
                f"got {brief(answer)}",
            )
        return action_from_id(game, int(answer[0]))

    return choose


def _asking(player: Any) -> Chooser:
    def choose(game: Game, seat: int) -> object:
        return bots.ask(player, game, Seat(seat))

    return choose


def _by_view(function: Callable[[Any], object]) -> Chooser:
    def choose(game: Game, seat: int) -> object:
        return function(game.view(Seat(seat)))

    return choose


# -- the vector environment -----------------------------------------------------------


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (importing this module does)."""
    gymnasium.register(
        id=ENV_ID,
        entry_point=f"{__name__}:SpadesEnv",
        vector_entry_point=f"{__name__}:SpadesVectorEnv",
    )


register()
