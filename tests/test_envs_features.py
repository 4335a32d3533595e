"""The observation vector of ``spades_core.envs.features`` (the PettingZoo and
OpenSpiel observation) is the batch engine's, section for section and number
for number, on the same games."""

from __future__ import annotations

import math

import numpy as np
import pytest

import spades_core as sc
from spades_core import batch
from spades_core.engine.encoding import ACTIONS
from spades_core.envs import features

pytestmark = pytest.mark.integration("batch")


def test_the_batch_engine_has_the_one_layout() -> None:
    assert batch.OBSERVATION_SECTIONS is features.OBSERVATION_SECTIONS
    assert features.OBSERVATION_SIZE == batch.OBSERVATION_SIZE == 681
    sizes = [math.prod(shape) for _, shape in features.OBSERVATION_SECTIONS]
    assert sum(sizes) == features.OBSERVATION_SIZE


def test_every_seat_sees_the_same_numbers_as_in_the_batch_engine() -> None:
    for variant in ("classic", "mirror", "whiz"):
        tables = batch.Tables(variant, 3, seed=40, episode="hand")
        games = [sc.new_game(variant, seed=40 + i).deal() for i in range(3)]
        rng = np.random.default_rng(1)
        for _ in range(56):
            for seat in sc.Seat:
                observed = tables.observe(int(seat))
                for i, game in enumerate(games):
                    expected = features.observation(game.view(seat))
                    np.testing.assert_array_equal(observed[i], expected)
            actions = tables.random_actions(rng)
            tables.step(actions)
            games = [game.apply(ACTIONS[a]) for game, a in zip(games, actions, strict=True)]
