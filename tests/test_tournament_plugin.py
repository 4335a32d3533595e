"""Tournament Spades (``examples/tournament_spades``), the example plugin
whose hands have phases of their own: it passes the testing kit, and whole
games of it agree with a small referee written here from the rules page
(docs/variants/tournament.md), over random option sets. Also: the refusal
reasons of the phases' actions, views that hide a blind hand and the passes
of other seats, records that round-trip, and the built-ins' refusal of
Blind Nil and passes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import spades_core as sc
from envs_support import TOURNAMENT_PLUGIN, example_plugin_installed
from spades_core.options import STANDARD_OPTIONS
from spades_core.scoring import ScoreItem, ScoreKind, score_breakdown
from spades_core.simulation.work import score_without_penalty, steps_to_score
from spades_core.testing import check_variant

MODULE = "spades_variant_tournament"


@pytest.fixture
def tournament(tmp_path: Path) -> Iterator[sc.Variant]:
    """The plugin, installed for the test."""
    with example_plugin_installed(tmp_path / "site", TOURNAMENT_PLUGIN, MODULE):
        yield sc.load_variant("tournament")


# -- the referee: the rules page, restated on plain data ------------------------------

SEATS = list(sc.Seat)


def referee_bids(
    options: dict[str, int], seat: int, hand: sc.CardSet, bids: list[int | None]
) -> list[int]:
    """Legal bids: team cap 13, the second partner reaches the team minimum,
    Nil only with few spades unless it is the only bid left."""
    partner = bids[(seat + 2) % 4]
    high = 13 - (partner or 0)
    low = 0 if partner is None else max(0, options["min_team_bid"] - partner)
    spades = hand.count(sc.Suit.SPADES)
    return [
        b for b in range(low, high + 1) if b or high == 0 or spades <= options["nil_max_spades"]
    ]


def referee_score(
    options: dict[str, int],
    bids: list[int],
    tricks: list[int],
    blind: set[int],
    bags_before: list[int],
) -> tuple[list[int], list[int]]:
    """Points and bags of a hand (nil_tricks count toward the contract, as classic)."""
    points, bags = [0, 0], list(bags_before)
    for team in (0, 1):
        seats = (team, team + 2)
        contract = sum(bids[s] for s in seats)
        won = sum(tricks[s] for s in seats)
        for s in seats:
            if bids[s] == 0:
                value = options["blind_nil_value"] if s in blind else 100
                points[team] += value if tricks[s] == 0 else -value
        if won >= contract:
            over = won - contract
            made = 200 if options["ten_for_two_hundred"] and contract >= 10 else 10 * contract
            points[team] += made + over
            bags[team] += over
            if bags[team] >= 10:
                bags[team] -= 10
                points[team] -= 100
        else:
            points[team] -= 10 * contract
        if won == 13:
            points[team] += options["boston_bonus"]
    return points, bags


def referee_game(options: dict[str, int], seed: int, rnd: random.Random, hands: int) -> None:
    """Plays ``hands`` hands at random, checking every offer and score against the referee."""
    game = sc.new_game("tournament", seed=seed, dealer=sc.Seat.NORTH, **options)
    for _ in range(hands):
        if game.is_over:
            return
        game = game.deal()
        scores = list(game.scores.values())
        dealt = [game.hand(s).mask for s in SEATS]
        order = [(game.dealer + i) % 4 for i in range(1, 5)]
        blind: set[int] = set()
        for seat in order:  # Blind Nil: trailing by the margin, one per team
            team = seat % 2
            if (
                scores[1 - team] - scores[team] >= options["blind_nil_margin"]
                and (seat + 2) % 4 not in blind
            ):
                assert game.phase_name == "blind_nil"
                assert game.to_act == SEATS[seat]
                assert not game.view(SEATS[seat]).hand()
                assert set(game.legal_actions()) == {sc.BLIND_NIL, sc.LOOK}
                options_here: list[sc.BlindNil | sc.Look] = [sc.BLIND_NIL, sc.LOOK]
                choice = rnd.choice(options_here)
                game = game.apply(choice)
                if choice is sc.BLIND_NIL:
                    blind.add(seat)
        bids: list[int | None] = [0 if s in blind else None for s in range(4)]
        for seat in order:
            if seat in blind:
                continue
            assert game.phase is sc.Phase.BID
            assert game.to_act == SEATS[seat]
            expected = referee_bids(options, seat, sc.CardSet(dealt[seat]), bids)
            assert list(game.legal_bids()) == expected
            bid = rnd.choice(expected)
            bids[seat] = bid
            game = game.bid(bid)
        held = list(dealt)
        done: set[int] = set()
        for seat in order:  # the exchange, per team with a Nil
            if bids[seat] != 0 or seat in done or (seat + 2) % 4 in done:
                continue
            partner = (seat + 2) % 4
            done |= {seat, partner}
            received = 0
            for giver, taker in ((seat, partner), (partner, seat)):
                own = held[giver] & ~received if giver == partner else held[giver]
                chosen = rnd.sample(list(sc.CardSet(own)), options["pass_count"])
                mask = sum(card.mask for card in chosen)
                assert game.phase_name == "exchange"
                assert game.to_act == SEATS[giver]
                game = game.apply(sc.Pass(sc.CardSet(mask)))
                held[giver] &= ~mask
                held[taker] |= mask
                received = mask if giver == seat else received
        assert game.phase is sc.Phase.PLAY
        assert [game.hand(s).mask for s in SEATS] == held
        bags_before = list(game.bags.values())
        while game.phase is sc.Phase.PLAY:
            game = game.play(rnd.choice(game.legal_cards()))
        result = game.hand_results[-1]
        points, bags = referee_score(
            options, bids, list(result.tricks.values()), blind, bags_before
        )
        assert list(result.points.values()) == points
        assert list(result.bags.values()) == bags
        # The itemised score adds up to the hand's, Blind Nils included.
        breakdown = score_breakdown(game)
        for team in sc.Team:
            assert sum(item.points for item in breakdown.team_items(team)) == points[team]


def reason_of(game: sc.Game, action: object) -> sc.IllegalReason | None:
    """The reason ``game`` refuses ``action``, ``None`` if it is legal."""
    error = game.why_illegal(action)
    return None if error is None else error.reason


def random_options(rnd: random.Random) -> dict[str, int]:
    return {
        "blind_nil_margin": rnd.choice([0, 0, 50, 100]),
        "blind_nil_value": rnd.choice([100, 200, 300]),
        "pass_count": rnd.randint(1, 3),
        "boston_bonus": rnd.choice([0, 200, 250]),
        "ten_for_two_hundred": rnd.choice([False, True]),
        "min_team_bid": rnd.randint(0, 6),
        "nil_max_spades": rnd.randint(0, 13),
        "target_score": 100_000,
        "loss_floor": -100_000,
    }


def test_whole_games_agree_with_the_referee(tournament: sc.Variant) -> None:
    rnd = random.Random(46)
    for number in range(12):
        referee_game(random_options(rnd), seed=number, rnd=rnd, hands=6)


def test_the_plugin_passes_the_testing_kit(tournament: sc.Variant) -> None:
    check_variant(tournament, max_examples=10, hands=2)


def test_refusals_name_machine_readable_reasons(tournament: sc.Variant) -> None:
    game = sc.new_game("tournament", seed=5, dealer=sc.Seat.NORTH, blind_nil_margin=0).deal()
    assert game.phase_name == "blind_nil"
    assert game.phase_title == "Blind Nil"
    assert sc.new_game("tournament", seed=5).phase_title is None
    assert reason_of(game, sc.Pass.of("2C")) is sc.IllegalReason.NOT_PASSING
    assert reason_of(game, 3) is sc.IllegalReason.WRONG_PHASE
    game = game.apply("look").apply("blind")  # East looks, South goes blind
    assert game.to_act is sc.Seat.WEST  # North, South's partner, is not offered it
    while game.phase is not sc.Phase.BID:
        game = game.apply("look")
    assert reason_of(game, "blind") is sc.IllegalReason.BLIND_TOO_LATE
    while game.phase is sc.Phase.BID:
        game = game.bid(max(game.legal_bids()))
    assert game.phase_name == "exchange"
    assert game.phase_title == "Passing cards"
    assert game.to_act == sc.Seat.SOUTH
    hand = list(game.hand(sc.Seat.SOUTH))
    wrong = game.why_illegal(sc.Pass(sc.CardSet.of(hand[:3])))
    assert wrong is not None
    assert wrong.reason is sc.IllegalReason.WRONG_PASS_COUNT
    other = next(iter(game.hand(sc.Seat.NORTH)))
    refused = game.why_illegal(sc.Pass.of(other))
    assert refused is not None
    assert refused.reason is sc.IllegalReason.PASS_NOT_ALLOWED
    before = game
    with pytest.raises(sc.IllegalActionError):
        game.apply(sc.Pass(sc.CardSet.of(hand[:3])))
    assert game == before


def test_views_hide_the_blind_hand_and_other_seats_passes(tournament: sc.Variant) -> None:
    game = sc.new_game("tournament", seed=8, dealer=sc.Seat.WEST, blind_nil_margin=0).deal()
    north = game.to_act
    assert north is sc.Seat.NORTH
    assert not game.view(north).hand()
    assert not game.view(sc.Seat.EAST).hand()  # still to decide
    game = game.apply("blind")
    assert game.view(north).hand() == game.hand(north)
    while game.phase is not sc.Phase.PLAY:
        legal = game.legal_actions()
        pick = sc.LOOK if sc.LOOK in legal else sc.Bid(3) if sc.Bid(3) in legal else legal[-1]
        game = game.apply(pick)
    passes = [step for step in game.phase_steps if isinstance(step.action, sc.Pass)]
    assert passes
    assert {step.seat for step in passes} == {sc.Seat.NORTH, sc.Seat.SOUTH}
    for seat in (sc.Seat.EAST, sc.Seat.WEST):
        view = game.view(seat)
        assert not any(isinstance(step.action, sc.Pass) for step in view.phase_steps)
        assert view.cards_passed[sc.Seat.NORTH] == 2
        assert "pass" not in str(view.to_dict()["phase_steps"])
    assert len(game.view(sc.Seat.SOUTH).phase_steps) == len(game.phase_steps)


def test_records_round_trip_mid_phase_and_after(tournament: sc.Variant) -> None:
    rnd = random.Random(3)
    game = sc.new_game("tournament", seed=11, blind_nil_margin=0)
    while not game.is_over and game.hand_number < 4:
        if game.phase is sc.Phase.VARIANT or rnd.random() < 0.1:
            assert sc.loads(sc.dumps(game)) == game
        game = game.apply(rnd.choice(game.legal_actions()))
    assert sc.loads(sc.dumps(game)) == game
    text = sc.dumps(game)
    assert '"steps":["' in text


def test_the_built_ins_refuse_the_phases_actions() -> None:
    game = sc.new_game("classic", seed=1).deal()
    assert reason_of(game, "blind") is sc.IllegalReason.BLIND_TOO_LATE
    assert reason_of(game, "pass 2C") is sc.IllegalReason.NOT_PASSING
    assert reason_of(game, "look") is sc.IllegalReason.NOT_OFFERED
    assert len(game.legal_mask()) == 66


def test_a_phased_variant_itemises_its_hands_with_score_phased_items(
    tournament: sc.Variant,
) -> None:
    from spades_variant_tournament import TournamentVariant

    class Itemised(TournamentVariant):
        """Scores as Tournament Spades, with one item per team of its own words."""

        def score_phased_items(
            self,
            rules: sc.Rules,
            bids: sc.SeatMap[int],
            tricks: sc.SeatMap[int],
            bags_before: sc.TeamMap[int],
            steps: tuple[sc.PhaseStep, ...],
        ) -> list[ScoreItem]:
            points, bags = self.score_phased_hand(rules, bids, tricks, bags_before, steps)
            return [
                ScoreItem(
                    ScoreKind.VARIANT,
                    team,
                    points[team] + self.skew,
                    bags[team] - bags_before[team],
                    "all of it",
                )
                for team in sc.Team
            ]

        skew = 0

    options = {
        name if name in STANDARD_OPTIONS else spec: tournament.defaults[name]
        for name, spec in tournament.option_specs.items()
    }
    variant = Itemised(id="itemised", title="Itemised", summary="Items.", options=options)
    game = sc.new_game(variant, seed=5, blind_nil_margin=0)
    rnd = random.Random(5)
    while not game.hand_results:
        game = game.apply(rnd.choice(game.legal_actions()))
    assert [item.label for item in score_breakdown(game).items] == ["all of it", "all of it"]
    Itemised.skew = 1  # items that no longer add up are the variant's fault, named so
    with pytest.raises(sc.VariantLoadError, match="score_phased_items must add up"):
        score_breakdown(game)


def test_simulations_play_and_score_hands_with_phases(tournament: sc.Variant) -> None:
    # Blind Nil at every chance: the tally must score each Blind Nil at its
    # own value, as the engine does.
    simulated = sc.simulate(
        "normal",
        "easy",
        variant="tournament",
        hands=12,
        seed=3,
        duplicate=True,
        blind_nil_margin=0,
    )
    assert simulated.hands == 12 * 2
    tally = sc.tournament(["normal", "easy"], variant="tournament", hands=4, seed=2)
    assert len(tally.pairs) == 1
    # With no bag penalty a hand's points are what the tally scores it.
    game = sc.new_game(
        "tournament",
        seed=9,
        blind_nil_margin=0,
        bag_limit=None,
        target_score=100_000,
        loss_floor=-100_000,
    )
    rnd = random.Random(9)
    blind_hands = 0
    while not game.is_over and game.hand_number < 8:
        game = game.apply(rnd.choice(game.legal_actions()))
        if game.phase is sc.Phase.DEAL and game.hand_results:
            finished = game.hand_results[-1]
            base, _ = score_without_penalty(
                game.variant,
                game.rules,
                finished.bids,
                finished.tricks,
                steps_to_score(game, finished),
            )
            assert base == finished.points
            blind_hands += any(isinstance(step.action, sc.BlindNil) for step in finished.steps)
    assert blind_hands
