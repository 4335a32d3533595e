"""Computer players: levels, the Player protocol, play_game, and each
level's behaviour on constructed positions where the right move is clear."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from positions import deal, position
from spades_core import (
    Bid,
    IllegalActionError,
    IllegalReason,
    Phase,
    Play,
    RulesError,
    Seat,
    SeatMap,
    TeamMap,
)
from spades_core.bots import LEVELS, Bot, HardBot, Player, make, play_game
from spades_core.bots.bidding import sure_winners
from spades_core.engine.views import View

# A hard bot with a small budget keeps these tests quick; its search is the
# same as at the default budget.
SMALL = {"steps": 600, "bid_steps": 600, "min_samples": 4}


def choice(level: str, game: sc.Game, **options: Any) -> object:
    """What a fresh bot of ``level`` does for the seat to act."""
    seat = game.to_act
    assert seat is not None
    action = make(level, seed=3, **options).choose(game.view(seat))
    return action.value if isinstance(action, Bid) else str(action)


def view_choice(level: str, view: View, seed: int = 3, **options: Any) -> object:
    action = make(level, seed=seed, **options).choose(view)
    return action.value if isinstance(action, Bid) else str(action)


def choice_seeded(level: str, game: sc.Game, seed: int) -> object:
    """What a bot of ``level`` seeded ``seed`` does for the seat to act (default budget)."""
    seat = game.to_act
    assert seat is not None
    return view_choice(level, game.view(seat), seed=seed)


# -- levels, protocol, play_game ---------------------------------------------------


@pytest.mark.parametrize("level", [*LEVELS, "medium"])
def test_make_builds_every_level_as_a_player(level: str) -> None:
    bot = make(level, seed=1)
    assert isinstance(bot, Player)
    assert isinstance(bot, Bot)
    assert bot.level == ("normal" if level == "medium" else level)
    assert bot.seed == 1


def test_unknown_level_is_a_rules_error_listing_the_levels() -> None:
    with pytest.raises(RulesError, match="random, easy, normal, hard"):
        make("grandmaster")


def test_budget_options_belong_to_the_hard_bot_only() -> None:
    with pytest.raises(RulesError, match="only the hard bot"):
        make("normal", steps=10)
    with pytest.raises(RulesError, match="unknown hard bot option playouts"):
        make("hard", playouts=10)
    with pytest.raises(RulesError, match="steps must be a whole number"):
        make("hard", steps=0)
    with pytest.raises(RulesError, match="max_samples"):
        make("hard", min_samples=10, max_samples=5)
    bot = make("hard", seed=2, steps=1234)
    assert isinstance(bot, HardBot)
    assert bot.budget.steps == 1234


def test_a_seed_that_is_not_a_whole_number_is_an_argument_type_error() -> None:
    with pytest.raises(sc.ArgumentTypeError, match="EasyBot: seed must be a whole number"):
        make("easy", seed="7")  # type: ignore[arg-type]


def test_a_bot_asked_out_of_turn_raises_not_your_turn() -> None:
    game = sc.new_game("classic", seed=4).deal()
    bystander = next(seat for seat in Seat if seat != game.to_act)
    with pytest.raises(IllegalActionError) as raised:
        make("normal").choose(game.view(bystander))
    assert raised.value.reason is IllegalReason.NOT_YOUR_TURN
    with pytest.raises(sc.ArgumentTypeError, match=r"EasyBot\.choose: view must be a View"):
        make("easy").choose(game)  # type: ignore[arg-type]


class FirstLegal:
    """A stand-in for a human: always the first legal action."""

    def __init__(self) -> None:
        self.asked: list[Seat | None] = []

    def choose(self, view: View) -> sc.Action:
        self.asked.append(view.seat)
        return view.legal_actions()[0]


def test_play_game_mixes_humans_and_bots_and_asks_each_for_its_own_seat() -> None:
    human = FirstLegal()
    players: dict[Seat, Player] = {
        Seat.NORTH: human,
        Seat.EAST: make("easy", seed=1),
        Seat.SOUTH: make("normal", seed=2),
        Seat.WEST: make("random", seed=3),
    }
    game = play_game(sc.new_game("mirror", seed=9), players, hands=1)
    assert len(game.hand_results) == 1
    assert game.phase is Phase.DEAL
    assert human.asked
    assert set(human.asked) == {Seat.NORTH}


def test_play_game_plays_to_the_end_and_hands_bounds_it() -> None:
    players = [make("normal", seed=i) for i in range(4)]
    game = sc.new_game("classic", seed=3, target_score=120)
    finished = play_game(game, players)
    assert finished.is_over
    assert finished.winner is not None
    two = play_game(game, players, hands=2)
    assert len(two.hand_results) == min(2, len(finished.hand_results))
    assert play_game(two, players, hands=0) is two


def test_play_game_rejects_bad_players() -> None:
    game = sc.new_game("classic", seed=3)
    with pytest.raises(RulesError, match="four players"):
        play_game(game, [make("easy")])
    with pytest.raises(RulesError, match="missing"):
        play_game(game, {Seat.NORTH: make("easy")})
    with pytest.raises(sc.ArgumentTypeError, match="no choose"):
        play_game(game, [object()] * 4)  # type: ignore[list-item]
    with pytest.raises(RulesError, match="hands must be a whole number ≥ 0"):
        play_game(game, [make("easy")] * 4, hands=-1)
    with pytest.raises(sc.ArgumentTypeError, match="hands must be a whole number"):
        play_game(game, [make("easy")] * 4, hands=1.0)  # type: ignore[arg-type]


class Cheater:
    def choose(self, view: View) -> sc.Action:
        return Bid.of(13) if view.phase is Phase.BID else Play.of("AS")


def test_play_game_rejects_an_illegal_answer() -> None:
    with pytest.raises(IllegalActionError):
        play_game(sc.new_game("mirror", seed=1), [Cheater()] * 4)


# -- legality, determinism, no peeking ---------------------------------------------

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"first_lead": "two_of_clubs", "nil_tricks": "bags_only"}),
    ("mirror", {}),
    ("whiz", {"whiz_nil_needs_no_ace": True}),
]


@settings(max_examples=12)
@given(
    case=st.sampled_from(VARIANTS),
    levels=st.lists(st.sampled_from(["random", "easy", "normal"]), min_size=4, max_size=4),
    seed=st.integers(0, 2**32),
)
def test_bots_always_choose_legal_actions(
    case: tuple[str, dict[str, Any]], levels: list[str], seed: int
) -> None:
    variant, options = case
    players = [make(level, seed=seed + i) for i, level in enumerate(levels)]
    # play_game applies every choice with the engine's checks: an illegal one raises.
    game = play_game(sc.new_game(variant, seed=seed, **options), players, hands=3)
    assert len(game.hand_results) >= 1


@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_hard_bot_chooses_legal_actions_for_a_whole_hand(
    variant: str, options: dict[str, Any]
) -> None:
    players = [make("hard", seed=i, **SMALL) for i in range(4)]
    game = play_game(sc.new_game(variant, seed=11, **options), players, hands=1)
    assert len(game.hand_results) == 1


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_and_same_views_give_the_same_choices(level: str) -> None:
    options = SMALL if level == "hard" else {}
    game = sc.new_game("whiz", seed=5)
    views: list[View] = []
    players = [make("normal", seed=i) for i in range(4)]
    while len(views) < 20:
        if game.phase is Phase.DEAL:
            game = game.deal()
            continue
        seat = game.to_act
        assert seat is not None
        views.append(game.view(seat))
        game = game.apply(players[seat].choose(views[-1]))
    first = make(level, seed=42, **options)
    second = make(level, seed=42, **options)
    assert [first.choose(v) for v in views] == [second.choose(v) for v in views]


# North and South are the same in both deals; East and West swap two hearts
# for two diamonds, which North cannot see.
SEEN_BY_NORTH = deal(
    N="AS KS 7S 3S AH 9H 4H KD 8D 3D 6C 5C 2C",
    S="TS 9S 8S 6S JH TH 3H QD JD 7D 6D QC 4C",
)
HIDDEN_ONE = deal(
    E="QS JS 2S KH QH 7H 2H AD 9D 4D AC KC 3C", W="5S 4S 8H 6H 5H TD 5D 2D JC TC 9C 8C 7C"
)
HIDDEN_TWO = deal(
    E="QS JS 2S KH QH TD 5D AD 9D 4D AC KC 3C", W="5S 4S 8H 6H 5H 7H 2H 2D JC TC 9C 8C 7C"
)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_bots_cannot_peek_equal_views_give_equal_choices(level: str, variant: str) -> None:
    options = SMALL if level == "hard" else {}
    for actions in ([], ["bids"], ["bids", "trick"]):
        games = []
        for hidden in (HIDDEN_ONE, HIDDEN_TWO):
            game = position(variant, {**SEEN_BY_NORTH, **hidden}, [])
            for action in actions:
                if action == "bids":
                    while game.phase is Phase.BID:
                        game = game.apply(game.legal_actions()[-1])
                else:
                    # South wins with the Q♣ and is to lead.
                    game = game.play("2C").play("3C").play("QC").play("7C")
            games.append(game)
        one, two = games
        assert one != two
        seat = one.to_act
        assert seat in (Seat.NORTH, Seat.SOUTH)
        assert one.view(seat) == two.view(seat)
        choices = [make(level, seed=7, **options).choose(g.view(seat)) for g in games]
        assert choices[0] == choices[1]


# -- easy ----------------------------------------------------------------------------

# Dealer West: North bids first and leads the first trick.
DEAL_A = deal(
    N="5C 6C 2D 3D 4D 5D 2H 3H 4H 5H 2S 3S 4S",
    E="KC 8C 6D 7D 8D 9D 6H 7H 8H 9H 5S 6S 7S",
    S="7C 9C TC TD JD QD TH JH QH 8S 9S TS JS",
    W="AC 2C 3C 4C JC QC KD AD KH AH QS KS AS",
)


def test_easy_wins_as_cheaply_as_it_can() -> None:
    # North leads the 5♣, East (West's partner) plays the K♣ and South the 7♣:
    # easy West takes it with the only card that wins, the A♣.
    game = position("classic", DEAL_A, [3, 3, 3, 3, "5C", "KC", "7C"])
    assert choice("easy", game) == "AC"
    # South holds T♦ J♦ Q♦ after North's 2♦ and East's 6♦: the T♦ is the cheapest winner.
    game = position("classic", DEAL_A, [3, 3, 3, 3, "2D", "6D"])
    assert choice("easy", game) == "TD"


def test_easy_throws_its_lowest_card_when_it_cannot_win() -> None:
    # West leads the A♥ after winning trick 1; North cannot beat it: the 2♥.
    game = position("classic", DEAL_A, [3, 3, 3, 3, "5C", "KC", "7C", "AC", "AH"])
    assert game.to_act is Seat.NORTH
    assert choice("easy", game) == "2H"


def test_easy_bids_its_sure_winners_in_classic() -> None:
    # West holds A♣, A♦, A♥ and A♠ K♠ Q♠: six sure winners.
    game = position("classic", DEAL_A, [3, 3, 3])
    assert game.to_act is Seat.WEST
    assert choice("easy", game) == 6
    # North has no sure winner and bids the least it can, 1.
    assert choice("easy", position("classic", DEAL_A, [])) == 1


def test_easy_decides_whiz_nil_by_hand_strength() -> None:
    # North: no card above the 5, spades 2-3-4: Nil. West: aces and top spades: count.
    assert choice("easy", position("whiz", DEAL_A, [])) == 0
    assert choice("easy", position("whiz", DEAL_A, [0, 3, 4])) == 3


# -- normal --------------------------------------------------------------------------


def test_normal_does_not_overtake_a_partner_who_is_winning() -> None:
    # Same trick as above: partner East's K♣ is winning; normal West keeps its A♣.
    game = position("classic", DEAL_A, [3, 3, 3, 3, "5C", "KC", "7C"])
    assert choice("normal", game) == "2C"


DEAL_B = deal(
    N="AD 2D 3D 5C 6C 7C 2H 3H 4H 2S 3S 4S 5S",
    E="4D 5D 6D 8C 9C TC 5H 6H 7H 6S 7S 8S 9S",
    S="7D 8D 9D JC QC KC 8H 9H AH TS JS QS KS",
    W="KD TD JD QD AC 2C 3C 4C TH JH QH KH AS",
)


def test_normal_counts_cards_and_cashes_a_king_once_the_ace_is_gone() -> None:
    # North's A♦ fell in trick 1; West won trick 2 and leads: the K♦ is now the
    # highest diamond left, a winner to cash. The K♥ (the A♥ is still out) is not.
    game = position("classic", DEAL_B, [3, 3, 3, 3, "AD", "4D", "7D", "TD", "5C", "8C", "JC", "AC"])
    assert game.to_act is Seat.WEST
    assert choice("normal", game) == "KD"
    tip = sc.coach(game.view(Seat.WEST))
    assert tip.reason.startswith("The K♦ is the highest diamond left: cash it now")


DEAL_C = deal(
    N="AC KC QC AD 2D 3D 2H 3H 4H 3S 4S 5S 6S",
    E="4D 5D 6D 7D 8D 9D TD 5H 6H 7H 8H 9H 2S",
    S="2C 3C 4C 5C 6C JD QD TH JH QH 7S 8S 9S",
    W="7C 8C 9C TC JC KD KH AH TS JS QS KS AS",
)
# Bids are the spade counts; East trumps North's Q♣ with its only spade, then
# North wins a diamond and leads with the A♣ K♣ left and East out of clubs.
C_ACTIONS: list[int | str] = [4, 1, 3, 5, "QC", "2S", "2C", "7C", "4D", "QD", "KD", "AD"]


@pytest.mark.parametrize("variant", ["mirror", "whiz"])
def test_normal_uses_public_spade_counts_to_cash_a_winner_safely(variant: str) -> None:
    # East bid 1 spade and has played it, so East cannot trump clubs: cash the A♣.
    game = position(variant, DEAL_C, C_ACTIONS)
    view = game.view(Seat.NORTH)
    assert view.spades_left(Seat.EAST) == 0
    assert choice("normal", game) == "AC"


def test_normal_does_not_cash_a_winner_an_opponent_may_trump() -> None:
    # In classic the bids reveal no spade counts: East, out of clubs, may trump
    # the A♣, so North keeps it and leads low from its longest suit instead.
    game = position("classic", DEAL_C, C_ACTIONS)
    assert game.view(Seat.NORTH).spades_left(Seat.EAST) is None
    assert choice("normal", game) == "2H"


DEAL_D = deal(
    N="KH 4H AC KC QC JC AD KD QD AS KS QS JS",
    E="AH 8H 9H 2C 3C 4C 2D 3D 4D 2S 3S 4S 5S",
    S="2H 3H 5H 6H 5C 6C 7C 5D 6D 7D 6S 7S 8S",
    W="7H TH JH QH 8C 9C TC 8D 9D TD JD 9S TS",
)


def test_normal_covers_its_nil_partner() -> None:
    # Dealer South: West leads the 7♥ and North plays second, before its Nil
    # partner South: North wins with the K♥ so South can play under it.
    game = position("classic", DEAL_D, [2, 6, 3, 0, "7H"], dealer="S")
    assert choice("normal", game) == "KH"
    # Without the Nil, second hand plays low.
    game = position("classic", DEAL_D, [2, 6, 3, 2, "7H"], dealer="S")
    assert choice("normal", game) == "4H"


DEAL_E = deal(
    N="JD 2D 2C 3C 4C 5C 2H 3H 4H 5H 2S 3S 4S",
    E="8D 9D TD 6C 7C 8C 6H 7H 8H 5S 6S 7S 8S",
    S="QD 3D KD 9C TC JC 9H TH JH 9S TS JS QS",
    W="5D 4D 6D 7D AD QC KC AC QH KH AH KS AS",
)


def test_normal_takes_a_trick_that_would_fall_to_its_nil_partner() -> None:
    # West leads the 5♦, Nil North is winning with the J♦, East plays the 8♦:
    # South overtakes with the Q♦ to save the Nil.
    game = position("classic", DEAL_E, [4, 0, 3, 4, "5D", "JD", "8D"], dealer="S")
    assert choice("normal", game) == "QD"
    # If North had bid 2, South would let the partner's J♦ win.
    game = position("classic", DEAL_E, [4, 2, 3, 4, "5D", "JD", "8D"], dealer="S")
    assert choice("normal", game) == "3D"


DEAL_F = deal(
    N="3H 5H 6H 2C 3C 4C 2D 3D 4D 2S 3S 4S 5S",
    E="9H 5C 6C 7C 8C 5D 6D 7D 8D 6S 7S 8S 9S",
    S="4H KH 7H 9C TC JC 9D TD JD TS JS QS KS",
    W="2H 8H TH JH QH AH QC KC AC QD KD AD AS",
)


def test_normal_plays_under_a_nil_opponent_to_force_a_trick() -> None:
    # East bid Nil and is winning with the 9♥: South plays under it with the 7♥.
    game = position("classic", DEAL_F, [5, 2, 0, 4, "2H", "3H", "9H"], dealer="S")
    assert choice("normal", game) == "7H"
    # Against a normal bid South simply wins the trick with the K♥.
    game = position("classic", DEAL_F, [5, 2, 3, 4, "2H", "3H", "9H"], dealer="S")
    assert choice("normal", game) == "KH"


def test_normal_leads_low_against_a_nil_opponent() -> None:
    # North bid Nil: West, on lead, leads its lowest card, the 2♥, instead of cashing aces.
    game = position("classic", DEAL_F, [5, 0, 3, 4], dealer="S")
    assert choice("normal", game) == "2H"
    game = position("classic", DEAL_F, [5, 2, 3, 4], dealer="S")
    assert choice("normal", game) == "AC"


DEAL_G = deal(
    N="AC 2C AD 2D AH 2H 3H 2S 3S 4S 5S 6S 7S",
    E="3C 4C 5C 6C 3D 4D 5D 6D 4H 5H 6H 8S 9S",
    S="7C 8C 9C 7D 8D 9D 7H 8H 9H TH TS JS QS",
    W="TC JC QC KC TD JD QD KD JH QH KH KS AS",
)


def test_normal_ducks_bags_once_its_contract_is_safe_weighing_its_bag_count() -> None:
    # North-South bid 1 + 1 and have taken two tricks; East-West bid 2 + 2.
    game = position("classic", DEAL_G, [1, 2, 1, 2, "AC", "3C", "7C", "TC", "AD", "3D", "7D", "TD"])
    view = game.view(Seat.NORTH)
    # With no bags North goes on cashing winners to set East-West ...
    assert view_choice("normal", attrs.evolve(view, bags=TeamMap((0, 0)))) == "AH"
    # ... but with 8 bags another trick risks the penalty: lead the card least likely to win.
    ducking = attrs.evolve(view, bags=TeamMap((8, 0)))
    assert view_choice("normal", ducking) == "2H"
    assert "avoid taking more bags" in sc.coach(ducking).reason


def test_normal_bids_nil_with_a_safe_hand_and_counts_tricks_otherwise() -> None:
    # North (no card above the 5) bids Nil. West's six sure winners, plus the
    # kings beside its red aces, are worth about 7 tricks.
    assert choice("normal", position("classic", DEAL_A, [])) == 0
    assert choice("normal", position("classic", DEAL_A, [3, 3, 3])) == 7


# -- hard ----------------------------------------------------------------------------

ALL_SPADES = deal(
    N="2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    E="2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    S="2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    W="2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)


def test_hard_bids_in_classic_by_simulating_the_tricks() -> None:
    # All thirteen spades take all thirteen tricks: the play-outs show it and
    # hard bids 13, where normal's estimate stops at 12.
    game = position("classic", ALL_SPADES, [])
    assert choice("normal", game) == 12
    assert choice("hard", game, **SMALL) == 13


RISKY_NIL = deal(
    N="3C 4C 7C 8C 3D 7D 8D JD 4H 5H AH 3S 7S",
    E="5C AC 5D QD 3H 8H JH KH 2S 4S 6S TS AS",
    S="2C JC QC KC 2D 9D KD AD 2H TH QH 5S 8S",
    W="6C 9C TC 4D 6D TD 6H 7H 9H 9S JS QS KS",
)


@pytest.mark.parametrize("seed", [0, 1])
def test_hard_weighs_the_match_score_near_the_loss_floor(seed: int) -> None:
    # North's hand is a fair Nil at 0-0. At -150 in classic (loss floor -200) a
    # failed Nil loses the game on the spot, so hard bids 1 instead.
    view = position("classic", RISKY_NIL, []).view(Seat.NORTH)
    assert view_choice("normal", view) == 0
    level = attrs.evolve(view, scores=TeamMap((0, 0)))
    near_floor = attrs.evolve(view, scores=TeamMap((-150, 0)))
    # A generous bid budget makes the difference in risk plain to see.
    assert view_choice("hard", level, seed=seed, bid_steps=8000) == 0
    assert view_choice("hard", near_floor, seed=seed, bid_steps=8000) == 1


NEAR_TARGET = deal(
    N="2C 9C JC 2D 4D 7D QD KD 3H TH 6S 8S AS",
    E="4C 8C 3D 9D JD 5H 8H 9H JH 7S 9S JS QS",
    S="3C 5C 6C 7C KC 5D TD AD 4H 6H 7H QH KH",
    W="TC QC AC 6D 8D 2H AH 2S 3S 4S 5S TS KS",
)


@pytest.mark.parametrize("seed", [0, 1])
def test_hard_weighs_the_match_score_near_the_target(seed: int) -> None:
    # Dealer North bids last, after East 2, partner South 3, West 6. At 0-0
    # hard bids 2; at 470 any made contract wins the game, so it bids 1 to
    # make the team contract (4 instead of 5) safer.
    view = position("classic", NEAR_TARGET, [2, 3, 6], dealer="N").view(Seat.NORTH)
    level = attrs.evolve(view, scores=TeamMap((0, 0)))
    near_target = attrs.evolve(view, scores=TeamMap((470, 0)))
    assert view_choice("hard", level, seed=seed, bid_steps=8000) == 2
    assert view_choice("hard", near_target, seed=seed, bid_steps=8000) == 1


ENDGAME = deal(
    N="AC KC QC JC AD KD QD AH KH QH AS 9S 2D",
    E="3C 5C 7C 9C 4D 7D 9D 4H 7H 9H TS 3S 2C",
    S="4C 6C 8C TC 5D 8D TD 5H 8H TH JS 4S 2H",
    W="5S 6S 7S 8S 3D 6D JD 3H 6H JH QS KS 2S",
)
# West, out of clubs, trumps North's clubs; the red suits and the A♠ go to
# North. After eleven tricks North-South (bid 5 + 3) have 7 tricks and
# East-West (bid 1 + 2) have 4; North leads the 9♠, East and South follow.
ENDGAME_ACTIONS: list[int | str] = [
    5, 1, 3, 2,
    "AC", "3C", "4C", "5S", "3D", "AD", "4D", "5D", "KC", "5C", "6C", "6S",
    "3H", "AH", "4H", "5H", "QC", "7C", "8C", "7S", "6D", "KD", "7D", "8D",
    "JC", "9C", "TC", "8S", "6H", "KH", "7H", "8H", "QD", "9D", "TD", "JD",
    "QH", "9H", "TH", "JH", "AS", "TS", "JS", "QS", "9S", "3S", "4S",
]  # fmt: skip


def test_hard_plays_for_the_match_near_the_target() -> None:
    # West holds the K♠ and 2♠ and no spade is left elsewhere, so West wins the
    # last trick either way. Taking this one with the K♠ sets North-South
    # (-80 instead of +80) but is East-West's 10th bag (-100). At 0-0 setting
    # them is worth more; at 470 ducking with the 2♠ makes exactly 502 and wins
    # the game, which the normal player's rule of thumb does not see.
    view = position("classic", ENDGAME, ENDGAME_ACTIONS).view(Seat.WEST)
    assert list(view.hand()) == [sc.Card.parse("2S"), sc.Card.parse("KS")]
    level = attrs.evolve(view, bags=TeamMap((0, 7)))
    near_target = attrs.evolve(level, scores=TeamMap((0, 470)))
    for seed in (0, 1):
        assert view_choice("hard", level, seed=seed) == "KS"
        assert view_choice("hard", near_target, seed=seed) == "2S"
    assert view_choice("normal", near_target) == "KS"


def test_hard_searches_with_determinized_play_outs() -> None:
    # A card decision: the hard bot's choice is legal and repeatable for a seed,
    # and its budget buys more samples when fewer cards are left.
    from spades_core.bots._search import Budget, _samples

    game = position("classic", DEAL_B, [3, 3, 3, 3, "AD", "4D", "7D", "TD", "5C", "8C", "JC", "AC"])
    view = game.view(Seat.WEST)
    picks = {view_choice("hard", view, seed=s, **SMALL) for s in range(3)}
    assert picks <= {str(a) for a in view.legal_actions()}
    budget = Budget()
    assert _samples(budget.steps, 40 * 4, 6, 200) < _samples(budget.steps, 8 * 4, 6, 200)


def test_futility_drops_what_trails_and_keeps_what_may_still_win() -> None:
    from spades_core.bots._search import _futile

    base = [10.0] * 8
    # Far behind on every sample, with spread: dropped at the first look.
    assert _futile([-40.0, -35.0, -50.0, -20.0, -45.0, -30.0, -60.0, -25.0], base, 100, 1.0)
    # A little behind, with spread: kept early on, dropped near the end.
    trailing = [8.0, 12.0, 6.0, 11.0, 7.0, 13.0, 9.0, 10.0]
    assert not _futile(trailing, base, 100, 1.0)
    assert _futile(trailing, base, 9, 1.0)
    # Level on every sample so far: kept while many samples are left.
    assert not _futile(list(base), base, 100, 1.0)
    assert _futile(list(base), base, 10, 1.0)
    # Behind by the same amount every time, or ahead: dropped, kept.
    assert _futile([9.0] * 8, base, 100, 1.0)
    assert not _futile([11.0, 30.0, 12.0, 10.0, 15.0, 10.0, 11.0, 10.0], base, 9, 1.0)
    assert not _futile([12.0] * 8, base, 9, 1.0)


def _searched(view: View, prune: bool, samples: int = 40) -> tuple[int, dict[int, list[float]]]:
    """The normal policy's card and each candidate's play-out values, seeded."""
    from spades_core.bots._play import normal_play
    from spades_core.bots._search import (
        Budget,
        Sim,
        _candidates,
        _group_of,
        _played_out_values,
        sampled_deals,
    )
    from spades_core.bots.table import table_from_view

    table = table_from_view(view)
    budget = Budget(prune=prune)
    candidates = _candidates(table)
    preferred = _group_of(normal_play(table)[0], candidates)
    deals = sampled_deals(view, table, random.Random(5), budget)
    values = _played_out_values(
        view, table, deals, candidates, samples, Sim.play, preferred, budget
    )
    return preferred, values


def test_pruning_stops_early_and_changes_no_value_it_keeps() -> None:
    # Positions of a seeded game of normal players: without pruning every
    # candidate is played out on every sample; with it, on the same deals, the
    # normal policy's card always stays, the others only while they may still
    # beat it, and every value kept is the one the full search found.
    game = sc.new_game("classic", seed=8).deal()
    players = [make("normal", seed=s) for s in range(4)]
    dropped = stopped = 0
    while game.phase in (Phase.BID, Phase.PLAY) and len(game.tricks) < 6:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if game.phase is Phase.PLAY and len(view.legal_actions()) > 2:
            preferred, full = _searched(view, prune=False)
            kept_preferred, pruned = _searched(view, prune=True)
            assert kept_preferred == preferred
            assert preferred in pruned
            assert all(len(scores) == 40 for scores in full.values())
            assert set(pruned) <= set(full)
            for candidate, scores in pruned.items():
                assert scores == full[candidate][: len(scores)]
            dropped += len(full) - len(pruned)
            stopped += len(pruned[preferred]) < 40
        game = game.apply(players[seat].choose(view))
    assert dropped > 0
    assert stopped > 0


def test_pruning_waits_while_a_play_out_can_end_the_game() -> None:
    # At 470 of 500 every play-out of North's bid ends the game one way or the
    # other, and a rare deal where one bid wins it and the other loses it
    # outweighs many small differences: no bid is dropped.
    view = position("classic", NEAR_TARGET, [2, 3, 6], dealer="N").view(Seat.NORTH)
    near_target = attrs.evolve(view, scores=TeamMap((470, 0)))
    from spades_core.bots._search import (
        Budget,
        _bid_candidates,
        _bid_then_bid_out,
        _played_out_values,
        sampled_deals,
    )
    from spades_core.bots.bidding import normal_bid
    from spades_core.bots.table import table_from_view

    table = table_from_view(near_target)
    normal = normal_bid(table)[0]
    candidates = _bid_candidates(table, normal)
    budget = Budget(prune=True)
    deals = sampled_deals(near_target, table, random.Random(1), budget)
    values = _played_out_values(
        near_target, table, deals, candidates, 20, _bid_then_bid_out, normal, budget
    )
    assert sorted(values) == candidates
    assert len(candidates) > 2
    assert all(len(scores) == 20 for scores in values.values())


def test_the_prune_option_reads_on_and_off() -> None:
    assert HardBot(1).budget.prune is True
    assert HardBot(1, prune="off").budget.prune is False
    assert "prune=off" in repr(make("hard", seed=1, prune=False))
    with pytest.raises(RulesError, match="prune must be on or off"):
        make("hard", prune="sometimes")


def test_random_bot_spreads_its_choices() -> None:
    game = sc.new_game("classic", seed=2).deal()
    view = game.view(game.to_act)  # type: ignore[arg-type]
    bot = make("random", seed=1)
    assert len({bot.choose(view) for _ in range(60)}) > 5


# -- the seeds' hard player ----------------------------------------------------------
# The classic seed's hard players "track your partner's bid against the tricks
# already won, count their sure winners before bidding, and play deliberately
# over or under a Nil bid depending on whose it is". One test per behaviour, in
# every variant where it applies.

# West holds the K♠ and 2♠ after eleven tricks of ENDGAME; the last trick is
# West's either way. Per variant: the bids (N, E, S, W), then the tricks won
# after eleven tricks when East-West are short of their contract and when it is
# already made (North-South's own result is settled either way).
PARTNER_TRACKING = {
    "classic": ([5, 1, 3, 2], (10, 1, 0, 0), (8, 3, 0, 0)),
    "mirror": ([2, 2, 2, 7], (4, 2, 0, 5), (2, 2, 0, 7)),
    "whiz": ([2, 2, 2, 7], (4, 2, 0, 5), (2, 2, 0, 7)),
}


@pytest.mark.parametrize("variant", sorted(PARTNER_TRACKING))
def test_hard_tracks_its_partners_bid_against_the_tricks_won(variant: str) -> None:
    bids, short, made = PARTNER_TRACKING[variant]
    view = position(variant, ENDGAME, [*bids, *ENDGAME_ACTIONS[4:]]).view(Seat.WEST)
    assert view.bids[Seat.EAST] == bids[1]
    still_short = attrs.evolve(view, tricks_won=SeatMap(short))
    contract_made = attrs.evolve(view, tricks_won=SeatMap(made))
    for seed in (0, 1):
        # Short of the team's contract: take this trick with the K♠ ...
        assert view_choice("hard", still_short, seed=seed, **SMALL) == "KS"
        # ... with it made, the trick is only a bag: duck it with the 2♠.
        assert view_choice("hard", contract_made, seed=seed, **SMALL) == "2S"


STRONG_NORTH = deal(
    N="AS KS QS 2S AC AD AH 2C 3C 2D 3D 2H 3H",
    E="3S 4S 5S 6S 4C 5C 6C 4D 5D 6D 4H 5H 6H",
    S="7S 8S 9S 7C 8C 9C TC 7D 8D 9D 7H 8H 9H",
    W="TS JS JC QC KC TD JD QD KD TH JH QH KH",
)


def test_hard_counts_its_sure_winners_before_bidding_in_classic() -> None:
    # Three top spades and three side aces are six sure winners: hard bids at least that.
    game = position("classic", STRONG_NORTH, [])
    assert game.to_act is Seat.NORTH
    assert sure_winners(game.view(Seat.NORTH).hand().mask) == 6
    for seed in (0, 1):
        bid = choice_seeded("hard", game, seed)
        assert isinstance(bid, int)
        assert bid >= 6


# North's only spade is the A♠ in the first deal and the 2♠ in the second.
WHIZ_ACE = deal(
    N="AS 2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H",
    E="2S 3S 4S 5S 6C 7C 8C 6D 7D 8D 6H 7H 8H",
    S="6S 7S 8S 9S 9C TC JC 9D TD JD 9H TH JH",
    W="TS JS QS KS QC KC AC QD KD AD QH KH AH",
)
WHIZ_DEUCE = {**WHIZ_ACE, Seat.NORTH: WHIZ_ACE[Seat.NORTH].replace("AS", "2S")}
WHIZ_DEUCE[Seat.EAST] = WHIZ_ACE[Seat.EAST].replace("2S", "AS")


def test_hard_counts_its_sure_winners_before_bidding_in_whiz() -> None:
    # Whiz offers Nil or the spade count: the A♠ is a sure winner, so no Nil ...
    with_ace = position("whiz", WHIZ_ACE, [])
    assert sure_winners(with_ace.view(Seat.NORTH).hand().mask) == 1
    without = position("whiz", WHIZ_DEUCE, [])
    assert sure_winners(without.view(Seat.NORTH).hand().mask) == 0
    for seed in (0, 1):
        assert choice_seeded("hard", with_ace, seed) == 1
        # ... while the same hand with the 2♠ instead has none and bids Nil.
        assert choice_seeded("hard", without, seed) == 0


# East, void in spades, bids Nil (forced in Mirror) and wins the first heart
# with the 9♥; South could win it with the K♥.
OPPONENT_NIL = deal(
    N="3H 5H 6H 2C 3C 4C 2D 3D 4D 2S 3S 4S 5S",
    E="9H 5C 6C 7C 8C 5D 6D 7D 8D QC KC QD KD",
    S="4H KH 7H 9C TC JC 9D TD JD TS JS QS KS",
    W="2H 8H TH JH QH AH AC AD AS 6S 7S 8S 9S",
)
# South, void in spades, bids Nil and holds the single Q♥; West leads the 7♥
# and North, second to play, can cover with the K♥.
PARTNER_NIL = deal(
    N="KH 4H AC KC AD KD AS KS QS JS 6S 7S 8S",
    E="2H 3H 5H 6H 8H 9H 2D 3D 4D 2S 3S 4S 5S",
    S="QH 2C 3C 4C 5C 6C 7C 8C 9C 5D 6D 7D 8D",
    W="7H TH JH AH TC 9D TD JD 9S TS QC JC QD",
)
# Bids in order West, North, East, South (dealer South).
NIL_BIDS = {
    "classic": ([5, 2, 0, 4], [2, 6, 3, 0]),
    "mirror": ([5, 4, 0, 4], [2, 7, 4, 0]),
    "whiz": ([5, 4, 0, 4], [2, 7, 4, 0]),
}


@pytest.mark.parametrize("variant", sorted(NIL_BIDS))
def test_hard_plays_over_its_partners_nil_and_under_an_opponents(variant: str) -> None:
    opponent_bids, partner_bids = NIL_BIDS[variant]
    against = position(variant, OPPONENT_NIL, [*opponent_bids, "2H", "3H", "9H"], dealer="S")
    assert against.to_act is Seat.SOUTH
    assert against.view(Seat.SOUTH).bids[Seat.EAST] == 0
    protecting = position(variant, PARTNER_NIL, [*partner_bids, "7H"], dealer="S")
    assert protecting.to_act is Seat.NORTH
    assert protecting.view(Seat.NORTH).bids[Seat.SOUTH] == 0
    for seed in (0, 1, 2):
        # The opponent's Nil: stay under the 9♥ so East must take the trick.
        assert choice_seeded("hard", against, seed) == "7H"
        # The partner's Nil: cover the 7♥ with the K♥ so South can play under it.
        assert choice_seeded("hard", protecting, seed) == "KH"


def test_the_policies_cards_above_and_beaters_agree_with_the_trick_rules() -> None:
    """The masks the policies read at every simulated card: ``above`` is the
    cards of the same suit and a higher rank, and ``beaters`` the cards the
    engine's trick rule lets win over the card winning so far."""
    from spades_core.bots.masks import above, beaters
    from spades_core.rules.tricks import trick_winner

    for best in range(52):
        higher = {c for c in range(52) if c // 13 == best // 13 and c % 13 > best % 13}
        assert {c for c in range(52) if above(best) >> c & 1} == higher
        for card in range(52):
            if card == best:
                continue
            # best leads (or, a spade, has trumped the suit led); card comes next.
            wins = trick_winner((best, card, best, best)) == 1
            assert bool(beaters(1 << card, best)) == wins, (best, card)
