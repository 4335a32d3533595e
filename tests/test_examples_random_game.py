"""``examples/random_game.py`` (what ``make run`` plays): a whole classic game,
printed hand by hand, ending with the winner, the same every time for a seed."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import spades_core as sc

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "random_game.py"
WINNER_LINE = re.compile(r"^Winner: (NS|EW), (-?\d+) to (-?\d+), after (\d+) hands?$")


def _load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("random_game_example", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


example = _load_example()


def run_script(*args: str) -> str:
    completed = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert completed.stderr == ""
    return completed.stdout


def test_the_script_plays_to_the_end_and_prints_the_winner_last() -> None:
    output = run_script()
    lines = output.rstrip("\n").splitlines()
    match = WINNER_LINE.match(lines[-1])
    assert match, lines[-1]
    game = example.play_random_game(example.DEFAULT_SEED)
    assert game.is_over
    winner = game.winner
    assert winner is not None
    assert match.group(1) == winner.name
    assert int(match.group(2)) == game.scores[winner]
    assert int(match.group(3)) == game.scores[winner.opponent]
    assert int(match.group(4)) == len(game.hand_results)
    assert lines[0] == f"Classic Spades, seed {example.DEFAULT_SEED}, first dealer " + (
        game.first_dealer.name.title()
    )


def test_the_script_is_deterministic() -> None:
    assert run_script() == run_script()


@pytest.mark.parametrize("seed", [1, 7, 12345])
def test_main_prints_every_hand_with_bids_tricks_points_scores_and_bags(
    seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert example.main(["--seed", str(seed)]) == 0
    output = capsys.readouterr().out
    results = example.play_random_game(seed).hand_results
    assert output.count("\nHand ") == len(results)
    for result in results:
        block = output.split(f"Hand {result.number + 1} (dealer ")[1].split("\n\n")[0]
        bids = "  ".join(
            f"{seat.letter} {'Nil' if result.bids[seat] == 0 else result.bids[seat]:>3}"
            for seat in sc.Seat
        )
        tricks = "  ".join(f"{seat.letter} {result.tricks[seat]:>3}" for seat in sc.Seat)
        assert f"bids    {bids}" in block
        assert f"tricks  {tricks}" in block
        for team in sc.Team:
            assert (
                f"{team.name}  {result.points[team]:+5d} → {result.scores[team]:5d}"
                f"   bags {result.bags[team]}"
            ) in block
    assert WINNER_LINE.match(output.rstrip("\n").splitlines()[-1])
    example.main(["--seed", str(seed)])
    assert capsys.readouterr().out == output


def test_different_seeds_print_different_games(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = set()
    for seed in (1, 2, 3):
        example.main(["--seed", str(seed)])
        outputs.add(capsys.readouterr().out)
    assert len(outputs) == 3


def test_a_bad_seed_is_reported_as_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        example.main(["--seed", "-1"])
    assert caught.value.code == 2
    assert "seed must be a whole number" in capsys.readouterr().err
