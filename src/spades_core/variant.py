"""The public path of :mod:`spades_core.variant`, where this module's names live.

Code, docs and pickles name ``spades_core.variant``; every name of the module
below is served here, its private helpers included.
"""

from typing import Any

from spades_core.rules import variant as _home
from spades_core.rules.hooks import (
    checked_explain_bids,
    checked_game_end,
    checked_game_outcome,
    checked_revealed_spade_counts,
    checked_score_hand,
    checked_score_items,
)
from spades_core.rules.variant import *  # noqa: F403
from spades_core.rules.variant import __all__ as _variant_names

__all__ = [
    *_variant_names,
    "checked_explain_bids",
    "checked_game_end",
    "checked_game_outcome",
    "checked_revealed_spade_counts",
    "checked_score_hand",
    "checked_score_items",
]


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`spades_core.variant`."""
    return getattr(_home, name)
