"""Building the engine's values without their attrs ``__init__``.

Game's attrs-made ``__init__`` stores each field through
``object.__setattr__``. The transitions build one game per action, so they
store the slots directly: the same frozen, equal and hashable value with
nothing cached, about a fifth sooner. Each builder takes only what changes at
its step and copies the rest from the game before; a test compares every
builder with the attrs constructor, so a field added to :class:`Game` must
be added here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from spades_core.cards import CardSet
from spades_core.game import NO_SEAT, Game, GameSetup, Phase
from spades_core.results import HandResult, HandResults, Trick
from spades_core.seats import Seat, SeatMap, Team

__all__ = [
    "card_set",
    "game_between_hands",
    "game_bidding",
    "game_playing",
    "hand_result",
    "seat_map",
]

_new_object = object.__new__


def _slot_setter(name: str, cls: type = Game) -> Callable[[object, object], None]:
    setter: Callable[[object, object], None] = vars(cls)[name].__set__
    return setter


_set_setup = _slot_setter("_setup")
_set_phase = _slot_setter("_phase")
_set_dealer = _slot_setter("_dealer")
_set_scores = _slot_setter("_scores")
_set_bags = _slot_setter("_bags")
_set_results = _slot_setter("_results")
_set_winner = _slot_setter("_winner")
_set_dealt = _slot_setter("_dealt")
_set_held = _slot_setter("_held")
_set_bids = _slot_setter("_bids")
_set_to_act = _slot_setter("_to_act")
_set_leader = _slot_setter("_leader")
_set_trick = _slot_setter("_trick")
_set_won = _slot_setter("_won")
_set_tricks = _slot_setter("_tricks")
_set_broken = _slot_setter("_broken")
_set_legal = _slot_setter("_legal")
_set_seat_values = _slot_setter("values_", SeatMap)
_set_card_mask = _slot_setter("mask", CardSet)
_set_result_number = _slot_setter("_number", HandResult)
_set_result_dealer = _slot_setter("_dealer", HandResult)
_set_result_dealt = _slot_setter("_dealt", HandResult)
_set_result_bids = _slot_setter("_bids", HandResult)
_set_result_won = _slot_setter("_won", HandResult)
_set_result_points = _slot_setter("_points", HandResult)
_set_result_bags = _slot_setter("_bags", HandResult)
_set_result_scores = _slot_setter("_scores", HandResult)
_set_result_first_leader = _slot_setter("_first_leader", HandResult)
_set_result_plays = _slot_setter("_plays", HandResult)
_set_result_played = _slot_setter("_played", HandResult)

_NO_CARDS: Final = (0, 0, 0, 0)
_NO_BIDS: Final[tuple[int | None, ...]] = (None, None, None, None)
_NO_TRICKS: Final = (0, 0, 0, 0)
# Looking a member up on an enum class costs more than a global in CPython 3.11.
_DEAL: Final = Phase.DEAL
_PLAY: Final = Phase.PLAY
_GAME_OVER: Final = Phase.GAME_OVER


def game_between_hands(
    setup: GameSetup,
    dealer: Seat,
    scores: tuple[int, int],
    bags: tuple[int, int],
    results: HandResults,
    winner: Team | None,
    over: bool,
) -> Game:
    """A game with no hand in progress: over, or waiting for ``dealer`` to deal."""
    game: Game = _new_object(Game)
    _set_setup(game, setup)
    _set_phase(game, _GAME_OVER if over else _DEAL)
    _set_dealer(game, dealer)
    _set_scores(game, scores)
    _set_bags(game, bags)
    _set_results(game, results)
    _set_winner(game, winner)
    _set_dealt(game, _NO_CARDS)
    _set_held(game, _NO_CARDS)
    _set_bids(game, _NO_BIDS)
    _set_to_act(game, NO_SEAT)
    _set_leader(game, NO_SEAT)
    _set_trick(game, ())
    _set_won(game, _NO_TRICKS)
    _set_tricks(game, ())
    _set_broken(game, False)
    _set_legal(game, None)
    return game


def game_bidding(
    previous: Game, phase: Phase, dealt: tuple[int, ...], bids: tuple[int | None, ...], to_act: int
) -> Game:
    """``previous`` with a hand ``dealt`` (masks by seat, all still held) and
    ``bids`` made, ``to_act`` next: in ``BID``, or in ``PLAY`` before its
    first card (``to_act`` then leads)."""
    game = game_playing(previous, dealt, to_act, to_act, (), _NO_TRICKS, (), False)
    # Not yet seen by anyone: the three fields a game in play copies are replaced.
    _set_phase(game, phase)
    _set_dealt(game, dealt)
    _set_bids(game, bids)
    return game


def game_playing(
    previous: Game,
    held: tuple[int, ...],
    to_act: int,
    leader: int,
    trick: tuple[int, ...],
    won: tuple[int, ...],
    tricks: tuple[Trick, ...],
    broken: bool,
) -> Game:
    """``previous`` (in ``PLAY``) after a card: the cards ``held``, the trick in
    progress and the tricks completed so far."""
    game: Game = _new_object(Game)
    _set_setup(game, previous._setup)
    _set_phase(game, _PLAY)
    _set_dealer(game, previous._dealer)
    _set_scores(game, previous._scores)
    _set_bags(game, previous._bags)
    _set_results(game, previous._results)
    _set_winner(game, None)
    _set_dealt(game, previous._dealt)
    _set_held(game, held)
    _set_bids(game, previous._bids)
    _set_to_act(game, to_act)
    _set_leader(game, leader)
    _set_trick(game, trick)
    _set_won(game, won)
    _set_tricks(game, tricks)
    _set_broken(game, broken)
    _set_legal(game, None)
    return game


def hand_result(
    number: int,
    dealer: int,
    dealt: tuple[int, ...],
    bids: tuple[int, ...],
    won: tuple[int, ...],
    points: tuple[int, int],
    bags: tuple[int, int],
    scores: tuple[int, int],
    first_leader: int,
    plays: tuple[int, ...],
    played: tuple[Trick, ...] | None,
) -> HandResult:
    """``HandResult(...)`` with these fields, built without the attrs ``__init__``."""
    result: HandResult = _new_object(HandResult)
    _set_result_number(result, number)
    _set_result_dealer(result, dealer)
    _set_result_dealt(result, dealt)
    _set_result_bids(result, bids)
    _set_result_won(result, won)
    _set_result_points(result, points)
    _set_result_bags(result, bags)
    _set_result_scores(result, scores)
    _set_result_first_leader(result, first_leader)
    _set_result_plays(result, plays)
    _set_result_played(result, played)
    return result


def seat_map(values: tuple[int, ...]) -> SeatMap[int]:
    """``SeatMap(values)`` without its ``__init__``."""
    built: SeatMap[int] = _new_object(SeatMap)
    _set_seat_values(built, values)
    return built


def card_set(mask: int) -> CardSet:
    """``CardSet(mask)`` without its ``__init__`` (``mask`` must be a valid hand)."""
    cards: CardSet = _new_object(CardSet)
    _set_card_mask(cards, mask)
    return cards
