"""Every variant as a PettingZoo AEC environment: PettingZoo's API and seed
tests, whole random games that score as the engine does, rewards, episode
ends, rendering and bad arguments."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import spades_core as sc
from envs_support import VARIANTS, example_plugin_installed
from spades_core.cli import render
from spades_core.engine import encoding
from spades_core.envs import _episode, features
from spades_core.envs import pettingzoo as pz

pytestmark = pytest.mark.integration("pettingzoo")

# PettingZoo's api_test gives advice that does not fit a card table: a Dict
# observation (the action mask rides along), agents named after their seats.
API_ADVICE = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:We recommend agents to be named:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


@pytest.fixture(params=VARIANTS)
def variant_id(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each built-in variant and the example plugin's."""
    if request.param == "suicide":
        with example_plugin_installed(tmp_path / "site"):
            yield request.param
    else:
        yield request.param


@pytest.mark.filterwarnings(*API_ADVICE)
def test_pettingzoo_api_test(variant_id: str) -> None:
    api_test(pz.env(variant=variant_id, target_score=200), num_cycles=150)


def test_pettingzoo_seed_test(variant_id: str) -> None:
    seed_test(lambda: pz.env(variant=variant_id), num_cycles=150)


def masked_random_game(table: Any, rng: random.Random) -> tuple[list[int], dict[str, float]]:
    """Play an episode choosing uniformly among the masked actions; the actions
    taken and each agent's total reward."""
    actions: list[int] = []
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, _ = table.last()
        totals[agent] += reward
        if termination or truncation:
            table.step(None)
            continue
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        actions.append(action)
        table.step(action)
    return actions, totals


def test_random_whole_games_score_as_the_engine(variant_id: str) -> None:
    rng = random.Random(variant_id)
    table = pz.env(variant=variant_id, target_score=150, loss_floor=-150)
    for episode in range(2):
        table.reset(seed=episode)
        seed = table.unwrapped.game.seed
        actions, totals = masked_random_game(table, rng)
        finished = table.unwrapped.game
        assert finished.is_over
        # The same actions through the engine alone.
        game = sc.new_game(variant_id, seed=seed, target_score=150, loss_floor=-150).deal()
        for action in actions:
            if game.phase is sc.Phase.DEAL:
                game = game.deal()
            game = game.apply(encoding.action_from_id(game, action))
        assert game.is_over
        assert game == finished
        for agent, seat in zip(pz.AGENTS, sc.Seat, strict=True):
            assert totals[agent] == game.scores[seat.team]


def test_one_hand_episodes_reward_the_hands_points() -> None:
    table = pz.env(variant="mirror", hands=1)
    table.reset(seed=3)
    _, totals = masked_random_game(table, random.Random(3))
    game = table.unwrapped.game
    assert len(game.hand_results) == 1
    points = game.hand_results[0].points
    assert totals == {
        agent: float(points[seat.team]) for agent, seat in zip(pz.AGENTS, sc.Seat, strict=True)
    }
    assert all(table.terminations.values())
    assert not any(table.truncations.values())


def test_an_undecided_whole_game_is_truncated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_episode, "WHOLE_GAME_HAND_LIMIT", 2)
    table = pz.env(variant="classic", target_score=5000, loss_floor=None)
    table.reset(seed=1)
    masked_random_game(table, random.Random(1))
    assert len(table.unwrapped.game.hand_results) == 2
    assert all(table.truncations.values())
    assert not any(table.terminations.values())


def test_observations_are_the_views_features_and_only_the_actor_has_a_mask() -> None:
    table = pz.raw_env(variant="whiz")
    table.reset(seed=11)
    game = table.game
    for agent, seat in zip(pz.AGENTS, sc.Seat, strict=True):
        observation = table.observe(agent)
        assert np.array_equal(observation["observation"], features.observation(game.view(seat)))
        space = table.observation_space(agent)
        assert isinstance(space, gymnasium.spaces.Dict)
        assert observation["observation"] in space["observation"]
        mask = observation["action_mask"]
        if seat == game.to_act:
            assert mask.tolist() == [int(flag) for flag in game.legal_mask()]
        else:
            assert not mask.any()


def test_seeds_make_every_later_episode_reproducible() -> None:
    first, second = pz.env(variant="classic"), pz.env(variant="classic")
    first.reset(seed=99)
    second.reset(seed=99)
    hands = []
    for table in (first, second):
        table.reset()
        hands.append(table.unwrapped.game.hand(sc.Seat.NORTH))
    assert hands[0] == hands[1]
    first.reset(seed=100)
    assert first.unwrapped.game.hand(sc.Seat.NORTH) != hands[0]


def test_ansi_rendering_draws_the_table_as_the_terminal_game() -> None:
    table = pz.env(variant="mirror", render_mode="ansi")
    table.reset(seed=4)
    game = table.unwrapped.game
    seat = game.to_act
    text = table.render()
    plain = render.Style(colour=False)
    view = game.view(seat)
    assert text.splitlines()[0] == render.table_lines(view, plain)[0]
    assert f"{render.seat_name(seat)} (to act)" in text
    assert "◀ to bid" in text
    for line in render.hand_lines(view.hand(), plain):
        assert line in text
    assert "\x1b[" not in text


def test_rendering_without_a_mode_warns_and_returns_nothing() -> None:
    table = pz.raw_env(variant="classic")
    table.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert table.render() is None


def test_the_end_of_an_episode_renders_the_hands_result() -> None:
    table = pz.env(variant="classic", hands=1, render_mode="ansi")
    table.reset(seed=8)
    masked_random_game(table, random.Random(8))
    text = table.render()
    plain = render.Style(colour=False)
    lines = render.result_lines(table.unwrapped.game, plain, 0)
    assert len(lines) > 7
    for line in lines:
        assert line in text


@pytest.mark.parametrize(
    ("arguments", "error", "words"),
    [
        ({"variant": "nosuch"}, sc.VariantNotFoundError, "nosuch"),
        ({"target_score": 0}, sc.RulesError, "target_score"),
        ({"variant": "mirror", "max_team_bid": 5}, sc.RulesError, "max_team_bid"),
        ({"render_mode": "human"}, sc.RulesError, "render_mode"),
        ({"hands": -2}, sc.RulesError, "hands"),
    ],
)
def test_bad_arguments_raise_specific_errors(
    arguments: dict[str, Any], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        pz.env(**arguments)


def test_the_raw_environment_refuses_an_illegal_action_and_changes_nothing() -> None:
    table = pz.raw_env(variant="classic")
    table.reset(seed=2)
    before = table.game
    with pytest.raises(sc.IllegalActionError):
        table.step(0)  # a card while bidding
    assert table.game is before
    with pytest.raises(sc.IllegalActionError):
        table.step("3")  # type: ignore[arg-type]
    assert table.game is before
    bidder = before.to_act
    assert bidder is not None
    table.step(np.int64(encoding.BID_ID_BASE + 3))
    assert table.game.bids[bidder] == 3
    with pytest.raises(sc.RulesError, match="no agent"):
        table.observe("nobody")
    with pytest.raises(sc.RulesError, match="seed"):
        table.reset(seed="7")  # type: ignore[arg-type]


def test_the_standard_wrappers_end_the_episode_on_an_illegal_action(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = pz.env(variant="classic")
    table.reset(seed=2)
    offender = table.agent_selection
    table.step(0)  # a card while bidding
    assert "Illegal move" in caplog.text
    assert all(table.terminations.values())
    assert table.rewards[offender] == -1
