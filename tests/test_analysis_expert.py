"""The ``expert`` player: legal choices in every variant, its budget, its seed."""

from __future__ import annotations

import random

import pytest

import spades_core as sc
from spades_core.analysis.expert import ExpertBot
from spades_core.analysis.solve import position_of, position_seen
from spades_core.bots import HardBot
from spades_core.bots.why import Why
from spades_core.engine.views import View
from spades_core.players import PlayerError, make_player
from spades_core.testing.strategies import play_randomly

VARIANTS = ("classic", "mirror", "whiz")


def _positions(variant: str, count: int, seed: int) -> list[sc.Game]:
    # Games of ``variant`` at a seat's turn in the bidding or the play, at
    # random points of the hand.
    rnd = random.Random(seed)
    found: list[sc.Game] = []
    while len(found) < count:
        game = sc.new_game(variant, seed=rnd.randrange(1 << 30)).deal()
        game = play_randomly(game, rnd, steps=rnd.randrange(56))
        if game.phase in (sc.Phase.BID, sc.Phase.PLAY) and game.to_act is not None:
            found.append(game)
    return found


def _view(game: sc.Game) -> View:
    # The view of the seat to act.
    assert game.to_act is not None
    return game.view(game.to_act)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_expert_chooses_a_legal_action_in_every_variant(variant: str) -> None:
    bot = ExpertBot(seed=5, samples=3, depth=6, steps=200, bid_steps=200)
    solved = 0
    for game in _positions(variant, 24, seed=len(variant)):
        assert game.to_act is not None
        view = game.view(game.to_act)
        action, why = bot.decide(view)
        assert action in game.legal_actions()
        solved += why is Why.SEARCH
    assert solved > 0  # some positions were played from the solver's values


def test_the_expert_is_a_registered_player_with_a_checked_budget() -> None:
    player = make_player("expert:samples=5:depth=4", seed=2)
    assert isinstance(player, ExpertBot)
    assert (player.samples, player.depth, player.seed) == (5, 4, 2)
    for spec, message in (
        ("expert:samples=0", "samples must be a whole number ≥ 1 and ≤ 1,000"),
        ("expert:samples=1001", "samples must be a whole number ≥ 1 and ≤ 1,000"),
        ("expert:depth=14", "depth must be a whole number ≥ 1 and ≤ 13"),
        ("expert:steps=0", "steps must be a whole number ≥ 1"),
        ("expert:playouts=3", "unknown expert bot option playouts"),
    ):
        with pytest.raises(PlayerError, match=message):
            make_player(spec, seed=1)
    with pytest.raises(sc.RulesError, match="samples must be a whole number"):
        ExpertBot(seed=1, samples=10**9)
    with pytest.raises(sc.ArgumentTypeError, match="samples must be a whole number"):
        ExpertBot(seed=1, samples="many")  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="depth must be a whole number"):
        ExpertBot(seed=1, depth=2.5)  # type: ignore[arg-type]


def test_a_seed_gives_the_same_choices() -> None:
    games = [
        game
        for game in _positions("classic", 40, seed=9)
        if game.phase is sc.Phase.PLAY and len(_view(game).hand()) <= 6
    ]
    assert len(games) >= 5
    first = [ExpertBot(seed=3, samples=3, depth=6, steps=200).decide(_view(g)) for g in games]
    again = [ExpertBot(seed=3, samples=3, depth=6, steps=200).decide(_view(g)) for g in games]
    assert first == again
    assert any(why is Why.SEARCH for _, why in first)


def test_the_expert_bids_as_its_hard_bot_does() -> None:
    for game in _positions("mirror", 30, seed=4):
        if game.phase is sc.Phase.BID:
            view = _view(game)
            expert = ExpertBot(seed=8, steps=300, bid_steps=300)
            assert expert.choose(view) == HardBot(8, steps=300, bid_steps=300).choose(view)


def test_a_sampled_position_reads_the_view_as_the_game_is_read() -> None:
    for game in _positions("whiz", 20, seed=6):
        if game.phase is sc.Phase.PLAY:
            position = position_of(game)
            assert position_seen(_view(game), position.hands) == position


def test_the_expert_refuses_a_view_that_is_not_its_turn() -> None:
    game = sc.new_game("classic", seed=1).deal()
    assert game.to_act is not None
    other = sc.Seat((int(game.to_act) + 1) % 4)
    with pytest.raises(sc.IllegalActionError):
        ExpertBot(seed=1).choose(game.view(other))
