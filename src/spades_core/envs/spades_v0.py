"""The PettingZoo environment under a versioned name, as PettingZoo's own
environments are imported (``from pettingzoo.classic import chess_v6``):
``from spades_core.envs import spades_v0``, then ``spades_v0.env(...)`` or
``spades_v0.raw_env(...)`` (extra ``spades-core[pettingzoo]``).

The version is the environment's: it changes when the observations, actions,
rewards or episodes change meaning, and the old name keeps the old behaviour.
The environment itself lives in :mod:`spades_core.envs.pettingzoo`, which
stays importable too; there is no parallel form, since the seats take turns.

>>> from spades_core.envs import spades_v0
>>> table = spades_v0.env(variant="mirror")
>>> table.reset(seed=3)
>>> table.agent_selection
'west'
"""

from __future__ import annotations

from spades_core.envs.pettingzoo import AGENTS, env, raw_env

__all__ = ["AGENTS", "env", "raw_env"]
