"""The built-in variants of spades-core: ``classic``, ``mirror`` and ``whiz``.

Each module defines one :class:`spades_core.Variant` and is registered in
spades-core's own ``pyproject.toml`` under the ``spades_core.variants``
entry-point group, the same way a third-party plugin registers its variants.
Load them with :func:`spades_core.load_variant`, not by importing these modules.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MIRROR_FAMILY_DEFAULTS", "SHARED_OPTIONS"]

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
"""Defaults shared by Mirror and Whiz (RULES.md section 2.2)."""
