"""The public path of :mod:`spades_core.results`, where this module's names live.

Code, docs and pickles name ``spades_core.results``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.rules import results as _home
from spades_core.rules.results import *  # noqa: F403
from spades_core.rules.results import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.results`."""
    return getattr(_home, name)
