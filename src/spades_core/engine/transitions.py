"""Pure transitions over :class:`~spades_core.Game`: deal, bid, play, score.

Each function takes a game and returns a new one; none mutates anything.
They are the engine's one step, which lives beside the game it builds
(:mod:`spades_core.engine.game`): :func:`apply` checks legality and is what
:meth:`Game.apply` calls. :func:`play_unchecked`, :func:`bid_unchecked` and
:func:`deal_unchecked` skip the checks, for simulation code that already
chose a legal action from :meth:`Game.legal_actions` or
:func:`~spades_core.engine.game.legal_play_mask`; given an illegal action
they produce a corrupt game, so use them only there.

The hand is scored by the play of its 13th trick (:func:`finish_hand` is the
step), using the variant's :meth:`~spades_core.Variant.score_hand` and
:meth:`~spades_core.Variant.game_outcome` hooks.
"""

from __future__ import annotations

from typing import Any, Final

from spades_core.engine import game as _game
from spades_core.engine.game import (
    Game,
    GameSetup,
    apply,
    between_hands,
    bid_unchecked,
    deal,
    deal_unchecked,
    finish_hand,
    play_unchecked,
)
from spades_core.rules import legality, results, tricks
from spades_core.values import deprecation
from spades_core.values.actions import Action

__all__ = [
    "apply",
    "between_hands",
    "bid_unchecked",
    "deal",
    "deal_unchecked",
    "finish_hand",
    "play_unchecked",
]


def _legal_actions(game: Game) -> tuple[Action, ...]:
    """``transitions.legal_actions`` of release 0.1: ``game.legal_actions()``."""
    return game.legal_actions()


def _legal_bid_values(game: Game) -> tuple[int, ...]:
    """``transitions.legal_bid_values`` of release 0.1: ``game.legal_bids()``."""
    return game.legal_bids()


def _bid_values(setup: GameSetup, seat: int, hand: int, bids: tuple[int | None, ...]) -> Any:
    """``transitions.bid_values`` of release 0.1, which took the game's setup."""
    return legality.bid_values(setup.variant, setup.rules, seat, hand, bids)


_OLD_NAMES: Final = deprecation.OldNames(
    "spades_core.transitions",
    {
        "check": (_game.check, "Game.why_illegal()"),
        "legal_actions": (_legal_actions, "Game.legal_actions()"),
        "legal_play_mask": (_game.legal_play_mask, "Game.legal_cards()"),
        "bid_values": (_bid_values, "Game.legal_bids()"),
        "legal_bid_values": (_legal_bid_values, "Game.legal_bids()"),
        "make_trick": (results.make_trick, "spades_core.results.make_trick"),
        "trick_winner": (tricks.trick_winner, "spades_core.tricks.trick_winner"),
        "score_hand": (finish_hand, "spades_core.transitions.finish_hand"),
    },
)
__getattr__ = _OLD_NAMES.attribute
