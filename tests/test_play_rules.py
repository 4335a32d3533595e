"""Trick play (docs/rules.md, Shared rules; the break rules of each variant; ``first_lead``),
the play examples P1-P6 of docs/rules.md, every IllegalReason of play, and explicit deals."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

import spades_core as sc
from spades_core import (
    Bid,
    Card,
    CardSet,
    Deal,
    IllegalActionError,
    IllegalReason,
    Phase,
    Play,
    Seat,
    SpadesError,
)

VARIANTS = ["classic", "mirror", "whiz"]

# North: two top clubs and 11 low spades; East: AS KS and diamonds; South: all
# hearts; West: the other clubs and KD AD. North leads (West deals), wins both
# club tricks, and is then left holding only spades with spades unbroken.
ONLY_SPADES_LATER = {
    Seat.NORTH: "AC KC 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
    Seat.EAST: "AS KS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
    Seat.SOUTH: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    Seat.WEST: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KD AD",
}

# North: low diamonds and low clubs (with the 2C); East: low spades and low hearts,
# void in diamonds and clubs; South: high diamonds and high clubs; West: high
# spades and high hearts.
SPLIT = {
    Seat.NORTH: "2D 3D 4D 5D 6D 7D 8D 2C 3C 4C 5C 6C 7C",
    Seat.EAST: "2S 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 7H 8H",
    Seat.SOUTH: "9D TD JD QD KD AD 8C 9C TC JC QC KC AC",
    Seat.WEST: "8S 9S TS JS QS KS AS 9H TH JH QH KH AH",
}

# North holds spades and hearts (P1).
SPADES_AND_HEARTS = {
    Seat.NORTH: "AS KS QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
    Seat.EAST: "JS TS 9S 8S QH KH AH 2C 3C 4C 5C 6C 7C",
    Seat.SOUTH: "7S 6S 5S 4S 8C 9C TC JC QC KC AC 2D 3D",
    Seat.WEST: "3S 2S 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
}

NORTH_ALL_SPADES = {
    Seat.NORTH: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    Seat.EAST: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    Seat.SOUTH: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    Seat.WEST: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
}


def ready_to_play(
    variant: str, hands: dict[Seat, str], dealer: Seat = Seat.WEST, **options: object
) -> sc.Game:
    """The hand dealt and bid (each seat takes its last legal bid): first trick next."""
    game = sc.new_game(variant, seed=0, dealer=dealer, **options).deal(hands)
    while game.phase is Phase.BID:
        game = game.apply(game.legal_actions()[-1])
    assert game.phase is Phase.PLAY
    return game


def play(game: sc.Game, cards: str) -> sc.Game:
    for card in cards.split():
        game = game.play(card)
    return game


def cards(text: str) -> CardSet:
    return CardSet.parse(text)


def assert_rejected(
    game: sc.Game, action: object, reason: IllegalReason, *, seat: Seat | None = None
) -> IllegalActionError:
    """``action`` raises ``reason``, ``why_illegal`` agrees, and the game is unchanged."""
    before = (game, game.phase, game.to_act, game.current_trick, game.tricks, game.legal_actions())
    copy = _rebuilt(game)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action, seat=seat)  # type: ignore[arg-type]
    assert caught.value.reason is reason, caught.value
    error = game.why_illegal(action, seat=seat)
    assert error is not None
    assert error.reason is reason
    assert str(error) == str(caught.value)
    after = (game, game.phase, game.to_act, game.current_trick, game.tricks, game.legal_actions())
    assert after == before
    assert game == copy
    return caught.value


def _rebuilt(game: sc.Game) -> sc.Game:
    """An independent game equal to ``game``: the same deal and actions replayed."""
    if game.phase is Phase.DEAL or game.phase is Phase.GAME_OVER:
        return game
    fresh = sc.new_game(
        game.variant,
        seed=game.seed,
        dealer=game.dealer,
        **dict(game.rules.overrides),
    )
    fresh = fresh.deal({seat: game.dealt_hand(seat) for seat in Seat})
    for seat in _bid_order(game.dealer):
        bid = game.bids[seat]
        if bid is None:
            break
        fresh = fresh.bid(bid)
    for trick in game.tricks:
        for _, card in trick.plays:
            fresh = fresh.play(card)
    for _, card in game.current_trick:
        fresh = fresh.play(card)
    return fresh


def _bid_order(dealer: Seat) -> Iterable[Seat]:
    return (Seat((dealer + 1 + i) % 4) for i in range(4))


# -- P1-P6 ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_P1_spades_may_not_be_led_to_trick_1(variant: str) -> None:
    game = ready_to_play(variant, SPADES_AND_HEARTS)
    assert game.to_act is Seat.NORTH
    assert not game.spades_broken
    assert game.legal_cards() == cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH")
    error = assert_rejected(game, Play.of("AS"), IllegalReason.SPADES_NOT_BROKEN)
    assert "AS" in str(error)
    assert "NORTH" in str(error)


@pytest.mark.parametrize("variant", VARIANTS)
def test_P2_leader_with_only_spades_must_lead_a_spade_on_trick_1(variant: str) -> None:
    game = ready_to_play(variant, NORTH_ALL_SPADES)
    assert game.legal_cards() == game.hand(Seat.NORTH)
    game = game.play("2S")
    assert game.current_trick == ((Seat.NORTH, Card.parse("2S")),)


@pytest.mark.parametrize("variant", VARIANTS)
def test_P2_leader_left_with_only_spades_must_lead_a_spade(variant: str) -> None:
    game = ready_to_play(variant, ONLY_SPADES_LATER)
    game = play(game, "AC 2D 2H 2C  KC 3D 3H 3C")
    assert game.to_act is Seat.NORTH
    assert not game.spades_broken
    assert game.hand(Seat.NORTH) == cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS")
    assert game.legal_cards() == game.hand(Seat.NORTH)


def after_p2(variant: str) -> sc.Game:
    """P2 played out: North leads 2S (only spades), East wins with AS following suit."""
    game = ready_to_play(variant, ONLY_SPADES_LATER)
    game = play(game, "AC 2D 2H 2C  KC 3D 3H 3C  2S AS 4H 4C")
    assert game.tricks[-1].winner is Seat.EAST
    assert game.to_act is Seat.EAST
    assert game.hand(Seat.EAST) == cards("KS 4D 5D 6D 7D 8D 9D TD JD QD")
    return game


def test_P3_classic_a_spade_led_under_the_exception_does_not_break_spades() -> None:
    game = after_p2("classic")
    assert not game.spades_broken
    assert game.legal_cards() == cards("4D 5D 6D 7D 8D 9D TD JD QD")
    assert_rejected(game, Play.of("KS"), IllegalReason.SPADES_NOT_BROKEN)


@pytest.mark.parametrize("variant", ["mirror", "whiz"])
def test_P3_mirror_and_whiz_any_earlier_spade_breaks_spades(variant: str) -> None:
    game = after_p2(variant)
    assert game.spades_broken
    assert game.legal_cards() == game.hand(Seat.EAST)
    assert game.why_illegal(Play.of("KS")) is None
    assert game.play("KS").current_trick == ((Seat.EAST, Card.parse("KS")),)


@pytest.mark.parametrize(
    ("variant", "break_rule", "broken"),
    [
        ("classic", "any_spade", True),
        ("mirror", "offsuit_spade", False),
        ("whiz", "offsuit_spade", False),
    ],
)
def test_P3_the_break_rule_option_decides_not_the_variant(
    variant: str, break_rule: str, broken: bool
) -> None:
    game = ready_to_play(variant, ONLY_SPADES_LATER, break_rule=break_rule)
    game = play(game, "AC 2D 2H 2C  KC 3D 3H 3C  2S AS 4H 4C")
    assert game.spades_broken is broken
    assert ("KS" in game.legal_cards()) is broken


@pytest.mark.parametrize("variant", VARIANTS)
def test_P4_player_void_in_the_led_suit_may_play_any_card(variant: str) -> None:
    game = ready_to_play(variant, SPLIT)
    game = play(game, "2D")  # North leads a diamond; East has none
    assert game.to_act is Seat.EAST
    assert not game.spades_broken
    # Any card, spades included, though spades are not broken.
    assert game.legal_cards() == game.hand(Seat.EAST)
    game = play(game, "2H 9D 9H")  # East discards instead; South wins with 9D
    assert game.to_act is Seat.SOUTH
    game = play(game, "8C")
    assert game.to_act is Seat.WEST
    assert game.legal_cards() == game.hand(Seat.WEST)  # void in clubs: any card
    game = play(game, "TH")
    assert game.legal_cards() == cards("2C 3C 4C 5C 6C 7C")  # North must follow clubs
    game = play(game, "2C")
    assert game.legal_cards() == game.hand(Seat.EAST)  # void in clubs: any card


@pytest.mark.parametrize("variant", VARIANTS)
def test_P4_hearts_led_void_player_may_play_any_card(variant: str) -> None:
    game = ready_to_play(variant, SPLIT, dealer=Seat.NORTH)
    assert game.to_act is Seat.EAST
    game = play(game, "2H")
    # South has no hearts: diamonds, clubs, anything goes.
    assert game.legal_cards() == game.hand(Seat.SOUTH)
    game = play(game, "AD")
    assert game.legal_cards() == cards("9H TH JH QH KH AH")  # West must follow
    game = play(game, "9H")
    assert game.legal_cards() == game.hand(Seat.NORTH)


@pytest.mark.parametrize("variant", VARIANTS)
def test_P5_a_trumped_diamond_trick_breaks_spades_in_every_variant(variant: str) -> None:
    game = ready_to_play(variant, SPLIT)
    game = play(game, "2D 2S")  # East trumps North's diamond lead
    assert game.spades_broken
    game = play(game, "AD 9H")
    trick = game.tricks[-1]
    assert trick.winner is Seat.EAST  # the only spade beats the ace of the led suit
    assert game.to_act is Seat.EAST
    assert game.leader is Seat.EAST
    assert game.legal_cards() == game.hand(Seat.EAST)
    assert game.why_illegal(Play.of("3S")) is None
    game = play(game, "3S")
    assert game.current_trick == ((Seat.EAST, Card.parse("3S")),)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("dealer", list(Seat))
def test_P6_two_of_clubs_holder_leads_it_to_trick_1(variant: str, dealer: Seat) -> None:
    game = ready_to_play(variant, SPLIT, dealer=dealer, first_lead="two_of_clubs")
    assert game.to_act is Seat.NORTH  # holds the 2C, whoever dealt
    assert game.leader is Seat.NORTH
    assert game.legal_cards() == cards("2C")
    assert game.legal_actions() == (Play.of("2C"),)
    error = assert_rejected(game, Play.of("3C"), IllegalReason.MUST_LEAD_TWO_OF_CLUBS)
    assert "2C" in str(error)
    assert_rejected(game, Play.of("2D"), IllegalReason.MUST_LEAD_TWO_OF_CLUBS)
    game = play(game, "2C 4H AC 9H")
    # From trick 2 the winner leads any legal card.
    assert game.to_act is Seat.SOUTH
    assert game.legal_cards() == game.hand(Seat.SOUTH)


def test_P6_with_the_default_first_lead_left_of_dealer_leads_anything_legal() -> None:
    game = ready_to_play("classic", SPLIT, dealer=Seat.SOUTH)
    assert game.to_act is Seat.WEST
    # West holds spades and hearts, spades unbroken: hearts only.
    assert game.legal_cards() == cards("9H TH JH QH KH AH")


# -- trick winners -------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_highest_card_of_the_led_suit_wins_without_spades(variant: str) -> None:
    game = ready_to_play(variant, SPLIT)
    game = play(game, "2D 8H 9D AH")  # off-suit aces do not win
    assert game.tricks[-1].winner is Seat.SOUTH
    assert game.tricks[-1].plays == (
        (Seat.NORTH, Card.parse("2D")),
        (Seat.EAST, Card.parse("8H")),
        (Seat.SOUTH, Card.parse("9D")),
        (Seat.WEST, Card.parse("AH")),
    )
    assert game.to_act is Seat.SOUTH
    assert game.tricks_won[Seat.SOUTH] == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_highest_spade_wins(variant: str) -> None:
    game = ready_to_play(variant, SPLIT)
    game = play(game, "2D 7S 9D")
    # West is void in diamonds and overtrumps: the highest spade wins.
    game = play(game, "8S")
    assert game.tricks[-1].winner is Seat.WEST
    assert game.to_act is Seat.WEST
    assert game.current_trick == ()
    assert game.tricks_won.values_ == (0, 0, 0, 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_led_spade_is_won_by_the_highest_spade(variant: str) -> None:
    game = ready_to_play(variant, ONLY_SPADES_LATER)
    game = play(game, "AC 2D 2H 2C  KC 3D 3H 3C  QS KS 4H KD")
    assert game.tricks[-1].winner is Seat.EAST


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_duty_to_win_trump_or_overtrump(variant: str) -> None:
    game = ready_to_play(variant, SPLIT)
    game = play(game, "2D 7S 9D")
    # West, void in diamonds, may play a losing heart instead of overtrumping.
    assert "9H" in game.legal_cards()
    game = play(game, "9H")
    assert game.tricks[-1].winner is Seat.EAST


@pytest.mark.parametrize("variant", VARIANTS)
def test_thirteen_tricks_then_the_hand_is_scored(variant: str) -> None:
    game = ready_to_play(variant, SPLIT)
    for number in range(13):
        assert len(game.tricks) == number
        for _ in range(4):
            game = game.apply(game.legal_actions()[0])
    assert game.phase in (Phase.DEAL, Phase.GAME_OVER)
    (result,) = game.hand_results
    assert len(result.played) == 13
    assert sum(result.tricks.values()) == 13
    played = [card for trick in result.played for _, card in trick.plays]
    assert sorted(played) == list(CardSet.full_deck())


# -- every IllegalReason of play ------------------------------------------------------


def test_playing_while_bidding_or_dealing_is_the_wrong_phase() -> None:
    fresh = sc.new_game("classic", seed=0, dealer=Seat.WEST)
    assert_rejected(fresh, Play.of("2D"), IllegalReason.WRONG_PHASE)
    bidding = fresh.deal(SPLIT)
    error = assert_rejected(bidding, Play.of("2D"), IllegalReason.WRONG_PHASE)
    assert "NORTH must bid" in str(error)
    with pytest.raises(IllegalActionError) as caught:
        bidding.play("2D")
    assert caught.value.reason is IllegalReason.WRONG_PHASE
    playing = ready_to_play("classic", SPLIT)
    assert_rejected(playing, Deal(), IllegalReason.WRONG_PHASE)
    assert_rejected(playing, Bid.of(3), IllegalReason.WRONG_PHASE)


def test_acting_for_a_seat_whose_turn_it_is_not() -> None:
    game = ready_to_play("classic", SPLIT)
    error = assert_rejected(game, Play.of("2S"), IllegalReason.NOT_YOUR_TURN, seat=Seat.EAST)
    assert "NORTH" in str(error)
    assert "EAST" in str(error)
    assert game.play("2D", seat=Seat.NORTH).to_act is Seat.EAST
    assert game.apply(Play.of("2D"), seat=Seat.NORTH) == game.play("2D")
    # Nobody is to act while a hand waits to be dealt.
    assert_rejected(
        sc.new_game("classic", seed=0), Deal(), IllegalReason.NOT_YOUR_TURN, seat=Seat.NORTH
    )


def test_a_card_not_in_hand() -> None:
    game = ready_to_play("mirror", SPLIT)
    error = assert_rejected(game, Play.of("AD"), IllegalReason.CARD_NOT_IN_HAND)
    assert "NORTH does not hold AD" in str(error)
    game = play(game, "2D")
    assert_rejected(game, Play.of("2D"), IllegalReason.CARD_NOT_IN_HAND)  # already played


@pytest.mark.parametrize("variant", VARIANTS)
def test_must_follow_suit(variant: str) -> None:
    game = ready_to_play(variant, SPLIT)
    game = play(game, "2D 2H")
    assert game.to_act is Seat.SOUTH
    error = assert_rejected(game, Play.of("AC"), IllegalReason.MUST_FOLLOW_SUIT)
    assert "diamonds" in str(error)
    assert game.legal_cards() == cards("9D TD JD QD KD AD")


@pytest.mark.parametrize(
    "thing", [None, True, 2.5, object(), CardSet.parse("2D"), sc.Seat.NORTH], ids=repr
)
def test_something_that_is_not_an_action(thing: object) -> None:
    game = ready_to_play("classic", SPLIT)
    error = assert_rejected(game, thing, IllegalReason.NOT_AN_ACTION)
    assert "not an action" in str(error)


def test_play_accepts_a_card_or_notation_and_rejects_bad_notation() -> None:
    game = ready_to_play("classic", SPLIT)
    assert game.play("2d") == game.play(Card.parse("2D")) == game.apply(Play.of("2D"))
    assert game.play("2D") == game.apply(Play(Card.parse("2D")))
    for refused in (lambda: game.play("ZZ"), lambda: Play("ZZ"), lambda: Play.of("ZZ")):
        with pytest.raises(sc.IllegalActionError) as caught:
            refused()
        assert caught.value.reason is IllegalReason.NOT_AN_ACTION
    assert Play("2d") == Play.of("2D")


def test_why_illegal_is_none_for_every_legal_action() -> None:
    game = ready_to_play("whiz", SPLIT)
    for _ in range(20):
        for action in game.legal_actions():
            assert game.why_illegal(action) is None
            assert game.why_illegal(action, seat=game.to_act) is None
        game = game.apply(game.legal_actions()[-1])


def test_a_rejected_play_leaves_earlier_games_untouched() -> None:
    start = ready_to_play("classic", SPLIT)
    snapshot = _rebuilt(start)
    later = play(start, "2D 2H 9D")
    assert start == snapshot
    assert start.current_trick == ()
    assert later.current_trick != ()
    assert start.hand(Seat.NORTH) == cards(SPLIT[Seat.NORTH])


# -- explicit deals -----------------------------------------------------------------------


def test_explicit_deal_by_seat_letters_card_lists_or_card_sets() -> None:
    game = sc.new_game("classic", seed=0, dealer=Seat.WEST)
    by_letter = game.deal({seat.letter: hand for seat, hand in SPLIT.items()})
    by_list = game.deal({seat: hand.split() for seat, hand in SPLIT.items()})
    by_set = game.deal({seat: cards(hand) for seat, hand in SPLIT.items()})
    by_action = game.apply(Deal(tuple(cards(SPLIT[seat]) for seat in Seat)))  # type: ignore[arg-type]
    assert by_letter == by_list == by_set == by_action
    for seat in Seat:
        assert by_letter.hand(seat) == cards(SPLIT[seat])
        assert by_letter.dealt_hand(seat) == cards(SPLIT[seat])
    assert by_letter.phase is Phase.BID


def _bad_deals() -> list[tuple[str, object]]:
    twelve = dict(SPLIT)
    twelve[Seat.NORTH] = "2D 3D 4D 5D 6D 7D 8D 2C 3C 4C 5C 6C"
    fourteen = dict(SPLIT)
    fourteen[Seat.NORTH] = SPLIT[Seat.NORTH] + " AS"
    repeated_in_hand = {seat: hand.split() for seat, hand in SPLIT.items()}
    repeated_in_hand[Seat.NORTH] = ["2D", *repeated_in_hand[Seat.NORTH][:12]]
    twice = dict(SPLIT)
    twice[Seat.EAST] = "2D 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 7H 8H"  # 2D is North's
    missing: dict[object, str] = {
        seat: hand for seat, hand in SPLIT.items() if seat is not Seat.WEST
    }
    with_text_keys: dict[object, str] = dict(SPLIT.items())
    bad_card = dict(SPLIT)
    bad_card[Seat.NORTH] = "2D 3D 4D 5D 6D 7D 8D 2C 3C 4C 5C 6C 1C"
    return [
        ("12 cards", twelve),
        ("14 cards", fourteen),
        ("a card listed twice in one hand", repeated_in_hand),
        ("a card in two hands", twice),
        ("a seat missing", missing),
        ("a bad card string", bad_card),
        ("a seat named twice", {**with_text_keys, "N": SPLIT[Seat.NORTH]}),
        ("an unknown seat", {**missing, "X": SPLIT[Seat.WEST]}),
        ("not a mapping", [SPLIT[seat] for seat in Seat]),
        ("a hand that is not cards", {**SPLIT, Seat.NORTH: 13}),
        ("a hand of non-cards", {**SPLIT, Seat.NORTH: [1, 2, 3]}),
        ("empty", {}),
    ]


@pytest.mark.parametrize(("why", "hands"), _bad_deals(), ids=[why for why, _ in _bad_deals()])
def test_a_bad_explicit_deal_is_an_invalid_deal_error(why: str, hands: object) -> None:
    game = sc.new_game("classic", seed=0, dealer=Seat.WEST)
    with pytest.raises(IllegalActionError) as caught:
        game.deal(hands)  # type: ignore[arg-type]
    assert caught.value.reason is IllegalReason.INVALID_DEAL
    assert isinstance(caught.value, SpadesError)
    assert str(caught.value)
    assert game == sc.new_game("classic", seed=0, dealer=Seat.WEST)
    assert game.phase is Phase.DEAL


@pytest.mark.parametrize(
    "hands",
    [
        (CardSet(0), CardSet(0), CardSet(0), CardSet(0)),
        tuple(cards(SPLIT[seat]) for seat in list(Seat)[:3]),
        "garbage",
    ],
    ids=["empty hands", "three hands", "a string"],
)
def test_a_bad_deal_action_is_an_invalid_deal_error(hands: object) -> None:
    game = sc.new_game("classic", seed=0, dealer=Seat.WEST)
    assert_rejected(game, Deal(hands), IllegalReason.INVALID_DEAL)  # type: ignore[arg-type]


def test_bad_deal_errors_name_the_problem() -> None:
    game = sc.new_game("classic", seed=0, dealer=Seat.WEST)
    messages = {}
    for why, hands in _bad_deals():
        with pytest.raises(IllegalActionError) as caught:
            game.deal(hands)  # type: ignore[arg-type]
        messages[why] = str(caught.value)
    assert "NORTH has 12 cards" in messages["12 cards"]
    assert "NORTH has 14 cards" in messages["14 cards"]
    assert "twice" in messages["a card listed twice in one hand"]
    assert "2D" in messages["a card in two hands"]
    assert "EAST" in messages["a card in two hands"]
    assert "WEST" in messages["a seat missing"]
    assert "1C" in messages["a bad card string"]
    assert "NORTH twice" in messages["a seat named twice"]
    assert "'X'" in messages["an unknown seat"]


def test_seat_given_by_name_acts_when_it_is_that_seats_turn() -> None:
    game = sc.new_game("classic", seed=1, dealer="W").deal()
    assert game.bid(3, seat="N").bids[Seat.NORTH] == 3
    assert game.bid(3, seat="north") == game.bid(3, seat=Seat.NORTH)
    wrong = game.why_illegal(sc.Bid.of(3), seat="E")
    assert wrong is not None
    assert wrong.reason is sc.IllegalReason.NOT_YOUR_TURN
    assert "NORTH's turn, not EAST's" in str(wrong)
    with pytest.raises(sc.InvalidNotationError, match="seat"):
        game.bid(3, seat="x")
