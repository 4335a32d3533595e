"""Journals: a stopped run picks up where it left off, a finished one grows by
more deals or more players, always with the bytes of a run that played
everything; a journal of another run, a damaged one or one in use is refused
with a :class:`JournalError` and left as it was."""

from __future__ import annotations

import json
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import spades_core as sc
from spades_core.cli import main
from spades_core.players import parse_player
from spades_core.simulation import JournalError, Progress, simulate, tournament
from spades_core.simulation.core import plan_run
from spades_core.simulation.journal import Journal, read_journal
from spades_core.simulation.work import ItemResult, Match, run_item


def json_of(result: Any) -> str:
    return json.dumps(result.to_json(), sort_keys=True)


class Stop(Exception):
    """Stands for a run killed part way."""


def stop_after(items: int) -> Any:
    def watch(progress: Progress) -> None:
        if progress.done >= items:
            raise Stop

    return watch


def match_of(first: str, second: str, **settings: Any) -> Match:
    if "hand_limit" in settings:  # simulate's name for what plan_run calls max_hands
        settings["max_hands"] = settings.pop("hand_limit")
    return plan_run(**settings).match(parse_player(first), parse_player(second))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"hands": 8, "seed": 3, "duplicate": True, "workers": 1},
        {"hands": 8, "seed": 4, "workers": 2},
        {"games": 4, "seed": 5, "duplicate": True, "hand_limit": 3, "workers": 1},
    ],
    ids=["duplicate-hands", "two-workers", "games"],
)
def test_a_stopped_run_picks_up_where_it_left_off(tmp_path: Path, kwargs: dict[str, Any]) -> None:
    journal = tmp_path / "run.jsonl"
    with pytest.raises(Stop):
        simulate("normal", "easy", journal=journal, task_size=2, progress=stop_after(2), **kwargs)
    (kept,) = read_journal(str(journal), [match_of("normal", "easy", **kwargs)])
    count = kwargs.get("hands") or kwargs["games"]
    assert 2 <= len(kept) < count
    seen: list[Progress] = []
    resumed = simulate(
        "normal", "easy", journal=str(journal), task_size=2, progress=seen.append, **kwargs
    )
    fresh = simulate("normal", "easy", **kwargs)
    assert json_of(resumed) == json_of(fresh)
    # Only what the journal lacked was played.
    assert {progress.total for progress in seen} == {count - len(kept)}
    assert seen[-1].done == count - len(kept)
    # With everything kept, nothing is played at all.
    again: list[Progress] = []
    repeated = simulate("normal", "easy", journal=journal, progress=again.append, **kwargs)
    assert json_of(repeated) == json_of(fresh)
    assert again == []


def test_a_run_without_a_seed_goes_on_with_the_journals_seed(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    with pytest.raises(Stop):
        simulate("easy", "random", hands=6, workers=1, task_size=2, journal=journal,
                 progress=stop_after(2))  # fmt: skip
    seed = json.loads(journal.read_text().splitlines()[0])["seed"]
    resumed = simulate("easy", "random", hands=6, workers=1, journal=journal)
    assert resumed.seed == seed
    assert json_of(resumed) == json_of(simulate("easy", "random", hands=6, seed=seed, workers=1))


def test_a_journal_whose_seed_is_damaged_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    header, *tasks = made_journal(journal, hands=2, seed=1).decode().splitlines(keepends=True)
    journal.write_text(header.replace('"seed": 1', '"seed": "one"') + "".join(tasks))
    with pytest.raises(JournalError, match="damaged at line 1: its seed is 'one'"):
        simulate("easy", "random", hands=2, journal=journal)


def test_a_finished_run_grows_by_more_deals(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    simulate("easy", "random", hands=5, seed=9, workers=1, journal=journal)
    seen: list[Progress] = []
    longer = simulate(
        "easy", "random", hands=12, seed=9, workers=1, journal=journal, progress=seen.append
    )
    assert json_of(longer) == json_of(simulate("easy", "random", hands=12, seed=9, workers=1))
    assert seen[-1].total == 7
    # A shorter run takes its deals from the longer journal.
    shorter = simulate("easy", "random", hands=3, seed=9, journal=journal, progress=seen.append)
    assert json_of(shorter) == json_of(simulate("easy", "random", hands=3, seed=9, workers=1))


def test_a_tournament_grows_by_a_player_and_plays_only_the_new_pairings(tmp_path: Path) -> None:
    journal = tmp_path / "tournament.jsonl"
    settings: dict[str, Any] = {"hands": 3, "seed": 2, "duplicate": True, "workers": 1}
    tournament(["random", "easy"], journal=journal, **settings)
    seen: list[Progress] = []
    grown = tournament(
        ["random", "easy", "normal"], journal=journal, progress=seen.append, **settings
    )
    fresh = tournament(["random", "easy", "normal"], **settings)
    assert json_of(grown) == json_of(fresh)
    assert seen[-1].total == 2 * 3  # random-normal and easy-normal


def test_the_journal_keeps_one_checked_line_per_task(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    simulate("easy", "easy", hands=5, seed=1, workers=1, task_size=2, journal=journal)
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    header, *tasks = lines
    assert header["spades_core_journal"] == 1
    assert header["version"] == sc.__version__
    assert (header["seed"], header["mode"], header["variant"]) == (1, "hands", "classic")
    assert [(task["start"], len(task["items"])) for task in tasks] == [(0, 2), (2, 2), (4, 1)]
    match = match_of("easy", "easy", hands=5, seed=1)
    (kept,) = read_journal(str(journal), [match])
    assert kept == {index: run_item(match, index) for index in range(5)}
    assert all(isinstance(result, ItemResult) for result in kept.values())


def made_journal(path: Path, **settings: Any) -> bytes:
    simulate("easy", "random", workers=1, task_size=2, journal=path, **settings)
    return path.read_bytes()


@pytest.mark.parametrize(
    ("other", "message"),
    [
        ({"seed": 2}, "written by a run with seed 1; this run has seed 2"),
        ({"variant": "whiz"}, "variant 'classic'; this run has variant 'whiz'"),
        ({"duplicate": True}, "duplicate False; this run has duplicate True"),
        ({"nil_value": 50}, "options {}; this run has options {'nil_value': 50}"),
        ({"games": 4, "hands": None}, "mode 'hands'"),
    ],
)
def test_a_journal_of_another_run_is_refused_and_left_alone(
    tmp_path: Path, other: dict[str, Any], message: str
) -> None:
    journal = tmp_path / "run.jsonl"
    settings: dict[str, Any] = {"hands": 4, "seed": 1}
    before = made_journal(journal, **settings)
    with pytest.raises(JournalError, match=re.escape(message)):
        simulate("easy", "random", journal=journal, **(settings | other))
    assert journal.read_bytes() == before


def test_a_journal_of_another_version_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = tmp_path / "run.jsonl"
    before = made_journal(journal, hands=2, seed=1)
    written = sc.__version__
    monkeypatch.setattr(sc, "__version__", "9.9.9")
    message = f"version '{written}'; this run has version '9.9.9'"
    with pytest.raises(JournalError, match=re.escape(message)):
        simulate("easy", "random", hands=2, seed=1, journal=journal)
    assert journal.read_bytes() == before


@pytest.mark.parametrize(
    "content",
    [b"my notes\n", b"\x00\xff\xfe garbage", b'{"some": "json"}\n', b"[1, 2]\n"],
    ids=["text", "binary", "other-json", "list"],
)
def test_a_file_that_is_not_a_journal_is_never_overwritten(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    with pytest.raises(JournalError, match=r"notes\.txt is not a spades-core journal"):
        simulate("easy", "random", hands=2, seed=1, journal=path)
    assert path.read_bytes() == content


def test_a_last_line_cut_short_is_dropped_and_played_again(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    whole = made_journal(journal, hands=6, seed=1)
    journal.write_bytes(whole[:-25])  # the kill came while the last task was written
    seen: list[Progress] = []
    result = simulate("easy", "random", hands=6, seed=1, journal=journal, progress=seen.append)
    assert json_of(result) == json_of(simulate("easy", "random", hands=6, seed=1, workers=1))
    assert seen[-1].total == 2
    lines = journal.read_bytes().splitlines(keepends=True)
    assert all(line.endswith(b"\n") for line in lines)
    assert [json.loads(line) for line in lines]  # every line whole again


@pytest.mark.parametrize(
    "damage",
    ["changed number", "bad json", "wrong shape", "negative bags"],
)
def test_a_damaged_line_is_refused_with_its_number(tmp_path: Path, damage: str) -> None:
    journal = tmp_path / "run.jsonl"
    lines = made_journal(journal, hands=6, seed=1).decode().splitlines(keepends=True)
    task = json.loads(lines[2])
    if damage == "changed number":
        task["items"][0][0] += 10  # the checksum no longer fits
        lines[2] = json.dumps(task) + "\n"
    elif damage == "bad json":
        lines[2] = lines[2][:30] + "\n"
    elif damage == "wrong shape":
        lines[2] = json.dumps({"first": "easy"}) + "\n"
    else:
        task["items"][0][4] = -1
        lines[2] = json.dumps(task) + "\n"
    journal.write_text("".join(lines))
    before = journal.read_bytes()
    with pytest.raises(JournalError, match="damaged at line 3; remove that line"):
        simulate("easy", "random", hands=6, seed=1, journal=journal)
    assert journal.read_bytes() == before


def test_two_lines_that_disagree_are_refused(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    lines = made_journal(journal, hands=4, seed=1).decode().splitlines(keepends=True)
    # The task of deals 3-4 said again, as if for deals 1-2.
    task = json.loads(lines[2])
    task["start"] = 0
    journal.write_text("".join(lines) + _with_check(task))
    with pytest.raises(JournalError, match="disagrees with itself at line 4 about item 1"):
        simulate("easy", "random", hands=4, seed=1, journal=journal)


def _with_check(task: dict[str, Any]) -> str:
    from spades_core.simulation.journal import _checksum

    task["check"] = _checksum(task["first"], task["second"], task["start"], task["items"])
    return json.dumps(task) + "\n"


def test_a_journal_in_use_by_another_run_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    match = match_of("easy", "random", hands=2, seed=1)
    with (
        Journal(str(journal), [match]),
        pytest.raises(JournalError, match="in use by another run"),
    ):
        simulate("easy", "random", hands=2, seed=1, journal=journal)
    # Once the other run has ended, the journal can be used.
    simulate("easy", "random", hands=2, seed=1, workers=1, journal=journal)


def test_a_journal_that_cannot_be_opened_says_why(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match=r"cannot use the journal .*: No such file or directory"):
        simulate("easy", "random", hands=2, seed=1, journal=tmp_path / "missing" / "run.jsonl")
    with pytest.raises(JournalError, match=r"cannot use the journal .*: Is a directory"):
        simulate("easy", "random", hands=2, seed=1, journal=tmp_path)


@pytest.mark.parametrize(
    ("journal", "error", "message"),
    [
        (5, sc.ArgumentTypeError, "journal must be a file name; got 5"),
        (b"run.jsonl", sc.ArgumentTypeError, "journal must be a file name"),
        ("", sc.RulesError, "journal must be a file name; got an empty one"),
    ],
)
def test_a_journal_argument_that_is_not_a_file_name_is_refused(
    journal: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        simulate("easy", "random", hands=2, seed=1, journal=journal)  # type: ignore[arg-type]


@cache
def fuzz_truth() -> tuple[bytes, dict[int, ItemResult], Match]:
    """A journal of eight deals, and what each deal really gives."""
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "run.jsonl"
        data = made_journal(path, hands=8, seed=7)
    match = match_of("easy", "random", hands=8, seed=7)
    return data, {index: run_item(match, index) for index in range(8)}, match


@given(
    cuts=st.lists(
        st.tuples(st.integers(min_value=0), st.integers(0, 8), st.binary(max_size=8)),
        max_size=3,
    ),
    digits=st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 9)), max_size=3),
)
def test_a_journal_changed_anywhere_gives_only_true_results_or_a_journal_error(
    cuts: list[tuple[int, int, bytes]], digits: list[tuple[int, int]]
) -> None:
    data, truth, match = fuzz_truth()
    # Digits changed for others keep the file valid JSON: only the checks can tell.
    places = [at for at, byte in enumerate(data) if chr(byte).isdigit()]
    for place, digit in digits:
        at = places[place % len(places)]
        data = data[:at] + str(digit).encode() + data[at + 1 :]
    for position, length, replacement in cuts:
        at = position % (len(data) + 1)
        data = data[:at] + replacement + data[at + length :]
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "run.jsonl"
        path.write_bytes(data)
        try:
            (kept,) = read_journal(str(path), [match])
        except JournalError:
            return
    for index, result in kept.items():
        assert truth.get(index) == result


def test_the_command_line_announces_what_the_journal_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = str(tmp_path / "run.jsonl")
    base = ["simulate", "--ns", "easy", "--ew", "random", "--seed", "4", "--workers", "1"]
    assert main([*base, "--hands", "3", "--journal", journal]) == 0
    first = capsys.readouterr()
    assert first.err.splitlines()[1] == (
        f"journal {journal}: nothing kept yet; every finished task is added to it"
    )
    assert main([*base, "--hands", "5", "--journal", journal, "--json"]) == 0
    grown = capsys.readouterr()
    assert grown.err.splitlines()[1] == f"journal {journal}: 3 of 5 deals kept; playing the other 2"
    assert grown.err.splitlines()[2].startswith("0/2 deals (0%)")
    assert main([*base, "--hands", "5", "--json", "-q"]) == 0
    assert capsys.readouterr().out == grown.out
    assert main([*base, "--hands", "5", "--journal", journal]) == 0
    assert f"journal {journal}: all 5 deals kept; nothing to play" in capsys.readouterr().err


def test_the_command_line_refuses_another_runs_journal_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = str(tmp_path / "run.jsonl")
    base = ["tournament", "--players", "random,easy", "--hands", "2", "--workers", "1", "-q"]
    assert main([*base, "--seed", "1", "--journal", journal]) == 0
    capsys.readouterr()
    assert main([*base, "--seed", "2", "--journal", journal]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"spades tournament: the journal {journal} was written by a run with")
    assert main(["simulate", "--engine", "batch", "--hands", "2", "--journal", journal]) == 2
    assert "--journal is for the engine's runs" in capsys.readouterr().err
