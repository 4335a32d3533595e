"""The step path's shortcuts give what the general path gives: ``Game.apply``
of a legal action, ``Game.legal_actions``, the bids the variant hooks are
shown, and the card ids of a finished hand."""

from __future__ import annotations

from types import MappingProxyType

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from spades_core import Bid, Game, Phase, Play, Seat, legality, transitions
from spades_core.cards import ALL_CARDS
from spades_core.legality import bids_made
from spades_core.results import card_ids
from spades_core.testing.strategies import games

VARIANTS = ("classic", "mirror", "whiz")


def _uncached(game: Game) -> Game:
    copy: Game = attrs.evolve(game, legal=None)
    return copy


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_applying_each_legal_action_agrees_with_the_checked_transition(
    variant: str, data: st.DataObject
) -> None:
    game = data.draw(games(variant, max_hands=2), label="game")
    fresh = _uncached(game)
    legal = game.legal_actions()
    assert legality.legal_actions(fresh) == legal
    for action in legal:
        expected = transitions.apply(_uncached(game), action, None)
        # By the cached list (found by identity), with nothing cached, with
        # an equal action that is not the pre-built one, and with the seat named.
        assert game.apply(action) == expected
        assert _uncached(game).apply(action) == expected
        # Play.of and Bid.of give the pre-built action; the constructors do not.
        equal: Play | Bid | None = None
        if isinstance(action, Play):
            equal = Play(action.card)
        elif isinstance(action, Bid):
            equal = Bid(action.value)
        if equal is not None:
            assert equal is not action
            assert equal == action
            assert game.apply(equal) == expected
            assert _uncached(game).apply(equal) == expected
        seat = game.to_act
        if seat is not None:
            assert game.apply(action, seat=seat) == expected
    # Nothing the shortcuts did changed the game they started from.
    assert game == fresh


@given(bids=st.tuples(*[st.none() | st.integers(min_value=0, max_value=13) for _ in range(4)]))
def test_the_bids_made_are_shown_to_the_hooks_as_a_read_only_seat_mapping(
    bids: tuple[int | None, ...],
) -> None:
    made = bids_made(bids)
    expected = {seat: bid for seat, bid in zip(Seat, bids, strict=True) if bid is not None}
    assert isinstance(made, MappingProxyType)
    assert dict(made) == expected
    assert bids_made(bids) == expected
    with pytest.raises(TypeError):
        made[Seat.NORTH] = 3  # type: ignore[index]
    assert dict(made) == expected


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_a_finished_hand_records_its_cards_in_play_order(variant: str, data: st.DataObject) -> None:
    game = data.draw(games(variant, phase=Phase.GAME_OVER, max_hands=2), label="game")
    for result in game.hand_results:
        tricks = result.played
        plays = card_ids(tricks)
        assert len(plays) == 52
        assert plays == result._plays
        assert [ALL_CARDS[card] for card in plays] == [
            card for trick in tricks for card in trick.cards
        ]
