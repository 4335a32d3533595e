"""Hostile input, item by item: bad records, wrong argument types, seats
given every way, misbehaving plugin hooks, and ``spades replay`` on what
people feed it. Each test names what a careless or hostile caller did."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import spades_core as sc
from spades_core.cli import main
from spades_core.cli.replay import read_lines, replay_lines
from spades_core.engine.records import (
    MAX_HANDS,
    MAX_NAME_LENGTH,
    MAX_OPTIONS,
    MAX_RECORD_SIZE,
    to_record,
)
from spades_variants.classic import ClassicVariant

HUGE = 10**5000


def record_of(game: sc.Game) -> dict[str, Any]:
    return to_record(game)


def a_game() -> sc.Game:
    return sc.new_game("classic", seed=7, dealer="W").deal().bid(3).bid(0)


def load_error(document: object) -> sc.RecordFormatError:
    text = document if isinstance(document, str | bytes) else json.dumps(document)
    with pytest.raises(sc.RecordFormatError) as caught:
        sc.loads(text)
    return caught.value


# -- records -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["self", "variant", "seed", "dealer", "__class__", "x" * 10])
def test_an_option_name_from_a_record_is_data_never_a_keyword(name: str) -> None:
    record = record_of(a_game())
    record["options"] = {name: 1}
    error = load_error(record)
    assert error.reason == "bad_option"
    assert "is not an option of 'classic'" in str(error)
    ((line, ok),) = list(replay_lines([json.dumps(record)]))
    assert not ok
    assert json.loads(line)["error"]["reason"] == "bad_option"


def test_keywords_that_collide_with_parameters_are_rules_errors() -> None:
    with pytest.raises(sc.RulesError, match="'self'"):
        sc.new_game("classic", self=1)
    with pytest.raises(sc.RulesError, match="'variant'"):
        sc.new_game("classic", variant=1)
    with pytest.raises(sc.RulesError, match="'self'"):
        sc.load_variant("classic").rules(self=1)


def test_a_huge_number_in_a_record_is_refused_with_a_short_message() -> None:
    record = record_of(a_game())
    record["options"] = {"nil_value": int("9" * 4300)}
    error = load_error(record)
    assert (error.reason, error.hand, error.action) == ("too_large", None, None)
    assert "nil_value" in str(error)
    assert len(str(error)) < 200


@pytest.mark.parametrize(
    ("field", "reason"),
    [("seed", "bad_value"), ("version", "wrong_type"), ("variant_version", "wrong_type")],
)
def test_huge_numbers_elsewhere_are_never_written_out(field: str, reason: str) -> None:
    record = record_of(a_game())
    record[field] = int("9" * 4200)
    error = load_error(record)
    assert len(str(error)) < 300
    record["hands"][0]["bids"] = [int("9" * 4200)]
    record[field] = 7 if field == "seed" else 1
    error = load_error(record)
    assert (error.reason, error.hand, error.action) == (sc.RecordReason.ILLEGAL_ACTION, 0, 0)
    assert error.illegal_reason is sc.IllegalReason.BID_NOT_ALLOWED
    assert "an int of about 4201 digits" in str(error)


def test_a_rules_error_from_the_options_is_a_record_error_naming_the_options() -> None:
    record = record_of(a_game())
    record["options"] = {"target_score": -5}
    error = load_error(record)
    assert error.reason == "bad_option"
    assert str(error).startswith("options: ")


def test_a_record_longer_than_the_limit_is_refused_before_it_is_parsed() -> None:
    text = "[" * (MAX_RECORD_SIZE + 1)  # parsing this would recurse, not report size
    error = load_error(text)
    assert error.reason == "too_large"
    assert "16,777,216" in str(error)
    assert load_error(text.encode()).reason == "too_large"


def test_too_many_hands_or_options_and_too_long_names_are_too_large() -> None:
    record = record_of(a_game())
    many = dict(record, hands=[{"bids": [], "plays": []}] * (MAX_HANDS + 1))
    assert load_error(many).reason == "too_large"
    crowded = dict(record, options={f"o{i}": 1 for i in range(MAX_OPTIONS + 1)})
    assert load_error(crowded).reason == "too_large"
    long_name = dict(record, options={"n" * (MAX_NAME_LENGTH + 1): 1})
    assert load_error(long_name).reason == "too_large"


def test_a_long_variant_id_gives_a_short_error_line() -> None:
    record = record_of(a_game())
    record["variant"] = "v" * 1_000_000
    error = load_error(record)
    assert error.reason == "too_large"
    assert len(str(error)) < 200
    record["format"] = "f" * 1_000_000
    assert len(str(load_error(record))) < 200


def test_a_record_starting_with_a_byte_order_mark_loads() -> None:
    game = a_game()
    text = sc.dumps(game)
    assert sc.loads("\ufeff" + text) == game
    assert sc.loads(b"\xef\xbb\xbf" + text.encode()) == game


def test_record_messages_count_hands_and_actions_from_1() -> None:
    record = record_of(a_game())
    record["hands"][0]["bids"][1] = 14
    error = load_error(record)
    assert (error.hand, error.action) == (0, 1)
    assert str(error).startswith("hand 1, action 2: ")


# -- arguments of the wrong type -------------------------------------------------------


def test_wrong_object_types_name_the_argument() -> None:
    game = a_game()
    view = game.view(game.to_act)  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="play_game: game must be a Game; got None"):
        sc.bots.play_game(None, [sc.bots.RandomBot(1)] * 4)  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match=r"determinize: rng must be a random\.Random"):
        sc.determinize(view, None)  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="playout: game"):
        sc.playout("game", random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="encoding: game"):
        sc.encoding.legal_mask(None)  # type: ignore[arg-type]
    assert issubclass(sc.ArgumentTypeError, TypeError)


def test_a_deal_of_card_sets_beyond_the_deck_is_refused() -> None:
    with pytest.raises(sc.InvalidNotationError, match="not a card mask"):
        sc.CardSet(1 << 60)
    with pytest.raises(sc.InvalidNotationError):
        sc.CardSet(-1)
    with pytest.raises(sc.InvalidNotationError):
        sc.CardSet(True)
    game = sc.new_game("classic", seed=1)
    hands = {seat: game.deal().hand(seat) for seat in sc.Seat}
    forged = sc.CardSet(hands[sc.Seat.NORTH].mask)
    # Forged past the checked constructor: the low card swapped for bit 60.
    low = forged.mask & -forged.mask
    object.__setattr__(forged, "mask", (forged.mask ^ low) | 1 << 60)
    hands[sc.Seat.NORTH] = forged
    with pytest.raises(sc.IllegalActionError, match="beyond the 52 cards") as caught:
        game.deal(hands)
    assert caught.value.reason is sc.IllegalReason.INVALID_DEAL


@pytest.mark.parametrize("bad", [60, 52, -1, True, 1.0, None, "1S", b"QH"])
def test_cards_are_checked_when_built(bad: object) -> None:
    with pytest.raises(sc.InvalidNotationError):
        sc.Card(bad)


def test_card_reads_its_own_repr() -> None:
    queen = sc.Card("QH")
    assert queen == sc.Card.parse("QH") == sc.Card(36)
    assert repr(queen) == "Card('QH')"
    assert eval(repr(queen), {"Card": sc.Card}) == queen
    assert sc.Card(queen) == queen


# -- seats -------------------------------------------------------------------------


def test_one_seat_parser_everywhere() -> None:
    game = sc.new_game("classic", seed=3, dealer="south").deal()
    assert game.dealer is sc.Seat.SOUTH
    assert game.hand("S") == game.hand("south") == game.hand(sc.Seat.SOUTH)
    assert game.dealt_hand("w") == game.dealt_hand(sc.Seat.WEST)
    assert game.view("N") == game.view(sc.Seat.NORTH)
    assert game.view("n").spades_left("N") == game.view("n").spades_left(sc.Seat.NORTH)
    assert game.apply(sc.Bid.of(2), seat="W") == game.bid(2)
    assert sc.new_game("classic", seed=3, dealer="s") == sc.new_game(
        "classic", seed=3, dealer=sc.Seat.SOUTH
    )


@pytest.mark.parametrize("bad", [False, True, 0, 2, -0.0, 0.0, sc.Team.NS, None, "X", b"N"])
def test_things_that_are_not_seats_are_refused(bad: object) -> None:
    game = sc.new_game("classic", seed=3, dealer="E").deal()
    for call in (game.hand, game.dealt_hand, game.view):
        with pytest.raises(sc.InvalidNotationError, match="seat"):
            call(bad)  # type: ignore[arg-type]
    if bad is not None:
        with pytest.raises(sc.InvalidNotationError, match="dealer"):
            sc.new_game("classic", seed=3, dealer=bad)  # type: ignore[arg-type]
        # South is to act; True == 1 and 2 == SOUTH must not pass for seats.
        with pytest.raises(sc.InvalidNotationError, match="seat"):
            game.bid(3, seat=bad)  # type: ignore[arg-type]
        with pytest.raises(sc.InvalidNotationError, match="seat"):
            game.why_illegal(3, seat=bad)  # type: ignore[arg-type]


# -- plugin hooks --------------------------------------------------------------------


TM = sc.TeamMap


def variant_with(**hooks: Any) -> sc.Variant:
    cls = type("Misbehaving", (ClassicVariant,), hooks)
    base = sc.load_variant("classic")
    return cls(  # type: ignore[no-any-return]
        id="misbehaving",
        title="Misbehaving",
        options=base.defaults,
    )


def finish_a_hand(variant: sc.Variant) -> sc.Game:
    return sc.playout(sc.new_game(variant, seed=1), lambda n: 0, hands=1)


@pytest.mark.parametrize(
    "hooks",
    [
        {"game_outcome": lambda self, rules, scores: True},
        {"game_outcome": lambda self, rules, scores: 2},
        {"game_outcome": lambda self, rules, scores: 0.0},
        {"score_hand": lambda self, rules, bids, tricks, bags: (TM((1.0, 2.0)), TM((0, 0)))},
        {"score_hand": lambda self, rules, bids, tricks, bags: (TM((1, 2)), TM((0, -1)))},
        {"score_hand": lambda self, rules, bids, tricks, bags: (TM((1, 2)), TM((0,)))},
        {"score_hand": lambda self, rules, bids, tricks, bags: ((1, 2), (0, 0))},
    ],
)
def test_hook_answers_are_checked_strictly(hooks: dict[str, Any]) -> None:
    with pytest.raises(sc.VariantLoadError, match=r"'misbehaving': (score_hand|game_outcome) must"):
        finish_a_hand(variant_with(**hooks))


def test_the_built_in_scores_pass_the_strict_checks() -> None:
    game = finish_a_hand(sc.load_variant("classic"))
    assert len(game.hand_results) == 1


def crash(*args: object) -> Mapping[sc.Seat, int]:
    raise KeyError("oops")


@pytest.mark.parametrize(
    "counts",
    [crash, lambda self, rules, bids: {sc.Seat.NORTH: 99}, lambda self, rules, bids: [1]],
)
def test_revealed_spade_counts_failures_are_load_errors(counts: object) -> None:
    game = sc.new_game(variant_with(revealed_spade_counts=counts), seed=1).deal()
    with pytest.raises(sc.VariantLoadError, match="revealed_spade_counts"):
        game.view("N")


def test_enum_lookups_fail_with_spades_errors() -> None:
    for enum_class in (sc.Phase, sc.IllegalReason, sc.NilTricks, sc.Seat, sc.Suit):
        with pytest.raises(sc.InvalidNotationError):
            enum_class("no such value")  # type: ignore[arg-type]


# -- spades replay -------------------------------------------------------------------


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    status = main(argv)
    return status, capsys.readouterr().out.splitlines()


def write_records(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def finished_game() -> sc.Game:
    game = sc.playout(sc.new_game("classic", seed=2), random.Random(2), hands=None)
    assert len(game.hand_results) > 1
    return game


def bad_record() -> str:
    record = record_of(a_game())
    record["hands"][0]["bids"][1] = 14
    return json.dumps(record)


def test_replay_summary_is_for_people_and_counts_from_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    over = finished_game()
    path = write_records(
        tmp_path / "games.jsonl", [sc.dumps(a_game()), "", sc.dumps(over), bad_record()]
    )
    status, lines = run(["replay", "--summary", str(path)], capsys)
    assert status == 1
    assert lines[0] == "line 1: ok — classic, 0 hands played, bidding in hand 1; NS 0, EW 0"
    assert over.winner is not None
    winner = over.winner
    assert lines[1] == (
        f"line 3: ok — classic, {winner.name} won {over.scores[winner]} to "
        f"{over.scores[winner.opponent]} after {len(over.hand_results)} hands"
    )
    assert lines[2].startswith("line 4: invalid (bid_not_allowed) — hand 1, action 2: ")
    assert lines[3] == (
        f"3 records: 2 valid, 1 invalid; {len(over.hand_results)} finished hands in the valid ones"
    )


def test_replay_json_keeps_its_documented_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_records(tmp_path / "games.jsonl", [sc.dumps(a_game()), bad_record()])
    status, lines = run(["replay", "--json", str(path)], capsys)
    assert status == 1
    first, second = (json.loads(line) for line in lines)
    assert first == {"ok": True, "hands": [], "phase": "BID", "winner": None}
    error = second["error"]
    # Counted from 1, as the summary's "hand 1, action 2" counts them.
    assert (error["reason"], error["hand"], error["action"]) == ("bid_not_allowed", 1, 2)


def test_replay_prints_json_when_piped(tmp_path: Path) -> None:
    path = write_records(tmp_path / "games.jsonl", [sc.dumps(a_game())])
    result = subprocess.run(
        [sys.executable, "-m", "spades_core", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert json.loads(result.stdout) == {"ok": True, "hands": [], "phase": "BID", "winner": None}


def test_replay_reads_an_autosave_of_spades_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = a_game()
    autosave = {
        "format": "spades-play-session",
        "version": 1,
        "seat": "S",
        "partner": "normal",
        "opponents": "normal",
        "coach": True,
        "record": record_of(game),
    }
    path = write_records(tmp_path / "autosave.json", [json.dumps(autosave)])
    status, lines = run(["replay", "--json", str(path)], capsys)
    assert status == 0
    assert json.loads(lines[0])["ok"] is True
    autosave["version"] = 99
    write_records(path, [json.dumps(autosave)])
    status, lines = run(["replay", "--json", str(path)], capsys)
    assert status == 1
    assert json.loads(lines[0])["error"]["reason"] == "unsupported_version"


def test_replay_survives_a_self_option_a_huge_number_and_a_bom(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = record_of(a_game())
    with_self = dict(record, options={"self": 1})
    huge = dict(record, options={"nil_value": int("9" * 4300)})
    path = write_records(
        tmp_path / "games.jsonl",
        [json.dumps(with_self), json.dumps(huge), "\ufeff" + sc.dumps(a_game())],
    )
    status, lines = run(["replay", "--json", str(path)], capsys)
    assert status == 1
    outputs = [json.loads(line) for line in lines]
    assert [out["ok"] for out in outputs] == [False, False, True]
    assert outputs[0]["error"]["reason"] == "bad_option"
    assert outputs[1]["error"]["reason"] == "too_large"


def test_replay_skips_an_over_long_line_without_holding_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    with path.open("wb") as out:
        out.write(b"[" * (MAX_RECORD_SIZE + 10) + b"\n")
        out.write(sc.dumps(a_game()).encode() + b"\n")
    status, lines = run(["replay", "--json", str(path)], capsys)
    assert status == 1
    first, second = (json.loads(line) for line in lines)
    assert first["error"]["reason"] == "too_large"
    assert second["ok"] is True


def test_read_lines_never_returns_more_than_the_limit() -> None:
    import io

    source = io.BytesIO(b"x" * 1000 + b"\n\n  \nabc\r\n" + b"y" * 50)
    lines = list(read_lines(source, limit=100))
    assert [number for number, _ in lines] == [1, 4, 5]
    assert lines[1][1] == b"abc"
    assert lines[2][1] == b"y" * 50
    assert all(len(line) <= 100 for _, line in lines)
