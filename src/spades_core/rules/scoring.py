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

import enum
from typing import Any, Final, final

import attrs

from spades_core.values import checks
from spades_core.values.enums import CheckedLookup
from spades_core.values.options import BagOverflow, DoubleNil, NilTricks, Rules
from spades_core.values.seats import Seat, Team, TeamMap

__all__ = [
    "TRICK_POINTS",
    "ScoreBreakdown",
    "ScoreItem",
    "ScoreKind",
    "bag_cost",
    "game_outcome",
    "itemised_score",
    "score_hand",
    "score_team",
    "why_games_may_not_end",
]

TRICK_POINTS: Final = 10
"""Points a made contract scores per trick bid (and a set one loses)."""


class ScoreKind(enum.Enum, metaclass=CheckedLookup):
    """What one item of a hand's score counts (docs/rules.md, Scoring)."""

    @classmethod
    def _missing_(cls, value: object) -> ScoreKind:
        raise checks.not_a_member(cls, value)

    CONTRACT_MADE = "contract_made"
    """The partnership took at least its contract: 10 points per trick bid."""
    CONTRACT_SET = "contract_set"
    """The partnership took fewer tricks than its contract: minus 10 per trick bid."""
    OVERTRICKS = "overtricks"
    """Tricks over a made contract: a point and a bag each."""
    NIL_TRICKS = "nil_tricks"
    """A Nil bidder's tricks when they do not count toward the contract: a bag
    each (and a point each under ``nil_tricks="bags_with_points"``)."""
    NIL_MADE = "nil_made"
    """A Nil bidder took no trick."""
    NIL_FAILED = "nil_failed"
    """A Nil bidder took a trick."""
    DOUBLE_NIL_MADE = "double_nil_made"
    """Both partners bid Nil and neither took a trick (``double_nil`` not ``independent``)."""
    DOUBLE_NIL_FAILED = "double_nil_failed"
    """Both partners bid Nil and one took a trick (``double_nil`` not ``independent``)."""
    BAG_PENALTY = "bag_penalty"
    """Bags reached the bag limit: the penalty, and the bags it uses up."""
    VARIANT = "variant"
    """Points (and bags) scored by a variant's own rules, which it does not itemise."""


@final
@attrs.frozen
class ScoreItem:
    """One item of a partnership's score for a hand: what it counts, the
    points it earned (negative: lost) and the bags it added (negative: the
    bags a penalty used up). A team's items add up to its points for the
    hand, and their bags to its bags after the hand minus those before.

    ``seat`` is the Nil bidder for the Nil items, else ``None``; ``label``
    says it for people (``"contract 7 made (9 tricks)"``).
    """

    kind: ScoreKind
    team: Team
    points: int
    bags: int
    label: str
    seat: Seat | None = None


@final
@attrs.frozen
class ScoreBreakdown:
    """A scored hand, itemised: every :class:`ScoreItem` of both
    partnerships (North-South first), and the totals they add up to."""

    items: tuple[ScoreItem, ...]
    """The items, North-South's first, each team's in the order they are scored."""
    points: TeamMap[int]
    """The hand's points per team: the sum of the team's items."""
    bags_before: TeamMap[int]
    """Bags per team before the hand."""
    bags: TeamMap[int]
    """Bags per team after the hand: ``bags_before`` plus the team's items' bags."""

    def team_items(self, team: Team) -> tuple[ScoreItem, ...]:
        """The items of one partnership, in order."""
        return tuple(item for item in self.items if item.team is team)

    def summary(self) -> dict[str, Any]:
        """The breakdown as plain JSON-ready data, keyed by team name: each
        team's items (kind, label, points, bags, seat letter or ``None``),
        points, and bags before and after."""
        return {
            team.name: {
                "items": [
                    {
                        "kind": item.kind.value,
                        "label": item.label,
                        "points": item.points,
                        "bags": item.bags,
                        "seat": None if item.seat is None else item.seat.letter,
                    }
                    for item in self.team_items(team)
                ],
                "points": self.points[team],
                "bags_before": self.bags_before[team],
                "bags": self.bags[team],
            }
            for team in Team
        }


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
    return _score_team(rules, bids, tricks, bags_before, None, _NS)


def _score_team(
    rules: Rules,
    bids: tuple[int, int],
    tricks: tuple[int, int],
    bags_before: int,
    items: list[ScoreItem] | None,
    team: Team,
) -> tuple[int, int]:
    """:func:`score_team`, the one statement of the standard scoring. With
    ``items``, each step of the score is also appended to it as a
    :class:`ScoreItem` of ``team`` carrying the very points and bags the step
    adds, so the items add up to the result by construction; without, only
    the numbers are computed (the path every simulated hand takes)."""
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
    if nil_tricks:
        per_trick = 1 if rules.nil_tricks is _BAGS_WITH_POINTS else 0
        points += per_trick * nil_tricks
        if items is not None:
            for seat, bid, won in zip(team.seats, bids, tricks, strict=True):
                if not bid and won:
                    items.append(_nil_tricks_item(team, seat, won, per_trick * won))
    if counted >= contract:
        overtricks = counted - contract
        points += TRICK_POINTS * contract + overtricks
        new_bags += overtricks
        if items is not None:
            if contract:
                label = f"contract {contract} made ({counted} tricks)"
                items.append(
                    ScoreItem(ScoreKind.CONTRACT_MADE, team, TRICK_POINTS * contract, 0, label)
                )
            if overtricks:
                label = f"{_count(overtricks, 'overtrick')}: {_count(overtricks, 'bag')}"
                items.append(ScoreItem(ScoreKind.OVERTRICKS, team, overtricks, overtricks, label))
    else:
        points -= TRICK_POINTS * contract
        if items is not None:
            label = f"contract {contract} set ({counted} tricks)"
            items.append(
                ScoreItem(ScoreKind.CONTRACT_SET, team, -TRICK_POINTS * contract, 0, label)
            )

    if not (first_bid and second_bid):
        made = [
            won == 0 for bid, won in ((first_bid, first_won), (second_bid, second_won)) if not bid
        ]
        nil_points = _nil_points(rules, made)
        points += nil_points
        if items is not None:
            _nil_items(rules, team, bids, tricks, nil_points, items)

    bags = bags_before + new_bags
    limit = rules.bag_limit
    if limit is not None and new_bags and bags >= limit:
        reached = bags
        if rules.bag_overflow is _CARRY:
            penalties, bags = divmod(bags, limit)
        else:
            penalties, bags = 1, 0
        points -= penalties * rules.bag_penalty
        if items is not None:
            times = f" ×{penalties}" if penalties > 1 else ""
            label = f"bag penalty{times} ({reached} bags reach the limit of {limit})"
            items.append(
                ScoreItem(
                    ScoreKind.BAG_PENALTY,
                    team,
                    -penalties * rules.bag_penalty,
                    bags - reached,
                    label,
                )
            )
    return points, bags


def _nil_points(rules: Rules, made: list[bool]) -> int:
    value = rules.nil_value
    if len(made) == 2 and rules.double_nil is not _INDEPENDENT:
        if all(made):
            return 2 * value
        return -2 * value if rules.double_nil is _ALL_OR_NOTHING else 0
    return sum(value if ok else -value for ok in made)


def _nil_items(
    rules: Rules,
    team: Team,
    bids: tuple[int, int],
    tricks: tuple[int, int],
    nil_points: int,
    items: list[ScoreItem],
) -> None:
    """The Nil items of a team, worth ``nil_points`` together (what
    :func:`_nil_points` gave): one for a double Nil scored as one, else one
    per Nil bidder."""
    if not (bids[0] or bids[1]) and rules.double_nil is not _INDEPENDENT:
        if not (tricks[0] or tricks[1]):
            items.append(
                ScoreItem(ScoreKind.DOUBLE_NIL_MADE, team, nil_points, 0, "double Nil made")
            )
        else:
            items.append(
                ScoreItem(ScoreKind.DOUBLE_NIL_FAILED, team, nil_points, 0, "double Nil failed")
            )
        return
    for seat, bid, won in zip(team.seats, bids, tricks, strict=True):
        if bid:
            continue
        name = _seat_text(seat)
        # One Nil scored alone is worth its own value; _nil_points summed them.
        value = _nil_points(rules, [won == 0])
        if won:
            items.append(
                ScoreItem(
                    ScoreKind.NIL_FAILED, team, value, 0, f"{name}'s Nil failed ({won} taken)", seat
                )
            )
        else:
            items.append(ScoreItem(ScoreKind.NIL_MADE, team, value, 0, f"{name}'s Nil made", seat))


def _nil_tricks_item(team: Team, seat: Seat, won: int, points: int) -> ScoreItem:
    label = f"{_seat_text(seat)}'s {_count(won, 'Nil trick')}: {_count(won, 'bag')}"
    return ScoreItem(ScoreKind.NIL_TRICKS, team, points, won, label, seat)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _seat_text(seat: Seat) -> str:
    return seat.name.capitalize()


def score_hand(
    rules: Rules,
    bids: tuple[int, int, int, int],
    tricks: tuple[int, int, int, int],
    bags_before: tuple[int, int],
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Both teams' ((points NS, points EW), (bags NS, bags EW)) for a hand.

    ``bids`` and ``tricks`` are by seat number (N, E, S, W), 0 meaning Nil.
    """
    ns = _score_team(rules, (bids[0], bids[2]), (tricks[0], tricks[2]), bags_before[0], None, _NS)
    ew = _score_team(rules, (bids[1], bids[3]), (tricks[1], tricks[3]), bags_before[1], None, _EW)
    return (ns[0], ew[0]), (ns[1], ew[1])


def itemised_score(
    rules: Rules,
    bids: tuple[int, int, int, int],
    tricks: tuple[int, int, int, int],
    bags_before: tuple[int, int],
) -> tuple[ScoreItem, ...]:
    """The standard scoring of a hand (:func:`score_hand`) as its items,
    North-South's first: each team's items add up to its points, and their
    bags to its bags after the hand minus ``bags_before``.

    >>> from spades_core import load_variant
    >>> rules = load_variant("classic").rules()
    >>> for item in itemised_score(rules, (3, 2, 4, 4), (5, 2, 4, 2), (0, 0)):
    ...     print(item.team.name, item.label, item.points)
    NS contract 7 made (9 tricks) 70
    NS 2 overtricks: 2 bags 2
    EW contract 6 set (4 tricks) -60
    """
    items: list[ScoreItem] = []
    _score_team(rules, (bids[0], bids[2]), (tricks[0], tricks[2]), bags_before[0], items, _NS)
    _score_team(rules, (bids[1], bids[3]), (tricks[1], tricks[3]), bags_before[1], items, _EW)
    return tuple(items)


def bag_cost(limit: int | None, penalty: int) -> float:
    """What a bag costs at the margin: ``penalty / limit``, or 0 without a bag limit.

    >>> bag_cost(limit=10, penalty=100)
    10.0
    >>> bag_cost(limit=None, penalty=100)
    0.0
    """
    # The hard bot's search asks this at every leaf: the usual case is one test.
    if type(penalty) is int and (limit is None or (type(limit) is int and limit > 0)):
        return 0.0 if limit is None else penalty / limit
    checks.whole_number(penalty, "bag_cost", "penalty")
    checks.count(limit, "bag_cost", "limit", minimum=1)
    raise AssertionError("unreachable: the checks above raise")  # pragma: no cover


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
