"""The step path's shortcuts give what the general path gives: ``Game.apply``
of a legal action, ``Game.legal_actions``, the bids the variant hooks are
shown, and the card ids of a finished hand."""

from __future__ import annotations

from types import MappingProxyType

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from spades_core import Bid, Game, Phase, Play, Seat
from spades_core.engine import transitions
from spades_core.engine.encoding import action_id, after_legal_id
from spades_core.rules.legality import bids_made
from spades_core.rules.results import card_ids
from spades_core.testing.strategies import games
from spades_core.values.cards import ALL_CARDS

VARIANTS = ("classic", "mirror", "whiz")


def _uncached(game: Game) -> Game:
    # evolve() builds a new game, which has worked nothing out yet.
    copy: Game = attrs.evolve(game)
    return copy


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_applying_each_legal_action_agrees_with_the_checked_transition(
    variant: str, data: st.DataObject
) -> None:
    game = data.draw(games(variant, max_hands=2), label="game")
    fresh = _uncached(game)
    legal = game.legal_actions()
    assert fresh.legal_actions() == legal
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


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_only_the_action_that_scores_a_hand_makes_a_new_results_object(
    variant: str, data: st.DataObject
) -> None:
    # The OpenSpiel state, the PettingZoo table and its observation tracker
    # tell a scored hand by a new results object, not by comparing lengths:
    # every other step (a deal, a bid, a card), by every path, must keep the
    # one it had.
    game = data.draw(games(variant, max_hands=2), label="game")
    for action in game.legal_actions():
        afters = [game.apply(action), transitions.apply(_uncached(game), action, None)]
        if isinstance(action, Play | Bid):
            afters.append(after_legal_id(game, action_id(action)))
        for after in afters:
            _check_results_kept_unless_scored(game, after)
    # And through the rest of the hand, to the card that scores it.
    hands = len(game.hand_results)
    while game.phase is not Phase.GAME_OVER and len(game.hand_results) == hands:
        after = game.apply(data.draw(st.sampled_from(game.legal_actions()), label="action"))
        _check_results_kept_unless_scored(game, after)
        game = after
    assert game.phase is Phase.GAME_OVER or len(game.hand_results) == hands + 1


def _check_results_kept_unless_scored(before: Game, after: Game) -> None:
    scored = len(after.hand_results) == len(before.hand_results) + 1
    assert scored or len(after.hand_results) == len(before.hand_results)
    assert (after._standing.results is not before._standing.results) == scored
