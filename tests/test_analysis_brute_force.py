"""The double-dummy solver agrees with exhaustive search over the engine's own games.

On endgames of one to four tricks of every variant, under house rules
Hypothesis draws (``break_rule`` and ``first_lead`` among them), every legal
card's value from :func:`card_tricks` equals the value exhaustive search over
:meth:`Game.play` finds (tests/analysis_support.py), and :func:`best_tricks`
is the best of them. The same property, best of the cards, is checked on
positions of up to seven tricks, where exhaustive search would be slow.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from analysis_support import brute_force_card_tricks, endgame
from positions import NORTH_ALL_SPADES, position
from spades_core.analysis import best_tricks, card_tricks
from spades_core.testing.strategies import option_sets

VARIANTS = ("classic", "mirror", "whiz")


@st.composite
def endgames(draw: st.DrawFn, most_tricks: int) -> sc.Game:
    """A game of any variant under drawn options, ``most_tricks`` or fewer
    tricks from the end, zero to three cards into the trick."""
    variant = draw(st.sampled_from(VARIANTS), label="variant")
    options = draw(option_sets(variant), label="options")
    game = endgame(
        variant,
        draw(st.integers(0, 2**32 - 1), label="seed"),
        draw(st.integers(1, most_tricks), label="tricks left"),
        draw(st.integers(0, 3), label="cards into the trick"),
        **options,
    )
    assert game is not None
    return game


@settings(max_examples=60, deadline=None)
@given(endgames(4))
def test_every_card_of_an_endgame_is_valued_as_exhaustive_search_values_it(
    game: sc.Game,
) -> None:
    expected = brute_force_card_tricks(game)
    assert dict(card_tricks(game)) == expected
    assert best_tricks(game) == max(expected.values())


@settings(max_examples=25, deadline=None)
@given(endgames(7))
def test_best_tricks_is_the_best_of_card_tricks(game: sc.Game) -> None:
    values = card_tricks(game)
    assert set(values) == set(game.legal_cards())
    assert best_tricks(game) == max(values.values())
    left = len(game.hand(game.to_act)) if game.to_act is not None else 0
    assert all(0 <= value <= left for value in values.values())


def test_the_first_lead_under_two_of_clubs_is_the_deuce_alone() -> None:
    # West holds every club, so leads the deuce; North, with every spade, takes all 13.
    game = position("classic", NORTH_ALL_SPADES, [3, 3, 3, 3], first_lead="two_of_clubs")
    assert game.to_act is sc.Seat.WEST
    assert dict(card_tricks(game)) == {sc.Card("2C"): 0}
    assert best_tricks(game) == 0
