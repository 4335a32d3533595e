"""What a seat knows of the cards it cannot see, exactly, on ints.

Seen from one seat (the *viewer*; or a spectator, who sees no hand), the
cards it has not seen lie in the other hands, and the public record of the
hand proves four things about them:

* how many cards each seat still holds;
* the suits each seat has shown out of (:func:`~spades_core.rules.tricks.shown_out`);
* how many spades a seat still holds, where its bid revealed its dealt spade
  count (Mirror, Whiz): :func:`revealed_spades_left`;
* cards known to be in a hand, given by the caller (under
  ``first_lead="two_of_clubs"`` the seat to lead the first trick holds the 2♣).

:func:`seat_knowledge` works out what follows, exactly: a seat *may hold* an
unseen card when some way of dealing the unseen cards to the other hands
fits all four at once, and *must hold* it when every way does. From those
come the suits a seat is certainly void in and the spades it holds where
counting fixes them. A clause such as "West could overtrump" is true when
:meth:`Knowledge.could_hold` finds a deal in which West holds a higher spade
and none of the suit led.

Cards of one suit are interchangeable under these constraints (swapping two
unseen cards of a suit between hands keeps every constraint), so each
question is one about *how many* cards of each suit each seat gets: a
transportation problem of four suits and at most four seats, which
:func:`deal_fits` decides by its cut condition over the 16 sets of suits.
Everything is a plain int, as in :mod:`~spades_core.rules.tricks`: cards are
ids ``suit * 13 + rank``, sets of cards 52-bit masks, sets of suits 4-bit
masks, seats 0-3 (N, E, S, W).

>>> from spades_core.values.cards import CardSet
>>> # North sees the three cards East, South and West still hold, one each.
>>> # East has shown out of hearts, and West's bid left it no spade: East
>>> # must hold the A♠, and South one of the hearts.
>>> unseen = CardSet.parse("AS KH QH").mask
>>> facts = seat_knowledge(
...     0, CardSet.parse("2C").mask, unseen,
...     (1, 1, 1, 1), (0, 1 << 2, 0, 0), (UNKNOWN, UNKNOWN, UNKNOWN, 0),
... )
>>> str(CardSet(facts.may_hold[1])), str(CardSet(facts.may_hold[2]))
('AS', 'QH KH')
>>> str(CardSet(facts.must_hold[1])), facts.spades_left
('AS', (0, 1, 0, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, final

from spades_core.rules.tricks import SPADES
from spades_core.values.cards import SUIT_MASKS
from spades_core.values.errors import InconsistentViewError

__all__ = [
    "NO_CARDS_KNOWN",
    "NO_VIEWER",
    "UNKNOWN",
    "Knowledge",
    "deal_fits",
    "revealed_spades_left",
    "seat_knowledge",
]

UNKNOWN: Final = -1
"""A spade count nobody can know (the bots' tables use the same value)."""
NO_VIEWER: Final = -1
"""The viewer of a spectator, who holds no cards and sees none."""
NO_CARDS_KNOWN: Final = (0, 0, 0, 0)
"""No card known to be in any hand, beyond what the counts prove."""
_ANY: Final = 13
"""Room for any number of a suit's cards: no hand holds more than 13."""
_SUITS: Final = (0, 1, 2, 3)
_ALL_SUITS: Final = 15
# Per set of suits (a 4-bit mask), its lowest suit and the set without it,
# so that sums over every set are built one suit at a time.
_LOWEST: Final = tuple((a & -a).bit_length() - 1 for a in range(16))
_REST: Final = tuple(a & (a - 1) for a in range(16))


def revealed_spades_left(
    spade_counts: Sequence[int], played_by: Sequence[int]
) -> tuple[int, int, int, int]:
    """Per seat, the spades it still holds where its bid revealed its dealt
    count: ``spade_counts[seat]`` (:data:`UNKNOWN` where no bid revealed it)
    less the spades among ``played_by[seat]``, the mask of the cards it has
    played this hand; :data:`UNKNOWN` elsewhere. A count below zero (more
    spades played than revealed) is returned as it is, for the caller to
    refuse.

    >>> revealed_spades_left((3, UNKNOWN, 0, 1), (1 << 51 | 1 << 0, 1 << 50, 0, 0))
    (2, -1, 0, 1)
    """
    spades = SUIT_MASKS[SPADES]
    out = [UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN]
    for seat in range(4):
        count = spade_counts[seat]
        if count != UNKNOWN:
            out[seat] = count - (played_by[seat] & spades).bit_count()
    return (out[0], out[1], out[2], out[3])


def deal_fits(counts: Sequence[int], need: Sequence[int], room: Sequence[int]) -> bool:
    """Whether cards of four suits, ``counts[suit]`` of each, can be dealt so
    that each seat gets exactly ``need[seat]`` cards, and at most
    ``room[4 * seat + suit]`` cards of each suit (0: none; 13: any number).

    This is the owner of the feasibility question every other answer of this
    module asks. It is decided by the cut condition of the problem as a flow
    (suits to seats): for every set ``A`` of suits, the cards of ``A`` must
    fit in the room the seats have for them, each seat taking no more than
    its need, ``sum(counts[A]) <= sum(min(need[s], sum(room[s][A])))``; with
    equal totals that is exact (max-flow min-cut).

    Two clubs and a spade, for North (one card) and East (two): they fit
    when North may take only spades and East only clubs, not when neither
    may take clubs.

    >>> spades_only, clubs_only = (0, 0, 0, 13), (13, 0, 0, 0)
    >>> deal_fits((2, 0, 0, 1), (1, 2, 0, 0), spades_only + clubs_only + (0,) * 8)
    True
    >>> deal_fits((2, 0, 0, 1), (1, 2, 0, 0), spades_only + spades_only + (0,) * 8)
    False
    """
    return _cut_holds(
        counts[0], counts[1], counts[2], counts[3], need[0], need[1], need[2], need[3], room
    )


def _cut_holds(
    c0: int, c1: int, c2: int, c3: int, n0: int, n1: int, n2: int, n3: int, room: Sequence[int]
) -> bool:
    """:func:`deal_fits` with the counts and needs as ints (no lists to build
    for a question that changes one or two of them)."""
    if n0 < 0 or n1 < 0 or n2 < 0 or n3 < 0:
        return False
    if c0 < 0 or c1 < 0 or c2 < 0 or c3 < 0 or c0 + c1 + c2 + c3 != n0 + n1 + n2 + n3:
        return False
    counts = (c0, c1, c2, c3)
    # A set with a suit of no cards asks no more than the set without it.
    empty = (c0 == 0) | (c1 == 0) << 1 | (c2 == 0) << 2 | (c3 == 0) << 3
    supply = [0] * 16
    room0 = [0] * 16
    room1 = [0] * 16
    room2 = [0] * 16
    room3 = [0] * 16
    for suits in range(1, 16):
        if suits & empty:
            continue
        suit = _LOWEST[suits]
        rest = _REST[suits]
        supply[suits] = cards = supply[rest] + counts[suit]
        room0[suits] = r0 = room0[rest] + room[suit]
        room1[suits] = r1 = room1[rest] + room[4 + suit]
        room2[suits] = r2 = room2[rest] + room[8 + suit]
        room3[suits] = r3 = room3[rest] + room[12 + suit]
        fit = (
            (r0 if r0 < n0 else n0)
            + (r1 if r1 < n1 else n1)
            + (r2 if r2 < n2 else n2)
            + (r3 if r3 < n3 else n3)
        )
        if cards > fit:
            return False
    return True


def seat_knowledge(
    viewer: int,
    hand: int,
    unseen: int,
    cards_left: Sequence[int],
    shown_out: Sequence[int],
    spades_left: Sequence[int],
    holds: Sequence[int] = NO_CARDS_KNOWN,
) -> Knowledge:
    """What ``viewer`` (a seat number, or :data:`NO_VIEWER` for a spectator)
    knows of every hand, exactly.

    ``hand`` is the viewer's cards (0 for a spectator) and ``unseen`` the
    cards it has not seen (neither played nor its own). Per seat, by seat
    number: ``cards_left`` how many cards it holds, ``shown_out`` the 4-bit
    set of suits it has shown out of, ``spades_left`` the spades it still
    holds where its bid revealed them (:func:`revealed_spades_left`;
    :data:`UNKNOWN` elsewhere) and ``holds`` the unseen cards it is known to
    hold. The viewer's own entries are read from ``hand`` (its count must
    agree), not from these.

    Raises :class:`~spades_core.InconsistentViewError` when no deal of the
    unseen cards fits (never the case for a position of a real game).
    """
    hidden = tuple(seat for seat in range(4) if seat != viewer)
    fixed = [0, 0, 0, 0]
    if viewer != NO_VIEWER:
        if hand & unseen:
            raise InconsistentViewError("the viewer's hand and the unseen cards overlap")
        if cards_left[viewer] != hand.bit_count():
            raise InconsistentViewError(
                f"the viewer holds {hand.bit_count()} cards, but its count says "
                f"{cards_left[viewer]}"
            )
        fixed[viewer] = hand
    elif hand:
        raise InconsistentViewError("a spectator holds no cards")
    known = 0
    for seat in hidden:
        held = holds[seat]
        if held & ~unseen or held & known:
            raise InconsistentViewError(
                "a card known to be held must be unseen, and in one hand only"
            )
        if _suits_of(held) & shown_out[seat]:
            raise InconsistentViewError("a seat is known to hold a card of a suit it showed out of")
        fixed[seat] = held
        known |= held
    pool = unseen & ~known
    counts = [(pool & SUIT_MASKS[suit]).bit_count() for suit in _SUITS]
    need = [0, 0, 0, 0]
    room = [0] * 16
    quota = [UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN]
    total = 0
    for seat in hidden:
        total += cards_left[seat]
        need[seat] = cards_left[seat] - fixed[seat].bit_count()
        for suit in _SUITS:
            room[4 * seat + suit] = 0 if shown_out[seat] >> suit & 1 else _ANY
        left = spades_left[seat]
        if left == UNKNOWN:
            continue
        # A revealed count is dealt first: the seat takes exactly that many of
        # the spades no hand is known to hold, and no other spade.
        extra = left - (fixed[seat] & SUIT_MASKS[SPADES]).bit_count()
        if extra < 0:
            raise InconsistentViewError(
                f"seat {seat} holds {left} spades by its bid, fewer than it is known to hold"
            )
        if extra and shown_out[seat] >> SPADES & 1:
            raise InconsistentViewError(
                f"seat {seat} showed out of spades but should still hold {left}"
            )
        quota[seat] = extra
        counts[SPADES] -= extra
        need[seat] -= extra
        room[4 * seat + SPADES] = 0
    if total != unseen.bit_count():
        raise InconsistentViewError(
            f"the other seats hold {total} cards, but {unseen.bit_count()} are unseen"
        )
    if not deal_fits(counts, need, room):
        raise InconsistentViewError(
            "no deal of the unseen cards fits: the voids, spade counts and hand sizes "
            "contradict each other"
        )
    return Knowledge(
        hidden,
        (fixed[0], fixed[1], fixed[2], fixed[3]),
        pool,
        (counts[0], counts[1], counts[2], counts[3]),
        (need[0], need[1], need[2], need[3]),
        tuple(room),
        (quota[0], quota[1], quota[2], quota[3]),
    )


@final
class Knowledge:
    """What one seat knows of every hand, exactly (see the module docs).

    Made by :func:`seat_knowledge`. Per seat, by seat number: the cards it
    :attr:`may_hold` and :attr:`must_hold` (masks), the suits it is certainly
    :attr:`void` in, and its :attr:`spades_left` where counting fixes them;
    the viewer's own entries are its hand. :meth:`could_hold` and
    :meth:`count_range` answer further questions about the same deals.
    """

    __slots__ = (
        "_counts",
        "_fixed",
        "_hidden",
        "_may",
        "_must",
        "_need",
        "_pool",
        "_quota",
        "_room",
        "_spades",
        "_takes",
        "_void",
    )

    def __init__(
        self,
        hidden: tuple[int, ...],
        fixed: tuple[int, int, int, int],
        pool: int,
        counts: tuple[int, int, int, int],
        need: tuple[int, int, int, int],
        room: tuple[int, ...],
        quota: tuple[int, int, int, int],
    ) -> None:
        # The problem every answer asks about (all checked by seat_knowledge):
        # the hidden seats; each seat's cards known in advance (``fixed``: the
        # viewer's hand, the cards known held); the other unseen cards
        # (``pool``), by suit once the revealed spade counts (``quota``, the
        # spades each such seat takes from the pool; UNKNOWN elsewhere) are
        # dealt (``counts``); what each hidden seat still takes (``need``);
        # and its room per suit, ``room[4 * seat + suit]``.
        self._hidden = hidden
        self._fixed = fixed
        self._pool = pool
        self._counts = counts
        self._need = need
        self._room = room
        self._quota = quota
        # Answers are worked out when first asked (a coach's sentence asks a
        # few), and kept: per seat and suit whether the seat may take a card
        # of the suit from the pool (-1: not asked yet), then the tables.
        self._takes = [-1] * 16
        self._may: tuple[int, int, int, int] | None = None
        self._must: tuple[int, int, int, int] | None = None
        self._void: tuple[int, int, int, int] | None = None
        self._spades: tuple[int, int, int, int] | None = None

    @property
    def may_hold(self) -> tuple[int, int, int, int]:
        """Per seat, the mask of the cards some consistent deal gives it."""
        if self._may is None:
            self._settle()
        assert self._may is not None
        return self._may

    @property
    def must_hold(self) -> tuple[int, int, int, int]:
        """Per seat, the mask of the cards every consistent deal gives it."""
        if self._must is None:
            self._settle()
        assert self._must is not None
        return self._must

    @property
    def void(self) -> tuple[int, int, int, int]:
        """Per seat, the 4-bit set of the suits it certainly holds no card of."""
        if self._void is None:
            self._settle()
        assert self._void is not None
        return self._void

    @property
    def spades_left(self) -> tuple[int, int, int, int]:
        """Per seat, the spades it holds where every consistent deal gives it
        the same number (a revealed count, or one that counting fixes);
        :data:`UNKNOWN` elsewhere."""
        if self._spades is None:
            spades = [UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN]
            for seat in range(4):
                low, high = self.count_range(seat, SPADES)
                if low == high:
                    spades[seat] = low
            self._spades = (spades[0], spades[1], spades[2], spades[3])
        return self._spades

    def could_hold(self, seat: int, cards: int, lacking: int = 0) -> bool:
        """Whether some consistent deal gives ``seat`` a card of ``cards`` (a
        mask) and no card of the suits in ``lacking`` (a 4-bit set). With
        ``lacking`` the suit led and ``cards`` the spades that beat the trick:
        whether the seat could trump it."""
        fixed = self._fixed[seat]
        if _suits_of(fixed) & lacking:
            return False
        if seat not in self._hidden:
            return bool(fixed & cards)
        if fixed & cards and not lacking:
            return True
        if not lacking:
            # Cards of a suit are interchangeable: any of them is as possible
            # as the suit is.
            pool = self._pool
            for suit in _SUITS:
                if cards & pool & SUIT_MASKS[suit] and self._takes_some(seat, suit):
                    return True
            return False
        quota = self._quota[seat]
        if lacking >> SPADES & 1 and quota > 0:
            return False
        room = list(self._room)
        for suit in _SUITS:
            if lacking >> suit & 1:
                room[4 * seat + suit] = 0
        counts = self._counts
        need = self._need
        if fixed & cards:
            return deal_fits(counts, need, room)
        pool = self._pool
        for suit in _SUITS:
            if lacking >> suit & 1 or not cards & pool & SUIT_MASKS[suit]:
                continue
            if suit == SPADES and quota != UNKNOWN:
                # The revealed count is dealt already: any unseen spade may be
                # among the ones it took.
                if quota > 0 and deal_fits(counts, need, room):
                    return True
            elif _fits_taking(counts, need, room, seat, suit, 1):
                return True
        return False

    def count_range(self, seat: int, suit: int) -> tuple[int, int]:
        """The fewest and the most cards of ``suit`` that ``seat`` holds in
        the consistent deals."""
        fixed = (self._fixed[seat] & SUIT_MASKS[suit]).bit_count()
        if seat not in self._hidden:
            return fixed, fixed
        quota = self._quota[seat]
        if suit == SPADES and quota != UNKNOWN:
            return fixed + quota, fixed + quota
        counts = self._counts
        need = self._need
        room = self._room
        if not _fits_taking(counts, need, room, seat, suit, 1):
            return fixed, fixed
        # The numbers that fit form an interval (the deals are the integer
        # points of a flow polytope), found from both ends.
        capped = list(room)
        low = 0
        capped[4 * seat + suit] = 0
        while not deal_fits(counts, need, capped):
            low += 1
            capped[4 * seat + suit] = low
        high = max(low, 1)
        while _fits_taking(counts, need, room, seat, suit, high + 1):
            high += 1
        return fixed + low, fixed + high

    def __repr__(self) -> str:
        def masks(values: tuple[int, ...]) -> str:
            return "(" + ", ".join(hex(value) for value in values) + ")"

        return (
            f"Knowledge(may_hold={masks(self.may_hold)}, must_hold={masks(self.must_hold)}, "
            f"void={self.void}, spades_left={self.spades_left})"
        )

    def _settle(self) -> None:
        """Work out :attr:`may_hold`, :attr:`must_hold` and :attr:`void`."""
        hidden = self._hidden
        pool = self._pool
        may = list(self._fixed)
        for seat in hidden:
            for suit in _SUITS:
                if self._takes_some(seat, suit):
                    may[seat] |= pool & SUIT_MASKS[suit]
        shared = 0
        seen = 0
        for seat in hidden:
            shared |= seen & may[seat]
            seen |= may[seat]
        must = list(self._fixed)
        void = [0, 0, 0, 0]
        for seat in range(4):
            if seat in hidden:
                must[seat] |= may[seat] & ~shared
            for suit in _SUITS:
                if not may[seat] & SUIT_MASKS[suit]:
                    void[seat] |= 1 << suit
        self._may = (may[0], may[1], may[2], may[3])
        self._must = (must[0], must[1], must[2], must[3])
        self._void = (void[0], void[1], void[2], void[3])

    def _takes_some(self, seat: int, suit: int) -> bool:
        """Whether some consistent deal gives hidden ``seat`` a card of
        ``suit`` beyond the ones it is known to hold."""
        at = 4 * seat + suit
        known = self._takes[at]
        if known >= 0:
            return known == 1
        if not self._pool & SUIT_MASKS[suit]:
            found = False
        elif suit == SPADES and self._quota[seat] != UNKNOWN:
            found = self._quota[seat] > 0
        else:
            found = _fits_taking(self._counts, self._need, self._room, seat, suit, 1)
        self._takes[at] = 1 if found else 0
        return found


def _suits_of(mask: int) -> int:
    """The 4-bit set of the suits of the cards of ``mask``."""
    out = 0
    for suit in _SUITS:
        if mask & SUIT_MASKS[suit]:
            out |= 1 << suit
    return out


def _fits_taking(
    counts: Sequence[int],
    need: Sequence[int],
    room: Sequence[int],
    seat: int,
    suit: int,
    taken: int,
) -> bool:
    """:func:`deal_fits` once ``seat`` has taken ``taken`` cards of ``suit``
    (which its room must allow)."""
    at = 4 * seat + suit
    if counts[suit] < taken or need[seat] < taken or room[at] < taken:
        return False
    if room[at] < _ANY:
        smaller = list(room)
        smaller[at] -= taken
        room = smaller
    # (Room for any number stays room for any number: the seat's need is
    # at most 13 less what it took.)
    c = [counts[0], counts[1], counts[2], counts[3]]
    n = [need[0], need[1], need[2], need[3]]
    c[suit] -= taken
    n[seat] -= taken
    return _cut_holds(c[0], c[1], c[2], c[3], n[0], n[1], n[2], n[3], room)
