"""The wrappers' shortcuts answer as the paths they skip: OpenSpiel's C++
State for ``legal_actions`` and ``is_chance_node``, the checked engine for a
step by action id, PettingZoo's standard wrappers for the table's bookkeeping."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from pettingzoo.utils import wrappers

from spades_core.engine.encoding import ACTIONS, ids_of_bits, legal_ids
from spades_core.envs import _openspiel_state, openspiel
from spades_core.envs import pettingzoo as pz
from spades_core.values.errors import IllegalActionError, IllegalReason

pytestmark = [pytest.mark.integration("openspiel"), pytest.mark.integration("pettingzoo")]


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_openspiel_queries_answer_as_the_cpp_state(variant: str) -> None:
    openspiel.register()
    game = pyspiel.load_game("spades_core", {"variant": variant, "hands": 2})
    rng = random.Random(3)
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            # current_player is a slot holding a built-in: C++ must find it as the override.
            assert type(state.current_player()) is int
            assert state.current_player() == pyspiel.State.current_player(state)
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.is_terminal() == pyspiel.State.is_terminal(state)
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


@pytest.mark.parametrize("action", [-1, 66, 10**30, True, 60.0])
def test_openspiel_refuses_what_is_no_action_id_and_changes_nothing(action: object) -> None:
    openspiel.register()
    state = pyspiel.load_game("spades_core", {"variant": "classic"}).new_initial_state()
    for card in range(52):
        state.apply_action(card)
    before = (state.game, state.current_player(), state.legal_actions())
    with pytest.raises(IllegalActionError) as caught:
        state._apply_action(action)
    assert caught.value.reason is IllegalReason.NOT_AN_ACTION
    assert (state.game, state.current_player(), state.legal_actions()) == before


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
        (10**30, "not a chance outcome"),
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


def standard_stack(variant: str, hands: int) -> Any:
    """The table in PettingZoo's own wrappers, as ``env()`` stacks them."""
    table: Any = pz.raw_env(variant, hands=hands)
    table = wrappers.TerminateIllegalWrapper(table, illegal_reward=-1)
    table = wrappers.AssertOutOfBoundsWrapper(table)
    return wrappers.OrderEnforcingWrapper(table)


def same_last(mine: Any, theirs: Any) -> None:
    (observation, *rest), (expected, *expected_rest) = mine.last(), theirs.last()
    assert rest == expected_rest
    for key in ("observation", "action_mask"):
        assert observation[key].tobytes() == expected[key].tobytes()
    for name in ("agent_selection", "agents", "rewards", "terminations", "truncations"):
        assert getattr(mine, name) == getattr(theirs, name), name
    assert mine._cumulative_rewards == theirs._cumulative_rewards


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_env_steps_as_pettingzoos_own_wrappers_do(
    variant: str, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(len(variant))
    for episode in range(4):
        mine, theirs = pz.env(variant, hands=2), standard_stack(variant, 2)
        for table in (mine, theirs):
            table.reset(seed=episode)
        # Episode 3 ends on an illegal action, part of the way through.
        illegal_at = rng.randrange(5, 100) if episode == 3 else -1
        steps = 0
        while mine.agents:
            same_last(mine, theirs)
            observation, _, termination, truncation, _ = mine.last()
            if termination or truncation:
                action: Any = None
            elif steps == illegal_at:
                action = int(np.flatnonzero(observation["action_mask"] == 0)[0])
            else:
                chosen = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
                # Policies hand over numpy integers as often as ints.
                action = np.int64(chosen) if rng.random() < 0.3 else chosen
            for table in (mine, theirs):
                table.step(action)
            if steps == illegal_at:
                assert -1 in mine.rewards.values()
            steps += 1
        assert not theirs.agents
        # Once every agent is done and has stepped, PettingZoo's own wrapper
        # looks the last agent up in the emptied bookkeeping; env() answers
        # with the table's final state, as raw_env does.
        with pytest.raises(KeyError):
            theirs.last()
        observation, *rest = mine.last()
        assert rest == [0.0, True, False, {}]
        assert not observation["action_mask"].any()
        assert mine.last(observe=False)[0] is None
        if episode == 3:
            assert "Illegal move" in caplog.text


@pytest.mark.parametrize("action", [66, -1, 3.0, np.int64(70), None])
def test_env_refuses_an_action_out_of_bounds_as_pettingzoos_wrapper_does(action: Any) -> None:
    mine, theirs = pz.env("classic"), standard_stack("classic", 0)
    errors = []
    for table in (mine, theirs):
        table.reset(seed=1)
        with pytest.raises(AssertionError) as caught:
            table.step(action)
        errors.append(str(caught.value))
    assert errors[0] == errors[1]
    same_last(mine, theirs)


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_openspiel_steps_leave_positions_that_clone_and_serialize_as_built_ones(
    variant: str,
) -> None:
    # Deals and decisions update the state's position in place inside
    # _apply_action: after each, its parts must agree with one another, and
    # the state must clone and serialize like any other.
    openspiel.register()
    game = pyspiel.load_game("spades_core", {"variant": variant, "hands": 2})
    rng = random.Random(11)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        position = state._position
        assert type(position) is _openspiel_state.Position
        assert position.left == [card for card in range(52) if card not in position.dealing]
        assert state.current_player() == state._player_at(position)
        assert state._legal_bits == -1  # nothing kept from the position before
        if steps % 7 and not state.is_terminal():
            continue
        twin = state.clone()
        text = pyspiel.serialize_game_and_state(game, state)
        _, read = openspiel.deserialize_game_and_state(text)
        for other in (twin, read):
            assert other.history() == state.history()
            assert other.move_number() == state.move_number()
            assert other.game == state.game
            assert other.dealing == state.dealing
            assert other._position.left == position.left
            assert other.current_player() == state.current_player()
            assert other.legal_actions() == state.legal_actions()


def _snapshot(state: openspiel.SpadesCoreState) -> tuple[Any, ...]:
    return (
        state.game,
        state.dealing,
        state.current_player(),
        state.legal_actions(),
        state._position.left.copy(),
        state.history(),
    )


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_stepping_one_openspiel_state_never_moves_another(variant: str) -> None:
    # A step updates the state's position in place unless it is shared, so
    # every way of making a state (a new episode, a clone, a copy,
    # deserialization, resampling, a state at a game) must leave it a position
    # no other state changes: stepping any one state leaves every other
    # exactly as it was.
    openspiel.register()
    game = pyspiel.load_game("spades_core", {"variant": variant, "hands": 2})
    rng = random.Random(17)
    main = game.new_initial_state()
    untouched = game.new_initial_state()
    fresh = _snapshot(untouched)
    others: list[openspiel.SpadesCoreState] = [untouched]
    steps = 0
    while not main.is_terminal():
        if steps % 9 == 0 or main.dealing == ():
            others.append(main.clone())
            others.append(pickle.loads(pickle.dumps(main)))
            text = pyspiel.serialize_game_and_state(game, main)
            others.append(openspiel.deserialize_game_and_state(text)[1])
            if not main.is_chance_node():
                others.append(main.resample_from_infostate(main.current_player(), rng.random))
                others.append(game.state_from_game(main.game))
        main.apply_action(rng.choice(main.legal_actions()))
        steps += 1
    assert {type(state._position) for state in others} == {_openspiel_state.Position}
    # Each other state still stands where it was made, though main moved on.
    before = [_snapshot(state) for state in others]
    assert before[0] == fresh
    assert _snapshot(game.new_initial_state()) == fresh
    after_main = _snapshot(main)
    for index, state in enumerate(others):
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert _snapshot(main) == after_main
        for other_index, other in enumerate(others):
            if other_index > index:
                assert _snapshot(other) == before[other_index]
    assert _snapshot(game.new_initial_state()) == fresh


def test_a_clone_shares_its_position_until_either_state_steps() -> None:
    openspiel.register()
    game = pyspiel.load_game("spades_core", {"variant": "classic"})
    state = game.new_initial_state()
    assert state._position is game._initial
    assert game._initial.shared
    state.apply_action(5)  # the first step takes a copy of its own
    assert state._position is not game._initial
    assert not state._position.shared
    assert game._initial.dealing == []
    assert 5 in game._initial.left
    twin = state.clone()
    assert twin._position is state._position
    assert state._position.shared
    position = state._position
    twin.apply_action(6)
    assert twin._position is not position
    assert not twin._position.shared
    assert position.dealing == [5]
    assert 6 in position.left
    state.apply_action(7)
    assert state._position is not position
    assert (state.dealing, twin.dealing, position.dealing) == ((5, 7), (5, 6), [5])
    # An illegal action at a shared position changes neither state.
    third = state.clone()
    with pytest.raises(IllegalActionError):
        third.apply_action(5)
    assert third.dealing == state.dealing == (5, 7)


def test_pettingzoo_masks_unpack_every_id_of_the_bits() -> None:
    rng = random.Random(6)
    for _ in range(3000):
        bits = rng.getrandbits(66) & rng.getrandbits(66)
        for mask in (pz._mask_of(bits), pz._mask_of(bits)):  # built, then from the cache
            assert mask.dtype == np.int8
            assert mask.shape == (66,)
            assert mask.flags.writeable
            assert mask.nonzero()[0].tolist() == list(ids_of_bits(bits))
