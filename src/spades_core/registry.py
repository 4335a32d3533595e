"""The public path of :mod:`spades_core.registry`, where this module's names live.

Code, docs and pickles name ``spades_core.registry``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.rules import registry as _home
from spades_core.rules.registry import *  # noqa: F403
from spades_core.rules.registry import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.registry`."""
    return getattr(_home, name)
