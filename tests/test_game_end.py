"""When the game ends (docs/rules.md, Game end) and its game-end examples G1-G9.

Checked through :func:`spades_core.scoring.game_outcome`, through each variant's
``game_outcome`` hook, and end to end: a played game that ends is over for good.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import pytest

import spades_core as sc
from spades_core import Bid, Deal, IllegalActionError, IllegalReason, Phase, Play, Seat, Team
from spades_core.rules.scoring import game_outcome

NS, EW = 0, 1


class EndFixture(NamedTuple):
    name: str
    scores: tuple[int, int]
    options: dict[str, object]
    classic: int | None
    mirror: int | None
    note: str


G_FIXTURES = [
    EndFixture("G1", (510, 490), {}, NS, NS, "target_reached"),
    EndFixture("G2", (520, 505), {}, NS, NS, "both_over_higher_wins"),
    EndFixture("G3", (510, 510), {}, None, None, "tie_at_the_top_plays_another_hand"),
    EndFixture("G4", (-210, 340), {}, EW, None, "floor_only_in_classic"),
    EndFixture("G5", (-260, -230), {}, EW, None, "both_under_the_floor_higher_wins"),
    EndFixture("G6", (530, -210), {}, NS, NS, "target_beats_the_floor"),
    EndFixture("G7", (500, 320), {}, NS, NS, "reaching_exactly_counts"),
    EndFixture("G8", (-220, -220), {}, None, None, "tied_under_the_floor"),
    EndFixture("G9", (260, 240), {"target_score": 250}, NS, NS, "target_score_250"),
]


def _ids(fixture: EndFixture) -> str:
    return f"{fixture.name}-{fixture.note}"


def _swap(outcome: int | None) -> int | None:
    return None if outcome is None else 1 - outcome


@pytest.mark.parametrize("fixture", G_FIXTURES, ids=_ids)
def test_classic_column(fixture: EndFixture) -> None:
    classic = sc.load_variant("classic")
    rules = classic.rules(**fixture.options)
    assert game_outcome(rules, fixture.scores) == fixture.classic
    assert classic.game_outcome(rules, sc.TeamMap(fixture.scores)) == fixture.classic
    # The same scores the other way round give the other team the same result.
    assert classic.game_outcome(rules, sc.TeamMap(fixture.scores[::-1])) == _swap(fixture.classic)


@pytest.mark.parametrize("variant", ["mirror", "whiz"])
@pytest.mark.parametrize("fixture", G_FIXTURES, ids=_ids)
def test_mirror_column_for_mirror_and_whiz(variant: str, fixture: EndFixture) -> None:
    chosen = sc.load_variant(variant)
    rules = chosen.rules(**fixture.options)
    assert game_outcome(rules, fixture.scores) == fixture.mirror
    assert chosen.game_outcome(rules, sc.TeamMap(fixture.scores)) == fixture.mirror
    assert chosen.game_outcome(rules, sc.TeamMap(fixture.scores[::-1])) == _swap(fixture.mirror)


@pytest.mark.parametrize("fixture", G_FIXTURES, ids=_ids)
def test_the_loss_floor_option_not_the_variant_decides(fixture: EndFixture) -> None:
    # Mirror with a -200 floor ends like classic; classic without one plays on like Mirror.
    mirror_with_floor = sc.load_variant("mirror").rules(loss_floor=-200, **fixture.options)
    classic_no_floor = sc.load_variant("classic").rules(loss_floor=None, **fixture.options)
    assert game_outcome(mirror_with_floor, fixture.scores) == fixture.classic
    assert game_outcome(classic_no_floor, fixture.scores) == fixture.mirror


@pytest.mark.parametrize(
    ("scores", "options", "expected"),
    [
        ((-200, 100), {}, EW),  # exactly at the floor loses
        ((-199, 100), {}, None),
        ((499, 0), {}, None),
        ((600, 600), {}, None),  # both over, tied at the top
        ((600, 700), {}, EW),
        ((-201, -200), {}, EW),
        ((-150, 100), {"loss_floor": -150}, EW),
        ((-149, 100), {"loss_floor": -150}, None),
        ((-1, 0), {"loss_floor": -1}, EW),
        ((300, 299), {"target_score": 300}, NS),
        ((299, 299), {"target_score": 300}, None),
        ((1, 0), {"target_score": 1}, NS),
        ((0, 0), {"target_score": 1}, None),
        ((250, -300), {"target_score": 250, "loss_floor": -300}, NS),
        ((-300, -250), {"target_score": 250, "loss_floor": -300}, EW),
    ],
)
def test_section_4_edges_in_classic(
    scores: tuple[int, int], options: dict[str, object], expected: int | None
) -> None:
    assert game_outcome(sc.load_variant("classic").rules(**options), scores) == expected


# -- end to end --------------------------------------------------------------------

# North holds every spade and so wins all 13 tricks whatever is played.
NORTH_TAKES_ALL = {
    Seat.NORTH: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    Seat.EAST: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    Seat.SOUTH: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    Seat.WEST: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
}


def play_hand(game: sc.Game, bids: dict[Seat, int]) -> sc.Game:
    """Deal NORTH_TAKES_ALL, bid ``bids`` and play the first legal card each turn."""
    game = game.deal(NORTH_TAKES_ALL)
    while game.phase is Phase.BID:
        assert game.to_act is not None
        game = game.bid(bids[game.to_act])
    while game.phase is Phase.PLAY:
        game = game.apply(game.legal_actions()[0])
    return game


def bids_of(n: int, e: int, s: int, w: int) -> dict[Seat, int]:
    return {Seat.NORTH: n, Seat.EAST: e, Seat.SOUTH: s, Seat.WEST: w}


def finished_game(variant: str = "classic") -> sc.Game:
    game = sc.new_game(variant, seed=3, dealer=Seat.WEST, target_score=100)
    game = play_hand(game, bids_of(13, 0, 0, 0))
    assert game.phase is Phase.GAME_OVER
    return game


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_a_finished_game_has_a_winner_and_no_legal_action(variant: str) -> None:
    # NS 230, EW 200 (two Nils): both pass 100, the higher wins (G2 played out).
    game = finished_game(variant)
    assert dict(game.scores) == {Team.NS: 230, Team.EW: 200}
    assert game.winner is Team.NS
    assert game.is_over
    assert game.to_act is None
    assert game.legal_actions() == ()
    assert game.legal_bids() == ()
    assert not game.legal_cards()
    assert len(game.hand_results) == 1


@pytest.mark.parametrize(
    "action", [Deal(), Bid.of(0), Bid.of(5), Play.of("AS"), Play.of("2C")], ids=str
)
def test_actions_after_game_over_raise_wrong_phase_and_change_nothing(action: sc.Action) -> None:
    game = finished_game()
    before = (game, game.scores, game.hand_results, game.winner)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)
    assert caught.value.reason is IllegalReason.WRONG_PHASE
    assert "game is over" in str(caught.value)
    error = game.why_illegal(action)
    assert error is not None
    assert error.reason is IllegalReason.WRONG_PHASE
    assert (game, game.scores, game.hand_results, game.winner) == before
    assert game == finished_game()


def test_dealing_bidding_or_playing_after_game_over_raise_wrong_phase() -> None:
    game = finished_game()
    attempts: list[Callable[[], sc.Game]] = [
        game.deal,
        lambda: game.deal(NORTH_TAKES_ALL),
        lambda: game.bid(3),
        lambda: game.play("AS"),
    ]
    for attempt in attempts:
        with pytest.raises(IllegalActionError) as caught:
            attempt()
        assert caught.value.reason is IllegalReason.WRONG_PHASE
    assert game == finished_game()


def test_acting_as_a_seat_after_game_over_is_not_that_seats_turn() -> None:
    game = finished_game()
    with pytest.raises(IllegalActionError) as caught:
        game.apply(Bid.of(3), seat=Seat.NORTH)
    assert caught.value.reason is IllegalReason.NOT_YOUR_TURN
    assert game == finished_game()


def test_G3_tie_at_the_top_played_out_deals_another_hand() -> None:
    # NS bid 2+1 and take 13 (40, bags unpenalised); EW: East's Nil +100, West set -60.
    game = sc.new_game("classic", seed=3, dealer=Seat.WEST, target_score=40, bag_limit=None)
    game = play_hand(game, bids_of(2, 0, 1, 6))
    assert dict(game.scores) == {Team.NS: 40, Team.EW: 40}
    assert game.phase is Phase.DEAL
    assert game.winner is None
    assert game.legal_actions() == (Deal(),)
    assert game.dealer is Seat.NORTH


@pytest.mark.parametrize(
    ("loss_floor", "hands_played", "winner"),
    [
        (-200, 3, Team.NS),  # EW -70, -140, -210
        (-150, 3, Team.NS),
        (-140, 2, Team.NS),  # reaching the floor exactly loses
        (None, 5, None),  # no floor: still playing after five hands
    ],
)
def test_loss_floor_played_out(
    loss_floor: int | None, hands_played: int, winner: Team | None
) -> None:
    # Each hand: NS bid 4+5 and take 13 (+94, 4 bags); EW bid 3+4 and are set (-70).
    game = sc.new_game(
        "classic", seed=3, dealer=Seat.WEST, target_score=10_000, loss_floor=loss_floor
    )
    for _ in range(5):
        if game.is_over:
            break
        game = play_hand(game, bids_of(4, 3, 5, 4))
    assert len(game.hand_results) == hands_played
    assert game.winner is winner
    assert game.is_over is (winner is not None)
    assert game.scores[Team.EW] == -70 * hands_played


def test_whiz_has_no_loss_floor_played_out() -> None:
    # North bids Nil and takes 13 every hand: NS fall far below -200 and play on.
    game = sc.new_game("whiz", seed=3, dealer=Seat.WEST, target_score=10_000)
    for _ in range(4):
        game = play_hand(game, bids_of(0, 0, 0, 0))
    assert game.scores[Team.NS] < -200
    assert game.phase is Phase.DEAL
    assert game.winner is None


def test_game_only_ends_after_the_13th_trick() -> None:
    game = sc.new_game("classic", seed=3, dealer=Seat.WEST, target_score=1).deal(NORTH_TAKES_ALL)
    for seat in (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST):
        game = game.bid(13 if seat is Seat.NORTH else 0)
    # NS pass the target of 1 long before the last trick; the game goes on until it.
    for _ in range(51):
        game = game.apply(game.legal_actions()[0])
        assert game.phase is Phase.PLAY
        assert game.winner is None
    game = game.apply(game.legal_actions()[0])
    assert game.phase is Phase.GAME_OVER
    assert game.winner is Team.NS
