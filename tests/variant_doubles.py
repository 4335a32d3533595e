"""Variants that are not installed, for tests: a class of the test's choosing
with classic's options and defaults."""

from __future__ import annotations

import spades_core as sc
from spades_variants.classic import ClassicVariant


def like_classic(cls: type[ClassicVariant], variant_id: str) -> sc.Variant:
    """An uninstalled ``cls`` variant named ``variant_id``, with the options and
    defaults of classic."""
    classic = sc.load_variant("classic")
    return cls(
        id=variant_id,
        title=variant_id.replace("-", " ").capitalize(),
        options=classic.defaults,
    )
