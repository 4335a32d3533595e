"""The engine checks every answer of a variant's hooks strictly.

``legal_bids`` may answer any collection of bids (checked by value, with a
bounded cache); ``score_hand`` must answer two ``TeamMap`` objects of whole
numbers and ``game_outcome`` a ``Team`` or ``None``. Anything else is a
:class:`VariantLoadError` naming the variant and the hook. Each check of a
score's shape has a test of its own here, so removing any one of them fails
a test.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import pytest

import spades_core as sc
from spades_core.rules.hooks import checked_game_outcome, checked_score_hand
from spades_core.rules.variant import (
    _BID_LISTS,
    _MOST_BID_LISTS,
    HAND_SCORE_LIMIT,
    checked_legal_bids,
)
from spades_variants.classic import ClassicVariant

TeamMap = sc.TeamMap
BIDS = (3, 4, 2, 4)
TRICKS = (4, 4, 3, 2)


def bidding(answer: Any) -> sc.Variant:
    """A classic variant whose legal_bids answers ``answer`` (called if callable)."""

    class Answering(ClassicVariant):
        def legal_bids(
            self, rules: sc.Rules, seat: sc.Seat, hand: sc.CardSet, bids: Mapping[sc.Seat, int]
        ) -> Iterable[int]:
            return answer() if callable(answer) else answer  # type: ignore[no-any-return]

    return Answering(id="answering", title="Answering", options={})


def scoring(answer: Any) -> sc.Variant:
    """A classic variant whose score_hand answers ``answer``."""

    class Scoring(ClassicVariant):
        def score_hand(
            self,
            rules: sc.Rules,
            bids: sc.SeatMap[int],
            tricks: sc.SeatMap[int],
            bags_before: sc.TeamMap[int],
        ) -> tuple[sc.TeamMap[int], sc.TeamMap[int]]:
            if isinstance(answer, BaseException):
                raise answer
            return answer  # type: ignore[no-any-return]

    return Scoring(id="scoring", title="Scoring", options={})


def ending(answer: Any) -> sc.Variant:
    """A classic variant whose game_outcome answers ``answer``."""

    class Ending(ClassicVariant):
        def game_outcome(self, rules: sc.Rules, scores: sc.TeamMap[int]) -> sc.Team | None:
            if isinstance(answer, BaseException):
                raise answer
            return answer  # type: ignore[no-any-return]

    return Ending(id="ending", title="Ending", options={})


def bids_of(variant: sc.Variant) -> tuple[int, ...]:
    return checked_legal_bids(variant, variant.rules(), sc.Seat.NORTH, sc.CardSet(0), {})


def score_of(variant: sc.Variant) -> tuple[tuple[int, int], tuple[int, int]]:
    return checked_score_hand(variant, variant.rules(), BIDS, TRICKS, (0, 0))


def before_the_last_card(variant: sc.Variant) -> sc.Game:
    """A game of ``variant`` with one card left to play in its first hand."""
    game = sc.new_game(variant, seed=8).deal()
    while game.phase is sc.Phase.BID:
        game = game.apply(game.legal_actions()[0])
    while len(game.tricks) < 12 or len(game.current_trick) < 3:
        game = game.apply(game.legal_actions()[0])
    return game


# -- legal_bids ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        [4, 0, 2],
        (2, 0, 4),
        (0, 2, 4),
        {4, 2, 0},
        frozenset({0, 2, 4}),
        lambda: (bid for bid in (4, 2, 0)),
        lambda: iter([2, 4, 0]),
    ],
    ids=["list", "unsorted tuple", "tuple", "set", "frozenset", "generator", "iterator"],
)
def test_legal_bids_may_answer_any_collection_in_any_order(answer: object) -> None:
    variant = bidding(answer)
    assert bids_of(variant) == (0, 2, 4)
    assert bids_of(variant) == (0, 2, 4), "the same again, from the cache where there is one"
    assert sc.new_game(variant, seed=1).deal().legal_bids() == (0, 2, 4)


def test_legal_bids_may_answer_a_range() -> None:
    assert bids_of(bidding(range(4, 9))) == (4, 5, 6, 7, 8)
    assert bids_of(bidding(range(14))) == tuple(range(14))


@pytest.mark.parametrize(
    "answer",
    [
        [],
        (),
        range(0),
        range(15),
        [14],
        [-1],
        (0, 13, 14),
        [1, 1],
        (2, 0, 2),
        [1.0],
        (2.0,),
        [True],
        (False, 3),
        ["1"],
        "01",
        b"\x00",
        None,
        5,
        {0: "Nil"},
        lambda: (bid % 14 for bid in range(100)),
    ],
)
def test_legal_bids_must_be_distinct_whole_numbers_0_to_13(answer: object) -> None:
    with pytest.raises(sc.VariantLoadError) as caught:
        bids_of(bidding(answer))
    message = str(caught.value)
    assert "variant 'answering': legal_bids must return whole numbers 0-13" in message
    assert len(message) < 300


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ((1,), (True,)),
        ((1,), (1.0,)),
        ((0, 3), (False, 3)),
        ([5], [5.0]),
        ({0, 1}, {False, True}),
        (frozenset({7}), frozenset({7.0})),
    ],
)
def test_an_answer_equal_to_a_checked_one_is_still_refused_for_its_types(
    good: object, bad: object
) -> None:
    bids_of(bidding(good))  # checked and remembered by value
    with pytest.raises(sc.VariantLoadError, match="legal_bids must return whole numbers"):
        bids_of(bidding(bad))


def test_an_unhashable_or_failing_answer_is_refused() -> None:
    with pytest.raises(sc.VariantLoadError, match="legal_bids must return whole numbers"):
        bids_of(bidding(([0],)))

    class Exploding:
        def __iter__(self) -> Iterator[int]:
            raise ZeroDivisionError("no bids today")

    with pytest.raises(sc.VariantLoadError, match="'answering' failed in legal_bids"):
        bids_of(bidding(Exploding()))


@pytest.mark.parametrize("error", [ValueError("boom"), SystemExit(3), KeyError("x")])
def test_an_exception_in_legal_bids_is_a_variant_load_error(error: BaseException) -> None:
    def fail() -> object:
        raise error

    with pytest.raises(sc.VariantLoadError, match="variant 'answering' failed in legal_bids"):
        bids_of(bidding(fail))


def test_a_spades_error_from_legal_bids_passes_through() -> None:
    def refuse() -> object:
        raise sc.RulesError("not in this seat")

    with pytest.raises(sc.RulesError, match="not in this seat"):
        bids_of(bidding(refuse))


def test_a_bad_answer_stops_the_game_without_changing_it() -> None:
    game = sc.new_game(bidding([1, 1]), seed=2).deal()
    with pytest.raises(sc.VariantLoadError):
        game.legal_actions()
    with pytest.raises(sc.VariantLoadError):
        game.bid(1)
    assert game.phase is sc.Phase.BID
    assert game.bids.values_ == (None, None, None, None)


def test_the_cache_of_checked_answers_stays_bounded() -> None:
    counter = iter(range(10**6))

    def fresh() -> tuple[int, ...]:
        # A new, valid answer every time: subsets of 0-13 by a running number.
        number = next(counter) % (1 << 14) or 1
        return tuple(bid for bid in range(14) if number >> bid & 1)

    variant = bidding(fresh)
    for _ in range(_MOST_BID_LISTS + 100):
        bids_of(variant)
    assert 0 < len(_BID_LISTS) <= _MOST_BID_LISTS


# -- score_hand ------------------------------------------------------------------------


def test_a_well_formed_score_is_taken() -> None:
    assert score_of(scoring((TeamMap((70, -40)), TeamMap((1, 0))))) == ((70, -40), (1, 0))
    edge = (TeamMap((HAND_SCORE_LIMIT, -HAND_SCORE_LIMIT)), TeamMap((0, HAND_SCORE_LIMIT)))
    assert score_of(scoring(edge)) == (
        (HAND_SCORE_LIMIT, -HAND_SCORE_LIMIT),
        (0, HAND_SCORE_LIMIT),
    )


GOOD_POINTS = TeamMap((10, 20))
GOOD_BAGS = TeamMap((1, 2))


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param([GOOD_POINTS, GOOD_BAGS], id="a list, not a tuple"),
        pytest.param((GOOD_POINTS,), id="one TeamMap"),
        pytest.param((GOOD_POINTS, GOOD_BAGS, GOOD_BAGS), id="three TeamMaps"),
        pytest.param(None, id="None"),
        pytest.param(((10, 20), GOOD_BAGS), id="points a plain tuple"),
        pytest.param((GOOD_POINTS, (1, 2)), id="bags a plain tuple"),
        pytest.param((sc.SeatMap((10, 20)), GOOD_BAGS), id="points a SeatMap"),
        pytest.param((TeamMap((10, 20, 30)), GOOD_BAGS), id="points of three teams"),
        pytest.param((TeamMap((10,)), GOOD_BAGS), id="points of one team"),
        pytest.param((GOOD_POINTS, TeamMap((1, 2, 3))), id="bags of three teams"),
        pytest.param((TeamMap([10, 20]), GOOD_BAGS), id="points held in a list"),  # type: ignore[arg-type]
        pytest.param((TeamMap((1.5, 20)), GOOD_BAGS), id="first points a float"),
        pytest.param((TeamMap((10, 20.0)), GOOD_BAGS), id="second points a float"),
        pytest.param((TeamMap((True, 20)), GOOD_BAGS), id="first points a bool"),
        pytest.param((TeamMap((10, False)), GOOD_BAGS), id="second points a bool"),
        pytest.param((GOOD_POINTS, TeamMap((1.0, 2))), id="first bags a float"),
        pytest.param((GOOD_POINTS, TeamMap((1, 2.0))), id="second bags a float"),
        pytest.param((GOOD_POINTS, TeamMap((True, 2))), id="first bags a bool"),
        pytest.param((GOOD_POINTS, TeamMap((-1, 2))), id="first bags negative"),
        pytest.param((GOOD_POINTS, TeamMap((1, -2))), id="second bags negative"),
        pytest.param((TeamMap((HAND_SCORE_LIMIT + 1, 0)), GOOD_BAGS), id="first points too many"),
        pytest.param((TeamMap((0, HAND_SCORE_LIMIT + 1)), GOOD_BAGS), id="second points too many"),
        pytest.param((TeamMap((-HAND_SCORE_LIMIT - 1, 0)), GOOD_BAGS), id="first points too few"),
        pytest.param((TeamMap((0, -HAND_SCORE_LIMIT - 1)), GOOD_BAGS), id="second points too few"),
        pytest.param((GOOD_POINTS, TeamMap((HAND_SCORE_LIMIT + 1, 0))), id="first bags too many"),
        pytest.param((GOOD_POINTS, TeamMap((0, HAND_SCORE_LIMIT + 1))), id="second bags too many"),
        pytest.param((TeamMap((10**5000, 0)), GOOD_BAGS), id="huge points"),
    ],
)
def test_a_malformed_score_is_refused_naming_variant_and_hook(answer: object) -> None:
    with pytest.raises(sc.VariantLoadError) as caught:
        score_of(scoring(answer))
    message = str(caught.value)
    assert message.startswith("variant 'scoring': score_hand must return (points, bags after)")
    assert len(message) < 400


@pytest.mark.parametrize("error", [ArithmeticError("no"), SystemExit(1), TypeError("x")])
def test_an_exception_in_score_hand_is_a_variant_load_error(error: BaseException) -> None:
    with pytest.raises(sc.VariantLoadError, match="variant 'scoring' failed in score_hand"):
        score_of(scoring(error))


def test_a_malformed_score_stops_the_game_at_the_last_card_and_changes_nothing() -> None:
    game = before_the_last_card(scoring((TeamMap((1.5, 0)), GOOD_BAGS)))
    last = game.legal_actions()[0]
    with pytest.raises(sc.VariantLoadError, match="'scoring': score_hand must return"):
        game.apply(last)
    assert len(game.tricks) == 12
    assert game.hand_results == ()


def test_the_engine_scores_by_a_well_formed_hook() -> None:
    game = before_the_last_card(scoring((TeamMap((70, -40)), TeamMap((1, 0)))))
    after = game.apply(game.legal_actions()[0])
    assert after.scores == TeamMap((70, -40))
    assert after.bags == TeamMap((1, 0))


def test_the_default_hooks_speak_team_maps() -> None:
    classic = sc.load_variant("classic")
    rules = classic.rules()
    points, bags = classic.score_hand(
        rules, sc.SeatMap((3, 2, 4, 4)), sc.SeatMap((5, 2, 4, 2)), TeamMap((0, 0))
    )
    assert (points, bags) == (TeamMap((72, -60)), TeamMap((2, 0)))
    assert classic.game_outcome(rules, TeamMap((510, 490))) is sc.Team.NS
    assert classic.game_outcome(rules, TeamMap((-210, 340))) is sc.Team.EW
    assert classic.game_outcome(rules, TeamMap((510, 510))) is None


# -- game_outcome ----------------------------------------------------------------------


@pytest.mark.parametrize("answer", [sc.Team.NS, sc.Team.EW, None])
def test_a_team_or_none_is_taken(answer: sc.Team | None) -> None:
    variant = ending(answer)
    assert checked_game_outcome(variant, variant.rules(), (10, 20)) is answer


@pytest.mark.parametrize("answer", [True, False, 0, 1, "NS", 0.0, sc.Seat.NORTH])
def test_game_outcome_must_be_a_team_or_none(answer: object) -> None:
    variant = ending(answer)
    with pytest.raises(sc.VariantLoadError) as caught:
        checked_game_outcome(variant, variant.rules(), (10, 20))
    assert str(caught.value) == (
        "variant 'ending': game_outcome must return Team.NS, Team.EW or None; "
        f"it returned {answer!r}"
    )


def test_game_outcome_true_stops_the_game_at_the_last_card() -> None:
    game = before_the_last_card(ending(True))
    with pytest.raises(sc.VariantLoadError, match="'ending': game_outcome must return"):
        game.apply(game.legal_actions()[0])


def test_an_exception_in_game_outcome_is_a_variant_load_error() -> None:
    variant = ending(RuntimeError("lost count"))
    with pytest.raises(sc.VariantLoadError, match="variant 'ending' failed in game_outcome"):
        checked_game_outcome(variant, variant.rules(), (10, 20))


def test_a_winner_from_the_hook_ends_the_game() -> None:
    game = before_the_last_card(ending(sc.Team.EW))
    over = game.apply(game.legal_actions()[0])
    assert over.phase is sc.Phase.GAME_OVER
    assert over.winner is sc.Team.EW
