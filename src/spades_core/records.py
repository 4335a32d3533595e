"""The public path of :mod:`spades_core.records`, where this module's names live.

Code, docs and pickles name ``spades_core.records``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.engine import records as _home
from spades_core.engine.records import *  # noqa: F403
from spades_core.engine.records import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.records`."""
    return getattr(_home, name)
