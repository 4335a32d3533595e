"""Tests of the Suicide Spades plugin, written with spades-core's testing kit.

Run with ``pytest`` from this directory after ``pip install -e .[test]``; the
pytest configuration enables ``spades_core.testing.pytest_plugin``, whose
``spades_variant`` fixture is restricted to ``suicide`` there.
"""

from __future__ import annotations

import doctest
from collections import Counter

import pytest
from hypothesis import given, settings

import spades_core as sc
import spades_variant_suicide
from spades_core.registry import variant_entries
from spades_core.testing import VariantMachine, check_array_forms, check_variant
from spades_core.testing.strategies import games
from spades_variant_suicide import SUICIDE


def dealt(**options: object) -> sc.Game:
    """A dealt game of Suicide in which North bids first, then East, South, West."""
    return sc.new_game("suicide", seed=11, dealer=sc.Seat.WEST, **options).deal()


def test_suicide_is_installed_through_its_entry_point() -> None:
    assert "suicide" in sc.available_variants()
    assert sc.load_variant("suicide") is SUICIDE
    entry = next(entry for entry in variant_entries() if entry.id == "suicide")
    assert entry.distribution == "spades-variant-suicide"


def test_rule_7_first_partner_bids_nil_or_at_least_four() -> None:
    game = dealt()
    assert game.legal_bids() == (0, *range(4, 14))
    game = game.bid(6)  # North
    assert game.legal_bids() == (0, *range(4, 14)), "East is the first of its partnership"


def test_rule_7_after_a_nil_the_partner_must_bid_at_least_four() -> None:
    game = dealt().bid(0).bid(5)
    assert game.legal_bids() == tuple(range(4, 14))
    with pytest.raises(sc.IllegalActionError) as caught:
        game.bid(0)
    assert caught.value.reason is sc.IllegalReason.BID_NOT_ALLOWED


def test_rule_7_after_a_bid_the_partner_must_bid_nil() -> None:
    game = dealt().bid(0).bid(5).bid(7)
    assert game.legal_bids() == (0,), "West's partner East bid 5"
    assert game.bid(0).phase is sc.Phase.PLAY


def test_the_team_cap_still_applies_to_the_non_nil_bid() -> None:
    game = dealt(max_team_bid=9)
    assert game.legal_bids() == (0, 4, 5, 6, 7, 8, 9)
    assert game.bid(0).bid(4).legal_bids() == (4, 5, 6, 7, 8, 9)
    uncapped = dealt(max_team_bid=None)
    assert uncapped.legal_bids() == (0, *range(4, 14))


@pytest.mark.parametrize("cap", [1, 3])
def test_a_team_cap_below_four_is_rejected(cap: int) -> None:
    with pytest.raises(sc.RulesError, match="'max_team_bid' must be at least 4"):
        sc.new_game("suicide", max_team_bid=cap)


def test_double_nil_is_not_an_option_of_suicide() -> None:
    with pytest.raises(sc.RulesError, match="does not apply to the 'suicide' variant"):
        sc.new_game("suicide", double_nil="no_loss")


def test_scoring_is_classic_with_nil_tricks_as_bags_only() -> None:
    # Example F8 of docs/rules.md under bags_only: North's failed Nil tricks do not rescue South.
    bids = sc.SeatMap((0, 4, 5, 4))
    tricks = sc.SeatMap((2, 4, 4, 3))
    points, bags = SUICIDE.score_hand(SUICIDE.rules(), bids, tricks, sc.TeamMap((0, 0)))
    assert (points, bags) == (sc.TeamMap((-150, -80)), sc.TeamMap((2, 0)))
    assert SUICIDE.rules().loss_floor == -200


def test_suicide_has_classic_options_but_double_nil() -> None:
    classic = sc.load_variant("classic")
    assert dict(SUICIDE.defaults) == {
        name: sc.NilTricks.BAGS_ONLY if name == "nil_tricks" else value
        for name, value in classic.defaults.items()
        if name != "double_nil"
    }


@settings(max_examples=25, deadline=None)
@given(games(SUICIDE, phase=sc.Phase.PLAY, max_hands=2))
def test_every_partnership_bids_exactly_one_nil(game: sc.Game) -> None:
    nils = Counter(seat.team for seat, bid in game.bids.items() if bid == 0)
    assert nils == Counter({sc.Team.NS: 1, sc.Team.EW: 1})
    assert all(bid >= 4 for bid in game.bids.values() if bid)


def test_suicide_passes_the_conformance_suite(spades_variant: sc.Variant) -> None:
    # The pytest plugin's fixture; pyproject.toml restricts it to "suicide".
    assert spades_variant.id == "suicide"
    check_variant(spades_variant, max_examples=10, hands=2)


def test_suicide_array_forms_agree_with_its_hooks(spades_variant: sc.Variant) -> None:
    # The bidding rule on arrays (_arrays.py) against legal_bids, and the
    # batch engine against the engine in whole hands and games.
    check_array_forms(spades_variant, scenarios=4)


def test_suicide_runs_in_the_batch_engine() -> None:
    from spades_core import batch

    result = batch.play_hands("suicide", range(500), policy="random", rng=1)
    nils = (result.bids == 0).reshape(-1, 2, 2).sum(axis=1)
    assert (nils == 1).all(), "exactly one Nil per partnership"
    assert ((result.bids == 0) | (result.bids >= 4)).all()


class SuicideMachine(VariantMachine):
    variant = "suicide"


TestSuicideMachine = SuicideMachine.TestCase
TestSuicideMachine.settings = settings(max_examples=5, stateful_step_count=25, deadline=None)


def test_docstring_examples() -> None:
    failures, tried = doctest.testmod(spades_variant_suicide)
    assert tried > 0
    assert failures == 0
