"""Hypothesis properties over random games of every variant.

Games are driven by a ``random.Random`` chooser seeded from a drawn integer, so an
example is cheap and replayable. Random Mirror and Whiz games may never end (there
is no loss floor), so every game is bounded by a number of hands.

Each finished hand is re-checked by :func:`check_hand_record`, written here from
docs/rules.md independently of the engine: who led, following suit, breaking spades,
trick winners, trick counts and the cards played.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import spades_core as sc
from spades_core import (
    BagOverflow,
    BreakRule,
    Card,
    Deal,
    DoubleNil,
    FirstLead,
    HandResult,
    IllegalActionError,
    NilTricks,
    Phase,
    Play,
    Rules,
    Seat,
    Suit,
    Team,
)
from spades_core.rules.scoring import game_outcome, score_hand, score_team
from spades_core.values.actions import BIDS, PLAYS
from spades_core.values.cards import FULL_DECK_MASK

VARIANTS = ("classic", "mirror", "whiz")
EVERY_ACTION: tuple[sc.Action, ...] = (Deal(), *BIDS, *PLAYS)
NOT_ACTIONS: tuple[object, ...] = ("ZZ", None, 3.0, True, sc.CardSet.parse("AS"))
TWO_OF_CLUBS = Card.parse("2C")
ACE_OF_SPADES = Card.parse("AS")

seeds = st.integers(min_value=0, max_value=2**64 - 1)
chooser_seeds = st.integers(min_value=0, max_value=2**32 - 1)


def options_for(variant: str) -> st.SearchStrategy[dict[str, object]]:
    """Any valid combination of the variant's options (each may be left out)."""
    modes = {
        "nil_tricks": NilTricks,
        "double_nil": DoubleNil,
        "bag_overflow": BagOverflow,
        "break_rule": BreakRule,
        "first_lead": FirstLead,
    }
    optional: dict[str, st.SearchStrategy[object]] = {
        "target_score": st.integers(min_value=1, max_value=600),
        "loss_floor": st.none() | st.integers(min_value=-600, max_value=-1),
        "nil_value": st.integers(min_value=0, max_value=200),
        "bag_limit": st.none() | st.integers(min_value=1, max_value=15),
        "bag_penalty": st.integers(min_value=0, max_value=200),
    }
    for name, mode in modes.items():
        optional[name] = st.sampled_from(list(mode)) | st.sampled_from([m.value for m in mode])
    if variant == "classic":
        optional["max_team_bid"] = st.none() | st.integers(min_value=1, max_value=13)
    if variant == "whiz":
        optional["whiz_nil_needs_no_ace"] = st.booleans()
    return st.fixed_dictionaries({}, optional=optional)


def games(
    variant: str, seed: int, chooser_seed: int, max_hands: int, **options: object
) -> Iterator[sc.Game]:
    """Every state of a random game, from the new game to GAME_OVER or ``max_hands``."""
    chooser = random.Random(chooser_seed)
    game = sc.new_game(variant, seed=seed, dealer=None, **options)
    yield game
    while not game.is_over and len(game.hand_results) < max_hands:
        game = game.apply(chooser.choice(game.legal_actions()))
        yield game


def final(variant: str, seed: int, chooser_seed: int, max_hands: int, **options: object) -> sc.Game:
    *_, last = games(variant, seed, chooser_seed, max_hands, **options)
    return last


# -- the independent re-check of a finished hand -----------------------------------------


def _winner(trick: sc.Trick) -> Seat:
    led = trick.cards[0].suit
    spades = [(card.rank, seat) for seat, card in trick.plays if card.suit is Suit.SPADES]
    if spades:
        return max(spades)[1]
    return max((card.rank, seat) for seat, card in trick.plays if card.suit is led)[1]


def check_hand_record(result: HandResult, rules: Rules) -> None:
    """Replay a finished hand's tricks against docs/rules.md, Shared rules."""
    held = {seat: set(result.deal[seat]) for seat in Seat}
    assert all(len(cards) == 13 for cards in held.values())
    dealt_mask = 0
    for seat in Seat:
        assert dealt_mask & result.deal[seat].mask == 0
        dealt_mask |= result.deal[seat].mask
    assert dealt_mask == FULL_DECK_MASK

    assert len(result.played) == 13
    if rules.first_lead is FirstLead.TWO_OF_CLUBS:
        leader = next(seat for seat in Seat if TWO_OF_CLUBS in held[seat])
    else:
        leader = result.dealer.next
    broken = False
    played: list[Card] = []
    for number, trick in enumerate(result.played):
        assert trick.leader is leader
        assert len(trick.cards) == 4
        led = trick.cards[0].suit
        for position, (seat, card) in enumerate(trick.plays):
            assert seat is Seat((leader + position) % 4)
            assert card in held[seat]
            if position == 0:
                if number == 0 and rules.first_lead is FirstLead.TWO_OF_CLUBS:
                    assert card == TWO_OF_CLUBS
                if card.suit is Suit.SPADES and not broken:
                    assert all(c.suit is Suit.SPADES for c in held[seat]), "spade led unbroken"
            elif card.suit is not led:
                assert all(c.suit is not led for c in held[seat]), "did not follow suit"
            held[seat].remove(card)
            played.append(card)
        spade_played = any(card.suit is Suit.SPADES for card in trick.cards)
        if rules.break_rule is BreakRule.ANY_SPADE:
            broken = broken or spade_played
        else:
            broken = broken or (spade_played and led is not Suit.SPADES)
        assert trick.winner is _winner(trick)
        leader = trick.winner
    assert sorted(c.id for c in played) == list(range(52)), "each card played exactly once"
    assert [sum(t.winner is seat for t in result.played) for seat in Seat] == list(
        result.tricks.values()
    )
    assert sum(result.tricks.values()) == 13


def check_bids(variant: str, result: HandResult, rules: Rules) -> None:
    bids = result.bids
    spades = {seat: result.deal[seat].count(Suit.SPADES) for seat in Seat}
    if variant == "mirror":
        assert sum(bids.values()) == 13
        for seat in Seat:
            assert bids[seat] == spades[seat]
            if bids[seat] == 0:
                assert spades[seat] == 0, "a Mirror Nil bidder holds no spades"
    elif variant == "whiz":
        for seat in Seat:
            assert bids[seat] in (0, spades[seat])
            if rules.get("whiz_nil_needs_no_ace") and ACE_OF_SPADES in result.deal[seat]:
                assert bids[seat] == spades[seat]
    else:
        cap = rules.max_team_bid
        for team in Team:
            first, second = team.seats
            if cap is not None:
                assert bids[first] + bids[second] <= cap
            assert all(0 <= bids[seat] <= 13 for seat in team.seats)


def check_nil_tricks_never_change_the_contract(game: sc.Game, result: HandResult) -> None:
    """With ``bags_only`` (or ``bags_with_points``) a lone Nil bidder's tricks only add
    bags (and, with points, one point each): moving them to the opponents changes
    nothing else, so never the partner's made/set outcome."""
    rules = game.rules
    if rules.nil_tricks is NilTricks.COUNT_TOWARD_CONTRACT:
        return
    # Nil points and bag penalties aside, only the contract is left in the score.
    plain = game.variant.rules(**{**dict(rules.overrides), "nil_value": 0, "bag_limit": None})
    for team in Team:
        seats = team.seats
        bids = (result.bids[seats[0]], result.bids[seats[1]])
        if bids.count(0) != 1:
            continue
        nil = bids.index(0)
        partner = 1 - nil
        partner_tricks = result.tricks[seats[partner]]
        made = partner_tricks >= bids[partner]
        base_points, base_bags = score_team(plain, bids, _with(nil, 0, partner_tricks), 0)
        assert (base_points >= 0) is made
        for nil_tricks in range(13 - partner_tricks + 1):
            points, bags = score_team(plain, bids, _with(nil, nil_tricks, partner_tricks), 0)
            per_trick = 1 if rules.nil_tricks is NilTricks.BAGS_WITH_POINTS else 0
            assert points == base_points + per_trick * nil_tricks
            assert bags == base_bags + nil_tricks


def _with(nil: int, nil_tricks: int, partner_tricks: int) -> tuple[int, int]:
    return (nil_tricks, partner_tricks) if nil == 0 else (partner_tricks, nil_tricks)


def check_finished_hand(variant: str, game: sc.Game) -> None:
    """Everything that must hold once a hand has been scored."""
    rules = game.rules
    results = game.hand_results
    result = results[-1]
    check_hand_record(result, rules)
    check_bids(variant, result, rules)
    check_nil_tricks_never_change_the_contract(game, result)
    bags_before = results[-2].bags.values_ if len(results) > 1 else (0, 0)
    points, bags = score_hand(
        rules,
        result.bids.values_,  # type: ignore[arg-type]
        result.tricks.values_,  # type: ignore[arg-type]
        bags_before,  # type: ignore[arg-type]
    )
    assert (result.points.values_, result.bags.values_) == (points, bags)
    for team in Team:
        assert game.scores[team] == sum(r.points[team] for r in results)
        assert result.scores[team] == game.scores[team]
        assert game.bags[team] == result.bags[team] >= 0
        if rules.bag_limit is not None:
            assert game.bags[team] < rules.bag_limit
    outcome = game_outcome(rules, game.scores.values_)  # type: ignore[arg-type]
    assert outcome == game.variant.game_outcome(rules, game.scores)
    if outcome is None:
        assert game.phase is Phase.DEAL
        assert game.winner is None
        assert game.dealer is result.dealer.next
    else:
        assert game.phase is Phase.GAME_OVER
        assert game.winner is Team(outcome)
        assert game.legal_actions() == ()


def check_step(game: sc.Game, chooser: random.Random) -> None:
    """Legal actions exist and apply; a sample of other actions is refused cleanly."""
    legal = game.legal_actions()
    assert legal, "legal_actions() is empty before the game is over"
    for action in legal:
        assert game.why_illegal(action) is None
        after = game.apply(action)
        assert after is not game
    snapshot = copy.copy(game)
    others = [action for action in EVERY_ACTION if action not in legal]
    refused: list[object] = [*chooser.sample(others, 3), chooser.choice(NOT_ACTIONS)]
    for bad in refused:
        with pytest.raises(IllegalActionError) as caught:
            game.apply(bad)  # type: ignore[arg-type]
        why = game.why_illegal(bad)
        assert why is not None
        assert why.reason is caught.value.reason
        assert game == snapshot
        assert game.legal_actions() == legal


# -- properties ------------------------------------------------------------------------------


def _every_step_and_hand(variant: str, seed: int, chooser_seed: int, max_hands: int) -> None:
    checker = random.Random(chooser_seed ^ 0x5A5A)
    hands_seen = 0
    for game in games(variant, seed, chooser_seed, max_hands):
        if len(game.hand_results) > hands_seen:
            hands_seen = len(game.hand_results)
            check_finished_hand(variant, game)
        if game.is_over:
            assert game.winner is not None
            assert game.legal_actions() == ()
        else:
            assert game.winner is None
            if game.phase is Phase.PLAY:
                assert len(game.tricks) < 13
            check_step(game, checker)
    assert hands_seen >= 1


@given(seed=seeds, chooser_seed=chooser_seeds)
def test_classic_random_games_keep_every_rule(seed: int, chooser_seed: int) -> None:
    _every_step_and_hand("classic", seed, chooser_seed, max_hands=3)


@given(seed=seeds, chooser_seed=chooser_seeds)
def test_mirror_random_games_keep_every_rule(seed: int, chooser_seed: int) -> None:
    _every_step_and_hand("mirror", seed, chooser_seed, max_hands=3)


@given(seed=seeds, chooser_seed=chooser_seeds)
def test_whiz_random_games_keep_every_rule(seed: int, chooser_seed: int) -> None:
    _every_step_and_hand("whiz", seed, chooser_seed, max_hands=3)


@given(data=st.data(), variant=st.sampled_from(VARIANTS), seed=seeds)
def test_hypothesis_chosen_actions_always_apply(
    data: st.DataObject, variant: str, seed: int
) -> None:
    # Hypothesis itself picks each action here, so failures shrink to a short game.
    game = sc.new_game(variant, seed=seed)
    steps = 0
    while not game.hand_results:
        legal = game.legal_actions()
        assert legal
        game = game.apply(data.draw(st.sampled_from(legal)))
        steps += 1
    assert steps == 1 + 4 + 52  # the deal, four bids, 52 cards
    assert game.phase in (Phase.DEAL, Phase.GAME_OVER)
    check_finished_hand(variant, game)


@given(variant=st.sampled_from(VARIANTS), seed=seeds, chooser_seed=chooser_seeds)
def test_same_seed_and_same_choices_give_the_same_game(
    variant: str, seed: int, chooser_seed: int
) -> None:
    first = final(variant, seed, chooser_seed, max_hands=2)
    second = final(variant, seed, chooser_seed, max_hands=2)
    assert first == second
    assert first.hand_results == second.hand_results
    assert first is not second


@given(
    variant_and_options=st.sampled_from(VARIANTS).flatmap(
        lambda v: st.tuples(st.just(v), options_for(v))
    ),
    seed=seeds,
    chooser_seed=chooser_seeds,
)
def test_every_option_combination_keeps_dealing_legally_or_ends(
    variant_and_options: tuple[str, dict[str, object]], seed: int, chooser_seed: int
) -> None:
    variant, options = variant_and_options
    hands_seen = 0
    last = None
    for game in games(variant, seed, chooser_seed, max_hands=6, **options):
        last = game
        assert game.is_over or game.legal_actions()
        if len(game.hand_results) > hands_seen:
            hands_seen = len(game.hand_results)
            check_finished_hand(variant, game)
    assert last is not None
    assert last.is_over or len(last.hand_results) == 6
    if not last.is_over:
        assert last.phase is Phase.DEAL
        assert last.legal_actions() == (Deal(),)
        assert last.deal().phase is Phase.BID


@given(variant=st.sampled_from(VARIANTS), seed=seeds, chooser_seed=chooser_seeds)
def test_a_game_over_refuses_every_action(variant: str, seed: int, chooser_seed: int) -> None:
    # A small target so that random games end within the bound.
    options: dict[str, object] = {"target_score": 30, "loss_floor": -30}
    game = final(variant, seed, chooser_seed, max_hands=30, **options)
    assume(game.is_over)
    snapshot = copy.copy(game)
    assert game.winner is not None
    for action in EVERY_ACTION:
        with pytest.raises(IllegalActionError) as caught:
            game.apply(action)
        assert caught.value.reason is sc.IllegalReason.WRONG_PHASE
    assert game == snapshot


@given(variant=st.sampled_from(VARIANTS), seed=seeds)
def test_legal_plays_match_legal_actions(variant: str, seed: int) -> None:
    game = sc.new_game(variant, seed=seed)
    chooser = random.Random(seed)
    while len(game.hand_results) < 1:
        if game.phase is Phase.PLAY:
            assert tuple(Play.of(card) for card in game.legal_cards()) == game.legal_actions()
            assert game.legal_bids() == ()
        game = game.apply(chooser.choice(game.legal_actions()))
