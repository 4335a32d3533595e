"""One action parser: every method that takes an action reads the same
notations as ``play("AS")``, and reprs meant for people count hands from 1."""

from __future__ import annotations

import pytest

import spades_core as sc
from spades_core import Bid, IllegalActionError, IllegalReason, Play
from spades_core.actions import action_of


def bidding() -> sc.Game:
    return sc.new_game("classic", seed=5).deal()


def playing() -> sc.Game:
    game = bidding()
    while game.phase is sc.Phase.BID:
        game = game.bid(game.legal_bids()[1])
    return game


@pytest.mark.parametrize(("text", "value"), [("3", 3), (" 3 ", 3), ("nil", 0), ("NIL", 0)])
def test_bids_are_read_from_text_everywhere(text: str, value: int) -> None:
    game = bidding()
    expected = game.bid(value)
    assert Bid.of(text) is Bid.of(value)
    assert game.bid(text) == expected
    assert game.apply(text) == expected
    assert game.why_illegal(text) is None
    assert action_of(text) is Bid.of(value)
    assert action_of(f"bid {text.strip()}") is Bid.of(value)


def test_cards_are_read_from_text_everywhere() -> None:
    game = playing()
    card = next(iter(game.legal_plays()))
    expected = game.play(card)
    rank = "10" if card.rank is sc.Rank.TEN else card.rank.letter
    for text in (str(card), f"{rank}{card.suit.letter.lower()}", card.symbol, f"play {card}"):
        assert game.apply(text) == expected, text
        assert game.why_illegal(text) is None, text
        assert action_of(text) is Play.of(card)
    held = game.hand(game.to_act)  # type: ignore[arg-type]
    other = next(iter(sc.CardSet(((1 << 52) - 1) & ~held.mask)))
    error = game.why_illegal(str(other))
    assert error is not None
    assert error.reason is IllegalReason.CARD_NOT_IN_HAND


@pytest.mark.parametrize("text", ["ZZ", "14", "-1", "bid QH", "play 3", "", "nil nil"])
def test_text_that_names_no_action_is_refused_alike(text: str) -> None:
    game = bidding()
    with pytest.raises(IllegalActionError) as caught:
        game.apply(text)
    assert caught.value.reason is IllegalReason.NOT_AN_ACTION
    assert "write a bid (0-13 or nil) or a card (QH, 10h, Q♥)" in str(caught.value)
    error = game.why_illegal(text)
    assert error is not None
    assert error.reason is IllegalReason.NOT_AN_ACTION
    assert game == bidding()


def test_a_bid_text_out_of_range_is_refused_by_bid_of() -> None:
    for text in ("14", "-1", "x", "99999999999999999999"):
        with pytest.raises(IllegalActionError) as caught:
            Bid.of(text)
        assert caught.value.reason is IllegalReason.BID_NOT_ALLOWED
        assert "0-13 or 'nil'" in str(caught.value)


def test_reprs_count_hands_from_one() -> None:
    game = sc.new_game("classic", seed=5)
    assert repr(game).startswith("<Game classic hand 1, DEAL")
    long_game = sc.new_game("classic", seed=5, target_score=10_000, loss_floor=None)
    players = [sc.bots.make("random", seed=seat) for seat in range(4)]
    finished = sc.bots.play_game(long_game, players, max_hands=2)
    first, second = finished.hand_results
    assert repr(first).startswith("<HandResult 1: ")
    assert repr(second).startswith("<HandResult 2: ")
    assert repr(finished).startswith("<Game classic hand 3, DEAL")
    dealt = finished.deal()
    assert repr(dealt.view(sc.Seat.NORTH)).startswith("<View NORTH of classic hand 3, BID")
