"""The 95% intervals of means use Student's t, so few deals do not give too narrow an interval."""

from __future__ import annotations

import itertools
import math

import pytest

import spades_core as sc
from spades_core.simulation.stats import Z95, mean_interval, t_critical

# Two-sided 95% critical values (the 0.975 quantile) of Student's t, from
# published tables, including degrees of freedom between the tabled rows.
KNOWN_T = {
    1: 12.7062,
    2: 4.3027,
    4: 2.7764,
    9: 2.2622,
    14: 2.1448,
    19: 2.0930,
    25: 2.0595,
    35: 2.0301,
    45: 2.0141,
    70: 1.9944,
    150: 1.9759,
    300: 1.9679,
    2000: 1.9612,
}


@pytest.mark.parametrize(("degrees", "expected"), sorted(KNOWN_T.items()))
def test_t_critical_matches_the_published_quantiles(degrees: int, expected: float) -> None:
    assert t_critical(degrees) == pytest.approx(expected, abs=2e-4)


def test_t_critical_falls_to_the_normal_quantile() -> None:
    values = [t_critical(degrees) for degrees in range(1, 5000)]
    assert all(a > b for a, b in itertools.pairwise(values))
    assert t_critical(10**9) == pytest.approx(Z95, abs=1e-6)
    assert all(value > Z95 for value in values)


def test_t_critical_needs_a_whole_number_of_degrees_of_freedom() -> None:
    with pytest.raises(sc.RulesError, match="degrees must be a whole number ≥ 1"):
        t_critical(0)
    with pytest.raises(sc.ArgumentTypeError, match="degrees must be a whole number"):
        t_critical(2.5)  # type: ignore[arg-type]


def test_a_mean_over_ten_deals_gets_the_t_interval() -> None:
    values = [float(v) for v in (3, -1, 4, 1, -5, 9, 2, -6, 5, 3)]
    interval = mean_interval(values)
    mean = sum(values) / 10
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / 9)
    half = 2.2622 * sd / math.sqrt(10)
    assert interval.value == pytest.approx(mean)
    assert interval.low == pytest.approx(mean - half, abs=1e-3)
    assert interval.high == pytest.approx(mean + half, abs=1e-3)
    # The normal approximation's interval would be about 13% narrower.
    assert (interval.high - interval.low) / (2 * Z95 * sd / math.sqrt(10)) == pytest.approx(
        2.2622 / Z95, abs=1e-3
    )
