"""spades_core/Spades-v0 as a single environment: registration, Gymnasium's
check_env, seeding, what the learner sees, rewards equal to the engine's
scores, episodes, opponents of every kind, illegal actions, rendering and
bad arguments."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence

import spades_core as sc
from envs_support import example_plugin_installed
from spades_core.engine import encoding
from spades_core.engine.views import View
from spades_core.envs import features
from spades_core.envs import gymnasium as spades_gym
from spades_core.players import PlayerError
from spades_core.rules.scoring import bag_cost
from spades_core.simulation.work import score_without_penalty

pytestmark = pytest.mark.integration("gymnasium")


def play_episode(env: Any, seed: int | None, rng: random.Random) -> tuple[list[Any], float]:
    """One episode of random legal actions: every step's result, and the return."""
    observation, info = env.reset(seed=seed)
    record: list[Any] = [(observation, info)]
    total = 0.0
    while True:
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        observation, reward, terminated, truncated, info = env.step(action)
        record.append((observation, reward, terminated, truncated, info))
        total += reward
        assert truncated is False
        if terminated:
            return record, total


@pytest.fixture
def suicide(tmp_path: Path) -> Iterator[str]:
    """The example plugin (Suicide Spades), installed for the test."""
    with example_plugin_installed(tmp_path / "site"):
        yield "suicide"


def test_importing_the_module_registers_the_environment_both_ways() -> None:
    gymnasium.register_envs(spades_gym)
    assert spades_gym.ENV_ID in gymnasium.registry
    env = gymnasium.make("spades_core/Spades-v0", variant="mirror")
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, spades_gym.SpadesEnv)
    assert unwrapped.variant.id == "mirror"
    named = gymnasium.make("spades_core.envs.gymnasium:spades_core/Spades-v0", variant="whiz")
    assert isinstance(named.unwrapped, spades_gym.SpadesEnv)
    assert named.unwrapped.variant.id == "whiz"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"variant": "classic"},
        {"variant": "mirror", "seat": "NS", "reward": "adjusted"},
        {"variant": "whiz", "episode": "game", "reward": "win", "target_score": 100},
    ],
)
def test_gymnasiums_check_env_passes(kwargs: dict[str, Any]) -> None:
    # check_env steps with actions drawn from the whole action space, most of
    # them illegal: the default, illegal="penalize", answers those.
    env = gymnasium.make("spades_core/Spades-v0", render_mode="ansi", **kwargs)
    check_env(env.unwrapped)


def test_check_env_passes_on_the_default_configuration() -> None:
    env: Any = gymnasium.make("spades_core/Spades-v0").unwrapped
    check_env(env)
    # The checker's illegal samples were penalized: an illegal id pays -1, changes nothing.
    observation, info = env.reset(seed=5)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, terminated, truncated, after = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, False, False)
    assert np.array_equal(again, observation)
    assert np.array_equal(after["action_mask"], info["action_mask"])


def test_the_plugin_variant_passes_check_env_and_plays(suicide: str) -> None:
    env: Any = gymnasium.make("spades_core/Spades-v0", variant=suicide)
    check_env(env.unwrapped)
    record, _ = play_episode(env.unwrapped, 5, random.Random(5))
    game = env.unwrapped.game
    bids = game.hand_results[-1].bids
    assert (bids[sc.Seat.NORTH] == 0) != (bids[sc.Seat.SOUTH] == 0)
    assert len(record) == 15  # a bid and 13 cards


def test_the_observation_is_the_learners_view_and_the_mask_its_legal_ids() -> None:
    env = spades_gym.SpadesEnv("classic", seat="EW", opponents="normal")
    observation, info = env.reset(seed=44)
    rng = random.Random(2)
    for _ in range(40):
        game = env.game
        assert game is not None
        seat = game.to_act
        assert seat in (sc.Seat.EAST, sc.Seat.WEST)
        np.testing.assert_array_equal(observation, features.observation(game.view(seat)))
        assert observation in env.observation_space
        assert info["action_mask"].dtype == np.int8
        assert np.flatnonzero(info["action_mask"]).tolist() == list(encoding.legal_ids(game))
        np.testing.assert_array_equal(env.action_masks(), np.array(game.legal_mask()))
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        observation, _, terminated, _, info = env.step(action)
        if terminated:
            # The finished game as the learner's first seat sees it, and no legal id.
            finished = env.game
            assert finished is not None
            assert finished.to_act is None
            view = finished.view(sc.Seat.EAST)
            np.testing.assert_array_equal(observation, features.observation(view))
            assert observation in env.observation_space
            assert not info["action_mask"].any()
            assert not env.action_masks().any()
            observation, info = env.reset()


def test_a_seeded_reset_plays_the_engines_game_of_that_seed() -> None:
    env = spades_gym.SpadesEnv("whiz", opponents="easy", nil_value=50)
    _, info = env.reset(seed=1234)
    assert int(info["seed"]) == 1234
    game = env.game
    assert game is not None
    dealt = sc.new_game("whiz", seed=1234, nil_value=50).deal()
    assert [game.dealt_hand(seat) for seat in sc.Seat] == [dealt.dealt_hand(s) for s in sc.Seat]
    assert game.rules == dealt.rules


def test_two_runs_with_one_seed_give_identical_trajectories() -> None:
    def run() -> list[Any]:
        env = spades_gym.SpadesEnv("classic", opponents="hard:steps=60:bid_steps=60")
        rng = random.Random(9)
        first, _ = play_episode(env, 77, rng)
        second, _ = play_episode(env, None, rng)
        return [first, second]

    one, two = run(), run()
    assert data_equivalence(one, two, exact=True)
    # The second episode is another game: its seed is derived, not repeated.
    assert int(one[0][0][1]["seed"]) == 77
    assert int(one[1][0][1]["seed"]) != 77


def test_points_margin_and_adjusted_rewards_are_the_engines_hand_scores() -> None:
    options: dict[str, Any] = {"bag_limit": 4, "bag_penalty": 60}
    for reward in ("points", "margin", "adjusted"):
        env = spades_gym.SpadesEnv("classic", seat="W", reward=reward, **options)
        for seed in range(6):
            _, total = play_episode(env, seed, random.Random(seed))
            game = env.game
            assert game is not None
            result = game.hand_results[-1]
            own, other = sc.Team.EW, sc.Team.NS
            if reward == "points":
                expected = float(result.points[own])
            elif reward == "margin":
                expected = float(result.points[own] - result.points[other])
            else:
                base, taken = score_without_penalty(
                    game.variant, game.rules, result.bids, result.tricks
                )
                cost = bag_cost(4, 60)
                expected = (base[own] - cost * taken[own]) - (base[other] - cost * taken[other])
            assert total == pytest.approx(expected)


def test_a_game_episode_pays_every_hand_and_wins_at_the_end() -> None:
    env = spades_gym.SpadesEnv(
        "classic", episode="game", reward="points", target_score=150, loss_floor=-150
    )
    _, total = play_episode(env, 3, random.Random(3))
    game = env.game
    assert game is not None
    assert game.is_over
    assert len(game.hand_results) > 1
    assert total == game.scores[sc.Team.NS]
    winner = spades_gym.SpadesEnv(
        "classic", episode="game", reward="win", target_score=150, loss_floor=-150
    )
    record, total = play_episode(winner, 3, random.Random(3))
    assert {step[1] for step in record[1:-1]} == {0.0}
    assert winner.game is not None
    assert total == (1.0 if winner.game.winner is sc.Team.NS else -1.0)


def test_opponents_of_every_kind_sit_at_the_other_seats() -> None:
    seen: list[sc.Seat] = []

    def lowest(view: View) -> int:
        assert view.seat is not None
        seen.append(view.seat)
        return min(encoding.action_id(action) for action in view.legal_actions())

    class Highest:
        def choose(self, view: View) -> sc.Action:
            return max(view.legal_actions(), key=encoding.action_id)

    env = spades_gym.SpadesEnv(
        "mirror", seat="S", opponents=[sc.bots.make("easy", seed=1), lowest, None, Highest()]
    )
    play_episode(env, 11, random.Random(0))
    # The callable sits at East alone and makes East's 14 decisions (a bid, 13 cards).
    assert seen == [sc.Seat.EAST] * 14


def test_an_illegal_action_raises_the_engines_reason_and_changes_nothing() -> None:
    env = spades_gym.SpadesEnv("classic", opponents="easy", illegal="raise")
    _observation, info = env.reset(seed=2)
    before = env.game
    with pytest.raises(sc.IllegalActionError) as raised:
        env.step(0)  # a card while bidding
    assert raised.value.reason is sc.IllegalReason.WRONG_PHASE
    for outside in (-1, 66, 1.5, "52", None, np.array([52])):
        with pytest.raises(sc.IllegalActionError) as refused:
            env.step(outside)  # type: ignore[arg-type]
        assert refused.value.reason is sc.IllegalReason.NOT_AN_ACTION
    assert env.game is before
    bid = int(np.flatnonzero(info["action_mask"])[0])
    env.step(np.int64(bid))
    while env.game is not None and env.game.phase is sc.Phase.BID:
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    game = env.game
    assert game is not None
    illegal = [card for card in range(52) if not env.action_masks()[card]]
    if illegal:
        with pytest.raises(sc.IllegalActionError) as raised:
            env.step(illegal[0])
        assert raised.value.reason is not sc.IllegalReason.NOT_AN_ACTION
        assert env.game is game


def test_penalize_pays_the_penalty_and_asks_again() -> None:
    env = spades_gym.SpadesEnv("classic", illegal="penalize", illegal_reward=-3.5)
    observation, info = env.reset(seed=8)
    game = env.game
    again, reward, terminated, truncated, again_info = env.step(0)
    assert (reward, terminated, truncated) == (-3.5, False, False)
    assert env.game is game
    assert np.array_equal(again, observation)
    assert np.array_equal(again_info["action_mask"], info["action_mask"])


def test_stepping_a_finished_episode_is_refused() -> None:
    env = spades_gym.SpadesEnv("mirror")
    with pytest.raises(sc.IllegalActionError, match="reset"):
        env.step(52)
    play_episode(env, 1, random.Random(1))
    with pytest.raises(sc.IllegalActionError, match="reset"):
        env.step(52)


def test_render_shows_the_table_from_the_learners_seat() -> None:
    env = spades_gym.SpadesEnv("classic", seat="E", render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert text is not None
    assert "East (learner)" in text
    assert "East's hand:" in text
    play_episode(env, None, random.Random(4))
    finished = env.render()
    assert finished is not None
    assert "East's hand:" not in finished
    quiet = spades_gym.SpadesEnv("classic")
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"opponents": "no-such-player"}, PlayerError, "no-such-player"),
        ({"opponents": "hard:stepz=3"}, PlayerError, "stepz"),
        ({"opponents": 7}, sc.ArgumentTypeError, "opponent"),
        ({"opponents": None}, sc.ArgumentTypeError, "opponents"),
        ({"opponents": ["easy", "easy"]}, sc.RulesError, "four"),
        ({"opponents": ["easy", None, "easy", "easy"]}, sc.RulesError, "learner's seat"),
        ({"reward": 1}, sc.ArgumentTypeError, "reward"),
        ({"reward": "win"}, sc.RulesError, "episode='game'"),
        ({"episode": "hands"}, sc.RulesError, "episode"),
        ({"illegal": "skip"}, sc.RulesError, "illegal"),
        ({"illegal_reward": True}, sc.ArgumentTypeError, "number"),
        ({"seat": "middle"}, sc.InvalidNotationError, "seat"),
        ({"seat": None}, sc.ArgumentTypeError, "seat"),
        ({"variant": 3}, sc.ArgumentTypeError, "variant"),
        ({"variant": "no-such-variant"}, sc.VariantNotFoundError, "no-such-variant"),
        ({"no_such_option": 1}, sc.RulesError, "no_such_option"),
        ({"render_mode": "human"}, sc.RulesError, "render_mode"),
    ],
)
def test_bad_arguments_raise_specific_errors(
    kwargs: dict[str, Any], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        spades_gym.SpadesEnv(**kwargs)


def test_bad_seeds_and_options_raise_specific_errors() -> None:
    env = spades_gym.SpadesEnv()
    with pytest.raises(sc.RulesError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(sc.RulesError, match="seed"):
        env.reset(seed=2**64)
    with pytest.raises(sc.ArgumentTypeError, match="seed"):
        env.reset(seed=1.0)  # type: ignore[arg-type]
    with pytest.raises(sc.RulesError, match="options"):
        env.reset(seed=1, options={"target_score": 100})
