"""The public path of :mod:`spades_core.options`, where this module's names live.

Code, docs and pickles name ``spades_core.options``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.values import options as _home
from spades_core.values.options import *  # noqa: F403
from spades_core.values.options import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.options`."""
    return getattr(_home, name)
