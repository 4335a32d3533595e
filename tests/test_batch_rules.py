"""The vectorised rules twin agrees with the scalar trick rules of
:mod:`spades_core.tricks` (legal plays, trick winners, breaking spades, shown
out suits) and with the scalar engine (legal plays in real positions, bids,
scoring and the end of a game)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from spades_core.batch import _rules, array_forms_of
from spades_core.rules import scoring, tricks
from spades_core.rules.hooks import checked_game_end
from spades_core.testing.strategies import option_sets

pytestmark = pytest.mark.integration("batch")


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
        assert [int(mask) for mask in legal] == [g.legal_cards().mask for g in games]
        assert [int(mask) for mask in legal] == [
            tricks.legal_card_mask(int(h), int(s), bool(b), bool(f))
            for h, s, b, f in zip(held, led, broken, first, strict=True)
        ]


@settings(max_examples=200)
@given(
    held=st.integers(1, (1 << 52) - 1),
    led=st.integers(tricks.NO_SUIT, tricks.SPADES),
    broken=st.booleans(),
    first=st.booleans(),
)
def test_legal_plays_match_the_trick_rules(held: int, led: int, broken: bool, first: bool) -> None:
    # The deuce-of-clubs lead only arises for a leader, who then holds it.
    first = first and led == tricks.NO_SUIT
    if first:
        held |= 1 << tricks.TWO_OF_CLUBS
    legal = _rules.legal_plays(
        np.array([held], np.uint64),
        np.array([led], np.int8),
        np.array([broken]),
        np.array([first]),
    )
    assert int(legal[0]) == tricks.legal_card_mask(held, led, broken, first)


def every_card_led_and_broken() -> tuple[list[int], list[int], list[bool]]:
    """Every (card, led suit or no suit, spades broken) combination, as columns."""
    rows = [
        (card, led, broken)
        for card in range(52)
        for led in range(tricks.NO_SUIT, tricks.SPADES + 1)
        for broken in (False, True)
    ]
    cards, leds, brokens = zip(*rows, strict=True)
    return list(cards), list(leds), list(brokens)


def test_shown_out_matches_the_trick_rules() -> None:
    cards, leds, brokens = every_card_led_and_broken()
    shown = _rules.shown_out(
        np.array(cards, np.int8), np.array(leds, np.int8), np.array(brokens)
    ).tolist()
    assert shown == [tricks.shown_out(*row) for row in zip(cards, leds, brokens, strict=True)]
    # A few by hand: a diamond on clubs shows clubs out, an unbroken spade lead
    # every other suit, a card of the led suit nothing.
    assert tricks.shown_out(20, 0, False) == 0b0001
    assert tricks.shown_out(40, tricks.NO_SUIT, False) == 0b0111
    assert tricks.shown_out(5, 0, False) == 0


def test_trick_strength_picks_the_trick_winner() -> None:
    rnd = random.Random(3)
    for _ in range(2000):
        cards = rnd.sample(range(52), 4)
        led = np.full(4, cards[0] // tricks.RANKS, dtype=np.int8)
        strength = _rules.trick_strength(led, np.array(cards))
        assert int(strength.argmax()) == tricks.trick_winner(cards)


def test_breaking_spades_matches_the_trick_rules() -> None:
    cards, leds, _ = every_card_led_and_broken()
    for any_spade in (False, True):
        breaks = _rules.breaks_spades(np.array(cards, np.int8), np.array(leds, np.int8), any_spade)
        assert breaks.tolist() == [
            tricks.breaks_spades(card, led, any_spade)
            for card, led in zip(cards, leds, strict=True)
        ]
    # By hand: a spade on clubs breaks under either rule; a spade lead only under any_spade.
    assert _rules.breaks_spades(np.array([39]), np.array([0]), any_spade=False).tolist() == [True]
    assert _rules.breaks_spades(np.array([39]), np.array([-1]), any_spade=False).tolist() == [False]


def test_each_built_in_variants_bid_form_matches_its_hook() -> None:
    rnd = random.Random(11)
    for variant, options in (
        ("classic", {}),
        ("classic", {"max_team_bid": 5}),
        ("classic", {"max_team_bid": None}),
        ("mirror", {}),
        ("whiz", {}),
        ("whiz", {"whiz_nil_needs_no_ace": True}),
    ):
        chosen = sc.load_variant(variant)
        forms = array_forms_of(chosen)
        rules = chosen.rules(**options)
        games = []
        for seed in range(300):
            game = sc.new_game(variant, seed=seed, **options).deal()
            for _ in range(rnd.randrange(4)):
                game = game.bid(rnd.choice(game.legal_bids()))
            games.append(game)
        to_act = [g.to_act for g in games]
        seats = np.array([int(seat) for seat in to_act], dtype=np.int8)  # type: ignore[arg-type]
        hands = np.array([g.hand(s).mask for g, s in zip(games, to_act, strict=True)], np.uint64)  # type: ignore[arg-type]
        made = [[-1 if bid is None else bid for bid in g.bids.values_] for g in games]
        bids = np.array(made, np.int8)
        masks = forms.legal_bids(rules, hands, seats, bids)
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


@settings(max_examples=150)
@given(
    variant=st.sampled_from(["classic", "mirror", "whiz"]),
    data=st.data(),
    rows=st.lists(
        st.tuples(st.integers(-900, 900), st.integers(-900, 900), st.integers(1, 6)), min_size=1
    ),
)
def test_game_ends_match_the_engines_game_end(
    variant: str, data: st.DataObject, rows: list[tuple[int, int, int]]
) -> None:
    """The hand limit included: a game at ``max_hands`` ends, the higher score
    winning and equal scores a draw, exactly as the engine decides."""
    chosen = sc.load_variant(variant)
    rules = chosen.rules(**data.draw(option_sets(chosen), label="options"))
    scores = np.array([(ns, ew) for ns, ew, _ in rows], dtype=np.int64)
    hands = np.array([hand for _, _, hand in rows], dtype=np.int64)
    outcomes = _rules.game_outcomes(rules, scores)
    over, winner = _rules.game_ends(rules, outcomes, scores, hands)
    for row, (ns, ew, hand) in enumerate(rows):
        ended, team = checked_game_end(chosen, rules, (ns, ew), hand)
        assert bool(over[row]) == ended
        assert int(winner[row]) == (-1 if team is None else int(team))
