"""The public path of :mod:`spades_core.seats`, where this module's names live.

Code, docs and pickles name ``spades_core.seats``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.values import seats as _home
from spades_core.values.seats import *  # noqa: F403
from spades_core.values.seats import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.seats`."""
    return getattr(_home, name)
