"""OpenSpiel states from text nobody vouches for: what a serialized state
holds, the safe reader that runs nothing a crafted text asks for, and the
calls of a state that took numbers OpenSpiel does not check."""

from __future__ import annotations

import base64
import contextlib
import copy
import os
import pickle
import pickletools
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest

import spades_core as sc
from spades_core.envs import _openspiel_state, openspiel

pytestmark = pytest.mark.integration("openspiel")


def load(**parameters: object) -> Any:
    openspiel.register()
    return pyspiel.load_game(openspiel.GAME_NAME, parameters)


def advanced(game: Any, moves: int, seed: int = 1) -> Any:
    """A state of ``game`` after ``moves`` random chance and player moves."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_chance_node():
            state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def with_attributes(text: str, payload: bytes) -> str:
    """``text`` with its state's pickled ``__dict__`` replaced by ``payload``."""
    head, _ = text.split("__dict__=", 1)
    return head + "__dict__=" + base64.b64encode(payload).decode("ascii") + "\n"


class _MakesADirectory:
    """Unpickling this makes the directory ``path``: proof that it ran."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.mkdir, (str(self.path),))


class _CreatesAFile:
    """Unpickling this creates the file ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.path), "x"))


# -- what a serialized state holds --------------------------------------------------


def test_a_serialized_state_holds_its_game_record_alone() -> None:
    game = load(variant="whiz", hands=2)
    state = advanced(game, 52 + 4 + 9)
    assert list(vars(state)) == ["_position"]
    text = pyspiel.serialize_game_and_state(game, state)
    payload = base64.b64decode(text.split("__dict__=", 1)[1].strip())
    named = [
        argument
        for opcode, argument, _ in pickletools.genops(payload)
        if opcode.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE")
    ]
    globals_used = [
        opcode.name for opcode, _, _ in pickletools.genops(payload) if "GLOBAL" in opcode.name
    ]
    # One name is looked up: the function that reads a position from its record.
    assert globals_used == ["STACK_GLOBAL"]
    assert named[:3] == ["_position", "spades_core.envs._openspiel_state", "position_from_record"]
    assert named[3] == sc.dumps(state.game)


# -- the safe reader -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parameters", "moves"),
    [
        ({"variant": "classic"}, 0),
        ({"variant": "classic"}, 7),  # in the middle of the deal
        ({"variant": "mirror", "hands": 2, "target_score": 200}, 52 + 4 + 30),
        ({"variant": "whiz", "returns": "win", "hands": 1}, 52 + 56),  # the end
    ],
)
def test_the_safe_reader_gives_back_the_state(parameters: dict[str, Any], moves: int) -> None:
    game = load(**parameters)
    state = advanced(game, moves)
    text = pyspiel.serialize_game_and_state(game, state)
    game_again, again = openspiel.deserialize_game_and_state(text)
    assert str(game_again) == str(game)
    assert again.game == state.game
    assert again.dealing == state.dealing
    assert again.history() == state.history()
    assert again.move_number() == state.move_number()
    assert again.current_player() == state.current_player()
    assert again.is_terminal() == state.is_terminal()
    assert again.returns() == state.returns()
    # A clone of the state read back plays on like the original.
    clone = again.clone()
    assert clone.current_player() == state.current_player()
    if not state.is_terminal():
        action = (state.chance_outcomes()[0][0],) if state.is_chance_node() else ()
        chosen = action[0] if action else state.legal_actions()[0]
        state.apply_action(chosen)
        clone.apply_action(chosen)
        assert clone.game == state.game
        assert clone.current_player() == state.current_player()


@pytest.mark.parametrize("copy_state", [copy.deepcopy, lambda s: pickle.loads(pickle.dumps(s))])
def test_copies_of_a_state_keep_the_episode(copy_state: Callable[[Any], Any]) -> None:
    # copy.deepcopy and pickle (for your own states) go through OpenSpiel's
    # serialization too, and skip __init__.
    game = load(variant="mirror", hands=2, returns="win")
    state = advanced(game, 52 + 4 + 52 + 20)
    again = copy_state(state)
    assert again.game == state.game
    assert again.history() == state.history()
    assert again.current_player() == state.current_player()
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.chance_outcomes()[0][0]
        else:
            action = state.legal_actions()[0]
        state.apply_action(action)
        again.apply_action(action)
        assert again.current_player() == state.current_player()
    assert again.returns() == state.returns()
    assert state.returns() in ([1.0, -1.0, 1.0, -1.0], [-1.0, 1.0, -1.0, 1.0], [0.0] * 4)


def test_the_safe_reader_reads_a_state_made_from_a_game() -> None:
    game = load(variant="classic", hands=1, loss_floor=0)  # 0: no loss floor
    engine = sc.bots.play_game(
        sc.new_game("classic", seed=4, dealer=openspiel.FIRST_DEALER, loss_floor=None),
        [sc.bots.RandomBot(seat) for seat in range(4)],
        hands=2,
    )
    state = game.state_from_game(engine.deal().bid(2))
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = openspiel.deserialize_game_and_state(text)
    assert again.game == state.game
    assert again.returns() == state.returns()
    assert again.current_player() == state.current_player()


def test_a_crafted_pickle_is_refused_without_running(tmp_path: Path) -> None:
    game = load(variant="classic")
    text = pyspiel.serialize_game_and_state(game, advanced(game, 20))
    witness = tmp_path / "made-by-the-pickle"
    crafted = [
        pickle.dumps({"_position": _MakesADirectory(witness)}),
        pickle.dumps(_MakesADirectory(witness)),
        pickle.dumps({"_position": _MakesADirectory(witness)}, protocol=0),
        pickle.dumps([_MakesADirectory(witness)], protocol=2),
    ]
    for payload in crafted:
        with pytest.raises(sc.RecordFormatError, match="mkdir") as caught:
            openspiel.deserialize_game_and_state(with_attributes(text, payload))
        assert caught.value.reason == "wrong_format"
        assert not witness.exists()
    created = tmp_path / "created-by-the-pickle.txt"
    payload = pickle.dumps({"_position": _CreatesAFile(created)})
    with pytest.raises(sc.RecordFormatError, match=r"io\.open|builtins\.open"):
        openspiel.deserialize_game_and_state(with_attributes(text, payload))
    assert not created.exists()


def test_pyspiel_own_reader_runs_what_the_pickle_asks(tmp_path: Path) -> None:
    # Why the safe reader exists: OpenSpiel unpickles a Python game's state.
    game = load(variant="classic")
    text = pyspiel.serialize_game_and_state(game, advanced(game, 3))
    witness = tmp_path / "made-by-the-pickle"
    crafted = with_attributes(text, pickle.dumps({"_position": _MakesADirectory(witness)}))
    # Whatever happens next, the pickle has already run.
    with contextlib.suppress(Exception):
        pyspiel.deserialize_game_and_state(crafted)
    assert witness.is_dir()


def _replaced(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def _position_pickle(*arguments: object) -> bytes:
    """The pickle of a ``__dict__`` whose position is read from ``arguments``."""

    class Position:
        def __reduce__(self) -> tuple[Any, ...]:
            return (_openspiel_state.position_from_record, arguments)

    return pickle.dumps({"_position": Position()})


def test_the_safe_reader_checks_every_part() -> None:
    game = load(variant="classic", hands=2)
    state = advanced(game, 52 + 4 + 3)
    text = pyspiel.serialize_game_and_state(game, state)
    record = sc.dumps(state.game)
    over = sc.dumps(advanced(game, 5).game)
    bad = {
        "another game": _replaced(text, "[Game]\nspades_core(", "[Game]\ntic_tac_toe("),
        "a nested game": _replaced(text, "[Game]\nspades_core(", "[Game]\nrepeated_game(x("),
        "bad parameters": _replaced(text, "target_score=500", "target_score=-5"),
        "other rules": _replaced(text, "target_score=500", "target_score=300"),
        "no meta": _replaced(text, "Version: 1", "Version: 2"),
        "a history entry": _replaced(text, "history=-1:", "history=-1:x"),
        "a wrong move count": _replaced(text, "move_number=59", "move_number=58"),
        "a pickle that is not base64": _replaced(text, "__dict__=", "__dict__=*"),
        "more than the position": with_attributes(
            text, pickle.dumps({"_position": state._position, "_player": 0})
        ),
        "a plain value": with_attributes(text, pickle.dumps({"_position": 3})),
        "dealing out of phase": with_attributes(text, _position_pickle(record, (1, 2), 0, (0, 0))),
        "a card dealt twice": with_attributes(text, _position_pickle(over, (1, 1), 0, (0, 0))),
        "a card past the deck": with_attributes(text, _position_pickle(over, (60,), 0, (0, 0))),
        "dealing not a tuple": with_attributes(text, _position_pickle(over, [1], 0, (0, 0))),
        "a record that is not text": with_attributes(text, _position_pickle(b"{}", (), 0, (0, 0))),
        "a broken record": with_attributes(text, _position_pickle(record[:-9], (), 0, (0, 0))),
        "false starting scores": with_attributes(text, _position_pickle(record, (), 0, (5, 0))),
        "a start after the game": with_attributes(text, _position_pickle(record, (), 3, (0, 0))),
        "scores not two numbers": with_attributes(text, _position_pickle(record, (), 0, (0,))),
        "too long": text + " " * openspiel.MAX_SERIALIZED_SIZE,
    }
    read = []
    for case, crafted in bad.items():
        try:
            openspiel.deserialize_game_and_state(crafted)
        except sc.RecordFormatError:
            continue
        read.append(case)
    assert read == []
    with pytest.raises(sc.ArgumentTypeError, match="str"):
        openspiel.deserialize_game_and_state(text.encode())


# -- numbers OpenSpiel passes on unchecked ------------------------------------------


@pytest.mark.parametrize("action", [52, -1, 60, 2**40])
def test_a_chance_move_names_a_card(action: int) -> None:
    state = load(variant="classic").new_initial_state()
    with pytest.raises(sc.IllegalActionError, match="chance outcome") as caught:
        state.action_to_string(pyspiel.PlayerId.CHANCE, action)
    assert caught.value.reason is sc.IllegalReason.NOT_AN_ACTION
    if action != -1:  # OpenSpiel itself refuses -1, its "no action", before asking the state
        with pytest.raises(sc.IllegalActionError, match="chance outcome"):
            state.apply_action(action)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 51) == "deal AS"
    state.apply_action(51)
    with pytest.raises(sc.IllegalActionError, match="dealt already") as caught:
        state.apply_action(51)
    assert caught.value.reason is sc.IllegalReason.INVALID_DEAL


@pytest.mark.parametrize("action", [66, -1, 1000])
def test_a_player_move_names_an_action(action: int) -> None:
    state = load(variant="classic").new_initial_state()
    with pytest.raises(sc.IllegalActionError, match="not an action id") as caught:
        state.action_to_string(0, action)
    assert caught.value.reason is sc.IllegalReason.NOT_AN_ACTION
    assert state.action_to_string(0, 65) == "bid 13"


@pytest.mark.parametrize(
    "drawn", [float("nan"), float("inf"), -0.5, 1.5, "0.5", None, True, np.float64("nan")]
)
def test_a_sampler_must_give_a_probability(drawn: object) -> None:
    state = advanced(load(variant="classic"), 52 + 2)
    with pytest.raises(sc.RulesError, match="probability_sampler"):
        state.resample_from_infostate(0, lambda: drawn)


def test_a_sampler_must_be_callable_and_may_be_numpy() -> None:
    state = advanced(load(variant="classic"), 52 + 2)
    with pytest.raises(sc.ArgumentTypeError, match="probability_sampler"):
        state.resample_from_infostate(0, 0.5)
    for drawn in (0.0, 1.0, 1, np.float64(0.25), np.float32(0.75)):
        sample = state.resample_from_infostate(0, lambda drawn=drawn: drawn)
        assert sample.information_state_string(0) == state.information_state_string(0)
