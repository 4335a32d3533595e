"""Saves of the terminal game: unreadable autosaves, where ``save FILE`` may
write, a data directory that cannot be written, two sessions at once, and
the autosave's own fields."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

import spades_core as sc
from play_helpers import private_data_dir, run_play  # noqa: F401 (the `data` fixture)
from spades_core.cli import play
from spades_core.cli.saves import (
    AUTOSAVE_NAME,
    DATA_DIR_ENV,
    SESSION_FORMAT,
    PlayerConfig,
    SaveFileError,
    SessionLock,
    read_save,
    session_json,
    write_save,
)


def autosave_of(game: sc.Game, **fields: object) -> str:
    document = json.loads(session_json(game, PlayerConfig()))
    document.update(fields)
    return json.dumps(document)


CORRUPT_AUTOSAVES = {
    "random bytes": bytes(range(256)) * 4,
    "UTF-16": json.dumps({"format": SESSION_FORMAT}).encode("utf-16"),
    "100,000-deep JSON": b"[" * 100_000 + b"]" * 100_000,
    "cut short": b'{"format": "spades-play-session", "version": 1, "rec',
    "not a record": json.dumps({"format": SESSION_FORMAT, "version": 1, "record": 7}).encode(),
}


@pytest.mark.parametrize("content", CORRUPT_AUTOSAVES.values(), ids=CORRUPT_AUTOSAVES.keys())
def test_a_corrupt_autosave_is_kept_aside_and_a_new_game_is_offered(
    data: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    content: bytes,
) -> None:
    data.mkdir()
    (data / AUTOSAVE_NAME).write_bytes(content)
    status, _, err = run_play(monkeypatch, capsys, ["--continue"], [])
    assert status == 1
    assert "Traceback" not in err
    assert "is not a saved game" in err or "does not hold a game" in err
    kept = [path for path in data.iterdir() if path.name.startswith("autosave.unreadable-")]
    assert len(kept) == 1
    assert kept[0].read_bytes() == content  # moved, never deleted or changed
    assert f"The unreadable save was kept as {kept[0]}" in err
    assert "Start a new game with: spades play" in err
    assert not (data / AUTOSAVE_NAME).exists()


def test_on_a_terminal_a_corrupt_autosave_leads_to_a_new_game_when_accepted(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data.mkdir()
    (data / AUTOSAVE_NAME).write_bytes(b"\xff\xfe garbage")
    monkeypatch.setattr(play, "_is_terminal", lambda stream: True)
    status, out, err = run_play(monkeypatch, capsys, ["--continue"], ["y", "quit"])
    assert status == 0, err
    assert "Start a new game instead?" in out
    assert "New game of Classic Spades" in out
    assert "Game saved." in out
    game, _ = read_save(data / AUTOSAVE_NAME)
    assert game.hand_number == 0


@pytest.mark.parametrize("target", ["/", ".", "/dev/null", "DIRECTORY"])
def test_save_refuses_directories_and_devices_and_the_game_goes_on(
    data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    target: str,
) -> None:
    if target == "DIRECTORY":
        target = str(tmp_path)
    before = os.lstat(target)
    status, out, err = run_play(
        monkeypatch, capsys, ["--seed", "3"], [f"save {target}", "show", "quit"]
    )
    assert status == 0, err
    assert "Traceback" not in out + err
    assert "Not saved: " in out
    assert "is a directory" in out or "is not a regular file" in out
    assert "Game saved." in out  # the game went on and was autosaved
    after = os.lstat(target)
    assert stat.S_IFMT(after.st_mode) == stat.S_IFMT(before.st_mode)
    assert after.st_ino == before.st_ino


def test_save_never_follows_a_symlink_to_replace_its_target(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me", encoding="utf-8")
    link = tmp_path / "game.json"
    link.symlink_to(target)
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "3"], [f"save {link}", "quit"])
    assert status == 0
    assert "is a symbolic link" in out
    assert target.read_text(encoding="utf-8") == "keep me"
    assert link.is_symlink()


def test_save_to_a_regular_file_replaces_it_with_the_record(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text("old", encoding="utf-8")
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "3"], [f"save {path}", "quit"])
    assert status == 0
    assert f"Saved to {path}. Resume with: spades play --resume {path}" in out
    assert sc.loads(path.read_text(encoding="utf-8")).seed == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "game.json"]  # no temp files


def test_an_unwritable_data_directory_is_reported_and_the_exit_is_non_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A regular file where the directory should be: unwritable even for root.
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv(DATA_DIR_ENV, str(blocked))
    status, out, err = run_play(monkeypatch, capsys, ["--seed", "3"], ["quit"])
    assert status == 1
    assert "game saved" not in (out + err).lower()
    assert "The game could NOT be saved: cannot write" in out
    assert str(blocked) in out
    assert "the game cannot be saved" in err
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "3"], [])
    assert status == 1
    assert "End of input: the game could NOT be saved" in out


def test_a_second_session_on_the_same_data_directory_is_refused(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    other = SessionLock(data)
    other.acquire()
    try:
        status, _, err = run_play(monkeypatch, capsys, ["--seed", "3"], ["quit"])
    finally:
        other.release()
    assert status == 1
    assert f"another spades play (process {os.getpid()}) is using {data}" in err
    assert DATA_DIR_ENV in err
    assert not (data / AUTOSAVE_NAME).exists()
    # Once the other session has ended, the directory is free again.
    status, _, _ = run_play(monkeypatch, capsys, ["--seed", "3"], ["quit"])
    assert status == 0


def test_concurrent_writers_never_leave_an_unreadable_save(tmp_path: Path) -> None:
    path = tmp_path / AUTOSAVE_NAME
    games = [sc.new_game("classic", seed=seed).deal() for seed in range(2)]
    texts = [session_json(game, PlayerConfig()) for game in games]
    write_save(path, texts[0])
    failures: list[str] = []
    stop = threading.Event()

    def writer(text: str) -> None:
        for _ in range(150):
            write_save(path, text)

    def reader() -> None:
        while not stop.is_set():
            try:
                read_save(path)
            except SaveFileError as error:
                failures.append(str(error))

    threads = [threading.Thread(target=writer, args=(text,)) for text in texts]
    watcher = threading.Thread(target=reader)
    watcher.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    watcher.join()
    assert failures == []
    assert [p.name for p in tmp_path.iterdir()] == [AUTOSAVE_NAME]


@pytest.mark.parametrize(
    ("fields", "complaint"),
    [
        ({"coach": "false"}, "the save's 'coach' must be true or false; got 'false'"),
        ({"seat": "Q"}, "the save's 'seat' must be one of N, E, S, W"),
        ({"partner": 3}, "the save's 'partner' must be a bot level"),
        ({"opponents": "genius"}, "the save names an unknown bot level"),
        ({"version": "1"}, "is a version '1' save"),
        ({"extra": 1}, "unknown field(s) 'extra'"),
    ],
)
def test_the_autosave_fields_are_checked_and_a_bad_one_exits_1(
    data: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fields: dict[str, object],
    complaint: str,
) -> None:
    data.mkdir()
    game = sc.new_game("classic", seed=5).deal()
    (data / AUTOSAVE_NAME).write_text(autosave_of(game, **fields), encoding="utf-8")
    status, _, err = run_play(monkeypatch, capsys, ["--continue"], [])
    assert status == 1
    assert complaint in err


def test_the_saved_seat_and_coach_setting_are_honoured(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data.mkdir()
    game = sc.new_game("classic", seed=5, dealer=sc.Seat.WEST).deal()  # North bids first
    text = autosave_of(game, seat="N", coach=False, partner="easy")
    (data / AUTOSAVE_NAME).write_text(text, encoding="utf-8")
    status, out, _ = run_play(monkeypatch, capsys, ["--continue"], ["hint", "2"])
    assert status == 0
    assert "You sit North; your partner South plays at level easy" in out
    assert "North (you) bids 2" in out
    assert "The coach is off" in out
    saved = json.loads((data / AUTOSAVE_NAME).read_text(encoding="utf-8"))
    assert (saved["seat"], saved["coach"], saved["partner"]) == ("N", False, "easy")
    resumed, _ = read_save(data / AUTOSAVE_NAME)
    assert resumed.bids[sc.Seat.NORTH] == 2
