"""The wrappers' shortcuts answer as the paths they skip: OpenSpiel's C++
State for ``legal_actions`` and ``is_chance_node``, the checked engine for a
step by action id, PettingZoo's standard wrappers for the table's bookkeeping."""

from __future__ import annotations

import pickle
import random

import pyspiel
import pytest
from pettingzoo.utils import wrappers

from spades_core.encoding import ACTIONS, ids_of_bits, legal_ids
from spades_core.envs import openspiel
from spades_core.envs import pettingzoo as pz
from spades_core.errors import IllegalActionError, IllegalReason

pytestmark = [pytest.mark.integration("openspiel"), pytest.mark.integration("pettingzoo")]


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_openspiel_queries_answer_as_the_cpp_state(variant: str) -> None:
    openspiel.register()
    game = pyspiel.load_game("spades_core", {"variant": variant, "hands": 2})
    rng = random.Random(3)
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            for player in (0, 1, 2, 3, state.current_player()):
                assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
            if state.is_terminal():
                break
            if state.is_chance_node():
                assert [card for card, _ in state.chance_outcomes()] == state.legal_actions()
            state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_steps_by_id_reach_the_checked_engines_games() -> None:
    openspiel.register()
    game = pyspiel.load_game("spades_core", {"variant": "whiz", "hands": 3})
    rng = random.Random(8)
    state = game.new_initial_state()
    while not state.is_terminal():
        before = state.game
        action = rng.choice(state.legal_actions())
        chance = state.is_chance_node()
        state.apply_action(action)
        if not chance:
            assert state.game == before.apply(ACTIONS[action])


def test_openspiel_refuses_an_illegal_id_with_the_engines_error() -> None:
    openspiel.register()
    state = pyspiel.load_game("spades_core", {"variant": "classic"}).new_initial_state()
    for card in range(52):
        state.apply_action(card)
    with pytest.raises(IllegalActionError) as caught:
        state.apply_action(0)  # a card id while bidding
    assert caught.value.reason is IllegalReason.WRONG_PHASE


def test_slice_tables_list_set_bits() -> None:
    rng = random.Random(4)
    for _ in range(2000):
        bits = rng.getrandbits(66)
        assert ids_of_bits(bits) == tuple(i for i in range(66) if bits >> i & 1)


def test_the_wrapped_table_is_pettingzoos_standard_stack() -> None:
    table = pz.env("classic")
    assert isinstance(table, wrappers.OrderEnforcingWrapper)
    assert isinstance(table.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(table.env.env, wrappers.TerminateIllegalWrapper)
    with pytest.raises(AttributeError, match="before reset"):
        table.agent_selection  # noqa: B018
    table.reset(seed=1)
    raw = table.unwrapped
    for name in ("agent_selection", "agents", "terminations", "truncations", "rewards", "infos"):
        assert getattr(table, name) is getattr(raw, name)
        assert getattr(table.env, name) is getattr(raw, name)


@pytest.mark.parametrize(
    ("card", "refusal"),
    [
        (7, "9C has been dealt already"),
        (52, "not a chance outcome"),
        (-1, "not a chance outcome"),
        (True, "not a chance outcome"),
        (7.0, "not a chance outcome"),
    ],
)
def test_openspiel_refuses_a_card_not_left_to_deal_and_changes_nothing(
    card: object, refusal: str
) -> None:
    openspiel.register()
    state = pyspiel.load_game("spades_core", {"variant": "mirror"}).new_initial_state()
    state.apply_action(7)
    before = (state.dealing, state.chance_outcomes(), state.legal_actions())
    with pytest.raises(IllegalActionError, match=refusal):
        state._apply_action(card)
    assert (state.dealing, state.chance_outcomes(), state.legal_actions()) == before
    assert 7 not in state.legal_actions()
    assert len(state.chance_outcomes()) == 51


def test_pettingzoo_masks_are_new_arrays_marking_the_legal_ids() -> None:
    table = pz.raw_env("whiz", hands=1)
    table.reset(seed=4)
    rng = random.Random(4)
    for agent in table.agent_iter():
        observation, _, termination, truncation, _ = table.last()
        assert observation is not None
        mask = observation["action_mask"]
        if termination or truncation:
            table.step(None)
            continue
        game = table.game
        assert mask.nonzero()[0].tolist() == list(legal_ids(game))
        mask[:] = 1  # the caller's to change: the next observation is unaffected
        again = table.observe(agent)["action_mask"]
        assert again.nonzero()[0].tolist() == list(legal_ids(game))
        table.step(rng.choice(list(legal_ids(game))))


def test_a_wrapped_table_pickles_and_plays_on_alike() -> None:
    table = pz.env("mirror", hands=1)
    table.reset(seed=3)
    for _ in range(9):
        observation = table.last()[0]
        table.step(int(observation["action_mask"].nonzero()[0][0]))
    copy = pickle.loads(pickle.dumps(table))
    assert type(copy) is type(table)
    for one in (table, copy):
        assert one.agent_selection == table.agent_selection
    while table.agents:
        mine, theirs = table.last(), copy.last()
        assert mine[0]["observation"].tobytes() == theirs[0]["observation"].tobytes()
        assert mine[0]["action_mask"].tobytes() == theirs[0]["action_mask"].tobytes()
        assert mine[1:] == theirs[1:]
        legal = mine[0]["action_mask"].nonzero()[0]
        action = None if mine[2] or mine[3] else int(legal[-1])
        table.step(action)
        copy.step(action)
    assert not copy.agents
