"""Constructed positions shared by tests: chosen hands, and a game dealt them
with chosen bids and plays applied."""

from __future__ import annotations

from typing import Any

import spades_core as sc
from spades_core import Seat

# North holds every spade; the others hold one plain suit each.
NORTH_ALL_SPADES: dict[Seat, str] = {
    Seat.NORTH: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    Seat.EAST: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    Seat.SOUTH: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    Seat.WEST: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
}


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
