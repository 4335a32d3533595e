"""Game records: ``sc.dumps`` / ``sc.loads`` round trips and every bad record.

A record is replayed through the engine, so a bad one must raise
``RecordFormatError`` naming the hand and the action index (bids then plays,
from 0) and a machine-readable reason; never another exception, never a game.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from spades_core import Phase, RecordFormatError, Seat, Suit
from spades_core.engine.records import dump_lines, from_record, load_lines, to_record
from spades_core.rules.rng import deal_masks
from spades_core.testing.strategies import games, play_randomly
from spades_core.values.options import OptionSpec, int_option

VARIANTS = ("classic", "mirror", "whiz")
Record = dict[str, Any]


def play_hands(game: sc.Game, rnd: random.Random, hands: int) -> sc.Game:
    """``game`` after ``hands`` more whole hands of random legal play."""
    for _ in range(hands):
        game = play_randomly(game, rnd)
    return game


def base_game() -> sc.Game:
    """Classic, seed 7, West deals: one whole hand and 10 plays into the second."""
    game = sc.new_game("classic", seed=7, dealer=Seat.WEST, target_score=300)
    rnd = random.Random(7)
    game = play_hands(game, rnd, 1)
    return play_randomly(game, rnd, steps=1 + 4 + 10)


def base_record() -> Record:
    return to_record(base_game())


def load_error(record: object) -> RecordFormatError:
    text = record if isinstance(record, str | bytes) else json.dumps(record)
    with pytest.raises(RecordFormatError) as caught:
        sc.loads(text)
    error = caught.value
    assert isinstance(error.reason, sc.RecordReason)
    assert (error.illegal_reason is None) == (error.reason is not sc.RecordReason.ILLEGAL_ACTION)
    return error


RECORD_REASONS = {reason.value for reason in sc.RecordReason}


def assert_error(
    record: object, reason: str, hand: int | None = None, action: int | None = None
) -> RecordFormatError:
    """The record is refused with ``reason``: a RecordReason, or for an action
    the rules reject the IllegalReason (the reason being ILLEGAL_ACTION)."""
    error = load_error(record)
    if reason not in RECORD_REASONS:
        assert error.reason is sc.RecordReason.ILLEGAL_ACTION, str(error)
        assert error.illegal_reason is sc.IllegalReason(reason), str(error)
    else:
        assert error.reason is sc.RecordReason(reason), str(error)
    assert (error.hand, error.action) == (hand, action), str(error)
    if hand is not None:
        # Messages count from 1; the attributes are indexes into the record.
        where = f"hand {hand + 1}" + ("" if action is None else f", action {action + 1}")
        assert str(error).startswith(where + ":")
    return error


def edited(change: Callable[[Record], object]) -> Record:
    record = base_record()
    change(record)
    return record


# -- the format ------------------------------------------------------------------


def test_record_fields_follow_the_documented_format() -> None:
    game = base_game()
    record = json.loads(sc.dumps(game))
    assert list(record) == [
        "format",
        "version",
        "variant",
        "variant_version",
        "options",
        "seed",
        "first_dealer",
        "hands",
    ]
    assert record["format"] == "spades-game"
    assert record["version"] == 1
    assert (record["variant"], record["variant_version"]) == ("classic", 1)
    assert record["options"] == {"target_score": 300}
    assert (record["seed"], record["first_dealer"]) == (7, "W")
    first, second = record["hands"]
    result = game.hand_results[0]
    assert first["bids"] == [
        result.bids[seat] for seat in (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
    ]
    assert first["plays"] == [str(card) for trick in result.played for card in trick.cards]
    assert len(second["bids"]) == 4
    assert len(second["plays"]) == 10
    # Seeded deals are left out; the seed gives them back.
    assert "deal" not in first
    assert "deal" not in second


def test_bids_are_written_in_bidding_order_left_of_the_dealer() -> None:
    game = sc.new_game("classic", seed=1, dealer=Seat.SOUTH).deal().bid(1).bid(2).bid(3)
    assert game.bids == sc.SeatMap((2, 3, None, 1))
    assert json.loads(sc.dumps(game))["hands"] == [{"bids": [1, 2, 3], "plays": []}]


def test_explicit_deal_is_written_and_seeded_deal_is_not() -> None:
    game = sc.new_game("whiz", seed=11, dealer=Seat.NORTH)
    seeded = game.deal()
    assert json.loads(sc.dumps(seeded))["hands"] == [{"bids": [], "plays": []}]
    rnd = random.Random(3)
    deck = list(sc.CardSet.full_deck())
    rnd.shuffle(deck)
    hands = {seat: deck[13 * seat : 13 * seat + 13] for seat in Seat}
    explicit = game.deal(hands)
    written = json.loads(sc.dumps(explicit))["hands"][0]["deal"]
    assert set(written) == {"N", "E", "S", "W"}
    for seat in Seat:
        assert sc.CardSet.of(written[seat.letter]) == sc.CardSet.of(hands[seat])
    assert sc.loads(sc.dumps(explicit)) == explicit
    # An explicit deal equal to the seeded one is the seeded deal: not written.
    same = game.deal({seat: sc.CardSet(deal_masks(11, 0, Seat.NORTH)[seat]) for seat in Seat})
    assert same == seeded
    assert "deal" not in json.loads(sc.dumps(same))["hands"][0]


def test_dumps_is_one_line_unless_indented_and_indent_reads_back() -> None:
    game = base_game()
    assert "\n" not in sc.dumps(game)
    pretty = sc.dumps(game, indent=2)
    assert pretty.count("\n") > 10
    assert sc.loads(pretty) == game


def test_new_game_round_trips_in_deal_phase_with_no_hands() -> None:
    game = sc.new_game("mirror", seed=5)
    record = json.loads(sc.dumps(game))
    assert record["hands"] == []
    assert record["first_dealer"] == game.first_dealer.letter
    assert sc.loads(sc.dumps(game)) == game


def test_seed_beyond_2_53_survives_the_round_trip() -> None:
    game = sc.new_game("classic", seed=2**64 - 1).deal()
    assert sc.loads(sc.dumps(game)).seed == 2**64 - 1


def test_record_without_seed_loads_from_explicit_deals() -> None:
    game = sc.new_game("classic", seed=2, dealer=Seat.EAST)
    rnd = random.Random(2)
    deck = list(sc.CardSet.full_deck())
    rnd.shuffle(deck)
    game = game.deal({seat: deck[seat::4] for seat in Seat}).bid(3)
    record = to_record(game)
    del record["seed"]
    loaded = sc.loads(json.dumps(record))
    assert loaded.bids == game.bids
    assert loaded.hand(Seat.SOUTH) == game.hand(Seat.SOUTH)
    assert loaded.first_dealer is Seat.EAST


def test_record_with_seed_may_leave_out_first_dealer() -> None:
    game = sc.new_game("mirror", seed=99).deal()
    record = to_record(game)
    del record["first_dealer"]
    assert sc.loads(json.dumps(record)) == game


def test_lenient_card_notation_in_records_is_read() -> None:
    game = base_game()
    record = to_record(game)
    record["hands"][0]["plays"] = [
        card.replace("T", "10").lower() for card in record["hands"][0]["plays"]
    ]
    assert sc.loads(json.dumps(record)) == game


def test_loads_accepts_utf8_bytes() -> None:
    game = base_game()
    assert sc.loads(sc.dumps(game).encode()) == game


def test_derived_variant_needs_the_variant_object() -> None:
    short = sc.load_variant("mirror").derive(id="mirror-250", target_score=250)
    game = play_randomly(sc.new_game(short, seed=4).deal(), random.Random(4), steps=9)
    text = sc.dumps(game)
    assert_error(text, "unknown_variant")
    assert sc.loads(text, variant=short) == game
    with pytest.raises(RecordFormatError) as caught:
        sc.loads(text, variant=sc.load_variant("mirror"))
    assert caught.value.reason == "unknown_variant"


# -- round trips -------------------------------------------------------------------


def assert_resumes_identically(game: sc.Game, chooser: int) -> None:
    text = sc.dumps(game)
    loaded = sc.loads(text)
    assert loaded == game
    assert hash(loaded) == hash(game)
    assert sc.dumps(loaded) == text
    assert loaded.legal_actions() == game.legal_actions()
    assert loaded.view(Seat.NORTH) == game.view(Seat.NORTH)
    # Future seeded deals and play are the same after resuming.
    ahead = play_hands(game, random.Random(chooser), 2)
    ahead_loaded = play_hands(loaded, random.Random(chooser), 2)
    assert ahead_loaded == ahead


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_round_trip_at_random_points_of_random_games(variant: str, data: st.DataObject) -> None:
    game = data.draw(games(variant, max_hands=3), label="game")
    assert_resumes_identically(game, data.draw(st.integers(0, 2**32 - 1), label="chooser"))


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=10)
@given(data=st.data())
def test_round_trip_of_finished_games(variant: str, data: st.DataObject) -> None:
    game = data.draw(games(variant, phase=Phase.GAME_OVER), label="game")
    assert game.is_over
    loaded = sc.loads(sc.dumps(game))
    assert loaded == game
    assert loaded.winner is game.winner
    assert loaded.legal_actions() == ()


@pytest.mark.parametrize("phase", [Phase.DEAL, Phase.BID, Phase.PLAY])
def test_round_trip_in_every_phase(phase: Phase) -> None:
    game = sc.new_game("whiz", seed=21, first_lead="two_of_clubs")
    rnd = random.Random(21)
    game = play_hands(game, rnd, 1)
    if phase is not Phase.DEAL:
        game = game.deal()
        game = game.bid(game.legal_bids()[0])
    if phase is Phase.PLAY:
        game = play_randomly(game, rnd, steps=3 + 7)
    assert game.phase is phase
    assert_resumes_identically(game, 5)


def test_dump_lines_and_load_lines_stream_many_games() -> None:
    rnd = random.Random(8)
    many = [
        play_randomly(sc.new_game(v, seed=s), rnd, steps=s) for s in range(30) for v in VARIANTS
    ]
    lines = list(dump_lines(many))
    assert all(line.endswith("\n") and line.count("\n") == 1 for line in lines)
    assert list(load_lines(["\n", *lines, "   \n"])) == many


def test_load_lines_names_the_line_of_a_bad_record() -> None:
    good = sc.dumps(base_game())
    loaded = load_lines([good, "", good, '{"format": "spades-game"}'])
    assert next(loaded) == base_game()
    assert next(loaded) == base_game()
    with pytest.raises(RecordFormatError) as caught:
        next(loaded)
    assert str(caught.value).startswith("line 4: ")
    assert caught.value.reason == "missing_field"


# -- bad records: the JSON and the top-level fields ---------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "not_json"),
        ("{", "not_json"),
        ("spades", "not_json"),
        ('{"a": 1, "a": 2}', "not_json"),
        ('{"seed": NaN}', "not_json"),
        ("[" * 100_000 + "]" * 100_000, "not_json"),
        ('{"seed": ' + "9" * 5000 + "}", "not_json"),
        ("[1, 2]", "not_an_object"),
        ("3", "not_an_object"),
        ("null", "not_an_object"),
        ('"spades-game"', "not_an_object"),
    ],
)
def test_text_that_is_not_a_json_object_is_rejected(text: str, reason: str) -> None:
    assert_error(text, reason)


def test_bytes_that_are_not_utf8_are_rejected() -> None:
    assert_error(b'{"format": "\xff"}', "not_json")


def test_loads_of_something_not_text_is_rejected() -> None:
    with pytest.raises(RecordFormatError) as caught:
        sc.loads(42)  # type: ignore[arg-type]
    assert caught.value.reason == "wrong_type"


def test_dumps_of_something_not_a_game_is_rejected() -> None:
    with pytest.raises(sc.ArgumentTypeError, match="dumps: game must be a Game"):
        sc.dumps("game")  # type: ignore[arg-type]


def _set(path: tuple[Any, ...], value: object) -> Callable[[Record], None]:
    def change(record: Record) -> None:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _delete(path: tuple[Any, ...]) -> Callable[[Record], None]:
    def change(record: Record) -> None:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (_set(("format",), "spades"), "wrong_format"),
        (_set(("format",), None), "wrong_format"),
        (_delete(("format",)), "missing_field"),
        (_set(("version",), 2), "unsupported_version"),
        (_set(("version",), 0), "unsupported_version"),
        (_set(("version",), "1"), "wrong_type"),
        (_set(("version",), True), "wrong_type"),
        (_set(("version",), 1.0), "wrong_type"),
        (_delete(("version",)), "missing_field"),
        (_set(("variant",), "hearts"), "unknown_variant"),
        (_set(("variant",), 3), "wrong_type"),
        (_delete(("variant",)), "missing_field"),
        (_set(("variant_version",), 2), "variant_version"),
        (_set(("variant_version",), "1"), "wrong_type"),
        (_delete(("variant_version",)), "missing_field"),
        (_set(("options",), {"target": 300}), "bad_option"),
        (_set(("options",), {"whiz_nil_needs_no_ace": True}), "bad_option"),
        (_set(("options",), {"target_score": "300"}), "bad_option"),
        (_set(("options",), {"target_score": True}), "bad_option"),
        (_set(("options",), {"seed": 3}), "bad_option"),
        (_set(("options",), {"dealer": "N"}), "bad_option"),
        (_set(("options",), [["target_score", 300]]), "wrong_type"),
        (_set(("seed",), "7"), "bad_value"),
        (_set(("seed",), -1), "bad_value"),
        (_set(("seed",), 2**64), "bad_value"),
        (_set(("seed",), True), "bad_value"),
        (_set(("first_dealer",), "X"), "bad_value"),
        (_set(("first_dealer",), 3), "bad_value"),
        (_set(("hands",), {"0": {}}), "wrong_type"),
        (_set(("hands",), None), "wrong_type"),
        (_delete(("hands",)), "missing_field"),
        (_set(("comment",), "hello"), "unknown_field"),
    ],
)
def test_bad_top_level_field_is_rejected(change: Callable[[Record], None], reason: str) -> None:
    assert_error(edited(change), reason)


def test_variant_version_mismatch_message_says_the_rules_may_differ() -> None:
    error = assert_error(edited(_set(("variant_version",), 2)), "variant_version")
    assert "version 2" in str(error)
    assert "may differ" in str(error)


def test_record_without_seed_or_first_dealer_is_rejected() -> None:
    def change(record: Record) -> None:
        del record["seed"]
        del record["first_dealer"]

    assert_error(edited(change), "missing_field")


# -- bad records: hands, deals and actions ------------------------------------------


def test_hand_without_deal_in_a_record_without_seed_is_rejected() -> None:
    assert_error(edited(_delete(("seed",))), "missing_deal", hand=0)


@pytest.mark.parametrize(
    ("change", "reason", "hand", "action"),
    [
        (_set(("hands", 1), [[3, 2], []]), "wrong_type", 1, None),
        (_set(("hands", 0, "bids"), "3 0 4 2"), "wrong_type", 0, None),
        (_set(("hands", 0, "plays"), None), "wrong_type", 0, None),
        (_delete(("hands", 0, "bids")), "missing_field", 0, None),
        (_delete(("hands", 1, "plays")), "missing_field", 1, None),
        (_set(("hands", 0, "tricks"), []), "unknown_field", 0, None),
        (_set(("hands", 1, "bids", 2), True), "wrong_type", 1, 2),
        (_set(("hands", 1, "bids", 3), 2.0), "wrong_type", 1, 3),
        (_set(("hands", 1, "bids", 0), "3"), "wrong_type", 1, 0),
        (_set(("hands", 1, "bids", 1), 14), "bid_not_allowed", 1, 1),
        (_set(("hands", 1, "bids", 1), -1), "bid_not_allowed", 1, 1),
        (_set(("hands", 0, "plays", 13), 12), "wrong_type", 0, 4 + 13),
        (_set(("hands", 0, "plays", 13), ["Q", "H"]), "wrong_type", 0, 4 + 13),
        (_set(("hands", 0, "plays", 13), "1X"), "bad_card", 0, 4 + 13),
        (_set(("hands", 1, "plays", 9), ""), "bad_card", 1, 4 + 9),
    ],
)
def test_wrongly_typed_or_unreadable_hand_content_is_rejected(
    change: Callable[[Record], None], reason: str, hand: int, action: int | None
) -> None:
    assert_error(edited(change), reason, hand, action)


def explicit_deal_record() -> Record:
    """The base record with hand 1's deal written out."""
    record = base_record()
    game = base_game()
    record["hands"][1]["deal"] = {
        seat.letter: [str(card) for card in game.dealt_hand(seat)] for seat in Seat
    }
    return record


def test_explicit_deal_matching_the_seed_loads() -> None:
    assert sc.loads(json.dumps(explicit_deal_record())) == base_game()


def test_card_dealt_twice_is_rejected() -> None:
    record = explicit_deal_record()
    deal = record["hands"][1]["deal"]
    deal["E"][0] = deal["N"][0]
    error = assert_error(record, "invalid_deal", 1)
    assert "twice" in str(error)


def test_card_listed_twice_in_one_hand_is_rejected() -> None:
    record = explicit_deal_record()
    deal = record["hands"][1]["deal"]
    deal["S"][1] = deal["S"][0]
    assert_error(record, "invalid_deal", 1)


@pytest.mark.parametrize("size", [12, 14, 0])
def test_deal_of_the_wrong_size_is_rejected(size: int) -> None:
    record = explicit_deal_record()
    deal = record["hands"][1]["deal"]
    if size < 13:
        deal["W"] = deal["W"][:size]  # those cards are not dealt at all
    else:
        deal["W"].append(deal["N"].pop())
    error = assert_error(record, "invalid_deal", 1)
    assert "13" in str(error)


@pytest.mark.parametrize(
    "change",
    [
        lambda deal: deal.pop("S"),
        lambda deal: deal.__setitem__("north", deal.pop("N")),
        lambda deal: deal.__setitem__("X", []),
    ],
)
def test_deal_without_the_four_seats_is_rejected(
    change: Callable[[dict[str, Any]], object],
) -> None:
    record = explicit_deal_record()
    change(record["hands"][1]["deal"])
    assert_error(record, "invalid_deal", 1)


@pytest.mark.parametrize("value", ["AS KS", None, [1, 2], {"AS": 1}])
def test_deal_with_wrongly_typed_cards_is_rejected(value: object) -> None:
    record = explicit_deal_record()
    record["hands"][1]["deal"]["E"] = value
    assert_error(record, "wrong_type", 1)


def test_deal_with_bad_card_text_is_rejected() -> None:
    record = explicit_deal_record()
    record["hands"][1]["deal"]["E"][4] = "ZZ"
    error = assert_error(record, "invalid_deal", 1)
    assert "ZZ" in str(error)


def test_deal_that_is_not_an_object_is_rejected() -> None:
    record = base_record()
    record["hands"][0]["deal"] = [["AS"]]
    assert_error(record, "wrong_type", 0)


def test_card_not_in_the_players_hand_is_rejected() -> None:
    record = base_record()
    plays = record["hands"][1]["plays"]
    # A card played in trick 1 cannot be played again in trick 2.
    plays[5] = plays[0]
    assert_error(record, "card_not_in_hand", 1, 4 + 5)


def test_illegal_bid_in_mirror_is_rejected_at_its_index() -> None:
    game = sc.new_game("mirror", seed=12).deal()
    bids = []
    while game.phase is Phase.BID:
        bids.append(game.legal_bids()[0])
        game = game.bid(bids[-1])
    record = to_record(game)
    record["hands"][0]["bids"][2] = (bids[2] + 1) % 14  # B1: the only bid is the spade count
    error = assert_error(record, "bid_not_allowed", 0, 2)
    assert "In Mirror Spades your bid is your spade count" in str(error)


def test_B7_classic_team_bid_over_13_is_rejected() -> None:
    game = sc.new_game("classic", seed=3, dealer=Seat.WEST).deal()
    record = to_record(game.bid(7).bid(2))
    record["hands"][0]["bids"].append(7)  # South after partner North's 7
    assert_error(record, "bid_not_allowed", 0, 2)


def _first_position(
    game: sc.Game, rnd: random.Random, wanted: Callable[[sc.Game], bool]
) -> tuple[sc.Game, int]:
    """Play randomly from ``game`` (in PLAY) until ``wanted``; the game there
    and how many plays it took."""
    plays = 0
    while not wanted(game):
        legal = game.legal_actions()
        game = game.apply(legal[rnd.randrange(len(legal))])
        plays += 1
        assert game.phase is Phase.PLAY, "no such position in this hand"
    return game, plays


def test_P1_leading_a_spade_before_they_are_broken_is_rejected() -> None:
    # The first seed whose first leader holds spades and other suits.
    for seed in range(100):
        game = sc.new_game("classic", seed=seed, dealer=Seat.NORTH).deal()
        while game.phase is Phase.BID:
            game = game.bid(3)
        assert game.to_act is not None
        hand = game.hand(game.to_act)
        if hand.suit(Suit.SPADES) and len(hand.suit(Suit.SPADES)) < len(hand):
            break
    spade = hand.suit(Suit.SPADES).lowest()
    record = to_record(game)
    record["hands"][0]["plays"] = [str(spade)]
    error = assert_error(record, "spades_not_broken", 0, 4)
    assert str(spade) in str(error)


def test_P4_not_following_suit_is_rejected_at_its_index() -> None:
    game = sc.new_game("classic", seed=32, dealer=Seat.NORTH).deal()
    while game.phase is Phase.BID:
        game = game.bid(3)

    def can_revoke(state: sc.Game) -> bool:
        if not state.current_trick or state.to_act is None:
            return False
        led = state.current_trick[0][1].suit
        hand = state.hand(state.to_act)
        return bool(hand.suit(led)) and len(hand.suit(led)) < len(hand)

    position, plays = _first_position(game, random.Random(32), can_revoke)
    record = to_record(position)
    assert position.to_act is not None
    led = position.current_trick[0][1].suit
    off = next(card for card in position.hand(position.to_act) if card.suit is not led)
    record["hands"][0]["plays"].append(str(off))
    assert_error(record, "must_follow_suit", 0, 4 + plays)


def test_P6_two_of_clubs_lead_is_enforced_when_loading() -> None:
    game = sc.new_game("classic", seed=6, first_lead="two_of_clubs").deal()
    while game.phase is Phase.BID:
        game = game.bid(2)
    record = to_record(game)
    assert game.to_act is not None
    other = next(card for card in game.hand(game.to_act) if str(card) != "2C")
    record["hands"][0]["plays"] = [str(other)]
    assert_error(record, "must_lead_two_of_clubs", 0, 4)


def test_play_before_bidding_ends_is_rejected_at_its_index() -> None:
    record = base_record()
    hand = record["hands"][1]
    hand["bids"] = hand["bids"][:2]
    assert_error(record, "wrong_phase", 1, 2)


def test_too_many_bids_is_rejected() -> None:
    record = base_record()
    record["hands"][1]["bids"].append(3)
    error = assert_error(record, "too_many_bids", 1, 4)
    assert "5 bids" in str(error)


def test_too_many_plays_is_rejected() -> None:
    record = base_record()
    plays = record["hands"][0]["plays"]
    record["hands"][0]["plays"] = [*plays, plays[0]]
    assert_error(record, "too_many_plays", 0, 4 + 52)


def test_unfinished_hand_followed_by_another_is_rejected() -> None:
    record = base_record()
    record["hands"][0]["plays"] = record["hands"][0]["plays"][:30]
    error = assert_error(record, "incomplete_hand", 0, 4 + 30)
    assert "only the last hand" in str(error)


def test_hand_after_the_game_is_over_is_rejected() -> None:
    game = sc.new_game("classic", seed=1, target_score=1, nil_value=0, loss_floor=-1)
    game = play_hands(game, random.Random(1), 1)
    assert game.is_over
    record = to_record(game)
    record["hands"].append({"bids": [], "plays": []})
    error = assert_error(record, "after_game_over", 1)
    assert "over" in str(error)


def test_bad_record_in_a_later_hand_names_that_hand_and_action() -> None:
    record = base_record()
    record["hands"][1]["plays"][7] = "ZZ"
    error = assert_error(record, "bad_card", 1, 11)
    assert str(error).startswith("hand 2, action 12: ")


# -- nothing but RecordFormatError escapes -------------------------------------------

_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**65), 2**65)
    | st.floats(allow_nan=False)
    | st.sampled_from(["", "N", "AS", "10h", "classic", "spades-game", "ZZ"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


def _paths(value: object, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


def whiz_explicit_record() -> Record:
    """A Whiz game 20 actions into a hand dealt explicitly."""
    deck = list(sc.CardSet.full_deck())
    random.Random(1).shuffle(deck)
    game = sc.new_game("whiz", seed=1, whiz_nil_needs_no_ace=True)
    game = game.deal({seat: deck[13 * seat : 13 * seat + 13] for seat in Seat})
    return to_record(play_randomly(game, random.Random(1), steps=20))


RECORDS = [base_record(), explicit_deal_record(), whiz_explicit_record()]


@settings(max_examples=150)
@given(data=st.data())
def test_any_corrupted_record_loads_or_raises_record_format_error(data: st.DataObject) -> None:
    record: object = copy.deepcopy(data.draw(st.sampled_from(RECORDS), label="record"))
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        path = data.draw(st.sampled_from(_paths(record)), label="path")
        value = data.draw(_JSON_VALUES, label="value")
        if not path:
            record = value
            continue
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    failure: RecordFormatError | None = None
    try:
        game = from_record(record)
    except RecordFormatError as error:
        failure = error
    if failure is not None:
        assert isinstance(failure.reason, sc.RecordReason)
        assert failure.hand is None or isinstance(failure.hand, int)
    else:
        assert sc.loads(sc.dumps(game)) == game


@settings(max_examples=150)
@given(text=st.text(max_size=60) | st.binary(max_size=60))
def test_any_text_loads_or_raises_record_format_error(text: str | bytes) -> None:
    with pytest.raises(RecordFormatError):
        sc.loads(text)


# -- plugin variants ------------------------------------------------------------------


def _classic_with(option: OptionSpec[Any], default: object) -> sc.Variant:
    classic = sc.load_variant("classic")
    options: dict[Any, object] = {**classic.defaults, option: default}
    return type(classic)(id="classic-plus", title="Classic with an extra option", options=options)


@pytest.mark.parametrize("value", [object(), float("nan"), {1, 2}])
def test_plugin_option_json_cannot_hold_is_reported_by_dumps(value: object) -> None:
    anything = OptionSpec("blob", "anything", "any value at all", parse=lambda v: v)
    variant = _classic_with(anything, None)
    game = sc.new_game(variant, seed=1, blob=value)
    with pytest.raises(RecordFormatError) as caught:
        sc.dumps(game)
    assert caught.value.reason == "bad_option"


def test_plugin_option_round_trips_through_its_variant() -> None:
    variant = _classic_with(int_option("jokers", "jokers in the deck", minimum=0), 0)
    game = sc.new_game(variant, seed=1, jokers=2).deal().bid(4)
    text = sc.dumps(game)
    assert json.loads(text)["options"] == {"jokers": 2}
    assert sc.loads(text, variant=variant) == game


def test_variant_failing_during_replay_is_reported_as_a_record_error() -> None:
    classic = sc.load_variant("classic")

    class Failing(type(classic)):  # type: ignore[misc]
        def legal_bids(self, *args: object) -> tuple[int, ...]:
            raise RuntimeError("plugin bug")

    failing = Failing(id="classic", title="Failing", options=classic.defaults)
    text = sc.dumps(sc.new_game("classic", seed=1).deal().bid(4))
    with pytest.raises(RecordFormatError) as caught:
        sc.loads(text, variant=failing)
    error = caught.value
    assert (error.reason, error.hand, error.action) == ("variant_unavailable", 0, 0)
    assert "plugin bug" in str(error)
