"""Fixed integer action ids, for reinforcement-learning and search code.

Every bid and play has an id in ``range(NUM_ACTIONS)`` (66), the numbering
OpenSpiel's ``spades`` uses:

* ids 0-51 play a card: id = ``suit * 13 + rank`` (suits clubs, diamonds,
  hearts, spades; rank 0 = deuce … 12 = ace), the card's own id;
* ids 52-65 bid: id = ``52 + bid``, so 52 is Nil and 65 is a bid of 13.

Dealing has no id: it is a chance event, not a player's decision (in
``DEAL`` phase every id is illegal and :func:`legal_mask` is all ``False``;
call :meth:`Game.deal`). :func:`legal_mask` marks the ids the seat to act
may take; :func:`action_from_id` turns a chosen id back into the engine's
pre-built action, checking that it is legal.

>>> import spades_core as sc
>>> from spades_core.encoding import NUM_ACTIONS, action_from_id, action_id, legal_mask
>>> action_id(sc.Play.of("2C")), action_id(sc.Play.of("AS")), action_id(sc.Bid.of(0))
(0, 51, 52)
>>> game = sc.new_game("mirror", seed=3).deal()
>>> mask = game.legal_mask()
>>> len(mask) == NUM_ACTIONS, sum(mask)
(True, 1)
>>> chosen = mask.index(True)
>>> action_from_id(game, chosen) == game.legal_actions()[0]
True
"""

from __future__ import annotations

from typing import Final

from spades_core.engine import arguments
from spades_core.engine.game import Game, bid_unchecked, legal_play_mask, play_unchecked
from spades_core.rules.slices import SliceTable
from spades_core.values import checks
from spades_core.values.action_ids import (
    ACTIONS,
    BID_ID_BASE,
    NUM_ACTIONS,
    NUM_CARD_IDS,
    NUM_PHASE_ACTIONS,
    PHASE_ACTIONS,
    action_id,
)
from spades_core.values.actions import Bid, PhaseAction, Play
from spades_core.values.errors import IllegalActionError, IllegalReason, brief
from spades_core.values.phase import Phase

__all__ = [
    "ACTIONS",
    "BID_ID_BASE",
    "NUM_ACTIONS",
    "NUM_CARD_IDS",
    "action_from_id",
    "action_id",
    "legal_ids",
    "legal_mask",
]

_ALL_FALSE: Final = (False,) * NUM_ACTIONS
_ALL_FALSE_PHASED: Final = (False,) * NUM_PHASE_ACTIONS
# Looking a member up on an enum class costs more than a global in CPython 3.11.
_PLAY: Final = Phase.PLAY
_BID: Final = Phase.BID
_VARIANT: Final = Phase.VARIANT


def _mask_bits(game: Game) -> int:
    if not isinstance(game, Game):
        arguments.game(game, "encoding")
    return legal_id_bits(game)


def legal_id_bits(game: Game) -> int:
    """The legal ids of ``game`` (a :class:`Game`, not checked) as a mask: bit
    ``n`` is set when id ``n`` is legal."""
    phase = game.phase
    if phase is _PLAY:
        # Card ids are mask bits already.
        return legal_play_mask(game)
    if phase is _BID:
        bits = 0
        for action in game.legal_actions():
            bits |= 1 << (BID_ID_BASE + action.value)  # type: ignore[union-attr]
        return bits
    if phase is _VARIANT:
        bits = 0
        for action in game.legal_actions():
            try:
                bits |= 1 << action_id(action)
            except IllegalActionError:
                # A pass of several cards has no id: its cards are passed one by one.
                continue
        return bits
    return 0


def _phased(game: Game) -> bool:
    # The ids of phase actions exist only for a variant with phases.
    return bool(game._standing.setup.phases)


def after_legal_id(game: Game, action_id: int) -> Game:
    """The game after the seat to act takes ``action_id``, which the caller has
    found among the legal ids (:func:`legal_id_bits`): the engine's transition
    without checking it again."""
    if action_id < NUM_CARD_IDS:
        return play_unchecked(game, action_id)
    if action_id >= NUM_ACTIONS:
        return game.apply(PHASE_ACTIONS[action_id])
    return bid_unchecked(game, action_id - BID_ID_BASE)


def legal_mask(game: Game) -> tuple[bool, ...]:
    """A tuple of :data:`NUM_ACTIONS` booleans, ``True`` at each legal id;
    :data:`NUM_PHASE_ACTIONS` for a variant with phases, their ids included.

    All ``False`` while dealing and after the game (no player acts then).
    """
    bits = _mask_bits(game)
    empty = _ALL_FALSE_PHASED if _phased(game) else _ALL_FALSE
    if not bits:
        return empty
    flags = list(empty)
    for index in ids_of_bits(bits):
        flags[index] = True
    return tuple(flags)


def legal_ids(game: Game) -> tuple[int, ...]:
    """The legal ids, ascending (the ``True`` positions of :func:`legal_mask`)."""
    if not isinstance(game, Game):
        arguments.game(game, "encoding")
    if game.phase is _PLAY:
        # Card ids are mask bits already.
        mask = legal_play_mask(game)
        return _card_ids_of_one_suit(mask) or _card_ids_of_slices(mask)
    return ids_of_bits(legal_id_bits(game))


# Card ids of a legal mask by the tables that turn it into plays (a lookup per
# suit); bid ids by one lookup of the bid bits (filled on first use).
_CARD_IDS: Final = SliceTable(int)
_card_ids_of_one_suit: Final = _CARD_IDS.one_suit.get
_card_ids_of_slices: Final = _CARD_IDS.of_mask
_CARD_BITS: Final = (1 << NUM_CARD_IDS) - 1
_BID_IDS: Final[dict[int, tuple[int, ...]]] = {}


def ids_of_bits(bits: int) -> tuple[int, ...]:
    """The positions of the set bits of ``bits`` (an id mask: bit ``n`` stands
    for id ``n``), ascending."""
    cards = bits & _CARD_BITS
    ids = _card_ids_of_one_suit(cards) or _card_ids_of_slices(cards) if cards else ()
    bids = bits >> NUM_CARD_IDS
    if bids >> (NUM_ACTIONS - NUM_CARD_IDS):
        # Ids of a variant's phases: rare, so found bit by bit.
        return ids + tuple(n for n in range(NUM_CARD_IDS, bits.bit_length()) if bits >> n & 1)
    if bids:
        found = _BID_IDS.get(bids)
        if found is None:
            found = _BID_IDS[bids] = tuple(
                BID_ID_BASE + value for value in range(bids.bit_length()) if bids >> value & 1
            )
        ids += found
    return ids


def action_from_id(game: Game, action_id: int) -> Play | Bid | PhaseAction:
    """The pre-built action with id ``action_id``, which must be legal in ``game``.

    An id that is not a whole number in ``range(NUM_ACTIONS)`` (in
    ``range(NUM_PHASE_ACTIONS)`` for a variant with phases) raises
    :class:`IllegalActionError` (``NOT_AN_ACTION``); an id that is not legal
    now raises the error :meth:`Game.apply` would (``WRONG_PHASE`` while
    dealing or bidding for a card id, ``CARD_NOT_IN_HAND``, ``MUST_FOLLOW_SUIT``,
    ``BID_NOT_ALLOWED`` …).
    """
    checks.instance(game, Game, "action_from_id", "game", "a Game")
    size = NUM_PHASE_ACTIONS if _phased(game) else NUM_ACTIONS
    if type(action_id) is not int or not 0 <= action_id < size:
        raise IllegalActionError(
            IllegalReason.NOT_AN_ACTION,
            f"not an action id: {brief(action_id)}; ids are whole numbers 0-{size - 1}",
        )
    action = PHASE_ACTIONS[action_id]
    # Legal actions are the pre-built ones of ACTIONS: found by identity.
    for candidate in game.legal_actions():
        # A variant's phase actions may be built anew: found by equality.
        if candidate is action or (action_id >= NUM_ACTIONS and candidate == action):
            return action
    error = game.why_illegal(action)
    if error is None:  # pragma: no cover - legal_actions and why_illegal agree
        raise AssertionError(f"{action!r} is legal but not among the legal actions")
    raise error
