"""The built-in variants of spades-core: ``classic``, ``mirror`` and ``whiz``.

Each module defines one :class:`spades_core.Variant` and is registered in
spades-core's own ``pyproject.toml`` under the ``spades_core.variants``
entry-point group, the same way a third-party plugin registers its variants.
Load them with :func:`spades_core.load_variant`, not by importing these modules.
"""

from __future__ import annotations

from typing import Final

__all__ = ["BIDS_UP_TO", "MIRROR_FAMILY_DEFAULTS", "NIL_OR", "ONLY", "SHARED_OPTIONS"]

SHARED_OPTIONS: Final = (
    "target_score",
    "loss_floor",
    "nil_value",
    "nil_tricks",
    "double_nil",
    "bag_limit",
    "bag_penalty",
    "bag_overflow",
    "break_rule",
    "first_lead",
)
"""The options every built-in variant supports."""

MIRROR_FAMILY_DEFAULTS: Final[dict[str, object]] = {
    "target_score": 500,
    "loss_floor": None,
    "nil_value": 100,
    "nil_tricks": "bags_only",
    "double_nil": "independent",
    "bag_limit": 10,
    "bag_penalty": 100,
    "bag_overflow": "carry",
    "break_rule": "any_spade",
    "first_lead": "left_of_dealer",
}
"""Defaults shared by Mirror and Whiz (docs/rules.md, Mirror and Whiz)."""

# The answers of the built-in legal_bids hooks, built once: the engine checks a
# bid list the first time it sees that tuple object, so sharing them saves the
# check on every later bid.
BIDS_UP_TO: Final = tuple(tuple(range(highest + 1)) for highest in range(14))
"""``BIDS_UP_TO[n]`` is every bid from Nil to ``n``."""
ONLY: Final = tuple((bid,) for bid in range(14))
"""``ONLY[n]`` is the single bid ``n``."""
NIL_OR: Final = ((0,), *((0, bid) for bid in range(1, 14)))
"""``NIL_OR[n]`` is Nil or ``n`` (only Nil when ``n`` is 0)."""
