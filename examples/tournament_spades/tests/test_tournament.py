"""Tests of the Tournament Spades plugin, written with spades-core's testing kit.

Run with ``pytest`` from this directory after ``pip install -e .[test]``; the
pytest configuration enables ``spades_core.testing.pytest_plugin``, restricted
to ``tournament`` there.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from spades_variant_tournament import TOURNAMENT

import spades_core as sc
from spades_core.testing import check_variant
from spades_core.testing.strategies import games


def test_tournament_is_installed_through_its_entry_point() -> None:
    assert sc.load_variant("tournament") is TOURNAMENT


def test_tournament_passes_the_conformance_suite() -> None:
    check_variant(TOURNAMENT, max_examples=20, hands=2)


def test_a_team_trailing_by_the_margin_is_offered_blind_nil() -> None:
    game = sc.new_game("tournament", seed=2, dealer=sc.Seat.WEST, blind_nil_margin=0).deal()
    assert game.phase_name == "blind_nil"
    assert set(game.legal_actions()) == {sc.BLIND_NIL, sc.LOOK}
    assert not game.view(sc.Seat.NORTH).hand()


@settings(max_examples=20, deadline=None)
@given(games(TOURNAMENT, options=st.just({"blind_nil_margin": 0}), phase=sc.Phase.VARIANT))
def test_every_phase_offers_only_its_own_actions(game: sc.Game) -> None:
    assert game.phase is sc.Phase.VARIANT
    assert all(type(action) in (sc.BlindNil, sc.Look, sc.Pass) for action in game.legal_actions())
