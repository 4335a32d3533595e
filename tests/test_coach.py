"""Coach tips: the normal player's move and the reason, naming the cards."""

from __future__ import annotations

import random

import attrs
import pytest

import spades_core as sc
from coach_claims import check_tip
from positions import deal, position
from spades_core import Bid, IllegalActionError, IllegalReason, Phase, Play, Seat, TeamMap, Tip


def tip_for(game: sc.Game) -> Tip:
    seat = game.to_act
    assert seat is not None
    return sc.coach(game.view(seat))


# Dealer West: North bids first and leads the first trick.
WEAK_NORTH = deal(
    N="5C 6C 2D 3D 4D 5D 2H 3H 4H 5H 2S 3S 4S",
    E="KC 8C 6D 7D 8D 9D 6H 7H 8H 9H 5S 6S 7S",
    S="7C 9C TC TD JD QD TH JH QH 8S 9S TS JS",
    W="AC 2C 3C 4C JC QC KD AD KH AH QS KS AS",
)
NIL_PARTNER = deal(
    N="KH 4H AC KC QC JC AD KD QD AS KS QS JS",
    E="AH 8H 9H 2C 3C 4C 2D 3D 4D 2S 3S 4S 5S",
    S="2H 3H 5H 6H 5C 6C 7C 5D 6D 7D 6S 7S 8S",
    W="7H TH JH QH 8C 9C TC 8D 9D TD JD 9S TS",
)


def test_tip_is_a_frozen_value_with_a_legal_action() -> None:
    game = sc.new_game("classic", seed=3).deal()
    tip = tip_for(game)
    assert tip.action in game.legal_actions()
    assert tip.idea == tip.idea.lower()
    assert tip.idea
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        tip.reason = "no"  # type: ignore[misc]


def test_coach_explains_covering_a_nil_partner_naming_the_cards() -> None:
    # West leads the 7♥; North plays before its Nil partner South.
    tip = tip_for(position("classic", NIL_PARTNER, [2, 6, 3, 0, "7H"], dealer="S"))
    assert tip.action == Play.of("KH")
    assert tip.reason == (
        "Your partner bid Nil and the Q♥ is still out: play your K♥ over the 7♥ so they "
        "can play under it."
    )
    assert tip.idea == "protect_cover"


def test_coach_explains_a_mirror_forced_bid() -> None:
    tip = tip_for(position("mirror", WEAK_NORTH, []))
    assert tip.action == Bid.of(3)
    assert tip.reason == (
        "In Mirror Spades your bid is your spade count, and you hold 3 spades, so you must bid 3."
    )


def test_coach_explains_a_bid_forced_by_having_no_spades() -> None:
    hands = deal(
        N="2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        E="2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        S="2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        W="2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    )
    for variant, rule in (
        (
            "mirror",
            "In Mirror Spades your bid is your spade count, and you hold no spades, so "
            "you must bid Nil.",
        ),
        (
            "whiz",
            "In Whiz Spades you bid Nil or your spade count, and you hold no spades, so "
            "Nil is your only bid.",
        ),
    ):
        tip = tip_for(position(variant, hands, []))
        assert tip.action == Bid.of(0)
        assert tip.reason == rule


def test_coach_explains_whiz_nil_and_whiz_count() -> None:
    nil = tip_for(position("whiz", WEAK_NORTH, []))
    assert nil.action == Bid.of(0)
    assert nil.reason == (
        "Your hand is weak (your best card is the 6♣, with only the 4♠, 3♠ and 2♠ in spades), "
        "so bid Nil for 100 points."
    )
    count = tip_for(position("whiz", WEAK_NORTH, [0, 3, 4]))
    assert count.action == Bid.of(3)
    assert count.reason == (
        "In Whiz Spades you bid Nil or your spade count, and you hold 3 spades, so you may bid "
        "Nil or 3. Nil is too risky with the A♠, K♠, Q♠, A♣, A♦, A♥, K♦ and K♥: bid 3."
    )


def test_coach_explains_a_classic_bid_by_its_likely_winners() -> None:
    tip = tip_for(position("classic", WEAK_NORTH, [3, 3, 3]))
    assert tip.action == Bid.of(7)
    assert tip.reason == (
        "You can expect about 7 tricks: the A♦, A♥ and A♠ should take 3, and the A♣, the K♦, "
        "the K♥, the K♠ and the Q♠ about 4 more, so bid 7 (with your partner's 3, a team "
        "contract of 10)."
    )


NIL_OPPONENT = deal(
    N="3H 5H 6H 2C 3C 4C 2D 3D 4D 2S 3S 4S 5S",
    E="9H 5C 6C 7C 8C 5D 6D 7D 8D 6S 7S 8S 9S",
    S="4H KH 7H 9C TC JC 9D TD JD TS JS QS KS",
    W="2H 8H TH JH QH AH QC KC AC QD KD AD AS",
)


@pytest.mark.parametrize(
    ("actions", "dealer", "card", "reason"),
    [
        (
            [3, 3, 3, 3, "5C", "KC", "7C"],
            "W",
            "2C",
            "Your partner is winning this trick with the K♣: don't overtake; play your 2♣.",
        ),
        (
            [3, 3, 3, 3, "5C", "KC", "7C", "AC", "AH"],
            "W",
            "2H",
            "You cannot beat the A♥: play your lowest heart, the 2♥.",
        ),
        (
            [3, 3, 3, 3, "2D", "6D"],
            "W",
            "QD",
            "Only an opponent plays after you: play your highest diamond, the Q♦, to beat the "
            "6♦ and make them use their best card.",
        ),
    ],
)
def test_coach_explains_following_suit(
    actions: list[int | str], dealer: str, card: str, reason: str
) -> None:
    tip = tip_for(position("classic", WEAK_NORTH, actions, dealer=dealer))
    assert tip.action == Play.of(card)
    assert tip.reason == reason


def test_coach_explains_attacking_a_nil_opponent() -> None:
    under = tip_for(position("classic", NIL_OPPONENT, [5, 2, 0, 4, "2H", "3H", "9H"], dealer="S"))
    assert under.action == Play.of("7H")
    assert under.reason == (
        "East bid Nil and is winning this trick with the 9♥: play under it with your 7♥, "
        "so they have to take it."
    )
    lead = tip_for(position("classic", NIL_OPPONENT, [5, 0, 3, 4], dealer="S"))
    assert lead.action == Play.of("2H")
    assert lead.reason == (
        "North bid Nil: lead your lowest heart, the 2♥, to make it hard for them to stay under."
    )


def test_coach_explains_ducking_bags() -> None:
    hands = deal(
        N="AC 2C AD 2D AH 2H 3H 2S 3S 4S 5S 6S 7S",
        E="3C 4C 5C 6C 3D 4D 5D 6D 4H 5H 6H 8S 9S",
        S="7C 8C 9C 7D 8D 9D 7H 8H 9H TH TS JS QS",
        W="TC JC QC KC TD JD QD KD JH QH KH KS AS",
    )
    game = position("classic", hands, [1, 2, 1, 2, "AC", "3C", "7C", "TC", "AD", "3D", "7D", "TD"])
    view = attrs.evolve(game.view(Seat.NORTH), bags=TeamMap((8, 0)))
    tip = sc.coach(view)
    assert tip.action == Play.of("2H")
    assert tip.reason == (
        "Your team has made its contract of 2 (2 tricks so far) and has 8 bags from earlier "
        "hands: lead the 2♥, with 10 higher hearts still out, to avoid taking more bags."
    )


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_coach_gives_a_legal_move_and_one_sentence_at_every_decision(variant: str) -> None:
    rng = random.Random(variant)
    game = sc.new_game(variant, seed=31, target_score=200)
    decisions = 0
    while not game.is_over and decisions < 250:
        if game.phase is Phase.DEAL:
            game = game.deal()
            continue
        seat = game.to_act
        assert seat is not None
        tip = sc.coach(game.view(seat))
        decisions += 1
        assert tip.action in game.legal_actions()
        check_tip(game, tip)
        assert tip.reason.endswith(".")
        assert "\n" not in tip.reason
        assert tip.reason[0].isupper()
        if isinstance(tip.action, Play):
            assert any(symbol in tip.reason for symbol in "♣♦♥♠")
        # Follow the coach most of the time, wander sometimes.
        action = tip.action if rng.random() < 0.7 else rng.choice(game.legal_actions())
        game = game.apply(action)
    assert decisions == 250 or game.is_over


def test_coach_needs_the_view_of_the_seat_to_act() -> None:
    game = sc.new_game("whiz", seed=2).deal()
    other = next(seat for seat in Seat if seat != game.to_act)
    with pytest.raises(IllegalActionError) as raised:
        sc.coach(game.view(other))
    assert raised.value.reason is IllegalReason.NOT_YOUR_TURN
