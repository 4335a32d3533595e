"""Bounded fuzzing of the whole public surface: every public function,
constructor and method, called with arbitrary values of every kind, raises
nothing but :class:`~spades_core.SpadesError` subclasses and changes no
existing object; ``loads`` and ``spades replay`` likewise for arbitrary text
and for valid records with one value replaced."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import spades_core as sc
from fuzz_support import (
    Target,
    arguments,
    public_classes,
    samples_of,
    snapshot,
    targets,
)
from spades_core.cli import main
from spades_core.cli.replay import replay_lines

TARGETS = targets()


def test_the_surface_is_found() -> None:
    names = {target.name for target in TARGETS}
    # A few of each kind: functions, constructors, classmethods, methods.
    assert {"new_game", "loads", "determinize", "play_game", "playout", "action_from_id"} <= names
    assert {"Card", "CardSet", "HardBot", "Card.parse", "Seat.parse"} <= names
    assert {"Game.apply", "Game.deal", "Game.hand", "Game.view", "View.spades_left"} <= names
    assert {"View.hand", "View.dealt_hand", "View.legal_actions", "View.legal_cards"} <= names
    assert len(TARGETS) > 100


def test_every_public_class_has_samples() -> None:
    missing = [
        cls.__qualname__
        for cls in public_classes()
        if not issubclass(cls, BaseException | Warning)
        and any(target.receiver is cls for target in TARGETS)
        and not samples_of(cls)
    ]
    assert missing == []


def _call(target: Target, data: st.DataObject) -> None:
    receiver: Any = None
    if target.receiver is not None:
        receiver = data.draw(st.sampled_from(samples_of(target.receiver)), label="receiver")
    positional, keywords = data.draw(arguments(target), label="arguments")
    involved = [receiver, positional, keywords]
    before = snapshot(involved)
    try:
        if receiver is None:
            result = target.function(*positional, **keywords)
        else:
            result = target.function(receiver, *positional, **keywords)
    except sc.SpadesError as error:
        str(error)  # the message itself must be printable
    else:
        if isinstance(result, sc.Game):
            repr(result)
            with contextlib.suppress(sc.RecordFormatError):
                sc.dumps(result)
    assert snapshot(involved) == before, f"{target.name} changed an object it was given"


@pytest.mark.parametrize("target", TARGETS, ids=[target.name for target in TARGETS])
# Bounded: no shrinking, whose running time a failing example with a long
# text or a huge number makes unpredictable; the reported example is unshrunk.
@settings(
    # 20 examples, or fewer when the profile asks for fewer (make quick).
    max_examples=min(20, settings().max_examples),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=list(HealthCheck),
    deadline=None,
)
@given(data=st.data())
def test_only_spades_errors_escape_and_nothing_changes(target: Target, data: st.DataObject) -> None:
    _call(target, data)


# -- loads and spades replay -----------------------------------------------------------

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**80), max_value=2**80),
        st.sampled_from([int("9" * 4200), -int("9" * 4200), 0, 13, 14, 52]),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=10),
        st.sampled_from(["self", "N", "QH", "classic", "x" * 5000, "\ufeff"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)


def _records() -> list[dict[str, Any]]:
    from fuzz_support import GAMES

    return [sc.records.to_record(game) for game in GAMES()]


def _paths(value: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):
            found += _paths(item, (*prefix, index))
    return found


def _replaced(record: Any, path: tuple[Any, ...], new: object) -> object:
    if not path:
        return new
    copy: Any = dict(record) if isinstance(record, dict) else list(record)
    copy[path[0]] = _replaced(copy[path[0]], path[1:], new)
    return copy


def _load_checked(text: str | bytes) -> None:
    refused: sc.RecordFormatError | None = None
    try:
        game = sc.loads(text)
    except sc.RecordFormatError as error:
        refused = error
    if refused is not None:
        assert len(str(refused)) < 2000
        assert isinstance(refused.reason, sc.RecordReason)
        return
    repr(game)
    assert sc.loads(sc.dumps(game)) == game


@settings(max_examples=150, phases=[Phase.explicit, Phase.reuse, Phase.generate], deadline=None)
@given(data=st.data())
def test_loads_a_record_with_one_value_replaced(data: st.DataObject) -> None:
    record = data.draw(st.sampled_from(_records()), label="record")
    path = data.draw(st.sampled_from(_paths(record)), label="path")
    new = data.draw(json_values, label="value")
    before = json.dumps(record)
    _load_checked(json.dumps(_replaced(record, path, new)))
    assert json.dumps(record) == before


@settings(max_examples=100, phases=[Phase.explicit, Phase.reuse, Phase.generate], deadline=None)
@given(text=st.one_of(st.text(max_size=200), st.binary(max_size=200), json_values.map(json.dumps)))
def test_loads_arbitrary_text(text: str | bytes) -> None:
    _load_checked(text)


@settings(max_examples=40, phases=[Phase.explicit, Phase.reuse, Phase.generate], deadline=None)
@given(
    lines=st.lists(
        st.one_of(
            st.binary(max_size=60),
            json_values.map(lambda value: json.dumps(value).encode()),
            st.sampled_from(_records()).map(lambda record: json.dumps(record).encode()),
        ),
        max_size=5,
    )
)
def test_replay_reports_every_line_whatever_it_holds(lines: list[bytes]) -> None:
    outputs = list(replay_lines(lines))
    assert len(outputs) == sum(1 for line in lines if line.strip())
    for text, ok in outputs:
        assert json.loads(text)["ok"] is ok
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "records.jsonl"
        path.write_bytes(b"\n".join(line.replace(b"\n", b" ") for line in lines))
        with contextlib.redirect_stdout(io.StringIO()) as out:
            status = main(["replay", "--summary", str(path)])
        assert status in (0, 1)
        assert out.getvalue().splitlines()[-1].endswith("in the valid ones")
