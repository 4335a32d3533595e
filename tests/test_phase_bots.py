"""The bots and the coach in a variant's phases (Tournament Spades, the
example plugin, installed per test): every level chooses only legal actions
in whole games over random option sets, the Blind Nil decision and the passes
follow the stated policy, the hard bot's sampler places the cards a seat
passed and its play-outs run the exchange, the normal bid reckons with the
exchange, and the coach explains each choice with the numbers it used."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import spades_core as sc
from envs_support import TOURNAMENT_PLUGIN, example_plugin_installed
from spades_core.analysis.expert import ExpertBot
from spades_core.bots import make, play_game
from spades_core.bots._search import hand_value
from spades_core.bots.phases import (
    BLIND_NIL_COST,
    BLIND_NIL_SUCCESS,
    blind_nil_odds,
    helper_pass,
    nil_pass,
    nil_sheds,
    phase_decision,
)
from spades_core.bots.sim import Sim
from spades_core.bots.table import nil_passes, table_from_view
from spades_core.bots.why import Why
from spades_core.engine.sampling import HiddenCards, knowledge_of
from spades_core.engine.views import View

MODULE = "spades_variant_tournament"
SEATS = list(sc.Seat)


@pytest.fixture
def tournament(tmp_path: Path) -> Iterator[sc.Variant]:
    """The plugin, installed for the test."""
    with example_plugin_installed(tmp_path / "site", TOURNAMENT_PLUGIN, MODULE):
        yield sc.load_variant("tournament")


def mask(cards: str) -> int:
    return sc.CardSet.parse(cards).mask


def card_id(card: str) -> int:
    return sc.Card.parse(card).id


def random_options(rnd: random.Random) -> dict[str, Any]:
    return {
        "blind_nil_margin": rnd.choice([0, 0, 50, 100]),
        "blind_nil_value": rnd.choice([20, 100, 200, 300]),
        "pass_count": rnd.randint(1, 3),
        "min_team_bid": rnd.randint(0, 6),
        "nil_max_spades": rnd.randint(0, 13),
        "target_score": rnd.choice([150, 300, 500]),
    }


class Checked:
    """A bot that asserts its every choice is one of the view's legal actions."""

    def __init__(self, bot: sc.bots.Player) -> None:
        self.bot = bot
        self.phase_choices = 0

    def choose(self, view: View) -> sc.Action:
        action = self.bot.choose(view)
        assert action in view.legal_actions(), (view, action)
        self.phase_choices += view.phase is sc.Phase.VARIANT
        return action


# -- legal in whole games ----------------------------------------------------------


@pytest.mark.parametrize("level", ["random", "easy", "normal"])
def test_every_level_plays_whole_phased_games_legally(tournament: sc.Variant, level: str) -> None:
    rnd = random.Random(hash(level) & 0xFFFF)
    phase_choices = 0
    for number in range(6):
        players = [Checked(make(level, seed=number * 4 + i)) for i in range(4)]
        game = play_game(
            sc.new_game("tournament", seed=number, **random_options(rnd)), players, hands=25
        )
        assert game.is_over or len(game.hand_results) == 25
        phase_choices += sum(player.phase_choices for player in players)
    assert phase_choices > 0


def test_the_hard_bot_plays_whole_phased_games_legally(tournament: sc.Variant) -> None:
    rnd = random.Random(5)
    steps = 0
    for number in range(2):
        options = random_options(rnd) | {"blind_nil_margin": 0, "target_score": 200}
        players = [
            Checked(make("hard", seed=i, steps=150, bid_steps=150, max_samples=6)) for i in range(4)
        ]
        game = play_game(sc.new_game("tournament", seed=number, **options), players, hands=3)
        steps += sum(len(result.steps) for result in game.hand_results)
    assert steps > 0


def test_the_expert_plays_a_phased_game_legally(tournament: sc.Variant) -> None:
    players = [
        Checked(ExpertBot(seed=i, samples=2, depth=3, steps=150, bid_steps=150)) for i in range(4)
    ]
    game = sc.new_game("tournament", seed=3, blind_nil_margin=0)
    game = play_game(game, players, hands=2)
    assert len(game.hand_results) == 2
    assert sum(player.phase_choices for player in players) > 0


def test_phased_games_are_reproducible_from_the_seeds(tournament: sc.Variant) -> None:
    def record(level: str, **budget: int) -> list[sc.HandResult]:
        players = [make(level, seed=i, **budget) for i in range(4)]
        game = sc.new_game("tournament", seed=9, blind_nil_margin=0)
        return list(play_game(game, players, hands=2).hand_results)

    assert record("normal") == record("normal")
    small = {"steps": 120, "bid_steps": 120, "max_samples": 6}
    assert record("hard", **small) == record("hard", **small)


# -- the policy ---------------------------------------------------------------------


def test_a_nil_sheds_high_spades_then_aces_and_kings_then_singletons() -> None:
    hand = mask("QS 3S AH 9H 2H KD 7C 2D 3D 4C 5C 6C 8H")
    assert nil_pass(hand, hand) == card_id("QS")
    assert nil_pass(hand, hand & ~mask("QS")) == card_id("AH")
    assert nil_sheds(hand, 3) == mask("QS AH KD")
    # No spade from the jack, no ace or king: the last card of a suit makes a void.
    hand = mask("9S 3S QH 9H 2H 8D 7C 2C 3C 4C 5C 6C 8H")
    assert nil_pass(hand, hand) == card_id("8D")
    # Then the spades from the 10 down to the 7, then the highest card.
    assert nil_pass(hand, hand & ~mask("8D")) == card_id("9S")
    assert nil_pass(hand, mask("QH 3S 2C")) == card_id("QH")
    # Only what the turn offers is passed.
    assert nil_pass(hand, mask("2C 3C")) == card_id("3C")


def test_the_partner_of_a_nil_passes_low_side_cards_from_short_suits() -> None:
    hand = mask("2S AS KS 2H 9H TH JH 2C 9C AD KD QD JD")
    # The twos of hearts and clubs tie: clubs are the shorter suit.
    assert helper_pass(hand, hand) == card_id("2C")
    assert helper_pass(hand, hand & ~mask("2C")) == card_id("2H")
    # A spade only when nothing else may be passed.
    assert helper_pass(hand, mask("2S AS")) == card_id("2S")


def test_the_bots_pass_by_the_policy_in_a_game(tournament: sc.Variant) -> None:
    checked = 0
    for seed in range(40):
        game = sc.new_game("tournament", seed=seed).deal()
        players = [make("normal", seed=i) for i in range(4)]
        while not game.hand_results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            action, why = players[seat].decide(view)
            if type(action) is sc.Pass:
                offered = sum(a.cards.mask for a in view.legal_actions() if type(a) is sc.Pass)
                hand = view.hand().mask
                if view.bids[seat] == 0:
                    assert why is Why.PASS_HIGH_TO_PARTNER
                    assert action.cards.mask == 1 << nil_pass(hand, offered)
                else:
                    assert why is Why.PASS_LOW_TO_NIL
                    assert action.cards.mask == 1 << helper_pass(hand, offered)
                checked += 1
            game = game.apply(action, seat=seat)
    assert checked >= 4


def blind_view(**options: Any) -> View:
    """North to choose Blind Nil or look at 0-0 (with a margin of 0; the loss
    floor out of reach unless given)."""
    options = {"loss_floor": -1000} | options
    game = sc.new_game("tournament", seed=1, dealer="W", blind_nil_margin=0, **options).deal()
    assert game.to_act is sc.Seat.NORTH
    assert sc.BLIND_NIL in game.legal_actions()
    return game.view(sc.Seat.NORTH)


def test_blind_nil_follows_the_measured_odds_and_the_stake(tournament: sc.Variant) -> None:
    view = blind_view()
    odds = blind_nil_odds(view)
    assert odds.stake == 200
    assert odds.expected == pytest.approx(200 * (2 * BLIND_NIL_SUCCESS - 1) - BLIND_NIL_COST)
    assert phase_decision(view) == (sc.BLIND_NIL, Why.BLIND_NIL_BEHIND)
    # A small stake is not worth a blind hand...
    low = blind_view(blind_nil_value=20)
    assert blind_nil_odds(low).expected < 0
    assert phase_decision(low) == (sc.LOOK, Why.LOOK_FIRST)
    # ...unless the opponents are close to the target.
    assert phase_decision(blind_view(blind_nil_value=20, target_score=120))[0] == sc.BLIND_NIL
    # A failure that would reach the loss floor, trailing by less than the stake: look.
    fatal = blind_view(loss_floor=-200)
    assert blind_nil_odds(fatal).fatal
    assert phase_decision(fatal)[0] == sc.LOOK
    assert "loss floor (-200)" in sc.coach(fatal).reason


def test_the_normal_bid_reckons_with_the_exchange(tournament: sc.Variant) -> None:
    hands = {
        sc.Seat.NORTH: "AS 3S 2S KH 2H 3H 4H 2D 3D 4D 5D 2C 3C",
        sc.Seat.EAST: "KS QS JS TS AH QH JH AD KD QD AC KC QC",
        sc.Seat.SOUTH: "9S 8S 7S TH 9H 8H JD TD 9D JC TC 9C 8C",
        sc.Seat.WEST: "6S 5S 4S 7H 6H 5H 8D 7D 6D 7C 6C 5C 4C",
    }
    for variant, nil in (("tournament", True), ("classic", False)):
        game = sc.new_game(variant, seed=1, dealer="W").deal(hands)
        view = game.view(sc.Seat.NORTH)
        assert nil_passes(view) == (2 if nil else 0)
        action, why = make("normal", seed=1).decide(view)
        assert (action == sc.Bid.of(0)) is nil, (variant, action, why)


# -- the hard bot's knowledge and play-outs -----------------------------------------


def phased_positions(seeds: range, **options: Any) -> Iterator[sc.Game]:
    """Every decision of normal bots' games of Tournament Spades."""
    for seed in seeds:
        game = sc.new_game("tournament", seed=seed, blind_nil_margin=0, **options)
        players = [make("normal", seed=i) for i in range(4)]
        while not game.is_over and len(game.hand_results) < 2:
            if game.phase is sc.Phase.DEAL:
                game = game.deal()
                continue
            yield game
            seat = game.to_act
            assert seat is not None
            game = game.apply(players[seat].choose(game.view(seat)), seat=seat)


def test_the_sampler_places_passed_cards_and_allows_the_real_deal(
    tournament: sc.Variant,
) -> None:
    rng = random.Random(3)
    checked = 0
    for game in phased_positions(range(12), nil_max_spades=13):
        if game.phase not in (sc.Phase.BID, sc.Phase.PLAY):
            continue
        for seat in SEATS:
            view = game.view(seat)
            passed = [
                step
                for step in view.phase_steps
                if step.seat is seat and type(step.action) is sc.Pass
            ]
            hidden = HiddenCards(view)
            held = [game.hand(other).mask for other in SEATS]
            # The real hands always meet the view's constraints: Blind Nil
            # bids (declared unseen) and bids made before an exchange included.
            assert hidden.allows(held)
            known = knowledge_of(view)
            for step in passed:
                assert step.receiver is not None
                assert type(step.action) is sc.Pass
                card = step.action.cards.mask
                if view.unseen.mask & card:
                    assert known.must_hold[step.receiver] & card
                    assert hidden.sample(rng)[step.receiver] & card
                    checked += 1
    assert checked > 20


def test_determinize_replays_the_phases_a_seat_saw(tournament: sc.Variant) -> None:
    rng = random.Random(8)
    replayed = refused = 0
    for game in phased_positions(range(10)):
        if game.phase not in (sc.Phase.BID, sc.Phase.PLAY) or not game.phase_steps:
            continue
        for seat in SEATS:
            view = game.view(seat)
            seen = sum(len(s.action.cards) for s in view.phase_steps if type(s.action) is sc.Pass)
            if seen < sum(view.cards_passed.values()):
                with pytest.raises(sc.InconsistentViewError, match="did not see every card"):
                    sc.determinize(view, rng)
                refused += 1
                continue
            sample = sc.determinize(view, rng)
            assert sample.view(seat) == view
            replayed += 1
    assert replayed > 50
    assert refused > 0


def test_play_outs_run_the_exchange_and_score_blind_nil(tournament: sc.Variant) -> None:
    game = sc.new_game("tournament", seed=4, dealer="W", blind_nil_margin=0).deal()
    game = game.apply(sc.BLIND_NIL)  # North
    while game.phase is sc.Phase.VARIANT:
        game = game.apply(sc.LOOK)
    assert game.phase is sc.Phase.BID
    assert game.to_act is not None
    view = game.view(game.to_act)
    held = tuple(game.hand(seat).mask for seat in SEATS)
    sim = Sim(view, table_from_view(view), held)
    sim.bid_out()
    assert sim.steps is not None
    passes = [step for step in sim.steps if type(step.action) is sc.Pass]
    assert {step.seat for step in passes} >= {sc.Seat.NORTH, sc.Seat.SOUTH}
    north = [step.action for step in passes if step.seat is sc.Seat.NORTH]
    assert sum(len(action.cards) for action in north if type(action) is sc.Pass) == 2
    assert tuple(sim.hands) != held
    assert sum(hand.bit_count() for hand in sim.hands) == 52
    # The Blind Nil is scored at its stake: the same tricks are worth 200 - 100
    # more (or less) with the Blind Nil step than as a plain Nil of 100.
    sim.play_out()
    plain = sim.clone()
    plain.steps = ()
    gap = hand_value(sim, 0) - hand_value(plain, 0)
    assert abs(gap) == 100


# -- the coach ------------------------------------------------------------------------


def test_the_coach_explains_blind_nil_with_its_numbers(tournament: sc.Variant) -> None:
    tip = sc.coach(blind_view())
    assert tip.action == sc.BLIND_NIL
    assert tip.idea == "blind_nil_behind"
    assert "wins or loses 200" in tip.reason
    assert f"{BLIND_NIL_SUCCESS:.0%}" in tip.reason
    assert "+68 points" in tip.reason
    tip = sc.coach(blind_view(blind_nil_value=20))
    assert tip.action == sc.LOOK
    assert tip.idea == "look_first"
    assert "wins or loses 20," in tip.reason
    assert tip.reason.endswith("look at your cards and bid them.")


def test_the_coach_explains_each_pass(tournament: sc.Variant) -> None:
    ideas = set()
    for game in phased_positions(range(30)):
        if game.phase is not sc.Phase.VARIANT or game.phase_name != "exchange":
            continue
        seat = game.to_act
        assert seat is not None
        tip = sc.coach(game.view(seat))
        assert type(tip.action) is sc.Pass
        assert tip.action in game.legal_actions()
        card = next(iter(tip.action.cards))
        assert card.symbol in tip.reason
        opening = "You bid Nil" if game.bids[seat] == 0 else "Your partner bid Nil"
        assert tip.reason.startswith(opening)
        ideas.add(tip.idea)
    assert ideas == {"pass_high_to_partner", "pass_low_to_nil"}
