"""The public path of :mod:`spades_core.playouts`, where this module's names live.

Code, docs and pickles name ``spades_core.playouts``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.engine import playouts as _home
from spades_core.engine.playouts import *  # noqa: F403
from spades_core.engine.playouts import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.playouts`."""
    return getattr(_home, name)
