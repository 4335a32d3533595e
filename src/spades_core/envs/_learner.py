"""What the Gymnasium environments share: who learns, what the other seats
are, what an episode pays, and where each episode's seed comes from.

Both :class:`~spades_core.envs.gymnasium.SpadesEnv` and
:class:`~spades_core.envs.gymnasium.SpadesVectorEnv` read their arguments
here, so that one table of the vector environment and a single environment
seeded alike play the same deals and pay the same rewards.

Seeds: an environment reset with seed ``s`` plays episode 0 from the game of
seed ``s`` (``sc.new_game(variant, seed=s)``) and episode ``k`` from
:func:`episode_seed` ``(s, k)``; the vector environment's table ``i``
does the same from ``s + i``, as Gymnasium's own vectorizers seed their
sub-environments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from spades_core.batch import mix64
from spades_core.rules.rng import MAX_SEED, SeedStream
from spades_core.values import checks
from spades_core.values.errors import ArgumentTypeError, InvalidNotationError, RulesError, brief
from spades_core.values.seats import Seat, Team

__all__ = [
    "ILLEGAL_POLICIES",
    "REWARDS",
    "check_base_seed",
    "episode_seed",
    "episode_seeds",
    "learner_seats",
    "one_of",
    "player_seed",
    "seats_of_others",
]

REWARDS: Final = ("points", "margin", "adjusted", "win")
"""The reward kinds (see the module docs of :mod:`spades_core.envs.gymnasium`)."""
ILLEGAL_POLICIES: Final = ("raise", "penalize")
"""What an illegal action does: raise the engine's error, or cost a penalty."""

# Purposes of the seed streams, apart from the engine's own (dealer 1, deck 2).
_EPISODE_PURPOSE: Final = 0x67_79_6D_01
_PLAYER_PURPOSE: Final = 0x67_79_6D_02


def episode_seed(base: int, episode: int) -> int:
    """The game seed of episode ``episode`` (0, 1, …) of an environment reset
    with seed ``base``: ``base`` itself for the first, then a SplitMix64 draw
    keyed by both."""
    if episode == 0:
        return base
    return SeedStream(base, _EPISODE_PURPOSE, episode).next64()


_EPISODE_KEY: Final = np.uint64(_EPISODE_PURPOSE << 32)
_GAMMA: Final = np.uint64(0x9E3779B97F4A7C15)


def episode_seeds(
    bases: npt.NDArray[np.uint64], episodes: npt.NDArray[np.int64]
) -> npt.NDArray[np.uint64]:
    """:func:`episode_seed` of every pair of ``bases`` and ``episodes``: its
    declared twin on arrays (the vector environment's), held to it by a test.
    The stream's first output is ``mix64(start + gamma)`` with ``start`` the
    stream's keyed state, all of it uint64 arithmetic (which wraps as the
    SplitMix64 words do)."""
    start = mix64(mix64(bases) ^ (_EPISODE_KEY + episodes.astype(np.uint64)))
    drawn = mix64(start + _GAMMA)
    return np.where(episodes == 0, bases, drawn)


def player_seed(base: int, episode: int, seat: int) -> int:
    """The seed of the player at ``seat`` in episode ``episode`` of an
    environment reset with seed ``base``."""
    return SeedStream(base, _PLAYER_PURPOSE, 4 * episode + seat).next64()


def check_base_seed(seed: object, call: str, count: int = 1) -> int:
    """``seed`` as the seed of ``count`` environments (seeds ``seed`` to
    ``seed + count - 1``, each at most 2**64-1)."""
    return checks.seed(seed, call, maximum=MAX_SEED - (count - 1))


def one_of(value: object, choices: tuple[str, ...], name: str) -> str:
    """``value`` if it is one of ``choices``: :class:`RulesError` for other
    text, :class:`ArgumentTypeError` for anything else."""
    if isinstance(value, str) and value in choices:
        return value
    shown = ", ".join(map(repr, choices))
    raise (RulesError if isinstance(value, str) else ArgumentTypeError)(
        f"{name} must be one of {shown}; got {brief(value)}"
    )


def learner_seats(value: object) -> tuple[int, ...]:
    """The seat numbers the learner plays: one seat (a :class:`Seat`, or its
    letter or name), or both seats of a team (a :class:`Team`, ``"NS"`` or
    ``"EW"``)."""
    if isinstance(value, Team):
        return (int(value), int(value) + 2)
    if isinstance(value, Seat):
        return (int(value),)
    if not isinstance(value, str):
        raise ArgumentTypeError(
            f"seat must be a seat (Seat.NORTH, 'N', 'north') or a team (Team.NS, 'NS'); "
            f"got {checks.described(value)}"
        )
    try:
        team = Team.parse(value)
    except InvalidNotationError:
        return (int(checks.seat(value, "the learner's seat", "seat")),)
    return (int(team), int(team) + 2)


def seats_of_others(value: object, learner: tuple[int, ...], what: str) -> tuple[object, ...]:
    """The other seats' players by seat number: ``value`` for each seat the
    learner does not play, or, for a sequence of four (N, E, S, W), its
    items, which must be ``None`` exactly at the learner's seats. Entries at
    the learner's seats are ``None``; the items are not checked here."""
    if isinstance(value, Sequence) and not isinstance(value, str):
        if len(value) != 4:
            raise RulesError(
                f"opponents must be one {what} for every other seat or a sequence of four "
                f"(N, E, S, W) with None at the learner's seats; got {brief(value)}"
            )
        for seat, item in enumerate(value):
            if (item is None) != (seat in learner):
                where = "the learner's seat" if seat in learner else "another seat"
                needs = "None" if seat in learner else f"a {what}"
                raise RulesError(
                    f"opponents[{seat}] is {Seat(seat)}, {where}: it must be {needs}; "
                    f"got {brief(item)}"
                )
        return tuple(value)
    if value is None:
        raise ArgumentTypeError(f"opponents must be a {what} or a sequence of four; got None")
    return tuple(None if seat in learner else value for seat in range(4))
