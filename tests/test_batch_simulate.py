"""``spades simulate --engine batch``: the same hands as the engine path."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spades_core.batch.simulate import derived_seeds
from spades_core.cli import main
from spades_core.cli.simulate import DEAL_PURPOSE
from spades_core.rules.rng import SeedStream

pytestmark = pytest.mark.integration("batch")


def summary_of(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["simulate", *args, "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def test_hand_seeds_are_derived_as_on_the_engine_path() -> None:
    seeds = derived_seeds(2**64 - 5, DEAL_PURPOSE, 50)
    assert [int(s) for s in seeds] == [
        SeedStream(2**64 - 5, DEAL_PURPOSE, i).next64() for i in range(50)
    ]


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_easy_against_easy_reports_exactly_what_the_engine_reports(
    capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    common = ("--variant", variant, "--ns", "easy", "--ew", "easy", "--hands", "60", "--seed", "8")
    by_engine = summary_of(capsys, *common)
    by_batch = summary_of(capsys, *common, "--engine", "batch")
    assert by_batch == by_engine


def test_random_levels_play_on_the_batch_engine(capsys: pytest.CaptureFixture[str]) -> None:
    summary = summary_of(
        capsys, "--ns", "easy", "--ew", "random", "--hands", "3000", "--engine", "batch",
        "--seed", "1",
    )  # fmt: skip
    assert summary["hands"] == 3000
    assert summary["difference"]["low"] > 50


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--games", "3"), "single hands"),
        (("--hands", "3", "--duplicate"), "single hands"),
        (("--hands", "3", "--ns", "normal"), "levels random, easy"),
    ],
)
def test_what_the_batch_engine_cannot_simulate_exits_with_status_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str
) -> None:
    assert main(["simulate", "--engine", "batch", "--ew", "random", *args]) == 2
    assert words in capsys.readouterr().err
