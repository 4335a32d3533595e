"""The vectorised rules twin agrees with the scalar engine: legal plays,
trick winners, breaking spades, bids, scoring and the end of a game."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from spades_core import scoring, transitions
from spades_core.batch import _rules
from spades_core.testing.strategies import option_sets


def random_positions(variant: str, count: int, seed: int, **options: Any) -> list[sc.Game]:
    """Games stopped at a random point of a hand's play."""
    rnd = random.Random(seed)
    games = []
    for index in range(count):
        game = sc.new_game(variant, seed=seed * 1000 + index, **options).deal()
        for _ in range(rnd.randrange(4, 56)):
            game = game.apply(rnd.choice(game.legal_actions()))
            if game.phase is not sc.Phase.BID and game.phase is not sc.Phase.PLAY:
                break
        if game.phase is sc.Phase.PLAY:
            games.append(game)
    return games


def test_legal_plays_match_the_engine_in_random_positions() -> None:
    for variant, options in (
        ("classic", {}),
        ("mirror", {}),
        ("classic", {"first_lead": "two_of_clubs"}),
        ("whiz", {"break_rule": "offsuit_spade"}),
    ):
        games = random_positions(variant, 300, 7, **options)
        seats = [game.to_act for game in games]
        held = np.array([g.hand(s).mask for g, s in zip(games, seats, strict=True)], np.uint64)  # type: ignore[arg-type]
        led = np.array(
            [int(g.current_trick[0][1].suit) if g.current_trick else -1 for g in games], np.int8
        )
        broken = np.array([g.spades_broken for g in games])
        first = np.array(
            [not g.tricks and options.get("first_lead") == "two_of_clubs" for g in games]
        )
        legal = _rules.legal_plays(held, led, broken, first)
        assert [int(mask) for mask in legal] == [g.legal_plays().mask for g in games]


def test_shown_out_follows_the_view_rule() -> None:
    cards = np.array([5, 20, 40, 41, 3], dtype=np.int8)
    led = np.array([0, 0, -1, -1, -1], dtype=np.int8)
    broken = np.array([False, False, False, True, False])
    # Following clubs with a club shows nothing; a diamond on clubs shows clubs
    # out; a spade led unbroken shows every other suit out; broken, nothing.
    assert _rules.shown_out(cards, led, broken).tolist() == [0, 0b0001, 0b0111, 0, 0]


def test_trick_strength_picks_the_engine_trick_winner() -> None:
    rnd = random.Random(3)
    for _ in range(2000):
        cards = rnd.sample(range(52), 4)
        led = np.full(4, cards[0] // 13, dtype=np.int8)
        strength = _rules.trick_strength(led, np.array(cards))
        assert int(strength.argmax()) == transitions.trick_winner(tuple(cards))


def test_breaking_spades_follows_each_break_rule() -> None:
    cards = np.array([39, 39, 50, 12], dtype=np.int8)
    led = np.array([-1, 0, 3, 0], dtype=np.int8)
    assert _rules.breaks_spades(cards, led, any_spade=True).tolist() == [True, True, True, False]
    assert _rules.breaks_spades(cards, led, any_spade=False).tolist() == [
        False,
        True,
        False,
        False,
    ]


def test_bid_rules_match_each_variant_hook() -> None:
    rnd = random.Random(11)
    for variant, options in (
        ("classic", {}),
        ("classic", {"max_team_bid": 5}),
        ("classic", {"max_team_bid": None}),
        ("mirror", {}),
        ("whiz", {}),
        ("whiz", {"whiz_nil_needs_no_ace": True}),
    ):
        rules = _rules.batch_rules(sc.load_variant(variant), dict(options))
        games = []
        for seed in range(300):
            game = sc.new_game(variant, seed=seed, **options).deal()
            for _ in range(rnd.randrange(4)):
                game = game.bid(rnd.choice(game.legal_bids()))
            games.append(game)
        to_act = [g.to_act for g in games]
        seats = np.array([int(seat) for seat in to_act], dtype=np.int8)  # type: ignore[arg-type]
        hands = np.array([g.hand(s).mask for g, s in zip(games, to_act, strict=True)], np.uint64)  # type: ignore[arg-type]
        bids = np.array([[g.bids.get(s, -1) for s in sc.Seat] for g in games], np.int8)
        masks = rules.legal_bids(rules.rules, hands, seats, bids)
        for mask, game in zip(masks, games, strict=True):
            assert [b for b in range(14) if int(mask) >> b & 1] == list(game.legal_bids())


bids_and_tricks = st.tuples(
    st.lists(st.integers(0, 13), min_size=4, max_size=4),
    # Three cut points split the 13 tricks among the four seats.
    st.lists(st.integers(0, 13), min_size=3, max_size=3)
    .map(sorted)
    .map(lambda c: [c[0], c[1] - c[0], c[2] - c[1], 13 - c[2]]),
    st.tuples(st.integers(0, 40), st.integers(0, 40)),
)


@settings(max_examples=150)
@given(
    options=st.one_of(option_sets("classic"), option_sets("mirror")),
    hands=st.lists(bids_and_tricks, min_size=1, max_size=20),
)
def test_scoring_matches_the_scalar_scoring(
    options: dict[str, object], hands: list[tuple[list[int], list[int], tuple[int, int]]]
) -> None:
    variant = "classic" if "max_team_bid" in options else "mirror"
    rules = sc.load_variant(variant).rules(**options)
    bids = np.array([h[0] for h in hands], dtype=np.int8)
    tricks = np.array([h[1] for h in hands], dtype=np.int8)
    before = np.array([h[2] for h in hands], dtype=np.int64)
    points, bags = _rules.score_hands(rules, bids, tricks, before)
    for row, (bid, won, bags_before) in enumerate(hands):
        expected = scoring.score_hand(rules, tuple(bid), tuple(won), bags_before)  # type: ignore[arg-type]
        assert (tuple(map(int, points[row])), tuple(map(int, bags[row]))) == expected


@settings(max_examples=150)
@given(
    options=st.one_of(option_sets("classic"), option_sets("mirror")),
    scores=st.lists(st.tuples(st.integers(-900, 900), st.integers(-900, 900)), min_size=1),
)
def test_game_outcomes_match_the_scalar_rule(
    options: dict[str, object], scores: list[tuple[int, int]]
) -> None:
    variant = "classic" if "max_team_bid" in options else "mirror"
    rules = sc.load_variant(variant).rules(**options)
    outcomes = _rules.game_outcomes(rules, np.array(scores, dtype=np.int64))
    for outcome, pair in zip(outcomes, scores, strict=True):
        expected = scoring.game_outcome(rules, pair)
        assert int(outcome) == (-1 if expected is None else expected)
