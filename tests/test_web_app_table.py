"""The web app's table (examples/web_app/local_table.py) and the protocol it
shares with the multiplayer server (examples/web_table/table_protocol.py),
run by CPython: what South is told, what it may send, the bots, the next
hand, saving and resuming, and the start page's catalogue.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import spades_core as sc
import table_protocol as protocol
from local_table import LocalTable, catalogue, resume_game, resume_refusal, start_game
from spades_core.rules.hooks import score_breakdown
from web_table_support import assert_nothing_hidden

# web_table_support drives the web table's server (Starlette): the web extra.
pytestmark = pytest.mark.integration("web")

EASY = {"N": "easy", "E": "easy", "W": "easy"}


def started(variant: str = "classic", **more: Any) -> LocalTable:
    table = start_game(json.dumps({"variant": variant, "players": EASY, **more}))
    assert isinstance(table, LocalTable), table
    return table


def state(table: LocalTable) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(table.state())
    return message


def south_acts(table: LocalTable) -> None:
    """South plays the coach's move (its first legal one with the coach off)."""
    message = state(table)
    action = message["coach"]["action"] if message["coach"] else message["legal_actions"][0]
    message = (
        {"type": "bid", "value": action}
        if isinstance(action, int)
        else {"type": "play", "card": action}
    )
    assert table.receive(json.dumps(message)) is None


def play_hand(table: LocalTable) -> None:
    """Bots and South (by the coach) until the hand is scored."""
    hands = len(table.game.hand_results)
    while len(table.game.hand_results) == hands:
        if table.bot_due():
            table.bot_step()
        else:
            assert table.game.to_act is sc.Seat.SOUTH
            south_acts(table)


def test_a_new_game_is_dealt_at_once_and_south_sees_only_what_it_may() -> None:
    table = started("mirror", options={"target_score": 300}, coach=True)
    game = table.game
    assert game.phase is sc.Phase.BID
    assert game.rules.target_score == 300
    message = state(table)
    assert message["type"] == "state"
    assert message["seat"] == "S"
    assert message["hand"] == [str(card) for card in game.hand(sc.Seat.SOUTH)]
    assert message["players"]["S"] == {"kind": "you", "online": True, "level": None}
    assert message["players"]["N"] == {"kind": "easy", "online": False, "level": "Easy"}
    assert message["coach_on"] is True
    assert message["house_rules"] == ["Points to win: 300"]
    assert message["hand_summary"] is None
    assert_nothing_hidden(message, game, sc.Seat.SOUTH)
    # The bots act one at a time until South's turn, each move a legal one.
    while table.bot_due():
        before = table.game
        table.bot_step()
        assert table.game != before
        assert_nothing_hidden(state(table), table.game, sc.Seat.SOUTH)
    assert table.game.to_act is sc.Seat.SOUTH
    assert state(table)["coach"]["action"] in state(table)["legal_actions"]


def test_after_a_hand_the_summary_is_the_librarys_and_the_next_hand_waits_for_you() -> None:
    table = started("classic")
    play_hand(table)
    game = table.game
    message = state(table)
    assert message["phase"] == "DEAL"
    assert message["waiting_for_next"] == ["S"]
    assert not table.bot_due()  # nothing happens until South asks
    summary = message["hand_summary"]
    result = game.hand_results[0]
    assert summary["teams"] == score_breakdown(game).summary()
    assert summary["points"] == {team.name: result.points[team] for team in sc.Team}
    last = result.played[-1]
    assert summary["last_trick"]["cards"] == [str(card) for card in last.cards]
    assert message["last_trick"] == summary["last_trick"]  # it stays on the felt too
    assert table.receive('{"type": "next"}') is None
    assert table.game.hand_number == 1
    assert table.game.phase is sc.Phase.BID
    assert state(table)["hand_summary"] is None


def test_refused_messages_say_why_and_change_nothing() -> None:
    table = started("classic")
    while not table.bot_due():  # South's bid, so that a bot is to act
        south_acts(table)
    game = table.game
    card = str(next(iter(game.hand(sc.Seat.SOUTH))))
    refusals = {
        "not json": "JSON object",
        '{"type": "play", "card": "' + card + '"}': "turn",
        '{"type": "bid", "value": 3}': "turn",
        '{"type": "next"}': "still being played",
        '{"type": "deal"}': 'send "bid", "play" or "next"',
        '{"type": "bid", "value": 14}': "bid",
    }
    for text, words in refusals.items():
        refusal = table.receive(text)
        assert refusal is not None, text
        assert words in refusal, refusal
        assert table.game is game


def test_the_saved_record_resumes_the_very_same_game() -> None:
    table = started("whiz", coach=False)
    while table.game.to_act is not sc.Seat.SOUTH or not table.game.current_trick:
        if table.bot_due():
            table.bot_step()
        else:
            south_acts(table)
    record, seating = table.record(), table.seating()
    assert sc.loads(record) == table.game
    resumed = resume_game(record, seating)
    assert isinstance(resumed, LocalTable)
    assert resumed.game == table.game
    assert resumed.record() == record
    assert json.loads(resumed.seating()) == {"players": {**EASY, "S": "person"}, "coach": False}
    assert state(resumed) == state(table)


def test_a_finished_hand_is_resumed_at_its_summary_and_a_new_game_is_dealt() -> None:
    table = started("mirror")
    play_hand(table)
    resumed = LocalTable.resume(table.record(), table.seating())
    assert resumed.game.phase is sc.Phase.DEAL
    assert state(resumed)["waiting_for_next"] == ["S"]
    fresh = sc.new_game("mirror", seed=4)
    assert LocalTable.resume(sc.dumps(fresh), table.seating()).game.phase is sc.Phase.BID


def test_records_and_seatings_the_app_cannot_play_are_refused_with_the_reason() -> None:
    good = started("classic")
    record, seating = good.record(), good.seating()
    broken = record.replace('"bids":[', '"bids":[14,')
    with pytest.raises(sc.RecordFormatError) as engine:
        sc.loads(broken)
    refusal = resume_game(broken, seating)
    assert refusal == f"this is not a game record this app can play: {engine.value}"
    assert "not a game record" in str(resume_game("{", seating))
    friend = json.dumps({"players": {"N": "person"}})
    assert "seat N takes" in str(resume_game(record, friend))
    assert "coach must be true or false" in str(resume_game(record, '{"coach": "yes"}'))
    assert "JSON" in str(resume_game(record, "nope"))


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"variant": "classic", "players": {"N": "person"}}, "seat N takes"),
        ({"variant": "classic", "players": {"N": "wizard"}}, "got 'wizard'"),
        ({"variant": "classic", "players": {"X": "easy"}}, "seat letter"),
        ({"variant": "classic", "players": {"S": "easy"}}, "South must be 'person'"),
        (
            {"variant": "classic", "options": {"target_score": 0}},
            "Points to win: a whole number from 1 to 1,000,000; 0 is not one.",
        ),
        (
            {"variant": "classic", "options": {"loss_floor": "abc"}},
            "A team loses at: a whole number from \N{MINUS SIGN}1,000,000 to \N{MINUS SIGN}1"
            " (or no floor); \N{LEFT DOUBLE QUOTATION MARK}abc\N{RIGHT DOUBLE QUOTATION MARK}"
            " is not one.",
        ),
        (
            {"variant": "classic", "options": {"break_rule": "never"}},
            "Spades are broken by: one of",
        ),
        ({"variant": "classic", "options": {"no_such_rule": 1}}, "unknown option 'no_such_rule'"),
        ({"variant": "nosuch"}, "not installed"),
    ],
)
def test_the_app_refuses_bad_settings(settings: dict[str, Any], words: str) -> None:
    refusal = start_game(json.dumps(settings))
    assert isinstance(refusal, str)
    assert words in refusal


def test_the_catalogue_labels_every_option_and_choice_for_people() -> None:
    offered = json.loads(catalogue())
    assert [v["id"] for v in offered["variants"]] == list(sc.available_variants())
    assert [p["kind"] for p in offered["players"]] == list(sc.bots.LEVELS)  # no friends here
    for player in offered["players"]:
        assert player["summary"]  # the bot class's own description
    briefs = set()
    for entry in offered["variants"]:
        variant = sc.load_variant(entry["id"])
        assert entry["brief"] in variant.summary
        briefs.add(entry["brief"])
        for option in entry["options"]:
            assert option["name"] in protocol.OPTION_LABELS  # every standard option is named
            assert option["label"] != option["name"]
            for choice in option.get("choices", []):
                assert option["choice_labels"][choice] == protocol.CHOICE_LABELS[choice]
    assert len(briefs) == len(offered["variants"])  # each says what sets it apart
    friends = protocol.catalogue(friends=True)
    assert friends["players"][-1]["kind"] == protocol.PERSON


def test_a_plugins_own_option_gets_a_label_from_its_name() -> None:
    assert protocol.option_label("nil_bonus_per_bag") == "Nil bonus per bag"
    assert protocol.option_label("target_score") == "Points to win"


def test_the_catalogue_gives_each_option_its_default_and_range_from_the_engines_spec() -> None:
    offered = json.loads(catalogue())
    for entry in offered["variants"]:
        variant = sc.load_variant(entry["id"])
        assert [option["name"] for option in entry["options"]] == list(variant.option_specs)
        for option in entry["options"]:
            spec = variant.option_specs[option["name"]]
            default = variant.defaults[option["name"]]
            assert option["default"] == (default.value if hasattr(default, "value") else default)
            assert option["effect"].endswith(".")
            assert "None" not in option["effect"] + option["default_text"]
            if option["kind"] != "int":
                continue
            low, high = option["minimum"], option["maximum"]
            for value in (low, high):
                assert spec.check(value) == value
            for value in (low - 1, high + 1):
                with pytest.raises(sc.RulesError):
                    spec.check(value)
            assert option["nullable"] is ("None" in spec.accepts)
    classic = next(entry for entry in offered["variants"] if entry["id"] == "classic")
    floor = next(option for option in classic["options"] if option["name"] == "loss_floor")
    assert (floor["default"], floor["default_text"]) == (-200, "\N{MINUS SIGN}200")
    assert floor["none_label"] == "no floor"
    assert offered["record_limit"] == sc.records.MAX_RECORD_SIZE


def test_the_levels_are_offered_in_each_variants_words_and_every_bot_stays_available() -> None:
    offered = {entry["id"]: entry for entry in json.loads(catalogue())["variants"]}
    words = {
        name: [(level["word"], level["kind"]) for level in offered[name]["levels"]]
        for name in offered
    }
    assert words["classic"] == [("Easy", "easy"), ("Medium", "normal"), ("Hard", "hard")]
    assert words["mirror"] == [("Easy", "easy"), ("Normal", "normal")]
    assert words["whiz"] == [("Easy", "easy"), ("Normal", "normal"), ("Hard", "hard")]
    for entry in offered.values():
        assert set(entry["level_words"]) == set(sc.bots.LEVELS)  # one step away: every level
        assert entry["targets"] == [250, 300, 500]
    table = started("classic", players={"N": "normal", "E": "hard", "W": "random"})
    players = state(table)["players"]
    assert {seat: players[seat]["level"] for seat in "NEW"} == {
        "N": "Medium",
        "E": "Hard",
        "W": "Random",
    }


def test_the_coach_is_switched_during_play_and_the_seating_keeps_it() -> None:
    table = started("classic", coach=True)
    while table.bot_due():
        table.bot_step()
    assert state(table)["coach"] is not None
    table.set_coach(False)
    message = state(table)
    assert (message["coach"], message["coach_on"]) == (None, False)
    assert json.loads(table.seating())["coach"] is False
    resumed = LocalTable.resume(table.record(), table.seating())
    assert resumed.coach is False
    table.set_coach(True)
    assert state(table)["coach"]["action"] in state(table)["legal_actions"]
    with pytest.raises(protocol.SettingsError, match="true or false"):
        table.set_coach("yes")  # type: ignore[arg-type]


def test_a_save_is_checked_without_being_started() -> None:
    table = started("mirror")
    record, seating = table.record(), table.seating()
    assert resume_refusal(record, seating) is None
    cut = resume_refusal(record[: len(record) // 2], seating)
    assert cut is not None
    assert cut.startswith("this is not a game record this app can play")
    other = record.replace('"variant":"mirror"', '"variant":"not_bundled"')
    assert other != record
    assert "not_bundled" in str(resume_refusal(other, seating))
    assert "JSON" in str(resume_refusal(record, seating[:-3]))


def test_numbers_for_people_have_one_minus_sign() -> None:
    assert protocol.number_text(-1200) == "\N{MINUS SIGN}1,200"
    assert protocol.number_text(300) == "300"
    table = started("classic", options={"loss_floor": -300})
    assert state(table)["house_rules"] == ["A team loses at: \N{MINUS SIGN}300"]
