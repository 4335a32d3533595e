"""Vectorised policies: who chooses what, for many tables at once.

A policy is any callable taking a :class:`Decision` (one row per table that
must act, all in the same phase) and returning one action id per row, in
:mod:`spades_core.encoding` numbering (cards 0-51, bids 52-65). Three are
built in: ``"random"``, ``"lowest"``, ``"easy"`` (the easy bot's rules,
card for card) and ``"normal"`` (the normal bot's bids, and cards by rules of
its own: see :func:`normal_play`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol, TypeAlias

import attrs
import numpy as np
import numpy.typing as npt

from spades_core.engine.encoding import BID_ID_BASE, NUM_ACTIONS
from spades_core.rules.variant import Variant
from spades_core.values.errors import (
    ArgumentTypeError,
    IllegalActionError,
    IllegalReason,
    RulesError,
    brief,
)
from spades_core.values.options import FirstLead, NilTricks, Rules
from spades_core.values.seats import Seat

from ._refusals import row_refusal
from ._rules import (
    FIRST_SPADE,
    NON_SPADES,
    POPCOUNT14,
    SELECT14,
    SLICE,
    SUIT_MASKS,
    SUIT_OF,
    highest_card,
    lowest_card,
)
from ._types import I8, I32, U64, Ids

__all__ = ["BUILTIN_POLICIES", "Decision", "Policy", "PolicySpec", "resolve_policies"]


_SHIFTS4: Final = np.array([0, 13, 26, 39], dtype=np.uint64)
_BID_BITS: Final = np.arange(14, dtype=np.int32)
_CARD_BIT: Final = np.uint64(1)


@attrs.frozen(eq=False)
class Decision:
    """The tables that must act now, one row each, all bidding or all playing.

    The arrays are read-only views, valid during the policy call only. Seats
    are numbers 0-3 (N, E, S, W); cards are ids (``suit * 13 + rank``).
    """

    phase: str
    """``"bid"`` or ``"play"``."""
    rules: Rules
    """The resolved options of the game."""
    seat: I8
    """The seat to act at each table."""
    hand: U64
    """The cards that seat holds, as a 52-bit mask (bit ``i`` is card id ``i``)."""
    legal: npt.NDArray[Any]
    """The legal choices as a bit mask: card ids while playing (``uint64``),
    bids while bidding (``int32``, bit ``b`` is a bid of ``b``, bit 0 Nil)."""
    bids: I8
    """Bids by seat ``(n, 4)``; -1 for a seat that has not bid yet."""
    won: I8
    """Tricks won this hand by seat ``(n, 4)``."""
    trick: I8
    """Cards of the trick in progress by position from its leader ``(n, 4)``; -1 unplayed."""
    trick_size: I8
    """Cards already played to the trick in progress (0 for a lead)."""
    best: npt.NDArray[np.integer[Any]]
    """The card winning the trick in progress so far; -1 for a lead."""
    leader: I8
    """The seat that led (or leads) the trick in progress."""
    dealer: I8
    """The dealer of the hand."""
    broken: npt.NDArray[np.bool_]
    """Whether spades are broken."""
    rng: np.random.Generator
    """The generator random choices must draw from."""
    played: U64
    """Every card played to the hand so far, the trick in progress included,
    as a 52-bit mask (what every seat has seen)."""

    def __len__(self) -> int:
        return len(self.seat)

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """The legal action ids as ``(n, 66)`` booleans, as
        :func:`spades_core.encoding.legal_mask` gives them for one game."""
        mask = np.zeros((len(self.seat), NUM_ACTIONS), dtype=np.bool_)
        if self.phase == "bid":
            mask[:, BID_ID_BASE:] = (self.legal[:, None] >> _BID_BITS) & 1 != 0
        else:
            bits = np.unpackbits(
                self.legal.astype("<u8")[:, None].view(np.uint8), axis=1, bitorder="little"
            )
            mask[:, :BID_ID_BASE] = bits[:, :BID_ID_BASE] != 0
        return mask

    def take(self, rows: Ids) -> Decision:
        """The decision restricted to ``rows``."""
        return Decision(
            self.phase,
            self.rules,
            self.seat[rows],
            self.hand[rows],
            self.legal[rows],
            self.bids[rows],
            self.won[rows],
            self.trick[rows],
            self.trick_size[rows],
            self.best[rows],
            self.leader[rows],
            self.dealer[rows],
            self.broken[rows],
            self.rng,
            self.played[rows],
        )


class Policy(Protocol):
    """A vectorised player: one legal action id per row of the decision."""

    def __call__(self, decision: Decision, /) -> npt.ArrayLike:
        """The chosen action ids (cards 0-51 while playing, bids 52-65 while bidding)."""
        ...


PolicySpec: TypeAlias = "str | Policy"
"""A built-in policy's name or a policy."""


# -- choosing among legal options ---------------------------------------------------


def random_bids(legal: npt.NDArray[np.integer[Any]], rng: np.random.Generator) -> Ids:
    """A uniformly random bid from each 14-bit mask of legal bids."""
    counts = POPCOUNT14[legal]
    picks = (rng.random(len(legal)) * counts).astype(np.intp)
    chosen: Ids = SELECT14[legal, picks].astype(np.intp)
    return chosen


_SELECT_FLAT: Final = SELECT14.reshape(-1)
_SLICE_SHIFTS: Final = tuple(np.uint64(13 * suit) for suit in range(4))


def random_cards(legal: U64, rng: np.random.Generator) -> Ids:
    """A uniformly random card id from each non-empty 52-bit mask."""
    # Count the legal cards of each suit, draw k below the total, find the
    # suit holding the k-th and select within its 13-bit slice.
    clubs = (legal & SLICE).astype(np.intp)
    diamonds = ((legal >> _SLICE_SHIFTS[1]) & SLICE).astype(np.intp)
    hearts = ((legal >> _SLICE_SHIFTS[2]) & SLICE).astype(np.intp)
    spades = (legal >> _SLICE_SHIFTS[3]).astype(np.intp)
    below_diamonds = POPCOUNT14[clubs]
    below_hearts = below_diamonds + POPCOUNT14[diamonds]
    below_spades = below_hearts + POPCOUNT14[hearts]
    total = below_spades + POPCOUNT14[spades]
    pick = (rng.random(len(legal)) * total).astype(np.int8)
    in_clubs = pick < below_diamonds
    in_diamonds = pick < below_hearts
    in_hearts = pick < below_spades
    at = np.where(
        in_hearts,
        np.where(
            in_diamonds,
            np.where(in_clubs, clubs * 14 + pick, diamonds * 14 + (pick - below_diamonds)),
            hearts * 14 + (pick - below_hearts),
        ),
        spades * 14 + (pick - below_spades),
    )
    suit_base = 13 * ((~in_clubs).astype(np.intp) + ~in_diamonds + ~in_hearts)
    cards: Ids = _SELECT_FLAT[at] + suit_base
    return cards


def random_policy(decision: Decision) -> Ids:
    """Uniform over the legal actions, drawing from ``decision.rng``."""
    if decision.phase == "bid":
        return random_bids(decision.legal, decision.rng) + BID_ID_BASE
    legal: U64 = decision.legal
    if not decision.trick_size.any():
        return random_cards(legal, decision.rng)
    # A follower holding the led suit chooses within that one suit: one table
    # lookup instead of four. The others choose from their whole mask.
    led = SUIT_OF[np.maximum(decision.trick[:, 0], 0)].astype(np.intp)
    in_suit = ((legal >> (led * 13).astype(np.uint64)) & SLICE).astype(np.intp)
    counts = POPCOUNT14[in_suit]
    following = (decision.trick_size > 0) & (counts > 0)
    picks = (decision.rng.random(len(legal)) * counts).astype(np.intp)
    chosen: Ids = 13 * led + SELECT14[in_suit, picks]
    others = np.flatnonzero(~following)
    if len(others):
        chosen[others] = random_cards(legal[others], decision.rng)
    return chosen


def lowest_policy(decision: Decision) -> Ids:
    """The legal action with the lowest id: the lowest card, the lowest bid."""
    if decision.phase == "bid":
        lowest_bid: Ids = SELECT14[decision.legal, 0].astype(np.intp) + BID_ID_BASE
        return lowest_bid
    return lowest_card(decision.legal).astype(np.intp)


# -- the easy bot's rules -------------------------------------------------------------


def _ranks(hand: U64, suit: int) -> npt.NDArray[np.intp]:
    return ((hand >> np.uint64(13 * suit)) & SLICE).astype(np.intp)


def _sure_winners(hand: U64) -> npt.NDArray[np.intp]:
    count = sum((_ranks(hand, suit) >> 12) & 1 for suit in (0, 1, 2))
    spades = _ranks(hand, 3)
    length = POPCOUNT14[spades].astype(np.intp)
    count = count + ((spades >> 12) & 1)
    count = count + (((spades >> 11) & 1) & (length >= 2))
    count = count + (((spades >> 10) & 1) & (length >= 3))
    total: npt.NDArray[np.intp] = count + np.maximum(0, length - 4)
    return total


def _nearest_bid(legal: I32, target: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """The legal non-Nil bid nearest ``target`` (Nil when it is the only
    one), the lower on a tie: the bots' nearest bid."""
    non_nil = legal & ~np.int32(1)
    candidates = np.where(non_nil != 0, non_nil, legal)
    offered = (candidates[:, None] >> _BID_BITS) & 1 != 0
    distance = np.abs(_BID_BITS[None, :] - target[:, None]) * 16 + _BID_BITS[None, :]
    nearest: npt.NDArray[np.intp] = np.where(offered, distance, 1 << 20).argmin(axis=1)
    return nearest


def easy_bid(decision: Decision) -> Ids:
    """The easy bot's bid: a forced bid as it is; from Nil or one count, Nil
    with no king or ace anywhere and at most three low spades; otherwise the
    legal non-Nil bid nearest its sure winners (at least 1), the lower on a tie."""
    legal: I32 = decision.legal
    hand = decision.hand
    counts = POPCOUNT14[legal]
    spades = _ranks(hand, 3)
    high_cards = sum(_ranks(hand, suit) >> 11 for suit in range(4))
    weak = (high_cards == 0) & (spades < 1 << 10) & (POPCOUNT14[spades] <= 3)
    nil_or_count = (counts == 2) & (legal & 1 != 0)
    count_bid = SELECT14[legal, 1].astype(np.intp)
    nearest = _nearest_bid(legal, np.maximum(1, _sure_winners(hand)))
    chosen = np.where(nil_or_count, np.where(weak, 0, count_bid), nearest)
    chosen = np.where(counts == 1, SELECT14[legal, 0], chosen)
    return chosen.astype(np.intp) + BID_ID_BASE


def _suit_key_choice(
    keys: list[npt.NDArray[np.intp]], cards: list[npt.NDArray[np.intp]], *, highest: bool
) -> npt.NDArray[np.intp]:
    stacked = np.stack(keys, axis=1)
    pick = stacked.argmax(axis=1) if highest else stacked.argmin(axis=1)
    return np.stack(cards, axis=1)[np.arange(len(pick)), pick]  # type: ignore[no-any-return]


def _suit_lengths(hand: U64) -> list[npt.NDArray[np.intp]]:
    """The length of each suit in ``hand``, by suit."""
    return [POPCOUNT14[_ranks(hand, suit)].astype(np.intp) for suit in range(4)]


def _by_rank(
    mask: U64,
    hand: U64,
    *,
    highest: bool,
    lengths: list[npt.NDArray[np.intp]] | None = None,
) -> npt.NDArray[np.intp]:
    """The card of ``mask`` with the lowest (or highest) rank; ties go to the
    shortest suit in ``hand``, then to the first suit (``lengths``: the suit
    lengths of ``hand`` when known). A row with no card gives a card id that
    means nothing."""
    lengths = _suit_lengths(hand) if lengths is None else lengths
    # Each suit's candidate as one number, key * 64 + card (63 - card for the
    # highest, so that a tie still goes to the first suit): one maximum or
    # minimum over the suits picks the card.
    best: npt.NDArray[np.intp] | None = None
    for suit in range(4):
        bits = mask & SUIT_MASKS[suit]
        rank_base = -13 * suit
        if highest:
            card = highest_card(bits).astype(np.intp)
            key = (card + rank_base) * 32 + (16 - lengths[suit])
            value = np.where(bits != 0, key * 64 + (63 - card), -1)
            best = value if best is None else np.maximum(best, value)
        else:
            card = lowest_card(bits).astype(np.intp)
            key = (card + rank_base) * 32 + lengths[suit]
            value = np.where(bits != 0, key * 64 + card, 1 << 30)
            best = value if best is None else np.minimum(best, value)
    assert best is not None
    chosen: npt.NDArray[np.intp] = (63 - (best & 63)) if highest else (best & 63)
    return chosen


def _easy_lead(legal: U64, hand: U64) -> npt.NDArray[np.intp]:
    side = legal & NON_SPADES
    choice = lowest_card(legal).astype(np.intp)
    lengths = [POPCOUNT14[_ranks(hand, suit)].astype(np.intp) for suit in (0, 1, 2)]
    keys = [np.where(side & SUIT_MASKS[suit] != 0, lengths[suit], -1) for suit in (0, 1, 2)]
    lows = [lowest_card(side & SUIT_MASKS[suit]).astype(np.intp) for suit in (0, 1, 2)]
    longest_low = _suit_key_choice(keys, lows, highest=True)
    choice = np.where(side != 0, longest_low, choice)
    for suit in (2, 1, 0):
        ace = 13 * suit + 12
        choice = np.where((side >> np.uint64(ace)) & _CARD_BIT != 0, ace, choice)
    return choice


def easy_play(decision: Decision) -> Ids:
    """The easy bot's card. Leading: a side-suit ace, else the lowest card of
    its longest side suit, else its lowest card. Following: a live Nil plays
    its highest card that does not win (else its lowest); anyone else wins
    as cheaply as it can (in the led suit if possible) or throws its lowest
    ranked side card, the shortest suit on a tie."""
    legal: U64 = decision.legal
    hand = decision.hand
    best = decision.best.astype(np.intp)
    leading = decision.trick_size == 0
    best_safe = np.maximum(best, 0)
    best_suit = best_safe // 13
    above = SUIT_MASKS[best_suit] & ~((np.uint64(2) << best_safe.astype(np.uint64)) - _CARD_BIT)
    beat = legal & above
    beat |= np.where(best_safe < FIRST_SPADE, legal & SUIT_MASKS[3], np.uint64(0))
    rows = np.arange(len(legal))
    seat = decision.seat.astype(np.intp)
    nil_alive = (decision.bids[rows, seat] == 0) & (decision.won[rows, seat] == 0)
    under = legal & ~beat
    nil_choice = np.where(
        under != 0, _by_rank(under, hand, highest=True), lowest_card(legal).astype(np.intp)
    )
    led_suit = np.maximum(decision.trick[:, 0], 0).astype(np.intp) // 13
    beat_led = beat & SUIT_MASKS[led_suit]
    win_choice = lowest_card(np.where(beat_led != 0, beat_led, beat)).astype(np.intp)
    side = legal & NON_SPADES
    throw = _by_rank(np.where(side != 0, side, legal), hand, highest=False)
    follow = np.where(nil_alive, nil_choice, np.where(beat != 0, win_choice, throw))
    if leading.all():
        return _easy_lead(legal, hand)
    if not leading.any():
        return follow
    return np.where(leading, _easy_lead(legal, hand), follow)


def easy_policy(decision: Decision) -> Ids:
    """The easy bot's bids and cards (see :func:`easy_bid` and :func:`easy_play`)."""
    if decision.phase == "bid":
        return easy_bid(decision)
    return easy_play(decision)


# -- the normal batch policy ----------------------------------------------------------


def estimate_tricks(hand: U64) -> npt.NDArray[np.float64]:
    """The normal bot's trick estimate
    (:func:`spades_core.bots.bidding.estimate_tricks`) of every hand: its
    declared twin on arrays, held to it by a test. Each row adds the same
    numbers in the same order (adding 0.0 where the bot adds nothing), so
    the sums are equal to the last bit."""
    total = np.zeros(len(hand))
    short = np.zeros(len(hand))
    for suit in (0, 1, 2):
        bits = _ranks(hand, suit)
        length = POPCOUNT14[bits]
        ace = (bits >> 12) & 1 != 0
        king = (bits >> 11) & 1 != 0
        queen = (bits >> 10) & 1 != 0
        total = total + np.where(ace, np.where(length <= 5, 1.0, 0.7), 0.0)
        king_value = np.where(
            length == 1, 0.15, np.where(length <= 5, np.where(ace, 0.85, 0.6), 0.3)
        )
        total = total + np.where(king, king_value, 0.0)
        middling = queen & (length >= 3) & (length <= 5)
        total = total + np.where(middling, np.where(ace | king, 0.45, 0.25), 0.0)
        short = short + np.select([length == 0, length == 1, length == 2], [0.9, 0.55, 0.2], 0.0)
    spades = _ranks(hand, 3)
    count = POPCOUNT14[spades].astype(np.intp)
    honours = np.zeros(len(hand), dtype=np.intp)
    for rank, value in ((12, None), (11, (2, 0.9, 0.4)), (10, (3, 0.75, 0.25))):
        held = (spades >> rank) & 1 != 0
        if value is None:
            total = total + np.where(held, 1.0, 0.0)
        else:
            least, long_value, short_value = value
            total = total + np.where(held, np.where(count >= least, long_value, short_value), 0.0)
        honours += held
    jack = ((spades >> 9) & 1 != 0) & (count >= 4)
    total = total + np.where(jack, 0.4, 0.0)
    honours += jack
    total = total + np.maximum(0, count - 3) * 0.85
    spare = np.maximum(0, np.minimum(count, 3) - honours)
    estimate: npt.NDArray[np.float64] = total + np.minimum(short, spare * 0.8)
    return estimate


def nil_risk(hand: U64) -> npt.NDArray[np.float64]:
    """The normal bot's Nil risk (:func:`spades_core.bots.bidding.nil_risk`)
    of every hand: its declared twin on arrays, the same additions in the
    same order, held to it by a test."""
    risk = np.zeros(len(hand))
    for suit in range(4):
        bits = _ranks(hand, suit)
        cover = np.zeros(len(hand), dtype=np.intp)
        for rank in range(13):
            held = (bits >> rank) & 1 != 0
            # Spades cannot be thrown away when trumps are led: stricter, as the bot says.
            danger = rank - 3 - 2.0 * cover if suit == 3 else rank - 5 - 2.5 * cover
            risk = risk + np.where(held & (danger > 0), danger, 0.0)
            cover += held
        if suit == 3:
            risk = risk + np.where(cover > 2, 1.5 * (cover - 2), 0.0)
    return risk


def normal_bid(decision: Decision) -> Ids:
    """The normal bot's bid (:func:`spades_core.bots.bidding.normal_bid`),
    bid for bid: a forced bid as it is; Nil when the hand's Nil risk is at
    most 3 (1 when the partner bid Nil) and it estimates under 2 tricks —
    in a choice of Nil or one count, else only when the partner has not bid
    or bid 3 or more; otherwise the legal non-Nil bid nearest its rounded
    trick estimate (at least 1)."""
    legal: I32 = decision.legal
    hand = decision.hand
    rows = np.arange(len(legal))
    counts = POPCOUNT14[legal]
    partner_bid = decision.bids[rows, (decision.seat.astype(np.intp) ^ 2)]
    estimate = estimate_tricks(hand)
    nil_legal = legal & 1 != 0
    limit = np.where(partner_bid != 0, 3.0, 1.0)
    nil_ok = nil_legal & (nil_risk(hand) <= limit) & (estimate < 2.0)
    nil_or_count = (counts == 2) & nil_legal
    target = np.maximum(1, np.floor(estimate + 0.5).astype(np.intp))
    chosen = _nearest_bid(legal, target)
    partner_lets = (partner_bid != 0) & ((partner_bid == -1) | (partner_bid >= 3))
    chosen = np.where(nil_ok & partner_lets, 0, chosen)
    chosen = np.where(nil_or_count, np.where(nil_ok, 0, SELECT14[legal, 1]), chosen)
    chosen = np.where(counts == 1, SELECT14[legal, 0], chosen)
    return chosen.astype(np.intp) + BID_ID_BASE


_FULL_DECK: Final = np.uint64((1 << 52) - 1)
_NONE: Final = np.uint64(0)


def _above(cards: npt.NDArray[np.intp]) -> U64:
    """The cards of each card's suit that outrank it (``cards`` at least 0)."""
    above: U64 = SUIT_MASKS[cards // 13] & ~((np.uint64(2) << cards.astype(np.uint64)) - _CARD_BIT)
    return above


def _bosses(cards: U64, unseen: U64) -> U64:
    """The cards of ``cards`` that no ``unseen`` card of their suit outranks."""
    out = np.zeros(len(cards), dtype=np.uint64)
    for suit in range(4):
        top = highest_card(unseen & SUIT_MASKS[suit]).astype(np.intp)
        clear = np.where(top < 0, SUIT_MASKS[suit], _above(np.maximum(top, 13 * suit)))
        out |= cards & SUIT_MASKS[suit] & clear
    return out


def _lowest(mask: U64) -> npt.NDArray[np.intp]:
    return lowest_card(mask).astype(np.intp)


def _highest(mask: U64) -> npt.NDArray[np.intp]:
    return highest_card(mask).astype(np.intp)


def _either(first: U64, second: U64) -> U64:
    """``first`` where it holds a card, else ``second``."""
    chosen: U64 = np.where(first != 0, first, second)
    return chosen


def normal_play(decision: Decision) -> Ids:
    """The normal batch policy's card: rules of its own in the spirit of the
    normal bot, counting the cards played (``decision.played``), but not the
    normal bot card for card (the rules are listed in the batch documentation)."""
    leading = decision.trick_size == 0
    if leading.all():
        return _normal_lead(_Seen(decision))
    if not leading.any():
        return _normal_follow(_Seen(decision))
    chosen = np.empty(len(decision), dtype=np.intp)
    lead_rows = np.flatnonzero(leading)
    follow_rows = np.flatnonzero(~leading)
    chosen[lead_rows] = _normal_lead(_Seen(decision.take(lead_rows)))
    chosen[follow_rows] = _normal_follow(_Seen(decision.take(follow_rows)))
    return chosen


class _Seen:
    """What the normal batch policy reads of a decision, worked out once."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision
        legal: U64 = decision.legal
        hand = decision.hand
        rows = np.arange(len(legal))
        seat = decision.seat.astype(np.intp)
        self.legal = legal
        self.hand = hand
        self.lengths = _suit_lengths(hand)
        self.unseen = _FULL_DECK & ~decision.played & ~hand
        self.side = legal & NON_SPADES
        bids = decision.bids.astype(np.intp)
        won = decision.won.astype(np.intp)
        self.alive = alive = (bids == 0) & (won == 0)
        self.rows = rows
        self.seat = seat
        self.own_nil = alive[rows, seat]
        self.partner_nil = alive[rows, seat ^ 2]
        self.left, self.right = (seat + 1) & 3, (seat + 3) & 3
        self.opponent_nil = alive[rows, self.left] | alive[rows, self.right]
        nil_counts = decision.rules.nil_tricks is NilTricks.COUNT_TOWARD_CONTRACT

        def team(of: npt.NDArray[np.intp]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
            mine, theirs = bids[rows, of], bids[rows, of ^ 2]
            contract = np.maximum(mine, 0) + np.maximum(theirs, 0)
            if nil_counts:
                counted = won[rows, of] + won[rows, of ^ 2]
            else:
                counted = np.where(mine != 0, won[rows, of], 0)
                counted = counted + np.where(theirs != 0, won[rows, of ^ 2], 0)
            return contract, contract - counted

        contract, need = team(seat)
        their_contract, their_need = team(self.left)
        self.wants = (contract > 0) & ((need > 0) | ((their_contract > 0) & (their_need > 0)))
        unseen = self.unseen
        self.spades_out = (unseen & SUIT_MASKS[3]) != 0
        # A side card is safe from a ruff when no spade is out, or three of its suit still are.
        safe = SUIT_MASKS[3] | np.where(self.spades_out, _NONE, NON_SPADES)
        self.outstanding = []
        for suit in (0, 1, 2):
            out = POPCOUNT14[((unseen >> np.uint64(13 * suit)) & SLICE).astype(np.intp)]
            self.outstanding.append(out)
            safe |= np.where(out >= 3, SUIT_MASKS[suit], _NONE)
        self.safe = safe

    def by_rank(self, mask: U64, *, highest: bool) -> npt.NDArray[np.intp]:
        return _by_rank(mask, self.hand, highest=highest, lengths=self.lengths)


def _normal_follow(seen: _Seen) -> Ids:
    decision = seen.decision
    legal, unseen, safe = seen.legal, seen.unseen, seen.safe
    size = decision.trick_size.astype(np.intp)
    best = np.maximum(decision.best, 0).astype(np.intp)
    beat = legal & _above(best)
    beat |= np.where(best < FIRST_SPADE, legal & SUIT_MASKS[3], _NONE)
    under = legal & ~beat
    led_mask = SUIT_MASKS[np.maximum(decision.trick[:, 0], 0).astype(np.intp) // 13]
    following = (legal & led_mask) != 0
    trick = decision.trick.astype(np.intp)
    position = np.argmax(trick == best[:, None], axis=1)
    leader = decision.leader.astype(np.intp)
    winner = (leader + position) & 3
    partner = seen.seat ^ 2
    opponent_winning_nil = seen.alive[seen.rows, winner] & (
        (winner == seen.left) | (winner == seen.right)
    )
    partner_played = ((partner - leader) & 3) < size
    last = size == 3
    low_rank = seen.by_rank(_either(seen.side, legal), highest=False)
    lowest = _lowest(legal)
    throw = np.where(following, lowest, low_rank)
    high_under = np.where(
        following, _highest(under), seen.by_rank(_either(under & NON_SPADES, under), highest=True)
    )
    forced = np.where(last, _highest(legal), lowest)
    duck = np.where(under != 0, high_under, forced)
    sure = _bosses(beat, unseen) & safe
    shift = best.astype(np.uint64)
    partner_boss = ((unseen & _above(best)) == 0) & ((safe >> shift) & _CARD_BIT != 0)
    lowest_beat = _lowest(beat)
    chosen: Ids = np.select(
        [
            seen.own_nil,
            seen.partner_nil & partner_played & (winner == partner) & (beat != 0),
            seen.partner_nil & ~partner_played & (beat != 0),
            opponent_winning_nil,
            seen.opponent_nil,
            ~seen.wants,
            (winner == partner) & (last | partner_boss),
            beat == 0,
            last,
            sure != 0,
            ~following,
            size == 1,
        ],
        [
            duck,
            lowest_beat,
            _highest(beat),
            duck,
            throw,
            duck,
            throw,
            throw,
            _lowest(_either(beat & led_mask, beat)),
            _lowest(_either(sure & led_mask, sure)),
            lowest_beat,
            lowest,
        ],
        _highest(beat),
    )
    return chosen


def _normal_lead(seen: _Seen) -> Ids:
    legal, unseen, side = seen.legal, seen.unseen, seen.side
    count = len(legal)
    lowest_ranked = seen.by_rank(legal, highest=False)
    cash = np.full(count, -1, dtype=np.intp)
    cash_key = np.full(count, -1, dtype=np.intp)
    for suit in (0, 1, 2):
        mine = legal & SUIT_MASKS[suit]
        top = _highest(mine)
        outstanding = seen.outstanding[suit]
        boss = (unseen & _above(np.maximum(top, 0))) == 0
        ok = (mine != 0) & boss & ((seen.safe & SUIT_MASKS[suit]) != 0) & (outstanding > cash_key)
        cash = np.where(ok, top, cash)
        cash_key = np.where(ok, outstanding, cash_key)
    top_spade = _highest(legal & SUIT_MASKS[3])
    sure_spade = (unseen & _above(np.maximum(top_spade, 0))) == 0
    draw = (top_spade >= 0) & seen.spades_out & sure_spade
    chosen: Ids = np.select(
        [
            seen.own_nil,
            seen.partner_nil,
            seen.opponent_nil | ~seen.wants,
            cash >= 0,
            draw,
            side == 0,
        ],
        [
            lowest_ranked,
            seen.by_rank(_either(side, legal), highest=True),
            lowest_ranked,
            cash,
            top_spade,
            _lowest(legal),
        ],
        _easy_lead(legal, seen.hand),
    )
    return chosen


def normal_policy(decision: Decision) -> Ids:
    """The normal bot's bids (:func:`normal_bid`) and the normal batch
    policy's own cards (:func:`normal_play`)."""
    if decision.phase == "bid":
        return normal_bid(decision)
    return normal_play(decision)


BUILTIN_POLICIES: Final[dict[str, Callable[[Decision], Ids]]] = {
    "random": random_policy,
    "lowest": lowest_policy,
    "easy": easy_policy,
    "normal": normal_policy,
}
"""The built-in policies by name."""


# -- resolving and checking ----------------------------------------------------------


def resolve_policies(policy: object) -> tuple[tuple[Callable[[Decision], object], ...], bool]:
    """The policy of each seat (N, E, S, W) for ``policy`` (one for all seats or a
    sequence of four), and whether every one is built in (trusted to choose legally)."""
    if isinstance(policy, str) or callable(policy):
        given: Sequence[object] = (policy,) * 4
    elif isinstance(policy, Sequence) and len(policy) == 4:
        given = policy
    elif isinstance(policy, Sequence):
        raise RulesError(
            f"policy must be a name ({', '.join(map(repr, BUILTIN_POLICIES))}), a policy "
            f"function, or a sequence of four of them (N, E, S, W); got {brief(policy)}"
        )
    else:
        raise ArgumentTypeError(
            f"policy must be a name ({', '.join(map(repr, BUILTIN_POLICIES))}), a policy "
            f"function, or a sequence of four of them (N, E, S, W); got {brief(policy)}"
        )
    resolved = []
    for item in given:
        if isinstance(item, str):
            found = BUILTIN_POLICIES.get(item)
            if found is None:
                raise RulesError(
                    f"unknown policy {brief(item)}; the built-in policies are "
                    f"{', '.join(map(repr, BUILTIN_POLICIES))}, or pass a policy function"
                )
            resolved.append(found)
        elif callable(item):
            resolved.append(item)
        else:
            raise ArgumentTypeError(
                f"a policy must be a name or a function of a Decision; got {brief(item)}"
            )
    trusted = all(item in BUILTIN_POLICIES.values() for item in resolved)
    return tuple(resolved), trusted


def checked_choices(
    variant: Variant, decision: Decision, chosen: object, offset: Ids | None = None
) -> Ids:
    """A policy's answer as action ids, checked to be legal; otherwise the
    engine's :class:`IllegalActionError` for the first illegal row, naming
    the row and its seat (the reason is the engine's own, see
    :func:`~._refusals.row_refusal`).

    ``offset`` maps decision rows to the rows the caller reports (batch rows)."""
    ids = np.asarray(chosen)
    count = len(decision)
    if ids.shape != (count,) or ids.dtype.kind not in "iu":
        raise IllegalActionError(
            IllegalReason.NOT_AN_ACTION,
            f"a policy must return {count} whole-number action ids (one per row); "
            f"got {brief(chosen)}",
        )
    ids = ids.astype(np.intp)
    if decision.phase == "bid":
        values = ids - BID_ID_BASE
        in_range = (values >= 0) & (values < 14)
        ok = in_range & ((decision.legal >> np.where(in_range, values, 0)) & 1 != 0)
    else:
        in_range = (ids >= 0) & (ids < BID_ID_BASE)
        shift = np.where(in_range, ids, 0).astype(np.uint64)
        ok = in_range & ((decision.legal >> shift) & _CARD_BIT != 0)
    if ok.all():
        return ids
    row = int(np.flatnonzero(~ok)[0])
    where = int(offset[row]) if offset is not None else row
    seat = int(decision.seat[row])
    size = int(decision.trick_size[row])
    refusal = row_refusal(
        variant,
        decision.rules,
        bidding=decision.phase == "bid",
        seat=seat,
        hand=int(decision.hand[row]),
        bids=[int(bid) for bid in decision.bids[row]],
        trick=[int(card) for card in decision.trick[row, :size]],
        broken=bool(decision.broken[row]),
        leads_two_of_clubs=(
            int(decision.won[row].sum()) == 0
            and decision.rules.first_lead is FirstLead.TWO_OF_CLUBS
        ),
        action=int(ids[row]),
    )
    raise IllegalActionError(
        refusal.reason,
        f"the policy chose action id {int(ids[row])} for row {where} "
        f"({Seat(seat).name} to {decision.phase}), which is not legal there: {refusal}",
    )
