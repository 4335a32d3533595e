"""Fixed-length feature vectors of one seat's view, for learning code (needs numpy).

:func:`observation` turns a :class:`~spades_core.views.View` into a float32
vector of :data:`OBSERVATION_SIZE` numbers; :func:`information_state` appends
the seat's dealt hand and the order of every card played this hand
(:data:`INFORMATION_STATE_SIZE` numbers). Both read the view only, so they
hold nothing the seat may not know. The PettingZoo environment's
``"observation"`` and OpenSpiel's observation tensor are :func:`observation`;
OpenSpiel's information-state tensor is :func:`information_state`.

Seats are *relative to the viewer*: block 0 is the viewer, 1 the opponent on
its left (who acts next), 2 its partner, 3 the opponent on its right (a
spectator's view counts from North). Cards are indexed by id (``2C`` = 0 …
``AS`` = 51, see :mod:`spades_core.encoding`); suits in the order clubs,
diamonds, hearts, spades. :data:`OBSERVATION_SECTIONS` lists the sections in
order with their shapes; :func:`section` cuts one out of a vector. This is
the one statement of the layout: the batch engine's
:meth:`~spades_core.batch.Tables.observe` builds the same vectors from it.
The module sits with the batch engine, below the environments, so both can
fill vectors from views; :mod:`spades_core.envs.features` is its public path.

>>> import spades_core as sc
>>> from spades_core.batch import features
>>> game = sc.new_game("mirror", seed=3).deal()
>>> vector = features.observation(game.view(sc.Seat.NORTH))
>>> vector.shape, int(features.section(vector, "hand").sum())
((681,), 13)
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from spades_core.engine import arguments
from spades_core.engine.views import View
from spades_core.values import checks
from spades_core.values.errors import ArgumentTypeError
from spades_core.values.observation import (
    BAG_CLIP,
    HISTORY_SECTIONS,
    INFORMATION_STATE_SIZE,
    NO_LIMIT_BAGS,
    OBSERVATION_SECTIONS,
    OBSERVATION_SIZE,
    PHASE_SLOTS,
    SCORE_CLIP,
    SECTION_OFFSETS,
)
from spades_core.values.seats import Seat

__all__ = [
    "BAG_CLIP",
    "HISTORY_SECTIONS",
    "INFORMATION_STATE_SIZE",
    "NO_LIMIT_BAGS",
    "OBSERVATION_HIGH",
    "OBSERVATION_LOW",
    "OBSERVATION_SECTIONS",
    "OBSERVATION_SIZE",
    "PHASE_SLOTS",
    "SCORE_CLIP",
    "information_state",
    "observation",
    "section",
]

Vector = npt.NDArray[np.float32]
"""A one-dimensional float32 array."""


def _bounds(low: bool) -> Vector:
    bound = np.zeros(OBSERVATION_SIZE, np.float32) if low else np.ones(OBSERVATION_SIZE, np.float32)
    start, end, _ = SECTION_OFFSETS["scores"]
    bound[start:end] = -SCORE_CLIP if low else SCORE_CLIP
    start, end, _ = SECTION_OFFSETS["bags"]
    if not low:
        bound[start:end] = BAG_CLIP
    return bound


OBSERVATION_LOW: Final[Vector] = _bounds(low=True)
"""The smallest value of each observation entry (for a Box space)."""
OBSERVATION_HIGH: Final[Vector] = _bounds(low=False)
"""The largest value of each observation entry (for a Box space)."""


def section(vector: Vector, name: str) -> Vector:
    """The named section of an observation or information-state vector, in its shape
    (a view into ``vector``, not a copy)."""
    start, end, shape = SECTION_OFFSETS[name]
    return vector[start:end].reshape(shape)


def _start(name: str) -> int:
    return SECTION_OFFSETS[name][0]


# Flat offsets: writing single entries of the flat vector is much faster than
# reshaping a section for each.
_PHASE = _start("phase")
_HAND = _start("hand")
_BIDS = _start("bids")
_TRICK = _start("trick")
_PLAYED = _start("played")
_WON = _start("won")
_SHOWN_OUT = _start("shown_out")
_SPADE_COUNT = _start("spade_count")
_LEADER = _start("leader")
_TO_ACT = _start("to_act")
_DEALER = _start("dealer")
_BROKEN = _start("spades_broken")
_SCORES = _start("scores")
_BAGS = _start("bags")
_DEALT = _start("dealt")
_HISTORY = _start("history")


def _set_cards(vector: Vector, offset: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        vector[offset + low.bit_length() - 1] = 1.0
        mask ^= low


def _check_arguments(view: object, out: object, size: int, call: str) -> None:
    arguments.view(view, call)
    if out is not None and not (
        isinstance(out, np.ndarray) and out.shape == (size,) and out.dtype == np.float32
    ):
        raise ArgumentTypeError(
            f"{call}: out must be a float32 array of {size} numbers; got {checks.described(out)}"
        )


def observation(view: View, out: Vector | None = None) -> Vector:
    """The observation vector of ``view`` (written into ``out`` when given)."""
    _check_arguments(view, out, OBSERVATION_SIZE, "observation")
    vector = np.zeros(OBSERVATION_SIZE, np.float32) if out is None else out
    if out is not None:
        vector.fill(0.0)
    _fill_observation(view, vector)
    return vector


def information_state(view: View, out: Vector | None = None) -> Vector:
    """The observation of ``view`` followed by the viewer's dealt hand and the
    order of every card played this hand (written into ``out`` when given)."""
    _check_arguments(view, out, INFORMATION_STATE_SIZE, "information_state")
    vector = np.zeros(INFORMATION_STATE_SIZE, np.float32) if out is None else out
    if out is not None:
        vector.fill(0.0)
    _fill_observation(view, vector)
    me = _origin(view)
    _set_cards(vector, _DEALT, view.dealt_hand().mask)
    position = _HISTORY
    plays = [play for trick in view.tricks for play in trick.plays]
    plays.extend(view.current_trick)
    for seat, card in plays:
        vector[position + (seat - me) % 4] = 1.0
        vector[position + 4 + card.id] = 1.0
        position += 56
    return vector


def _origin(view: View) -> int:
    return int(view.seat) if view.seat is not None else int(Seat.NORTH)


def _fill_observation(view: View, vector: Vector) -> None:
    me = _origin(view)
    vector[_PHASE + PHASE_SLOTS[view.phase]] = 1.0
    _set_cards(vector, _HAND, view.hand().mask)
    bids = view.bids.values_
    counts = view.spade_counts.values_
    won = view.tricks_won.values_
    shown_out = view.shown_out.values_
    for seat in range(4):
        row = (seat - me) % 4
        bid = bids[seat]
        vector[_BIDS + 15 * row + (0 if bid is None else 1 + bid)] = 1.0
        count = counts[seat]
        vector[_SPADE_COUNT + 15 * row + (0 if count is None else 1 + count)] = 1.0
        vector[_WON + 14 * row + won[seat]] = 1.0
        for suit in shown_out[seat]:
            vector[_SHOWN_OUT + 4 * row + suit] = 1.0
    for seat, card in view.current_trick:
        row = (seat - me) % 4
        vector[_TRICK + 52 * row + card.id] = 1.0
        vector[_PLAYED + 52 * row + card.id] = 1.0
    for done in view.tricks:
        for seat, card in done.plays:
            vector[_PLAYED + 52 * ((seat - me) % 4) + card.id] = 1.0
    if view.leader is not None:
        vector[_LEADER + (view.leader - me) % 4] = 1.0
    if view.to_act is not None:
        vector[_TO_ACT + (view.to_act - me) % 4] = 1.0
    vector[_DEALER + (view.dealer - me) % 4] = 1.0
    vector[_BROKEN] = 1.0 if view.spades_broken else 0.0
    own = me % 2
    rules = view.rules
    scores = view.scores.values_
    target = rules.target_score
    vector[_SCORES] = _clip(scores[own] / target, -SCORE_CLIP, SCORE_CLIP)
    vector[_SCORES + 1] = _clip(scores[1 - own] / target, -SCORE_CLIP, SCORE_CLIP)
    limit = rules.bag_limit if rules.bag_limit is not None else NO_LIMIT_BAGS
    bags = view.bags.values_
    vector[_BAGS] = _clip(bags[own] / limit, 0.0, BAG_CLIP)
    vector[_BAGS + 1] = _clip(bags[1 - own] / limit, 0.0, BAG_CLIP)


def _clip(value: float, low: float, high: float) -> float:
    return low if value < low else high if value > high else value
