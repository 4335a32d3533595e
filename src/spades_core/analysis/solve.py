"""Double-dummy values of a game in play: :func:`best_tricks` and :func:`card_tricks`.

Both read the position through the game's public API (the hands, the trick
in progress, whether spades are broken, the rules' break and first-lead
options) and search it with :class:`~spades_core.analysis._search.Search`,
which plays by the rules kernel (:mod:`spades_core.tricks`).

>>> import spades_core as sc
>>> from spades_core.analysis import best_tricks, card_tricks
>>> game = sc.new_game("classic", seed=3).deal()
>>> while game.phase is sc.Phase.BID or len(game.hand(game.to_act)) > 4:
...     game = game.apply(game.legal_actions()[0])  # to four tricks from the end
>>> values = card_tricks(game)
>>> best_tricks(game) == max(values.values())
True
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, final

import attrs

from spades_core.analysis._search import Search, equivalence_classes
from spades_core.engine import arguments
from spades_core.engine.game import SEATS, Game, Phase
from spades_core.engine.views import View
from spades_core.rules.legality import phase_refusal
from spades_core.rules.tricks import (
    FIRST_SPADE,
    NO_SUIT,
    RANKS,
    breaks_spades,
    legal_card_mask,
    rule_flags,
    trick_winner,
)
from spades_core.values.cards import ALL_CARDS, Card

__all__ = ["Position", "best_tricks", "card_tricks", "position_of", "position_seen"]

_WHAT: Final = "analyse the play"


@final
@attrs.frozen
class Position:
    """A position of the play as the search takes it, all ints: the four
    ``hands`` held (masks by seat number), the seat ``to_act``, the ``trick``
    in progress (card ids in play order), whether spades are ``broken``,
    ``any_spade`` (the break rule, :func:`~spades_core.tricks.rule_flags`)
    and ``first`` (the lead to come is the hand's first under
    ``first_lead=two_of_clubs``). Its fields are not checked: read one from a
    game with :func:`position_of`.

    The methods that take a ``search`` want one made by :meth:`search` (or
    sharing its table with one, for another position of the same deal)."""

    hands: tuple[int, int, int, int]
    to_act: int
    trick: tuple[int, ...]
    broken: bool
    any_spade: bool
    first: bool

    @property
    def tricks_left(self) -> int:
        """The tricks still to play, the one in progress included."""
        return self.hands[self.to_act].bit_count()

    def search(self) -> Search:
        """A new search over this position's cards."""
        return Search(list(self.hands), self.any_spade)

    def team_tricks(self, search: Search) -> int:
        """The most tricks the team of the seat to act takes of :attr:`tricks_left`."""
        left = self.tricks_left
        north_south = search.value(self.to_act, list(self.trick), self.broken, self.first, 0, left)
        return north_south if self.to_act % 2 == 0 else left - north_south

    def card_values(self, search: Search) -> dict[int, int]:
        """For each legal card id of the seat to act, the most tricks its team
        takes of :attr:`tricks_left` after playing it."""
        to_act = self.to_act
        held = self.hands[to_act]
        trick = list(self.trick)
        led = trick[0] // RANKS if trick else NO_SUIT
        legal = _legal_mask(self)
        alive = held | self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        for card in trick:
            alive |= 1 << card
        values: dict[int, int] = {}
        # No card does better than the best: a bound for each card's search.
        best = self.team_tricks(search)
        classes = equivalence_classes(held, alive) & legal
        # Each card stands for the cards of its run above it, up to the next
        # card held elsewhere or in the trick (equivalence_classes).
        others = alive & ~held
        while classes:
            low = classes & -classes
            classes ^= low
            card = low.bit_length() - 1
            value = self._after(search, card, led, best)
            values[card] = value
            run = card + 1
            while run % RANKS and not (others >> run) & 1:
                if (legal >> run) & 1:
                    values[run] = value
                run += 1
        return values

    def card_value(self, search: Search, card: int, best: int | None = None) -> int:
        """The most tricks the team of the seat to act takes of
        :attr:`tricks_left` after it plays the legal card id ``card``;
        ``best``, when given, is :meth:`team_tricks` (a bound for the search)."""
        trick = self.trick
        led = trick[0] // RANKS if trick else NO_SUIT
        return self._after(search, card, led, self.team_tricks(search) if best is None else best)

    def _after(self, search: Search, card: int, led: int, best: int) -> int:
        # The team of to_act's tricks of tricks_left once it plays card, at
        # most ``best``.
        to_act = self.to_act
        left = self.tricks_left
        hands = list(self.hands)
        hands[to_act] ^= 1 << card
        broken = self.broken
        if not broken and card >= FIRST_SPADE:
            broken = breaks_spades(card, led, self.any_spade)
        trick = [*self.trick, card]
        child = Search(hands, self.any_spade)
        child.table = search.table
        child.suit_keys = search.suit_keys
        child.best_moves = search.best_moves
        child.limit = search.limit
        won = 0
        if len(trick) < 4:
            seat = (to_act + 1) % 4
            rest = left
        else:
            seat = (to_act + 1 + trick_winner(trick)) % 4
            won = 1 if seat % 2 == 0 else 0
            rest = left - 1
            trick = []
        # North-South's tricks of the rest, bounded by the best for to_act's team.
        if to_act % 2 == 0:
            low, high = 0, min(rest, best - won)
        else:
            low, high = max(0, left - best - won), rest
        north_south = won + child.value(seat, trick, broken, False, low, high)
        search.nodes += child.nodes
        return north_south if to_act % 2 == 0 else left - north_south


def _legal_mask(position: Position) -> int:
    trick = position.trick
    return legal_card_mask(
        position.hands[position.to_act],
        trick[0] // RANKS if trick else NO_SUIT,
        position.broken,
        position.first,
    )


def position_of(game: Game, call: str = "position_of") -> Position:
    """The position of ``game`` (in ``PLAY``), read through its public API.

    Raises :class:`~spades_core.ArgumentTypeError` for anything but a
    :class:`~spades_core.Game`, and :class:`~spades_core.IllegalActionError`
    (``WRONG_PHASE``) for a game that is not in the play.
    """
    checked = arguments.game(game, call)
    to_act = checked.to_act
    if checked.phase is not Phase.PLAY or to_act is None:
        raise phase_refusal(checked.phase, -1 if to_act is None else int(to_act), _WHAT)
    hands = (
        checked.hand(SEATS[0]).mask,
        checked.hand(SEATS[1]).mask,
        checked.hand(SEATS[2]).mask,
        checked.hand(SEATS[3]).mask,
    )
    return _position(checked, hands, int(to_act))


def position_seen(view: View, hands: tuple[int, int, int, int]) -> Position:
    """The position of ``view`` (a view in ``PLAY`` with a seat to act) were
    the four hands held now ``hands`` (masks by seat number, as
    :func:`spades_core.bots.deal_sampler` samples them). The hands are not
    checked against the view."""
    to_act = view.to_act
    if view.phase is not Phase.PLAY or to_act is None:
        raise phase_refusal(view.phase, -1 if to_act is None else int(to_act), _WHAT)
    return _position(view, hands, int(to_act))


def _position(state: Game | View, hands: tuple[int, int, int, int], to_act: int) -> Position:
    # The one reading of a position's rules and trick, for a game and a view alike.
    any_spade, two_of_clubs = rule_flags(state.rules)
    trick = tuple(card.id for _, card in state.current_trick)
    started = bool(trick) or any(state.tricks_won[seat] for seat in SEATS)
    return Position(
        hands, to_act, trick, state.spades_broken, any_spade, two_of_clubs and not started
    )


def best_tricks(game: Game) -> int:
    """The most tricks the team of the seat to act can still take, of the
    tricks left to play (the one in progress included), with every hand
    seen and both teams playing perfectly.

    Raises :class:`~spades_core.ArgumentTypeError` for anything but a
    :class:`~spades_core.Game` and :class:`~spades_core.IllegalActionError`
    (reason ``WRONG_PHASE``) for a game that is not in the play.
    """
    position = position_of(game, "best_tricks")
    return position.team_tricks(position.search())


def card_tricks(game: Game) -> Mapping[Card, int]:
    """For each card the seat to act may play, the most tricks its team can
    still take after playing it (of the tricks left, the one in progress
    included), both teams then playing perfectly with every hand seen: a
    read-only mapping in card order. The best of them is :func:`best_tricks`.

    Raises as :func:`best_tricks` does.
    """
    position = position_of(game, "card_tricks")
    values = position.card_values(position.search())
    return MappingProxyType({ALL_CARDS[card]: values[card] for card in sorted(values)})
