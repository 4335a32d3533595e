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
from spades_core.values import checks

__all__ = ["Interval", "bag_cost", "mean_interval", "t_critical", "wilson_interval"]

Z95: Final = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

# Two-sided 95% critical values of Student's t distribution (its 0.975
# quantile) by degrees of freedom, to six decimals; past 30 degrees of freedom
# only some are listed, and t_critical interpolates between them.
_T95: Final[tuple[tuple[int, float], ...]] = (
    (1, 12.706205),
    (2, 4.302653),
    (3, 3.182446),
    (4, 2.776445),
    (5, 2.570582),
    (6, 2.446912),
    (7, 2.364624),
    (8, 2.306004),
    (9, 2.262157),
    (10, 2.228139),
    (11, 2.200985),
    (12, 2.178813),
    (13, 2.160369),
    (14, 2.144787),
    (15, 2.131450),
    (16, 2.119905),
    (17, 2.109816),
    (18, 2.100922),
    (19, 2.093024),
    (20, 2.085963),
    (21, 2.079614),
    (22, 2.073873),
    (23, 2.068658),
    (24, 2.063899),
    (25, 2.059539),
    (26, 2.055529),
    (27, 2.051831),
    (28, 2.048407),
    (29, 2.045230),
    (30, 2.042272),
    (40, 2.021075),
    (50, 2.008559),
    (60, 2.000298),
    (80, 1.990063),
    (100, 1.983972),
    (120, 1.979930),
    (200, 1.971896),
    (500, 1.964720),
    (1000, 1.962339),
)


def t_critical(degrees: int) -> float:
    """The two-sided 95% critical value of Student's t distribution with
    ``degrees`` degrees of freedom (at least 1): 12.706 for one, 2.262 for
    nine, falling to the normal's 1.960 as ``degrees`` grows. Between the
    tabled values it is interpolated linearly in ``1 / degrees``, which is
    within 0.0002 of the exact quantile. Anything but a whole number raises
    :class:`~spades_core.ArgumentTypeError`, one below 1
    :class:`~spades_core.RulesError`.

    >>> round(t_critical(9), 3), round(t_critical(10**9), 3)
    (2.262, 1.96)
    """
    degrees = checks.count(degrees, "t_critical", "degrees", minimum=1)
    lower_df, lower_t = _T95[0]
    for tabled, value in _T95:
        if tabled == degrees:
            return value
        if tabled > degrees:
            return _between(degrees, lower_df, lower_t, tabled, value)
        lower_df, lower_t = tabled, value
    # Past the table, towards the normal quantile at 1 / degrees = 0.
    where = (1 / degrees) / (1 / lower_df)
    return Z95 + (lower_t - Z95) * where


def _between(degrees: int, low_df: int, low_t: float, high_df: int, high_t: float) -> float:
    where = (1 / degrees - 1 / high_df) / (1 / low_df - 1 / high_df)
    return high_t + (low_t - high_t) * where


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
    """The mean and its 95% confidence interval, from Student's t
    distribution with ``len(values) - 1`` degrees of freedom
    (:func:`t_critical`): over the 10 to 20 duplicate deals of a quick
    comparison the normal approximation's 1.96 would draw it 6 to 13% too
    narrow.

    >>> interval = mean_interval([1.0, 2.0, 3.0, 4.0])
    >>> interval.value, round(interval.low, 3), round(interval.high, 3)
    (2.5, 0.446, 4.554)
    """
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, math.nan, math.nan)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_critical(n - 1) * math.sqrt(variance / n)
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
