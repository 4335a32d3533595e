"""The public path of :mod:`spades_core.scoring`, where this module's names live.

Code, docs and pickles name ``spades_core.scoring``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.rules import scoring as _home
from spades_core.rules.hooks import score_breakdown
from spades_core.rules.scoring import *  # noqa: F403
from spades_core.rules.scoring import __all__ as _scoring_names

__all__ = [*_scoring_names, "score_breakdown"]


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.scoring`."""
    return getattr(_home, name)
