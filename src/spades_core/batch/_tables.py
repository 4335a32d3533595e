"""Many tables stepped at once, for learning agents: :class:`Tables`."""

from __future__ import annotations

import math
from typing import Final

import numpy as np
import numpy.typing as npt

from spades_core.engine.encoding import BID_ID_BASE, NUM_ACTIONS
from spades_core.engine.game import Phase
from spades_core.rules.rng import MAX_SEED
from spades_core.rules.tricks import LEFT_OF
from spades_core.rules.variant import Variant
from spades_core.values import checks
from spades_core.values.errors import (
    ArgumentTypeError,
    IllegalActionError,
    IllegalReason,
    RulesError,
    brief,
)
from spades_core.values.observation import (
    BAG_CLIP,
    NO_LIMIT_BAGS,
    OBSERVATION_SECTIONS,
    OBSERVATION_SIZE,
    PHASE_SLOTS,
    SCORE_CLIP,
)
from spades_core.values.seats import Seat

from . import _arguments as arguments
from ._arguments import described
from ._deal import CARD_BITS, deal_hands, first_dealers
from ._play import Chooser, make_rng, resolve_variant
from ._policies import Decision, random_bids, random_cards, resolve_policies
from ._refusals import row_refusal
from ._rules import (
    NO_BID,
    SUIT_OF,
    breaks_spades,
    legal_plays,
    shown_out,
    trick_strength,
)
from ._types import I8, I64, U64, Ids

__all__ = [
    "BIDDING",
    "EPISODES",
    "MAX_TABLES",
    "OBSERVATION_SECTIONS",
    "OBSERVATION_SIZE",
    "PLAYING",
    "Tables",
]


BIDDING: Final = 0
"""A table's phase while its seats bid."""
PLAYING: Final = 1
"""A table's phase while its seats play cards."""
EPISODES: Final = ("hand", "game")
"""What a table plays before it restarts from the next seed."""
MAX_TABLES: Final = 1 << 20
"""The most tables one :class:`Tables` holds (1,048,576). Each table keeps
about 165 bytes, dealing them takes about 1.4 kB a table for a moment, and
:meth:`Tables.observe` returns 2.7 kB a table: past this, several ``Tables``
use memory better than one."""


def _layout() -> dict[str, int]:
    starts = {}
    position = 0
    for name, shape in OBSERVATION_SECTIONS:
        starts[name] = position
        position += math.prod(shape)
    return starts


# Where each section starts: the observation layout is envs.features' own.
_AT: Final = _layout()
_PHASE_BID: Final = PHASE_SLOTS[Phase.BID]
_PHASE_PLAY: Final = PHASE_SLOTS[Phase.PLAY]
_PHASE_DEAL: Final = PHASE_SLOTS[Phase.DEAL]
_PHASE_OVER: Final = PHASE_SLOTS[Phase.GAME_OVER]
_ONE: Final = np.uint64(1)
_BID_SHIFT: Final = np.uint64(BID_ID_BASE)
_BID_CARRY: Final = np.uint64(64 - BID_ID_BASE)
_LEFT_OF: Final = np.array(LEFT_OF, dtype=np.int8)
_FOUR: Final = np.arange(4, dtype=np.int8)
# The first entry of each relative seat's one-hot row, offset so that a value
# of -1 (no bid, no count revealed) lands on slot 0.
_BID_SLOTS: Final = _AT["bids"] + 15 * np.arange(4, dtype=np.intp) + 1
_WON_SLOTS: Final = _AT["won"] + 14 * np.arange(4, dtype=np.intp)
_COUNT_SLOTS: Final = _AT["spade_count"] + 15 * np.arange(4, dtype=np.intp) + 1
_SUIT_FLAGS: Final = (
    ((np.arange(16, dtype=np.uint8)[:, None] >> np.arange(4, dtype=np.uint8)) & 1)
    .copy()
    .view(np.uint32)
    .reshape(16)
)
"""The four suit flags of each 4-bit shown-out set, as the four bytes of one word."""
assert _AT["played"] == _AT["trick"] + 208


def _relative(seats: I8, viewer: I8) -> npt.NDArray[np.intp]:
    """Each seat counted from the viewer's (0 the viewer, 1 on its left)."""
    return ((seats - viewer) & 3).astype(np.intp)


class Tables:
    """``n`` tables of one variant, every one waiting for its seat to act.

    Each table plays a hand (``episode="hand"``: from 0-0, as
    :func:`spades_core.batch.play_hands` does) or a whole game (``episode="game"``),
    dealt exactly as ``sc.new_game(variant, seed=...)`` deals it. Table ``i``
    starts from seed ``seed + i``; when a table finishes, it restarts at once
    from the next seed not used yet (``seed + n``, ``seed + n + 1``, … in
    table order), so every table always has a seat to act; :meth:`queue_seeds`
    names the seed a table restarts from instead.

    Read :attr:`to_act`, :attr:`phase`, :meth:`legal_mask` and
    :meth:`observe`; then :meth:`step` with one action id per table.

    >>> import numpy as np
    >>> from spades_core.batch import Tables
    >>> tables = Tables("mirror", 8, seed=100)
    >>> mask = tables.legal_mask()
    >>> mask.shape
    (8, 66)
    >>> rewards, done = tables.step(mask.argmax(axis=1))
    >>> rewards.shape, done.shape
    ((8, 2), (8,))
    """

    def __init__(
        self,
        variant: str | Variant,
        n: int,
        *,
        seed: int = 0,
        episode: str = "hand",
        **options: object,
    ) -> None:
        if checks.count(n, "Tables", "n", minimum=1) > MAX_TABLES:
            raise RulesError(
                f"Tables: n must be a whole number of tables from 1 to {MAX_TABLES:,}; "
                f"got {brief(n)}"
            )
        checks.seed(seed, "Tables")
        if not isinstance(episode, str):
            raise ArgumentTypeError(
                f"Tables: episode must be 'hand' or 'game'; got {described(episode)}"
            )
        if episode not in EPISODES:
            raise RulesError(f"Tables: episode must be 'hand' or 'game'; got {brief(episode)}")
        self._rules = resolve_variant(variant, options)
        self.n = n
        """The number of tables."""
        self.episode = episode
        """``"hand"`` or ``"game"``."""
        self._next_seed = seed
        self._rows = np.arange(n, dtype=np.intp)
        self._seat_base = self._rows * 4
        self.seeds = np.zeros(n, dtype=np.uint64)
        """The seed of each table's current game."""
        self.hand_number = np.zeros(n, dtype=np.int64)
        """The 0-based hand of its game each table is playing."""
        self.dealer = np.zeros(n, dtype=np.int8)
        """The dealer of each table's hand."""
        self.scores = np.zeros((n, 2), dtype=np.int64)
        """Each table's running score per team (NS, EW) before this hand."""
        self.bags = np.zeros((n, 2), dtype=np.int64)
        """Each table's bags per team before this hand."""
        self.hands = np.zeros((n, 4), dtype=np.uint64)
        """Each seat's cards now, as 52-bit masks (bit ``i`` is card id ``i``)."""
        self.bids = np.full((n, 4), NO_BID, dtype=np.int8)
        """Each seat's bid this hand; -1 before it bids."""
        self.phase = np.zeros(n, dtype=np.int8)
        """:data:`BIDDING` or :data:`PLAYING`, per table."""
        self.to_act = np.zeros(n, dtype=np.int8)
        """The seat (0-3: N, E, S, W) to act at each table."""
        self.leader = np.zeros(n, dtype=np.int8)
        """The seat that led (or is to lead) the trick in progress."""
        self.trick = np.full((n, 4), -1, dtype=np.int8)
        """Cards of the trick in progress by position from its leader; -1 unplayed."""
        self.trick_size = np.zeros(n, dtype=np.int8)
        """Cards played to the trick in progress."""
        self.won = np.zeros((n, 4), dtype=np.int8)
        """Tricks each seat has won this hand."""
        self.played = np.zeros((n, 4), dtype=np.uint64)
        """Cards each seat played to the tricks completed this hand, as masks."""
        self.broken = np.zeros(n, dtype=np.bool_)
        """Whether spades are broken at each table."""
        self.scored = np.zeros(n, dtype=np.bool_)
        """After :meth:`step`: the tables that scored a hand in that step (every
        hand, whether or not it ended the episode)."""
        self.scored_bids = np.full((n, 4), NO_BID, dtype=np.int8)
        """The bids of the last hand each table scored, by seat; -1 before its first."""
        self.scored_tricks = np.zeros((n, 4), dtype=np.int8)
        """The tricks each seat won in the last hand each table scored."""
        self.winners = np.full(n, -1, dtype=np.int8)
        """After :meth:`step`: the winning team (0 NS, 1 EW) of each game that
        ended in that step, -1 elsewhere and for a game that ended in a draw
        (at the ``max_hands`` limit with equal scores); always -1 with
        ``episode="hand"``."""
        self._led = np.zeros(n, dtype=np.int8)
        self._strength = np.zeros(n, dtype=np.int8)
        self._winner = np.zeros(n, dtype=np.int8)
        self._tricks_done = np.zeros(n, dtype=np.int8)
        self._legal = np.zeros(n, dtype=np.uint64)
        self._shown_out = np.zeros((n, 4), dtype=np.uint8)
        self._counts = np.full((n, 4), NO_BID, dtype=np.int8)
        # The public state each table's last finished episode ended in, for final_observations.
        self._final_over = np.zeros(n, dtype=np.bool_)
        self._final_dealer = np.full(n, -1, dtype=np.int8)
        self._final_scores = np.zeros((n, 2), dtype=np.int64)
        self._final_bags = np.zeros((n, 2), dtype=np.int64)
        self._observation_base = self._rows[:, None] * OBSERVATION_SIZE
        self._queued = np.zeros(n, dtype=np.uint64)
        self._is_queued = np.zeros(n, dtype=np.bool_)
        self._start_games(self._rows, self._take_seeds(n))

    def __repr__(self) -> str:
        return f"<Tables {self._rules.variant.id} n={self.n} episode={self.episode}>"

    # -- reading ----------------------------------------------------------------------

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``(n, 66)`` booleans, ``True`` at each action id the seat to act may
        take (cards 0-51, bids 52-65, as :mod:`spades_core.encoding` numbers them)."""
        # The 66 ids as the low bits of two words, a playing table's cards in the
        # first, a bidding table's 14 bids from bit 52 on: one unpacking for all.
        bidding = np.where(self.phase == PLAYING, np.uint64(0), self._legal)
        words = np.empty((self.n, 2), dtype="<u8")
        words[:, 0] = (self._legal ^ bidding) | (bidding << _BID_SHIFT)
        words[:, 1] = bidding >> _BID_CARRY
        bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")
        mask: npt.NDArray[np.bool_] = bits[:, :NUM_ACTIONS].astype(np.bool_)
        return mask

    def random_actions(self, rng: object = None, *, where: object = None) -> Ids:
        """A uniformly random legal action id for every table, drawn from
        ``rng`` (a ``numpy.random.Generator`` or a seed for one); with
        ``where`` (an ``(n,)`` boolean array) only at the tables where it is
        true, -1 elsewhere (nothing is drawn for those)."""
        generator = make_rng(rng)
        active = self._where(where)
        bidding_at = self.phase == BIDDING
        if active is None and not bidding_at.any():
            return random_cards(self._legal, generator)
        chosen = np.full(self.n, -1, dtype=np.intp)
        # Drawn only where each phase is: a table's draw depends on its phase alone.
        playing_at = ~bidding_at
        if active is not None:
            bidding_at &= active
            playing_at &= active
        playing = np.flatnonzero(playing_at)
        bidding = np.flatnonzero(bidding_at)
        if len(playing):
            chosen[playing] = random_cards(self._legal[playing], generator)
        if len(bidding):
            legal_bids = self._legal[bidding].astype(np.intp) & 0x3FFF
            chosen[bidding] = random_bids(legal_bids, generator) + BID_ID_BASE
        return chosen

    def observe(self, seats: object = None) -> npt.NDArray[np.float32]:
        """Each table's observation for one seat, an ``(n, 681)`` float32 array.

        ``seats`` is ``None`` (the seat to act at each table), a seat number
        for every table, or an ``(n,)`` array of seat numbers. Row ``i`` is
        exactly :func:`spades_core.envs.features.observation` of table
        ``i``'s game viewed by that seat: the layout the PettingZoo and
        OpenSpiel adapters give, described there (:data:`OBSERVATION_SECTIONS`),
        holding only what that seat may know.
        """
        seat = self._seats(seats)
        n = self.n
        # The real seat of each relative seat k (0 the viewer), and where it sits on the trick.
        real = (seat[:, None] + _FOUR) & 3
        at = self._seat_base[:, None] + real
        position = ((real - self.leader[:, None]) & 3).astype(np.intp)
        cards = np.take_along_axis(self.trick, position, axis=1)
        shown = position < self.trick_size[:, None]
        on_trick = np.where(shown, CARD_BITS[np.maximum(cards, 0)], np.uint64(0))
        masks = np.empty((n, 9), dtype=np.uint64)
        masks[:, 0] = self.hands.reshape(-1)[self._seat_base + seat]
        masks[:, 1:5] = on_trick
        masks[:, 5:9] = self.played.reshape(-1)[at] | on_trick
        bits = np.unpackbits(
            masks.astype("<u8", copy=False).view(np.uint8), axis=1, bitorder="little"
        ).reshape(n, 9, 64)
        # Every entry but the scores is 0 or 1: written as bytes, then widened to
        # float32 in one pass (a quarter of the memory traffic of float32 writes).
        flags = np.zeros((n, OBSERVATION_SIZE), dtype=np.uint8)
        flags[:, _AT["hand"] : _AT["hand"] + 52] = bits[:, 0, :52]
        # "trick" and "played" are adjacent: one strided copy fills both.
        flags[:, _AT["trick"] : _AT["trick"] + 416].reshape(n, 8, 52)[:] = bits[:, 1:9, :52]
        out = self._shown_out.reshape(-1)[at]
        flags[:, _AT["shown_out"] : _AT["shown_out"] + 16] = _SUIT_FLAGS[out].view(np.uint8)
        # Every one-hot entry of a row, set in one write.
        ones = np.empty((n, 16), dtype=np.intp)
        playing = self.phase == PLAYING
        phase = np.where(playing, _PHASE_PLAY, _PHASE_BID)
        ones[:, 0] = _AT["phase"] + phase
        ones[:, 1:5] = self.bids.reshape(-1)[at] + _BID_SLOTS
        ones[:, 5:9] = self.won.reshape(-1)[at] + _WON_SLOTS
        ones[:, 9:13] = self._counts.reshape(-1)[at] + _COUNT_SLOTS
        # Bidding, no trick is led: the phase's entry is set twice instead.
        ones[:, 13] = np.where(playing, _AT["leader"] + _relative(self.leader, seat), ones[:, 0])
        ones[:, 14] = _AT["to_act"] + _relative(self.to_act, seat)
        ones[:, 15] = _AT["dealer"] + _relative(self.dealer, seat)
        ones += self._observation_base
        flags.reshape(-1)[ones.reshape(-1)] = 1
        flags[:, _AT["spades_broken"]] = self.broken
        obs = flags.astype(np.float32)
        self._score_entries(obs, seat, self.scores, self.bags)
        return obs

    def final_observations(self, tables: object, seats: object) -> npt.NDArray[np.float32]:
        """The observation each of ``tables`` (table numbers) showed ``seats``
        (one seat number each, or one for all) at the end of its last
        finished episode, a ``(k, 681)`` float32 array: exactly
        :func:`spades_core.envs.features.observation` of the finished game's
        view by that seat, once its last hand was scored (the game over, or
        waiting for the next deal). A table that has not finished an
        episode yet gives zeros."""
        rows = arguments.table_numbers(tables, "final_observations", self.n)
        k = len(rows)
        if isinstance(seats, (int, Seat)) and not isinstance(seats, bool):
            if not 0 <= seats <= 3:
                raise RulesError(f"a seat number is 0-3 (N, E, S, W); got {brief(seats)}")
            seat = np.full(k, int(seats), dtype=np.int8)
        else:
            seat = arguments.seats(seats, "final_observations", k)
        obs = np.zeros((k, OBSERVATION_SIZE), dtype=np.float32)
        # Nobody has bid in a hand not dealt yet: what no bids reveal (nothing, unless
        # a variant reveals counts without bids).
        counts = self._rules.revealed_spade_counts(np.full((k, 4), NO_BID, dtype=np.int8))
        real = (seat[:, None] + _FOUR) & 3
        ones = np.empty((k, 14), dtype=np.intp)
        phase = np.where(self._final_over[rows], _PHASE_OVER, _PHASE_DEAL)
        ones[:, 0] = _AT["phase"] + phase
        ones[:, 1:5] = _BID_SLOTS - 1
        ones[:, 5:9] = _WON_SLOTS
        ones[:, 9:13] = np.take_along_axis(counts, real.astype(np.intp), axis=1) + _COUNT_SLOTS
        ones[:, 13] = _AT["dealer"] + _relative(self._final_dealer[rows], seat)
        ones += np.arange(k)[:, None] * OBSERVATION_SIZE
        obs.reshape(-1)[ones.reshape(-1)] = 1.0
        self._score_entries(obs, seat, self._final_scores[rows], self._final_bags[rows])
        obs[self._final_dealer[rows] < 0] = 0.0
        return obs

    def _score_entries(
        self, obs: npt.NDArray[np.float32], seat: I8, scores: I64, bags: I64
    ) -> None:
        """Write the scores and bags of each row, own team first, as the layout has them."""
        rules = self._rules.rules
        east_west = (seat & 1).astype(np.bool_)[:, None]
        own_first = np.where(east_west, scores[:, ::-1], scores)
        bags_first = np.where(east_west, bags[:, ::-1], bags)
        limit = rules.bag_limit if rules.bag_limit is not None else NO_LIMIT_BAGS
        obs[:, _AT["scores"] : _AT["scores"] + 2] = np.clip(
            own_first / rules.target_score, -SCORE_CLIP, SCORE_CLIP
        )
        obs[:, _AT["bags"] : _AT["bags"] + 2] = np.clip(bags_first / limit, 0.0, BAG_CLIP)

    def _reveal(self, rows: Ids) -> None:
        """Keep the dealt spade count each seat's bid reveals at ``rows``, -1
        where none does: they change only with the bids, so they are read
        from the variant when a bid is made (or a hand dealt), not at every
        observation."""
        self._counts[rows] = self._rules.revealed_spade_counts(self.bids[rows])

    def _seats(self, seats: object) -> I8:
        if seats is None:
            return self.to_act
        if isinstance(seats, (int, Seat)) and not isinstance(seats, bool):
            if not 0 <= seats <= 3:
                raise RulesError(f"a seat number is 0-3 (N, E, S, W); got {brief(seats)}")
            return np.full(self.n, int(seats), dtype=np.int8)
        if isinstance(seats, bool | float | str | bytes):
            raise ArgumentTypeError(
                f"observe: seats must be None, a seat number 0-3 or {self.n} seat numbers; "
                f"got {described(seats)}"
            )
        return arguments.seats(seats, "observe", self.n)

    # -- acting -----------------------------------------------------------------------

    def step(
        self, actions: object, where: object = None
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """Every table's seat to act takes its action (an ``(n,)`` array of ids).

        ``where``, an ``(n,)`` boolean array, limits the step to the tables
        where it is true: the others keep waiting, unchanged, and their
        entries of ``actions`` are not read.

        Returns ``(rewards, done)``: the points each team scored in a hand
        finished by this step, ``(n, 2)`` (zero elsewhere), and which tables
        finished their episode (and restarted from the next seed). An
        illegal action raises :class:`~spades_core.IllegalActionError` naming
        the first such table, and changes nothing.
        """
        active = self._where(where)
        # The tables that act, by number: the work below is done at those alone.
        rows = self._rows if active is None else np.flatnonzero(active)
        chosen = self._checked(actions, None if active is None else rows)
        rewards = np.zeros((self.n, 2), dtype=np.int64)
        done = np.zeros(self.n, dtype=np.bool_)
        self.winners[:] = -1
        self.scored[:] = False
        bidding = self.phase[rows] == BIDDING
        if bidding.any():
            # Decided before the bids: a table whose bidding ends now plays from its next step.
            self._bid(rows[bidding], chosen[bidding] - BID_ID_BASE)
            playing = ~bidding
            rows = rows[playing]
            chosen = chosen[playing]
        if len(rows):
            self._play(rows, chosen, rewards, done)
        return rewards, done

    def _where(self, where: object) -> npt.NDArray[np.bool_] | None:
        if where is None:
            return None
        array = np.asarray(where)
        if array.shape != (self.n,) or array.dtype != np.bool_:
            raise ArgumentTypeError(
                f"where must be None or {self.n} booleans, one per table; got {brief(where)}"
            )
        return array

    def _checked(self, actions: object, rows: Ids | None = None) -> Ids:
        """The action ids at ``rows`` (every table for ``None``), each one legal
        at its table: else the refusal of the first illegal one."""
        try:
            given = arguments.whole_numbers(actions, "step", "actions", "action ids")
        except ArgumentTypeError:
            given = None
        if given is None or given.shape != (self.n,):
            raise IllegalActionError(
                IllegalReason.NOT_AN_ACTION,
                f"step needs {self.n} whole-number action ids, one per table; "
                f"got {described(actions)}",
            )
        if rows is None:
            taken, phase, legal = given, self.phase, self._legal
        else:
            taken, phase, legal = given[rows], self.phase[rows], self._legal[rows]
        # Ids past intp would wrap around into legal ones.
        ids = np.where(taken > NUM_ACTIONS, NUM_ACTIONS, taken).astype(np.intp)
        playing = phase == PLAYING
        bit = np.where(playing, ids, ids - BID_ID_BASE)
        in_range = np.where(playing, (ids >= 0) & (ids < BID_ID_BASE), ids >= BID_ID_BASE)
        in_range &= ids < NUM_ACTIONS
        ok = in_range & ((legal >> np.where(in_range, bit, 0).astype(np.uint64)) & _ONE != 0)
        if not ok.all():
            first = int(np.flatnonzero(~ok)[0])
            row = first if rows is None else int(rows[first])
            raise self._refusal(row, int(taken[first]))
        return ids

    def choose(self, policy: object, *, where: object = None, rng: object = None) -> Ids:
        """The action id that ``policy`` chooses at each table, -1 at the tables
        outside ``where`` (an ``(n,)`` boolean array; ``None``: every table).

        ``policy`` is what :func:`~spades_core.batch.play_hands` takes: a
        built-in policy's name, a policy function of a :class:`Decision`, or
        a sequence of four of them by seat; random choices draw from ``rng``
        (a ``numpy.random.Generator`` or a seed for one). A policy that is not
        built in is checked: an illegal choice raises
        :class:`~spades_core.IllegalActionError` naming the table.
        """
        policies, trusted = resolve_policies(policy)
        generator = make_rng(rng)
        active = self._where(where)
        chooser = Chooser(self._rules.variant, policies, trusted, 0)
        chosen = np.full(self.n, -1, dtype=np.intp)
        for phase, name in ((BIDDING, "bid"), (PLAYING, "play")):
            at_phase = self.phase == phase
            rows = np.flatnonzero(at_phase if active is None else at_phase & active)
            if len(rows):
                chosen[rows] = chooser(self._decision(rows, name, generator), rows)
        return chosen

    def _decision(self, rows: Ids, phase: str, rng: np.random.Generator) -> Decision:
        seat = self.to_act[rows]
        size = self.trick_size[rows]
        leader = self.leader[rows]
        trick = self.trick[rows]
        winning = trick[np.arange(len(rows)), (self._winner[rows] - leader) & 3]
        legal = self._legal[rows]
        on_trick = np.where(
            np.arange(4)[None, :] < size[:, None], CARD_BITS[np.maximum(trick, 0)], np.uint64(0)
        )
        played = np.bitwise_or.reduce(self.played[rows], axis=1)
        played |= np.bitwise_or.reduce(on_trick, axis=1)
        return Decision(
            phase,
            self._rules.rules,
            seat,
            self.hands.reshape(-1)[self._seat_base[rows] + seat],
            legal.astype(np.int32) if phase == "bid" else legal,
            self.bids[rows],
            self.won[rows],
            trick,
            size,
            np.where(size > 0, winning, -1).astype(np.int8),
            leader,
            self.dealer[rows],
            self.broken[rows],
            rng,
            played,
        )

    def restart(self, tables: object, seeds: object) -> None:
        """Start new games at ``tables`` (table numbers) from ``seeds`` (one seed
        each, 0 to 2**64-1), dealt as ``sc.new_game(variant, seed=...)`` deals."""
        rows, values = self._tables_and_seeds(tables, seeds, "restart")
        if len(rows):
            self._start_games(rows, values)

    def queue_seeds(self, tables: object, seeds: object) -> None:
        """The seed each of ``tables`` restarts from when its episode ends,
        in place of the next seed not used yet (one seed each, 0 to 2**64-1).

        A queued seed is used once, by the table's next automatic restart;
        queuing again replaces it, and :meth:`restart` leaves it queued."""
        rows, values = self._tables_and_seeds(tables, seeds, "queue_seeds")
        self._queued[rows] = values
        self._is_queued[rows] = True

    def _tables_and_seeds(self, tables: object, seeds: object, call: str) -> tuple[Ids, U64]:
        rows = np.asarray(tables)
        values = np.asarray(seeds)
        if (
            rows.ndim != 1
            or rows.dtype.kind not in "iu"
            or values.shape != rows.shape
            or values.dtype.kind not in "iu"
        ):
            raise ArgumentTypeError(
                f"{call} needs an array of table numbers and one whole-number seed for each; "
                f"got {brief(tables)} and {brief(seeds)}"
            )
        if len(rows) and not (((rows >= 0) & (rows < self.n)).all() and (values >= 0).all()):
            raise RulesError(
                f"{call}: table numbers are 0 to {self.n - 1} and seeds 0 to 2**64-1; "
                f"got {brief(tables)} and {brief(seeds)}"
            )
        if len(rows) and np.bincount(rows, minlength=self.n).max() > 1:
            raise RulesError(f"{call}: each table may be named once; got {brief(tables)}")
        return rows.astype(np.intp), values.astype(np.uint64)

    def _refusal(self, row: int, action: int) -> IllegalActionError:
        """The engine's refusal of ``action`` at table ``row``, naming the table."""
        seat = int(self.to_act[row])
        size = int(self.trick_size[row])
        rules = self._rules
        refusal = row_refusal(
            rules.variant,
            rules.rules,
            bidding=bool(self.phase[row] == BIDDING),
            seat=seat,
            hand=int(self.hands[row, seat]),
            bids=[int(bid) for bid in self.bids[row]],
            trick=[int(card) for card in self.trick[row, :size]],
            broken=bool(self.broken[row]),
            leads_two_of_clubs=rules.two_of_clubs_leads and bool(self._tricks_done[row] == 0),
            action=action,
        )
        legal = np.flatnonzero(self.legal_mask()[row]).tolist()
        return IllegalActionError(
            refusal.reason, f"table {row}: {refusal} (action id {action}; legal ids: {legal})"
        )

    def _bid(self, rows: Ids, values: Ids) -> None:
        seat = self.to_act[rows]
        bids = self.bids[rows]
        bids[np.arange(len(rows)), seat] = values
        # While the bidding lasts every hand is whole: what the bids reveal is checked
        # against it here, once, and before the tables change.
        self._rules.check_revealed_against_deal(bids, self.hands[rows])
        self.bids[rows] = bids
        self._reveal(rows)
        next_seat = ((seat + 1) & 3).astype(np.int8)
        self.to_act[rows] = next_seat
        finished = next_seat == _LEFT_OF[self.dealer[rows]]
        still = rows[~finished]
        if len(still):
            self._bid_options(still)
        started = rows[finished]
        if len(started):
            self.phase[started] = PLAYING
            if self._rules.two_of_clubs_leads:
                holder = ((self.hands[started] & _ONE) != 0).argmax(axis=1).astype(np.int8)
                self.to_act[started] = holder
            self.leader[started] = self.to_act[started]
            self._play_options(started)

    def _play(
        self, rows: Ids, cards: Ids, rewards: npt.NDArray[np.int64], done: npt.NDArray[np.bool_]
    ) -> None:
        seat = self.to_act[rows]
        at = self._seat_base[rows] + seat
        held = self.hands.reshape(-1)
        held[at] ^= CARD_BITS[cards]
        size = self.trick_size[rows]
        leading = size == 0
        led = np.where(leading, SUIT_OF[cards], self._led[rows]).astype(np.int8)
        self._led[rows] = led
        strength = trick_strength(led, cards)
        takes = leading | (strength > self._strength[rows])
        self._strength[rows] = np.where(takes, strength, self._strength[rows])
        self._winner[rows] = np.where(takes, seat, self._winner[rows])
        self._shown_out.reshape(-1)[at] |= shown_out(
            cards, np.where(leading, NO_BID, led), self.broken[rows]
        )
        self.broken[rows] |= breaks_spades(
            cards, np.where(leading, -1, led), self._rules.any_spade_breaks
        )
        self.trick.reshape(-1)[rows * 4 + size] = cards
        self.trick_size[rows] = size + 1
        self.to_act[rows] = (seat + 1) & 3
        completed = rows[size == 3]
        if len(completed):
            self._complete_tricks(completed, rewards, done)
            # Tables whose hand ended were dealt again and wait for bids now.
            rows = rows[self.phase[rows] == PLAYING]
        self._play_options(rows)

    def _complete_tricks(
        self, rows: Ids, rewards: npt.NDArray[np.int64], done: npt.NDArray[np.bool_]
    ) -> None:
        winner = self._winner[rows]
        self.won.reshape(-1)[rows * 4 + winner] += 1
        # Each table's four seats are four distinct entries: one scattered write for all.
        seats = (self.leader[rows, None] + _FOUR) & 3
        at = (rows[:, None] * 4 + seats).reshape(-1)
        self.played.reshape(-1)[at] |= CARD_BITS[self.trick[rows]].reshape(-1)
        self.leader[rows] = winner
        self.to_act[rows] = winner
        self.trick[rows] = -1
        self.trick_size[rows] = 0
        self._tricks_done[rows] += 1
        scored = rows[self._tricks_done[rows] == 13]
        if len(scored):
            self._score(scored, rewards, done)

    def _score(
        self, rows: Ids, rewards: npt.NDArray[np.int64], done: npt.NDArray[np.bool_]
    ) -> None:
        rules = self._rules
        points, bags = rules.score_hands(self.bids[rows], self.won[rows], self.bags[rows])
        rewards[rows] = points
        self.scored[rows] = True
        self.scored_bids[rows] = self.bids[rows]
        self.scored_tricks[rows] = self.won[rows]
        if self.episode == "hand":
            done[rows] = True
            scores = self.scores[rows] + points
            ended, _ = rules.game_ends(scores, self.hand_number[rows] + 1)
            self._keep_final(rows, ended, scores, bags)
            self._start_games(rows, self._restart_seeds(rows))
            return
        self.scores[rows] += points
        self.bags[rows] = bags
        ended, winner = rules.game_ends(self.scores[rows], self.hand_number[rows] + 1)
        over = rows[ended]
        self.winners[over] = winner[ended]
        done[over] = True
        if len(over):
            self._keep_final(over, ended[ended], self.scores[over], self.bags[over])
        going_on = rows[~ended]
        if len(going_on):
            self.hand_number[going_on] += 1
            self.dealer[going_on] = _LEFT_OF[self.dealer[going_on]]
            self._deal(going_on)
        if len(over):
            self._start_games(over, self._restart_seeds(over))

    def _keep_final(self, rows: Ids, over: npt.NDArray[np.bool_], scores: I64, bags: I64) -> None:
        """Keep what the finished episodes at ``rows`` end showing: a game
        over keeps its last dealer; a hand that leaves the game going shows
        the next hand's dealer, its deal not made yet."""
        self._final_over[rows] = over
        self._final_dealer[rows] = np.where(over, self.dealer[rows], _LEFT_OF[self.dealer[rows]])
        self._final_scores[rows] = scores
        self._final_bags[rows] = bags

    def _take_seeds(self, count: int) -> U64:
        first = self._next_seed
        self._next_seed += count
        # uint64 addition wraps modulo 2**64, as the seeds past MAX_SEED do.
        return np.uint64(first & MAX_SEED) + np.arange(count, dtype=np.uint64)

    def _restart_seeds(self, rows: Ids) -> U64:
        """The seeds ``rows`` restart from: each one's queued seed, else the next unused."""
        queued = self._is_queued[rows]
        if queued.all():
            seeds = self._queued[rows]
        else:
            seeds = np.empty(len(rows), dtype=np.uint64)
            seeds[~queued] = self._take_seeds(int(len(rows) - queued.sum()))
            seeds[queued] = self._queued[rows[queued]]
        self._is_queued[rows] = False
        return seeds

    def _start_games(self, rows: Ids, seeds: U64) -> None:
        self.seeds[rows] = seeds
        self.hand_number[rows] = 0
        self.dealer[rows] = first_dealers(seeds)
        self.scores[rows] = 0
        self.bags[rows] = 0
        self._deal(rows)

    def _deal(self, rows: Ids) -> None:
        masks, _ = deal_hands(
            self.seeds[rows], self.hand_number[rows].astype(np.uint64), self.dealer[rows]
        )
        self.hands[rows] = masks
        self.bids[rows] = NO_BID
        self._reveal(rows)
        self.won[rows] = 0
        self.played[rows] = 0
        self._shown_out[rows] = 0
        self.trick[rows] = -1
        self.trick_size[rows] = 0
        self.broken[rows] = False
        self._tricks_done[rows] = 0
        self.phase[rows] = BIDDING
        first = _LEFT_OF[self.dealer[rows]]
        self.to_act[rows] = first
        self.leader[rows] = first
        self._bid_options(rows)

    def _bid_options(self, rows: Ids) -> None:
        seat = self.to_act[rows]
        hand = self.hands.reshape(-1)[rows * 4 + seat]
        legal = self._rules.legal_bids(hand, seat, self.bids[rows])
        self._legal[rows] = legal.astype(np.uint64)

    def _play_options(self, rows: Ids) -> None:
        seat = self.to_act[rows]
        hand = self.hands.reshape(-1)[rows * 4 + seat]
        leading = self.trick_size[rows] == 0
        led = np.where(leading, NO_BID, self._led[rows])
        first_lead = leading & (self._tricks_done[rows] == 0) & self._rules.two_of_clubs_leads
        self._legal[rows] = legal_plays(hand, led, self.broken[rows], first_lead)
