"""The public path of :mod:`spades_core.game`, where this module's names live.

Code, docs and pickles name ``spades_core.game``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.engine import game as _home
from spades_core.engine.game import *  # noqa: F403
from spades_core.engine.game import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.game`."""
    return getattr(_home, name)
