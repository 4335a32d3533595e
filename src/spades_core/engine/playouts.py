"""Fast simulation: play a game forward on ints, without a :class:`Game` per step.

:func:`playout` continues a game from any point (waiting for a deal, in the
bidding, in the middle of a trick) to the end of the hand, or of several
hands, and returns the resulting :class:`~spades_core.Game`. In between it
keeps the hands as 52-bit masks in local variables and builds no game, action
or view objects; the game it returns is made by the engine's own scoring step,
so it is *exactly* the game the checked path (``legal_actions()`` and
``apply()``) produces for the same choices.

Choices come from a *chooser*: a function called once per decision with the
number ``n`` of legal actions (the length of ``game.legal_actions()`` at that
point, forced decisions with ``n == 1`` included, the deal too) that returns
the index of its choice in that tuple. A :class:`random.Random` may be passed
instead; it chooses uniformly and draws exactly what
``rng.choice(game.legal_actions())`` draws on the checked path:

>>> import random
>>> import spades_core as sc
>>> from spades_core.playouts import playout
>>> start = sc.new_game("mirror", seed=7)
>>> fast = playout(start, random.Random(1))
>>> fast.phase, fast.hand_number
(<Phase.DEAL: 'deal'>, 1)
>>> game, rng = start, random.Random(1)
>>> game = game.apply(rng.choice(game.legal_actions()))
>>> while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
...     game = game.apply(rng.choice(game.legal_actions()))
>>> game == fast
True

A chooser can be any function of ``n``; always taking the lowest legal card
(and the lowest bid) is ``lambda n: 0``:

>>> lowest = playout(start, lambda n: 0, hands=3)
>>> [result.number for result in lowest.hand_results]
[0, 1, 2]
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final, TypeAlias

from spades_core.engine import arguments
from spades_core.engine.game import Game, Phase, finish_hand, hand_first_leader
from spades_core.rules import rng as _seeded
from spades_core.rules.legality import bid_values
from spades_core.rules.tricks import LEFT_OF, first_leader, play_tricks, rule_flags
from spades_core.values import checks
from spades_core.values.errors import ArgumentTypeError, IllegalActionError, IllegalReason, brief

__all__ = ["Chooser", "playout"]

Chooser: TypeAlias = Callable[[int], int]
"""Called with the number ``n >= 1`` of legal actions; returns an index in ``range(n)``
into ``legal_actions()``."""

# Enum members as globals: looking one up on its class is slow in CPython 3.11.
_DEAL: Final = Phase.DEAL
_PLAY: Final = Phase.PLAY
_GAME_OVER: Final = Phase.GAME_OVER


def playout(game: Game, choose: Chooser | random.Random, *, hands: int | None = 1) -> Game:
    """The game after ``hands`` hands are finished and scored, or earlier if
    the game ends; ``hands=None`` plays until the game is over. The first hand
    is the one in progress, or the next one when ``game`` waits for a deal.

    Every decision is taken by ``choose`` (see the module documentation). The
    result equals the game reached by applying, at each step,
    ``game.legal_actions()[choose(len(game.legal_actions()))]``. ``game`` is
    not changed. Mirror and Whiz have no loss floor, so random play may never
    end a game: give such games a number of ``hands``.

    Raises :class:`~spades_core.ArgumentTypeError` for a ``game``, ``hands``
    or ``choose`` of the wrong type, :class:`~spades_core.RulesError` for a
    negative ``hands``, and :class:`~spades_core.IllegalActionError` (``NOT_AN_ACTION``) when a
    chooser returns something other than an index into the legal actions.
    """
    arguments.game(game, "playout")
    if hands is not None:
        checks.count(hands, "playout", "hands", minimum=0)
    if isinstance(choose, random.Random):
        pick: Chooser = _uniform(choose)
    elif callable(choose):
        pick = _checked(choose)
    else:
        raise ArgumentTypeError(
            f"playout: choose must be a random.Random or a function from a number of legal "
            f"actions to an index; got {checks.described(choose)}"
        )
    played = 0
    while game.phase is not _GAME_OVER and (hands is None or played < hands):
        game = _play_out_hand(game, pick)
        played += 1
    return game


def _uniform(rng: random.Random) -> Chooser:
    # rng.choice(seq) draws what rng.randrange(len(seq)) draws: the same choices.
    return rng.randrange


def _checked(choose: Chooser) -> Chooser:
    def pick(n: int) -> int:
        index = choose(n)
        if type(index) is not int or not 0 <= index < n:
            raise IllegalActionError(
                IllegalReason.NOT_AN_ACTION,
                f"the chooser returned {brief(index)} for {n} legal actions; "
                f"it must return an index from 0 to {n - 1}",
            )
        return index

    return pick


def _play_out_hand(game: Game, pick: Chooser) -> Game:
    """The game after the hand in progress (or the next one, in ``DEAL``) is
    played out and scored."""
    setup = game._standing.setup
    any_spade, two_of_clubs = rule_flags(setup.rules)
    dealer = game._standing.dealer
    phase = game.phase
    if phase is _PLAY:
        dealt = game._dealt
        bids = game._bids
        leader = game._leader
        trick = game._trick
        won = list(game._won)
        # Every card played this hand, in order; the Trick records are built
        # only if someone reads HandResult.played.
        plays = [*game._played, *trick]
        first = hand_first_leader(game) if game._played else leader
        play_tricks(
            game._held,
            leader,
            trick,
            game._broken,
            any_spade,
            two_of_clubs and not plays,
            pick,
            plays,
            won,
        )
    else:
        if phase is _DEAL:
            pick(1)
            dealt = _seeded.deal_masks(setup.seed, len(game._standing.results), dealer)
            made: list[int | None] = [None, None, None, None]
            seat = LEFT_OF[dealer]
        else:
            dealt = game._dealt
            made = list(game._bids)
            seat = game._to_act
        for _ in range(made.count(None)):
            values = bid_values(setup.variant, setup.rules, seat, dealt[seat], tuple(made))
            made[seat] = values[pick(len(values))]
            seat = (seat + 1) % 4
        bids = tuple(made)
        first = first_leader(dealer, dealt, two_of_clubs)
        won = [0, 0, 0, 0]
        plays = []
        play_tricks(dealt, first, (), False, any_spade, two_of_clubs, pick, plays, won)

    # The game gives finish_hand the setup, dealer, totals and earlier results.
    return finish_hand(game, dealt, bids, tuple(won), first, tuple(plays))  # type: ignore[arg-type]
