"""Positions for the double-dummy tests, and the brute-force search they are held to.

:func:`endgame` plays a seeded game (random explicit deal, random bids and
cards, all through the checked API) to a chosen number of tricks left, a
chosen number of cards into the trick. :func:`brute_force_card_tricks`
searches such a position exhaustively through :meth:`Game.play`, the
engine's own checked transitions, with no rule of its own.
"""

from __future__ import annotations

import random
from typing import Any

import spades_core as sc
from spades_core.testing.strategies import play_randomly, random_deal


def endgame(
    variant: str, seed: int, tricks_left: int, into_trick: int = 0, **options: Any
) -> sc.Game | None:
    """A game of ``variant`` in play with ``tricks_left`` tricks to go (the one
    in progress included), ``into_trick`` cards (0-3) into the trick; ``None``
    when random play ended the hand sooner (it cannot)."""
    rnd = random.Random(seed)
    game = sc.new_game(variant, seed=seed, **options).apply(random_deal(rnd))
    game = play_randomly(game, rnd, steps=4 + (13 - tricks_left) * 4 + into_trick)
    return game if game.phase is sc.Phase.PLAY else None


def _team_tricks(game: sc.Game, team: sc.Team) -> int:
    won = game.tricks_won
    return sum(won[seat] for seat in team.seats)


def brute_force_card_tricks(game: sc.Game) -> dict[sc.Card, int]:
    """For each legal card of the seat to act, the most tricks its team takes
    of those left after playing it, by exhaustive search over :meth:`Game.play`."""
    team = game.to_act
    assert team is not None
    memo: dict[tuple[object, ...], int] = {}
    return {card: _after(game, card, team.team, memo) for card in game.legal_cards()}


def _after(game: sc.Game, card: sc.Card, team: sc.Team, memo: dict[tuple[object, ...], int]) -> int:
    # The tricks ``team`` takes from ``game`` on, once the seat to act plays ``card``.
    before = _team_tricks(game, team)
    after = game.play(card)
    if after.phase is not sc.Phase.PLAY:
        final = after.hand_results[-1].tricks
        return sum(final[seat] for seat in team.seats) - before
    return _team_tricks(after, team) - before + _best(after, team, memo)


def _best(game: sc.Game, team: sc.Team, memo: dict[tuple[object, ...], int]) -> int:
    # The tricks ``team`` takes from ``game`` on, both teams playing their best.
    key = (
        tuple(game.hand(seat) for seat in sc.Seat),
        game.current_trick,
        game.to_act,
        game.spades_broken,
    )
    found = memo.get(key)
    if found is None:
        to_act = game.to_act
        assert to_act is not None
        values = [_after(game, card, team, memo) for card in game.legal_cards()]
        found = max(values) if to_act.team is team else min(values)
        memo[key] = found
    return found
