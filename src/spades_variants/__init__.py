"""The built-in variants of spades-core: ``classic``, ``mirror`` and ``whiz``.

Each module defines one :class:`spades_core.Variant` and is registered in
spades-core's own ``pyproject.toml`` under the ``spades_core.variants``
entry-point group, the same way a third-party plugin registers its variants.
Load them with :func:`spades_core.load_variant`, not by importing these modules.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MIRROR_FAMILY_OPTIONS"]

MIRROR_FAMILY_OPTIONS: Final[dict[str, object]] = {
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
"""The options of Mirror and Whiz and their defaults: no loss floor, a Nil
bidder's tricks count only as bags, and any earlier spade breaks spades."""
