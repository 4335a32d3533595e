"""A game's results history: appending a hand shares what is there (O(1)
amortized) while every game stays unchanged, and the history reads,
compares, hashes and pickles like the tuple of its results."""

from __future__ import annotations

import pickle
import random

import attrs
import pytest

import spades_core as sc
from spades_core.engine import transitions
from spades_core.engine.playouts import playout
from spades_core.rules.results import HandResults, Trick, make_trick


def long_game(hands: int, seed: int = 3) -> sc.Game:
    """A Mirror game after ``hands`` random hands (Mirror has no loss floor)."""
    return playout(sc.new_game("mirror", seed=seed), random.Random(seed), hands=hands)


def test_each_game_keeps_its_own_history_while_later_games_share_the_storage() -> None:
    games = [sc.new_game("mirror", seed=3)]
    for _ in range(6):
        games.append(playout(games[-1], random.Random(len(games))))
    for number, game in enumerate(games):
        assert len(game.hand_results) == number
        assert [result.number for result in game.hand_results] == list(range(number))
    last = games[-1].hand_results
    assert all(game.hand_results._items is last._items for game in games[1:])
    assert all(game.hand_results == last[: len(game.hand_results)] for game in games)


def test_a_game_continued_two_ways_gets_two_separate_histories() -> None:
    start = long_game(4)
    one = playout(start, random.Random(1), hands=2)
    two = playout(start, random.Random(2), hands=2)
    assert len(start.hand_results) == 4
    assert len(one.hand_results) == len(two.hand_results) == 6
    assert one.hand_results[:4] == two.hand_results[:4] == tuple(start.hand_results)
    assert one.hand_results[4] != two.hand_results[4]
    # Both stay as they were when more hands are added to either.
    before_one, before_two = tuple(one.hand_results), tuple(two.hand_results)
    playout(one, random.Random(3), hands=2)
    playout(two, random.Random(4), hands=2)
    assert tuple(one.hand_results) == before_one
    assert tuple(two.hand_results) == before_two


def test_the_history_reads_like_a_tuple() -> None:
    game = long_game(5)
    history = game.hand_results
    as_tuple = tuple(history)
    assert len(as_tuple) == 5
    assert history == as_tuple
    assert as_tuple == history
    assert hash(history) == hash(as_tuple)
    assert history[-1] is as_tuple[-1]
    assert history[1:3] == as_tuple[1:3]
    assert history[::-2] == as_tuple[::-2]
    assert list(reversed(history)) == list(reversed(as_tuple))
    assert history.index(as_tuple[2]) == 2
    assert as_tuple[3] in history
    assert history.count(as_tuple[0]) == 1
    assert bool(history)
    assert not sc.new_game("classic").hand_results
    assert sc.new_game("classic").hand_results == ()
    with pytest.raises(IndexError):
        history[5]
    with pytest.raises(IndexError):
        history[-6]
    assert repr(history).startswith("HandResults([<HandResult 1")


def test_histories_of_different_lengths_or_results_differ() -> None:
    game = long_game(3)
    assert game.hand_results != long_game(2).hand_results
    assert game.hand_results != long_game(3, seed=4).hand_results
    assert game.hand_results != list(game.hand_results)


def test_games_with_equal_histories_are_equal_however_they_were_built() -> None:
    game = long_game(4)
    rebuilt = transitions.between_hands(
        game._standing.setup,
        game._standing.dealer,
        game._standing.scores,
        game._standing.bags,
        tuple(game.hand_results),
        None,
    )
    assert rebuilt.hand_results._items is not game.hand_results._items
    assert rebuilt == game
    assert hash(rebuilt) == hash(game)


def test_a_history_pickles_as_the_tuple_of_its_results() -> None:
    game = long_game(3)
    loaded = pickle.loads(pickle.dumps(game.hand_results))
    assert isinstance(loaded, HandResults)
    assert loaded == game.hand_results
    assert len(loaded._items) == 3


def test_records_of_long_games_round_trip() -> None:
    game = long_game(40)
    assert sc.loads(sc.dumps(game)) == game


def test_a_trick_record_built_by_the_engine_is_the_one_its_constructor_makes() -> None:
    game = playout(sc.new_game("classic", seed=11), random.Random(11))
    played = game.hand_results[-1].played
    for trick in played:
        ids = [card.id for card in trick.cards]
        built = make_trick(int(trick.leader), ids, int(trick.winner))
        assert type(built) is Trick
        assert built == Trick(trick.leader, trick.cards, trick.winner)
        assert hash(built) == hash(Trick(trick.leader, trick.cards, trick.winner))
        assert pickle.loads(pickle.dumps(built)) == built
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            built.winner = sc.Seat.NORTH  # type: ignore[misc]
    # The engine's own records of the hand are built the same way.
    assert all(type(trick) is Trick for trick in played)
