"""The itemised score of a hand (docs/rules.md, Scoring): one statement of the
standard scoring gives both the numbers and the items, the items always add
up to the hand's points and bags, and a variant that scores its own way still
gets a breakdown."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from spades_core.engine.playouts import playout
from spades_core.rules import scoring
from spades_core.rules.hooks import score_breakdown
from spades_core.rules.scoring import ScoreItem, ScoreKind, itemised_score
from spades_core.testing.strategies import option_sets
from spades_core.values.options import int_option

BUILT_IN = ("classic", "mirror", "whiz")


@st.composite
def played_games(draw: st.DrawFn) -> sc.Game:
    """A game of a built-in variant under drawn options, a few random hands in."""
    variant = sc.load_variant(draw(st.sampled_from(BUILT_IN), label="variant"))
    options: dict[str, Any] = draw(option_sets(variant), label="options")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    game = sc.new_game(variant, seed=seed, **options)
    hands = draw(st.integers(1, 4), label="hands")
    return playout(game, random.Random(seed), hands=hands)


@settings(max_examples=60, deadline=None)
@given(played_games())
def test_items_add_up_to_every_hands_points_and_bags(game: sc.Game) -> None:
    bags_before = sc.TeamMap((0, 0))
    for number, result in enumerate(game.hand_results):
        breakdown = score_breakdown(game, number)
        assert breakdown.points == result.points
        assert breakdown.bags_before == bags_before
        assert breakdown.bags == result.bags
        for team in sc.Team:
            items = breakdown.team_items(team)
            assert sum(item.points for item in items) == result.points[team]
            assert bags_before[team] + sum(item.bags for item in items) == result.bags[team]
            assert all(item.kind is not ScoreKind.VARIANT for item in items)
            assert all(item.label for item in items)
        bags_before = result.bags


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(BUILT_IN).flatmap(lambda v: option_sets(v).map(lambda o: (v, o))),
    st.lists(st.integers(0, 13), min_size=4, max_size=4),
    st.lists(st.integers(0, 13), min_size=4, max_size=4).filter(lambda t: sum(t) <= 13),
    st.tuples(st.integers(0, 40), st.integers(0, 40)),
)
def test_the_items_are_the_scoring_itself_for_any_numbers(
    variant_options: tuple[str, dict[str, object]],
    bids: list[int],
    tricks: list[int],
    bags_before: tuple[int, int],
) -> None:
    """Any bids, tricks and bags, not only those play reaches: the items and
    the fast numbers come from the same statement of the rules."""
    variant_id, options = variant_options
    rules = sc.load_variant(variant_id).rules(**options)
    bid4 = (bids[0], bids[1], bids[2], bids[3])
    won4 = (tricks[0], tricks[1], tricks[2], tricks[3])
    points, bags = scoring.score_hand(rules, bid4, won4, bags_before)
    items = itemised_score(rules, bid4, won4, bags_before)
    for team in sc.Team:
        mine = [item for item in items if item.team is team]
        assert sum(item.points for item in mine) == points[team]
        assert bags_before[team] + sum(item.bags for item in mine) == bags[team]
        nil_seats = [seat for seat in team.seats if bid4[seat] == 0]
        assert {item.seat for item in mine if item.kind is ScoreKind.NIL_MADE} == {
            seat for seat in nil_seats if won4[seat] == 0
        } or rules.double_nil is not sc.DoubleNil.INDEPENDENT
    assert [item.team for item in items] == sorted(item.team for item in items)


@pytest.mark.parametrize(
    ("fixture", "variant_id", "bids", "tricks", "bags_before", "labels_ns"),
    [
        # F2: bid 7, won 9 → 70 + 2 overtricks.
        ("F2", "classic", (3, 2, 4, 4), (5, 2, 4, 2), (0, 0), ["contract 7 made", "2 overtricks"]),
        # F4: the tenth bag costs 100.
        (
            "F4",
            "classic",
            (5, 2, 3, 3),
            (6, 1, 4, 2),
            (8, 0),
            ["contract 8 made", "2 overtricks", "bag penalty"],
        ),
        # F8: in Mirror a Nil's tricks are bags and do not rescue the partner.
        (
            "F8",
            "mirror",
            (0, 4, 5, 4),
            (2, 4, 4, 3),
            (0, 0),
            ["North's 2 Nil tricks", "contract 5 set", "North's Nil failed"],
        ),
        # F16: Mirror, set, and the Nil's bag reaches ten.
        (
            "F16",
            "mirror",
            (0, 5, 4, 4),
            (1, 4, 3, 5),
            (9, 0),
            ["North's 1 Nil trick", "contract 4 set", "North's Nil failed", "bag penalty"],
        ),
    ],
)
def test_items_of_the_rules_fixtures(
    fixture: str,
    variant_id: str,
    bids: tuple[int, int, int, int],
    tricks: tuple[int, int, int, int],
    bags_before: tuple[int, int],
    labels_ns: list[str],
) -> None:
    rules = sc.load_variant(variant_id).rules()
    points, _ = scoring.score_hand(rules, bids, tricks, bags_before)
    items = itemised_score(rules, bids, tricks, bags_before)
    ns = [item for item in items if item.team is sc.Team.NS]
    assert sum(item.points for item in ns) == points[0], fixture
    assert len(ns) == len(labels_ns), [item.label for item in ns]
    for item, expected in zip(ns, labels_ns, strict=True):
        assert item.label.startswith(expected), (fixture, item.label)


def test_double_nil_is_one_item_unless_scored_independently() -> None:
    classic = sc.load_variant("classic")
    bids, tricks = (0, 3, 0, 3), (0, 7, 1, 5)
    joint = itemised_score(classic.rules(double_nil="all_or_nothing"), bids, tricks, (0, 0))
    ns = [item for item in joint if item.team is sc.Team.NS]
    assert [(item.kind, item.points) for item in ns] == [
        (ScoreKind.OVERTRICKS, 1),
        (ScoreKind.DOUBLE_NIL_FAILED, -200),
    ]
    apart = itemised_score(classic.rules(), bids, tricks, (0, 0))
    nils = [(item.kind, item.seat, item.points) for item in apart if item.team is sc.Team.NS]
    assert (ScoreKind.NIL_MADE, sc.Seat.NORTH, 100) in nils
    assert (ScoreKind.NIL_FAILED, sc.Seat.SOUTH, -100) in nils


def test_bags_with_points_gives_the_nil_bidders_tricks_their_points() -> None:
    mirror = sc.load_variant("mirror").rules(nil_tricks="bags_with_points")
    items = itemised_score(mirror, (0, 4, 5, 4), (2, 4, 4, 3), (0, 0))
    nil_tricks = next(item for item in items if item.kind is ScoreKind.NIL_TRICKS)
    assert (nil_tricks.seat, nil_tricks.points, nil_tricks.bags) == (sc.Seat.NORTH, 2, 2)


def test_a_bag_penalty_uses_up_its_bags() -> None:
    classic = sc.load_variant("classic")
    for overflow, left in (("carry", 2), ("reset", 0)):
        rules = classic.rules(bag_overflow=overflow)
        items = itemised_score(rules, (3, 3, 3, 3), (7, 3, 2, 1), (9, 0))
        penalty = next(item for item in items if item.kind is ScoreKind.BAG_PENALTY)
        assert penalty.points == -100
        assert 9 + 3 + penalty.bags == left, overflow


def test_a_view_gives_the_same_breakdown_as_its_game() -> None:
    game = playout(sc.new_game("whiz", seed=31), random.Random(2), hands=2)
    assert score_breakdown(game.public_view(), 0) == score_breakdown(game, 0)
    assert score_breakdown(game.view(sc.Seat.EAST)) == score_breakdown(game, 1)
    assert score_breakdown(game, -2) == score_breakdown(game, 0)
    summary = score_breakdown(game).summary()
    assert set(summary) == {"NS", "EW"}
    assert summary["NS"]["points"] == game.hand_results[-1].points[sc.Team.NS]


def test_a_bad_argument_or_an_unfinished_hand_is_refused() -> None:
    game = sc.new_game("classic", seed=1)
    with pytest.raises(sc.RulesError, match="hand -1 is not a finished hand"):
        score_breakdown(game)
    played = playout(game, random.Random(1))
    with pytest.raises(sc.RulesError, match=r"hand 1 is not a finished hand .*1 hand finished"):
        score_breakdown(played, 1)
    with pytest.raises(sc.ArgumentTypeError, match="must be a Game or a View"):
        score_breakdown("classic")
    with pytest.raises(sc.ArgumentTypeError, match="hand must be a whole number"):
        score_breakdown(played, True)


def test_playing_never_builds_a_breakdown(monkeypatch: pytest.MonkeyPatch) -> None:
    """Items are made only when asked for: the scoring every simulated hand
    runs never makes one."""

    def refuse(*args: object, **kwargs: object) -> ScoreItem:
        raise AssertionError("a score item was built while playing")

    monkeypatch.setattr(scoring, "ScoreItem", refuse)
    game = sc.new_game(
        "classic", seed=5, nil_tricks="bags_with_points", bag_limit=1, loss_floor=None
    )
    game = playout(game, random.Random(5), hands=3)
    rng = random.Random(6)
    while game.hand_number < 5 and not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    assert len(game.hand_results) >= 4


# -- variants that score their own way ---------------------------------------------

TAX = int_option("tax", "points each team pays every hand", minimum=0, maximum=100)


class TaxedSpades(sc.Variant):
    """Classic bidding and scoring, then each team pays the tax."""

    def legal_bids(
        self, rules: sc.Rules, seat: sc.Seat, hand: sc.CardSet, bids: object
    ) -> Iterable[int]:
        return range(1, 14)

    def score_hand(
        self,
        rules: sc.Rules,
        bids: sc.SeatMap[int],
        tricks: sc.SeatMap[int],
        bags_before: sc.TeamMap[int],
    ) -> tuple[sc.TeamMap[int], sc.TeamMap[int]]:
        points, bags = super().score_hand(rules, bids, tricks, bags_before)
        tax = rules.get(TAX)
        return sc.TeamMap((points[sc.Team.NS] - tax, points[sc.Team.EW] - tax)), bags


class ItemisedTaxedSpades(TaxedSpades):
    """Taxed Spades that says what the tax cost."""

    def score_items(
        self,
        rules: sc.Rules,
        bids: sc.SeatMap[int],
        tricks: sc.SeatMap[int],
        bags_before: sc.TeamMap[int],
    ) -> Iterable[ScoreItem]:
        tax = rules.get(TAX)
        return [
            *super().score_items(rules, bids, tricks, bags_before),
            *(ScoreItem(ScoreKind.VARIANT, team, -tax, 0, "tax") for team in sc.Team),
        ]


def _taxed(kind: type[TaxedSpades]) -> sc.Variant:
    return kind(id="taxed", title="Taxed Spades", options={"target_score": 300, TAX: 5})


def test_a_variant_with_its_own_scoring_gets_one_item_per_team_carrying_its_points() -> None:
    game = playout(sc.new_game(_taxed(TaxedSpades), seed=3, tax=7), random.Random(3), hands=2)
    for number, result in enumerate(game.hand_results):
        breakdown = score_breakdown(game, number)
        for team in sc.Team:
            (item,) = breakdown.team_items(team)
            assert item.kind is ScoreKind.VARIANT
            assert item.points == result.points[team]
            assert item.label == "scored by the Taxed Spades rules"
        assert breakdown.bags == result.bags


def test_a_variant_may_itemise_its_own_scoring() -> None:
    game = playout(sc.new_game(_taxed(ItemisedTaxedSpades), seed=3), random.Random(3))
    items = score_breakdown(game).team_items(sc.Team.EW)
    assert items[-1] == ScoreItem(ScoreKind.VARIANT, sc.Team.EW, -5, 0, "tax")
    assert sum(item.points for item in items) == game.hand_results[0].points[sc.Team.EW]


class WrongItems(TaxedSpades):
    answer: object = ()

    def score_items(
        self,
        rules: sc.Rules,
        bids: sc.SeatMap[int],
        tricks: sc.SeatMap[int],
        bags_before: sc.TeamMap[int],
    ) -> Iterable[ScoreItem]:
        answer = type(self).answer
        if isinstance(answer, Exception):
            raise answer
        return answer  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ((), "must add up to what score_hand gives"),
        ([ScoreItem(ScoreKind.VARIANT, sc.Team.NS, 10**6, 0, "much")], "must add up"),
        ("items", "must return at most 100 ScoreItem objects"),
        ([("contract", 10)], "must return at most 100 ScoreItem objects"),
        ([ScoreItem(ScoreKind.VARIANT, 0, 1, 0, "x")], "ScoreItem objects"),  # type: ignore[arg-type]
        ([ScoreItem(ScoreKind.VARIANT, sc.Team.NS, 1.5, 0, "x")], "ScoreItem objects"),  # type: ignore[arg-type]
        (iter(lambda: ScoreItem(ScoreKind.VARIANT, sc.Team.NS, 0, 0, "x"), None), "at most 100"),
        (ZeroDivisionError("oops"), "failed in score_items: ZeroDivisionError"),
    ],
)
def test_a_wrong_itemisation_is_refused_naming_the_variant(answer: object, message: str) -> None:
    kind = type("Wrong", (WrongItems,), {"answer": answer})
    game = playout(sc.new_game(_taxed(kind), seed=3), random.Random(3))
    with pytest.raises(sc.VariantLoadError, match="variant 'taxed'") as caught:
        score_breakdown(game)
    assert message in str(caught.value)
