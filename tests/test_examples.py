"""Every example runs: each is started as its own process, the way
a reader would run it, and its output is checked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import spades_core as sc
from spades_core.cli.saves import DATA_DIR_ENV

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``examples/NAME ARGS`` with ``stdin``; fail on a non-zero status."""
    completed = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", str(EXAMPLES / name), *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={"PYTHONIOENCODING": "utf-8", "PATH": ""},
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return completed


def test_embed_minimal_plays_a_whole_mirror_game() -> None:
    out = run_example("embed_minimal.py").stdout
    lines = out.splitlines()
    hands = [line for line in lines if line.startswith("hand ")]
    assert hands[0].startswith("hand  1  bids ")
    assert len(hands) == int(hands[-1].split()[1])
    assert lines[-1] in ("NS wins.", "EW wins.")


def test_embed_game_loop_runs_unattended_with_auto() -> None:
    out = run_example("embed_game_loop.py", "--auto").stdout
    assert "coach: " in out
    assert "Hand 1 over: NS " in out
    assert "Saved and reloaded: <Game whiz hand 2, DEAL" in out
    assert "Hand 2 over: NS " in out
    assert "After 2 hands: NS " in out


def test_embed_game_loop_takes_moves_from_input_then_falls_back_to_the_coach() -> None:
    # "1" picks the first legal bid, "xx" is refused, Enter takes the tip,
    # then input ends and the coach plays on.
    out = run_example("embed_game_loop.py", stdin="1\nxx\n\n").stdout
    assert "  type a number from 1 to " in out
    assert "After 2 hands: NS " in out


def test_replay_record_prints_every_hand_of_a_record(tmp_path: Path) -> None:
    game = sc.new_game("classic", seed=5, target_score=200)
    game = sc.bots.play_game(game, [sc.bots.make("easy", seed=n) for n in range(4)], hands=2)
    record = tmp_path / "game.json"
    record.write_text(sc.dumps(game), encoding="utf-8")
    out = run_example("replay_record.py", str(record)).stdout
    assert out.startswith("Classic Spades with {'target_score': 200}\n")
    for result in game.hand_results:
        assert f"Hand {result.number + 1}, dealt by {result.dealer.name.title()}" in out
        assert f"  NS: {result.points[sc.Team.NS]:+d} this hand" in out
    assert out.count("  trick 13: ") == 2


def test_replay_record_reads_json_lines_and_its_own_sample(tmp_path: Path) -> None:
    games = [sc.new_game("whiz", seed=seed).deal() for seed in (1, 2)]
    lines = tmp_path / "games.jsonl"
    lines.write_text("".join(sc.dumps(game) + "\n" for game in games), encoding="utf-8")
    out = run_example("replay_record.py", str(lines)).stdout
    assert out.count("Game in progress: hand 1, BID.") == 2
    assert "Hand 2, dealt by " in run_example("replay_record.py").stdout


def test_replay_record_rejects_a_record_that_breaks_the_rules(tmp_path: Path) -> None:
    record = sc.records.to_record(sc.new_game("mirror", seed=3).deal())
    record["hands"][0]["bids"] = [13]  # Mirror: the bid must equal the spades held
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    completed = subprocess.run(
        [
            sys.executable,
            "-W",
            "error::DeprecationWarning",
            str(EXAMPLES / "replay_record.py"),
            str(bad),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 1
    assert completed.stderr.startswith(f"{bad}: ")
    assert "hand 1, action 1: bid 13" in completed.stderr


def test_replay_record_reads_the_autosave_spades_replay_reads(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"PYTHONIOENCODING": "utf-8", "PATH": "", DATA_DIR_ENV: str(data)}
    subprocess.run(
        [sys.executable, "-m", "spades_core", "play", "--variant", "mirror", "--seed", "4"],
        input="\n" * 6 + "quit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    autosave = data / "autosave.json"
    assert json.loads(autosave.read_text(encoding="utf-8"))["format"] == "spades-play-session"
    checked = subprocess.run(
        [sys.executable, "-m", "spades_core", "replay", "--json", str(autosave)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout
    out = run_example("replay_record.py", str(autosave)).stdout
    assert out.startswith("Mirror Spades\n")
    assert "Game in progress: hand 1, " in out
    # An autosave line in JSON Lines, as spades replay takes it, too.
    lines = tmp_path / "mixed.jsonl"
    lines.write_text(
        autosave.read_text(encoding="utf-8") + sc.dumps(sc.new_game("whiz", seed=1)) + "\n"
    )
    out = run_example("replay_record.py", str(lines)).stdout
    assert out.count("Game in progress: hand 1, ") == 2
