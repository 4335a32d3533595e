"""Sampling a complete game consistent with what one seat can see.

Search bots reason about hidden cards by *determinization*: deal the cards
a seat cannot see to the other seats at random, but only in ways that agree
with everything the seat knows, then look at the resulting full game.
:func:`determinize` does that for a :class:`~spades_core.views.View`.

The sample respects

* the seat's own hand and every card played so far, with who played it;
* the suits each seat has shown out of (``view.shown_out``);
* spade counts the bids revealed (``view.spade_counts``, Mirror and Whiz),
  less the spades each seat has since played;
* how many cards each seat still holds;
* the bids: every bid already made must be legal for the bidder's sampled
  13 dealt cards (for example no Nil with the A♠ under Whiz's
  ``whiz_nil_needs_no_ace``), a Blind Nil excepted (declared unseen);
* under ``first_lead="two_of_clubs"``, the seat to lead the first trick
  holds the 2♣;
* in a variant's card exchange (:attr:`View.phase_steps
  <spades_core.views.View.phase_steps>`), the cards the seat passed are with
  the seat it passed them to until played, and the bids are checked against
  the hands as they were when bid (before the exchange): for every seat
  when the seat saw every card passed, else only for the seats whose
  exchange it saw whole.

The sample is built by dealing the full hands (hidden cards plus the cards
each seat has already played) and replaying the hand's bids and plays
through the engine, so it is a real reachable game, and
``sample.view(view.seat) == view`` (in a variant with phases, when the seat
saw every card passed: the passes of others cannot be replayed). Finished
hands are copied from
``view.hand_results`` (they hide nothing). The sample's seed is drawn from
``rng``, so it reveals nothing about the real game's seed.

Hidden cards are placed suit-aware: a seat's spade quota first, then each
remaining card to a seat that may hold its suit, chosen with probability
proportional to the room left in that seat's hand. This is close to, but not
exactly, uniform over the consistent deals; it never fails for a view of a
real game. The facts are those of :func:`knowledge_of`, the view's side of
the one owner of what a seat knows (:mod:`spades_core.rules.knowledge`):
the spades left are its :func:`~spades_core.rules.knowledge.revealed_spades_left`,
whether the cards still to place can fill the hands is its
:func:`~spades_core.rules.knowledge.deal_fits`, and every sample gives each
seat only cards the owner says it may hold and every card it must (the tests
hold the sampler to that).

>>> import random
>>> import spades_core as sc
>>> game = sc.new_game("mirror", seed=11).deal()
>>> view = game.view(sc.Seat.NORTH)
>>> sample = sc.determinize(view, random.Random(1))
>>> sample.view(sc.Seat.NORTH) == view
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from spades_core.engine import arguments
from spades_core.engine.game import SEATS, Game, Phase, new_game
from spades_core.engine.transitions import between_hands
from spades_core.engine.views import View
from spades_core.rules.knowledge import (
    NO_VIEWER,
    UNKNOWN,
    Knowledge,
    deal_fits,
    revealed_spades_left,
    seat_knowledge,
)
from spades_core.rules.tricks import RANKS, SPADES, TWO_OF_CLUBS
from spades_core.rules.variant import checked_legal_bids
from spades_core.values import checks
from spades_core.values.actions import BIDS, PLAYS, BlindNil, Deal, Pass
from spades_core.values.cards import FULL_DECK_MASK, SUIT_MASKS, CardSet, ids_of_mask
from spades_core.values.checks import described
from spades_core.values.errors import (
    ArgumentTypeError,
    IllegalActionError,
    InconsistentViewError,
    RulesError,
    brief,
)
from spades_core.values.options import FirstLead
from spades_core.values.seats import Seat

__all__ = ["HiddenCards", "determinize", "knowledge_of"]


def _skip_shuffle(rng: random.Random, length: int) -> None:
    """Draw what shuffling a list of ``length`` would draw, for a shuffle
    whose order nobody reads: ``rng`` ends where ``rng.shuffle`` of such a
    list leaves it."""
    rng.shuffle(list(range(length)))


_NO_QUOTA: Final = (0, 0, 0, 0)
_HANDS_REMEMBERED: Final = 1 << 12
"""Dealt hands whose legal bids a sampler keeps per seat (then it starts again)."""
_RANDOM_TRIES: Final = 4
_DEAD_ENDS_BEFORE_GUIDING: Final = 2
_MAX_BID_TRIES: Final = 400


class HiddenCards:
    """The hidden-card constraints of one view, prepared once and sampled many
    times (search bots draw many samples per decision).

    :meth:`sample` returns the four hands as 52-bit masks (held cards now, by
    seat number); :meth:`dealt` adds back the cards each seat has played.
    Raises :class:`~spades_core.InconsistentViewError` if no deal fits.
    """

    __slots__ = (
        "_back",
        "_bid_checks",
        "_bids_checked",
        "_dead_ends",
        "_eligible_any",
        "_eligible_seats",
        "_everyone",
        "_exact",
        "_fixed",
        "_hidden",
        "_knowledge",
        "_legal_bids_known",
        "_made_before",
        "_must",
        "_need",
        "_order",
        "_pool",
        "_quota",
        "_start_held",
        "_start_ids",
        "_start_need",
        "_start_pool",
        "_taken",
        "_void",
        "played_by",
        "view",
    )

    def __init__(self, view: View) -> None:
        arguments.view(view, "HiddenCards")
        if view.phase not in (Phase.BID, Phase.PLAY):
            raise InconsistentViewError(
                f"a view in the {view.phase.name} phase hides no cards; nothing to sample"
            )
        self.view = view
        viewer = view.seat
        played_by = _played_by(view)
        self.played_by: tuple[int, ...] = played_by
        played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
        own = view.hand().mask if viewer is not None else 0
        if own & played:
            raise InconsistentViewError(
                f"the view's hand {CardSet(own & played)} also appears among the played cards"
            )
        fixed = [0, 0, 0, 0]
        if viewer is not None:
            fixed[viewer] = own
            if view.cards_left[viewer] != own.bit_count():
                raise InconsistentViewError(
                    f"{viewer.name} holds {own.bit_count()} cards but the view says "
                    f"{view.cards_left[viewer]}"
                )
        self._fixed = tuple(fixed)
        pool = FULL_DECK_MASK & ~played & ~own
        hidden = tuple(number for number in range(4) if number != viewer)
        self._hidden = hidden
        need = [0, 0, 0, 0]
        for number in hidden:
            need[number] = view.cards_left[SEATS[number]]
        if sum(need) != pool.bit_count():
            raise InconsistentViewError(
                f"the other seats hold {sum(need)} cards by the view, but {pool.bit_count()} "
                "cards are unaccounted for"
            )
        void = [0, 0, 0, 0]
        exact = [-1, -1, -1, -1]
        counts = _revealed_counts(view)
        spades_left = revealed_spades_left(counts, played_by)
        for number in hidden:
            for suit in view.shown_out[SEATS[number]]:
                void[number] |= 1 << suit
            count = counts[number]
            if count != UNKNOWN:
                left = spades_left[number]
                if left < 0:
                    raise InconsistentViewError(
                        f"{SEATS[number].name} bid {count} spades but has played more"
                    )
                if void[number] >> SPADES & 1 and left:
                    raise InconsistentViewError(
                        f"{SEATS[number].name} showed out of spades but should still hold {left}"
                    )
                exact[number] = left
        self._void = tuple(void)
        self._exact = tuple(exact)
        must: list[tuple[int, int]] = []
        known = _known_held(view)
        for number in hidden:
            must.extend((card, number) for card in ids_of_mask(known[number]))
        self._must = tuple(must)
        self._pool = pool
        # Suits with fewer seats able to take them are placed first, which
        # makes dead ends (a card nobody left can hold) rare.
        self._order = sorted(
            range(4), key=lambda suit: sum(1 for s in hidden if not void[s] >> suit & 1)
        )
        # Each hidden seat that has bid, its bid, and the bids made before it.
        bid_checks: list[tuple[int, int]] = []
        self._made_before: dict[int, dict[Seat, int]] = {}
        order = [(int(view.dealer) + 1 + i) % 4 for i in range(4)]
        # A Blind Nil is declared before the bidding, unseen: it says nothing
        # of the hand, and every bid after it is made knowing it.
        blind = {step.seat for step in view.phase_steps if type(step.action) is BlindNil}
        made: dict[Seat, int] = dict.fromkeys(blind, 0)
        for number in order:
            if SEATS[number] in blind:
                continue
            bid = view.bids[SEATS[number]]
            if bid is None:
                break
            if number != viewer:
                bid_checks.append((number, bid))
                self._made_before[number] = dict(made)
            made[SEATS[number]] = bid
        self._bid_checks = tuple(bid_checks)
        taken, back, unsure = _undo_passes(view)
        self._taken = taken
        self._back = back
        # A hand as bid that hidden passes may have changed cannot be held to its bid.
        self._bids_checked = tuple(check for check in bid_checks if check[0] not in unsure)
        # Per seat, the legal bids of the dealt hands checked so far: later in
        # a hand most of each dealt hand has been played, so samples repeat
        # hands, and the bid reader of the hard bot asks again about each.
        self._legal_bids_known: tuple[dict[int, tuple[int, ...]], ...] = ({}, {}, {}, {})
        self._need = tuple(need)
        self._dead_ends = 0
        self._knowledge: Knowledge | None = None
        # What every placement starts from: the must-hold cards placed, the
        # spade quotas and who may take each suit (all fixed for the view).
        start_held = list(fixed)
        start_need = list(need)
        start_pool = pool
        for card_id, holder in must:
            start_held[holder] |= 1 << card_id
            start_need[holder] -= 1
            start_pool &= ~(1 << card_id)
        self._start_held = tuple(start_held)
        self._start_need = tuple(start_need)
        self._start_pool = start_pool
        self._quota = tuple(self._spade_quota())
        # The ids of the cards to place, by suit: every sample starts from them.
        self._start_ids = tuple(tuple(ids_of_mask(start_pool & SUIT_MASKS[s])) for s in range(4))
        self._eligible_any = tuple(self._eligible([13] * 4))
        self._eligible_seats = tuple(
            tuple(seat for seat in hidden if seats >> seat & 1) for seats in self._eligible_any
        )
        everyone = 0
        for seat in hidden:
            everyone |= 1 << seat
        self._everyone = everyone
        if not self._feasible(list(need), self._quota_pool(), void):
            raise InconsistentViewError(
                "no deal of the hidden cards agrees with the view: the voids, spade counts "
                "and hand sizes contradict each other"
            )

    # -- feasibility -------------------------------------------------------------

    def _quota_pool(self) -> list[int]:
        """Cards per suit still to place after the must-hold cards and spade quotas."""
        counts = [(self._pool & SUIT_MASKS[suit]).bit_count() for suit in range(4)]
        for card, _seat in self._must:
            counts[card // RANKS] -= 1
        return counts

    def _feasible(self, need: list[int], counts: list[int], void: Sequence[int]) -> bool:
        need = list(need)
        counts = list(counts)
        for card, seat in self._must:
            if void[seat] >> (card // RANKS) & 1 or not self._pool >> card & 1 or need[seat] < 1:
                return False
            need[seat] -= 1
            if card // RANKS == SPADES and self._exact[seat] == 0:
                return False
        quota = self._spade_quota()
        for seat in self._hidden:
            if quota[seat] > need[seat]:
                return False
            need[seat] -= quota[seat]
            counts[SPADES] -= quota[seat]
        if counts[SPADES] < 0:
            return False
        return _hall_ok(counts, self._eligible(need), need)

    def _spade_quota(self) -> list[int]:
        quota = [0, 0, 0, 0]
        for seat in self._hidden:
            if self._exact[seat] >= 0:
                quota[seat] = self._exact[seat]
        for card, seat in self._must:
            if card // RANKS == SPADES and self._exact[seat] >= 0:
                quota[seat] -= 1
        return quota

    def _eligible(self, need: Sequence[int]) -> list[int]:
        """Per suit, the bitmask of seats that may still receive a card of it."""
        eligible = []
        for suit in range(4):
            seats = 0
            for seat in self._hidden:
                if need[seat] <= 0 or self._void[seat] >> suit & 1:
                    continue
                if suit == SPADES and self._exact[seat] >= 0:
                    continue
                seats |= 1 << seat
            eligible.append(seats)
        return eligible

    # -- sampling ----------------------------------------------------------------

    def sample(self, rng: random.Random) -> tuple[int, int, int, int]:
        """The four hands as held now (masks by seat number), hidden cards placed at random."""
        rng = checks.random_generator(rng, "HiddenCards.sample")
        for _ in range(_MAX_BID_TRIES):
            held = self._place(rng)
            if self._bids_fit(held):
                return held
        raise InconsistentViewError(
            f"could not place the hidden cards so that every bid is legal after "
            f"{_MAX_BID_TRIES} tries; the bids look impossible for the cards left"
        )

    def allows(self, held: Sequence[int]) -> bool:
        """Whether the four hands ``held`` (masks by seat number, as held now)
        meet every constraint of the view that :meth:`sample` keeps: the
        seat's own hand, the hidden cards shared out in the right numbers, the
        shown-out suits, the revealed spade counts, a card the seat to act
        must hold, and the bids. The real game's hands always do. Anything
        but four ints raises :class:`~spades_core.ArgumentTypeError`."""
        if (
            not isinstance(held, Sequence)
            or len(held) != 4
            or any(type(mask) is not int for mask in held)
        ):
            raise ArgumentTypeError(
                f"HiddenCards.allows: held must be four card masks (ints); got {described(held)}"
            )
        viewer = self.view.seat
        if viewer is not None and held[viewer] != self._fixed[viewer]:
            return False
        placed = 0
        for seat in self._hidden:
            mask = held[seat]
            if placed & mask or mask.bit_count() != self._need[seat]:
                return False
            placed |= mask
            for suit in range(4):
                if self._void[seat] >> suit & 1 and mask & SUIT_MASKS[suit]:
                    return False
            exact = self._exact[seat]
            if exact >= 0 and (mask & SUIT_MASKS[SPADES]).bit_count() != exact:
                return False
        if placed != self._pool:
            return False
        if any(not held[seat] >> card & 1 for card, seat in self._must):
            return False
        return self._bids_fit(held)

    def game(self, held: Sequence[int], seed: int) -> Game:
        """The view's game with the hidden cards as ``held`` (the four hands as
        held now, as :meth:`sample` returns them), built as :func:`determinize`
        builds its sample: dealt, and the hand so far replayed by the engine.
        ``seed`` is the game's seed. Hands the view's history cannot be
        replayed on raise :class:`~spades_core.InconsistentViewError`."""
        if not isinstance(held, Sequence) or len(held) != 4:
            raise ArgumentTypeError(
                f"HiddenCards.game: held must be four card masks; got {described(held)}"
            )
        checks.whole_number(seed, "HiddenCards.game", "seed")
        return replay_hand(_hand_start(self.view, seed), self.view, self.dealt(held))

    def dealt(self, held: Sequence[int]) -> tuple[int, int, int, int]:
        """The 13-card hands dealt, from the held hands and the cards played,
        with the passes of a variant's exchange the view shows undone (the
        hands as bid; passes the view's seat did not see stay as sampled)."""
        p = self.played_by
        t = self._taken
        b = self._back
        return (
            (held[0] | p[0]) & ~t[0] | b[0],
            (held[1] | p[1]) & ~t[1] | b[1],
            (held[2] | p[2]) & ~t[2] | b[2],
            (held[3] | p[3]) & ~t[3] | b[3],
        )

    @property
    def knowledge(self) -> Knowledge:
        """What the view's seat knows of every hand (:func:`knowledge_of`):
        every sample gives each seat only cards it may hold, and every card
        it must."""
        if self._knowledge is None:
            self._knowledge = knowledge_of(self.view)
        return self._knowledge

    @property
    def hidden_bids(self) -> tuple[tuple[int, int], ...]:
        """``(seat number, bid)`` of each hidden seat that has bid, in bidding
        order (a Blind Nil, declared unseen, is not among them)."""
        return self._bid_checks

    def legal_bids(self, seat: int, dealt: int) -> tuple[int, ...]:
        """The bids that were legal for ``seat`` (a hidden seat that has bid)
        at its turn, had it been dealt ``dealt`` (a 52-bit mask). Raises
        :class:`~spades_core.RulesError` for any other ``seat``."""
        made_before = self._made_before.get(seat) if type(seat) is int else None
        if made_before is None:
            raise RulesError(
                f"seat must be the number of a hidden seat that has bid "
                f"({sorted(self._made_before) or 'none yet'}); got {brief(seat)}"
            )
        if type(dealt) is int:
            # A hand already answered was checked then: the bid reader asks
            # again at every sample, sooner than building a CardSet to check it.
            known = self._legal_bids_known[seat].get(dealt)
            if known is not None:
                return known
        return self._legal_bids_of(seat, CardSet(dealt).mask, made_before)

    def _legal_bids_of(
        self, seat: int, dealt: int, made_before: dict[Seat, int]
    ) -> tuple[int, ...]:
        """:meth:`legal_bids` for a hidden seat that has bid, ``dealt`` a valid hand."""
        known = self._legal_bids_known[seat]
        legal = known.get(dealt)
        if legal is None:
            view = self.view
            legal = checked_legal_bids(
                view.variant, view.rules, SEATS[seat], CardSet(dealt), made_before
            )
            if len(known) >= _HANDS_REMEMBERED:
                known.clear()
            known[dealt] = legal
        return legal

    def _bids_fit(self, held: Sequence[int]) -> bool:
        played_by = self.played_by
        made_before = self._made_before
        taken = self._taken
        back = self._back
        for seat, bid in self._bids_checked:
            dealt = (held[seat] | played_by[seat]) & ~taken[seat] | back[seat]
            if bid not in self._legal_bids_of(seat, dealt, made_before[seat]):
                return False
        return True

    def _place(self, rng: random.Random) -> tuple[int, int, int, int]:
        if self._dead_ends < _DEAD_ENDS_BEFORE_GUIDING:
            for _ in range(_RANDOM_TRIES):
                held = self._try_place(rng, guided=False)
                if held is not None:
                    return held
            # Tight constraints: random placement keeps failing, so guide
            # every later sample of this view from the start.
            self._dead_ends += 1
        held = self._try_place(rng, guided=True)
        if held is None:  # pragma: no cover - the constructor proved a deal exists
            raise InconsistentViewError("no deal of the hidden cards agrees with the view")
        return held

    def _try_place(self, rng: random.Random, *, guided: bool) -> tuple[int, int, int, int] | None:
        held = list(self._start_held)
        need = list(self._start_need)
        quota = self._quota
        hidden = self._hidden
        start_ids = self._start_ids
        suit_ids: list[Sequence[int]] = list(start_ids)
        if quota == _NO_QUOTA:
            # Every spade stays to be placed, so the order of their shuffle
            # does not matter; its draws are still made, so that a generator
            # gives the same sample with or without spade quotas to fill.
            _skip_shuffle(rng, len(start_ids[SPADES]))
        else:
            spades = list(start_ids[SPADES])
            rng.shuffle(spades)
            for seat in hidden:
                for _ in range(quota[seat]):
                    card = spades.pop()
                    held[seat] |= 1 << card
                    need[seat] -= 1
            spades.sort()
            suit_ids[SPADES] = spades
        eligible_base = self._eligible_any
        eligible_seats = self._eligible_seats
        everyone = self._everyone
        counts = [len(ids) for ids in suit_ids]
        free_cards: list[int] = []
        for suit in self._order:
            seats = eligible_base[suit]
            if seats == everyone and not guided:
                # Any seat may take these: dealt in one shuffle below.
                free_cards += suit_ids[suit]
                continue
            cards = list(suit_ids[suit])
            rng.shuffle(cards)
            takers = eligible_seats[suit]
            for card in cards:
                options = [s for s in takers if need[s] > 0]
                if not options:
                    return None
                if guided:
                    chosen = self._guided_choice(rng, options, need, counts, suit)
                    if chosen is None:  # pragma: no cover - feasibility is kept invariant
                        return None
                elif len(options) == 1:
                    chosen = options[0]
                else:
                    chosen = _weighted(rng, options, need)
                held[chosen] |= 1 << card
                need[chosen] -= 1
                counts[suit] -= 1
        if free_cards:
            rng.shuffle(free_cards)
            position = 0
            for seat in hidden:
                for card in free_cards[position : position + need[seat]]:
                    held[seat] |= 1 << card
                position += need[seat]
        return (held[0], held[1], held[2], held[3])

    def _guided_choice(
        self,
        rng: random.Random,
        options: list[int],
        need: list[int],
        counts: list[int],
        suit: int,
    ) -> int | None:
        remaining = list(options)
        while remaining:
            seat = _weighted(rng, remaining, need)
            remaining.remove(seat)
            need[seat] -= 1
            counts[suit] -= 1
            ok = _hall_ok(counts, self._eligible(need), need)
            need[seat] += 1
            counts[suit] += 1
            if ok:
                return seat
        return None


def _weighted(rng: random.Random, seats: list[int], need: Sequence[int]) -> int:
    if len(seats) == 1:
        return seats[0]
    total = 0
    for seat in seats:
        total += need[seat]
    pick = rng.randrange(total)
    for seat in seats:
        pick -= need[seat]
        if pick < 0:
            return seat
    return seats[-1]  # pragma: no cover - the weights sum to total


def _hall_ok(counts: Sequence[int], eligible: Sequence[int], need: Sequence[int]) -> bool:
    """Whether cards grouped by suit (``counts``) can fill every seat's ``need``
    exactly when suit ``g`` may only go to the seats in ``eligible[g]``: the
    owner's :func:`~spades_core.rules.knowledge.deal_fits`, asked with the
    room each eligible seat has (any number) and the rest have (none)."""
    room = [0] * 16
    for suit in range(4):
        seats = eligible[suit]
        for seat in range(4):
            if seats >> seat & 1:
                room[4 * seat + suit] = 13
    return deal_fits(counts, need, room)


def _played_by(view: View) -> tuple[int, int, int, int]:
    """Per seat, the mask of the cards it has played this hand."""
    played_by = [0, 0, 0, 0]
    for trick in view.tricks:
        for who, card in trick.plays:
            played_by[who] |= 1 << card.id
    for who, card in view.current_trick:
        played_by[who] |= 1 << card.id
    return (played_by[0], played_by[1], played_by[2], played_by[3])


def _passed_to(view: View) -> dict[int, int]:
    """Each card the view shows passed this hand, and the seat number it was
    last passed to."""
    holder: dict[int, int] = {}
    for step in view.phase_steps:
        if step.receiver is not None and type(step.action) is Pass:
            for card in ids_of_mask(step.action.cards.mask):
                holder[card] = int(step.receiver)
    return holder


def _undo_passes(view: View) -> tuple[tuple[int, ...], tuple[int, ...], frozenset[int]]:
    """What turns the hands after a variant's exchange back into the hands
    as bid, by seat number: the cards to take out, the cards to put back,
    and the seats whose hand as bid the view cannot know (passes it did not
    see may have changed them: every seat but its own, when there are any)."""
    taken = [0, 0, 0, 0]
    back = [0, 0, 0, 0]
    first_owner: dict[int, int] = {}
    for step in view.phase_steps:
        if step.receiver is not None and type(step.action) is Pass:
            for card in ids_of_mask(step.action.cards.mask):
                first_owner.setdefault(card, int(step.seat))
    for card, holder in _passed_to(view).items():
        owner = first_owner[card]
        if owner != holder:
            taken[holder] |= 1 << card
            back[owner] |= 1 << card
    seen = [0, 0, 0, 0]
    for step in view.phase_steps:
        if step.receiver is not None and type(step.action) is Pass:
            seen[step.seat] += len(step.action.cards)
    unsure: frozenset[int] = frozenset()
    if any(view.cards_passed.values_[seat] > seen[seat] for seat in range(4)):
        viewer = view.seat
        unsure = frozenset(seat for seat in range(4) if viewer is None or seat != viewer)
    return tuple(taken), tuple(back), unsure


def _revealed_counts(view: View) -> tuple[int, int, int, int]:
    """The dealt spade counts the bids revealed, :data:`UNKNOWN` where none."""
    counts = [UNKNOWN if count is None else count for count in view.spade_counts.values_]
    return (counts[0], counts[1], counts[2], counts[3])


def _known_held(view: View) -> tuple[int, int, int, int]:
    """Per seat, the cards the rules prove it holds beyond what counting does:
    under ``first_lead="two_of_clubs"``, before the first card, the engine has
    handed the lead to the holder of the 2♣; and a card the view's seat
    passed in a variant's exchange is with the seat it went to until that
    seat plays it."""
    held = [0, 0, 0, 0]
    viewer = view.seat
    if viewer is not None and view.phase_steps:
        unseen = view.unseen.mask
        for card, holder in _passed_to(view).items():
            if holder != viewer and unseen >> card & 1:
                held[holder] |= 1 << card
    if (
        view.rules.first_lead is FirstLead.TWO_OF_CLUBS
        and view.phase is Phase.PLAY
        and not view.tricks
        and not view.current_trick
        and view.to_act is not None
        and view.to_act != view.seat
    ):
        held[view.to_act] = 1 << TWO_OF_CLUBS
    return (held[0], held[1], held[2], held[3])


def knowledge_of(view: View) -> Knowledge:
    """What the seat of ``view`` knows of every hand, exactly: the owner,
    :func:`~spades_core.rules.knowledge.seat_knowledge`, given the view's
    unseen cards, hand sizes, shown-out suits, the spades left that the bids
    revealed (less those played since), and the 2♣ of the seat to lead the
    first trick under ``first_lead="two_of_clubs"``. :class:`HiddenCards`
    draws its deals from the same facts.

    In Mirror every bid is the bidder's spade count, so after the bids each
    seat knows every seat's spades:

    >>> import spades_core as sc
    >>> game = sc.new_game("mirror", seed=11).deal()
    >>> while game.phase is sc.Phase.BID:
    ...     game = game.bid(game.legal_bids()[0])
    >>> known = knowledge_of(game.view(sc.Seat.NORTH))
    >>> known.spades_left == tuple(game.hand(seat).count(sc.Suit.SPADES) for seat in sc.Seat)
    True

    Raises :class:`~spades_core.InconsistentViewError` for a view no deal
    fits (never a view of a real game); anything but a view raises
    :class:`~spades_core.ArgumentTypeError`.
    """
    arguments.view(view, "knowledge_of")
    seat = view.seat
    shown_out = [0, 0, 0, 0]
    for who, suits in enumerate(view.shown_out.values_):
        for suit in suits:
            shown_out[who] |= 1 << suit
    return seat_knowledge(
        NO_VIEWER if seat is None else int(seat),
        view.hand().mask,
        view.unseen.mask,
        view.cards_left.values_,
        shown_out,
        revealed_spades_left(_revealed_counts(view), _played_by(view)),
        _known_held(view),
    )


def determinize(view: View, rng: random.Random) -> Game:
    """A complete game the seat of ``view`` cannot tell apart from the real one.

    Every card hidden from the seat is placed at random among the other seats,
    consistent with the view (see the module docs); the result satisfies
    ``sample.view(view.seat) == view``. A spectator's view (``seat`` is
    ``None``) hides all four hands. Views outside bidding and play hide no
    cards; their sample is the public game itself.

    Raises :class:`~spades_core.InconsistentViewError` when no deal fits the
    view (which never happens for a view of a real game).
    """
    arguments.view(view, "determinize")
    rng = checks.random_generator(rng, "determinize")
    seed = rng.getrandbits(64)
    start = _hand_start(view, seed)
    if view.phase not in (Phase.BID, Phase.PLAY):
        return start
    hidden = HiddenCards(view)
    return replay_hand(start, view, hidden.dealt(hidden.sample(rng)))


def _hand_start(view: View, seed: int) -> Game:
    """The game at the start of the view's hand (or over), finished hands copied."""
    results = view.hand_results
    first_dealer = results[0].dealer if results else view.dealer
    options = dict(view.rules.overrides)
    fresh = new_game(view.variant, seed=seed, dealer=first_dealer, **options)
    if not results:
        return fresh
    # A finished hand hides nothing, so the state after it is built from the
    # view's public results, with the engine's own between-hands constructor.
    return between_hands(
        fresh._standing.setup,
        view.dealer,
        (view.scores.values_[0], view.scores.values_[1]),
        (view.bags.values_[0], view.bags.values_[1]),
        results,
        view.winner if view.phase is Phase.GAME_OVER else None,
    )


def replay_hand(start: Game, view: View, dealt: Sequence[int]) -> Game:
    """``start`` (a game in ``DEAL``) with ``dealt`` dealt and the view's hand
    so far (a variant's decisions before the bidding, bids, its passes, then
    plays) replayed through the engine. A view that did not see every card
    passed cannot be replayed: :class:`~spades_core.InconsistentViewError`."""
    hands = tuple(CardSet(mask) for mask in dealt)
    steps = view.phase_steps
    passes = [step for step in steps if type(step.action) is Pass]
    seen = sum(len(step.action.cards) for step in passes if type(step.action) is Pass)
    if seen < sum(view.cards_passed.values_):
        raise InconsistentViewError(
            "the view's seat did not see every card passed this hand, so its history "
            "cannot be replayed on a sampled deal"
        )
    try:
        game = start.apply(Deal((hands[0], hands[1], hands[2], hands[3])))
        for step in steps:
            if type(step.action) is not Pass:
                game = game.apply(step.action, seat=step.seat)
        blind = {step.seat for step in steps if type(step.action) is BlindNil}
        order = [SEATS[(int(view.dealer) + 1 + i) % 4] for i in range(4)]
        for seat in order:
            if seat in blind:
                continue
            bid = view.bids[seat]
            if bid is None:
                break
            game = game.apply(BIDS[bid], seat=seat)
        for step in passes:
            game = game.apply(step.action, seat=step.seat)
        for trick in view.tricks:
            for seat, card in trick.plays:
                game = game.apply(PLAYS[card.id], seat=seat)
        for seat, card in view.current_trick:
            game = game.apply(PLAYS[card.id], seat=seat)
    except IllegalActionError as error:
        shown = " / ".join(str(hand) for hand in hands)
        raise InconsistentViewError(
            f"the view's history cannot be replayed on the sampled deal ({shown}): {error}"
        ) from None
    if game.to_act != view.to_act:
        raise InconsistentViewError(
            f"replaying the view's history leaves {game.to_act} to act, but the view says "
            f"{view.to_act}"
        )
    return game
