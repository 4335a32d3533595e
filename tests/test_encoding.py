"""The action codec: OpenSpiel's numbering, legal masks, decoding ids."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import spades_core as sc
from spades_core import Bid, Card, Deal, IllegalActionError, IllegalReason, Phase, Play, Seat
from spades_core.engine.encoding import (
    ACTIONS,
    BID_ID_BASE,
    NUM_ACTIONS,
    NUM_CARD_IDS,
    action_from_id,
    action_id,
    legal_ids,
    legal_mask,
)
from spades_core.rules.slices import SliceTable
from spades_core.testing.strategies import games, play_randomly

VARIANTS = ("classic", "mirror", "whiz")


def test_action_space_has_52_cards_and_14_bids() -> None:
    assert (NUM_CARD_IDS, BID_ID_BASE, NUM_ACTIONS) == (52, 52, 66)
    assert len(ACTIONS) == NUM_ACTIONS
    assert sc.encoding is __import__("spades_core.engine.encoding").encoding


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2C", 0), ("AC", 12), ("2D", 13), ("QH", 2 * 13 + 10), ("2S", 39), ("AS", 51)],
)
def test_card_ids_are_suit_times_13_plus_rank_as_in_openspiel(text: str, expected: int) -> None:
    card = Card.parse(text)
    assert action_id(Play.of(card)) == expected == card.suit * 13 + card.rank
    assert ACTIONS[expected] is Play.of(card)


@pytest.mark.parametrize("value", range(14))
def test_bid_ids_are_52_plus_the_bid_and_52_is_nil(value: int) -> None:
    assert action_id(Bid.of(value)) == 52 + value
    assert ACTIONS[52 + value] is Bid.of(value)
    assert action_id(sc.NIL) == 52


def test_every_id_round_trips_through_its_action() -> None:
    assert [action_id(action) for action in ACTIONS] == list(range(NUM_ACTIONS))


@pytest.mark.parametrize("thing", [Deal(), "AS", 3, None, Card.parse("AS")])
def test_a_deal_or_a_non_action_has_no_id(thing: object) -> None:
    with pytest.raises(IllegalActionError) as caught:
        action_id(thing)
    assert caught.value.reason is IllegalReason.NOT_AN_ACTION
    if isinstance(thing, Deal):
        assert "chance" in str(caught.value)


def test_mask_is_all_false_while_dealing_and_after_the_game() -> None:
    game = sc.new_game("classic", seed=1)
    assert game.phase is Phase.DEAL
    assert game.legal_mask() == (False,) * NUM_ACTIONS
    assert legal_ids(game) == ()
    over = play_randomly(game, random.Random(1), steps=10_000)
    assert over.is_over
    assert over.legal_mask() == (False,) * NUM_ACTIONS


def test_B1_mirror_mask_has_the_single_forced_bid() -> None:
    game = sc.new_game("mirror", seed=3).deal()
    assert game.to_act is not None
    spades = game.hand(game.to_act).count(sc.Suit.SPADES)
    mask = game.legal_mask()
    assert [i for i, legal in enumerate(mask) if legal] == [52 + spades]
    assert action_from_id(game, 52 + spades) is Bid.of(spades)


def test_B7_classic_mask_after_partner_bid_7() -> None:
    game = sc.new_game("classic", seed=3, dealer=Seat.WEST).deal().bid(7).bid(2)
    assert legal_ids(game) == tuple(range(52, 52 + 7))


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_mask_ids_and_decoding_agree_with_legal_actions(variant: str, data: st.DataObject) -> None:
    game = data.draw(games(variant, max_hands=2), label="game")
    mask = legal_mask(game)
    assert game.legal_mask() == mask
    assert len(mask) == NUM_ACTIONS
    assert all(type(bit) is bool for bit in mask)
    ids = legal_ids(game)
    assert ids == tuple(i for i, legal in enumerate(mask) if legal)
    coded = tuple(action for action in game.legal_actions() if not isinstance(action, Deal))
    assert ids == tuple(sorted(action_id(action) for action in coded))
    for index in range(NUM_ACTIONS):
        if mask[index]:
            decoded = action_from_id(game, index)
            assert decoded is ACTIONS[index]
            assert decoded in game.legal_actions()
        else:
            with pytest.raises(IllegalActionError) as caught:
                action_from_id(game, index)
            expected = game.why_illegal(ACTIONS[index])
            assert expected is not None
            assert caught.value.reason is expected.reason


def test_playing_a_whole_game_by_ids() -> None:
    game = sc.new_game("whiz", seed=9, target_score=150, loss_floor=-150)
    rnd = random.Random(9)
    steps = 0
    while not game.is_over and steps < 5_000:
        if game.phase is Phase.DEAL:
            game = game.deal()
            continue
        ids = legal_ids(game)
        assert ids
        game = game.apply(action_from_id(game, rnd.choice(ids)))
        steps += 1
    assert game.is_over


@pytest.mark.parametrize("bad", [-1, 66, 1000, True, 3.0, "5", None])
def test_out_of_range_or_non_int_id_is_not_an_action(bad: object) -> None:
    game = sc.new_game("classic", seed=2).deal()
    with pytest.raises(IllegalActionError) as caught:
        action_from_id(game, bad)  # type: ignore[arg-type]
    assert caught.value.reason is IllegalReason.NOT_AN_ACTION


def test_card_id_while_bidding_is_the_wrong_phase() -> None:
    game = sc.new_game("classic", seed=2).deal()
    with pytest.raises(IllegalActionError) as caught:
        action_from_id(game, 0)
    assert caught.value.reason is IllegalReason.WRONG_PHASE


def test_bid_id_while_dealing_is_the_wrong_phase() -> None:
    with pytest.raises(IllegalActionError) as caught:
        action_from_id(sc.new_game("classic", seed=2), 52)
    assert caught.value.reason is IllegalReason.WRONG_PHASE


def test_card_not_held_is_rejected_with_its_reason() -> None:
    game = sc.new_game("classic", seed=2).deal().bid(3).bid(3).bid(3).bid(3)
    assert game.to_act is not None
    other = next(card for card in sc.CardSet.full_deck() if card not in game.hand(game.to_act))
    with pytest.raises(IllegalActionError) as caught:
        action_from_id(game, other.id)
    assert caught.value.reason is IllegalReason.CARD_NOT_IN_HAND


@given(
    masks=st.lists(st.integers(min_value=0, max_value=(1 << 52) - 1), min_size=1, max_size=40),
    suit_slices=st.lists(
        st.tuples(st.integers(0, 3), st.integers(1, 0x1FFF)), min_size=1, max_size=20
    ),
)
def test_a_slice_table_gives_the_items_of_any_mask_in_card_order(
    masks: list[int], suit_slices: list[tuple[int, int]]
) -> None:
    # A fresh table, so that what it has kept comes from these masks alone.
    table = SliceTable(lambda card: ("item", card))
    one_suit = [bits << (13 * suit) for suit, bits in suit_slices]
    for mask in masks + one_suit + masks:
        expected = tuple(("item", card) for card in range(52) if mask >> card & 1)
        kept = table.one_suit.get(mask)
        assert table.of_mask(mask) == expected
        assert kept is None or kept == expected
    # Each one-suit mask met is kept whole, so the second lookup is one step.
    for mask in one_suit:
        assert table.one_suit[mask] == tuple(
            ("item", card) for card in range(52) if mask >> card & 1
        )
    assert all(
        key and ((key & -key).bit_length() - 1) // 13 == (key.bit_length() - 1) // 13
        for key in table.one_suit
    )
