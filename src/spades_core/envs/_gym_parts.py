"""What the Gymnasium environments of :mod:`spades_core.envs.gymnasium` share:
their spaces, masks, the checked setup of their keywords and
:class:`ArrayPolicy`."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

import attrs
import gymnasium
import numpy as np
import numpy.typing as npt

from spades_core import batch, scoring
from spades_core.batch import features
from spades_core.cli import render
from spades_core.engine.encoding import NUM_ACTIONS
from spades_core.engine.game import Game, Phase
from spades_core.envs._learner import (
    ILLEGAL_POLICIES,
    REWARDS,
    learner_seats,
    one_of,
)
from spades_core.rules.registry import load_variant
from spades_core.rules.variant import Variant
from spades_core.values.errors import (
    ArgumentTypeError,
    IllegalActionError,
    IllegalReason,
    RulesError,
    brief,
)

Vector = npt.NDArray[np.float32]
"""One observation, or one per table."""

__all__ = [
    "IN_HAND",
    "MASK_BYTES",
    "PLAIN",
    "ArrayPolicy",
    "Chooser",
    "Setup",
    "Vector",
    "action_id_of",
    "checked_illegal_reward",
    "mask_of",
    "observation_space",
]

PLAIN: Final = render.Style(colour=False)
MASK_BYTES: Final = (NUM_ACTIONS + 7) // 8
IN_HAND: Final = (Phase.BID, Phase.PLAY)


def observation_space() -> gymnasium.spaces.Box:
    return gymnasium.spaces.Box(
        low=features.OBSERVATION_LOW, high=features.OBSERVATION_HIGH, dtype=np.float32
    )


def mask_of(bits: int) -> npt.NDArray[np.int8]:
    # Bit n of the id mask is flag n: numpy unpacks the int's bytes, lowest bit first.
    packed = np.frombuffer(bits.to_bytes(MASK_BYTES, "little"), np.uint8)
    return np.unpackbits(packed, count=NUM_ACTIONS, bitorder="little").view(np.int8)


def action_id_of(action: object) -> int:
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


def checked_illegal_reward(value: object) -> float:
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


class Setup:
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
        self.illegal_reward = checked_illegal_reward(illegal_reward)
        self.bag_cost = scoring.bag_cost(self.rules.bag_limit, self.rules.bag_penalty)


# -- the single environment -----------------------------------------------------------


Chooser = Callable[[Game, int], object]
