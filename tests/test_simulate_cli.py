"""``spades simulate`` and ``spades tournament``: arguments, header and
progress on stderr, the tables, ``--json`` (exactly the API's numbers) and
``--plot``."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import spades_core as sc
from spades_core.cli import main
from spades_core.cli.simulate import hard_warning
from spades_core.players import PlayerSpec
from spades_core.simulation import Progress, default_workers
from spades_core.simulation.core import plan_run
from spades_core.simulation.progress import ProgressPrinter
from spades_core.simulation.work import ItemResult, Match


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, str]:
    assert main(list(args)) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_json_is_exactly_what_the_api_returns(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run_cli(
        capsys, "simulate", "--variant", "mirror", "--ns", "normal", "--ew", "random",
        "--hands", "5", "--seed", "3", "--duplicate", "-o", "nil_value=50", "--json",
    )  # fmt: skip
    result = sc.simulate(
        "normal", "random", variant="mirror", hands=5, seed=3, duplicate=True,
        nil_value=50, workers=1,
    )  # fmt: skip
    assert out == json.dumps(result.to_json(), sort_keys=True) + "\n"
    summary = json.loads(out)
    assert summary["options"] == {"nil_value": 50}
    assert summary["difference"]["value"] == result.difference.value
    assert set(summary["ns"]) == {"player", "points", "bags", "adjusted"}


def test_the_header_and_seed_come_first_on_stderr_then_progress_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, err = run_cli(
        capsys, "simulate", "--ns", "easy", "--ew", "random", "--hands", "4", "--seed", "12",
        "--workers", "1", "--task-size", "2",
    )  # fmt: skip
    lines = err.splitlines()
    assert lines[0] == "classic: easy (NS) vs random (EW); 4 deals; seed 12; local, 1 worker"
    # Not a terminal: whole lines, the first one at once and the last one at the end.
    assert lines[1].startswith("0/4 deals (0%), 0 hands, ")
    assert lines[1].endswith(", time left not known yet")
    assert lines[-1].startswith("4/4 deals (100%), 4 hands, ")
    assert lines[-1].endswith("hands/s, done")
    assert "\r" not in err
    assert out.startswith("classic: 4 deals, 4 hands, seed 12\n")


def test_a_random_seed_is_drawn_and_shown(capsys: pytest.CaptureFixture[str]) -> None:
    out, err = run_cli(capsys, "simulate", "--hands", "1", "--workers", "1", "-q", "--json")
    assert err == ""
    seed = json.loads(out)["seed"]
    assert isinstance(seed, int)
    assert 0 <= seed < 2**63


def test_workers_default_to_the_number_of_cores(capsys: pytest.CaptureFixture[str]) -> None:
    _, err = run_cli(capsys, "simulate", "--ns", "random", "--ew", "random", "--hands", "1")
    cores = default_workers()
    assert f"local, {cores} worker{'s' if cores > 1 else ''}" in err.splitlines()[0]


def test_hard_players_are_announced_when_the_run_will_be_long() -> None:
    plan = plan_run(
        variant="classic", hands=300, games=None, seed=1, duplicate=True, options=None,
        max_hands=200, backend="local", workers=2, address=None, task_size=None, retries=3,
    )  # fmt: skip
    hard_vs_easy = Match("classic", PlayerSpec("hard"), PlayerSpec("easy"), "hands", 1)
    warning = hard_warning(plan, [hard_vs_easy])
    assert warning is not None
    assert warning.startswith("note: hard players think about 19 ms a move")
    assert "on 2 workers" in warning
    assert "--steps" in warning
    quick = Match("classic", PlayerSpec("normal"), PlayerSpec("easy"), "hands", 1)
    assert hard_warning(plan, [quick]) is None
    small = plan_run(
        variant="classic", hands=3, games=None, seed=1, duplicate=False, options=None,
        max_hands=200, backend="local", workers=2, address=None, task_size=None, retries=3,
    )  # fmt: skip
    assert hard_warning(small, [hard_vs_easy]) is None
    # A journal that has all but one deal leaves a short run.
    kept = {index: ItemResult((0, 0), (0, 0), (0, 0), 2) for index in range(299)}
    assert hard_warning(plan, [hard_vs_easy], [kept]) is None
    assert hard_warning(plan, [hard_vs_easy], [{}]) == warning


def test_the_warning_comes_after_the_header_and_before_any_progress(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Any run with a hard player counts as long here, so a short one shows where the note goes.
    monkeypatch.setattr("spades_core.cli.simulate._LONG_RUN", 0.0)
    _, err = run_cli(
        capsys, "simulate", "--ns", "hard:steps=400:bid_steps=100", "--ew", "easy",
        "--hands", "1", "--seed", "1", "--workers", "1",
    )  # fmt: skip
    lines = err.splitlines()
    assert lines[0].startswith("classic: hard:bid_steps=100:steps=400 (NS) vs easy (EW)")
    assert lines[1].startswith("note: hard players think about 1 ms a move")
    assert lines[2].startswith("0/1 deals (0%)")
    assert lines[-1].startswith("1/1 deals (100%)")


def test_text_table_shows_points_bags_and_the_bag_adjusted_headline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, _ = run_cli(
        capsys, "simulate", "--ns", "normal", "--ew", "easy", "--hands", "4", "--seed", "1",
        "--workers", "1", "-q",
    )  # fmt: skip
    assert "points/hand" in out
    assert "bags/hand" in out
    assert "bag-adjusted" in out
    assert "difference (NS - EW), bag-adjusted: " in out
    assert "difference (NS - EW), raw points:   " in out
    assert "it nets -9.00" in out


def test_games_mode_prints_both_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run_cli(
        capsys, "simulate", "--ns", "normal", "--ew", "random", "--games", "2", "--seed", "2",
        "-o", "target_score=100", "--workers", "1", "-q",
    )  # fmt: skip
    assert "games: 2 played, 0 unfinished" in out
    assert "normal (NS) won 2: 100.0%, 95% CI [34.2%, 100.0%]" in out
    assert "random (EW) won 0: 0.0%, 95% CI [0.0%, 65.8%]" in out


def test_variant_and_player_names_are_read_in_any_case(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, _ = run_cli(
        capsys, "simulate", "--variant", "Mirror", "--ns", "Normal", "--ew", "EASY",
        "--hands", "1", "--seed", "1", "--workers", "1", "--json",
    )  # fmt: skip
    summary = json.loads(out)
    assert (summary["variant"], summary["ns"]["player"], summary["ew"]["player"]) == (
        "mirror", "normal", "easy",
    )  # fmt: skip


def test_steps_set_the_budget_of_hard_players_only(capsys: pytest.CaptureFixture[str]) -> None:
    out, err = run_cli(
        capsys, "simulate", "--ns", "hard", "--ew", "easy", "--hands", "1", "--seed", "1",
        "--steps", "200", "--bid-steps", "200", "--workers", "1", "--json",
    )  # fmt: skip
    assert json.loads(out)["ns"]["player"] == "hard:bid_steps=200:steps=200"
    assert json.loads(out)["ew"]["player"] == "easy"
    assert "hard:bid_steps=200:steps=200 (NS)" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ns", "grandmaster"], "unknown player 'grandmaster'; installed players: random, easy"),
        (["--variant", "nope"], "no variant named 'nope'"),
        (["--option", "target_score=0"], "target_score"),
        (["--hands", "0"], "hands must be a whole number ≥ 1; got 0"),
        (["--workers", "0"], "workers must be a whole number ≥ 1; got 0"),
        (["--ns", "hard", "--steps", "0"], "steps must be a whole number ≥ 1"),
        (["--address", "127.0.0.1:1"], "an address is for the ray backend"),
        (["--backend", "ray", "--address", "here"], "a Ray address is HOST:PORT"),
    ],
)
def test_bad_arguments_exit_with_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["simulate", "--seed", "1", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spades simulate: ")
    assert message in err


def test_hands_and_games_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "2", "--games", "2"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_progress_printer_on_a_terminal_redraws_one_line() -> None:
    stream = io.StringIO()
    printer = ProgressPrinter(stream, "deals", terminal=True, redraw=0.0)
    printer(Progress(2, 4, 4, 3.0, first_ended=1.0, first_items=1))
    printer(Progress(4, 4, 8, 4.0, first_ended=1.0, first_items=1))
    text = stream.getvalue()
    assert text.count("\r") == 2
    assert "2/4 deals (50%), 4 hands, 1.3 hands/s, about 4 s left" in text
    assert text.endswith("4/4 deals (100%), 8 hands, 2.0 hands/s, done\n")


def test_progress_printer_in_a_log_writes_a_line_every_few_seconds() -> None:
    stream = io.StringIO()
    printer = ProgressPrinter(stream, "games", terminal=False, every=3600)
    for done in range(1, 5):
        printer(Progress(done, 4, 10 * done, float(done), done // 4, 1.0, 1))
    lines = stream.getvalue().splitlines()
    # The first report at once, then nothing for an hour, except the last one.
    assert lines == [
        "1/4 games (25%), 10 hands, 10.0 hands/s, time left not known yet",
        "4/4 games (100%), 40 hands, 10.0 hands/s, done, 1 task(s) retried",
    ]


def test_the_time_left_leaves_out_the_start_up_the_first_items_paid_for() -> None:
    # Starting two workers took most of the 1.8 s until the first deal ended;
    # 130 more ended in the next 2 s. At 3.8 s of 300 deals, 131 are done.
    def at(done: int, elapsed: float) -> Progress:
        return Progress(done, 300, 2 * done, elapsed, first_ended=1.8, first_items=1)

    progress = at(131, 3.8)
    assert progress.seconds_left == pytest.approx(2.0 * 169 / 130)  # 2.6 s, not 4.9 s
    # Nothing is said from the first deal alone, however long it took,
    # nor before a second of the work after it has been measured.
    assert math.isnan(Progress(1, 300, 2, 90.0, first_ended=90.0, first_items=1).seconds_left)
    assert math.isnan(at(3, 2.5).seconds_left)
    assert math.isnan(at(1, 9.0).seconds_left)  # no deal ended since
    assert at(300, 4.0).seconds_left == 0
    stream = io.StringIO()
    ProgressPrinter(stream, "deals", terminal=False)(progress)
    assert stream.getvalue().endswith("about 3 s left\n")


def test_a_run_reports_when_its_first_items_ended() -> None:
    seen: list[Progress] = []
    sc.simulate("easy", "easy", hands=6, seed=1, workers=1, task_size=2, progress=seen.append)
    before = [p for p in seen if p.done == 0]
    after = [p for p in seen if p.done > 0]
    assert before
    assert after
    assert all(math.isnan(p.first_ended) and p.first_items == 0 for p in before)
    # The first task held two deals; every later report keeps when it ended.
    assert {(p.first_ended, p.first_items) for p in after} == {(after[0].first_ended, 2)}
    assert 0 < after[0].first_ended <= after[0].elapsed


def test_python_dash_m_runs_simulate() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spades_core", "simulate", "--hands", "1", "--seed", "2",
         "--ns", "random", "--ew", "random", "--json", "--workers", "1"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(done.stdout)["hands"] == 1


# -- tournament ---------------------------------------------------------------------


def test_tournament_json_is_exactly_what_the_api_returns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, err = run_cli(
        capsys, "tournament", "--players", "random,easy,normal", "--hands", "3", "--seed", "4",
        "--duplicate", "--json", "--workers", "1",
    )  # fmt: skip
    result = sc.tournament(["random", "easy", "normal"], hands=3, seed=4, duplicate=True)
    assert out == json.dumps(result.to_json(), sort_keys=True) + "\n"
    assert err.splitlines()[0] == (
        "classic: random, easy, normal; 3 duplicate deals per pairing (18 hands); seed 4; "
        "local, 1 worker"
    )
    data: dict[str, Any] = json.loads(out)
    assert [p["player"] for p in data["players"]] == ["random", "easy", "normal"]
    assert len(data["pairs"]) == 3


def test_tournament_table_has_the_matrix_ratings_and_pairings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, _ = run_cli(
        capsys, "tournament", "--players", "random,easy,hard:steps=100:bid_steps=100",
        "--hands", "2", "--seed", "1", "-q", "--workers", "1",
    )  # fmt: skip
    assert out.startswith("classic: 3 players, 2 deals per pairing, 6 hands, seed 1\n")
    assert "Bag-adjusted points per hand, row minus column, with 95% intervals:" in out
    assert "Rating: bag-adjusted margin per hand against the field, 95% interval:" in out
    assert "random - hard:bid_steps=100:steps=100" in out
    assert "  1. " in out
    assert "  3. " in out


def test_tournament_games_mode_prints_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run_cli(
        capsys, "tournament", "--players", "random,normal", "--games", "2", "--seed", "1",
        "-o", "target_score=100", "-q", "--workers", "1",
    )  # fmt: skip
    assert "Games won by the first player, with 95% Wilson intervals:" in out
    assert "random - normal  0 of 2: 0.0%, 95% CI [0.0%, 65.8%]; normal won 2" in out


@pytest.mark.integration("plot")
@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_tournament_plot_draws_a_picture(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str
) -> None:
    target = tmp_path / f"t{suffix}"
    run_cli(
        capsys, "tournament", "--players", "random,easy,normal", "--hands", "2", "--seed", "1",
        "--plot", str(target), "--workers", "1",
    )  # fmt: skip
    data = target.read_bytes()
    if suffix == ".svg":
        text = data.decode()
        assert "<svg" in text
        assert "Rating (95% interval)" in text
        assert "<dc:date>" not in text
    else:
        assert data.startswith(b"\x89PNG")


def test_plot_refuses_other_formats_before_any_work(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["tournament", "--players", "easy,normal", "--plot", "t.jpg"])
    assert status == 2
    assert "a plot is saved as .svg or .png; got 't.jpg'" in capsys.readouterr().err


def test_plot_without_matplotlib_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from spades_core.simulation.plot import PlotError, plot_tournament

    result = sc.tournament(["random", "easy"], hands=1, seed=1, workers=1)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(PlotError, match=r"pip install 'spades-core\[plot\]'"):
        plot_tournament(result, tmp_path / "t.svg")


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("easy", "at least two players"),
        ("easy,Easy", "repeated: easy"),
        ("easy,,normal", "not a player name: ''"),
    ],
)
def test_tournament_bad_players_exit_with_status_2(
    capsys: pytest.CaptureFixture[str], players: str, message: str
) -> None:
    assert main(["tournament", "--players", players, "--hands", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spades tournament: ")
    assert message in err


def test_tournament_needs_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--hands", "1"]) == 2
    assert "--players" in capsys.readouterr().err


def test_a_run_that_fails_exits_with_status_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(match: Match, start: int, stop: int) -> tuple[object, ...]:
        raise OSError("disk on fire")

    monkeypatch.setattr("spades_core.simulation.backends.run_chunk", broken)
    status = main(["simulate", "--hands", "2", "--seed", "1", "--workers", "1", "--task-size", "2"])
    assert status == 1
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        "spades simulate: the task for deals 1-2 of normal vs easy failed 4 times; "
        "last: OSError: disk on fire"
    )


def test_games_that_may_never_end_are_announced(capsys: pytest.CaptureFixture[str]) -> None:
    _, err = run_cli(
        capsys, "simulate", "--variant", "mirror", "--ns", "random", "--ew", "random",
        "--games", "1", "--seed", "1", "-o", "bag_limit=1", "--max-hands", "3", "--workers", "1",
    )  # fmt: skip
    note = err.splitlines()[1]
    assert note.startswith("note: every bag costs 100 points, more than the 10 points")
    assert note.endswith("each game stops after 3 hands (--max-hands) and counts as unfinished")
