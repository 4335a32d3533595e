"""The public path of :mod:`spades_core.encoding`, where this module's names live.

Code, docs and pickles name ``spades_core.encoding``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.engine import encoding as _home
from spades_core.engine.encoding import *  # noqa: F403
from spades_core.engine.encoding import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.encoding`."""
    return getattr(_home, name)
