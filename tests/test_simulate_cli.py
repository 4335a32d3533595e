"""``spades simulate`` (issue 5): bot levels measured against each other."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from typing import Any

import pytest

from spades_core.cli import main
from spades_core.cli.simulate import (
    SimulationConfig,
    mean_interval,
    run_item,
    simulate,
    summarize,
    wilson_interval,
)


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["simulate", *args, "--json"]) == 0
    captured = capsys.readouterr()
    # Not a terminal: no progress bar on stderr.
    assert captured.err == ""
    summary: dict[str, Any] = json.loads(captured.out)
    return summary


def test_hands_mode_reports_points_per_side_and_the_difference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    summary = run_json(
        capsys, "--variant", "mirror", "--ns", "normal", "--ew", "random", "--hands", "8",
        "--seed", "3",
    )  # fmt: skip
    assert summary["mode"] == "hands"
    assert (summary["variant"], summary["ns"], summary["ew"]) == ("mirror", "normal", "random")
    assert summary["hands"] == 8
    ns, ew = summary["mean_points"]["NS"], summary["mean_points"]["EW"]
    difference = summary["difference"]
    assert difference["mean"] == pytest.approx(ns - ew, abs=0.02)
    low, high = difference["ci95"]
    assert low < difference["mean"] < high
    assert "games" not in summary


def test_duplicate_plays_every_deal_twice_with_the_cards_swapped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    summary = run_json(
        capsys, "--variant", "classic", "--ns", "easy", "--ew", "easy", "--hands", "5",
        "--seed", "9", "--duplicate",
    )  # fmt: skip
    assert summary["hands"] == 10
    assert summary["duplicate"] is True
    # Same level on both sides and every deal played both ways: the two sides
    # score exactly the same in total.
    assert summary["mean_points"]["NS"] == summary["mean_points"]["EW"]
    assert summary["difference"]["mean"] == 0


def test_duplicate_copy_gives_each_level_the_other_sides_cards() -> None:
    config = SimulationConfig("classic", "normal", "random", "hands", 1, seed=4, duplicate=True)
    single = SimulationConfig("classic", "normal", "random", "hands", 1, seed=4)
    swapped = SimulationConfig("classic", "random", "normal", "hands", 1, seed=4)
    both = run_item(config, 0)
    first = run_item(single, 0)
    assert both.hands == 2
    # The duplicate's first copy is the plain deal; the second copy is the
    # same deal with the sides' cards exchanged, so it differs from the first.
    assert both.points != (first.points[0] * 2, first.points[1] * 2)
    assert run_item(swapped, 0).hands == 1


def test_results_do_not_depend_on_the_number_of_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--variant", "whiz", "--ns", "normal", "--ew", "easy", "--hands", "6", "--seed", "11"]
    one = run_json(capsys, *args, "--duplicate", "--workers", "1")
    two = run_json(capsys, *args, "--duplicate", "--workers", "2")
    assert one == two


def test_games_mode_reports_the_win_rate_with_a_wilson_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    summary = run_json(
        capsys, "--variant", "classic", "--ns", "normal", "--ew", "random", "--games", "3",
        "--seed", "2", "--option", "target_score=100",
    )  # fmt: skip
    games = summary["games"]
    assert games["played"] == 3
    assert games["ns_wins"] + games["ew_wins"] + games["unfinished"] == 3
    assert games["ns_win_rate"] == pytest.approx(games["ns_wins"] / 3, abs=1e-4)
    low, high = games["ci95"]
    assert 0 <= low <= games["ns_win_rate"] <= high <= 1
    assert summary["options"] == {"target_score": 100}


def test_duplicate_games_swap_the_levels_between_partnerships() -> None:
    config = SimulationConfig(
        "mirror", "normal", "normal", "games", 1, seed=5, duplicate=True,
        options=(("target_score", 100),),
    )  # fmt: skip
    result = run_item(config, 0)
    # The same level on both sides of the same deals: one game each.
    assert result.wins == (1, 1)


def test_max_hands_leaves_a_game_unfinished() -> None:
    config = SimulationConfig("mirror", "random", "random", "games", 1, seed=1, max_hands=1)
    result = run_item(config, 0)
    assert (result.hands, result.unfinished, result.wins) == (1, 1, (0, 0))
    summary = summarize(config, [result])
    assert summary["games"]["unfinished"] == 1


def test_text_summary_is_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        ["simulate", "--variant", "classic", "--ns", "easy", "--ew", "random", "--hands", "3",
         "--seed", "1"]
    )  # fmt: skip
    assert status == 0
    out = capsys.readouterr().out
    assert "classic: 3 deals, 3 hands, seed 1" in out
    assert "points/hand" in out
    assert "bags/hand" in out
    assert "NS    easy" in out
    assert "EW    random" in out
    assert "difference (NS - EW):" in out
    assert "95% CI" in out


def test_progress_bar_draws_on_the_given_stream() -> None:
    stream = io.StringIO()
    config = SimulationConfig("mirror", "easy", "easy", "hands", 2, seed=1)
    simulate(config, progress=stream)
    text = stream.getvalue()
    assert "1/2" in text
    assert "2/2" in text
    assert text.endswith("\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ns", "expert"], "unknown bot level 'expert'"),
        (["--variant", "nope"], "nope"),
        (["--option", "target_score=0"], "target_score"),
        (["--hands", "0"], "--hands must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--steps", "0"], "steps must be a whole number"),
    ],
)
def test_bad_arguments_exit_with_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    args = [*args, "--ns", "hard"] if args[0] == "--steps" else args
    assert main(["simulate", "--seed", "1", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spades simulate: ")
    assert message in err


def test_hands_and_games_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "2", "--games", "2"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_wilson_interval_and_mean_interval() -> None:
    low, high = wilson_interval(140, 200)
    assert (round(low, 4), round(high, 4)) == (0.6332, 0.7593)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert all(math.isnan(x) for x in wilson_interval(0, 0))
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert (round(low, 3), round(high, 3)) == (1.235, 3.765)


def test_python_dash_m_runs_simulate() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spades_core", "simulate", "--hands", "1", "--seed", "2",
         "--ns", "random", "--ew", "random", "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(done.stdout)["hands"] == 1
