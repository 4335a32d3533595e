"""One action parser: every method that takes an action reads the same
notations as ``play("AS")``, and reprs meant for people count hands from 1."""

from __future__ import annotations

import pytest

import spades_core as sc
from spades_core import Bid, IllegalActionError, IllegalReason, Play
from spades_core.values.actions import action_of


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
    card = game.legal_cards()[0]
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


@pytest.mark.parametrize("text", ["ZZ", "bid QH", "play 3", "", "nil nil", "3.5", "١"])
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


@pytest.mark.parametrize("value", [14, -1, "14", "-1", "bid 14", "99999999999999999999", 10**100])
def test_a_number_out_of_range_is_a_bid_no_variant_allows_wherever_it_is_given(
    value: int | str,
) -> None:
    game = bidding()
    refusals = [game.why_illegal(value)]
    for read in (game.apply, game.bid, Bid.of, action_of):
        with pytest.raises(IllegalActionError) as caught:
            read(value)
        refusals.append(caught.value)
    for refusal in refusals:
        assert refusal is not None
        assert refusal.reason is IllegalReason.BID_NOT_ALLOWED
        assert "a bid is a whole number 0-13" in str(refusal)
        assert len(str(refusal)) < 120
    assert game == bidding()


@pytest.mark.parametrize("value", [None, True, 3.0, b"3", sc.Seat.NORTH, [3], "QH"])
def test_what_is_not_a_bid_is_refused_by_bid_as_not_an_action(value: object) -> None:
    game = bidding()
    with pytest.raises(IllegalActionError) as caught:
        game.bid(value)  # type: ignore[arg-type]
    assert caught.value.reason is IllegalReason.NOT_AN_ACTION


@pytest.mark.parametrize("value", [None, 12, "3", "ZZ", sc.Bid.of(3), b"QH"])
def test_what_is_not_a_card_is_refused_by_play_as_not_an_action(value: object) -> None:
    game = playing()
    with pytest.raises(IllegalActionError) as caught:
        game.play(value)  # type: ignore[arg-type]
    assert caught.value.reason is IllegalReason.NOT_AN_ACTION
    with pytest.raises(IllegalActionError):
        Play.of(value)  # type: ignore[arg-type]


def test_a_card_and_a_whole_number_are_actions_everywhere() -> None:
    game = bidding()
    assert game.apply(3) == game.bid(3) == game.apply(Bid.of(3))
    assert action_of(0) is sc.NIL
    assert game.why_illegal(3) is None
    game = playing()
    card = game.legal_cards().lowest()
    assert card is not None
    assert game.apply(card) == game.play(card) == game.play(Play.of(card)) == game.apply(str(card))
    assert game.why_illegal(card) is None
    assert action_of(card) is Play.of(card)
    held = game.hand(game.to_act)  # type: ignore[arg-type]
    other = sc.CardSet.full_deck() - held
    error = game.why_illegal(other[0])
    assert error is not None
    assert error.reason is IllegalReason.CARD_NOT_IN_HAND
    bid_now = game.why_illegal(3)
    assert bid_now is not None
    assert bid_now.reason is IllegalReason.WRONG_PHASE


def test_reprs_count_hands_from_one() -> None:
    game = sc.new_game("classic", seed=5)
    assert repr(game).startswith("<Game classic hand 1, DEAL")
    long_game = sc.new_game("classic", seed=5, target_score=10_000, loss_floor=None)
    players = [sc.bots.make("random", seed=seat) for seat in range(4)]
    finished = sc.bots.play_game(long_game, players, hands=2)
    first, second = finished.hand_results
    assert repr(first).startswith("<HandResult 1: ")
    assert repr(second).startswith("<HandResult 2: ")
    assert repr(finished).startswith("<Game classic hand 3, DEAL")
    dealt = finished.deal()
    assert repr(dealt.view(sc.Seat.NORTH)).startswith("<View NORTH of classic hand 3, BID")
