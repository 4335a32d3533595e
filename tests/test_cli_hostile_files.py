"""Files that are not what a command expects: a named pipe given as the
autosave, a save, a lock or a journal; a disk with no room; saves stopped by
``kill -9``. The commands run as child processes, so a command that hangs
fails its test at the outer time limit instead of stopping the suite."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import spades_core as sc
from spades_core.cli.saves import (
    AUTOSAVE_NAME,
    DATA_DIR_ENV,
    LOCK_NAME,
    PlayerConfig,
    SaveFileError,
    read_save,
    session_json,
    write_save,
)

OUTER_LIMIT = 120
"""Seconds after which a command is taken to hang (it needs a few at most)."""


def temporary_name(path: Path) -> Path:
    """The one temporary file a save to ``path`` writes (the name the docs give)."""
    return path.with_name(f".{path.name}.tmp")


def spades(
    args: list[str], data: Path, stdin: str = "", limit_file_size: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run ``spades ARGS`` in a child process with the data directory ``data``;
    with ``limit_file_size`` no file may grow (as on a full disk)."""

    def no_room() -> None:
        # Writes that would grow a file fail (EFBIG), like writes to a full disk.
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

    return subprocess.run(
        [sys.executable, "-m", "spades_core", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, DATA_DIR_ENV: str(data), "PYTHONDONTWRITEBYTECODE": "1"},
        timeout=OUTER_LIMIT,
        check=False,
        preexec_fn=no_room if limit_file_size else None,
    )


# -- named pipes ---------------------------------------------------------------------


def test_an_autosave_that_is_a_named_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    os.mkfifo(data / AUTOSAVE_NAME)
    result = spades(["play", "--continue"], data)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "named pipe (FIFO), not a regular file" in result.stderr
    # Kept aside like any unreadable save, never deleted.
    (kept,) = [path for path in data.iterdir() if path.name.startswith("autosave.unreadable-")]
    assert kept.is_fifo()


def test_a_new_game_sets_aside_an_autosave_that_is_a_named_pipe(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    os.mkfifo(data / AUTOSAVE_NAME)
    result = spades(["play", "--seed", "3"], data, stdin="quit\n")
    assert "Traceback" not in result.stderr
    assert "was not a save; it was moved to" in result.stdout + result.stderr
    assert "The game that was in progress" not in result.stdout + result.stderr
    # Nothing that is not a game is kept as one; the pipe is kept aside, never deleted.
    assert not list(data.glob("autosave.previous*"))
    (kept,) = [path for path in data.iterdir() if path.name.startswith("autosave.unreadable-")]
    assert kept.is_fifo()


def test_a_save_to_resume_that_is_a_named_pipe_is_refused(tmp_path: Path) -> None:
    pipe = tmp_path / "game.json"
    os.mkfifo(pipe)
    result = spades(["play", "--resume", str(pipe)], tmp_path / "data")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"cannot read {pipe}: it is a named pipe (FIFO)" in result.stderr


def test_a_lock_file_that_is_a_named_pipe_does_not_stop_the_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    os.mkfifo(data / LOCK_NAME)
    result = spades(["play", "--seed", "3", "--delay", "0"], data, stdin="quit\n")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    lock = data / LOCK_NAME
    assert f"cannot use the lock file {lock}: it is a named pipe (FIFO)" in result.stderr
    game, _ = read_save(data / AUTOSAVE_NAME)
    assert game.seed == 3


def test_a_journal_that_is_a_named_pipe_is_refused(tmp_path: Path) -> None:
    pipe = tmp_path / "run.jsonl"
    os.mkfifo(pipe)
    result = spades(["simulate", "--hands", "2", "--journal", str(pipe)], tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"cannot use the journal {pipe}: it is a named pipe (FIFO)" in result.stderr


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_a_journal_that_is_a_device_is_refused(tmp_path: Path, device: str) -> None:
    result = spades(["simulate", "--hands", "2", "--journal", device], tmp_path)
    assert result.returncode == 2
    assert f"cannot use the journal {device}: it is a device" in result.stderr


# -- a full disk ---------------------------------------------------------------------


def test_play_on_a_full_disk_takes_its_lock_and_says_the_game_is_not_saved(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    result = spades(["play", "--seed", "3", "--delay", "0"], data, "quit\n", limit_file_size=True)
    assert "Traceback" not in result.stderr
    assert result.returncode == 1
    assert "(The game is not being saved: cannot save to" in result.stdout
    assert "The game could NOT be saved" in result.stdout
    assert "File too large" in result.stdout
    # The lock was taken (its file is there, empty: no room for the process id),
    # and no temporary file is left behind.
    assert sorted(path.name for path in data.iterdir()) == [LOCK_NAME]
    assert (data / LOCK_NAME).read_bytes() == b""


# -- saves stopped by kill -9 ----------------------------------------------------------

_STOPPED_SAVE = """
import os, sys, time
from pathlib import Path
from spades_core.cli import saves

def stop_here(descriptor):
    print("writing", flush=True)
    time.sleep(3600)

os.fsync = stop_here  # the save stops between writing its temporary and moving it
saves.write_save(Path(sys.argv[1]), sys.argv[2])
"""


def _killed_while_saving(path: Path, text: str) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", _STOPPED_SAVE, str(path), text],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    try:
        assert child.stdout.readline() == "writing\n"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=OUTER_LIMIT)
        child.stdout.close()


def test_saves_stopped_by_kill_leave_one_temporary_that_the_next_save_removes(
    tmp_path: Path,
) -> None:
    path = tmp_path / AUTOSAVE_NAME
    games = [sc.new_game("classic", seed=seed).deal() for seed in range(4)]
    write_save(path, session_json(games[0], PlayerConfig()))
    for game in games[1:]:
        _killed_while_saving(path, session_json(game, PlayerConfig()))
        # The old save is intact, and one temporary file at most is left.
        assert read_save(path)[0] == games[0]
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            [AUTOSAVE_NAME, temporary_name(path).name]
        )
    write_save(path, session_json(games[3], PlayerConfig()))
    assert [p.name for p in tmp_path.iterdir()] == [AUTOSAVE_NAME]
    assert read_save(path)[0] == games[3]


def test_a_save_removes_the_temporary_files_earlier_releases_left(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    left = [tmp_path / f".game.json.{stem}.tmp" for stem in ("a1b2c3d4", "zz_9y8x7", "00000000")]
    for stray in left:
        stray.write_text("{half a save", encoding="utf-8")
    others = [tmp_path / ".other.json.a1b2c3d4.tmp", tmp_path / ".game.json.short.tmp"]
    for other in others:
        other.write_text("not this save's", encoding="utf-8")
    write_save(path, sc.dumps(sc.new_game("classic", seed=1)))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [path.name, *(other.name for other in others)]
    )


def test_a_temporary_name_that_is_a_link_is_not_followed(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me", encoding="utf-8")
    temporary_name(path).symlink_to(target)
    with pytest.raises(SaveFileError, match="cannot save to"):
        write_save(path, sc.dumps(sc.new_game("classic", seed=1)))
    assert target.read_text(encoding="utf-8") == "keep me"
    assert not path.exists()
