"""The testing kit for variant authors (needs ``pip install spades-core[testing]``).

Everything spades-core uses to test its own variants, for plugin authors to
test theirs:

* :mod:`spades_core.testing.strategies` — Hypothesis strategies for cards,
  card sets, complete deals, option sets valid for a variant, reachable games
  at any phase and legal action sequences;
* :class:`VariantMachine` — a Hypothesis state machine that plays a variant
  and checks every invariant after every step; subclass it, set ``variant``,
  and add rules of your own;
* :func:`check_variant` — the conformance suite every variant must pass,
  which fails with a :class:`ConformanceError` naming the check and a seed
  that reproduces the failure;
* :func:`check_array_forms` — the twin check: a variant's array forms (its
  rules on arrays, for :mod:`spades_core.batch`) agree with its hooks, on
  random inputs and in whole hands and games (needs numpy, the ``batch``
  extra);
* :mod:`spades_core.testing.pytest_plugin` — opt-in pytest fixtures
  parametrized over the installed variants (``-p spades_core.testing.pytest_plugin``).

``import spades_core`` never imports this package, and Hypothesis and pytest
are not dependencies of spades-core itself: they come with the ``testing``
extra. Without Hypothesis, importing this package raises
:class:`MissingTestingExtraError` (an :class:`ImportError`).

>>> from spades_core.testing import check_variant
>>> check_variant("mirror", max_examples=2, hands=1, combinations=False)
"""

from __future__ import annotations


class MissingTestingExtraError(ImportError):
    """The testing kit's optional dependencies are not installed."""


try:
    import hypothesis  # noqa: F401
except ImportError as _missing:
    raise MissingTestingExtraError(
        "spades_core.testing needs Hypothesis (and its pytest plugin needs pytest); "
        "install them with: pip install spades-core[testing]",
        name=_missing.name,
    ) from _missing

# Imported after the check above, so a missing extra gives the message above.
from spades_core.testing._array_checks import check_array_forms  # noqa: E402
from spades_core.testing.conformance import (  # noqa: E402
    CHECKS,
    ConformanceError,
    check_game,
    check_illegal_actions,
    check_record,
    check_variant,
    check_views,
)
from spades_core.testing.machine import VariantMachine  # noqa: E402

__all__ = [
    "CHECKS",
    "ConformanceError",
    "MissingTestingExtraError",
    "VariantMachine",
    "check_array_forms",
    "check_game",
    "check_illegal_actions",
    "check_record",
    "check_variant",
    "check_views",
]
