"""Observations kept up to date one action at a time: a declared faster twin of
:func:`spades_core.envs.features.observation` for environments that step a game.

:class:`ObservationTracker` answers ``observation(game.view(seat))`` for any
seat of a game it is shown. It keeps one vector holding what the seats' views
share (North's observation, whose rows are in seat order) and every seat's
hand. When it is shown the game one bid or one card after the last game it
saw, it changes the entries that action changed; any other game (a new hand,
a hand scored, a jump elsewhere) it builds from North's view with
:func:`~spades_core.envs.features.observation`, the owner of the layout. A
seat's observation is then one gather of that vector, in the seat's order.

The trick rules come from :mod:`spades_core.tricks`, the spade counts from the
variant's hook, as for views. The test suite holds the twin to its owner
(equal vectors, byte for byte) over random games, variants and options.

What a seat knows of the hidden hands the tracker does not work out itself:
its vectors carry the facts that
:func:`~spades_core.rules.knowledge.seat_knowledge` (the owner of what a seat
knows, exact by counting) reads — each seat's hand, the cards each seat
played (and so how many it holds), the suits shown out and the revealed
spade counts — kept up to date as a declared twin of the view's. The test
suite holds that to the owner too: at every step of random hands, the
knowledge worked out from a seat's tracked vector equals
:func:`~spades_core.sampling.knowledge_of` for its view.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Final, cast

import numpy as np
import numpy.typing as npt

from spades_core.batch import features
from spades_core.engine.game import SEATS, Game, Phase
from spades_core.rules.hooks import checked_revealed_spade_counts
from spades_core.rules.tricks import NO_SUIT, RANKS, shown_out
from spades_core.values.observation import SECTION_OFFSETS

__all__ = ["ObservationTracker"]

_CARDS: Final = 52
_SEATS: Final = 4
_SIZE: Final = features.OBSERVATION_SIZE
# The shared vector: North's observation, then East's, South's and West's
# hands, then 52 zeros (the hand a spectator's observation shows).
_OTHER_HANDS: Final = _SIZE
_NO_HAND: Final = _SIZE + 3 * _CARDS
_SHARED_SIZE: Final = _NO_HAND + _CARDS

# Sections whose rows (or entries) are seats, counted from the viewer; and
# sections of two entries: the viewer's team, then the other.
_BY_SEAT: Final = frozenset(
    ("bids", "trick", "played", "won", "shown_out", "spade_count", "leader", "to_act", "dealer")
)
_BY_TEAM: Final = frozenset(("scores", "bags"))


def _start(name: str) -> int:
    start, _, _ = SECTION_OFFSETS[name]
    return start


_PHASE: Final = _start("phase")
_HAND: Final = _start("hand")
_BIDS: Final = _start("bids")
_TRICK: Final = _start("trick")
_PLAYED: Final = _start("played")
_WON: Final = _start("won")
_SHOWN_OUT: Final = _start("shown_out")
_SPADE_COUNT: Final = _start("spade_count")
_LEADER: Final = _start("leader")
_TO_ACT: Final = _start("to_act")
_BROKEN: Final = _start("spades_broken")
_PHASE_SLOTS: Final = features.PHASE_SLOTS
_BID: Final = Phase.BID
_PLAY: Final = Phase.PLAY


def _hand_start(seat: int | None) -> int:
    """Where ``seat``'s hand lies in the shared vector (``None``: the spectator's empty one)."""
    if seat is None:
        return _NO_HAND
    return _HAND if seat == 0 else _OTHER_HANDS + _CARDS * (seat - 1)


_HAND_STARTS: Final = tuple(_hand_start(seat) for seat in range(_SEATS))
"""``_hand_start(seat)`` for each seat number, looked up once per card."""


def _gather(viewer: int | None) -> npt.NDArray[np.intp]:
    """For each entry of ``viewer``'s observation, its place in the shared vector."""
    origin = 0 if viewer is None else viewer
    index: list[int] = []
    for name, _shape in features.OBSERVATION_SECTIONS:
        start, end, _ = SECTION_OFFSETS[name]
        if name == "hand":
            first = _hand_start(viewer)
            index.extend(range(first, first + _CARDS))
        elif name in _BY_SEAT:
            width = (end - start) // _SEATS
            for row in range(_SEATS):
                seat = (origin + row) % _SEATS
                index.extend(range(start + seat * width, start + (seat + 1) * width))
        elif name in _BY_TEAM:
            own = origin % 2
            index.extend((start + own, start + 1 - own))
        else:
            index.extend(range(start, end))
    assert len(index) == _SIZE
    return np.array(index, np.intp)


# Index 4 is the spectator.
_GATHER: Final = tuple(_gather(viewer) for viewer in (*range(_SEATS), None))


class ObservationTracker:
    """Every seat's :func:`~spades_core.envs.features.observation` of the games
    it is shown, worked out from the change since the last one when it is one
    action (see the module docs)."""

    def __init__(self) -> None:
        self._shared = np.zeros(_SHARED_SIZE, np.float32)
        # Single entries are written through a memoryview of the same memory:
        # storing a float there costs less than numpy's item assignment.
        self._cells = _cells_of(self._shared)
        self._game: Game | None = None
        self._counts: tuple[int | None, ...] = (None,) * _SEATS

    def __getstate__(self) -> dict[str, object]:
        # A memoryview does not pickle: the copy makes its own of its vector.
        state = dict(self.__dict__)
        del state["_cells"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._cells = _cells_of(self._shared)

    def observation(self, game: Game, seat: int | None) -> features.Vector:
        """``features.observation(game.view(seat))`` as a new array (``seat``: a
        seat number, or ``None`` for a spectator)."""
        if game is not self._game:
            self._follow(game)
        return self._shared[_GATHER[_SEATS if seat is None else seat]]

    def stepped(self, last: Game, game: Game) -> None:
        """Tell the tracker that ``game`` is ``last`` after one bid or card of
        its seat to act, within the hand (the caller applied that action): when
        the tracker holds ``last``, it changes what the action changed without
        checking that ``game`` follows from it."""
        if last is self._game:
            self._game = game
            if last.phase is _BID:
                self._bid(last, game)
            else:
                self._card(last, game)

    # -- keeping up -------------------------------------------------------------

    def _follow(self, game: Game) -> None:
        last = self._game
        self._game = game
        if last is not None and _in_same_hand(last, game):
            if last.phase is _BID and _one_bid_later(last, game):
                self._bid(last, game)
                return
            if last.phase is _PLAY and _one_card_later(last, game):
                self._card(last, game)
                return
        self._rebuild(game)

    def _rebuild(self, game: Game) -> None:
        shared = self._shared
        features.observation(game.view(SEATS[0]), out=shared[:_SIZE])
        shared[_SIZE:] = 0.0
        in_hand = game.phase is _BID or game.phase is _PLAY
        for seat in range(1, _SEATS):
            if in_hand:
                _set_cards(shared, _hand_start(seat), game._held[seat])
        self._counts = _spade_counts(game) if in_hand else (None,) * _SEATS

    def _bid(self, last: Game, game: Game) -> None:
        cells = self._cells
        seat = last._to_act
        bid = game._bids[seat]
        assert bid is not None
        row = _BIDS + 15 * seat
        cells[row] = 0.0
        cells[row + 1 + bid] = 1.0
        counts = _spade_counts(game)
        for who, (before, after) in enumerate(zip(self._counts, counts, strict=True)):
            if before != after:
                row = _SPADE_COUNT + 15 * who
                cells[row + (0 if before is None else 1 + before)] = 0.0
                cells[row + (0 if after is None else 1 + after)] = 1.0
        self._counts = counts
        cells[_TO_ACT + seat] = 0.0
        cells[_TO_ACT + game._to_act] = 1.0
        if game.phase is _PLAY:
            cells[_PHASE + _PHASE_SLOTS[_BID]] = 0.0
            cells[_PHASE + _PHASE_SLOTS[_PLAY]] = 1.0
            cells[_LEADER + game._leader] = 1.0

    def _card(self, last: Game, game: Game) -> None:
        cells = self._cells
        seat = last._to_act
        card = (last._held[seat] ^ game._held[seat]).bit_length() - 1
        cells[_HAND_STARTS[seat] + card] = 0.0
        cells[_PLAYED + _CARDS * seat + card] = 1.0
        trick = last._trick
        led = trick[0] // RANKS if trick else NO_SUIT
        suits = shown_out(card, led, last._broken)
        while suits:
            low = suits & -suits
            cells[_SHOWN_OUT + 4 * seat + low.bit_length() - 1] = 1.0
            suits ^= low
        if game._trick:
            cells[_TRICK + _CARDS * seat + card] = 1.0
        else:
            # The trick is complete: no trick is in progress now, and its
            # winner, who has one trick more, leads the next.
            leader = last._leader
            for position, earlier in enumerate(trick):
                cells[_TRICK + _CARDS * ((leader + position) % _SEATS) + earlier] = 0.0
            winner = game._leader
            cells[_WON + 14 * winner + last._won[winner]] = 0.0
            cells[_WON + 14 * winner + game._won[winner]] = 1.0
            if winner != leader:
                cells[_LEADER + leader] = 0.0
                cells[_LEADER + winner] = 1.0
        cells[_TO_ACT + seat] = 0.0
        cells[_TO_ACT + game._to_act] = 1.0
        cells[_BROKEN] = 1.0 if game._broken else 0.0


def _cells_of(vector: features.Vector) -> MutableSequence[float]:
    """A memoryview of ``vector``'s float32 entries (typed as what it is used for)."""
    return cast(MutableSequence[float], vector.data)


def _spade_counts(game: Game) -> tuple[int | None, ...]:
    setup = game._standing.setup
    return checked_revealed_spade_counts(setup.variant, setup.rules, game._bids)


def _in_same_hand(last: Game, game: Game) -> bool:
    # The same deal of the same game's hand: its dealt masks are one shared
    # tuple, and every step within a hand keeps the standing object.
    return game._dealt is last._dealt and game._standing is last._standing


def _one_bid_later(last: Game, game: Game) -> bool:
    """Whether ``game`` is ``last`` (bidding) after the bid of its seat to act."""
    if not (game.phase is _BID or (game.phase is _PLAY and not game._played and not game._trick)):
        return False
    seat = last._to_act
    before, after = last._bids, game._bids
    return (
        before[seat] is None
        and after[seat] is not None
        and all(before[other] == after[other] for other in range(_SEATS) if other != seat)
    )


def _one_card_later(last: Game, game: Game) -> bool:
    """Whether ``game`` is ``last`` (playing) after a card of its seat to act."""
    if game.phase is not _PLAY or game._bids != last._bids:
        return False
    seat = last._to_act
    before, after = last._held, game._held
    card = before[seat] ^ after[seat]
    if card & (card - 1) or not card & before[seat]:
        return False  # not one card of the seat's hand
    if before[:seat] != after[:seat] or before[seat + 1 :] != after[seat + 1 :]:
        return False  # another seat's hand changed
    played = card.bit_length() - 1
    if game._trick:
        return game._played is last._played and game._trick == (*last._trick, played)
    # The card completed a trick: the cards before it are the same.
    return len(last._trick) == _SEATS - 1 and game._played == (
        *last._played,
        *last._trick,
        played,
    )


def _set_cards(vector: features.Vector, offset: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        vector[offset + low.bit_length() - 1] = 1.0
        mask ^= low
