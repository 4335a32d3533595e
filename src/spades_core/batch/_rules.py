"""The rules on arrays: the vectorised twin of the engine's trick rules,
bidding hooks and scoring.

Every function takes one row per table and returns new arrays. Hands and
legal card sets are 52-bit masks in ``uint64`` (bit ``i`` is card id ``i``);
a set of legal bids is a 14-bit mask in ``int32`` (bit ``b`` is a bid of
``b``, bit 0 Nil). The tests check each function against :mod:`spades_core.tricks`, the
scalar trick rules, and the scalar engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from spades_core import tricks
from spades_core.errors import VariantError, brief
from spades_core.options import BagOverflow, BreakRule, DoubleNil, FirstLead, NilTricks, Rules
from spades_core.variant import Variant

from ._types import I8, I32, I64, U64, Bools, Ints

__all__ = [
    "NO_BID",
    "BatchRules",
    "UnsupportedVariantError",
    "batch_rules",
    "breaks_spades",
    "lowest_card",
    "shown_out",
    "trick_strength",
]


NO_BID: Final = -1
"""A seat's entry in a bids array before it has bid."""
SUIT_MASKS: Final = np.array(tricks.SUIT_MASKS, dtype=np.uint64)
NON_SPADES: Final = np.uint64(tricks.NON_SPADE_MASK)
FIRST_SPADE: Final = tricks.FIRST_SPADE
NON_SPADE_SUITS: Final = tricks.NON_SPADE_SUITS
"""The 4-bit suit set of clubs, diamonds and hearts."""
SLICE: Final = np.uint64((1 << tricks.RANKS) - 1)
SUIT_OF: Final = np.repeat(np.arange(4, dtype=np.int8), tricks.RANKS)
"""The suit of each card id."""
_SHIFTS: Final = tuple(np.uint64(tricks.RANKS * suit) for suit in range(4))

POPCOUNT14: Final = np.array([bin(value).count("1") for value in range(1 << 14)], dtype=np.int8)
"""Set bits of every 14-bit value (a suit slice or a bid mask)."""
_SELECT14 = np.full((1 << 14, 14), -1, dtype=np.int8)
for _value in range(1 << 14):
    _set = [bit for bit in range(14) if _value >> bit & 1]
    _SELECT14[_value, : len(_set)] = _set
SELECT14: Final = _SELECT14
"""``SELECT14[value, k]``: the position of the ``k``-th lowest set bit of a 14-bit value."""
del _SELECT14, _value, _set


class UnsupportedVariantError(VariantError):
    """A variant the batch engine cannot play: its bidding or scoring is
    code the engine cannot run on arrays, and it provides no batch hooks."""


def lowest_card(masks: U64) -> npt.NDArray[np.int8]:
    """The lowest card id in each non-empty mask."""
    lowest_bit = masks & (~masks + np.uint64(1))
    return (np.frexp(lowest_bit.astype(np.float64))[1] - 1).astype(np.int8)


def highest_card(masks: U64) -> npt.NDArray[np.int8]:
    """The highest card id in each non-empty mask."""
    # A mask of cards holds at most 52 bits, which a double represents exactly.
    return (np.frexp(masks.astype(np.float64))[1] - 1).astype(np.int8)


def lead_plays(held: U64, broken: Bools) -> U64:
    """The cards a leader may lead: no spade until spades are broken, unless
    the hand holds only spades."""
    side = held & NON_SPADES
    return np.where(broken | (side == 0), held, side)


def follow_plays(held: U64, led: I8) -> U64:
    """The cards a follower may play: the led suit if held, else anything."""
    following = held & SUIT_MASKS[led]
    return np.where(following != 0, following, held)


def legal_plays(held: U64, led: I8, broken: Bools, two_of_clubs: Bools) -> U64:
    """The legal cards for tables at any point of a trick: ``led`` is -1 for a
    leader, ``two_of_clubs`` marks the lead of a first trick that must be the 2♣."""
    leading = led < 0
    plays = np.where(leading, lead_plays(held, broken), follow_plays(held, np.maximum(led, 0)))
    return np.where(leading & two_of_clubs, np.uint64(1 << tricks.TWO_OF_CLUBS), plays)


_TRICK_STRENGTH = np.full((4, 52), -1, dtype=np.int8)
for _led in range(4):
    _TRICK_STRENGTH[_led, tricks.RANKS * _led : tricks.RANKS * (_led + 1)] = np.arange(tricks.RANKS)
    _TRICK_STRENGTH[_led, FIRST_SPADE:] = np.arange(tricks.RANKS) + 16
TRICK_STRENGTH: Final = _TRICK_STRENGTH.reshape(-1)
"""``TRICK_STRENGTH[led * 52 + card]``: how strongly ``card`` bids for a trick
led in suit ``led`` (-1: it cannot win; a spade beats every other suit). The
card with the greatest strength wins the trick."""
del _TRICK_STRENGTH, _led


def trick_strength(led: Ints, card: Ints) -> I8:
    """The strength of each ``card`` in a trick led in suit ``led`` (see
    :data:`TRICK_STRENGTH`)."""
    strength: I8 = TRICK_STRENGTH[led.astype(np.intp) * 52 + card]
    return strength


def breaks_spades(card: Ints, led: Ints, any_spade: bool) -> Bools:
    """Whether playing ``card`` breaks spades; ``led`` is the trick's led suit,
    -1 when ``card`` leads it."""
    spade: Bools = card >= FIRST_SPADE
    if any_spade:
        return spade
    broken: Bools = spade & (led >= 0) & (led != tricks.SPADES)
    return broken


def shown_out(card: Ints, led: Ints, broken: Bools) -> npt.NDArray[np.uint8]:
    """The suits (4-bit sets) each player of ``card`` proves to be out of:
    a card off the led suit shows the led suit out; a spade led (``led`` -1)
    before spades are ``broken`` shows every other suit out."""
    follows = led >= 0
    off_suit = follows & (SUIT_OF[card] != led)
    missing = np.where(off_suit, np.left_shift(1, np.maximum(led, 0)), 0)
    spade_lead = ~follows & (card >= FIRST_SPADE) & ~broken
    suits: npt.NDArray[np.uint8] = np.where(spade_lead, NON_SPADE_SUITS, missing).astype(np.uint8)
    return suits


# -- bidding ----------------------------------------------------------------------

BidRule = Callable[[Rules, U64, I8, I8], I32]
"""(rules, the bidder's hand, the bidder's seat, bids so far (n, 4)) → legal bid masks."""


def _spade_count(hands: U64) -> npt.NDArray[np.intp]:
    return POPCOUNT14[(hands >> _SHIFTS[3]).astype(np.intp)].astype(np.intp)


def classic_bids(rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
    """Every bid from Nil up to what the team cap leaves after the partner's bid."""
    cap = rules.max_team_bid
    if cap is None:
        return np.full(len(hands), (1 << 14) - 1, dtype=np.int32)
    partner = np.take_along_axis(bids, ((seats + 2) % 4).astype(np.intp)[:, None], axis=1)[:, 0]
    highest = np.minimum(13, cap - np.maximum(partner, 0).astype(np.int32))
    return ((np.int32(1) << (highest + 1)) - 1).astype(np.int32)


def mirror_bids(rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
    """The single bid equal to the spades held."""
    return (np.int32(1) << _spade_count(hands)).astype(np.int32)


def whiz_bids(rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
    """Nil or the spade count; only the count with the A♠ under
    ``whiz_nil_needs_no_ace``; only Nil without spades."""
    count = _spade_count(hands)
    nil = np.ones(len(hands), dtype=np.int32)
    if rules.whiz_nil_needs_no_ace:
        nil = np.where((hands >> np.uint64(51)) & np.uint64(1) != 0, 0, nil).astype(np.int32)
    return np.where(count == 0, 1, nil | (np.int32(1) << count)).astype(np.int32)


def _builtin_bid_rules() -> dict[object, BidRule]:
    from spades_variants.classic import ClassicVariant
    from spades_variants.mirror import MirrorVariant
    from spades_variants.whiz import WhizVariant

    return {
        ClassicVariant.legal_bids: classic_bids,
        MirrorVariant.legal_bids: mirror_bids,
        WhizVariant.legal_bids: whiz_bids,
    }


def _builtin_reveals() -> dict[object, str]:
    from spades_variants.mirror import MirrorVariant
    from spades_variants.whiz import WhizVariant

    return {
        Variant.revealed_spade_counts: "none",
        MirrorVariant.revealed_spade_counts: "all",
        WhizVariant.revealed_spade_counts: "non_nil",
    }


# -- scoring ----------------------------------------------------------------------


def score_hands(rules: Rules, bids: I8, tricks: I8, bags_before: I64) -> tuple[I64, I64]:
    """Points scored and bags after, ``(n, 2)`` each (teams NS, EW), for hands
    with these bids and tricks ``(n, 4)`` (seats N, E, S, W) and bags before."""
    points = np.empty(bags_before.shape, dtype=np.int64)
    bags = np.empty(bags_before.shape, dtype=np.int64)
    for team in (0, 1):
        points[:, team], bags[:, team] = _score_team(
            rules,
            bids[:, team].astype(np.int64),
            bids[:, team + 2].astype(np.int64),
            tricks[:, team].astype(np.int64),
            tricks[:, team + 2].astype(np.int64),
            bags_before[:, team],
        )
    return points, bags


def _score_team(
    rules: Rules, first_bid: I64, second_bid: I64, first_won: I64, second_won: I64, before: I64
) -> tuple[I64, I64]:
    contract = first_bid + second_bid
    first_nil = first_bid == 0
    second_nil = second_bid == 0
    if rules.nil_tricks is NilTricks.COUNT_TOWARD_CONTRACT:
        counted = first_won + second_won
        nil_tricks = np.zeros_like(counted)
    else:
        counted = np.where(first_nil, 0, first_won) + np.where(second_nil, 0, second_won)
        nil_tricks = np.where(first_nil, first_won, 0) + np.where(second_nil, second_won, 0)
    made = counted >= contract
    overtricks = np.where(made, counted - contract, 0)
    points = np.where(made, 10 * contract + overtricks, -10 * contract)
    if rules.nil_tricks is NilTricks.BAGS_WITH_POINTS:
        points += nil_tricks
    new_bags = nil_tricks + overtricks

    value = rules.nil_value
    first_score = np.where(first_won == 0, value, -value)
    second_score = np.where(second_won == 0, value, -value)
    nil_points = np.where(first_nil, first_score, 0) + np.where(second_nil, second_score, 0)
    if rules.double_nil is not DoubleNil.INDEPENDENT:
        both_made = (first_won == 0) & (second_won == 0)
        failed = -2 * value if rules.double_nil is DoubleNil.ALL_OR_NOTHING else 0
        nil_points = np.where(
            first_nil & second_nil, np.where(both_made, 2 * value, failed), nil_points
        )
    points += nil_points

    bags = before + new_bags
    limit = rules.bag_limit
    if limit is not None:
        penalised = (new_bags > 0) & (bags >= limit)
        if rules.bag_overflow is BagOverflow.CARRY:
            penalties = np.where(penalised, bags // limit, 0)
            bags = np.where(penalised, bags % limit, bags)
        else:
            penalties = penalised.astype(np.int64)
            bags = np.where(penalised, 0, bags)
        points -= penalties * rules.bag_penalty
    return points, bags


def game_outcomes(rules: Rules, scores: I64) -> I8:
    """The winning team after a hand (0 NS, 1 EW) or -1 to play on, per row
    of running ``scores`` ``(n, 2)``."""
    ns, ew = scores[:, 0], scores[:, 1]
    leader = np.where(ns > ew, 0, 1).astype(np.int8)
    decided = (np.maximum(ns, ew) >= rules.target_score) & (ns != ew)
    outcome = np.where(decided, leader, -1).astype(np.int8)
    floor = rules.loss_floor
    if floor is not None:
        target_reached = np.maximum(ns, ew) >= rules.target_score
        floored = ~target_reached & (np.minimum(ns, ew) <= floor) & (ns != ew)
        outcome = np.where(floored, leader, outcome).astype(np.int8)
    return outcome


ScoreRule = Callable[[Rules, I8, I8, I64], tuple[I64, I64]]
OutcomeRule = Callable[[Rules, I64], I8]


@attrs.frozen
class BatchRules:
    """What the batch engine plays: the variant, its resolved rules and the
    array forms of its bidding, scoring and game-end hooks."""

    variant: Variant
    rules: Rules
    legal_bids: BidRule
    score_hands: ScoreRule
    game_outcomes: OutcomeRule | None
    any_spade_breaks: bool
    two_of_clubs_leads: bool
    reveals_spade_counts: str
    """Which bids reveal the bidder's spade count: ``"all"``, ``"non_nil"``,
    ``"none"``, or ``"hook"`` (ask the variant's own hook)."""


def batch_rules(variant: Variant, options: dict[str, Any]) -> BatchRules:
    """The batch form of ``variant`` under ``options`` (checked as
    :func:`spades_core.new_game` checks them).

    Raises :class:`UnsupportedVariantError` for a variant whose bidding,
    scoring or game end the batch engine cannot run (see docs/batch.md for
    the hooks a plugin provides to run here).
    """
    rules = variant.rules(**options)
    kind = type(variant)
    bid_rule = _builtin_bid_rules().get(kind.legal_bids)
    if bid_rule is None:
        bid_rule = _plugin_hook(variant, "batch_legal_bids", "bids")
        if bid_rule is None:
            raise _unsupported(variant, "its legal_bids hook", "batch_legal_bids")
    score_rule: ScoreRule = score_hands
    if kind.score_hand is not Variant.score_hand:
        hook = _plugin_hook(variant, "batch_score_hands", "scores")
        if hook is None:
            raise _unsupported(variant, "its score_hand hook", "batch_score_hands")
        score_rule = hook
    outcome_rule: OutcomeRule | None = game_outcomes
    if kind.game_outcome is not Variant.game_outcome:
        outcome_rule = _plugin_hook(variant, "batch_game_outcomes", "game ends")
    return BatchRules(
        variant=variant,
        rules=rules,
        legal_bids=_checked_bids(variant, bid_rule) if bid_rule not in _BUILTIN else bid_rule,
        score_hands=score_rule,
        game_outcomes=outcome_rule,
        any_spade_breaks=rules.break_rule is BreakRule.ANY_SPADE,
        two_of_clubs_leads=rules.first_lead is FirstLead.TWO_OF_CLUBS,
        reveals_spade_counts=_builtin_reveals().get(kind.revealed_spade_counts, "hook"),
    )


_BUILTIN: Final = (classic_bids, mirror_bids, whiz_bids)


def _plugin_hook(variant: Variant, name: str, what: str) -> Any:
    hook = getattr(variant, name, None)
    if hook is None:
        return None
    if not callable(hook):
        raise UnsupportedVariantError(
            f"variant {variant.id!r}: {name} must be a method, not {brief(hook)}"
        )
    return hook


def _unsupported(variant: Variant, what: str, hook: str) -> UnsupportedVariantError:
    return UnsupportedVariantError(
        f"the batch engine cannot play variant {variant.id!r}: {what} is Python code it "
        f"cannot run on arrays. Give the variant a {hook} method (see the batch "
        f"documentation), or play it with the engine (spades_core.playouts)"
    )


def _checked_bids(variant: Variant, hook: BidRule) -> BidRule:
    """A plugin's bid hook, with its answer checked: an ``(n, 14)`` boolean
    array with at least one legal bid per row, turned into bid masks."""

    def legal_bids(rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
        try:
            answer = np.asarray(hook(rules, hands, seats, bids))
        except Exception as error:
            raise UnsupportedVariantError(
                f"variant {variant.id!r}: batch_legal_bids failed: {type(error).__name__}: "
                f"{brief(error)}"
            ) from error
        if answer.shape != (len(hands), 14) or answer.dtype != np.bool_:
            raise UnsupportedVariantError(
                f"variant {variant.id!r}: batch_legal_bids must return a boolean array of "
                f"shape ({len(hands)}, 14); got {answer.dtype} {answer.shape}"
            )
        masks = (answer.astype(np.int32) << np.arange(14, dtype=np.int32)).sum(axis=1)
        if (masks == 0).any():
            raise UnsupportedVariantError(
                f"variant {variant.id!r}: batch_legal_bids left a seat with no legal bid"
            )
        checked: I32 = masks.astype(np.int32)
        return checked

    return legal_bids
