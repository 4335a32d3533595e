"""``spades play`` driven end to end with piped input.

Most tests run the command in-process through :func:`spades_core.cli.main`
with ``sys.stdin`` replaced by the scripted input; one runs the real
``python -m spades_core play`` with a pipe. The autosave directory is always
a temporary one (``SPADES_CORE_DATA_DIR``).
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import spades_core as sc
from play_helpers import private_data_dir, run_play  # noqa: F401 (the `data` fixture)
from spades_core.cli import main
from spades_core.cli.play import (
    AUTOSAVE_NAME,
    DATA_DIR_ENV,
    SESSION_FORMAT,
    bot_seed,
    data_dir,
    read_save,
)

# Every card number and every bid, so whichever card is legal gets played
# after the illegal ones have been refused.
ALL_NUMBERS = [str(n) for n in range(14)]


def test_full_hand_with_legal_and_illegal_input_hint_help_and_save(
    data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    saved = tmp_path / "hand1.json"
    script = ["help", "hint", "banana", "14", "3"]
    # Thirteen tricks: each turn tries every number until one is legal.
    script += ["0", "99", "ZZ"] + ALL_NUMBERS * 13
    # Card numbers stay with their cards, so the lines may reach later hands:
    # a high target keeps the game going until the input ends.
    args = [
        "--variant",
        "classic",
        "--seed",
        "11",
        "-o",
        "target_score=5000",
        "-o",
        "loss_floor=none",
    ]
    status, out, err = run_play(monkeypatch, capsys, args, script)
    assert status == 0, err
    # help lists the commands; hint asks the coach.
    assert "save FILE" in out
    assert "quit" in out
    assert "Coach: bid " in out
    # Bad bids get the reason and a new prompt.
    assert "You cannot bid 'banana': bids are Nil (0) or 1 to 13. You may bid Nil or 1-13." in out
    assert "You cannot bid 14: bids are Nil (0) or 1 to 13. You may bid Nil or 1-13." in out
    # Your own bid is echoed like the bots' bids.
    assert "South (you) bids 3" in out
    # Bad cards: a number off the list, text that is no card, a card the rules refuse,
    # all in the board's notation.
    assert "There is no card number 0" in out
    assert "There is no card number 99" in out
    assert "'ZZ' is not a card" in out
    assert "You must follow " in out
    assert "SOUTH" not in out
    assert not re.search(r"\b(T[CDHS♣♦♥♠]|[2-9JQKA][CDHS])\b", out.split("Commands:")[0])
    # The hand was played out and scored with a breakdown.
    assert "Hand 1 scored" in out
    assert re.search(r"contract \d+ (made|set) \(\d+ tricks\)", out)
    assert "End of input: game saved." in out

    game, settings = read_save(data / AUTOSAVE_NAME)
    assert settings == {"seat": "S", "partner": "normal", "opponents": "normal", "coach": True}
    assert game.hand_results, "the first hand was finished"
    first = game.hand_results[0]
    assert first.bids[sc.Seat.SOUTH] == 3
    assert sum(first.tricks.values()) == 13

    # save FILE writes a plain record that --resume reads back.
    assert not saved.exists()
    status, out, _ = run_play(monkeypatch, capsys, ["--continue"], [f"save {saved}"])
    assert status == 0
    assert f"Saved to {saved}" in out
    assert sc.loads(saved.read_text(encoding="utf-8")) == game


def test_resume_file_and_continue_pick_up_the_same_game(
    data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_play(
        monkeypatch, capsys, ["--variant", "mirror", "--seed", "4"], ["", *ALL_NUMBERS]
    )
    assert status == 0
    in_progress, _ = read_save(data / AUTOSAVE_NAME)
    assert in_progress.phase is sc.Phase.PLAY
    assert len(in_progress.tricks) >= 2

    record = tmp_path / "record.json"
    record.write_text(sc.dumps(in_progress), encoding="utf-8")
    status, out, _ = run_play(monkeypatch, capsys, ["--resume", str(record)], ["show"])
    assert status == 0
    assert f"Resuming the game saved in {record}" in out
    assert "Hand 1 is in progress." in out
    resumed, _ = read_save(data / AUTOSAVE_NAME)
    assert resumed == in_progress  # 'show' changes nothing; the autosave is the same game

    one_card = str(next(iter(in_progress.legal_cards())))
    status, out, _ = run_play(monkeypatch, capsys, ["--continue"], [one_card])
    assert status == 0
    assert "Continuing the game saved in" in out
    continued, _ = read_save(data / AUTOSAVE_NAME)
    # One more of South's cards went to the table.
    assert len(continued.hand(sc.Seat.SOUTH)) == len(in_progress.hand(sc.Seat.SOUTH)) - 1


def test_continue_keeps_the_saved_player_configuration(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--variant", "whiz", "--seed", "2", "--partner", "easy", "--opponents", "random"]
    status, _, _ = run_play(monkeypatch, capsys, [*args, "--no-coach"], ["hint"])
    assert status == 0
    saved = json.loads((data / AUTOSAVE_NAME).read_text(encoding="utf-8"))
    assert saved["format"] == SESSION_FORMAT
    assert (saved["partner"], saved["opponents"], saved["coach"]) == ("easy", "random", False)
    assert saved["record"]["variant"] == "whiz"

    status, out, _ = run_play(monkeypatch, capsys, ["--continue"], ["hint"])
    assert status == 0
    assert "partner North plays at level easy, East and West at level random" in out
    assert "The coach is off" in out


def test_play_to_the_end_announces_the_winner_and_clears_the_autosave(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--variant", "mirror", "--seed", "9", "--option", "target_score=100"]
    status, out, _ = run_play(monkeypatch, capsys, args, ALL_NUMBERS * 13 * 40)
    assert status == 0
    assert "Game over: " in out
    assert " win, " in out
    assert not (data / AUTOSAVE_NAME).exists()
    status, _, err = run_play(monkeypatch, capsys, ["--continue"], [])
    assert status == 1
    assert "there is no game to continue" in err


def test_same_seed_and_input_give_the_same_game(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = ["2", *ALL_NUMBERS * 6]
    outputs = []
    for _ in range(2):
        status, out, _ = run_play(monkeypatch, capsys, ["--seed", "21"], script)
        assert status == 0
        outputs.append(out.split("\n", 1)[1])  # the first line may mention a moved autosave
    assert outputs[0] == outputs[1]


def test_quit_and_ctrl_c_save_and_exit_cleanly(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "3"], ["quit"])
    assert status == 0
    assert "Game saved. Continue later with: spades play --continue" in out
    assert (data / AUTOSAVE_NAME).exists()

    class Interrupting:
        """Standard input on which the player presses Ctrl-C."""

        def readline(self, *args: object) -> str:
            raise KeyboardInterrupt

        def isatty(self) -> bool:
            return False

    monkeypatch.setattr(sys, "stdin", Interrupting())
    status = main(["play", "--continue", "--delay", "0"])
    out = capsys.readouterr().out
    assert status == 0
    assert "Interrupted: game saved." in out


def test_bad_arguments_and_bad_save_files(
    data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run_play(monkeypatch, capsys, ["--option", "target_score"], [])
    assert status == 2
    assert "NAME=VALUE" in err
    status, _, err = run_play(monkeypatch, capsys, ["--option", "bogus=1"], [])
    assert status == 2
    assert "unknown option 'bogus'" in err
    status, _, err = run_play(monkeypatch, capsys, ["--partner", "genius"], [])
    assert status == 2
    assert "genius" in err
    status, _, err = run_play(monkeypatch, capsys, ["--continue", "--seed", "1"], [])
    assert status == 2
    assert "cannot be combined" in err
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "spades-game"', encoding="utf-8")
    status, _, err = run_play(monkeypatch, capsys, ["--resume", str(broken)], [])
    assert status == 1
    assert "is not a saved game" in err
    assert broken.exists()  # a file named with --resume is the player's: never moved
    status, _, err = run_play(monkeypatch, capsys, ["--resume", str(tmp_path / "none.json")], [])
    assert status == 1
    assert "cannot read" in err


def test_cards_typed_in_every_notation(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """QH, 10h and q♥ all name cards; the first legal one typed is played."""
    game = sc.new_game("classic", seed=11).deal()
    south = game.hand(sc.Seat.SOUTH)
    spellings = []
    for card in south:
        rank = "10" if card.rank is sc.Rank.TEN else card.rank.letter
        spellings += [str(card), f"{rank}{card.suit.letter.lower()}", f"{rank}{card.suit.symbol}"]
    script = ["3", *spellings]
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "11"], script)
    assert status == 0
    played, _ = read_save(data / AUTOSAVE_NAME)
    south_plays = [c for s, c in played.current_trick if s is sc.Seat.SOUTH] + [
        c for trick in played.tricks for s, c in trick.plays if s is sc.Seat.SOUTH
    ]
    assert len(south_plays) >= 2
    assert "not a card" not in out


def test_piped_subprocess_plays_and_autosaves(tmp_path: Path) -> None:
    env = {DATA_DIR_ENV: str(tmp_path), "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
    completed = subprocess.run(
        [sys.executable, "-m", "spades_core", "play", "--seed", "5", "--variant", "mirror"],
        input="\n" + "\n".join(ALL_NUMBERS * 2) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**env, "PATH": ""},
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "\x1b[" not in completed.stdout  # plain text through a pipe
    assert "End of input: game saved." in completed.stdout
    assert (tmp_path / AUTOSAVE_NAME).exists()


def test_data_dir_follows_the_override_and_xdg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "mine"))
    assert data_dir() == tmp_path / "mine"
    monkeypatch.delenv(DATA_DIR_ENV)
    if sys.platform not in ("win32", "darwin"):
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
        assert data_dir() == tmp_path / "xdg" / "spades-core"
        monkeypatch.delenv("XDG_DATA_HOME")
        assert data_dir() == Path.home() / ".local" / "share" / "spades-core"


def test_a_game_resumed_midway_is_the_game_played_in_one_sitting(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Random bots draw from their seeds: resuming must not change their moves."""
    args = ["--variant", "mirror", "--seed", "17", "--partner", "random", "--opponents", "random"]
    script = ALL_NUMBERS * 16
    assert run_play(monkeypatch, capsys, args, script)[0] == 0
    in_one_sitting, _ = read_save(data / AUTOSAVE_NAME)

    (data / AUTOSAVE_NAME).unlink()
    cut = [0, 9, 40, 101, len(script)]
    for number, (start, stop) in enumerate(itertools.pairwise(cut)):
        first_args = args if number == 0 else ["--continue"]
        status, out, _ = run_play(monkeypatch, capsys, first_args, [*script[start:stop], "quit"])
        assert status == 0
        assert "Game saved." in out
    resumed, _ = read_save(data / AUTOSAVE_NAME)
    assert resumed == in_one_sitting
    assert resumed.hand_results  # a whole hand was played across the interruptions


def test_bot_seeds_differ_by_seat_and_by_move_and_follow_the_game_seed() -> None:
    game = sc.new_game("classic", seed=7).deal()
    seeds = {bot_seed(game, seat) for seat in sc.Seat}
    assert len(seeds) == 4
    assert bot_seed(game, sc.Seat.NORTH) == bot_seed(
        sc.new_game("classic", seed=7).deal(), sc.Seat.NORTH
    )
    assert bot_seed(game, sc.Seat.NORTH) != bot_seed(
        sc.new_game("classic", seed=8).deal(), sc.Seat.NORTH
    )
    later = game.apply(game.legal_actions()[0])
    assert bot_seed(later, sc.Seat.NORTH) != bot_seed(game, sc.Seat.NORTH)
