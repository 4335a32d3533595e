"""batch.Tables: many tables stepped at once equal the engine step by step."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import spades_core as sc
from spades_core.batch import OBSERVATION_SECTIONS, OBSERVATION_SIZE, Tables
from spades_core.engine.encoding import ACTIONS
from spades_core.envs import features

pytestmark = pytest.mark.integration("batch")


def _starts() -> dict[str, int]:
    starts, position = {}, 0
    for name, shape in OBSERVATION_SECTIONS:
        starts[name] = position
        position += math.prod(shape)
    return starts


AT = _starts()
PHASES = {sc.Phase.DEAL: 0, sc.Phase.BID: 1, sc.Phase.PLAY: 2, sc.Phase.GAME_OVER: 3}


def observation_from_view(view: Any) -> npt.NDArray[np.float32]:
    """The documented observation layout, built from a seat's view alone."""
    seat = int(view.seat)
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)

    def relative(other: int) -> int:
        return (other - seat) % 4

    obs[AT["phase"] + PHASES[view.phase]] = 1
    for card in view.hand():
        obs[AT["hand"] + card.id] = 1
    for other in sc.Seat:
        k = relative(int(other))
        bid = view.bids[other]
        obs[AT["bids"] + 15 * k + (0 if bid is None else bid + 1)] = 1
        obs[AT["won"] + 14 * k + view.tricks_won[other]] = 1
        for suit in view.shown_out[other]:
            obs[AT["shown_out"] + 4 * k + int(suit)] = 1
        count = view.spade_counts[other]
        obs[AT["spade_count"] + 15 * k + (0 if count is None else count + 1)] = 1
    for other, card in view.current_trick:
        obs[AT["trick"] + 52 * relative(int(other)) + card.id] = 1
        obs[AT["played"] + 52 * relative(int(other)) + card.id] = 1
    for trick in view.tricks:
        for other, card in trick.plays:
            obs[AT["played"] + 52 * relative(int(other)) + card.id] = 1
    if view.leader is not None:
        obs[AT["leader"] + relative(int(view.leader))] = 1
    obs[AT["to_act"] + relative(int(view.to_act))] = 1
    obs[AT["dealer"] + relative(int(view.dealer))] = 1
    obs[AT["spades_broken"]] = view.spades_broken
    own = seat % 2
    scores = list(view.scores.values())
    bags = list(view.bags.values())
    limit = view.rules.bag_limit or 10
    target = view.rules.target_score
    obs[AT["scores"]] = min(2.0, max(-2.0, scores[own] / target))
    obs[AT["scores"] + 1] = min(2.0, max(-2.0, scores[1 - own] / target))
    obs[AT["bags"]] = min(2.0, bags[own] / limit)
    obs[AT["bags"] + 1] = min(2.0, bags[1 - own] / limit)
    return obs


def run_against_engine(variant: str, episode: str, tables: int, steps: int, **options: Any) -> int:
    """Steps ``Tables`` and one engine game per table with the same random
    actions, checking every step; returns the episodes finished."""
    batch = Tables(variant, tables, seed=900, episode=episode, **options)
    next_seed = 900 + tables
    games = [sc.new_game(variant, seed=900 + i, **options).deal() for i in range(tables)]
    rng = np.random.default_rng(4)
    finished = 0
    for step in range(steps):
        mask = batch.legal_mask()
        observed = batch.observe()
        other_seats = rng.integers(0, 4, tables)
        observed_other = batch.observe(other_seats)
        for i, game in enumerate(games):
            assert tuple(mask[i]) == game.legal_mask(), (i, step)
            assert batch.to_act[i] == int(game.to_act)  # type: ignore[arg-type]
            seat = game.to_act
            assert seat is not None
            np.testing.assert_array_equal(observed[i], observation_from_view(game.view(seat)))
            other = sc.Seat(int(other_seats[i]))
            np.testing.assert_array_equal(
                observed_other[i], observation_from_view(game.view(other))
            )
        actions = batch.random_actions(rng)
        rewards, done = batch.step(actions)
        for i in range(tables):
            game = games[i].apply(ACTIONS[actions[i]])
            if game.phase in (sc.Phase.DEAL, sc.Phase.GAME_OVER):
                assert tuple(rewards[i]) == tuple(game.hand_results[-1].points.values())
                if episode == "hand" or game.phase is sc.Phase.GAME_OVER:
                    assert done[i]
                    # The episode's end as any seat saw it, though the table has restarted.
                    seen = sc.Seat(int(other_seats[i]))
                    final = batch.final_observations(np.array([i]), seen)
                    np.testing.assert_array_equal(final[0], features.observation(game.view(seen)))
                    if episode == "game":
                        assert batch.winners[i] == int(game.winner)  # type: ignore[arg-type]
                    finished += 1
                    game = sc.new_game(variant, seed=next_seed, **options).deal()
                    next_seed += 1
                else:
                    assert not done[i]
                    game = game.deal()
            else:
                assert not done[i]
                assert tuple(rewards[i]) == (0, 0)
            games[i] = game
        assert batch.seeds.tolist() == [g.seed for g in games]
    return finished


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", {}),
        ("mirror", {"first_lead": "two_of_clubs"}),
        ("whiz", {"break_rule": "offsuit_spade", "whiz_nil_needs_no_ace": True}),
    ],
)
def test_hand_tables_equal_the_engine_step_by_step(variant: str, options: Any) -> None:
    assert run_against_engine(variant, "hand", tables=5, steps=240, **options) >= 15


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", {"target_score": 120, "loss_floor": -60}),
        ("mirror", {"target_score": 100, "bag_limit": 3, "bag_overflow": "reset"}),
    ],
)
def test_game_tables_equal_the_engine_step_by_step(variant: str, options: Any) -> None:
    assert run_against_engine(variant, "game", tables=3, steps=900, **options) >= 1


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    tables = Tables("classic", 4, seed=1)
    before = tables.observe().copy(), tables.legal_mask().copy()
    actions = tables.random_actions(0)
    actions[2] = 0  # a card id while bidding
    with pytest.raises(sc.IllegalActionError, match="table 2") as caught:
        tables.step(actions)
    assert caught.value.reason is sc.IllegalReason.WRONG_PHASE
    assert (tables.observe() == before[0]).all()
    assert (tables.legal_mask() == before[1]).all()
    with pytest.raises(sc.IllegalActionError, match="one per table"):
        tables.step([52])


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"n": 0}, "n must be"),
        ({"seed": -1}, "seed must be"),
        ({"episode": "match"}, "episode"),
        ({"nil_value": "lots"}, "nil_value"),
    ],
)
def test_bad_table_arguments_raise_rules_errors(kwargs: dict[str, Any], words: str) -> None:
    arguments: dict[str, Any] = {"variant": "mirror", "n": 2, **kwargs}
    with pytest.raises(sc.RulesError, match=words):
        Tables(**arguments)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"n": 2.0}, "n must be"),
        ({"n": True}, "n must be"),
        ({"seed": "1"}, "seed must be"),
        ({"episode": 1}, "episode"),
        ({"variant": None}, "variant must be"),
    ],
)
def test_table_arguments_of_the_wrong_type_raise_argument_type_errors(
    kwargs: dict[str, Any], words: str
) -> None:
    arguments: dict[str, Any] = {"variant": "mirror", "n": 2, **kwargs}
    with pytest.raises(sc.ArgumentTypeError, match=words):
        Tables(**arguments)


def test_observe_checks_its_seats() -> None:
    tables = Tables("whiz", 3)
    with pytest.raises(sc.RulesError, match="seat"):
        tables.observe(4)
    with pytest.raises(sc.RulesError, match="seats"):
        tables.observe([0, 1])
    with pytest.raises(sc.ArgumentTypeError, match="seats"):
        tables.observe([0.5, 1.5, 2.5])
    assert tables.observe(sc.Seat.SOUTH).shape == (3, OBSERVATION_SIZE)


class _RevealingCounts(sc.Variant):
    """A plugin: every seat bids the spades it holds, and its own hook (not a
    built-in one) says that every bid reveals the bidder's spade count."""

    def legal_bids(
        self, rules: sc.Rules, seat: sc.Seat, hand: sc.CardSet, bids: Any
    ) -> tuple[int, ...]:
        return (hand.count(sc.Suit.SPADES),)

    def revealed_spade_counts(self, rules: sc.Rules, bids: Any) -> dict[sc.Seat, int]:
        return dict(bids)


def test_a_plugin_reveal_hook_feeds_the_observation() -> None:
    variant = _RevealingCounts(
        id="revealing-counts", title="Counts", options={"break_rule": "any_spade"},
    )  # fmt: skip
    tables = Tables(variant, 3, seed=5)
    games = [sc.new_game(variant, seed=5 + i).deal() for i in range(3)]
    rng = np.random.default_rng(1)
    for _ in range(12):
        observed = tables.observe()
        for i, game in enumerate(games):
            seat = game.to_act
            assert seat is not None
            np.testing.assert_array_equal(observed[i], observation_from_view(game.view(seat)))
        actions = tables.random_actions(rng)
        tables.step(actions)
        games = [game.apply(ACTIONS[a]) for game, a in zip(games, actions, strict=True)]


def test_queued_seeds_are_where_tables_restart_and_the_others_take_the_next_unused() -> None:
    tables = Tables("classic", 3, seed=10)
    tables.queue_seeds(np.array([1]), np.array([2**64 - 1], dtype=np.uint64))
    for _ in range(56):
        _, done = tables.step(tables.random_actions(0))
    assert done.all()
    # Table 1 restarted from its queued seed; tables 0 and 2 from 13 and 14, in table order.
    assert tables.seeds.tolist() == [13, 2**64 - 1, 14]
    expected = sc.new_game("classic", seed=2**64 - 1).deal()
    assert int(tables.hands[1, 0]) == expected.view(sc.Seat.NORTH).hand().mask
    # A queued seed serves once: the next restart takes the next unused seed again.
    for _ in range(56):
        tables.step(tables.random_actions(0))
    assert tables.seeds.tolist() == [15, 16, 17]


def test_queue_seeds_refuses_bad_tables_and_seeds() -> None:
    tables = Tables("classic", 3)
    with pytest.raises(sc.RulesError, match="once"):
        tables.queue_seeds(np.array([1, 1]), np.array([5, 6]))
    with pytest.raises(sc.RulesError, match="table numbers are 0 to 2"):
        tables.queue_seeds(np.array([3]), np.array([5]))
    with pytest.raises(sc.ArgumentTypeError, match="queue_seeds needs"):
        tables.queue_seeds(np.array([0.5]), np.array([5]))
    for _ in range(56):
        tables.step(tables.random_actions(0))
    assert tables.seeds.tolist() == [3, 4, 5]


def test_final_observations_check_their_arguments_and_are_zero_before_any_end() -> None:
    tables = Tables("classic", 3)
    assert not tables.final_observations(np.array([0, 2]), 1).any()
    with pytest.raises(sc.RulesError, match="table numbers"):
        tables.final_observations(np.array([3]), 0)
    with pytest.raises(sc.ArgumentTypeError, match="tables"):
        tables.final_observations([0.5], 0)
    with pytest.raises(sc.RulesError, match="seat"):
        tables.final_observations(np.array([0]), 4)
    with pytest.raises(sc.RulesError, match="seats"):
        tables.final_observations(np.array([0, 1]), np.array([0]))


def test_random_actions_where_draws_only_at_the_tables_named() -> None:
    tables = Tables("mirror", 6, seed=2)
    where = np.array([True, False, True, False, False, True])
    for _ in range(30):
        chosen = tables.random_actions(7, where=where)
        assert (chosen[~where] == -1).all()
        mask = tables.legal_mask()
        assert mask[np.flatnonzero(where), chosen[where]].all()
        tables.step(tables.random_actions(8))
    with pytest.raises(sc.ArgumentTypeError, match="where"):
        tables.random_actions(7, where=[True])
