"""The public path of :mod:`spades_core.variant`, where this module's names live.

Code, docs and pickles name ``spades_core.variant``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.rules import variant as _home
from spades_core.rules.variant import *  # noqa: F403
from spades_core.rules.variant import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.variant`."""
    return getattr(_home, name)
