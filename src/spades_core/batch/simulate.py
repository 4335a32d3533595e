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

from spades_core.values.errors import RulesError

from ._deal import mix64
from ._play import play_hands_in_chunks

if TYPE_CHECKING:
    from spades_core.simulation.work import ItemResult, Match

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


def simulate_hands(match: Match, count: int) -> list[ItemResult]:
    """Items ``0 … count-1`` of ``match``, in index order, played by the batch engine.

    Raises :class:`~spades_core.RulesError` for what the batch engine does
    not simulate: full games, duplicate deals, or players other than
    :data:`LEVELS` without options.
    """
    from spades_core import load_variant
    from spades_core.simulation.work import DEAL_PURPOSE, ItemResult, score_without_penalty
    from spades_core.values.seats import SeatMap

    if match.mode != "hands" or match.duplicate:
        raise RulesError(
            "the batch engine plays single hands (--hands) without --duplicate; "
            "use --engine engine for games or duplicate deals"
        )
    levels = [str(match.first), str(match.second)]
    for level in levels:
        if level not in LEVELS:
            raise RulesError(
                f"the batch engine plays the levels {', '.join(LEVELS)}; got {level!r}"
            )
    seeds = derived_seeds(match.seed, DEAL_PURPOSE, count)
    policy = [levels[0], levels[1], levels[0], levels[1]]
    options: dict[str, Any] = dict(match.options)
    variant = load_variant(match.variant)
    rules = variant.rules(**options)
    results: list[ItemResult] = []
    for part in play_hands_in_chunks(
        match.variant, seeds, policy=policy, rng=match.seed, **options
    ):
        rows = zip(part.points.tolist(), part.bids.tolist(), part.tricks.tolist(), strict=True)
        for points, bids, tricks in rows:
            base, taken = score_without_penalty(
                variant, rules, SeatMap(tuple(bids)), SeatMap(tuple(tricks))
            )
            results.append(
                ItemResult(
                    (points[0], points[1]),
                    (base.values_[0], base.values_[1]),
                    (taken.values_[0], taken.values_[1]),
                    1,
                )
            )
    return results
