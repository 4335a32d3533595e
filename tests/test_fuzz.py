"""Bounded fuzzing of the whole public surface: every public function,
constructor and method, called with arbitrary values of every kind, raises
nothing but :class:`~spades_core.SpadesError` subclasses and changes no
existing object; ``loads`` and ``spades replay`` likewise for arbitrary text
and for valid records with one value replaced."""

from __future__ import annotations

import contextlib
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

TARGETS = targets()


def test_the_surface_is_found() -> None:
    names = {target.name for target in TARGETS}
    # A few of each kind: functions, constructors, classmethods, methods.
    assert {"new_game", "loads", "determinize", "play_game", "playout", "action_from_id"} <= names
    assert {"Card", "CardSet", "HardBot", "Card.parse", "Seat.parse"} <= names
    assert {"Game.apply", "Game.deal", "Game.hand", "Game.view", "View.spades_left"} <= names
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
    max_examples=25,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=list(HealthCheck),
    deadline=None,
)
@given(data=st.data())
def test_only_spades_errors_escape_and_nothing_changes(target: Target, data: st.DataObject) -> None:
    _call(target, data)
