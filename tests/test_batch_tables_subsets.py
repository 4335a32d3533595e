"""batch.Tables for environments: stepping some tables only (step(where=)),
batch policies asked for the tables that act (choose), tables restarted
from given seeds (restart), and the last hand each table scored."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import spades_core as sc
from spades_core import batch
from spades_core.batch import Tables

pytestmark = pytest.mark.integration("batch")

PUBLIC = ("hands", "bids", "phase", "to_act", "leader", "trick", "trick_size", "won", "played")


def state(tables: Tables) -> dict[str, Any]:
    """The tables' public arrays, copied."""
    return {name: getattr(tables, name).copy() for name in PUBLIC} | {
        "mask": tables.legal_mask(),
        "observation": tables.observe(),
    }


def assert_same(left: dict[str, Any], right: dict[str, Any], rows: Any = slice(None)) -> None:
    for name, value in left.items():
        np.testing.assert_array_equal(value[rows], right[name][rows], err_msg=name)


def test_step_where_moves_only_the_chosen_tables() -> None:
    whole = Tables("classic", 6, seed=50)
    halves = Tables("classic", 6, seed=50)
    rng = np.random.default_rng(1)
    chosen = np.array([True, False, True, False, False, True])
    for _ in range(30):
        actions = whole.random_actions(rng)
        before = state(halves)
        halves.step(actions, where=chosen)
        # The others wait unchanged, whatever their entries of actions.
        assert_same(before, state(halves), ~chosen)
        halves.step(np.where(chosen, -7, actions), where=~chosen)
        whole.step(actions)
        assert_same(state(whole), state(halves))


def test_step_where_checks_only_the_tables_that_act() -> None:
    tables = Tables("mirror", 3, seed=5)
    actions = tables.random_actions(0)
    illegal = actions.copy()
    illegal[2] = 0  # a card while bidding
    tables.step(illegal, where=np.array([True, True, False]))
    with pytest.raises(sc.IllegalActionError, match="table 2"):
        tables.step(illegal, where=np.array([False, False, True]))
    for where in ([1, 0, 1], np.ones(2, dtype=np.bool_), np.ones(3, dtype=np.int8)):
        with pytest.raises(sc.ArgumentTypeError, match="where"):
            tables.step(actions, where=where)


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
@pytest.mark.parametrize("policy", ["easy", "lowest", ["easy", "lowest", "lowest", "easy"]])
def test_choose_plays_the_hands_play_hands_plays(variant: str, policy: Any) -> None:
    count = 40
    tables = Tables(variant, count, seed=700)
    points = np.zeros((count, 2), dtype=np.int64)
    for _ in range(56):
        rewards, done = tables.step(tables.choose(policy))
        points += rewards
    assert done.all()
    assert tables.scored.all()
    expected = batch.play_hands(variant, range(700, 700 + count), policy=policy)
    np.testing.assert_array_equal(tables.scored_bids, expected.bids)
    np.testing.assert_array_equal(tables.scored_tricks, expected.tricks)
    np.testing.assert_array_equal(points, expected.points)


def test_choose_asks_only_the_tables_named_and_checks_a_policy_function() -> None:
    tables = Tables("classic", 4, seed=9)
    where = np.array([True, False, True, False])
    chosen = tables.choose("lowest", where=where)
    assert chosen[1] == chosen[3] == -1
    mask = tables.legal_mask()
    assert mask[[0, 2], chosen[[0, 2]]].all()
    asked: list[int] = []

    def nil_always(decision: batch.Decision) -> npt.NDArray[np.intp]:
        asked.append(len(decision))
        return np.full(len(decision), 52, dtype=np.intp)

    tables.step(tables.choose(nil_always))
    assert asked == [4]
    tables.step(tables.choose("lowest"))  # every seat bid, now the cards
    for _ in range(2):
        tables.step(tables.choose("lowest"))
    with pytest.raises(sc.IllegalActionError, match="row 0"):
        tables.choose(nil_always)  # a bid while playing


def test_restart_deals_the_engines_games_of_the_given_seeds() -> None:
    tables = Tables("whiz", 5, seed=0, episode="game")
    for _ in range(7):
        tables.step(tables.random_actions(3))
    tables.restart(np.array([4, 1]), np.array([2**64 - 1, 123], dtype=np.uint64))
    for row, seed in ((4, 2**64 - 1), (1, 123)):
        fresh = Tables("whiz", 1, seed=seed, episode="game")
        assert int(tables.seeds[row]) == seed
        assert int(tables.hand_number[row]) == 0
        np.testing.assert_array_equal(tables.scores[row], [0, 0])
        assert_same({name: value[[row]] for name, value in state(tables).items()}, state(fresh))
        game = sc.new_game("whiz", seed=seed).deal()
        assert [int(tables.hands[row, int(s)]) for s in sc.Seat] == [
            game.hand(s).mask for s in sc.Seat
        ]


@pytest.mark.parametrize(
    ("tables", "seeds", "error"),
    [
        ([0, 5], [1, 2], sc.RulesError),
        ([0, 0], [1, 2], sc.RulesError),
        ([0], [-1], sc.RulesError),
        ([0, 1], [1], sc.ArgumentTypeError),
        ([0.0], [1], sc.ArgumentTypeError),
        ([0], [1.5], sc.ArgumentTypeError),
    ],
)
def test_restart_refuses_bad_tables_and_seeds(tables: Any, seeds: Any, error: type) -> None:
    batch_tables = Tables("classic", 5, seed=0)
    before = state(batch_tables)
    with pytest.raises(error):
        batch_tables.restart(np.array(tables), np.array(seeds))
    assert_same(before, state(batch_tables))


def test_scored_is_set_only_by_the_step_that_scores_a_hand() -> None:
    tables = Tables("mirror", 3, seed=2, episode="game", target_score=100)
    for step in range(56):
        tables.step(tables.choose("easy"))
        assert tables.scored.all() == (step == 55)
        assert not tables.scored.any() or step == 55
    assert (tables.scored_bids >= 0).all()
    assert (tables.scored_tricks.sum(axis=1) == 13).all()
    tables.step(tables.choose("easy"))
    assert not tables.scored.any()
