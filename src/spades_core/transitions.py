"""Pure transitions over :class:`~spades_core.Game`: deal, bid, play, score.

Each function takes a game and returns a new one; none mutates anything.
:func:`apply` checks legality and is what :meth:`Game.apply` calls.
:func:`play_unchecked` and :func:`bid_unchecked` skip the checks, for
simulation code that already chose a legal action from :func:`legal_actions`
or :func:`legal_play_mask`; given an illegal action they produce a corrupt
game, so use them only there.

The hand is scored by the play of its 13th trick (:func:`score_hand` is the
step), using the variant's :meth:`~spades_core.Variant.score_hand` and
:meth:`~spades_core.Variant.game_outcome` hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Final

from spades_core import _check, rng
from spades_core.actions import BIDS, DEAL_FROM_SEED, PLAYS, Action, Bid, Deal, Play, deal_of
from spades_core.cards import ALL_CARDS, SUIT_MASKS, CardSet
from spades_core.errors import (
    IllegalActionError,
    IllegalReason,
    InvalidNotationError,
    brief,
)
from spades_core.options import BreakRule, FirstLead
from spades_core.seats import Seat, Team
from spades_core.state import NO_SEAT, SEATS, Game, GameSetup, HandResult, Phase, Trick
from spades_core.variant import checked_game_end, checked_legal_bids, checked_score_hand

__all__ = [
    "apply",
    "between_hands",
    "bid_unchecked",
    "bid_values",
    "check",
    "deal",
    "legal_actions",
    "legal_bid_values",
    "legal_play_mask",
    "make_trick",
    "play_unchecked",
    "score_hand",
    "trick_winner",
]

_SPADES: Final = SUIT_MASKS[3]
_NON_SPADES: Final = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2]
_FIRST_SPADE: Final = 39
_TWO_OF_CLUBS: Final = 0
_NO_CARDS: Final = (0, 0, 0, 0)
_NO_BIDS: Final[tuple[int | None, ...]] = (None, None, None, None)
_NO_TRICKS: Final = (0, 0, 0, 0)
_BITS: Final = tuple(1 << card for card in range(52))
# Looking a member up on an enum class costs more than a global in CPython 3.11.
_DEAL: Final = Phase.DEAL
_BID: Final = Phase.BID
_PLAY: Final = Phase.PLAY
_GAME_OVER: Final = Phase.GAME_OVER

# Plays for each 13-bit slice of a suit, filled on first use: turning a
# legal-card mask into action objects is then one lookup per suit.
_PLAYS_BY_SLICE: Final[list[list[tuple[Play, ...] | None]]] = [[None] * 8192 for _ in range(4)]


def _plays_of_slice(suit: int, bits: int) -> tuple[Play, ...]:
    table = _PLAYS_BY_SLICE[suit]
    found = table[bits]
    if found is None:
        base = 13 * suit
        found = tuple(PLAYS[base + rank] for rank in range(13) if bits >> rank & 1)
        table[bits] = found
    return found


def plays_of_mask(mask: int) -> tuple[Play, ...]:
    """The pre-built plays of the cards in ``mask``, lowest card id first."""
    clubs, diamonds, hearts, spades = _PLAYS_BY_SLICE
    found_clubs = clubs[mask & 0x1FFF]
    found_diamonds = diamonds[(mask >> 13) & 0x1FFF]
    found_hearts = hearts[(mask >> 26) & 0x1FFF]
    found_spades = spades[mask >> 39]
    if (
        found_clubs is None
        or found_diamonds is None
        or found_hearts is None
        or found_spades is None
    ):
        return _filling_plays_of_mask(mask)
    return found_clubs + found_diamonds + found_hearts + found_spades


def _filling_plays_of_mask(mask: int) -> tuple[Play, ...]:
    return (
        _plays_of_slice(0, mask & 0x1FFF)
        + _plays_of_slice(1, (mask >> 13) & 0x1FFF)
        + _plays_of_slice(2, (mask >> 26) & 0x1FFF)
        + _plays_of_slice(3, mask >> 39)
    )


# -- queries -----------------------------------------------------------------


def legal_play_mask(game: Game) -> int:
    """The mask of cards the seat to act may play (the game must be in ``PLAY``)."""
    held = game._held[game._to_act]
    trick = game._trick
    if trick:
        follow = held & SUIT_MASKS[trick[0] // 13]
        return follow or held
    if not game._tricks and game._setup.rules.first_lead is FirstLead.TWO_OF_CLUBS:
        return 1 << _TWO_OF_CLUBS
    if game._broken:
        return held
    return held & _NON_SPADES or held


def legal_bid_values(game: Game) -> tuple[int, ...]:
    """The bids the variant allows the seat to act (the game must be in ``BID``).

    Calls the variant's :meth:`~spades_core.Variant.legal_bids` hook and checks
    its answer: a plugin that raises or answers nonsense gets a
    :class:`~spades_core.VariantLoadError` naming it.
    """
    seat = game._to_act
    return bid_values(game._setup, seat, game._held[seat], game._bids)


def bid_values(
    setup: GameSetup, seat: int, hand: int, bids: tuple[int | None, ...]
) -> tuple[int, ...]:
    """The bids the variant allows seat number ``seat`` holding the mask
    ``hand`` when ``bids`` (by seat, ``None`` for no bid yet) have been made;
    checked as :func:`legal_bid_values` describes."""
    made = MappingProxyType({SEATS[i]: b for i, b in enumerate(bids) if b is not None})
    cards: CardSet = _new_object(CardSet)
    _set_card_mask(cards, hand)
    return checked_legal_bids(setup.variant, setup.rules, SEATS[seat], cards, made)


# The bid actions of each answer of legal_bid_values (at most 2**14 distinct ones).
_BID_ACTIONS: Final[dict[tuple[int, ...], tuple[Bid, ...]]] = {}


def _bid_actions(values: tuple[int, ...]) -> tuple[Bid, ...]:
    actions = _BID_ACTIONS.get(values)
    if actions is None:
        actions = _BID_ACTIONS[values] = tuple(BIDS[value] for value in values)
    return actions


def legal_actions(game: Game) -> tuple[Action, ...]:
    """The legal actions of the seat to act (``Game.legal_actions`` caches this)."""
    phase = game._phase
    if phase is _PLAY:
        trick = game._trick
        if trick:
            led = trick[0] // 13
            follow = game._held[game._to_act] & SUIT_MASKS[led]
            if follow:
                found = _PLAYS_BY_SLICE[led][follow >> (13 * led)]
                return _plays_of_slice(led, follow >> (13 * led)) if found is None else found
        return plays_of_mask(legal_play_mask(game))
    if phase is _BID:
        return _bid_actions(legal_bid_values(game))
    if phase is _DEAL:
        return (DEAL_FROM_SEED,)
    return ()


def make_trick(leader: int, cards: Sequence[int], winner: int) -> Trick:
    """The :class:`Trick` record of four card ids led by seat number ``leader``."""
    trick: Trick = _new_object(Trick)
    _set_trick_leader(trick, SEATS[leader])
    _set_trick_cards(
        trick, (ALL_CARDS[cards[0]], ALL_CARDS[cards[1]], ALL_CARDS[cards[2]], ALL_CARDS[cards[3]])
    )
    _set_trick_winner(trick, SEATS[winner])
    return trick


def tricks_of_plays(first_leader: int, plays: Sequence[int]) -> tuple[Trick, ...]:
    """The :class:`Trick` records of card ids in play order (four per trick),
    the first trick led by seat number ``first_leader``."""
    tricks = []
    leader = first_leader
    for start in range(0, len(plays) - 3, 4):
        cards = tuple(plays[start : start + 4])
        winner = (leader + trick_winner(cards)) % 4
        tricks.append(make_trick(leader, cards, winner))
        leader = winner
    return tuple(tricks)


def card_ids(tricks: Sequence[Trick]) -> tuple[int, ...]:
    """The card ids of ``tricks`` in play order."""
    return tuple(card.id for trick in tricks for card in trick.cards)


def trick_winner(cards: tuple[int, ...]) -> int:
    """Position (0-3, from the leader) of the winning card among four card ids."""
    best = cards[0]
    position = 0
    for i in (1, 2, 3):
        card = cards[i]
        if card // 13 == best // 13:
            if card > best:
                best, position = card, i
        elif card >= _FIRST_SPADE:
            best, position = card, i
    return position


# -- checking ----------------------------------------------------------------


def _illegal(reason: IllegalReason, message: str) -> IllegalActionError:
    return IllegalActionError(reason, message)


def check(game: Game, action: object, seat: object = None) -> None:
    """Raise the :class:`IllegalActionError` that applying ``action`` (by
    ``seat``, if given: a :class:`Seat` or its name) would raise; return ``None``
    if it is legal."""
    if seat is not None and type(seat) is not Seat:
        try:
            seat = _check.seat(seat, "apply")
        except InvalidNotationError as error:
            raise _illegal(IllegalReason.NOT_YOUR_TURN, str(error)) from None
    phase = game._phase
    if seat is not None and (game._to_act == NO_SEAT or seat != game._to_act):
        if game._to_act == NO_SEAT:
            raise _illegal(
                IllegalReason.NOT_YOUR_TURN,
                f"no seat is to act now ({phase.name}); "
                + ("the game is over" if phase is Phase.GAME_OVER else "deal the next hand"),
            )
        name = seat.name if hasattr(seat, "name") else repr(seat)
        raise _illegal(
            IllegalReason.NOT_YOUR_TURN,
            f"it is {SEATS[game._to_act].name}'s turn, not {name}'s",
        )
    if isinstance(action, Deal):
        if phase is not Phase.DEAL:
            raise _wrong_phase(game, "deal")
        if action.hands is not None:
            deal_of(_explicit_hands(action))
        return
    if isinstance(action, Bid):
        if phase is not Phase.BID:
            raise _wrong_phase(game, "bid")
        legal = legal_bid_values(game)
        if action.value not in legal:
            who = SEATS[game._to_act].name
            shown = ", ".join("Nil" if b == 0 else str(b) for b in legal)
            raise _illegal(
                IllegalReason.BID_NOT_ALLOWED,
                f"{who} may not bid {action}; the {game._setup.variant.id} rules allow {shown}",
            )
        return
    if isinstance(action, Play):
        if phase is not Phase.PLAY:
            raise _wrong_phase(game, "play a card")
        _check_play(game, action.card.id)
        return
    raise _illegal(
        IllegalReason.NOT_AN_ACTION,
        f"not an action: {brief(action)}; use one of game.legal_actions(), a Bid or a Play",
    )


def _wrong_phase(game: Game, what: str) -> IllegalActionError:
    phase = game._phase
    needed = {
        Phase.DEAL: "the next hand must be dealt",
        Phase.BID: f"{SEATS[game._to_act].name} must bid" if game._to_act >= 0 else "",
        Phase.PLAY: f"{SEATS[game._to_act].name} must play a card" if game._to_act >= 0 else "",
        Phase.GAME_OVER: "the game is over",
    }[phase]
    return _illegal(IllegalReason.WRONG_PHASE, f"cannot {what} now: {needed}")


def _check_play(game: Game, card: int) -> None:
    seat = SEATS[game._to_act]
    held = game._held[seat]
    shown = ALL_CARDS[card]
    if not held >> card & 1:
        raise _illegal(IllegalReason.CARD_NOT_IN_HAND, f"{seat.name} does not hold {shown}")
    if legal_play_mask(game) >> card & 1:
        return
    trick = game._trick
    if trick:
        led = ALL_CARDS[trick[0]].suit
        follow = CardSet(held & SUIT_MASKS[led])
        raise _illegal(
            IllegalReason.MUST_FOLLOW_SUIT,
            f"{seat.name} must follow {led.name.lower()} ({follow}) and cannot play {shown}",
        )
    if not game._tricks and game._setup.rules.first_lead is FirstLead.TWO_OF_CLUBS:
        raise _illegal(
            IllegalReason.MUST_LEAD_TWO_OF_CLUBS,
            f"{seat.name} must lead the 2C to the first trick, not {shown}",
        )
    raise _illegal(
        IllegalReason.SPADES_NOT_BROKEN,
        f"{seat.name} cannot lead {shown}: spades are not broken and {seat.name} holds other suits",
    )


# -- transitions ---------------------------------------------------------------

# Game's attrs-made __init__ stores each field through object.__setattr__. The
# transitions build one game per action, so they store the slots directly: the
# same frozen, equal and hashable value with nothing cached, about a fifth sooner.
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
_set_trick_leader = _slot_setter("leader", Trick)
_set_trick_cards = _slot_setter("cards", Trick)
_set_trick_winner = _slot_setter("winner", Trick)
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


def _game(
    setup: GameSetup,
    phase: Phase,
    dealer: Seat,
    scores: tuple[int, int],
    bags: tuple[int, int],
    results: tuple[HandResult, ...],
    winner: Team | None,
    dealt: tuple[int, ...],
    held: tuple[int, ...],
    bids: tuple[int | None, ...],
    to_act: int,
    leader: int,
    trick: tuple[int, ...],
    won: tuple[int, ...],
    tricks: tuple[Trick, ...],
    broken: bool,
) -> Game:
    """``Game(...)`` with these fields, built without the attrs ``__init__``."""
    game: Game = _new_object(Game)
    _set_setup(game, setup)
    _set_phase(game, phase)
    _set_dealer(game, dealer)
    _set_scores(game, scores)
    _set_bags(game, bags)
    _set_results(game, results)
    _set_winner(game, winner)
    _set_dealt(game, dealt)
    _set_held(game, held)
    _set_bids(game, bids)
    _set_to_act(game, to_act)
    _set_leader(game, leader)
    _set_trick(game, trick)
    _set_won(game, won)
    _set_tricks(game, tricks)
    _set_broken(game, broken)
    _set_legal(game, None)
    return game


def apply(game: Game, action: object, seat: object = None) -> Game:
    """The game after ``action``; raises :class:`IllegalActionError` if it is not legal."""
    # Only a real Seat takes the fast path: True or 1.0 would equal a seat number.
    if seat is None or (type(seat) is Seat and seat == game._to_act):
        kind = type(action)
        if kind is Play:
            card = action.card.id  # type: ignore[attr-defined]
            if game._phase is _PLAY and legal_play_mask(game) >> card & 1:
                return play_unchecked(game, card)
        elif kind is Bid:
            if game._phase is _BID and _is_listed(action, game.legal_actions()):
                return bid_unchecked(game, action.value)  # type: ignore[attr-defined]
        elif kind is Deal and game._phase is _DEAL:
            return deal(game, action)
    check(game, action, seat)
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
    if game._phase is not _DEAL:
        raise _wrong_phase(game, "deal")
    if isinstance(hands, Deal):
        hands = _explicit_hands(hands)
    if hands is None:
        masks = rng.deal_masks(game._setup.seed, len(game._results), game._dealer)
    else:
        masks = tuple(cardset.mask for cardset in deal_of(hands).hands or ())  # type: ignore[assignment]
    first = (game._dealer + 1) % 4
    return _game(
        game._setup,
        _BID,
        game._dealer,
        game._scores,
        game._bags,
        game._results,
        None,
        masks,
        masks,
        _NO_BIDS,
        first,
        first,
        (),
        _NO_TRICKS,
        (),
        False,
    )


def _explicit_hands(action: Deal) -> object:
    # A Deal holds hands in seat order; deal_of reads a seat mapping and
    # reports anything else (wrong length, wrong type) as INVALID_DEAL.
    given = action.hands
    if isinstance(given, tuple) and len(given) == 4:
        return dict(zip(SEATS, given, strict=True))
    return given


def bid_unchecked(game: Game, value: int) -> Game:
    """The game after the seat to act bids ``value``, without checking it."""
    seat = game._to_act
    bids = list(game._bids)
    bids[seat] = value
    to_act = (seat + 1) % 4
    phase = _BID
    if to_act == (game._dealer + 1) % 4:
        phase = _PLAY
        if game._setup.rules.first_lead is FirstLead.TWO_OF_CLUBS:
            to_act = next(i for i in range(4) if game._held[i] & 1)
    return _game(
        game._setup,
        phase,
        game._dealer,
        game._scores,
        game._bags,
        game._results,
        None,
        game._dealt,
        game._held,
        tuple(bids),
        to_act,
        to_act,
        (),
        _NO_TRICKS,
        (),
        False,
    )


def play_unchecked(game: Game, card: int) -> Game:
    """The game after the seat to act plays card id ``card``, without checking it."""
    seat = game._to_act
    held_list = list(game._held)
    held_list[seat] ^= _BITS[card]
    held = tuple(held_list)
    trick = game._trick
    broken = game._broken
    if not broken and card >= _FIRST_SPADE:
        broken = bool(trick and trick[0] < _FIRST_SPADE) or (
            game._setup.rules.break_rule is BreakRule.ANY_SPADE
        )
    trick += (card,)
    if len(trick) < 4:
        return _game(
            game._setup,
            _PLAY,
            game._dealer,
            game._scores,
            game._bags,
            game._results,
            None,
            game._dealt,
            held,
            game._bids,
            (seat + 1) % 4,
            game._leader,
            trick,
            game._won,
            game._tricks,
            broken,
        )
    leader = game._leader
    winner = (leader + trick_winner(trick)) % 4
    won_list = list(game._won)
    won_list[winner] += 1
    won = tuple(won_list)
    tricks = (*game._tricks, make_trick(leader, trick, winner))
    if len(tricks) == 13:
        bids: tuple[int, ...] = game._bids  # type: ignore[assignment]  # all made by now
        return score_hand(game, game._dealt, bids, won, tricks[0].leader, card_ids(tricks), tricks)
    return _game(
        game._setup,
        _PLAY,
        game._dealer,
        game._scores,
        game._bags,
        game._results,
        None,
        game._dealt,
        held,
        game._bids,
        winner,
        winner,
        (),
        won,
        tricks,
        broken,
    )


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
    setup = game._setup
    variant = setup.variant
    rules = setup.rules
    points, bags = checked_score_hand(variant, rules, bids, won, game._bags)
    scores = (game._scores[0] + points[0], game._scores[1] + points[1])
    over, winner = checked_game_end(variant, rules, scores, len(game._results) + 1)
    dealer = game._dealer
    result: HandResult = _new_object(HandResult)
    _set_result_number(result, len(game._results))
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
    return between_hands(
        setup,
        dealer if over else SEATS[(dealer + 1) % 4],
        scores,
        bags,
        (*game._results, result),
        winner,
        over=over,
    )


def between_hands(
    setup: GameSetup,
    dealer: Seat,
    scores: tuple[int, int],
    bags: tuple[int, int],
    results: tuple[HandResult, ...],
    winner: Team | None,
    *,
    over: bool = False,
) -> Game:
    """A game with no hand in progress: waiting for ``dealer`` to deal, or over
    when ``winner`` is set or ``over`` (a draw)."""
    return _game(
        setup,
        _GAME_OVER if over or winner is not None else _DEAL,
        dealer,
        scores,
        bags,
        results,
        winner,
        _NO_CARDS,
        _NO_CARDS,
        _NO_BIDS,
        NO_SEAT,
        NO_SEAT,
        (),
        _NO_TRICKS,
        (),
        False,
    )
