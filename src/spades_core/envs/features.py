"""The public path of :mod:`spades_core.batch.features`, where this module's
names live: the feature vectors the environments give a learning agent.

The vectors are filled with the batch engine (both fill them from views), and
code and docs name them here too; every name of that module is served here.
"""

from typing import Any

from spades_core.batch import features as _home
from spades_core.batch.features import *  # noqa: F403
from spades_core.batch.features import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.batch.features`."""
    return getattr(_home, name)
