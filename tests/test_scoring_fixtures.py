"""Scoring a hand (docs/rules.md, Scoring) against its scoring examples F1-F17.

Every column is checked: classic; Mirror (and Whiz, which scores like Mirror);
each alternative mode named in the Note column; and the other scoring options
(``double_nil``, ``bag_limit``, ``bag_penalty``, ``nil_value``). The pure
function :func:`spades_core.scoring.score_hand` is checked, then the variant
hook, then whole hands played through the engine.
"""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest

import spades_core as sc
from spades_core import Phase, Rules, Seat, SeatMap, Team, TeamMap
from spades_core.rules.scoring import score_hand, score_team

Result = tuple[tuple[int, int], tuple[int, int]]
"""((points NS, bags NS), (points EW, bags EW)), as docs/rules.md writes an example."""


class Fixture(NamedTuple):
    name: str
    bids: tuple[int, int, int, int]
    tricks: tuple[int, int, int, int]
    bags_before: tuple[int, int]
    classic: Result
    mirror: Result | None
    """``None``: not a possible Mirror deal."""
    note: str


def _f(
    name: str,
    bids: tuple[int, int, int, int],
    tricks: tuple[int, int, int, int],
    bags_before: tuple[int, int],
    classic: Result,
    mirror: Result | str | None,
    note: str,
) -> Fixture:
    mirror_result = classic if mirror == "same" else mirror
    assert not isinstance(mirror_result, str)
    return Fixture(name, bids, tricks, bags_before, classic, mirror_result, note)


FIXTURES = [
    _f("F1", (3, 4, 4, 2), (4, 4, 3, 2), (0, 0), ((70, 0), (60, 0)), "same", "both_exact"),
    _f(
        "F2",
        (3, 2, 4, 4),
        (5, 2, 4, 2),
        (0, 0),
        ((72, 2), (-60, 0)),
        "same",
        "seed_000_example_bid_7_won_9_scores_72",
    ),
    _f("F3", (4, 3, 4, 2), (4, 4, 3, 2), (5, 3), ((-80, 5), (51, 4)), "same", "set_adds_no_bags"),
    _f(
        "F4",
        (5, 2, 3, 3),
        (6, 1, 4, 2),
        (8, 0),
        ((-18, 0), (-50, 0)),
        "same",
        "tenth_bag_costs_100",
    ),
    _f("F5", (2, 5, 2, 4), (5, 3, 2, 3), (9, 0), ((-57, 2), (-90, 0)), "same", "12_bags_2_carried"),
    _f("F6", (0, 4, 5, 4), (0, 4, 6, 3), (0, 0), ((151, 1), (-80, 0)), "same", "nil_made"),
    _f(
        "F7",
        (0, 4, 5, 4),
        (1, 3, 5, 4),
        (0, 0),
        ((-49, 1), (-80, 0)),
        ((-50, 1), (-80, 0)),
        "nil_trick_is_overtrick_in_classic_bag_only_in_mirror",
    ),
    _f(
        "F8",
        (0, 4, 5, 4),
        (2, 4, 4, 3),
        (0, 0),
        ((-49, 1), (-80, 0)),
        ((-150, 2), (-80, 0)),
        "nil_tricks_rescue_partner_only_in_classic",
    ),
    _f(
        "F9",
        (0, 6, 2, 5),
        (1, 6, 1, 5),
        (0, 0),
        ((-80, 0), (110, 0)),
        ((-120, 1), (110, 0)),
        "msn_example_minus_120_and_one_bag",
    ),
    _f(
        "F10",
        (0, 7, 0, 6),
        (0, 6, 1, 6),
        (0, 0),
        ((1, 1), (-130, 0)),
        ((0, 1), (-130, 0)),
        "both_nil_one_fails",
    ),
    _f("F11", (0, 7, 0, 6), (0, 7, 0, 6), (0, 0), ((200, 0), (130, 0)), "same", "both_nils_made"),
    _f("F12", (8, 0, 5, 0), (8, 0, 5, 0), (0, 0), ((130, 0), (200, 0)), "same", "contract_13_made"),
    _f(
        "F13",
        (1, 3, 1, 3),
        (7, 0, 6, 0),
        (9, 0),
        ((-169, 0), (-60, 0)),
        None,
        "20_bags_two_penalties",
    ),
    _f(
        "F14",
        (5, 2, 5, 1),
        (4, 4, 5, 0),
        (9, 0),
        ((-100, 9), (31, 1)),
        "same",
        "set_with_9_bags_no_penalty",
    ),
    _f(
        "F15",
        (0, 5, 3, 5),
        (1, 4, 4, 4),
        (9, 0),
        ((-168, 1), (-100, 0)),
        ((-169, 1), (-100, 0)),
        "penalty_triggered_partly_by_a_nil_trick",
    ),
    _f(
        "F16",
        (0, 5, 4, 4),
        (1, 4, 3, 5),
        (9, 0),
        ((-60, 9), (90, 0)),
        ((-240, 0), (90, 0)),
        "mirror_set_and_the_nils_bag_hits_10",
    ),
    _f(
        "F17",
        (0, 4, 5, 4),
        (0, 6, 3, 4),
        (0, 0),
        ((50, 0), (82, 2)),
        "same",
        "partner_set_while_the_nil_is_made",
    ),
]
BY_NAME = {fixture.name: fixture for fixture in FIXTURES}
MIRROR_FIXTURES = [f for f in FIXTURES if f.mirror is not None]


def _ids(fixture: Fixture) -> str:
    return f"{fixture.name}-{fixture.note}"


def rules(variant: str, **options: object) -> Rules:
    return sc.load_variant(variant).rules(**options)


def scored(rules: Rules, fixture: Fixture) -> Result:
    """The fixture scored under ``rules``, per team as (points, bags) like docs/rules.md."""
    (points_ns, points_ew), (bags_ns, bags_ew) = score_hand(
        rules, fixture.bids, fixture.tricks, fixture.bags_before
    )
    return (points_ns, bags_ns), (points_ew, bags_ew)


def scored_by_variant_hook(variant: str, fixture: Fixture, **options: object) -> Result:
    chosen = sc.load_variant(variant)
    points, bags = chosen.score_hand(
        chosen.rules(**options),
        SeatMap(fixture.bids),
        SeatMap(fixture.tricks),
        TeamMap(fixture.bags_before),
    )
    return (points[Team.NS], bags[Team.NS]), (points[Team.EW], bags[Team.EW])


def test_fixture_table_is_complete() -> None:
    assert [f.name for f in FIXTURES] == [f"F{i}" for i in range(1, 18)]
    for fixture in FIXTURES:
        assert sum(fixture.tricks) == 13, fixture.name
    # Mirror fixtures are possible Mirror deals: the bids are the spade counts.
    for fixture in MIRROR_FIXTURES:
        assert sum(fixture.bids) == 13, fixture.name
    assert sum(BY_NAME["F13"].bids) != 13


# -- the classic and Mirror columns -------------------------------------------------


@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_classic_column(fixture: Fixture) -> None:
    assert scored(rules("classic"), fixture) == fixture.classic
    assert scored_by_variant_hook("classic", fixture) == fixture.classic


@pytest.mark.parametrize("variant", ["mirror", "whiz"])
@pytest.mark.parametrize("fixture", MIRROR_FIXTURES, ids=_ids)
def test_mirror_column_for_mirror_and_whiz(variant: str, fixture: Fixture) -> None:
    assert scored(rules(variant), fixture) == fixture.mirror
    assert scored_by_variant_hook(variant, fixture) == fixture.mirror


def test_F7_nil_trick_is_overtrick_in_classic_bag_only_in_mirror() -> None:
    fixture = BY_NAME["F7"]
    assert scored(rules("classic"), fixture)[0] == (-49, 1)
    assert scored(rules("mirror"), fixture)[0] == (-50, 1)


def test_F8_nil_tricks_rescue_partner_only_in_classic() -> None:
    fixture = BY_NAME["F8"]
    assert scored(rules("classic"), fixture)[0] == (-49, 1)
    assert scored(rules("mirror"), fixture)[0] == (-150, 2)
    assert scored(rules("whiz"), fixture)[0] == (-150, 2)
    # The option, not the variant, decides: classic with bags_only scores like Mirror.
    assert scored(rules("classic", nil_tricks="bags_only"), fixture)[0] == (-150, 2)
    assert scored(rules("mirror", nil_tricks="count_toward_contract"), fixture)[0] == (-49, 1)


# -- the alternative modes of the Note column ----------------------------------------


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_F5_reset_drops_the_two_carried_bags(variant: str) -> None:
    assert scored(rules(variant, bag_overflow="reset"), BY_NAME["F5"]) == ((-57, 0), (-90, 0))
    assert scored(rules(variant, bag_overflow=sc.BagOverflow.RESET), BY_NAME["F5"])[0] == (-57, 0)


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_F7_bags_with_points_scores_the_nil_trick_as_a_point(variant: str) -> None:
    assert scored(rules(variant, nil_tricks="bags_with_points"), BY_NAME["F7"]) == (
        (-49, 1),
        (-80, 0),
    )


@pytest.mark.parametrize(
    ("variant", "ns"), [("classic", (-199, 1)), ("mirror", (-200, 1)), ("whiz", (-200, 1))]
)
def test_F10_all_or_nothing_double_nil(variant: str, ns: tuple[int, int]) -> None:
    assert scored(rules(variant, double_nil="all_or_nothing"), BY_NAME["F10"]) == (ns, (-130, 0))


def test_F13_reset_takes_one_penalty_for_20_bags() -> None:
    assert scored(rules("classic", bag_overflow="reset"), BY_NAME["F13"]) == ((-69, 0), (-60, 0))


def test_F13_carry_takes_two_penalties_for_20_bags() -> None:
    assert scored(rules("classic"), BY_NAME["F13"]) == ((-169, 0), (-60, 0))


# -- the other scoring options --------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "ns"), [("classic", (1, 1)), ("mirror", (0, 1)), ("whiz", (0, 1))]
)
def test_F10_no_loss_double_nil_scores_zero_for_a_failed_pair(
    variant: str, ns: tuple[int, int]
) -> None:
    assert scored(rules(variant, double_nil="no_loss"), BY_NAME["F10"]) == (ns, (-130, 0))


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
@pytest.mark.parametrize("mode", ["independent", "all_or_nothing", "no_loss"])
def test_F11_both_nils_made_score_twice_the_nil_value_in_every_mode(
    variant: str, mode: str
) -> None:
    assert scored(rules(variant, double_nil=mode), BY_NAME["F11"]) == ((200, 0), (130, 0))
    assert scored(rules(variant, double_nil=mode, nil_value=30), BY_NAME["F11"]) == (
        (60, 0),
        (130, 0),
    )


@pytest.mark.parametrize("mode", ["independent", "all_or_nothing", "no_loss"])
def test_double_nil_mode_only_matters_when_both_partners_bid_nil(mode: str) -> None:
    # F8 has a single Nil bidder: the mode changes nothing.
    for variant in ("classic", "mirror"):
        fixture = BY_NAME["F8"]
        assert scored(rules(variant, double_nil=mode), fixture) == scored(rules(variant), fixture)


def test_double_nil_both_fail() -> None:
    # NS bid Nil and Nil and each took a trick (EW bid 7 and 6 and took 6 and 5).
    for mode, classic_ns, mirror_ns in [
        ("independent", (-198, 2), (-200, 2)),
        ("all_or_nothing", (-198, 2), (-200, 2)),
        ("no_loss", (2, 2), (0, 2)),
    ]:
        for variant, expected in [("classic", classic_ns), ("mirror", mirror_ns)]:
            points, bags = score_hand(
                rules(variant, double_nil=mode), (0, 7, 0, 6), (1, 6, 1, 5), (0, 0)
            )
            assert (points[0], bags[0]) == expected, (variant, mode)
            assert (points[1], bags[1]) == (-130, 0)


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_bag_limit_none_turns_penalties_off_but_still_counts_bags(variant: str) -> None:
    no_limit = rules(variant, bag_limit=None)
    # F4: the 10th bag costs nothing and is kept.
    assert scored(no_limit, BY_NAME["F4"]) == ((82, 10), (-50, 0))
    # F5: 12 bags kept.
    assert scored(no_limit, BY_NAME["F5"]) == ((43, 12), (-90, 0))
    assert score_team(no_limit, (2, 2), (9, 4), 995) == (49, 1004)


def test_F13_bag_limit_none_keeps_all_20_bags() -> None:
    assert scored(rules("classic", bag_limit=None), BY_NAME["F13"]) == ((31, 20), (-60, 0))


@pytest.mark.parametrize("variant", ["classic", "mirror"])
def test_bag_penalty_option_sets_the_cost_of_each_full_limit(variant: str) -> None:
    assert scored(rules(variant, bag_penalty=50), BY_NAME["F4"]) == ((32, 0), (-50, 0))
    assert scored(rules(variant, bag_penalty=0), BY_NAME["F4"]) == ((82, 0), (-50, 0))
    assert scored(rules(variant, bag_penalty=250), BY_NAME["F5"]) == ((-207, 2), (-90, 0))


def test_F13_bag_penalty_applies_once_per_full_limit() -> None:
    assert scored(rules("classic", bag_penalty=30), BY_NAME["F13"]) == ((-29, 0), (-60, 0))


@pytest.mark.parametrize(
    ("limit", "overflow", "expected"),
    [
        (5, "carry", (-169, 1)),  # two full limits, 1 bag kept
        (5, "reset", (-69, 0)),  # one penalty, bags back to 0
        (3, "carry", (-269, 2)),
        (11, "carry", (-69, 0)),  # exactly the limit
        (12, "carry", (31, 11)),  # one short of the limit
        (1, "carry", (-1069, 0)),
        (1, "reset", (-69, 0)),
    ],
)
def test_bag_limit_option(limit: int, overflow: str, expected: tuple[int, int]) -> None:
    # Bids 1 and 1, tricks 13 and 0, no bags before: 20 + 11 overtricks = 31, 11 new bags.
    for variant in ("classic", "mirror"):
        chosen = rules(variant, bag_limit=limit, bag_overflow=overflow)
        assert score_team(chosen, (1, 1), (13, 0), 0) == expected


@pytest.mark.parametrize(
    ("nil_value", "f6_ns", "f8_classic_ns", "f8_mirror_ns"),
    [
        (100, (151, 1), (-49, 1), (-150, 2)),
        (50, (101, 1), (1, 1), (-100, 2)),
        (200, (251, 1), (-149, 1), (-250, 2)),
        (0, (51, 1), (51, 1), (-50, 2)),
    ],
)
def test_nil_value_option(
    nil_value: int,
    f6_ns: tuple[int, int],
    f8_classic_ns: tuple[int, int],
    f8_mirror_ns: tuple[int, int],
) -> None:
    assert scored(rules("classic", nil_value=nil_value), BY_NAME["F6"])[0] == f6_ns
    assert scored(rules("mirror", nil_value=nil_value), BY_NAME["F6"])[0] == f6_ns
    assert scored(rules("classic", nil_value=nil_value), BY_NAME["F8"])[0] == f8_classic_ns
    assert scored(rules("whiz", nil_value=nil_value), BY_NAME["F8"])[0] == f8_mirror_ns


def test_F10_all_or_nothing_scales_with_nil_value() -> None:
    assert scored(rules("classic", double_nil="all_or_nothing", nil_value=50), BY_NAME["F10"])[
        0
    ] == (-99, 1)
    assert scored(rules("mirror", double_nil="all_or_nothing", nil_value=50), BY_NAME["F10"])[
        0
    ] == (-100, 1)


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_scoring_is_symmetric_between_the_teams(variant: str, fixture: Fixture) -> None:
    # Seating every player one place to the left swaps the teams and nothing else.
    swapped = fixture._replace(
        bids=fixture.bids[1:] + fixture.bids[:1],
        tricks=fixture.tricks[1:] + fixture.tricks[:1],
        bags_before=fixture.bags_before[::-1],
    )
    ns, ew = scored(rules(variant), fixture)
    assert scored(rules(variant), swapped) == (ew, ns)


# -- whole hands played through the engine ------------------------------------------

# North holds every spade, so North must play a spade to every trick and wins all
# 13 whatever anyone plays: the tricks are (13, 0, 0, 0) with any choice of cards.
NORTH_TAKES_ALL = {
    Seat.NORTH: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    Seat.EAST: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    Seat.SOUTH: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    Seat.WEST: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
}


def play_hand(game: sc.Game, bids: dict[Seat, int], *, choose_last: bool = False) -> sc.Game:
    """Deal NORTH_TAKES_ALL, bid ``bids`` and play out the hand, always taking the
    first (or last) legal card."""
    game = game.deal(NORTH_TAKES_ALL)
    while game.phase is Phase.BID:
        assert game.to_act is not None
        game = game.bid(bids[game.to_act])
    while game.phase is Phase.PLAY:
        plays = game.legal_actions()
        game = game.apply(plays[-1] if choose_last else plays[0])
    return game


@pytest.mark.parametrize(
    ("variant", "options", "bids", "expected"),
    [
        # Contract 13 made and South's Nil made; East and West both make Nil.
        ("classic", {}, (13, 0, 0, 0), ((230, 0), (200, 0))),
        ("classic", {}, (4, 3, 5, 2), ((94, 4), (-50, 0))),
        # North's failed Nil: its 13 tricks make South's 6 (7 bags) in classic...
        ("classic", {}, (0, 3, 6, 4), ((-33, 7), (-70, 0))),
        # ...but are 13 bags (one penalty, 3 kept) with bags_only, and South is set.
        ("classic", {"nil_tricks": "bags_only"}, (0, 3, 6, 4), ((-260, 3), (-70, 0))),
        ("classic", {"nil_tricks": "bags_with_points"}, (0, 3, 6, 4), ((-247, 3), (-70, 0))),
        ("classic", {"bag_limit": None}, (0, 3, 6, 4), ((-33, 7), (-70, 0))),
        ("mirror", {}, (13, 0, 0, 0), ((230, 0), (200, 0))),
        ("mirror", {"double_nil": "all_or_nothing"}, (13, 0, 0, 0), ((230, 0), (200, 0))),
        ("whiz", {}, (13, 0, 0, 0), ((230, 0), (200, 0))),
        # Whiz North bids Nil and takes 13: -100 + South's +100, 13 bags (-100, 3 kept).
        ("whiz", {}, (0, 0, 0, 0), ((-100, 3), (200, 0))),
        ("whiz", {"double_nil": "all_or_nothing"}, (0, 0, 0, 0), ((-300, 3), (200, 0))),
        ("whiz", {"double_nil": "no_loss"}, (0, 0, 0, 0), ((-100, 3), (200, 0))),
        ("whiz", {"bag_overflow": "reset", "nil_value": 50}, (0, 0, 0, 0), ((-100, 0), (100, 0))),
    ],
)
@pytest.mark.parametrize("choose_last", [False, True])
def test_played_hand_scores_like_score_hand(
    variant: str,
    options: dict[str, object],
    bids: tuple[int, int, int, int],
    expected: Result,
    choose_last: bool,
) -> None:
    game = sc.new_game(variant, seed=1, dealer=Seat.WEST, **options)
    game = play_hand(game, dict(zip(Seat, bids, strict=True)), choose_last=choose_last)
    (result,) = game.hand_results
    assert dict(result.tricks) == {Seat.NORTH: 13, Seat.EAST: 0, Seat.SOUTH: 0, Seat.WEST: 0}
    assert dict(result.bids) == dict(zip(Seat, bids, strict=True))
    assert (
        (result.points[Team.NS], result.bags[Team.NS]),
        (result.points[Team.EW], result.bags[Team.EW]),
    ) == expected
    assert (result.points.values_, result.bags.values_) == score_hand(
        game.rules, bids, (13, 0, 0, 0), (0, 0)
    )
    assert game.scores == result.scores == result.points
    assert game.bags == result.bags


def test_bags_carry_across_played_hands_and_the_floor_ends_the_game() -> None:
    # Classic, bids N4 E3 S5 W2 every hand: NS +94 with 4 bags, EW -50 (set).
    game = sc.new_game("classic", seed=1, dealer=Seat.WEST)
    bids = {Seat.NORTH: 4, Seat.EAST: 3, Seat.SOUTH: 5, Seat.WEST: 2}
    expected = [
        # (NS points, NS bags, NS score, EW score)
        (94, 4, 94, -50),
        (94, 8, 188, -100),
        (-6, 2, 182, -150),  # 12 bags: -100, 2 carried
        (94, 6, 276, -200),  # EW at the -200 floor: NS wins
    ]
    for number, (points, bags, ns_score, ew_score) in enumerate(expected):
        assert game.phase is Phase.DEAL
        assert game.dealer is Seat((Seat.WEST + number) % 4)
        game = play_hand(game, bids)
        result = game.hand_results[-1]
        assert result.number == number
        assert (result.points[Team.NS], result.bags[Team.NS]) == (points, bags)
        assert dict(game.scores) == {Team.NS: ns_score, Team.EW: ew_score}
    assert game.phase is Phase.GAME_OVER
    assert game.winner is Team.NS


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", {}),
        ("classic", {"nil_tricks": "bags_with_points", "bag_overflow": "reset", "bag_limit": 4}),
        ("classic", {"double_nil": "no_loss", "nil_value": 60, "max_team_bid": None}),
        ("mirror", {}),
        ("mirror", {"nil_tricks": "count_toward_contract", "bag_limit": None}),
        ("whiz", {}),
        ("whiz", {"double_nil": "all_or_nothing", "bag_penalty": 40, "bag_limit": 3}),
    ],
)
def test_every_played_hand_result_equals_score_hand_on_its_bids_and_tricks(
    variant: str, options: dict[str, object]
) -> None:
    chooser = random.Random(2024)
    game = sc.new_game(variant, seed=11, dealer=None, **options)
    bags_before = (0, 0)
    scores = (0, 0)
    while not game.is_over and game.hand_number < 12:
        game = game.apply(chooser.choice(game.legal_actions()))
        if game.phase in (Phase.DEAL, Phase.GAME_OVER):
            result = game.hand_results[-1]
            bids = result.bids.values_
            tricks = result.tricks.values_
            assert len(bids) == len(tricks) == 4
            points, bags = score_hand(game.rules, bids, tricks, bags_before)
            assert result.points.values_ == points
            assert result.bags.values_ == bags
            scores = (scores[0] + points[0], scores[1] + points[1])
            assert result.scores.values_ == scores
            # The tricks column is the count of tricks each seat won.
            assert [sum(t.winner is seat for t in result.played) for seat in Seat] == list(tricks)
            bags_before = bags
    assert game.hand_results
