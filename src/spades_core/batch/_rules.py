"""The rules on arrays: the vectorised twins of the engine's trick rules
(:mod:`spades_core.tricks`), standard scoring and game end
(:mod:`spades_core.scoring`, :func:`spades_core.variant.checked_game_end`),
and the helpers variants write their array forms with.

Every function takes one row per table and returns new arrays. Hands and
legal card sets are 52-bit masks in ``uint64`` (bit ``i`` is card id ``i``);
a set of legal bids is a 14-bit mask in ``int32`` (bit ``b`` is a bid of
``b``, bit 0 Nil). The tests check each twin against its scalar owner.
Bidding rules are the variants' own: each variant's array forms hold them
(see :mod:`spades_core.batch._forms`).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from spades_core.rules import tricks
from spades_core.values.cards import Card, Suit
from spades_core.values.errors import RulesError
from spades_core.values.options import BagOverflow, DoubleNil, NilTricks, Rules

from . import _arguments as arguments
from ._arguments import in_range, whole_numbers
from ._types import I8, I32, I64, U64, Bools, Ints

__all__ = [
    "NO_BID",
    "bid_masks",
    "breaks_spades",
    "game_ends",
    "game_outcomes",
    "holds",
    "lowest_card",
    "partner_bids",
    "score_hands",
    "shown_out",
    "suit_counts",
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


# -- helpers for array forms --------------------------------------------------------
#
# The public helpers check their arguments (``_arguments``) and call the
# unchecked forms below them, which the engine calls with its own arrays.


def suit_counts(hands: U64, suit: Suit | int) -> I8:
    """The number of cards of ``suit`` in each hand (a 52-bit mask), for
    ``hands`` of any shape.

    ``hands`` must hold whole numbers from 0 to 2**52-1 and ``suit`` be a
    :class:`Suit` or its number 0-3; anything else raises a
    :class:`~spades_core.SpadesError` (see :mod:`spades_core.batch`).

    >>> from spades_core import CardSet, Suit
    >>> hands = np.array([CardSet.parse("AS KS 2C").mask, 0], dtype=np.uint64)
    >>> suit_counts(hands, Suit.SPADES).tolist()
    [2, 0]
    """
    masks = arguments.card_masks(hands, "suit_counts")
    return _suit_counts(masks, arguments.member_number(suit, Suit, 3, "suit_counts"))


def _suit_counts(hands: U64, suit: int) -> I8:
    """:func:`suit_counts` unchecked."""
    slices = hands >> _SHIFTS[suit]
    if suit != tricks.SPADES:  # spades are the top slice: nothing above to clear
        slices &= SLICE
    counts: I8 = POPCOUNT14[slices.astype(np.intp)]
    return counts


def holds(hands: U64, card: Card | int) -> Bools:
    """Whether each hand (a 52-bit mask, ``hands`` of any shape) holds
    ``card`` (a :class:`Card` or its id 0-51); bad arguments raise as
    :func:`suit_counts`'s do."""
    masks = arguments.card_masks(hands, "holds")
    bit = np.uint64(arguments.member_number(card, Card, 51, "holds"))
    held: Bools = (masks >> bit) & np.uint64(1) != 0
    return held


def bid_masks(lowest: Ints | int, highest: Ints | int | None = None) -> I32:
    """Bid masks with every bid from ``lowest`` to ``highest`` (both
    included; none where ``highest < lowest``), elementwise, or with
    ``highest`` omitted the one bid ``lowest``: ``bid_masks(0, 13)`` is every
    bid, ``bid_masks(count)`` the bid ``count`` alone.

    ``lowest`` holds bids 0-13 and ``highest`` bids -1-13 (-1: no bid at
    all), as whole numbers or arrays of them whose shapes broadcast
    together; anything else raises a :class:`~spades_core.SpadesError`.

    >>> bid_masks(np.array([0, 4, 3]), np.array([2, 13, 2])).tolist()
    [7, 16368, 0]
    >>> bid_masks(np.array([0, 5])).tolist()
    [1, 32]
    """
    what = "bids (whole numbers from 0 to 13)"
    low = whole_numbers(lowest, "bid_masks", "lowest", what)
    in_range(low, 0, 13, "bid_masks", "lowest", what)
    if highest is None:
        return _bid_masks(low.astype(np.int32), None)
    what = "bids (whole numbers from -1, no bid, to 13)"
    high = whole_numbers(highest, "bid_masks", "highest", what)
    in_range(high, -1, 13, "bid_masks", "highest", what)
    try:
        np.broadcast_shapes(low.shape, high.shape)
    except ValueError:
        raise RulesError(
            f"bid_masks: the shapes of lowest {low.shape} and highest {high.shape} do not "
            "broadcast together"
        ) from None
    return _bid_masks(low.astype(np.int32), high.astype(np.int32))


def _bid_masks(low: I32, high: I32 | None) -> I32:
    """:func:`bid_masks` unchecked, on ``int32`` arrays."""
    if high is None:
        single: I32 = np.left_shift(np.int32(1), low)
        return single
    # 2**(high+1) - 2**low has the bits low..high set, and is 0 or negative
    # when high < low.
    masks: I32 = np.maximum((np.int32(2) << high) - (np.int32(1) << low), 0)
    return masks


def partner_bids(bids: I8, seats: Ints) -> I8:
    """The bid of each row's ``seats`` partner in ``bids`` ``(n, 4)``, -1 if
    the partner has not bid.

    ``bids`` holds -1 (not yet) or 0-13 and ``seats`` ``(n,)`` seat numbers
    0-3; anything else raises a :class:`~spades_core.SpadesError`.
    """
    table = arguments.bids(bids, "partner_bids", None, lowest=NO_BID)
    return _partner_bids(table, arguments.seats(seats, "partner_bids", len(table)))


def _partner_bids(bids: I8, seats: Ints) -> I8:
    """:func:`partner_bids` unchecked."""
    partner = ((seats.astype(np.intp) + 2) & 3)[:, None]
    found: I8 = np.take_along_axis(bids, partner, axis=1)[:, 0]
    return found


# -- scoring ----------------------------------------------------------------------


def score_hands(rules: Rules, bids: I8, tricks: I8, bags_before: I64) -> tuple[I64, I64]:
    """Points scored and bags after, ``(n, 2)`` each (teams NS, EW), for hands
    with these bids and tricks ``(n, 4)`` (seats N, E, S, W) and bags before.

    Each row must be a hand as it ends: bids 0-13, tricks 0-13 that add up
    to 13, and bags before from 0 to 1,000,000,000; anything
    else raises a :class:`~spades_core.SpadesError`.
    """
    return _score_hands(*arguments.hands_scored(rules, bids, tricks, bags_before, "score_hands"))


def _score_hands(rules: Rules, bids: Ints, tricks: Ints, bags_before: I64) -> tuple[I64, I64]:
    """:func:`score_hands` unchecked."""
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


def game_ends(rules: Rules, outcomes: I8, scores: I64, hands: Ints) -> tuple[Bools, I8]:
    """The array twin of :func:`spades_core.variant.checked_game_end`:
    whether each game is over after its ``hands``-th hand left ``scores``
    ``(n, 2)``, and the winner (0 NS, 1 EW; -1 none yet, or a draw).

    ``outcomes`` are the variant's game outcomes for those scores (its
    ``game_outcomes`` form: a winner, or -1 to play on), which decide first;
    when they play on and ``rules.max_hands`` hands have been played, the
    game ends anyway: the higher score wins, and equal scores are a draw.
    """
    over: Bools = outcomes >= 0
    winner = outcomes.astype(np.int8)
    limit = rules.max_hands
    if limit is not None:
        at_limit = ~over & (hands >= limit)
        ns, ew = scores[:, 0], scores[:, 1]
        leader = np.where(ns > ew, 0, np.where(ew > ns, 1, -1))
        winner = np.where(at_limit, leader, winner).astype(np.int8)
        over = over | at_limit
    return over, winner
