"""Pure transitions over :class:`~spades_core.Game`: deal, bid, play, score.

Each function takes a game and returns a new one; none mutates anything.
:func:`apply` checks legality and is what :meth:`Game.apply` calls.
:func:`play_unchecked`, :func:`bid_unchecked` and :func:`deal_unchecked` skip the
checks, for simulation code that already chose a legal action from
:func:`~spades_core.legality.legal_actions` or
:func:`~spades_core.legality.legal_play_mask`; given an illegal action they produce a corrupt
game, so use them only there.

The hand is scored by the play of its 13th trick (:func:`score_hand` is the
step), using the variant's :meth:`~spades_core.Variant.score_hand` and
:meth:`~spades_core.Variant.game_outcome` hooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from spades_core.engine import _compat as _deprecations
from spades_core.engine._build import (
    game_after_card,
    game_between_hands,
    game_bidding,
    game_playing,
    hand_result,
)
from spades_core.engine.game import SEATS, Game, GameSetup, Phase, hand_first_leader
from spades_core.rules import rng
from spades_core.rules.legality import check as _check_action
from spades_core.rules.legality import explicit_hands, wrong_phase
from spades_core.rules.legality import legal_play_mask as _legal_play_mask
from spades_core.rules.results import HandResult, HandResults, Trick
from spades_core.rules.results import make_trick as _make_trick
from spades_core.rules.tricks import (
    FIRST_SPADE,
    LEFT_OF,
    NO_SUIT,
    RANKS,
    breaks_spades,
    first_leader,
)
from spades_core.rules.tricks import trick_winner as _trick_winner
from spades_core.rules.variant import checked_game_end, checked_score_hand
from spades_core.values.actions import DEAL_FROM_SEED, Action, Bid, Deal, Play, action_of, deal_of
from spades_core.values.errors import brief
from spades_core.values.options import BreakRule, FirstLead
from spades_core.values.seats import Seat, Team

__all__ = [
    "apply",
    "between_hands",
    "bid_unchecked",
    "deal",
    "deal_unchecked",
    "play_unchecked",
    "score_hand",
]

_ANY_SPADE: Final = BreakRule.ANY_SPADE
_TWO_OF_CLUBS_FIRST: Final = FirstLead.TWO_OF_CLUBS
_NO_BIDS: Final[tuple[int | None, ...]] = (None, None, None, None)
_BITS: Final = tuple(1 << card for card in range(52))
# Looking a member up on an enum class costs more than a global in CPython 3.11.
_DEAL: Final = Phase.DEAL
_BID: Final = Phase.BID
_PLAY: Final = Phase.PLAY


def apply(game: Game, action: object, seat: object = None) -> Game:
    """The game after ``action``; raises :class:`IllegalActionError` if it is not legal."""
    # Only a real Seat takes the fast path: True or 1.0 would equal a seat number.
    if seat is None or (type(seat) is Seat and seat == game._to_act):
        kind = type(action)
        if kind is Play:
            if game.phase is _PLAY:
                card = action.card.id  # type: ignore[attr-defined]
                # A pre-built play found in the cached legal plays is legal:
                # sooner than working the legal mask out again.
                legal = game._legal
                if legal is not None:
                    for candidate in legal:
                        if candidate is action:
                            return play_unchecked(game, card)
                if _legal_play_mask(game) >> card & 1:
                    return play_unchecked(game, card)
        elif kind is Bid:
            if game.phase is _BID and _is_listed(action, game.legal_actions()):
                return bid_unchecked(game, action.value)  # type: ignore[attr-defined]
        elif kind is Deal and game.phase is _DEAL:
            return deal(game, action)
    kind = type(action)
    if kind is not Play and kind is not Bid and kind is not Deal:
        # A card, a number or text: read once, then the paths above.
        return apply(game, action_of(action), seat)
    _check_action(game, action, seat)
    if seat is not None:
        # check() accepted a seat given by name ("N"): it is the seat to act.
        return apply(game, action, None)
    raise AssertionError(f"check() accepted an action apply() rejected: {brief(action)}")


def _is_listed(action: object, legal: tuple[Action, ...]) -> bool:
    # A pre-built action is found by identity, without calling __eq__ on each
    # entry before it; any other action by equality.
    for candidate in legal:
        if candidate is action:
            return True
    return action in legal


def deal(game: Game, hands: object = None) -> Game:
    """The game with its next hand dealt, from the seed (``hands=None``), a
    :class:`Deal`, or a mapping from each seat to its 13 cards."""
    if game.phase is not _DEAL:
        raise wrong_phase(game, "deal")
    if hands is DEAL_FROM_SEED:
        # The deal legal_actions() offers, every hand of a simulation: from the seed.
        hands = None
    elif isinstance(hands, Deal):
        hands = explicit_hands(hands)
    if hands is None:
        standing = game._standing
        masks = rng.deal_masks(standing.setup.seed, len(standing.results), standing.dealer)
    else:
        masks = tuple(cardset.mask for cardset in deal_of(hands).hands or ())  # type: ignore[assignment]
    return deal_unchecked(game, masks)


def deal_unchecked(game: Game, masks: tuple[int, ...]) -> Game:
    """The game (in ``DEAL``) with the hands ``masks`` dealt (by seat number:
    four disjoint 13-card masks), without checking them."""
    return game_bidding(game, _BID, masks, _NO_BIDS, LEFT_OF[game._standing.dealer])


def bid_unchecked(game: Game, value: int) -> Game:
    """The game after the seat to act bids ``value``, without checking it."""
    seat = game._to_act
    bids = list(game._bids)
    bids[seat] = value
    to_act = (seat + 1) % 4
    if to_act != LEFT_OF[game._standing.dealer]:
        return game_bidding(game, _BID, game._dealt, tuple(bids), to_act)
    leader = first_leader(
        game._standing.dealer,
        game._held,
        game._standing.setup.rules.first_lead is _TWO_OF_CLUBS_FIRST,
    )
    return game_bidding(game, _PLAY, game._dealt, tuple(bids), leader)


def play_unchecked(game: Game, card: int) -> Game:
    """The game after the seat to act plays card id ``card``, without checking it."""
    seat = game._to_act
    bit = _BITS[card]
    # The four hands unpacked and packed again: sooner than a list and back.
    north, east, south, west = game._held
    if seat == 0:
        north ^= bit
    elif seat == 1:
        east ^= bit
    elif seat == 2:
        south ^= bit
    else:
        west ^= bit
    held = (north, east, south, west)
    trick = game._trick
    broken = game._broken
    if not broken and card >= FIRST_SPADE:
        broken = breaks_spades(
            card,
            trick[0] // RANKS if trick else NO_SUIT,
            game._standing.setup.rules.break_rule is _ANY_SPADE,
        )
    # Concatenation builds the one tuple; unpacking would build a list first.
    trick += (card,)
    if len(trick) < 4:
        return game_after_card(game, held, LEFT_OF[seat], trick, broken)
    leader = game._leader
    winner = (leader + _trick_winner(trick)) % 4
    north, east, south, west = game._won
    if winner == 0:
        north += 1
    elif winner == 1:
        east += 1
    elif winner == 2:
        south += 1
    else:
        west += 1
    won = (north, east, south, west)
    played = game._played + trick
    # The trick's record is added only to records someone has built already
    # (Game.tricks builds them when first read).
    records = game._trick_records
    if records is not None:
        records += (_make_trick(leader, trick, winner),)
    if len(played) == 52:
        bids: tuple[int, ...] = game._bids  # type: ignore[assignment]  # all made by now
        return score_hand(game, game._dealt, bids, won, hand_first_leader(game), played, records)
    return game_playing(game, held, winner, winner, (), won, played, broken, records)


def score_hand(
    game: Game,
    dealt: tuple[int, ...],
    bids: tuple[int, ...],
    won: tuple[int, ...],
    first_leader: int,
    plays: tuple[int, ...],
    played: tuple[Trick, ...] | None = None,
) -> Game:
    """The game after a hand of ``game`` is scored: the result recorded, scores
    and bags updated, and either the next hand awaited (dealer rotated) or the
    game over.

    ``game`` gives the setup, dealer, running totals and earlier results; the
    hand itself is ``dealt`` (masks by seat), ``bids`` and ``won`` (by seat),
    and ``plays``, its 52 card ids in play order, the first trick led by
    ``first_leader``. ``played`` may pass the hand's :class:`Trick` records
    when they exist already.
    """
    standing = game._standing
    setup = standing.setup
    variant = setup.variant
    rules = setup.rules
    points, bags = checked_score_hand(variant, rules, bids, won, standing.bags)
    scores = (standing.scores[0] + points[0], standing.scores[1] + points[1])
    over, winner = checked_game_end(variant, rules, scores, len(standing.results) + 1)
    dealer = standing.dealer
    results = standing.results
    result = hand_result(
        len(results), dealer, dealt, bids, won, points, bags, scores, first_leader, plays, played
    )
    return game_between_hands(
        setup,
        dealer if over else SEATS[LEFT_OF[dealer]],
        scores,
        bags,
        results.appended(result),
        winner,
        over,
    )


def between_hands(
    setup: GameSetup,
    dealer: Seat,
    scores: tuple[int, int],
    bags: tuple[int, int],
    results: Sequence[HandResult],
    winner: Team | None,
    *,
    over: bool = False,
) -> Game:
    """A game with no hand in progress after ``results``: waiting for
    ``dealer`` to deal, or over when ``winner`` is set or ``over`` (a draw)."""
    history = results if isinstance(results, HandResults) else HandResults(results)
    return game_between_hands(
        setup, dealer, scores, bags, history, winner, over or winner is not None
    )


def __getattr__(name: str) -> Any:
    """Names this module offered in release 0.1 (see :mod:`spades_core.engine._compat`)."""
    return _deprecations.module_attribute(__name__, name)
