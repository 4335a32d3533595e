"""The double-dummy solver agrees with endplay's DDS where Spades is bridge.

Once spades are broken, Spades' card play is bridge's with spades as trumps:
follow suit, else play anything, and lead anything. On random Classic
positions with spades broken — mid-trick ones included — every legal card's
value from :func:`card_tricks` equals the one Bo Haglund's DDS finds through
``endplay.dds.solve_board``, for the side to play, of the tricks left.
"""

from __future__ import annotations

import pytest
from endplay.dds import solve_board
from endplay.types import Card as BridgeCard
from endplay.types import Deal as BridgeDeal
from endplay.types import Denom, Player
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import spades_core as sc
from analysis_support import endgame
from spades_core.analysis import card_tricks

pytestmark = pytest.mark.integration("endplay")

_RANKS = "23456789TJQKA"
_SUITS = "CDHS"


def bridge_card(card: sc.Card) -> BridgeCard:
    """``card`` in endplay's notation."""
    return BridgeCard(_SUITS[card.id // 13] + _RANKS[card.id % 13])


def bridge_hand(cards: sc.CardSet) -> str:
    """A hand in PBN: spades, hearts, diamonds, clubs, highest first."""
    return ".".join(
        "".join(_RANKS[card.id % 13] for card in reversed(tuple(cards.suit(suit))))
        for suit in "SHDC"
    )


def bridge_deal(game: sc.Game) -> BridgeDeal:
    """``game``'s position as a deal of bridge with spades trumps: the hands
    as they stood at the start of the trick, then the trick's cards played."""
    held = {seat: game.hand(seat) for seat in sc.Seat}
    for seat, card in game.current_trick:
        held[seat] = held[seat] | sc.CardSet.of([card])
    leader = game.leader
    assert leader is not None
    deal = BridgeDeal(
        "N:" + " ".join(bridge_hand(held[seat]) for seat in sc.Seat),
        first=Player(int(leader)),
        trump=Denom.spades,
    )
    for _, card in game.current_trick:
        deal.play(bridge_card(card))
    return deal


def dds_card_tricks(game: sc.Game) -> dict[str, int]:
    """Each legal card's tricks for the side to play, by DDS."""
    return {str(card): tricks for card, tricks in solve_board(bridge_deal(game))}


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 7),
    st.integers(0, 3),
)
def test_every_card_agrees_with_dds_once_spades_are_broken(
    seed: int, tricks_left: int, into_trick: int
) -> None:
    game = endgame("classic", seed, tricks_left, into_trick)
    assert game is not None
    assume(game.spades_broken)
    ours = {str(bridge_card(card)): value for card, value in card_tricks(game).items()}
    assert ours == dds_card_tricks(game)


def test_a_mid_trick_position_of_nine_tricks_agrees_with_dds() -> None:
    # A seeded position nine tricks from the end, two cards into the trick.
    for seed in range(200):
        game = endgame("classic", seed, 9, 2)
        if game is not None and game.spades_broken:
            break
    assert game is not None
    assert game.spades_broken
    ours = {str(bridge_card(card)): value for card, value in card_tricks(game).items()}
    assert ours == dds_card_tricks(game)
