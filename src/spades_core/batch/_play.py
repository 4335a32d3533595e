"""Playing many single hands at once: :func:`play_hands` and :func:`play_hands_in_chunks`."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from spades_core.rules.registry import load_variant
from spades_core.rules.rng import MAX_SEED
from spades_core.rules.tricks import LEFT_OF
from spades_core.rules.variant import Variant
from spades_core.values.errors import ArgumentTypeError, RulesError, brief
from spades_core.values.seats import Seat

from . import _arguments as arguments
from ._deal import CARD_BITS, deal_hands, first_dealers
from ._forms import BatchRules, batch_rules
from ._policies import Decision, checked_choices, resolve_policies
from ._rules import (
    NO_BID,
    SUIT_OF,
    breaks_spades,
    follow_plays,
    lead_plays,
    trick_strength,
)
from ._types import I8, U64, Ids

__all__ = ["DEFAULT_CHUNK", "BatchResult", "play_hands", "play_hands_in_chunks"]

_LEFT_OF: Final = np.array(LEFT_OF, dtype=np.int8)


DEFAULT_CHUNK: Final = 1 << 14
"""Hands played together by default: big enough to amortise numpy's per-call
cost, small enough to stay in the processor's caches."""


@attrs.frozen(eq=False)
class BatchResult:
    """One row per hand played, in the order of the seeds. Seats are in the
    order N, E, S, W and teams NS, EW; cards are :mod:`spades_core.encoding` ids."""

    seeds: U64
    """The seed of each hand's game ``(n,)``."""
    dealer: I8
    """The dealer's seat number ``(n,)``."""
    hands: I8
    """The 13 cards dealt to each seat, ascending ``(n, 4, 13)``."""
    bids: I8
    """Each seat's bid, 0 for Nil ``(n, 4)``."""
    tricks: I8
    """Tricks each seat won ``(n, 4)``."""
    points: npt.NDArray[np.int32]
    """Points each team scored ``(n, 2)``, from 0-0."""
    bags: npt.NDArray[np.int32]
    """Bags each team holds after the hand ``(n, 2)``, from none."""

    def __len__(self) -> int:
        return len(self.seeds)

    @staticmethod
    def concatenate(parts: Sequence[BatchResult]) -> BatchResult:
        """The rows of ``parts`` one after another."""
        if not parts:
            return _empty_result()
        if len(parts) == 1:
            return parts[0]
        return BatchResult(
            *(
                np.concatenate([getattr(part, field.name) for part in parts])
                for field in attrs.fields(BatchResult)
            )
        )


def _empty_result() -> BatchResult:
    return BatchResult(
        np.zeros(0, np.uint64),
        np.zeros(0, np.int8),
        np.zeros((0, 4, 13), np.int8),
        np.zeros((0, 4), np.int8),
        np.zeros((0, 4), np.int8),
        np.zeros((0, 2), np.int32),
        np.zeros((0, 2), np.int32),
    )


def play_hands(
    variant: str | Variant,
    seeds: object,
    *,
    bids: object = None,
    policy: object = "random",
    rng: object = None,
    chunk_size: int = DEFAULT_CHUNK,
    **options: object,
) -> BatchResult:
    """Play the first hand of a game for every seed, from 0-0, and return
    the results as arrays.

    Hand ``i`` is dealt exactly as ``sc.new_game(variant, seed=seeds[i],
    **options).deal()`` deals it (cards and dealer). ``seeds`` is a range, a
    sequence or a 1-D integer array of values from 0 to 2**64-1.

    ``bids`` is ``None`` (the policy bids) or an ``(n, 4)`` integer array of
    bids by seat, each checked against the variant's legal bids at its turn;
    ``policy`` is ``"random"``, ``"lowest"``, ``"easy"``, a policy function
    (see :class:`Decision`), or a sequence of four of these by seat; ``rng``
    (a ``numpy.random.Generator`` or a seed for one) feeds random choices.
    Hands are played ``chunk_size`` at a time, so working memory does not
    grow with the number of hands (:func:`play_hands_in_chunks` streams the results).

    Every variant plays: with its array forms (see
    :meth:`spades_core.Variant.array_forms`), or row by row through its
    hooks. Raises :class:`~spades_core.RulesError` for a bad seed, bid
    (naming its row and seat), option or argument,
    :class:`~spades_core.IllegalActionError` when a policy function chooses
    an illegal action, and :class:`~spades_core.VariantLoadError` when a
    variant's hook or array form fails or answers nonsense.
    """
    return BatchResult.concatenate(
        list(
            play_hands_in_chunks(
                variant,
                seeds,
                bids=bids,
                policy=policy,
                rng=rng,
                chunk_size=chunk_size,
                **options,
            )
        )
    )


def play_hands_in_chunks(
    variant: str | Variant,
    seeds: object,
    *,
    bids: object = None,
    policy: object = "random",
    rng: object = None,
    chunk_size: int = DEFAULT_CHUNK,
    **options: object,
) -> Iterator[BatchResult]:
    """:func:`play_hands`, yielding the results ``chunk_size`` hands at a time.

    Every argument is checked before the first chunk is played, except the
    legality of given bids and of a policy function's choices, which is
    checked as each chunk is played.
    """
    rules = resolve_variant(variant, options)
    count, seed_chunk = seed_source(seeds)
    if type(chunk_size) is not int or chunk_size < 1:
        raise RulesError(
            f"chunk_size must be a whole number of at least 1; got {brief(chunk_size)}"
        )
    given = _given_bids(bids, count)
    policies, trusted = resolve_policies(policy)
    generator = make_rng(rng)
    return _chunks(rules, count, seed_chunk, given, policies, trusted, generator, chunk_size)


def _chunks(
    rules: BatchRules,
    count: int,
    seed_chunk: Callable[[int, int], U64],
    given: npt.NDArray[np.int8] | None,
    policies: tuple[Callable[[Decision], object], ...],
    trusted: bool,
    generator: np.random.Generator,
    chunk_size: int,
) -> Iterator[BatchResult]:
    for start in range(0, count, chunk_size):
        stop = min(count, start + chunk_size)
        chunk_seeds = seed_chunk(start, stop)
        yield _play_chunk(
            rules,
            chunk_seeds,
            given=None if given is None else given[start:stop],
            policies=policies,
            trusted=trusted,
            rng=generator,
            first_row=start,
        )


# -- checking arguments -------------------------------------------------------------


def resolve_variant(variant: object, options: dict[str, object]) -> BatchRules:
    """The batch rules of a variant (an id or a :class:`Variant`) under ``options``."""
    if isinstance(variant, Variant):
        chosen = variant
    elif isinstance(variant, str):
        chosen = load_variant(variant)
    else:
        raise ArgumentTypeError(f"variant must be a variant id or a Variant; got {brief(variant)}")
    return batch_rules(chosen, dict(options))


def seed_source(seeds: object) -> tuple[int, Callable[[int, int], U64]]:
    """The number of seeds and a function giving rows ``start:stop`` as ``uint64``."""
    if isinstance(seeds, range):
        if len(seeds) and (min(seeds[0], seeds[-1]) < 0 or max(seeds[0], seeds[-1]) > MAX_SEED):
            raise RulesError(f"seeds must be whole numbers from 0 to 2**64-1; got {brief(seeds)}")
        span = seeds

        def from_range(start: int, stop: int) -> U64:
            part = span[start:stop]
            return np.arange(part.start, part.stop, part.step, dtype=np.uint64)

        return len(seeds), from_range
    values = _seed_array(seeds)

    def from_array(start: int, stop: int) -> U64:
        return values[start:stop]

    return len(values), from_array


def _seed_array(seeds: object) -> U64:
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__len__"):
        raise ArgumentTypeError(
            f"seeds must be a range, a sequence or a 1-D array of whole numbers; got {brief(seeds)}"
        )
    if isinstance(seeds, np.ndarray):
        array = seeds
    else:
        # Python ints may exceed int64, so a list is read as objects, not guessed at.
        try:
            array = np.array(list(seeds), dtype=object)  # type: ignore[call-overload]
        except Exception:  # a ragged list, or whatever a sequence's own iteration raises
            array = np.asarray(None)
    if array.ndim != 1:
        raise RulesError(f"seeds must be one-dimensional; got shape {array.shape}")
    if array.dtype.kind == "u":
        return array.astype(np.uint64)
    if array.dtype.kind == "i":
        bad = np.flatnonzero(array < 0)
    elif array.dtype.kind == "O" or len(array) == 0:
        bad = np.array(
            [i for i, s in enumerate(array) if type(s) is not int or not 0 <= s <= MAX_SEED],
            dtype=np.intp,
        )
        if not len(bad):
            return np.array([int(s) for s in array], dtype=np.uint64)
    else:
        raise ArgumentTypeError(f"seeds must be whole numbers; got an array of {array.dtype}")
    if len(bad):
        row = int(bad[0])
        error = RulesError if type(array[row]) in (int, np.int64) else ArgumentTypeError
        raise error(
            f"seed at row {row} is {brief(array[row])}; seeds are whole numbers from 0 to 2**64-1"
        )
    return array.astype(np.uint64)


def _given_bids(bids: object, count: int) -> npt.NDArray[np.int8] | None:
    if bids is None:
        return None
    what = f"a ({count}, 4) array of whole numbers (one row per seed, seats N, E, S, W), or None"
    given = arguments.whole_numbers(bids, "play_hands", "bids", what)
    if given.shape != (count, 4):
        raise RulesError(f"play_hands: bids must be {what}; got the shape {given.shape}")
    bad = np.argwhere((given < 0) | (given > 13))
    if len(bad):
        row, seat = (int(x) for x in bad[0])
        raise RulesError(
            f"bid at row {row}, seat {Seat(seat).name}, is {int(given[row, seat])}; "
            "bids are 0 (Nil) to 13"
        )
    return given.astype(np.int8)


def make_rng(rng: object) -> np.random.Generator:
    """A generator from ``rng``: a Generator as is, a seed or ``None`` for a new one."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (type(rng) is int and rng >= 0):
        return np.random.default_rng(rng)
    raise (RulesError if type(rng) is int else ArgumentTypeError)(
        f"rng must be a numpy.random.Generator, a whole number of at least 0 or None; "
        f"got {brief(rng)}"
    )


# -- playing ------------------------------------------------------------------------


class Chooser:
    """Asks each seat's policy for the rows where that seat acts, and checks
    the answers of policies that are not built in."""

    def __init__(
        self,
        variant: Variant,
        policies: tuple[Callable[[Decision], object], ...],
        trusted: bool,
        first_row: int,
    ) -> None:
        self.variant = variant
        self.distinct = tuple(dict.fromkeys(policies))
        self.single = len(self.distinct) == 1
        self.policy_of_seat = np.array([self.distinct.index(p) for p in policies], np.intp)
        self.trusted = trusted
        self.first_row = first_row

    def __call__(self, decision: Decision, rows: Ids | None = None) -> Ids:
        """The chosen action id of every row of ``decision``; ``rows`` are the
        batch rows of the decision's rows, for messages."""
        if self.single:
            return self._ask(self.distinct[0], decision, rows)
        chosen = np.empty(len(decision), dtype=np.intp)
        which = self.policy_of_seat[decision.seat]
        for index, policy in enumerate(self.distinct):
            part = np.flatnonzero(which == index)
            if len(part):
                chosen[part] = self._ask(
                    policy, decision.take(part), part if rows is None else rows[part]
                )
        return chosen

    def _ask(
        self, policy: Callable[[Decision], object], decision: Decision, rows: Ids | None
    ) -> Ids:
        answer = policy(decision)
        if self.trusted:
            return answer  # type: ignore[return-value]
        offset = (np.arange(len(decision)) if rows is None else rows) + self.first_row
        return checked_choices(self.variant, decision, answer, offset)


def _play_chunk(
    rules: BatchRules,
    seeds: U64,
    *,
    given: npt.NDArray[np.int8] | None,
    policies: tuple[Callable[[Decision], object], ...],
    trusted: bool,
    rng: np.random.Generator,
    first_row: int = 0,
) -> BatchResult:
    """The first hand of every seed's game, all played together."""
    count = len(seeds)
    dealer = first_dealers(seeds)
    first_bidder = _LEFT_OF[dealer]
    held, hands = deal_hands(seeds, np.zeros(count, np.uint64), dealer)
    choose = Chooser(rules.variant, policies, trusted, first_row)
    rows = np.arange(count)
    flat_held = held.reshape(-1)
    seat_base = rows * 4
    bids = np.full((count, 4), NO_BID, dtype=np.int8)
    won = np.zeros((count, 4), dtype=np.int8)
    trick = np.full((count, 4), -1, dtype=np.int8)
    broken = np.zeros(count, dtype=np.bool_)
    no_card = np.full(count, -1, dtype=np.int8)
    sizes = [np.full(count, size, dtype=np.int8) for size in range(4)]
    played = np.zeros(count, dtype=np.uint64)
    game_rules = rules.rules

    for turn in range(4):
        seat = ((first_bidder + turn) % 4).astype(np.int8)
        hand = flat_held[seat_base + seat]
        bid_legal = rules.legal_bids(hand, seat, bids)
        if given is not None:
            chosen = given[rows, seat]
            _check_given(rules, bid_legal, chosen, seat, first_row)
        else:
            decision = Decision(
                "bid",
                game_rules,
                seat,
                hand,
                bid_legal,
                bids,
                won,
                trick,
                sizes[0],
                no_card,
                seat,
                dealer,
                broken,
                rng,
                played,
            )
            chosen = (choose(decision) - 52).astype(np.int8)
        bids[rows, seat] = chosen

    leader = first_bidder
    if rules.two_of_clubs_leads:
        leader = ((held & np.uint64(1)) != 0).argmax(axis=1).astype(np.int8)
    any_spade = rules.any_spade_breaks
    flat_won = won.reshape(-1)
    for trick_number in range(13):
        trick[:] = -1
        best: npt.NDArray[np.integer[Any]] = no_card
        winner = leader
        led = no_card
        for position in range(4):
            seat = (leader + position) & 3
            at = seat_base + seat
            hand = flat_held[at]
            legal: npt.NDArray[np.uint64]
            if position:
                legal = follow_plays(hand, led)
            elif trick_number == 0 and rules.two_of_clubs_leads:
                legal = np.ones(count, dtype=np.uint64)
            else:
                legal = lead_plays(hand, broken)
            decision = Decision(
                "play",
                game_rules,
                seat,
                hand,
                legal,
                bids,
                won,
                trick,
                sizes[position],
                best,
                leader,
                dealer,
                broken,
                rng,
                played,
            )
            card = choose(decision)
            flat_held[at] = hand ^ CARD_BITS[card]
            played = played | CARD_BITS[card]
            trick[:, position] = card
            if position == 0:
                led = SUIT_OF[card]
                strength = trick_strength(led, card)
                best = card
                broken = broken | breaks_spades(card, no_card, any_spade)
            else:
                card_strength = trick_strength(led, card)
                takes = card_strength > strength
                strength = np.where(takes, card_strength, strength)
                best = np.where(takes, card, best)
                winner = np.where(takes, seat, winner)
                broken = broken | breaks_spades(card, led, any_spade)
        flat_won[seat_base + winner] += 1
        leader = winner

    points, bags = rules.score_hands(bids, won, np.zeros((count, 2), np.int64))
    return BatchResult(
        seeds, dealer, hands, bids, won, points.astype(np.int32), bags.astype(np.int32)
    )


def _check_given(
    rules: BatchRules, legal: npt.NDArray[np.int32], chosen: I8, seat: I8, first_row: int
) -> None:
    ok = (legal >> chosen.astype(np.int32)) & 1 != 0
    if ok.all():
        return
    row = int(np.flatnonzero(~ok)[0])
    allowed = [bid for bid in range(14) if int(legal[row]) >> bid & 1]
    shown = ", ".join("Nil" if bid == 0 else str(bid) for bid in allowed)
    value = int(chosen[row])
    raise RulesError(
        f"bid at row {row + first_row}, seat {Seat(int(seat[row])).name}, is "
        f"{'Nil' if value == 0 else value}, which the {rules.variant.id} rules do not allow "
        f"there; the legal bids are {shown}"
    )
