"""Records written by spades-core 0.1 still load and replay to the same game.

``tests/data/records_v0_1.jsonl`` holds four records written by ``sc.dumps``
before the variant interface changed (option mapping, typed hooks, the
``max_hands`` option): classic played to the end under many house rules,
Mirror stopped in the middle of a trick, Whiz with the ace rule, and classic
from explicit deals. ``records_v0_1_expected.jsonl`` holds, line for line,
what that version reported about each replayed game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import spades_core as sc

DATA = Path(__file__).resolve().parent / "data"
RECORDS = (DATA / "records_v0_1.jsonl").read_text(encoding="utf-8").splitlines()
EXPECTED = [
    json.loads(line)
    for line in (DATA / "records_v0_1_expected.jsonl").read_text(encoding="utf-8").splitlines()
]


def action_facts(action: sc.Action) -> list[Any]:
    """An action as plain data independent of its notation."""
    if isinstance(action, sc.Bid):
        return ["bid", action.value]
    if isinstance(action, sc.Play):
        return ["play", action.card.id]
    return ["deal"]


def test_the_stored_records_cover_every_variant_and_both_ways_of_dealing() -> None:
    assert len(RECORDS) == len(EXPECTED) == 4
    documents = [json.loads(line) for line in RECORDS]
    assert {document["variant"] for document in documents} == {"classic", "mirror", "whiz"}
    assert any("deal" in hand for document in documents for hand in document["hands"])
    assert {facts["phase"] for facts in EXPECTED} == {"GAME_OVER", "PLAY", "DEAL"}


@pytest.mark.parametrize("number", range(4))
def test_a_record_of_version_0_1_replays_to_the_same_game(number: int) -> None:
    game = sc.loads(RECORDS[number])
    expected = EXPECTED[number]
    assert game.phase.name == expected["phase"]
    assert (None if game.winner is None else game.winner.name) == expected["winner"]
    assert list(game.scores.values_) == expected["scores"]
    assert list(game.bags.values_) == expected["bags"]
    assert [
        [list(result.points.values_), list(result.bags.values_), list(result.scores.values_)]
        for result in game.hand_results
    ] == expected["hands"]
    assert [action_facts(action) for action in game.legal_actions()] == expected["legal_actions"]
    assert (None if game.to_act is None else game.to_act.name) == expected["to_act"]
    assert game.dealer.name == expected["dealer"]


@pytest.mark.parametrize("number", range(4))
def test_a_record_of_version_0_1_is_written_back_unchanged(number: int) -> None:
    assert sc.dumps(sc.loads(RECORDS[number])) == RECORDS[number]
