"""``spades replay FILE``: one JSON line per record, exit status 0/1/2, streaming.

``tests/data/golden_records.jsonl`` holds records written by ``sc.dumps`` —
a finished classic game with house rules, Mirror in the middle of a hand, a
finished Whiz game, classic bidding after an explicit deal, a new game — a
blank line, and invalid records (a revoke, a changed variant version, five
bids in a hand, an unknown option, broken JSON). Its replay output
``golden_replay.jsonl`` was checked by hand against docs/rules.md (points, bags,
dealer rotation, game end) before being pinned here.
"""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import spades_core as sc
from spades_core.cli import main
from spades_core.cli.replay import replay_lines
from spades_core.testing.strategies import play_randomly

DATA = Path(__file__).parent / "data"
GOLDEN_RECORDS = DATA / "golden_records.jsonl"
GOLDEN_REPLAY = DATA / "golden_replay.jsonl"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def test_golden_records_replay_to_the_pinned_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = run(["replay", str(GOLDEN_RECORDS)], capsys)
    assert lines == GOLDEN_REPLAY.read_text().splitlines()
    assert status == 1  # the file holds invalid records
    assert err == ""


def test_golden_valid_records_are_exactly_what_dumps_writes() -> None:
    records = [line for line in GOLDEN_RECORDS.read_text().splitlines() if line.strip()]
    outputs = [json.loads(line) for line in GOLDEN_REPLAY.read_text().splitlines()]
    assert len(records) == len(outputs)
    valid = [record for record, out in zip(records, outputs, strict=True) if out["ok"]]
    assert len(valid) == 5
    for record in valid:
        assert sc.dumps(sc.loads(record)) == record


def test_golden_output_covers_every_phase_and_both_winners() -> None:
    outputs = [json.loads(line) for line in GOLDEN_REPLAY.read_text().splitlines()]
    valid = [out for out in outputs if out["ok"]]
    assert {out["phase"] for out in valid} == {"DEAL", "BID", "PLAY", "GAME_OVER"}
    assert {out["winner"] for out in valid} == {None, "NS", "EW"}
    reasons = [out["error"]["reason"] for out in outputs if not out["ok"]]
    assert reasons == [
        "must_follow_suit",
        "variant_version",
        "too_many_bids",
        "bad_option",
        "not_json",
    ]


def test_output_line_shape_for_a_valid_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = sc.new_game("classic", seed=4, dealer=sc.Seat.WEST)
    game = play_randomly(game, random.Random(4))
    result = game.hand_results[0]
    path = tmp_path / "one.jsonl"
    path.write_text(sc.dumps(game) + "\n")
    status, lines, _ = run(["replay", str(path)], capsys)
    assert status == 0
    assert lines == [
        json.dumps(
            {
                "ok": True,
                "hands": [
                    {
                        "dealer": "W",
                        "bids": {s.letter: result.bids[s] for s in sc.Seat},
                        "tricks": {s.letter: result.tricks[s] for s in sc.Seat},
                        "points": {
                            "NS": result.points[sc.Team.NS],
                            "EW": result.points[sc.Team.EW],
                        },
                        "scores": {
                            "NS": result.scores[sc.Team.NS],
                            "EW": result.scores[sc.Team.EW],
                        },
                        "bags": {"NS": result.bags[sc.Team.NS], "EW": result.bags[sc.Team.EW]},
                    }
                ],
                "phase": game.phase.name,
                "winner": None if game.winner is None else game.winner.name,
            }
        )
    ]


def test_output_line_shape_for_an_invalid_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(sc.dumps(sc.new_game("mirror", seed=1).deal()))
    record["hands"][0]["bids"] = [14]
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n")
    status, lines, _ = run(["replay", str(path)], capsys)
    assert status == 1
    (line,) = lines
    out = json.loads(line)
    assert list(out) == ["ok", "error"]
    assert out["ok"] is False
    error = out["error"]
    assert list(error) == ["type", "reason", "hand", "action", "message"]
    assert error["type"] == "RecordFormatError"
    assert (error["reason"], error["hand"], error["action"]) == ("bid_not_allowed", 1, 1)
    assert error["message"].startswith("hand 1, action 1: ")


def test_all_valid_exits_0_and_blank_lines_are_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = [sc.new_game(variant, seed=3) for variant in ("classic", "mirror", "whiz")]
    path = tmp_path / "ok.jsonl"
    path.write_text("\n" + "\n\n".join(sc.dumps(game) for game in games) + "\n   \n")
    status, lines, err = run(["replay", str(path)], capsys)
    assert status == 0
    assert len(lines) == 3
    assert all(json.loads(line)["ok"] for line in lines)
    assert err == ""


def test_empty_file_is_valid_and_prints_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    assert run(["replay", str(path)], capsys) == (0, [], "")


def test_crlf_line_endings_are_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "crlf.jsonl"
    path.write_bytes((sc.dumps(sc.new_game("whiz", seed=2)) + "\r\n{\r\n").encode())
    status, lines, _ = run(["replay", str(path)], capsys)
    assert status == 1
    assert json.loads(lines[0])["ok"] is True
    assert "line 1 column 2" in json.loads(lines[1])["error"]["message"]


def test_invalid_utf8_line_is_an_invalid_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(
        b'{"format": "sp\xe4des"}\n' + sc.dumps(sc.new_game("classic", seed=1)).encode()
    )
    status, lines, _ = run(["replay", str(path)], capsys)
    assert status == 1
    assert json.loads(lines[0])["error"]["reason"] == "not_json"
    assert json.loads(lines[1])["ok"] is True


def test_missing_file_exits_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines, err = run(["replay", str(tmp_path / "nope.jsonl")], capsys)
    assert (status, lines) == (2, [])
    assert "nope.jsonl" in err
    assert "No such file" in err


def test_directory_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = run(["replay", str(tmp_path)], capsys)
    assert (status, lines) == (2, [])
    assert "cannot read" in err


@pytest.mark.parametrize("argv", [["replay"], ["replay", "a", "b"], ["replay", "--bogus", "x"]])
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = run(argv, capsys)
    assert (status, lines) == (2, [])
    assert "usage" in err


def test_dash_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = GOLDEN_RECORDS.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, lines, _ = run(["replay", "-"], capsys)
    assert status == 1
    assert lines == GOLDEN_REPLAY.read_text().splitlines()


def test_replay_lines_is_lazy_one_record_at_a_time() -> None:
    consumed: list[int] = []
    record = sc.dumps(sc.new_game("classic", seed=1))

    def endless() -> Iterator[str]:
        count = 0
        while True:
            count += 1
            consumed.append(count)
            yield record

    outputs = replay_lines(endless())
    for expected in range(1, 4):
        text, ok = next(outputs)
        assert ok
        assert json.loads(text)["phase"] == "DEAL"
        assert consumed[-1] == expected  # nothing read ahead of the output


def test_two_thousand_records_stream_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rnd = random.Random(2000)
    samples = []
    for seed in range(20):
        game = sc.new_game(("classic", "mirror", "whiz")[seed % 3], seed=seed)
        samples.append(sc.dumps(play_randomly(game, rnd, steps=seed * 3)))
    bad = '{"format": "spades-game", "version": 9}'
    path = tmp_path / "many.jsonl"
    with path.open("w") as out:
        for index in range(2000):
            out.write((bad if index == 1234 else samples[index % 20]) + "\n")
    status, lines, _ = run(["replay", str(path)], capsys)
    assert status == 1
    assert len(lines) == 2000
    oks = [json.loads(line)["ok"] for line in lines]
    assert oks.count(False) == 1
    assert oks.index(False) == 1234
    assert json.loads(lines[1234])["error"]["reason"] == "unsupported_version"


def test_python_m_spades_core_replay_runs_the_same(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "spades_core", "replay", str(GOLDEN_RECORDS)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 1
    assert completed.stdout.splitlines() == GOLDEN_REPLAY.read_text().splitlines()
    assert completed.stderr == ""
    missing = subprocess.run(
        [sys.executable, "-m", "spades_core", "replay", str(tmp_path / "missing.jsonl")],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert missing.returncode == 2
    assert "cannot read" in missing.stderr


# -- the board's words and one way of counting ---------------------------------------


def revoke_record() -> tuple[str, sc.Seat, sc.Card]:
    """A classic record whose second hand's first trick has a revoke: the
    second player shows a card of another suit while holding the suit led;
    with the seat and the card."""
    game = sc.bots.play_game(
        sc.new_game("classic", seed=11), [sc.bots.make("easy", seed=n) for n in range(4)],
        hands=1,
    )  # fmt: skip
    game = game.deal()
    while game.phase is sc.Phase.BID:
        game = game.bid(game.legal_bids()[0])
    game = game.play(game.legal_cards()[0])
    seat = game.to_act
    assert seat is not None
    led = game.current_trick[0][1].suit
    hand = game.hand(seat)
    wrong = next(card for card in hand if card.suit is not led)
    assert any(card.suit is led for card in hand)
    record = sc.records.to_record(game)
    record["hands"][-1]["plays"].append(str(wrong))
    return json.dumps(record), seat, wrong


def test_messages_write_seats_and_cards_as_the_board_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, seat, card = revoke_record()
    path = tmp_path / "revoke.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    status, lines, _ = run(["replay", "--summary", str(path)], capsys)
    assert status == 1
    name = seat.name.title()
    assert f"hand 2, action 6: {name} plays {card.symbol} (trick 1): {name} must follow" in lines[0]
    assert f"cannot play {card.symbol}" in lines[0]
    # Nothing in the library's notation is left: no WEST, no 6H.
    assert seat.name not in lines[0]
    assert re.search(r"\b(10|[2-9TJQKA])[SHDC]\b", lines[0]) is None
    # The JSON output's message is the summary's, word for word.
    summary = lines[0].split(" — ", 1)[1]
    _, lines, _ = run(["replay", "--json", str(path)], capsys)
    assert json.loads(lines[0])["error"]["message"] == summary


def test_json_counts_hands_and_actions_from_1_like_the_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, _, _ = revoke_record()
    path = tmp_path / "revoke.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    _, lines, _ = run(["replay", "--json", str(path)], capsys)
    error = json.loads(lines[0])["error"]
    assert (error["hand"], error["action"]) == (2, 6)
    assert error["message"].startswith(f"hand {error['hand']}, action {error['action']}: ")
    # The library's error holds the same place as indexes from 0.
    with pytest.raises(sc.RecordFormatError) as raised:
        sc.loads(text)
    assert (raised.value.hand, raised.value.action) == (1, 5)


def test_a_game_over_after_one_hand_reads_after_1_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = sc.bots.play_game(
        sc.new_game("classic", seed=4, max_hands=1),
        [sc.bots.make("easy", seed=n) for n in range(4)],
    )
    assert game.is_over
    assert len(game.hand_results) == 1
    path = tmp_path / "one.jsonl"
    path.write_text(sc.dumps(game) + "\n", encoding="utf-8")
    _, lines, _ = run(["replay", "--summary", str(path)], capsys)
    assert lines[0].endswith(" after 1 hand"), lines[0]
