"""What the framework wrappers share: how long an episode is and what it pays.

An episode is a number of hands (``hands``), or a whole game (``hands=0``),
ending early when the game is over. Its points for a team are the team's
score change since the episode began; a whole game cannot be bounded in
general (both teams can be set hand after hand), so it stops after
:data:`WHOLE_GAME_HAND_LIMIT` hands if no team has won by then.
"""

from __future__ import annotations

from typing import Final

from spades_core.engine.game import Game
from spades_core.values.errors import RulesError, brief
from spades_core.values.options import DoubleNil, NilTricks, Rules

WHOLE_GAME: Final = 0
"""The ``hands`` value that plays whole games."""
WHOLE_GAME_HAND_LIMIT: Final = 200
"""A whole game stops unfinished after this many hands (at the default target,
real games end after a dozen or two)."""
DECISIONS_PER_HAND: Final = 56
"""Four bids and 52 plays."""
CARDS: Final = 52


def check_hands(value: object) -> int:
    """``value`` as a hands count: a whole number from 0 (whole games) to
    :data:`WHOLE_GAME_HAND_LIMIT`; :class:`RulesError` otherwise."""
    if type(value) is not int or not WHOLE_GAME <= value <= WHOLE_GAME_HAND_LIMIT:
        raise RulesError(
            f"hands must be a whole number from 1 to {WHOLE_GAME_HAND_LIMIT}, or 0 for whole "
            f"games; got {brief(value)}"
        )
    return value


def hand_limit(hands: int) -> int:
    """How many hands an episode of ``hands`` may last."""
    return WHOLE_GAME_HAND_LIMIT if hands == WHOLE_GAME else hands


def episode_over(game: Game, start_hand: int, hands: int) -> bool:
    """Whether an episode that began at hand ``start_hand`` has ended."""
    return game.is_over or game.hand_number >= start_hand + hand_limit(hands)


def hand_points_bound(rules: Rules) -> int:
    """A bound on the points one team can win or lose in one hand under the
    standard scoring (every contract, Nil, bag and penalty at its extreme)."""
    tricks = 13
    contract = 10 * tricks + tricks  # a bid of 13 made, or 13 bags
    nil_tricks = tricks if rules.nil_tricks is NilTricks.BAGS_WITH_POINTS else 0
    nils = 2 * rules.nil_value * (2 if rules.double_nil is not DoubleNil.INDEPENDENT else 1)
    limit = rules.bag_limit
    penalties = 0 if limit is None else (2 * tricks + limit) // limit + 1
    return contract + nil_tricks + nils + penalties * rules.bag_penalty
