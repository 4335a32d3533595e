"""``spades simulate --engine batch``: the simulation's single hands played
by the batch engine.

Hand ``i`` gets the same seed as on the engine path (derived from
``(--seed, i)``), so both engines deal the same cards; the levels map to
batch policies (``random`` and ``easy``, which plays exactly as the easy bot).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from spades_core.errors import RulesError

from ._deal import mix64
from ._play import play_chunks

if TYPE_CHECKING:
    from spades_core.cli.simulate import ItemResult, SimulationConfig

__all__ = ["LEVELS", "derived_seeds", "simulate_hands"]

LEVELS: Final = ("random", "easy")
"""The bot levels the batch engine plays."""
_GAMMA: Final = np.uint64(0x9E3779B97F4A7C15)


def derived_seeds(seed: int, purpose: int, count: int) -> npt.NDArray[np.uint64]:
    """``SeedStream(seed, purpose, i).next64()`` for ``i`` in ``range(count)``."""
    keyed = mix64(np.array([seed], dtype=np.uint64))[0]
    index = np.arange(count, dtype=np.uint64) + np.uint64(purpose << 32)
    state = mix64(keyed ^ index) + _GAMMA
    return mix64(state)


def simulate_hands(config: SimulationConfig) -> list[ItemResult]:
    """Every hand's result, in index order, played by the batch engine.

    Raises :class:`~spades_core.RulesError` for what the batch engine does
    not simulate: full games, duplicate deals, or levels other than
    :data:`LEVELS`.
    """
    from spades_core.cli.simulate import DEAL_PURPOSE, ItemResult

    if config.mode != "hands" or config.duplicate:
        raise RulesError(
            "the batch engine plays single hands (--hands) without --duplicate; "
            "use --engine engine for games or duplicate deals"
        )
    for level in (config.ns, config.ew):
        if level not in LEVELS:
            raise RulesError(
                f"the batch engine plays the levels {', '.join(LEVELS)}; got {level!r}"
            )
    seeds = derived_seeds(config.seed, DEAL_PURPOSE, config.count)
    policy = [config.ns, config.ew, config.ns, config.ew]
    options: dict[str, Any] = dict(config.options)
    results: list[ItemResult] = []
    for part in play_chunks(config.variant, seeds, policy=policy, rng=config.seed, **options):
        for points, bags in zip(part.points.tolist(), part.bags.tolist(), strict=True):
            results.append(ItemResult((points[0], points[1]), (bags[0], bags[1]), 1))
    return results
