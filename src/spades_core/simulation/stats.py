"""The statistics simulations report: means with confidence intervals, Wilson
intervals for win rates, and the value of a bag.

The value of a bag
------------------
A bag (an overtrick, or a trick taken by a Nil bidder under ``bags_only``)
scores +1 point when it is taken, but every ``bag_limit`` bags cost
``bag_penalty`` points. At the margin each bag therefore costs
``bag_penalty / bag_limit`` points, and nets ``1 - bag_penalty / bag_limit``
(−9 with the standard 10 bags and 100 points). The *bag-adjusted* points of
a hand are its points with any bag penalty taken out and every bag taken in
it charged at that rate instead. Single hands from 0–0 never reach a penalty
and full games reach it in lumps; the adjusted figure charges every bag its
real cost, smoothly, in both.

>>> bag_cost(limit=10, penalty=100)
10.0
>>> bag_cost(limit=None, penalty=100)
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

import attrs

# The price of a bag is a rule of the scoring; it is re-exported here, where
# the bag-adjusted statistics use it.
from spades_core.rules.scoring import bag_cost

__all__ = ["Interval", "bag_cost", "mean_interval", "wilson_interval"]

Z95: Final = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


@attrs.frozen
class Interval:
    """An estimate with its 95% interval; ``nan`` where it is undefined (no
    data, or a single value for a mean)."""

    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float | None]:
        """``{"value": …, "low": …, "high": …}`` with ``None`` for ``nan``."""
        return {"value": _json(self.value), "low": _json(self.low), "high": _json(self.high)}


def _json(value: float) -> float | None:
    return None if math.isnan(value) else value


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean and its 95% confidence interval (normal approximation).

    >>> interval = mean_interval([1.0, 2.0, 3.0, 4.0])
    >>> interval.value, round(interval.low, 3), round(interval.high, 3)
    (2.5, 1.235, 3.765)
    """
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, math.nan, math.nan)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half)


def wilson_interval(successes: int, trials: int) -> Interval:
    """The rate ``successes / trials`` with its 95% Wilson score interval.

    >>> rate = wilson_interval(160, 200)
    >>> rate.value, round(rate.low, 3), round(rate.high, 3)
    (0.8, 0.739, 0.85)
    """
    if trials == 0:
        return Interval(math.nan, math.nan, math.nan)
    z2 = Z95 * Z95
    p = successes / trials
    center = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # At 0 and 1 the bound is exactly the rate; rounding must not move it.
    low = 0.0 if successes == 0 else center - half
    high = 1.0 if successes == trials else center + half
    return Interval(p, low, high)
