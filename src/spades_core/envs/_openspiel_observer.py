"""What an OpenSpiel player observes: tensors and strings built from the seat's view."""

from __future__ import annotations

import json
from typing import Protocol

import numpy as np

from spades_core.batch import features
from spades_core.engine.encoding import (
    BID_ID_BASE,
)
from spades_core.engine.views import View
from spades_core.envs import _episode
from spades_core.values.cards import ALL_CARDS
from spades_core.values.errors import (
    IllegalActionError,
    IllegalReason,
    brief,
)
from spades_core.values.seats import Seat

# -- observations -------------------------------------------------------------------------


class _Viewed(Protocol):
    """What an observer reads of a state: a seat's view (``None``: a spectator's)."""

    def view(self, player: int | None) -> View: ...


class Observer:
    """OpenSpiel's observer protocol: a tensor and a string per player."""

    def __init__(self, *, perfect_recall: bool, public_only: bool) -> None:
        self._perfect_recall = perfect_recall
        self._public_only = public_only
        size = features.INFORMATION_STATE_SIZE if perfect_recall else features.OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        sections = features.OBSERVATION_SECTIONS + (
            features.HISTORY_SECTIONS if perfect_recall else ()
        )
        self.dict = {name: features.section(self.tensor, name) for name, _ in sections}

    def _view(self, state: _Viewed, player: int) -> View:
        return state.view(None if self._public_only else player)

    def set_from(self, state: _Viewed, player: int) -> None:
        """Fill :attr:`tensor` from ``player``'s view of ``state``."""
        view = self._view(state, player)
        if self._perfect_recall:
            features.information_state(view, out=self.tensor)
        else:
            features.observation(view, out=self.tensor)

    def string_from(self, state: _Viewed, player: int) -> str:
        """``player``'s view of ``state`` as text."""
        view = self._view(state, player)
        return _information_text(view) if self._perfect_recall else _observation_text(view)


def chance_outcome(action: object) -> int:
    """``action`` as the card id a chance move deals, checked."""
    if type(action) is not int or not 0 <= action < _episode.CARDS:
        raise IllegalActionError(
            IllegalReason.NOT_AN_ACTION,
            f"not a chance outcome: {brief(action)}; chance moves deal card ids 0-51",
        )
    return action


def action_text(action_id: int) -> str:
    if action_id >= BID_ID_BASE:
        bid = action_id - BID_ID_BASE
        return "bid Nil" if bid == 0 else f"bid {bid}"
    return str(ALL_CARDS[action_id])


def _seat_text(seat: Seat | None) -> str:
    return "-" if seat is None else seat.letter


def public_text(view: View) -> str:
    bids = " ".join(
        f"{seat.letter}:{'-' if bid is None else 'Nil' if bid == 0 else bid}"
        for seat, bid in view.bids.items()
    )
    trick = " ".join(f"{seat.letter}:{card}" for seat, card in view.current_trick)
    won = " ".join(f"{seat.letter}:{count}" for seat, count in view.tricks_won.items())
    return (
        f"{view.variant.id} hand {view.hand_number + 1} {view.phase.name} "
        f"dealer {view.dealer.letter} to act {_seat_text(view.to_act)}; "
        f"bids {bids}; trick [{trick}]; won {won}; "
        f"scores NS {view.scores.values_[0]} EW {view.scores.values_[1]}; "
        f"bags NS {view.bags.values_[0]} EW {view.bags.values_[1]}"
        + ("; spades broken" if view.spades_broken else "")
    )


def _observation_text(view: View) -> str:
    out = " ".join(
        f"{seat.letter}:{''.join(sorted(suit.letter for suit in suits))}"
        for seat, suits in view.shown_out.items()
        if suits
    )
    counts = " ".join(
        f"{seat.letter}:{count}" for seat, count in view.spade_counts.items() if count is not None
    )
    return (
        f"seat {_seat_text(view.seat)}; hand {view.hand()}; played {view.played}; "
        + public_text(view)
        + (f"; shown out {out}" if out else "")
        + (f"; spades dealt {counts}" if counts else "")
    )


def _information_text(view: View) -> str:
    tricks = " / ".join(
        f"{trick.leader.letter}: {' '.join(str(card) for card in trick.cards)}"
        for trick in view.tricks
    )
    earlier = " / ".join(
        json.dumps(result.summary(), sort_keys=True) for result in view.hand_results
    )
    return (
        f"seat {_seat_text(view.seat)}; dealt {view.dealt_hand()}; hand {view.hand()}; "
        + public_text(view)
        + f"; tricks [{tricks}]"
        + (f"; earlier hands {earlier}" if earlier else "")
    )
