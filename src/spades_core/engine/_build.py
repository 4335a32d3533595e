"""Building the engine's values without their attrs ``__init__``.

Game's attrs-made ``__init__`` stores each field through
``object.__setattr__``, and a frozen class refuses plain attribute stores.
The transitions build one game per action, so they build it as an instance
of a subclass that adds no slot and takes plain stores (which CPython turns
into direct slot writes), then make it a :class:`Game` by assigning its
``__class__``: the same frozen, equal and hashable value with nothing cached,
in about a quarter of the instructions of storing each slot through its
descriptor. Each builder takes only what changes at its step and copies the
rest from the game before; a test compares every builder with the attrs
constructor, so a field added to :class:`Game` must be added here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from spades_core.engine.game import NO_SEAT, Game, GameSetup, Phase, Standing
from spades_core.rules.results import HandResult, HandResults, Trick
from spades_core.values._construction import under_construction
from spades_core.values.cards import CardSet
from spades_core.values.seats import Seat, SeatMap, Team

__all__ = [
    "card_set",
    "game_after_card",
    "game_between_hands",
    "game_bidding",
    "game_playing",
    "hand_result",
    "seat_map",
    "under_construction",
]

_new_object = object.__new__


def _slot_setter(name: str, cls: type) -> Callable[[object, object], None]:
    setter: Callable[[object, object], None] = vars(cls)[name].__set__
    return setter


_GAME_UNDER_CONSTRUCTION: Final = under_construction(Game)
_STANDING_UNDER_CONSTRUCTION: Final = under_construction(Standing)
_RESULT_UNDER_CONSTRUCTION: Final = under_construction(HandResult)
_set_seat_values = _slot_setter("values_", SeatMap)
_set_card_mask = _slot_setter("mask", CardSet)

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
    standing: Any = _new_object(_STANDING_UNDER_CONSTRUCTION)
    standing.setup = setup
    standing.dealer = dealer
    standing.scores = scores
    standing.bags = bags
    standing.results = results
    standing.winner = winner
    standing.__class__ = Standing
    game: Any = _new_object(_GAME_UNDER_CONSTRUCTION)
    game._standing = standing
    game.phase = _GAME_OVER if over else _DEAL
    game._dealt = _NO_CARDS
    game._held = _NO_CARDS
    game._bids = _NO_BIDS
    game._to_act = NO_SEAT
    game._leader = NO_SEAT
    game._trick = ()
    game._won = _NO_TRICKS
    game._played = ()
    game._broken = False
    game._legal = None
    game._trick_records = None
    game.__class__ = Game
    built: Game = game
    return built


def game_bidding(
    previous: Game, phase: Phase, dealt: tuple[int, ...], bids: tuple[int | None, ...], to_act: int
) -> Game:
    """``previous`` with a hand ``dealt`` (masks by seat, all still held) and
    ``bids`` made, ``to_act`` next: in ``BID``, or in ``PLAY`` before its
    first card (``to_act`` then leads)."""
    game: Any = _new_object(_GAME_UNDER_CONSTRUCTION)
    game._standing = previous._standing
    game.phase = phase
    game._dealt = dealt
    game._held = dealt
    game._bids = bids
    game._to_act = to_act
    game._leader = to_act
    game._trick = ()
    game._won = _NO_TRICKS
    game._played = ()
    game._broken = False
    game._legal = None
    game._trick_records = None
    game.__class__ = Game
    built: Game = game
    return built


def game_playing(
    previous: Game,
    held: tuple[int, ...],
    to_act: int,
    leader: int,
    trick: tuple[int, ...],
    won: tuple[int, ...],
    played: tuple[int, ...],
    broken: bool,
    trick_records: tuple[Trick, ...] | None,
) -> Game:
    """``previous`` (in ``PLAY``) after a card: the cards ``held``, the trick in
    progress, the card ids of the tricks completed so far (``played``) and
    their records, if built."""
    game: Any = _new_object(_GAME_UNDER_CONSTRUCTION)
    game._standing = previous._standing
    game.phase = _PLAY
    game._dealt = previous._dealt
    game._held = held
    game._bids = previous._bids
    game._to_act = to_act
    game._leader = leader
    game._trick = trick
    game._won = won
    game._played = played
    game._broken = broken
    game._legal = None
    game._trick_records = trick_records
    game.__class__ = Game
    built: Game = game
    return built


def game_after_card(
    previous: Game, held: tuple[int, ...], to_act: int, trick: tuple[int, ...], broken: bool
) -> Game:
    """``previous`` (in ``PLAY``) after a card that did not complete its trick:
    the cards ``held``, ``trick`` so far, ``to_act`` next; the leader, the
    tricks won and the tricks completed (with their records, if built) are
    the same. Three cards in four take this step, so it is
    :func:`game_playing` with fewer arguments to pass."""
    game: Any = _new_object(_GAME_UNDER_CONSTRUCTION)
    game._standing = previous._standing
    game.phase = _PLAY
    game._dealt = previous._dealt
    game._held = held
    game._bids = previous._bids
    game._to_act = to_act
    game._leader = previous._leader
    game._trick = trick
    game._won = previous._won
    game._played = previous._played
    game._broken = broken
    game._legal = None
    game._trick_records = previous._trick_records
    game.__class__ = Game
    built: Game = game
    return built


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
    result: Any = _new_object(_RESULT_UNDER_CONSTRUCTION)
    result._number = number
    result._dealer = dealer
    result._dealt = dealt
    result._bids = bids
    result._won = won
    result._points = points
    result._bags = bags
    result._scores = scores
    result._first_leader = first_leader
    result._plays = plays
    result._played = played
    result.__class__ = HandResult
    built: HandResult = result
    return built


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
