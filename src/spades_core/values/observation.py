"""The layout of the observation vector the environments and the batch
engine give a learning agent: its sections, their sizes and scales.

:func:`spades_core.envs.features.observation` fills a vector of this layout
from one seat's view (numpy); the batch engine fills the same layout for
many tables at once. The layout itself is plain numbers, stated once here.

>>> OBSERVATION_SIZE, INFORMATION_STATE_SIZE
(681, 3645)
"""

from __future__ import annotations

import math
from types import MappingProxyType
from typing import Final

from spades_core.values.phase import Phase

__all__ = [
    "BAG_CLIP",
    "HISTORY_SECTIONS",
    "INFORMATION_STATE_SIZE",
    "NO_LIMIT_BAGS",
    "OBSERVATION_SECTIONS",
    "OBSERVATION_SIZE",
    "PHASE_SLOTS",
    "SCORE_CLIP",
    "SECTION_OFFSETS",
]

OBSERVATION_SECTIONS: Final[tuple[tuple[str, tuple[int, ...]], ...]] = (
    ("phase", (4,)),  # one-hot: deal, bid, play, game over
    ("hand", (52,)),  # the viewer's cards now
    ("bids", (4, 15)),  # per seat: slot 0 = no bid yet, else 1 + bid (Nil is slot 1)
    ("trick", (4, 52)),  # the card each seat put on the trick in progress
    ("played", (4, 52)),  # every card each seat played this hand, trick in progress included
    ("won", (4, 14)),  # tricks won this hand, one-hot 0-13
    ("shown_out", (4, 4)),  # suits each seat is known to be out of
    ("spade_count", (4, 15)),  # dealt spades a bid revealed: slot 0 = unknown, else 1 + count
    ("leader", (4,)),  # who led (or is to lead) the trick in progress
    ("to_act", (4,)),  # who is to bid or play
    ("dealer", (4,)),
    ("spades_broken", (1,)),
    ("scores", (2,)),  # own team, other team: score / target score, clipped to [-2, 2]
    ("bags", (2,)),  # own team, other team: bags / bag limit (10 if none), clipped to [0, 2]
)
"""The observation's sections in order: ``(name, shape)``; seats are relative to the viewer."""

HISTORY_SECTIONS: Final[tuple[tuple[str, tuple[int, ...]], ...]] = (
    ("dealt", (52,)),  # the viewer's 13 cards as dealt this hand
    ("history", (52, 56)),  # n-th card played this hand: relative seat one-hot, then card one-hot
)
"""What an information state appends to the observation."""


def _layout(
    sections: tuple[tuple[str, tuple[int, ...]], ...], start: int
) -> tuple[dict[str, tuple[int, int, tuple[int, ...]]], int]:
    offsets = {}
    position = start
    for name, shape in sections:
        size = math.prod(shape)
        offsets[name] = (position, position + size, shape)
        position += size
    return offsets, position


_OBSERVATION_OFFSETS, _OBSERVATION_END = _layout(OBSERVATION_SECTIONS, 0)
_HISTORY_OFFSETS, _INFORMATION_STATE_END = _layout(HISTORY_SECTIONS, _OBSERVATION_END)

SECTION_OFFSETS: Final = MappingProxyType({**_OBSERVATION_OFFSETS, **_HISTORY_OFFSETS})
"""Each section's ``(start, end, shape)`` in the vector."""

OBSERVATION_SIZE: Final = _OBSERVATION_END
"""How many numbers an observation holds (681)."""
INFORMATION_STATE_SIZE: Final = _INFORMATION_STATE_END
"""How many numbers an information state holds (3,645)."""

PHASE_SLOTS: Final = {Phase.DEAL: 0, Phase.BID: 1, Phase.PLAY: 2, Phase.GAME_OVER: 3}
"""The slot of each phase in the one-hot ``phase`` section."""
SCORE_CLIP: Final = 2.0
"""Scores are given as score / target score, clipped to [-SCORE_CLIP, SCORE_CLIP]."""
BAG_CLIP: Final = 2.0
"""Bags are given as bags / bag limit, clipped to [0, BAG_CLIP]."""
NO_LIMIT_BAGS: Final = 10
"""The bag count that stands for the bag limit when there is none."""
