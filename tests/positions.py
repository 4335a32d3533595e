"""Constructed positions for tests of players and tips: a game dealt chosen
hands, with chosen bids and plays applied."""

from __future__ import annotations

from typing import Any

import spades_core as sc
from spades_core import Seat


def deal(**hands: str) -> dict[Seat, str]:
    """Hands keyed by seat from keywords by seat letter: ``deal(N="AS KS ...", ...)``."""
    return {Seat.parse(letter): cards for letter, cards in hands.items()}


def position(
    variant: str,
    hands: dict[Seat, str],
    actions: list[int | str],
    dealer: str = "W",
    **options: Any,
) -> sc.Game:
    """A game dealt ``hands`` with ``actions`` (bids as ints, plays as cards) applied."""
    game = sc.new_game(variant, seed=1, dealer=dealer, **options).deal(hands)
    for action in actions:
        game = game.bid(action) if isinstance(action, int) else game.play(action)
    return game
