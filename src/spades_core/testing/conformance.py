"""The conformance suite every variant must pass: :func:`check_variant`.

It plays many games of the variant and checks, at every step:

``definition``
    the variant resolves its defaults and starts a game;
``cards_conserved``
    the four dealt hands partition the deck, and every card is either held or
    played, never both and never lost;
``thirteen_tricks``
    tricks have four cards, follow suit, go to the right card, and a hand is
    exactly 13 of them;
``turn_order``
    bidding starts left of the dealer, the trick winner leads, the deal rotates;
``legal_actions``
    the legal actions are non-empty until the game is over, have the right
    shape, and every one of them applies;
``illegal_actions``
    every other action is rejected with :class:`~spades_core.IllegalActionError`
    (and :meth:`~spades_core.Game.why_illegal` agrees), changing nothing;
``only_spades_errors``
    no exception other than a :class:`~spades_core.SpadesError` escapes a
    public call, whatever it is given;
``scores``
    hand scores and bags are whole numbers, and the running scores are the
    sums of the hand scores;
``game_end``
    the game ends with a winner, or goes on legally, under every combination
    of the variant's listable options (bounded by a number of hands);
``records``
    a game saved with :func:`spades_core.records.dumps` loads back equal;
``views``
    a seat's view shows its own hand and nothing it may not know: swapping
    two cards hidden from it does not change its view, and every spade count
    the variant reveals is true;
``same_seed``
    the same seed, options and actions give the same game.

A failure raises :class:`ConformanceError` naming the check and the seed of
the scenario: ``check_variant(variant, seed=N)`` replays exactly that scenario.
The single-state checks (:func:`check_game`, :func:`check_illegal_actions`,
:func:`check_views`, :func:`check_record`) are public too, for tests of your own.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, Final, NoReturn, TypeVar

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as HypothesisPhase
from hypothesis import strategies as st

from spades_core.actions import BIDS, DEAL_FROM_SEED, PLAYS, Action, Bid, Deal, Play
from spades_core.cards import ALL_CARDS, FULL_DECK_MASK, Card, CardSet, Suit
from spades_core.errors import IllegalActionError, IllegalReason, RulesError, SpadesError
from spades_core.game import new_game
from spades_core.options import FirstLead
from spades_core.records import dumps, loads
from spades_core.registry import load_variant
from spades_core.seats import Seat, Team
from spades_core.state import SEATS, Game, HandResult, Phase, Trick
from spades_core.testing.strategies import _pick_option_value, option_values
from spades_core.variant import (
    Variant,
    checked_game_end,
    checked_game_outcome,
    checked_score_hand,
)
from spades_core.views import View

__all__ = [
    "CHECKS",
    "ConformanceError",
    "check_game",
    "check_illegal_actions",
    "check_record",
    "check_variant",
    "check_views",
]

CHECKS: Final = (
    "definition",
    "cards_conserved",
    "thirteen_tricks",
    "turn_order",
    "legal_actions",
    "illegal_actions",
    "only_spades_errors",
    "scores",
    "game_end",
    "records",
    "views",
    "same_seed",
)
"""The names of the conformance checks, as :attr:`ConformanceError.check` reports them."""

T = TypeVar("T")


class ConformanceError(AssertionError):
    """A variant failed a conformance check.

    ``check`` is one of :data:`CHECKS`; ``seed`` (when not ``None``) replays the
    failing scenario with ``check_variant(variant, seed=seed)``.
    """

    def __init__(
        self,
        check: str,
        detail: str,
        *,
        variant_id: str | None = None,
        seed: int | None = None,
        where: str = "",
    ) -> None:
        self.check = check
        self.detail = detail
        self.variant_id = variant_id
        self.seed = seed
        self.where = where
        who = f"variant {variant_id!r}" if variant_id is not None else "the game"
        message = f"{who} fails the {check!r} check: {detail}"
        if where:
            message += f"\n  at: {where}"
        if seed is not None:
            message += f"\n  reproduce with: check_variant(variant, seed={seed})"
        super().__init__(message)

    def located(self, *, variant_id: str, seed: int | None, where: str) -> ConformanceError:
        """This failure with the scenario that produced it filled in."""
        located = ConformanceError(
            self.check,
            self.detail,
            variant_id=variant_id,
            seed=seed,
            where=self.where or where,
        )
        located.__cause__ = self.__cause__
        return located


def _fail(check: str, detail: str) -> NoReturn:
    raise ConformanceError(check, detail)


def _guard(check: str, what: str, call: Callable[[], T]) -> T:
    """``call()``; an error from it fails ``check`` (any SpadesError) or
    ``only_spades_errors`` (anything else)."""
    try:
        return call()
    except ConformanceError:
        raise
    except SpadesError as error:
        raise ConformanceError(check, f"{what} raised {type(error).__name__}: {error}") from error
    except Exception as error:
        raise ConformanceError(
            "only_spades_errors",
            f"{what} raised {type(error).__name__} (not a SpadesError): {error}",
        ) from error


def _snapshot(game: Game) -> tuple[object, ...]:
    return tuple(getattr(game, field.name) for field in attrs.fields(Game) if field.eq)


def _seat_text(seat: Seat | None) -> str:
    return "nobody" if seat is None else seat.name


# -- one state -------------------------------------------------------------------


def _expected_winner(trick: Trick) -> Seat:
    """The seat whose card wins the trick: the highest spade, else the highest
    card of the suit led (RULES.md section 1)."""
    led = trick.cards[0].id // 13
    best_seat, best = trick.leader, -1
    for seat, card in trick.plays:
        suit, rank = divmod(card.id, 13)
        strength = rank + (26 if suit == Suit.SPADES else 13 if suit == led else 0)
        if strength > best:
            best_seat, best = seat, strength
    return best_seat


def _check_tricks_of_hand(label: str, dealt: Sequence[CardSet], tricks: Sequence[Trick]) -> None:
    """Each trick: four cards, suit followed, right winner, the winner leads next."""
    holding = [hand.mask for hand in dealt]
    for number, trick in enumerate(tricks):
        if len(trick.cards) != 4:
            _fail("thirteen_tricks", f"{label} trick {number + 1} has {len(trick.cards)} cards")
        led = trick.cards[0].suit
        for seat, card in trick.plays:
            if not holding[seat] >> card.id & 1:
                _fail("cards_conserved", f"{label}: {seat.name} played {card} without holding it")
            if card.suit is not led and holding[seat] & led.mask:
                _fail(
                    "thirteen_tricks",
                    f"{label} trick {number + 1}: {seat.name} played {card} on a "
                    f"{led.name.lower()} lead while holding {led.name.lower()}",
                )
            holding[seat] ^= card.mask
        if trick.winner != _expected_winner(trick):
            _fail(
                "thirteen_tricks",
                f"{label} trick {number + 1} ({' '.join(map(str, trick.cards))} led by "
                f"{trick.leader.name}) went to {trick.winner.name}, "
                f"not {_expected_winner(trick).name}",
            )
        if number + 1 < len(tricks) and tricks[number + 1].leader != trick.winner:
            _fail("turn_order", f"{label} trick {number + 2} was not led by the last winner")


def _check_cards(game: Game) -> None:
    if game.phase not in (Phase.BID, Phase.PLAY):
        for seat in SEATS:
            if game.hand(seat):
                _fail("cards_conserved", f"{seat.name} holds cards outside a hand")
        return
    dealt = [game.dealt_hand(seat) for seat in SEATS]
    seen = 0
    for seat, hand in zip(SEATS, dealt, strict=True):
        if len(hand) != 13:
            _fail("cards_conserved", f"{seat.name} was dealt {len(hand)} cards, not 13")
        if seen & hand.mask:
            _fail("cards_conserved", f"{seat.name} was dealt a card another seat holds")
        seen |= hand.mask
    if seen != FULL_DECK_MASK:
        _fail("cards_conserved", "the deal does not cover the whole deck")
    played = [0, 0, 0, 0]
    for trick in game.tricks:
        for seat, card in trick.plays:
            played[seat] |= card.mask
    for seat, card in game.current_trick:
        played[seat] |= card.mask
    for seat in SEATS:
        held = game.hand(seat).mask
        if held & played[seat]:
            _fail("cards_conserved", f"{seat.name} still holds a card it played")
        if held | played[seat] != dealt[seat].mask:
            _fail(
                "cards_conserved",
                f"{seat.name}'s held and played cards are not what it was dealt",
            )


def _check_hand_in_progress(game: Game) -> None:
    phase = game.phase
    tricks = game.tricks
    current = game.current_trick
    if phase is not Phase.PLAY and (tricks or current):
        _fail("thirteen_tricks", f"tricks are recorded in the {phase.name} phase")
    if phase is Phase.PLAY:
        if len(tricks) > 12:
            _fail("thirteen_tricks", f"{len(tricks)} tricks completed and the hand not scored")
        if len(current) > 3:
            _fail("thirteen_tricks", "the current trick has four cards and was not completed")
        dealt = [game.dealt_hand(seat) for seat in SEATS]
        _check_tricks_of_hand("this hand", dealt, tricks)
        won = [0, 0, 0, 0]
        for trick in tricks:
            won[trick.winner] += 1
        if list(game.tricks_won.values()) != won:
            _fail("thirteen_tricks", f"tricks_won {list(game.tricks_won.values())} != {won}")


def _check_turn(game: Game) -> None:
    phase = game.phase
    first = game.first_dealer
    expected_dealer = SEATS[(first + max(game.hand_number - (phase is Phase.GAME_OVER), 0)) % 4]
    if game.dealer != expected_dealer:
        _fail("turn_order", f"hand {game.hand_number} is dealt by {game.dealer.name}")
    bids = game.bids
    if phase is Phase.BID:
        order = [SEATS[(game.dealer + 1 + i) % 4] for i in range(4)]
        if set(bids) != set(order[: len(bids)]) or len(bids) > 3:
            _fail("turn_order", f"bids {dict(bids)} are not in order from left of the dealer")
        if game.to_act != order[len(bids)]:
            _fail("turn_order", f"{_seat_text(game.to_act)} is to bid, not {order[len(bids)].name}")
    elif phase is Phase.PLAY:
        if len(bids) != 4:
            _fail("turn_order", f"play started with {len(bids)} bids")
        leader = game.leader
        if leader is None:
            _fail("turn_order", "no leader during play")
        if game.tricks:
            expected_leader = game.tricks[-1].winner
        elif game.rules.first_lead is FirstLead.TWO_OF_CLUBS:
            expected_leader = next(s for s in SEATS if ALL_CARDS[0] in game.dealt_hand(s))
        else:
            expected_leader = SEATS[(game.dealer + 1) % 4]
        if leader != expected_leader:
            _fail("turn_order", f"{leader.name} leads; {expected_leader.name} should")
        on_move = SEATS[(leader + len(game.current_trick)) % 4]
        if game.to_act != on_move:
            _fail("turn_order", f"{_seat_text(game.to_act)} is to play, not {on_move.name}")
        if [seat for seat, _ in game.current_trick] != [
            SEATS[(leader + i) % 4] for i in range(len(game.current_trick))
        ]:
            _fail("turn_order", "the current trick is not played clockwise from the leader")
    elif game.to_act is not None:
        _fail("turn_order", f"{game.to_act.name} is to act in the {phase.name} phase")


def _check_results(game: Game) -> None:
    variant = game.variant
    scores = (0, 0)
    bags = (0, 0)
    results = game.hand_results
    for number, result in enumerate(results):
        label = f"hand {number}"
        if result.number != number:
            _fail("scores", f"{label} is numbered {result.number}")
        if result.dealer != SEATS[(game.first_dealer + number) % 4]:
            _fail("turn_order", f"{label} was dealt by {result.dealer.name}")
        points = tuple(result.points.values())
        hand_bags = tuple(result.bags.values())
        if len(points) != 2 or any(type(p) is not int for p in points):
            _fail("scores", f"{label} scored {points!r}: hand scores must be whole numbers")
        if len(hand_bags) != 2 or any(type(b) is not int or b < 0 for b in hand_bags):
            _fail("scores", f"{label} left bags {hand_bags!r}: bags are whole numbers >= 0")
        scores = (scores[0] + points[0], scores[1] + points[1])
        if tuple(result.scores.values()) != scores:
            _fail(
                "scores",
                f"{label}: running scores {tuple(result.scores.values())} are not the "
                f"sum of the hand scores {scores}",
            )
        bags = (hand_bags[0], hand_bags[1])
        if any(type(b) is not int or not 0 <= b <= 13 for b in result.bids.values()):
            _fail("scores", f"{label} has bids {list(result.bids.values())}")
        if len(result.played) != 13:
            _fail("thirteen_tricks", f"{label} was scored after {len(result.played)} tricks")
        won = [0, 0, 0, 0]
        for trick in result.played:
            won[trick.winner] += 1
        if list(result.tricks.values()) != won or sum(won) != 13:
            _fail("thirteen_tricks", f"{label} credits tricks {list(result.tricks.values())}")
        dealt = list(result.deal.values())
        if (
            sum(len(hand) for hand in dealt) != 52
            or CardSet(sum(hand.mask for hand in dealt)) != CardSet.full_deck()
        ):
            _fail("cards_conserved", f"{label} was not dealt the whole deck")
        _check_tricks_of_hand(label, dealt, result.played)
        over, outcome = _guard(
            "game_end",
            "game_outcome",
            partial(checked_game_end, variant, game.rules, scores, number + 1),
        )
        final = number == len(results) - 1 and game.is_over
        if final and (not over or outcome != game.winner):
            _fail("game_end", f"the game ended with winner {game.winner}; the rules say {outcome}")
        if not final and over:
            _fail("game_end", f"after {label} the game is over by the rules but play went on")
    if tuple(game.scores.values()) != scores:
        _fail("scores", f"scores {tuple(game.scores.values())} != sum of hand scores {scores}")
    if tuple(game.bags.values()) != bags:
        _fail("scores", f"bags {tuple(game.bags.values())} != bags after the last hand {bags}")


def _check_legal_shape(game: Game) -> None:
    legal = _guard("legal_actions", "legal_actions()", game.legal_actions)
    phase = game.phase
    over = game.is_over
    # A game without a winner is over only as a draw at the hand limit.
    draw = (
        len(game.hand_results) == game.rules.max_hands
        and game.scores[Team.NS] == game.scores[Team.EW]
    )
    if over != (phase is Phase.GAME_OVER) or over != (game.winner is not None or draw):
        _fail("game_end", f"phase {phase.name} with winner {game.winner}")
    if over:
        if legal:
            _fail("legal_actions", f"the game is over but {len(legal)} actions are legal")
        return
    if not legal:
        _fail("legal_actions", f"no legal action in the {phase.name} phase")
    if phase is Phase.DEAL:
        if legal != (DEAL_FROM_SEED,):
            _fail("legal_actions", f"the DEAL phase offers {legal!r}")
        return
    if phase is Phase.BID:
        values = [action.value for action in legal if type(action) is Bid]
        if len(values) != len(legal):
            _fail("legal_actions", f"the BID phase offers {legal!r}")
        if values != sorted(set(values)) or tuple(values) != game.legal_bids():
            _fail("legal_actions", f"legal bids {values} are not distinct and ascending")
        return
    played = [action.card for action in legal if type(action) is Play]
    if len(played) != len(legal):
        _fail("legal_actions", f"the PLAY phase offers {legal!r}")
    seat = game.to_act
    if seat is None:
        _fail("turn_order", "nobody is to play in the PLAY phase")
    held = game.hand(seat)
    offered = CardSet.of(played)
    if offered != game.legal_plays() or len(offered) != len(legal):
        _fail("legal_actions", "legal_plays() and legal_actions() disagree")
    current = game.current_trick
    if current:
        led = current[0][1].suit
        expected = held.suit(led) or held
    elif not game.tricks and game.rules.first_lead is FirstLead.TWO_OF_CLUBS:
        expected = CardSet(ALL_CARDS[0].mask)
    elif game.spades_broken:
        expected = held
    else:
        expected = (held - held.suit(Suit.SPADES)) or held
    if offered != expected:
        _fail("legal_actions", f"{seat.name} may play {offered}; the rules allow {expected}")


def check_game(game: Game, *, finished_hands: bool = True) -> None:
    """Check every invariant of one game state (cards, tricks, turn order,
    scores, game end, the shape of the legal actions); raise
    :class:`ConformanceError` on the first one broken.

    ``finished_hands=False`` skips re-checking the finished hands, which do
    not change while a hand is played.

    >>> import spades_core as sc
    >>> check_game(sc.new_game("classic", seed=1).deal().bid(3))
    """
    _check_cards(game)
    _check_hand_in_progress(game)
    _check_turn(game)
    if finished_hands:
        _check_results(game)
    _check_legal_shape(game)


def _check_scoring_hooks(game: Game, last: Play) -> None:
    """Call the variant's scoring hooks on the hand ``last`` completes, before
    the engine does, so a malformed answer is reported as what it is."""
    variant, rules = game.variant, game.rules
    leader = game.leader
    assert leader is not None
    cards = (*(card for _, card in game.current_trick), last.card)
    winner = _expected_winner(Trick(leader, cards, leader))
    won = list(game.tricks_won.values())
    won[winner] += 1
    bids = tuple(game.bids[seat] for seat in SEATS)
    bags_before = (game.bags[Team.NS], game.bags[Team.EW])
    try:
        points, _ = checked_score_hand(variant, rules, bids, tuple(won), bags_before)
    except SpadesError as error:
        raise ConformanceError(
            "scores", f"for bids {list(bids)} and tricks {won}: {error}"
        ) from error
    scores = (game.scores[Team.NS] + points[0], game.scores[Team.EW] + points[1])
    try:
        checked_game_outcome(variant, rules, scores)
    except SpadesError as error:
        raise ConformanceError("game_end", str(error)) from error


def check_legal_actions_apply(game: Game) -> None:
    """Every legal action applies, :meth:`~spades_core.Game.why_illegal` accepts
    it, and ``game`` is left unchanged. Before the card that ends a hand, the
    variant's scoring hooks are called and their answers checked."""
    before = _snapshot(game)
    if game.phase is Phase.PLAY and len(game.tricks) == 12 and len(game.current_trick) == 3:
        for action in game.legal_actions():
            if isinstance(action, Play):
                _check_scoring_hooks(game, action)
    for action in game.legal_actions():
        _guard("legal_actions", f"applying the legal {action!r}", partial(game.apply, action))
        verdict = _guard("legal_actions", "why_illegal", partial(game.why_illegal, action))
        if verdict is not None:
            _fail("legal_actions", f"why_illegal({action!r}) objects to a legal action: {verdict}")
    if _snapshot(game) != before:
        _fail("legal_actions", "applying an action changed the game it was applied to")


_JUNK_ACTIONS: Final[tuple[object, ...]] = (None, "ZZ", 7, 2.5, object(), Bid(99), Bid(-1))


def _junk_calls(game: Game) -> Iterator[tuple[str, Callable[[], object]]]:
    # Deliberately ill-typed input: what a caller without a type checker may pass.
    loose: Any = game
    for junk in _JUNK_ACTIONS:
        yield f"apply({junk!r})", partial(loose.apply, junk)
    for value in (-1, 14, "x", None, True, 2.0):
        yield f"bid({value!r})", partial(loose.bid, value)
    for card in ("ZZ", "", None, 52, "AS AS"):
        yield f"play({card!r})", partial(loose.play, card)
    yield "deal(bad hands)", partial(loose.deal, {"N": ["AS"]})
    yield "apply(Deal(bad hands))", partial(game.apply, Deal((CardSet(0),) * 4))
    for seat in (7, -1, "X", 1.5):
        yield f"view({seat!r})", partial(loose.view, seat)
        yield f"hand({seat!r})", partial(loose.hand, seat)
    if game.to_act is not None and game.legal_actions():
        other = game.to_act.next
        legal = game.legal_actions()[0]
        yield f"apply({legal!r}, seat={other.name})", partial(game.apply, legal, seat=other)


def check_illegal_actions(game: Game) -> None:
    """Every action that is not legal is rejected with
    :class:`~spades_core.IllegalActionError` (``why_illegal`` returns the same
    reason), junk input raises a :class:`~spades_core.SpadesError`, and
    nothing changes the game.

    >>> import spades_core as sc
    >>> check_illegal_actions(sc.new_game("whiz", seed=2).deal())
    """
    before = _snapshot(game)
    legal = set(_guard("legal_actions", "legal_actions()", game.legal_actions))
    candidates: tuple[Action, ...] = (DEAL_FROM_SEED, *BIDS, *PLAYS)
    for action in candidates:
        if action in legal:
            continue
        verdict = _guard(
            "illegal_actions", f"why_illegal({action!r})", partial(game.why_illegal, action)
        )
        if not isinstance(verdict, IllegalActionError):
            _fail(
                "illegal_actions",
                f"why_illegal({action!r}) accepts an action not in legal_actions()",
            )
        try:
            game.apply(action)
        except IllegalActionError as error:
            if error.reason is not verdict.reason:
                _fail(
                    "illegal_actions",
                    f"apply({action!r}) says {error.reason.name}; "
                    f"why_illegal says {verdict.reason.name}",
                )
        except SpadesError as error:
            _fail(
                "illegal_actions",
                f"apply({action!r}) raised {type(error).__name__}, not IllegalActionError: {error}",
            )
        except Exception as error:
            raise ConformanceError(
                "only_spades_errors", f"apply({action!r}) raised {type(error).__name__}: {error}"
            ) from error
        else:
            _fail(
                "illegal_actions", f"{action!r} is not in legal_actions() but apply() accepted it"
            )
    for what, call in _junk_calls(game):
        try:
            call()
        except SpadesError as error:
            if (
                what.startswith("apply(")
                and "seat=" in what
                and (
                    not isinstance(error, IllegalActionError)
                    or error.reason is not IllegalReason.NOT_YOUR_TURN
                )
            ):
                _fail("illegal_actions", f"{what} raised {error!r}, not NOT_YOUR_TURN")
        except Exception as error:
            raise ConformanceError(
                "only_spades_errors",
                f"{what} raised {type(error).__name__} (not a SpadesError): {error}",
            ) from error
        else:
            _fail("illegal_actions", f"{what} was accepted")
    if _snapshot(game) != before:
        _fail("illegal_actions", "a rejected action changed the game")


def _cards_in(value: object, found: list[Card], depth: int = 0) -> None:
    """Collect every card reachable from a view's field (cards, card sets,
    actions, tricks, containers), to make sure none is hidden from the viewer."""
    if depth > 6:
        return
    if isinstance(value, Card):
        found.append(value)
    elif isinstance(value, CardSet):
        found.extend(value)
    elif isinstance(value, Play):
        found.append(value.card)
    elif isinstance(value, Deal) and value.hands is not None:
        for hand in value.hands:
            found.extend(hand)
    elif isinstance(value, Game | HandResult):
        raise ConformanceError("views", f"a view holds a {type(value).__name__}")
    elif isinstance(value, Trick):
        found.extend(value.cards)
    elif isinstance(value, Mapping):
        for item in value.values():
            _cards_in(item, found, depth + 1)
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            _cards_in(item, found, depth + 1)


def _swapped(game: Game, first: Seat, second: Seat, suit: Suit) -> Game | None:
    """``game`` with the highest unplayed ``suit`` card of ``first`` and of
    ``second`` exchanged: a deal that nobody else can tell apart, or ``None``
    if one of them holds no card of ``suit``."""
    card_a = game.hand(first).suit(suit).highest()
    card_b = game.hand(second).suit(suit).highest()
    if card_a is None or card_b is None:
        return None
    change = card_a.mask | card_b.mask
    dealt = list(game._dealt)
    held = list(game._held)
    for seat in (first, second):
        dealt[seat] ^= change
        held[seat] ^= change
    return attrs.evolve(game, dealt=tuple(dealt), held=tuple(held), legal=None)


def _view_of(game: Game, seat: Seat | None) -> View:
    return game.public_view() if seat is None else game.view(seat)


def check_views(game: Game) -> None:
    """Every seat's view (and a spectator's) shows exactly the seat's own
    cards, no card hidden from it, no game object, only true spade counts, and
    does not change when two cards hidden from it are exchanged."""
    in_hand = game.phase in (Phase.BID, Phase.PLAY)
    for seat in (*SEATS, None):
        who = "the spectator" if seat is None else seat.name
        view = _guard("views", f"view({who})", partial(_view_of, game, seat))
        own = game.hand(seat) if seat is not None and in_hand else CardSet(0)
        if view.hand != own:
            _fail("views", f"{who}'s view shows the hand {view.hand}, not {own}")
        hidden = 0
        for other in SEATS:
            if other != seat:
                hidden |= game.hand(other).mask
        for field in attrs.fields(type(view)):
            if field.name in ("variant", "rules", "hand_results"):
                continue
            found: list[Card] = []
            _cards_in(getattr(view, field.name), found)
            for card in found:
                if hidden >> card.id & 1:
                    _fail(
                        "views",
                        f"{who}'s view shows {card}, which is hidden from it, in {field.name!r}",
                    )
        if view.hand_results != game.hand_results:
            _fail("views", f"{who}'s view has other finished hands than the game")
        for other in SEATS:
            count = view.spade_counts[other]
            if count is not None and count != game.dealt_hand(other).count(Suit.SPADES):
                _fail(
                    "views",
                    f"{who}'s view says {other.name} was dealt {count} spades; "
                    f"it was dealt {game.dealt_hand(other).count(Suit.SPADES)}",
                )
        if not in_hand:
            continue
        others = [other for other in SEATS if other != seat]
        compared_text = False
        for first, second in itertools.combinations(others, 2):
            for suit in Suit:
                twin = _swapped(game, first, second, suit)
                if twin is None:
                    continue
                twin_view = _guard("views", f"view({who})", partial(_view_of, twin, seat))
                same = twin_view == view
                if same and not compared_text:
                    same = twin_view.to_dict() == view.to_dict() and repr(twin_view) == repr(view)
                    compared_text = True
                if not same:
                    _fail(
                        "views",
                        f"{who}'s view changes when {first.name} and {second.name} exchange "
                        f"{suit.name.lower()} hidden from it",
                    )


def check_record(game: Game) -> None:
    """The game saved with :func:`spades_core.records.dumps` loads back equal,
    and saves again to the same text."""
    text = _guard("records", "dumps", lambda: dumps(game))
    back = _guard("records", "loads", lambda: loads(text, variant=game.variant))
    if back != game:
        _fail("records", f"the record loads back as a different game: {text[:200]}")
    if _guard("records", "dumps", lambda: dumps(back)) != text:
        _fail("records", "a loaded record saves to different text")


# -- scenarios -----------------------------------------------------------------------


@attrs.frozen
class _Scenario:
    seed: int
    options: dict[str, object]
    game_seed: int
    dealer: Seat | None
    explicit_deals: bool
    playable: bool
    """False when the variant rejects the scenario's option combination."""


def _grid(
    variant: Variant, extra: Mapping[str, Sequence[object]] | None
) -> list[dict[str, object]]:
    values = option_values(variant, extra)
    names = sorted(values)
    return [
        dict(zip(names, combo, strict=True))
        for combo in itertools.product(*(values[n] for n in names))
    ]


def _accepts(variant: Variant, options: Mapping[str, object]) -> bool:
    try:
        variant.rules(**options)
    except RulesError:
        return False
    return True


def _scenario(
    variant: Variant,
    seed: int,
    grid: Sequence[Mapping[str, object]],
    extra: Mapping[str, Sequence[object]] | None,
) -> _Scenario:
    """The scenario of ``seed``: the option combination ``seed`` indexes in
    ``grid``, other options picked at random (again if the variant rejects
    them, see :meth:`~spades_core.Variant.check_rules`), game seed, dealer."""
    rnd = random.Random(seed)
    combination = dict(grid[seed % len(grid)]) if grid else {}
    options = combination
    for _ in range(10):
        options = dict(combination)
        for name, spec in variant.option_specs.items():
            if name in options or rnd.random() < 0.5:
                continue
            known, value = _pick_option_value(name, spec, rnd, extra)
            if known:
                options[name] = value
        if _accepts(variant, options):
            break
    else:
        options = combination
    return _Scenario(
        seed=seed,
        options=options,
        game_seed=rnd.getrandbits(64),
        dealer=rnd.choice((None, *SEATS)),
        explicit_deals=rnd.random() < 0.3,
        playable=_accepts(variant, options),
    )


def _random_deal(rnd: random.Random) -> Deal:
    deck = list(ALL_CARDS)
    rnd.shuffle(deck)
    return Deal(
        (
            CardSet.of(deck[0:13]),
            CardSet.of(deck[13:26]),
            CardSet.of(deck[26:39]),
            CardSet.of(deck[39:52]),
        )
    )


def _describe(game: Game, steps: int, options: Mapping[str, object]) -> str:
    return (
        f"hand {game.hand_number}, {game.phase.name}, after {steps} actions, "
        f"options {dict(options)!r}"
    )


def _play_scenario(variant: Variant, scenario: _Scenario, *, hands: int, thorough: bool) -> None:
    if not scenario.playable:
        return
    options = scenario.options
    game = _guard(
        "definition",
        f"new_game(seed={scenario.game_seed}, dealer={scenario.dealer}, **{options!r})",
        lambda: new_game(variant, seed=scenario.game_seed, dealer=scenario.dealer, **options),
    )
    start = game
    if thorough:
        again = _guard(
            "same_seed",
            "new_game with the same seed",
            lambda: new_game(variant, seed=scenario.game_seed, dealer=scenario.dealer, **options),
        )
        if again != start:
            _fail("same_seed", "two new games with the same seed and options differ")
    choices = random.Random(scenario.seed)
    probes = random.Random(scenario.seed ^ 0x5EED)
    actions: list[Action] = []
    phase_seen: set[tuple[int, Phase]] = set()
    record_at = probes.randrange(1, 57 * hands)
    steps = 0
    try:
        while not game.is_over and game.hand_number < hands:
            new_phase = (game.hand_number, game.phase) not in phase_seen
            phase_seen.add((game.hand_number, game.phase))
            if game.phase is Phase.DEAL:
                check_game(game)
            elif thorough:
                check_game(game, finished_hands=False)
            if thorough:
                check_legal_actions_apply(game)
                if new_phase or probes.random() < 0.04:
                    check_illegal_actions(game)
                    check_views(game)
                if steps == record_at:
                    check_record(game)
            if game.phase is Phase.DEAL and scenario.explicit_deals:
                action: Action = _random_deal(choices)
            else:
                legal = _guard("legal_actions", "legal_actions()", game.legal_actions)
                if not legal:
                    _fail("legal_actions", f"no legal action in the {game.phase.name} phase")
                action = legal[choices.randrange(len(legal))]
            ends_hand = len(game.tricks) == 12 and len(game.current_trick) == 3
            if not thorough and ends_hand and isinstance(action, Play):
                _check_scoring_hooks(game, action)
            game = _guard(
                "legal_actions", f"applying the legal {action!r}", partial(game.apply, action)
            )
            actions.append(action)
            steps += 1
        check_game(game)
        check_illegal_actions(game)
        if game.is_over == (game.phase is not Phase.GAME_OVER) or (
            not game.is_over and game.legal_actions() != (DEAL_FROM_SEED,)
        ):
            _fail(
                "game_end", f"after {game.hand_number} hands the game is neither over nor dealing"
            )
        if thorough:
            check_views(game)
            check_record(game)
            replay = start
            for number, action in enumerate(actions):
                replay = _guard(
                    "same_seed",
                    f"replaying action {number} ({action!r})",
                    partial(replay.apply, action),
                )
            if replay != game:
                _fail(
                    "same_seed", "replaying the same actions from the same seed gives another game"
                )
    except ConformanceError as error:
        raise error.located(
            variant_id=variant.id, seed=scenario.seed, where=_describe(game, steps, options)
        ) from error.__cause__


def _check_definition(variant: Variant) -> None:
    if not isinstance(variant, Variant):
        _fail("definition", f"{variant!r} is not a spades_core.Variant")
    rules = _guard("definition", "rules()", variant.rules)
    for name in variant.option_specs:
        if name not in variant.defaults:
            _fail("definition", f"option {name!r} has no default")
    if rules.overrides:
        _fail("definition", "rules() with no overrides reports overrides")
    game = _guard("definition", "new_game", lambda: new_game(variant, seed=0))
    if game.variant is not variant or game.rules != rules:
        _fail("definition", "a new game does not keep the variant and its default rules")


def check_variant(
    variant: Variant | str,
    *,
    max_examples: int = 25,
    hands: int = 2,
    seed: int | None = None,
    combinations: bool = True,
    extra_option_values: Mapping[str, Sequence[object]] | None = None,
) -> None:
    """Run the conformance suite on ``variant`` (a :class:`~spades_core.Variant`
    or an installed variant's id); raise :class:`ConformanceError` on the
    first failure, naming the check and the seed that reproduces it.

    * ``max_examples`` random scenarios (drawn by Hypothesis, so its settings
      profile decides whether they are derandomized) each play up to ``hands``
      hands with random legal actions and every check at every step;
    * with ``combinations`` (the default), one hand is also played under every
      combination of the variant's listable options (see
      :func:`~spades_core.testing.strategies.option_values`), checking the
      state at every deal and the end;
    * ``seed`` replays only the scenario of that seed (from a failure message);
    * ``extra_option_values`` lists values to try for options the variant
      defines itself (otherwise they keep their defaults).

    Each scenario's options, game seed, dealer and choices follow from its seed.
    """
    if isinstance(variant, Variant):
        chosen = variant
    else:
        try:
            chosen = _guard("definition", "load_variant", partial(load_variant, variant))
        except ConformanceError as error:
            raise error.located(variant_id=str(variant), seed=None, where="") from error.__cause__
    try:
        _check_definition(chosen)
    except ConformanceError as error:
        raise error.located(
            variant_id=getattr(chosen, "id", repr(chosen)), seed=None, where=""
        ) from error.__cause__
    grid = _grid(chosen, extra_option_values)
    if seed is not None:
        _play_scenario(
            chosen, _scenario(chosen, seed, grid, extra_option_values), hands=hands, thorough=True
        )
        return
    if combinations:
        played = 0
        for index in range(max(len(grid), 1)):
            scenario = _scenario(chosen, index, grid, extra_option_values)
            played += scenario.playable
            _play_scenario(chosen, scenario, hands=1, thorough=False)
        if not played:
            raise ConformanceError(
                "definition",
                "the variant rejects every combination of its listable options",
                variant_id=chosen.id,
            )

    if max_examples < 1:
        return

    @settings(
        max_examples=max_examples,
        deadline=None,
        database=None,
        phases=(HypothesisPhase.explicit, HypothesisPhase.generate),
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.integers(0, 2**32 - 1))
    def scenario_passes(scenario_seed: int) -> None:
        _play_scenario(
            chosen,
            _scenario(chosen, scenario_seed, grid, extra_option_values),
            hands=hands,
            thorough=True,
        )

    scenario_passes()
