"""A finished hand replayed card by card against the double-dummy values: :func:`review`.

For every card of the hand, the position before it is solved (every hand
seen, both teams playing perfectly from there on), and a card is reported
as a :class:`Mistake` when

* it **cost the contract**: the team of the seat that played it still needed
  tricks for its contract (the team's bids other than Nil, less the tricks it
  had), and after the card it could take fewer of them than with its best
  card (:attr:`MistakeKind.COST_TRICKS`); or
* it took a **needless bag**: the team had made its contract already, the
  card was the last of its trick and won it for the team, and another card
  that seat held would have let the other team win it
  (:attr:`MistakeKind.NEEDLESS_BAG`).

The contract is judged by the team's tricks against its bids other than
Nil, however the rules count a Nil bidder's tricks, and a Nil bidder's own
aim (taking no trick) is not judged. The positions of one hand share one
transposition table, so the whole hand costs about as much as solving it
from its first lead.
"""

from __future__ import annotations

import enum
from typing import Final, final

import attrs

from spades_core.analysis._search import Search
from spades_core.analysis.solve import Position
from spades_core.engine import arguments
from spades_core.engine.game import SEATS, Game
from spades_core.rules.tricks import (
    FIRST_SPADE,
    NO_SUIT,
    RANKS,
    breaks_spades,
    legal_card_mask,
    rule_flags,
    trick_winner,
)
from spades_core.values import checks
from spades_core.values.cards import ALL_CARDS, Card
from spades_core.values.errors import RulesError
from spades_core.values.seats import Seat

__all__ = ["Mistake", "MistakeKind", "review"]

_TEAM_NAMES: Final = ("North-South", "East-West")


class MistakeKind(enum.StrEnum):
    """What a reported card did wrong."""

    COST_TRICKS = "cost_tricks"
    """It left its team fewer of the tricks its contract still needed."""
    NEEDLESS_BAG = "needless_bag"
    """With the contract made, it won a trick another card would have lost."""


@final
@attrs.frozen
class Mistake:
    """One card of a reviewed hand that did its team harm, with a better one.

    ``hand`` and ``trick`` count from 0 and 1 (as ``game.hand_results`` and
    the board do). For :attr:`MistakeKind.COST_TRICKS`, ``tricks`` is the most
    tricks the team could take of those left (the card's trick included)
    after ``card``, ``best`` the most with ``better``, and ``needed`` what its
    contract still needed before the card. For a needless bag, ``tricks`` is
    1 (the bag) and ``best`` and ``needed`` 0.
    """

    kind: MistakeKind
    hand: int
    trick: int
    seat: Seat
    card: Card
    better: Card
    tricks: int
    best: int
    needed: int

    @property
    def bag(self) -> bool:
        """Whether the card took a needless bag (:attr:`MistakeKind.NEEDLESS_BAG`)."""
        return self.kind is MistakeKind.NEEDLESS_BAG

    @property
    def cost(self) -> int:
        """What the card threw away: for :attr:`MistakeKind.COST_TRICKS` the
        tricks of those the contract still needed that the team could no
        longer take (``min(best, needed) - min(tricks, needed)``, at least 1),
        for a needless bag 1, the bag."""
        if self.bag:
            return 1
        return min(self.best, self.needed) - min(self.tricks, self.needed)

    def describe(self) -> str:
        """The mistake in a sentence, seats and cards as the board shows them."""
        team = _TEAM_NAMES[self.seat.team]
        where = f"Hand {self.hand + 1}, trick {self.trick}: {self.seat.name.title()} played"
        if self.kind is MistakeKind.NEEDLESS_BAG:
            return (
                f"{where} {self.card.symbol} and took a needless bag: {team} had made its "
                f"contract, and {self.better.symbol} would have let the trick go."
            )
        return (
            f"{where} {self.card.symbol}; {team} needed {self.needed} more "
            f"trick{'' if self.needed == 1 else 's'} and could take {self.best} with "
            f"{self.better.symbol}, but only {self.tricks} after {self.card.symbol}."
        )


def review(game: Game, hand_index: int) -> tuple[Mistake, ...]:
    """Each card of finished hand ``hand_index`` (from 0) of ``game`` that
    cost its team tricks its contract needed, or took a needless bag, in
    play order (see the module's docstring for what counts).

    Raises :class:`~spades_core.ArgumentTypeError` for a non-game or a
    ``hand_index`` that is not a whole number, and
    :class:`~spades_core.RulesError` for one that is not a finished hand.
    """
    checked = arguments.game(game, "review")
    index = checks.whole_number(hand_index, "review", "hand_index")
    results = checked.hand_results
    if not 0 <= index < len(results):
        raise RulesError(
            f"review: hand_index must name a finished hand, 0 to {len(results) - 1}; got {index}"
            if results
            else "review: the game has no finished hand yet"
        )
    result = results[index]
    any_spade, two_of_clubs = rule_flags(checked.rules)
    hands = [result.deal[seat].mask for seat in SEATS]
    bids = result.bids
    contract = [0, 0]
    for bidder in SEATS:
        contract[bidder.team] += bids[bidder]
    won = [0, 0]
    broken = False
    first = two_of_clubs
    shared = Search(list(hands), any_spade)
    found: list[Mistake] = []
    for number, trick in enumerate(result.played, start=1):
        cards: list[int] = []
        for offset, card_object in enumerate(trick.cards):
            seat = (int(trick.leader) + offset) % 4
            card = card_object.id
            team = seat % 2
            position = Position(
                (hands[0], hands[1], hands[2], hands[3]),
                seat,
                tuple(cards),
                broken,
                any_spade,
                first,
            )
            mistake = _judge(position, shared, card, contract[team] - won[team], offset == 3)
            if mistake is not None:
                kind, better, tricks, best, needed = mistake
                found.append(
                    Mistake(
                        kind,
                        index,
                        number,
                        SEATS[seat],
                        ALL_CARDS[card],
                        ALL_CARDS[better],
                        tricks,
                        best,
                        needed,
                    )
                )
            led = cards[0] // RANKS if cards else NO_SUIT
            if not broken and card >= FIRST_SPADE:
                broken = breaks_spades(card, led, any_spade)
            hands[seat] ^= 1 << card
            cards.append(card)
            first = False
        won[int(trick.winner) % 2] += 1
    return tuple(found)


def _judge(
    position: Position, shared: Search, card: int, short: int, last: bool
) -> tuple[MistakeKind, int, int, int, int] | None:
    # ``(kind, better card, tricks after card, best tricks, needed)`` for a
    # card that did harm, else None; ``short`` is the contract's tricks still
    # missing (0 or less once made).
    search = position.search()
    search.table = shared.table
    search.suit_keys = shared.suit_keys
    search.best_moves = shared.best_moves
    if short > 0:
        best = position.team_tricks(search)
        if min(best, short) == 0:
            return None
        tricks = position.card_value(search, card, best)
        if min(tricks, short) < min(best, short):
            values = position.card_values(search)
            better = min(other for other, value in values.items() if value == best)
            return MistakeKind.COST_TRICKS, better, tricks, best, short
        return None
    if not last:
        return None
    # The last card of a trick: whether it wins is settled by the three before it.
    trick = list(position.trick)
    if not _wins_for_team(trick, card):
        return None
    legal = legal_card_mask(
        position.hands[position.to_act], trick[0] // RANKS, position.broken, False
    )
    for other in range(52):
        if (legal >> other) & 1 and not _wins_for_team(trick, other):
            return MistakeKind.NEEDLESS_BAG, other, 1, 0, 0
    return None


def _wins_for_team(trick: list[int], card: int) -> bool:
    # Whether the fourth card ``card`` leaves the trick with its own team:
    # it wins, or partner's card (second in the trick) does.
    return trick_winner((*trick, card)) in (1, 3)
