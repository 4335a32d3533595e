"""One owner per rule: the batch engine's tables and the hard bot's play-outs
consult the engine's own game end (``max_hands`` included), legality reasons
and scoring, checked step by step against the engine over the testing kit's
option sets."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from spades_core import batch
from spades_core.bots._play import normal_play
from spades_core.bots._search import GAME_VALUE, Sim, hand_value
from spades_core.bots.table import table_from_view
from spades_core.engine.encoding import ACTIONS
from spades_core.engine.playouts import playout
from spades_core.rules.scoring import bag_cost
from spades_core.rules.tricks import LEFT_OF
from spades_core.testing.strategies import option_sets

pytestmark = pytest.mark.integration("batch")

BUILT_IN = ("classic", "mirror", "whiz")


@st.composite
def variants_and_options(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A built-in variant and an option set for it, with a hand limit half
    the time (so that games end at it, in a draw or not)."""
    variant = draw(st.sampled_from(BUILT_IN), label="variant")
    options: dict[str, Any] = dict(draw(option_sets(variant), label="options"))
    if draw(st.booleans(), label="hand limit"):
        options["max_hands"] = draw(st.integers(1, 3), label="max_hands")
    return variant, options


def refused_alike(tables: batch.Tables, games: list[sc.Game], rnd: random.Random) -> None:
    """An illegal action at a random table: Tables refuses it for the reason
    the engine gives, and the tables are unchanged."""
    row = rnd.randrange(len(games))
    game = games[row]
    action = rnd.choice([i for i, ok in enumerate(game.legal_mask()) if not ok])
    expected = game.why_illegal(ACTIONS[action])
    assert expected is not None
    actions = tables.legal_mask().argmax(axis=1)
    actions[row] = action
    before = tables.legal_mask().copy(), tables.scores.copy(), tables.hands.copy()
    with pytest.raises(sc.IllegalActionError) as caught:
        tables.step(actions)
    assert caught.value.reason is expected.reason, (str(caught.value), str(expected))
    assert str(expected) in str(caught.value)
    assert (tables.legal_mask() == before[0]).all()
    assert (tables.scores == before[1]).all()
    assert (tables.hands == before[2]).all()


@settings(max_examples=24, deadline=None)
@given(variants_and_options(), st.sampled_from(["hand", "game"]), st.integers(0, 2**32))
def test_tables_follow_the_engine_step_by_step(
    variant_options: tuple[str, dict[str, Any]], episode: str, seed: int
) -> None:
    variant, options = variant_options
    count = 3
    tables = batch.Tables(variant, count, seed=seed, episode=episode, **options)
    games = [sc.new_game(variant, seed=seed + i, **options).deal() for i in range(count)]
    next_seed = seed + count
    rnd = random.Random(seed)
    rng = np.random.default_rng(seed)
    for _ in range(170):
        for i, game in enumerate(games):
            assert tuple(tables.legal_mask()[i]) == game.legal_mask()
            assert int(tables.to_act[i]) == int(game.to_act)  # type: ignore[arg-type]
        if rnd.random() < 0.25:
            refused_alike(tables, games, rnd)
        actions = tables.random_actions(rng)
        rewards, done = tables.step(actions)
        for i in range(count):
            game = games[i].apply(ACTIONS[actions[i]])
            if game.phase in (sc.Phase.DEAL, sc.Phase.GAME_OVER):
                assert tuple(rewards[i]) == tuple(game.hand_results[-1].points.values())
                over = episode == "hand" or game.is_over
                assert bool(done[i]) is over
                if episode == "game" and over:
                    winner = -1 if game.winner is None else int(game.winner)
                    assert int(tables.winners[i]) == winner
                if over:
                    game = sc.new_game(variant, seed=next_seed, **options).deal()
                    next_seed += 1
                else:
                    game = game.deal()
                    assert tuple(tables.scores[i]) == tuple(game.scores.values())
                    assert tuple(tables.bags[i]) == tuple(game.bags.values())
                    assert int(tables.hand_number[i]) == game.hand_number
            else:
                assert not done[i]
            games[i] = game


def test_a_hand_limit_ends_a_tables_game_as_it_ends_the_engines() -> None:
    """Classic, max_hands=1, seed 5, the lowest legal action for 56 steps: the
    engine says the game is over and East-West won, -194 to -193."""
    tables = batch.Tables("classic", 1, seed=5, episode="game", max_hands=1)
    game = sc.new_game("classic", seed=5, max_hands=1).deal()
    for _ in range(56):
        action = int(tables.legal_mask()[0].argmax())
        game = game.apply(ACTIONS[action])
        _, done = tables.step(np.array([action]))
    assert game.is_over
    assert game.winner is sc.Team.EW
    assert tuple(game.scores.values()) == (-194, -193)
    assert done[0]
    assert tables.winners[0] == int(sc.Team.EW)


def test_a_drawn_game_at_the_hand_limit_ends_with_no_winner() -> None:
    """A one-hand game of Classic the engine ends level (a draw, found by
    random play): Tables, given the same actions, ends it with no winner."""
    for seed in range(100):
        rnd = random.Random(seed)
        game = sc.new_game("classic", seed=seed, max_hands=1).deal()
        ids: list[int] = []
        while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
            chosen = rnd.choice(game.legal_actions())
            ids.append(ACTIONS.index(chosen))
            game = game.apply(chosen)
        if game.winner is None:
            break
    else:
        pytest.fail("no drawn single hand among 100 seeds")
    assert game.is_over
    assert game.scores[sc.Team.NS] == game.scores[sc.Team.EW]
    tables = batch.Tables("classic", 1, seed=seed, episode="game", max_hands=1)
    for action_id in ids:
        _, done = tables.step(np.array([action_id]))
    assert done[0]
    assert tables.winners[0] == -1


def test_leading_another_club_to_a_two_of_clubs_trick_gets_the_engines_reason() -> None:
    tables = batch.Tables("classic", 1, seed=3, first_lead="two_of_clubs")
    game = sc.new_game("classic", seed=3, first_lead="two_of_clubs").deal()
    while game.phase is sc.Phase.BID:
        action = int(tables.legal_mask()[0].argmax())
        game = game.apply(ACTIONS[action])
        tables.step(np.array([action]))
    seat = game.to_act
    assert seat is not None
    club = next(card for card in game.hand(seat) if card.suit is sc.Suit.CLUBS and card.rank)
    expected = game.why_illegal(sc.Play(club))
    assert expected is not None
    assert expected.reason is sc.IllegalReason.MUST_LEAD_TWO_OF_CLUBS
    with pytest.raises(sc.IllegalActionError) as caught:
        tables.step(np.array([club.id]))
    assert caught.value.reason is sc.IllegalReason.MUST_LEAD_TWO_OF_CLUBS
    assert str(expected) in str(caught.value)


# -- the hard bot's play-outs ----------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(variants_and_options(), st.integers(0, 2**32), st.integers(0, 2))
def test_the_hard_bots_play_out_follows_the_engine_to_its_game_end(
    variant_options: tuple[str, dict[str, Any]], seed: int, hands_before: int
) -> None:
    """A play-out (:class:`Sim`) on the true cards, stepped with the engine:
    the same legal cards at every step, and a hand value that counts exactly
    the engine's points, bags and game end, the hand limit included."""
    variant, options = variant_options
    rnd = random.Random(seed)
    game = sc.new_game(variant, seed=seed, **options)
    for _ in range(hands_before):
        game = playout(game, rnd)
        if game.is_over:
            return
    game = game.deal()
    while game.phase is sc.Phase.BID:
        game = game.apply(rnd.choice(game.legal_actions()))
    before = game
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    sim = Sim(view, table_from_view(view), game._held)
    while game.phase is sc.Phase.PLAY:
        assert sim.legal_card_mask() == game.legal_cards().mask
        card = rnd.choice(game.legal_actions())
        game = game.apply(card)
        sim.play(card.card.id)  # type: ignore[union-attr]
    result = game.hand_results[-1]
    assert tuple(sim.won) == tuple(result.tricks.values())
    rules = game.rules
    price = bag_cost(rules.bag_limit, rules.bag_penalty)
    for team in (0, 1):
        other = 1 - team
        points = result.points.values_
        gained = (result.bags.values_[team] - before.bags.values_[team]) - (
            result.bags.values_[other] - before.bags.values_[other]
        )
        expected = points[team] - points[other] - price * gained
        if game.is_over and game.winner is not None:
            expected += GAME_VALUE if int(game.winner) == team else -GAME_VALUE
        assert hand_value(sim, team) == pytest.approx(expected)


@settings(max_examples=60, deadline=None)
@given(variants_and_options(), st.integers(0, 2**32), st.integers(0, 51))
def test_the_play_outs_loop_ends_where_its_card_by_card_steps_end(
    variant_options: tuple[str, dict[str, Any]], seed: int, cards_played: int
) -> None:
    """:meth:`Sim.play_out` writes the steps of :meth:`Sim.play` out in one
    loop: from any point of a hand it ends in the state that :meth:`Sim.play`,
    called card by card with the normal policy's choices, reaches (the same
    tricks won, shown-out suits, spade counts, cards played, breaking of
    spades and last leader)."""
    variant, options = variant_options
    rnd = random.Random(seed)
    game = sc.new_game(variant, seed=seed, **options).deal()
    while game.phase is sc.Phase.BID:
        game = game.apply(rnd.choice(game.legal_actions()))
    for _ in range(cards_played):
        game = game.apply(rnd.choice(game.legal_actions()))
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    fast = Sim(view, table_from_view(view), game._held)
    stepped = fast.clone()
    fast.play_out()
    while stepped.tricks_done < 13:
        stepped.seat = stepped.to_act
        stepped.hand = stepped.hands[stepped.seat]
        stepped.legal = stepped.legal_card_mask()
        stepped.play(normal_play(stepped)[0])
    for field in ("won", "voids", "spades_left", "played", "broken", "leader", "hands", "trick"):
        assert getattr(fast, field) == getattr(stepped, field), field
    assert fast.tricks_done == stepped.tricks_done == 13
    assert fast.hands == [0, 0, 0, 0]


def test_the_hard_bot_values_the_last_hand_of_a_limited_game_as_the_match() -> None:
    """The same hand played out with and without a one-hand limit: on the
    last hand of the limited game the team ahead wins the match, and the
    play-out's value counts it (it used to ask only the target and floor)."""
    sims = {}
    for limit in (1, None):
        game = sc.new_game("classic", seed=9, max_hands=limit).deal()
        while game.phase is sc.Phase.BID:
            game = game.apply(game.legal_actions()[0])
        view = game.view(game.to_act)  # type: ignore[arg-type]
        sim = Sim(view, table_from_view(view), game._held)
        while game.phase is sc.Phase.PLAY:
            card = game.legal_actions()[0]
            game = game.apply(card)
            sim.play(card.card.id)  # type: ignore[union-attr]
        sims[limit] = sim, game
    limited, unlimited = sims[1][1], sims[None][1]
    assert limited.is_over
    assert not unlimited.is_over
    assert limited.hand_results == unlimited.hand_results
    winner = limited.winner
    assert winner is not None
    for team in (0, 1):
        bonus = GAME_VALUE if team == int(winner) else -GAME_VALUE
        assert hand_value(sims[1][0], team) == hand_value(sims[None][0], team) + bonus


# -- each rule written once ------------------------------------------------------------

SOURCES = sorted(
    path
    for package in ("spades_core", "spades_variants")
    for path in (Path(__file__).resolve().parents[1] / "src" / package).rglob("*.py")
)


def written_at(pattern: str) -> list[str]:
    """Where an expression matching ``pattern`` is written in the sources
    (docstrings and comments aside): ``file:function`` (``file:`` for the
    module level)."""
    found = set()
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scopes: list[tuple[ast.AST, str]] = [(tree, "")]
        while scopes:
            node, scope = scopes.pop()
            for child in ast.iter_child_nodes(node):
                inner = child.name if isinstance(child, ast.FunctionDef) else scope
                if isinstance(child, ast.expr) and re.fullmatch(pattern, ast.unparse(child)):
                    found.add(f"{path.name}:{inner}")
                scopes.append((child, inner))
    return sorted(found)


def test_the_seat_left_of_the_dealer_is_written_once() -> None:
    """Only ``tricks.LEFT_OF`` says which seat is left of another; nothing
    works out ``dealer + 1`` again."""
    assert written_at(r"\(1, 2, 3, 0\)") == ["tricks.py:"]
    assert written_at(r"\(?[\w.\[\]]*dealer[\w.\[\]]* \+ 1\)? (%|&) [43]") == []
    assert [LEFT_OF[(seat - 1) % 4] for seat in range(4)] == [0, 1, 2, 3]


def test_the_largest_seed_is_written_once() -> None:
    # checks.py owns it (MAX_SEED); rng.py names the same number as the 64-bit
    # mask of its arithmetic.
    assert written_at(r"\(1 << 64\) - 1|2 \*\* 64 - 1") == ["checks.py:", "rng.py:"]


def test_the_price_of_a_bag_is_written_once() -> None:
    assert written_at(r".*penalty / [\w.]*limit") == ["scoring.py:bag_cost"]


def test_the_observation_layout_is_declared_once() -> None:
    assert written_at(r"\(\('phase', .*") == ["observation.py:"]
