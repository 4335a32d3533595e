"""Scoring a hand and deciding when a game ends, by the standard rules
(docs/rules.md, Scoring and Game end).

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
from spades_core.seats import Team

__all__ = ["TRICK_POINTS", "game_outcome", "score_hand", "score_team", "why_games_may_not_end"]

TRICK_POINTS: Final = 10
"""Points a made contract scores per trick bid (and a set one loses)."""


# Enum members as globals: looking one up on its class is slow in CPython 3.11,
# and every simulated hand is scored.
_COUNT_TOWARD_CONTRACT: Final = NilTricks.COUNT_TOWARD_CONTRACT
_BAGS_WITH_POINTS: Final = NilTricks.BAGS_WITH_POINTS
_INDEPENDENT: Final = DoubleNil.INDEPENDENT
_ALL_OR_NOTHING: Final = DoubleNil.ALL_OR_NOTHING
_CARRY: Final = BagOverflow.CARRY
_NS: Final = Team.NS
_EW: Final = Team.EW


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
        points += TRICK_POINTS * contract + overtricks
        new_bags += overtricks
    else:
        points -= TRICK_POINTS * contract

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


def game_outcome(rules: Rules, scores: tuple[int, int]) -> Team | None:
    """The team that has won after a hand, or ``None`` to play on.

    The target rule comes first: a unique top score at or over the target
    wins (a tie at the top plays on). Then the loss floor, if any: a team at
    or below it loses; when both are, the higher score wins, a tie plays on.
    (``max_hands`` is the engine's: see
    :func:`spades_core.variant.checked_game_end`.)

    >>> rules = Rules(target_score=500, loss_floor=-200)
    >>> game_outcome(rules, (510, 490)), game_outcome(rules, (-210, 340))
    (<Team.NS: 0>, <Team.EW: 1>)
    >>> print(game_outcome(rules, (510, 510)))
    None
    """
    ns, ew = scores
    if max(ns, ew) >= rules.target_score or (
        rules.loss_floor is not None and min(ns, ew) <= rules.loss_floor
    ):
        return None if ns == ew else (_NS if ns > ew else _EW)
    return None


def why_games_may_not_end(rules: Rules) -> str | None:
    """Why games under ``rules`` may go on for ever, or ``None`` when play
    that makes its contracts is bound to end them.

    A game ends when a team reaches ``target_score``, when a team falls to
    ``loss_floor``, or after ``max_hands`` hands. With a hand limit every game
    ends. With a loss floor, scores cannot fall for ever either: falling ends
    the game. Without either, only the target ends it, and scores that keep
    falling never get there. They keep falling when bags cost more than a bid
    trick earns (``bag_penalty`` over ``bag_limit`` above the 10 points of a
    trick): then even a team that makes its contract loses points for its
    overtricks, and in a hand of 13 tricks some team takes overtricks unless
    both bid exactly what they take. That is the spiral of, say, Mirror with
    ``bag_limit=1`` (every bag costs a penalty) and no floor.

    Games outside this rule can still be long when both teams are set hand
    after hand (random play does that), but good play reaches the target.

    >>> from spades_core import load_variant
    >>> print(why_games_may_not_end(load_variant("mirror").rules()))
    None
    >>> print(why_games_may_not_end(load_variant("mirror").rules(bag_limit=1))[:47])
    every bag costs 100 points, more than the 10 po
    """
    if rules.max_hands is not None or rules.loss_floor is not None:
        return None
    limit = rules.bag_limit
    if limit is None or rules.bag_penalty <= TRICK_POINTS * limit:
        return None
    cost = (
        f"every bag costs {rules.bag_penalty:,} points"
        if limit == 1
        else f"every {limit} bags cost {rules.bag_penalty:,} points"
    )
    return (
        f"{cost}, more than the {TRICK_POINTS} points a bid trick earns, and with no "
        "loss floor and no hand limit nothing stops scores that keep falling; "
        "set loss_floor or max_hands"
    )
