"""Scoring a hand and deciding when a game ends (docs/rules.md, Scoring and Game end).

Both are pure functions of the rules and plain numbers, so they can be
checked against the fixtures without playing a hand:

>>> from spades_core import load_variant
>>> rules = load_variant("classic").rules()
>>> score_hand(rules, bids=(3, 2, 4, 4), tricks=(5, 2, 4, 2), bags_before=(0, 0))
((72, -60), (2, 0))
"""

from __future__ import annotations

from typing import Final

from spades_core.options import BagOverflow, DoubleNil, NilTricks, Rules

__all__ = ["game_outcome", "score_hand", "score_team"]


# Enum members as globals: looking one up on its class is slow in CPython 3.11,
# and every simulated hand is scored.
_COUNT_TOWARD_CONTRACT: Final = NilTricks.COUNT_TOWARD_CONTRACT
_BAGS_WITH_POINTS: Final = NilTricks.BAGS_WITH_POINTS
_INDEPENDENT: Final = DoubleNil.INDEPENDENT
_ALL_OR_NOTHING: Final = DoubleNil.ALL_OR_NOTHING
_CARRY: Final = BagOverflow.CARRY


def score_team(
    rules: Rules, bids: tuple[int, int], tricks: tuple[int, int], bags_before: int
) -> tuple[int, int]:
    """One team's (points this hand, bags after) from its two bids and tricks."""
    first_bid, second_bid = bids
    first_won, second_won = tricks
    contract = first_bid + second_bid
    if rules.nil_tricks is _COUNT_TOWARD_CONTRACT:
        counted = first_won + second_won
        nil_tricks = 0
    else:
        counted = (first_won if first_bid else 0) + (second_won if second_bid else 0)
        nil_tricks = (0 if first_bid else first_won) + (0 if second_bid else second_won)

    points = 0
    new_bags = nil_tricks
    if nil_tricks and rules.nil_tricks is _BAGS_WITH_POINTS:
        points += nil_tricks
    if counted >= contract:
        overtricks = counted - contract
        points += 10 * contract + overtricks
        new_bags += overtricks
    else:
        points -= 10 * contract

    if not (first_bid and second_bid):
        made = [
            won == 0 for bid, won in ((first_bid, first_won), (second_bid, second_won)) if not bid
        ]
        points += _nil_points(rules, made)

    bags = bags_before + new_bags
    limit = rules.bag_limit
    if limit is not None and new_bags and bags >= limit:
        if rules.bag_overflow is _CARRY:
            penalties, bags = divmod(bags, limit)
        else:
            penalties, bags = 1, 0
        points -= penalties * rules.bag_penalty
    return points, bags


def _nil_points(rules: Rules, made: list[bool]) -> int:
    value = rules.nil_value
    if len(made) == 2 and rules.double_nil is not _INDEPENDENT:
        if all(made):
            return 2 * value
        return -2 * value if rules.double_nil is _ALL_OR_NOTHING else 0
    return sum(value if ok else -value for ok in made)


def score_hand(
    rules: Rules,
    bids: tuple[int, int, int, int],
    tricks: tuple[int, int, int, int],
    bags_before: tuple[int, int],
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Both teams' ((points NS, points EW), (bags NS, bags EW)) for a hand.

    ``bids`` and ``tricks`` are by seat number (N, E, S, W), 0 meaning Nil.
    """
    ns = score_team(rules, (bids[0], bids[2]), (tricks[0], tricks[2]), bags_before[0])
    ew = score_team(rules, (bids[1], bids[3]), (tricks[1], tricks[3]), bags_before[1])
    return (ns[0], ew[0]), (ns[1], ew[1])


def game_outcome(rules: Rules, scores: tuple[int, int]) -> int | None:
    """The winning team's number after a hand, or ``None`` to play on.

    The target rule comes first: a unique top score at or over the target
    wins (a tie at the top plays on). Then the loss floor, if any: a team at
    or below it loses; when both are, the higher score wins, a tie plays on.
    """
    ns, ew = scores
    if max(ns, ew) >= rules.target_score:
        return None if ns == ew else (0 if ns > ew else 1)
    floor = rules.loss_floor
    if floor is not None and min(ns, ew) <= floor:
        if ns == ew:
            return None
        return 0 if ns > ew else 1
    return None
