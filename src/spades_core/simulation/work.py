"""The unit of work: one deal (hands mode) or one seeded game (games mode)
between two players, with its duplicate copy.

Everything an item does is decided by ``(match, index)``: the deal's seed and
every player's seed are derived from the match's seed and the item's index
(never from time or from which process runs it), so any backend, any number of
workers and any split into tasks give the same results.

* Hands mode: item ``i`` is the first hand of a game seeded with a seed
  derived from ``(seed, i)`` — dealer and cards come from it — bid, played and
  scored from 0–0 with no bags. Its duplicate copy gives each seat's cards to
  the seat on its left and moves the dealer along, so the same cards bid and
  lead in the same order, held by the other player.
* Games mode: item ``i`` is a game seeded the same way, played to the end or
  for ``max_hands`` hands (then it counts as unfinished). Its duplicate copy
  swaps the players' seats and replays the same seed, so every hand of the
  game is dealt to them the other way round.
"""

from __future__ import annotations

from typing import Final, Literal

import attrs

from spades_core import bots
from spades_core.bots import Player
from spades_core.engine.game import Game, Phase, new_game
from spades_core.players import PlayerSpec, make_player
from spades_core.rules.hooks import checked_phases, checked_score_hand
from spades_core.rules.phases import PhaseStep
from spades_core.rules.results import HandResult
from spades_core.rules.rng import SeedStream
from spades_core.rules.tricks import LEFT_OF
from spades_core.rules.variant import Variant
from spades_core.values.actions import Deal
from spades_core.values.cards import CardSet
from spades_core.values.options import Rules
from spades_core.values.seats import Seat, SeatMap, Team, TeamMap

__all__ = [
    "DEAL_PURPOSE",
    "ItemResult",
    "Match",
    "Mode",
    "item_seed",
    "run_chunk",
    "run_item",
    "score_without_penalty",
    "seat_players",
    "steps_to_score",
]

Mode = Literal["hands", "games"]
"""``"hands"``: single hands from 0–0; ``"games"``: whole games."""

DEAL_PURPOSE: Final = 0x5100
"""The purpose of the seed streams items are dealt from (see :mod:`spades_core.rng`)."""
_PLAYER_PURPOSE: Final = 0x5101


@attrs.frozen
class Match:
    """Two players over seeded items. ``first`` sits North-South in the first
    copy of every item; ``options`` are the variant's house rules."""

    variant: str
    first: PlayerSpec
    second: PlayerSpec
    mode: Mode
    seed: int
    duplicate: bool = False
    options: tuple[tuple[str, object], ...] = ()
    max_hands: int = 200

    def new_game(self, seed: int, dealer: Seat | None = None) -> Game:
        """A new game of this match's variant and options."""
        return new_game(self.variant, seed=seed, dealer=dealer, **dict(self.options))


@attrs.frozen
class ItemResult:
    """One item, all copies, per player (``[first, second]``): raw ``points``;
    ``base`` points, the same without bag penalties; ``bags`` taken. ``hands``
    counts the hands played, ``wins`` the games each player won and
    ``unfinished`` the games that hit the hand limit."""

    points: tuple[int, int]
    base: tuple[int, int]
    bags: tuple[int, int]
    hands: int
    wins: tuple[int, int] = (0, 0)
    unfinished: int = 0


def item_seed(match: Match, index: int) -> int:
    """The seed of item ``index``'s game: its dealer and every deal come from it."""
    return SeedStream(match.seed, DEAL_PURPOSE, index).next64()


def seat_players(match: Match, index: int, copy: int = 0) -> list[Player]:
    """The players of copy ``copy`` (0, or 1 for the duplicate) of item
    ``index``, in seat order N, E, S, W, each with its own derived seed."""
    swapped = copy == 1 and match.mode == "games"
    players = []
    for seat in Seat:
        spec = match.first if (seat.team is Team.NS) != swapped else match.second
        seed = SeedStream(match.seed, _PLAYER_PURPOSE, index * 8 + copy * 4 + int(seat)).next64()
        players.append(make_player(spec, seed=seed))
    return players


def _play_hand(game: Game, players: list[Player]) -> Game:
    while game.phase in (Phase.BID, Phase.PLAY, Phase.VARIANT):
        seat = game.to_act
        if seat is None:  # pragma: no cover - a hand in progress always has a seat to act
            break
        game = game.apply(bots.ask(players[seat], game, seat), seat=seat)
    return game


def score_without_penalty(
    variant: Variant,
    rules: Rules,
    bids: SeatMap[int],
    tricks: SeatMap[int],
    steps: tuple[PhaseStep, ...] | None = None,
) -> tuple[TeamMap[int], TeamMap[int]]:
    """A hand's points per team with no bag penalty, and the bags it took
    (with ``steps``, a hand of a variant with phases, scored with them)."""
    # Scored again with no bag limit and no bags carried, the hand gives
    # exactly that, whatever the bags carried before.
    free = attrs.evolve(rules, bag_limit=None)
    points, bags = checked_score_hand(variant, free, bids.values_, tricks.values_, (0, 0), steps)
    return TeamMap(points), TeamMap(bags)


def steps_to_score(game: Game, result: HandResult) -> tuple[PhaseStep, ...] | None:
    """The steps ``result`` is scored with: its own for a variant with phases,
    ``None`` for one without (as the engine scores it)."""
    return result.steps if checked_phases(game.variant, game.rules) else None


class _Tally:
    """Sums per player slot; ``slot_of_ns`` says which player holds North-South."""

    def __init__(self) -> None:
        self.points = [0, 0]
        self.base = [0, 0]
        self.bags = [0, 0]
        self.hands = 0

    def add(self, game: Game, result: HandResult, slot_of_ns: int) -> None:
        base, taken = score_without_penalty(
            game.variant, game.rules, result.bids, result.tricks, steps_to_score(game, result)
        )
        for team in Team:
            slot = int(team) ^ slot_of_ns
            self.points[slot] += result.points[team]
            self.base[slot] += base[team]
            self.bags[slot] += taken[team]
        self.hands += 1

    def result(self, wins: list[int] | None = None, unfinished: int = 0) -> ItemResult:
        def pair(values: list[int]) -> tuple[int, int]:
            return (values[0], values[1])

        return ItemResult(
            pair(self.points),
            pair(self.base),
            pair(self.bags),
            self.hands,
            pair(wins or [0, 0]),
            unfinished,
        )


def run_item(match: Match, index: int) -> ItemResult:
    """Play item ``index`` of ``match`` (a deal or a game, with its duplicate copy)."""
    seed = item_seed(match, index)
    tally = _Tally()
    copies = (False, True) if match.duplicate else (False,)
    if match.mode == "hands":
        first = match.new_game(seed).deal()
        for copy, rotated in enumerate(copies):
            game = first
            if rotated:
                dealt = [first.dealt_hand(seat) for seat in Seat]
                game = match.new_game(seed, dealer=Seat(LEFT_OF[first.dealer])).apply(
                    Deal(_four(tuple(dealt[(seat - 1) % 4] for seat in range(4))))
                )
            # The players keep their seats; the rotated deal gives each side
            # the other side's cards.
            game = _play_hand(game, seat_players(match, index, copy))
            tally.add(game, game.hand_results[0], slot_of_ns=0)
        return tally.result()
    wins = [0, 0]
    unfinished = 0
    for copy, swapped in enumerate(copies):
        game = bots.play_game(
            match.new_game(seed),
            seat_players(match, index, copy),
            hands=match.max_hands,
        )
        for result in game.hand_results:
            tally.add(game, result, slot_of_ns=int(swapped))
        if game.winner is None:
            unfinished += 1
        else:
            wins[int(game.winner) ^ int(swapped)] += 1
    return tally.result(wins, unfinished)


def _four(hands: tuple[CardSet, ...]) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    return (hands[0], hands[1], hands[2], hands[3])


def run_chunk(match: Match, start: int, stop: int) -> tuple[ItemResult, ...]:
    """Items ``start`` to ``stop - 1`` of ``match``: one task of a backend."""
    return tuple(run_item(match, index) for index in range(start, stop))
