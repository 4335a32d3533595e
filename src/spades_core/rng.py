"""The public path of :mod:`spades_core.rng`, where this module's names live.

Code, docs and pickles name ``spades_core.rng``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.rules import rng as _home
from spades_core.rules.rng import *  # noqa: F403
from spades_core.rules.rng import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.rng`."""
    return getattr(_home, name)
