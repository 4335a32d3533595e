"""A game keeps the card ids of its completed tricks and builds their Trick
records only when someone reads ``Game.tricks``, from its own first leader:
whether, when and how often they are read, a game and its results hold the
same tricks."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import spades_core as sc
from spades_core.engine import game as game_module
from spades_core.rules.results import tricks_of_plays

CONFIGS = [
    ("classic", {}),
    ("classic", {"first_lead": "two_of_clubs"}),
    ("mirror", {"break_rule": "any_spade"}),
    ("whiz", {"first_lead": "two_of_clubs", "break_rule": "any_spade"}),
]


def played_hand(
    variant: str, options: dict[str, Any], seed: int, read_at: frozenset[int]
) -> tuple[list[sc.Game], list[tuple[sc.Seat, sc.Card]]]:
    """Every game of one random hand (dealing included) and each card played
    with its seat, reading ``Game.tricks`` at the steps in ``read_at`` only."""
    rng = random.Random(seed)
    game = sc.new_game(variant, seed=seed, **options)
    games = [game]
    cards: list[tuple[sc.Seat, sc.Card]] = []
    step = 0
    while True:
        if step in read_at:
            game.tricks  # noqa: B018
        action = rng.choice(game.legal_actions())
        if isinstance(action, sc.Play):
            seat = game.to_act
            assert seat is not None
            cards.append((seat, action.card))
        game = game.apply(action)
        games.append(game)
        step += 1
        if game.phase not in (sc.Phase.BID, sc.Phase.PLAY):
            return games, cards


def records_built(game: sc.Game) -> bool:
    """Whether ``game`` has built its Trick records (kept, once built, in the
    instance's dict under the attribute's name; looking there builds nothing)."""
    return "tricks" in vars(game)


@pytest.mark.parametrize(("variant", "options"), CONFIGS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_game_never_asked_for_its_tricks_builds_no_record(
    variant: str, options: dict[str, object], seed: int
) -> None:
    games, _ = played_hand(variant, options, seed, frozenset())
    assert not any(records_built(game) for game in games)
    assert len(games[-1].hand_results[-1]._plays) == 52
    games[-2].tricks  # noqa: B018
    assert records_built(games[-2])
    assert not records_built(games[-3])


@pytest.mark.parametrize(("variant", "options"), CONFIGS)
def test_each_game_reads_its_own_tricks_whatever_game_shares_its_card_ids(
    variant: str, options: dict[str, Any]
) -> None:
    games, _ = played_hand(variant, options, 8, frozenset())
    game = next(game for game in games if len(game._played) >= 12)
    standing = game._standing
    for dealer in sc.Seat:
        other = attrs.evolve(game, standing=attrs.evolve(standing, dealer=dealer))
        assert other._played is game._played
        leader = game_module.hand_first_leader(other)
        assert other.tricks == tricks_of_plays(leader, other._played)
        assert other.tricks[0].leader is sc.Seat(leader)


@pytest.mark.parametrize(("variant", "options"), CONFIGS)
@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_the_tricks_are_the_same_however_often_they_are_read(
    variant: str, options: dict[str, object], seed: int
) -> None:
    choose = random.Random(seed)
    never, cards = played_hand(variant, options, seed, frozenset())
    always, _ = played_hand(variant, options, seed, frozenset(range(70)))
    sometimes, _ = played_hand(variant, options, seed, frozenset(choose.sample(range(60), 3)))
    assert never == always == sometimes
    for lazy, early, mixed in zip(never, always, sometimes, strict=True):
        # Read in the other order from the runs above: first those read early.
        assert early.tricks == mixed.tricks == lazy.tricks
        played = [play for trick in lazy.tricks for play in trick.plays]
        assert played == cards[: len(played)]
        for trick, following in zip(lazy.tricks, lazy.tricks[1:], strict=False):
            assert following.leader is trick.winner
        for seat in sc.Seat:
            assert lazy.tricks_won[seat] == sum(trick.winner is seat for trick in lazy.tricks)
    # The hand's result holds the same tricks, built or not when it was scored.
    hand = [play for trick in always[-2].tricks for play in trick.plays] + list(
        always[-2].current_trick
    )
    for run in (never, always, sometimes):
        result = run[-1].hand_results[-1]
        assert [play for trick in result.played for play in trick.plays] == cards
        assert [play for trick in result.played for play in trick.plays][:51] == hand


def test_the_first_tricks_leader_is_the_holder_of_the_deuce_of_clubs_when_it_must_lead() -> None:
    for seed in range(12):
        games, cards = played_hand("classic", {"first_lead": "two_of_clubs"}, seed, frozenset())
        first = next(game for game in games if len(game.tricks) == 1).tricks[0]
        assert first.cards[0] == sc.Card("2C")
        assert first.leader is cards[0][0]
