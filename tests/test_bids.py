"""Bidding (docs/rules.md, Shared rules and Variants) and its bidding examples B1-B7."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

import spades_core as sc
from positions import NORTH_ALL_SPADES
from spades_core import Bid, CardSet, IllegalActionError, IllegalReason, Phase, Seat, Suit
from spades_variants.classic import ClassicVariant
from variant_doubles import like_classic

NIL = 0

# North: 4 spades with the ace; East: no spades; South: 4 spades without the ace;
# West: the other 5 spades.
MIXED = {
    Seat.NORTH: "AS KS 2S 3S 2C 3C 4C 5C 6C 7C 8C 9C TC",
    Seat.EAST: "JC QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD",
    Seat.SOUTH: "4S 5S 6S 7S JD QD KD AD 2H 3H 4H 5H 6H",
    Seat.WEST: "8S 9S TS JS QS 7H 8H 9H TH JH QH KH AH",
}


def dealt(
    variant: str, hands: dict[Seat, str], dealer: Seat = Seat.WEST, **options: object
) -> sc.Game:
    return sc.new_game(variant, seed=0, dealer=dealer, **options).deal(hands)


def legal_bids_of_every_seat(game: sc.Game) -> dict[Seat, tuple[int, ...]]:
    """Each seat's legal bids, in bidding order, each seat bidding its first legal bid."""
    found = {}
    while game.phase is Phase.BID:
        seat = game.to_act
        assert seat is not None
        found[seat] = game.legal_bids()
        assert game.legal_actions() == tuple(Bid.of(b) for b in found[seat])
        game = game.bid(found[seat][0])
    return found


def test_B1_mirror_four_spades_bid_exactly_four() -> None:
    game = dealt("mirror", MIXED)
    assert game.to_act is Seat.NORTH
    assert game.hand(Seat.NORTH).count(Suit.SPADES) == 4
    assert game.legal_bids() == (4,)
    assert game.legal_actions() == (Bid.of(4),)


def test_B2_mirror_no_spades_bid_nil() -> None:
    bids = legal_bids_of_every_seat(dealt("mirror", MIXED))
    assert bids[Seat.EAST] == (NIL,)


def test_B1_B2_mirror_every_seat_bids_its_spade_count() -> None:
    game = dealt("mirror", MIXED)
    assert legal_bids_of_every_seat(game) == {
        Seat.NORTH: (4,),
        Seat.EAST: (NIL,),
        Seat.SOUTH: (4,),
        Seat.WEST: (5,),
    }


def test_B3_mirror_north_holds_all_13_spades() -> None:
    game = dealt("mirror", NORTH_ALL_SPADES)
    assert legal_bids_of_every_seat(game) == {
        Seat.NORTH: (13,),
        Seat.EAST: (NIL,),
        Seat.SOUTH: (NIL,),
        Seat.WEST: (NIL,),
    }


def test_B3_mirror_forced_bids_are_recorded_and_sum_to_13() -> None:
    game = dealt("mirror", NORTH_ALL_SPADES)
    for _ in range(4):
        (only,) = game.legal_actions()
        game = game.apply(only)
    assert game.phase is Phase.PLAY
    assert dict(game.bids) == {Seat.NORTH: 13, Seat.EAST: 0, Seat.SOUTH: 0, Seat.WEST: 0}


@pytest.mark.parametrize("seed", range(12))
def test_mirror_offers_exactly_one_bid_the_spade_count(seed: int) -> None:
    game = sc.new_game("mirror", seed=seed).deal()
    total = 0
    while game.phase is Phase.BID:
        assert game.to_act is not None
        spades = game.hand(game.to_act).count(Suit.SPADES)
        assert game.legal_actions() == (Bid.of(spades),)
        total += spades
        game = game.apply(game.legal_actions()[0])
    assert total == 13
    assert sum(bid or 0 for bid in game.bids.values()) == 13


def test_B4_whiz_four_spades_bid_nil_or_four() -> None:
    game = dealt("whiz", MIXED)
    assert game.legal_bids() == (NIL, 4)
    assert game.legal_actions() == (Bid.of(0), Bid.of(4))
    assert legal_bids_of_every_seat(game) == {
        Seat.NORTH: (NIL, 4),
        Seat.EAST: (NIL,),
        Seat.SOUTH: (NIL, 4),
        Seat.WEST: (NIL, 5),
    }


def test_B5_whiz_nil_needs_no_ace_four_spades_with_the_ace_bid_four() -> None:
    game = dealt("whiz", MIXED, whiz_nil_needs_no_ace=True)
    assert "AS" in game.hand(Seat.NORTH)
    assert legal_bids_of_every_seat(game) == {
        Seat.NORTH: (4,),  # holds the A♠: no Nil
        Seat.EAST: (NIL,),  # no spades: Nil only, the option changes nothing
        Seat.SOUTH: (NIL, 4),  # no A♠: Nil still allowed
        Seat.WEST: (NIL, 5),
    }


def test_B5_whiz_nil_needs_no_ace_with_all_13_spades() -> None:
    assert legal_bids_of_every_seat(dealt("whiz", NORTH_ALL_SPADES))[Seat.NORTH] == (NIL, 13)
    game = dealt("whiz", NORTH_ALL_SPADES, whiz_nil_needs_no_ace=True)
    assert legal_bids_of_every_seat(game)[Seat.NORTH] == (13,)


def test_B6_whiz_no_spades_bid_nil() -> None:
    assert legal_bids_of_every_seat(dealt("whiz", NORTH_ALL_SPADES)) == {
        Seat.NORTH: (NIL, 13),
        Seat.EAST: (NIL,),
        Seat.SOUTH: (NIL,),
        Seat.WEST: (NIL,),
    }


def test_B7_classic_partner_already_bid_7() -> None:
    game = dealt("classic", MIXED).bid(7)  # North
    assert game.legal_bids() == tuple(range(14))  # East: partner has not bid
    game = game.bid(3)  # East
    assert game.to_act is Seat.SOUTH
    assert game.legal_bids() == (NIL, 1, 2, 3, 4, 5, 6)
    game = game.bid(6)  # South
    assert game.legal_bids() == tuple(range(11))  # West: partner East bid 3


def test_classic_first_bid_of_a_team_is_free_and_both_partners_may_bid_nil() -> None:
    game = dealt("classic", NORTH_ALL_SPADES)
    assert game.legal_bids() == tuple(range(14))
    game = game.bid(0).bid(13)
    assert game.legal_bids() == tuple(range(14))  # South after North's Nil
    game = game.bid(0)
    assert game.legal_bids() == (NIL,)  # West after East's 13
    game = game.bid(0)
    assert game.phase is Phase.PLAY
    assert dict(game.bids) == {Seat.NORTH: 0, Seat.EAST: 13, Seat.SOUTH: 0, Seat.WEST: 0}


@pytest.mark.parametrize(
    ("max_team_bid", "first", "after_partner_bid_7"),
    [
        (13, tuple(range(14)), tuple(range(7))),
        (10, tuple(range(11)), tuple(range(4))),
        (7, tuple(range(8)), (NIL,)),
        (None, tuple(range(14)), tuple(range(14))),
    ],
)
def test_max_team_bid_option(
    max_team_bid: int | None,
    first: tuple[int, ...],
    after_partner_bid_7: tuple[int, ...],
) -> None:
    game = dealt("classic", MIXED, max_team_bid=max_team_bid)
    assert game.legal_bids() == first
    game = game.bid(7).bid(0)
    assert game.legal_bids() == after_partner_bid_7


def test_max_team_bid_1() -> None:
    game = dealt("classic", MIXED, max_team_bid=1)
    assert game.legal_bids() == (NIL, 1)
    game = game.bid(1).bid(1)
    assert game.legal_bids() == (NIL,)
    game = game.bid(0)
    assert game.legal_bids() == (NIL,)


def test_max_team_bid_none_allows_a_team_contract_over_13() -> None:
    game = dealt("classic", MIXED, max_team_bid=None).bid(13).bid(0).bid(13).bid(0)
    assert game.phase is Phase.PLAY
    assert (game.bids[Seat.NORTH], game.bids[Seat.SOUTH]) == (13, 13)


@pytest.mark.parametrize("dealer", list(Seat))
@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_bidding_starts_left_of_the_dealer_and_goes_clockwise(variant: str, dealer: Seat) -> None:
    game = dealt(variant, MIXED, dealer=dealer)
    order = []
    while game.phase is Phase.BID:
        assert game.to_act is not None
        order.append(game.to_act)
        game = game.apply(game.legal_actions()[-1])
        assert {seat for seat in Seat if game.bids[seat] is not None} == set(order)
    assert order == [Seat((dealer + 1 + i) % 4) for i in range(4)]
    assert game.phase is Phase.PLAY
    assert game.to_act is dealer.next


# -- illegal bids ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "hands", "options", "bid", "allowed"),
    [
        ("mirror", MIXED, {}, 3, "4"),
        ("mirror", MIXED, {}, 0, "4"),
        ("mirror", MIXED, {}, 13, "4"),
        ("whiz", MIXED, {}, 3, "Nil, 4"),
        ("whiz", MIXED, {"whiz_nil_needs_no_ace": True}, 0, "4"),
        ("classic", MIXED, {"max_team_bid": 5}, 6, "Nil, 1, 2, 3, 4, 5"),
    ],
)
def test_a_bid_the_variant_does_not_allow_is_rejected_and_changes_nothing(
    variant: str, hands: dict[Seat, str], options: dict[str, object], bid: int, allowed: str
) -> None:
    game = dealt(variant, hands, Seat.WEST, **options)
    before = dealt(variant, hands, Seat.WEST, **options)
    with pytest.raises(IllegalActionError) as caught:
        game.bid(bid)
    assert caught.value.reason is IllegalReason.BID_NOT_ALLOWED
    assert isinstance(caught.value, ValueError)
    # The refusal says why in the variant's own words, the sentence
    # explain_bids gives, which names the bids left.
    assert ", ".join("Nil" if value == 0 else str(value) for value in game.legal_bids()) == allowed
    assert str(caught.value) == f"NORTH may not bid {Bid.of(bid)}: {game.explain_bids()}"
    with pytest.raises(IllegalActionError):
        game.apply(Bid.of(bid))
    error = game.why_illegal(Bid.of(bid))
    assert error is not None
    assert error.reason is IllegalReason.BID_NOT_ALLOWED
    assert game == before
    assert game.to_act is Seat.NORTH
    assert game.bids.values_ == (None, None, None, None)


def test_classic_bid_over_the_team_cap_is_rejected() -> None:
    game = dealt("classic", MIXED).bid(7).bid(2)
    before = game
    with pytest.raises(IllegalActionError) as caught:
        game.bid(7)
    assert caught.value.reason is IllegalReason.BID_NOT_ALLOWED
    assert game == before
    assert game.to_act is Seat.SOUTH


@pytest.mark.parametrize("value", [-1, 14, 100])
def test_a_bid_outside_0_to_13_is_not_allowed(value: int) -> None:
    game = dealt("classic", MIXED)
    with pytest.raises(IllegalActionError) as caught:
        game.bid(value)
    assert caught.value.reason is IllegalReason.BID_NOT_ALLOWED
    assert "0-13" in str(caught.value)
    with pytest.raises(IllegalActionError) as caught:
        Bid.of(value)
    assert caught.value.reason is IllegalReason.BID_NOT_ALLOWED
    # A Bid built by hand with such a value is refused by the game, too.
    error = game.why_illegal(Bid(value))
    assert error is not None
    assert error.reason is IllegalReason.BID_NOT_ALLOWED
    with pytest.raises(IllegalActionError):
        game.apply(Bid(value))
    assert game == dealt("classic", MIXED)


@pytest.mark.parametrize("value", [3.0, True, None])
def test_a_bid_that_is_not_a_whole_number_is_not_an_action(value: object) -> None:
    game = dealt("classic", MIXED)
    with pytest.raises(IllegalActionError) as caught:
        game.bid(value)  # type: ignore[arg-type]
    assert caught.value.reason is IllegalReason.NOT_AN_ACTION
    assert game == dealt("classic", MIXED)


def test_bidding_out_of_turn_or_phase() -> None:
    fresh = sc.new_game("classic", seed=0, dealer=Seat.WEST)
    with pytest.raises(IllegalActionError) as caught:
        fresh.bid(3)
    assert caught.value.reason is IllegalReason.WRONG_PHASE
    game = dealt("classic", MIXED)
    with pytest.raises(IllegalActionError) as caught:
        game.bid(3, seat=Seat.EAST)
    assert caught.value.reason is IllegalReason.NOT_YOUR_TURN
    assert "NORTH" in str(caught.value)
    assert game.bid(3, seat=Seat.NORTH).bids.values_ == (3, None, None, None)
    playing = game.bid(3).bid(3).bid(3).bid(3)
    assert playing.phase is Phase.PLAY
    with pytest.raises(IllegalActionError) as caught:
        playing.bid(3)
    assert caught.value.reason is IllegalReason.WRONG_PHASE
    assert "must play a card" in str(caught.value)


def test_legal_bids_is_empty_outside_bidding() -> None:
    assert sc.new_game("whiz", seed=0).legal_bids() == ()
    game = dealt("whiz", MIXED)
    for _ in range(4):
        game = game.apply(game.legal_actions()[0])
    assert game.phase is Phase.PLAY
    assert game.legal_bids() == ()


def test_whiz_hook_answers_from_the_hand_alone() -> None:
    whiz = sc.load_variant("whiz")
    rules = whiz.rules()
    hand = CardSet.parse("AS 2S 3S 2C 3C 4C 5C 6C 7C 8C 9C TC JC")
    assert sorted(whiz.legal_bids(rules, Seat.EAST, hand, {})) == [0, 3]
    strict = whiz.rules(whiz_nil_needs_no_ace=True)
    assert sorted(whiz.legal_bids(strict, Seat.EAST, hand, {Seat.NORTH: 5})) == [3]
    mirror = sc.load_variant("mirror")
    assert sorted(mirror.legal_bids(mirror.rules(), Seat.EAST, hand, {})) == [3]


# One tuple object, handed out on every call: a bad answer must be refused each
# time, never remembered as checked.
SAME_BAD_ANSWER = (0, 14)


class SameBadAnswer(ClassicVariant):
    def legal_bids(
        self, rules: sc.Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> Iterable[int]:
        return SAME_BAD_ANSWER


def test_a_bad_bid_list_is_refused_every_time_the_same_tuple_comes_back() -> None:
    variant = like_classic(SameBadAnswer, "same-bad")
    game = sc.new_game(variant, seed=1).deal()
    for _ in range(3):
        with pytest.raises(sc.VariantLoadError, match="legal_bids must return"):
            game.legal_actions()
        with pytest.raises(sc.VariantLoadError, match="legal_bids must return"):
            game.bid(0)
