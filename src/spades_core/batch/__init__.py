"""Many hands at once, as numpy arrays (the ``spades-core[batch]`` extra).

:func:`play_hands` plays the first hand of a game for every seed of an array and
returns :class:`BatchResult` arrays; deals and dealers are exactly the
engine's for the same seeds, and every option is honoured, scoring
included. :class:`Tables` holds many tables at once for learning agents:
legal masks, observations and ``step(actions)``.

Every variant plays here. A variant's rules reach the batch engine as its
array forms (:class:`ArrayForms`, from :meth:`spades_core.Variant.array_forms`,
the built-in variants' included); a variant without them runs through
:class:`BaseArrayForms`, which calls its hooks row by row. :func:`bid_masks`,
:func:`suit_counts`, :func:`holds` and :func:`partner_bids` help write array
forms; :func:`score_hands` is the standard scoring on arrays, and :func:`mix64` the
seeds' mixing function (:func:`spades_core.rng.mix64`) on arrays.

>>> import numpy as np
>>> from spades_core import batch
>>> result = batch.play_hands("mirror", range(1000), policy="lowest")
>>> result.bids.shape, result.points.shape
((1000, 4), (1000, 2))
>>> bool((result.bids.sum(axis=1) == 13).all())
True
"""

from __future__ import annotations

try:
    import numpy as _numpy  # noqa: F401
except ModuleNotFoundError as error:  # pragma: no cover - the batch extra installs numpy
    raise ModuleNotFoundError(
        "spades_core.batch needs numpy: pip install 'spades-core[batch]'"
    ) from error

from spades_core.batch._deal import mix64
from spades_core.batch._forms import ArrayForms, BaseArrayForms, CheckedForms, array_forms_of
from spades_core.batch._play import DEFAULT_CHUNK, BatchResult, play_hands, play_hands_in_chunks
from spades_core.batch._policies import BUILTIN_POLICIES, Decision, Policy
from spades_core.batch._rules import (
    NO_BID,
    bid_masks,
    holds,
    partner_bids,
    score_hands,
    suit_counts,
)
from spades_core.batch._tables import (
    BIDDING,
    EPISODES,
    MAX_TABLES,
    OBSERVATION_SECTIONS,
    OBSERVATION_SIZE,
    PLAYING,
    Tables,
)
from spades_core.values import deprecation

__all__ = [
    "BIDDING",
    "BUILTIN_POLICIES",
    "DEFAULT_CHUNK",
    "EPISODES",
    "MAX_TABLES",
    "NO_BID",
    "OBSERVATION_SECTIONS",
    "OBSERVATION_SIZE",
    "PLAYING",
    "ArrayForms",
    "BaseArrayForms",
    "BatchResult",
    "CheckedForms",
    "Decision",
    "Policy",
    "Tables",
    "array_forms_of",
    "bid_masks",
    "holds",
    "mix64",
    "partner_bids",
    "play_hands",
    "play_hands_in_chunks",
    "score_hands",
    "suit_counts",
]


__getattr__ = deprecation.OldNames(
    "spades_core.batch",
    {
        "play": (play_hands, "spades_core.batch.play_hands"),
        "play_chunks": (play_hands_in_chunks, "spades_core.batch.play_hands_in_chunks"),
    },
).attribute
