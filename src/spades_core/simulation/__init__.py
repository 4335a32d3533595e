"""Simulations and tournaments between players, on this machine or on Ray.

:func:`simulate` plays one player against another over many seeded deals or
games and returns a :class:`SimulationResult`, the numbers ``spades simulate
--json`` prints; :func:`tournament` plays a round robin among several players
and returns a :class:`TournamentResult` (``spades tournament``). Both split
the work by deal index into tasks that run on a backend — this process or a
local process pool (``"local"``, the default) or a Ray cluster (``"ray"``,
extra ``spades-core[ray]``) — and give the same result for the same seed on
every backend, for any number of workers and any task size.

The headline figure is the *bag-adjusted* difference in points per hand: each
bag is charged its real cost, ``bag_penalty / bag_limit`` points, so a bag
nets ``1 - bag_penalty / bag_limit`` (see :mod:`spades_core.simulation.stats`).
"""

from __future__ import annotations

from spades_core.simulation.backends import BackendError, SimulationError
from spades_core.simulation.core import (
    DEFAULT_HAND_LIMIT,
    DEFAULT_HANDS,
    GamesResult,
    RunResult,
    SideResult,
    SimulationResult,
    default_workers,
    simulate,
)
from spades_core.simulation.journal import JournalError
from spades_core.simulation.progress import Progress
from spades_core.simulation.roundrobin import TournamentResult, tournament
from spades_core.simulation.stats import Interval
from spades_core.values import deprecation

__all__ = [
    "DEFAULT_HANDS",
    "DEFAULT_HAND_LIMIT",
    "BackendError",
    "GamesResult",
    "Interval",
    "JournalError",
    "Progress",
    "RunResult",
    "SideResult",
    "SimulationError",
    "SimulationResult",
    "TournamentResult",
    "default_workers",
    "simulate",
    "tournament",
]


__getattr__ = deprecation.OldNames(
    "spades_core.simulation",
    {"DEFAULT_MAX_HANDS": (DEFAULT_HAND_LIMIT, "spades_core.simulation.DEFAULT_HAND_LIMIT")},
).attribute
