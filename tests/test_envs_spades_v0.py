"""PettingZoo's versioned import path, spades_core.envs.spades_v0: the same
environment as spades_core.envs.pettingzoo, passing PettingZoo's API test."""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test

from spades_core.envs import pettingzoo, spades_v0

pytestmark = pytest.mark.integration("pettingzoo")


def test_the_versioned_module_is_the_pettingzoo_environment() -> None:
    assert spades_v0.env is pettingzoo.env
    assert spades_v0.raw_env is pettingzoo.raw_env
    assert spades_v0.AGENTS == pettingzoo.AGENTS
    assert set(spades_v0.__all__) == {"AGENTS", "env", "raw_env"}


@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:We recommend agents to be named:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)
def test_the_versioned_environment_passes_pettingzoos_api_test() -> None:
    table = spades_v0.env(variant="mirror", target_score=150)
    api_test(table, num_cycles=60)
    assert table.unwrapped.metadata["name"] == "spades_core_v0"
