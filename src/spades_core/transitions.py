"""The public path of :mod:`spades_core.transitions`, where this module's names live.

Code, docs and pickles name ``spades_core.transitions``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.engine import transitions as _home
from spades_core.engine.transitions import *  # noqa: F403
from spades_core.engine.transitions import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.transitions`."""
    return getattr(_home, name)
