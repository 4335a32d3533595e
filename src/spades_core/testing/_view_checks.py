"""The check that a seat's view shows what the seat may know and nothing else."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import partial

import attrs

from spades_core.engine.game import SEATS, Game, Phase
from spades_core.engine.views import View
from spades_core.rules.results import HandResult, Trick
from spades_core.testing._failure import ConformanceError, fail, guard
from spades_core.values.actions import Deal, Play
from spades_core.values.cards import Card, CardSet, Suit
from spades_core.values.seats import Seat

__all__ = ["check_views"]


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
    return attrs.evolve(game, dealt=tuple(dealt), held=tuple(held))


def _view_of(game: Game, seat: Seat | None) -> View:
    return game.public_view() if seat is None else game.view(seat)


def check_views(game: Game) -> None:
    """Every seat's view (and a spectator's) shows exactly the seat's own
    cards, no card hidden from it, no game object, only true spade counts, and
    does not change when two cards hidden from it are exchanged."""
    in_hand = game.phase in (Phase.BID, Phase.PLAY, Phase.VARIANT)
    for seat in (*SEATS, None):
        who = "the spectator" if seat is None else seat.name
        view = guard("views", f"view({who})", partial(_view_of, game, seat))
        own = game.hand(seat) if seat is not None and in_hand else CardSet(0)
        # A variant's phase may keep a seat's cards from it (Blind Nil), but
        # only before the seat has acted in the phase: then it shows none.
        kept_from_it = (
            game.phase is Phase.VARIANT
            and not view.hand()
            and all(step.seat != seat for step in game.phase_steps)
        )
        if view.hand() != own and not kept_from_it:
            fail("views", f"{who}'s view shows the hand {view.hand()}, not {own}")
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
                    fail(
                        "views",
                        f"{who}'s view shows {card}, which is hidden from it, in {field.name!r}",
                    )
        if view.hand_results != game.hand_results:
            fail("views", f"{who}'s view has other finished hands than the game")
        for other in SEATS:
            count = view.spade_counts[other]
            if count is not None and count != game.dealt_hand(other).count(Suit.SPADES):
                fail(
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
                twin_view = guard("views", f"view({who})", partial(_view_of, twin, seat))
                same = twin_view == view
                if same and not compared_text:
                    same = twin_view.to_dict() == view.to_dict() and repr(twin_view) == repr(view)
                    compared_text = True
                if not same:
                    fail(
                        "views",
                        f"{who}'s view changes when {first.name} and {second.name} exchange "
                        f"{suit.name.lower()} hidden from it",
                    )
