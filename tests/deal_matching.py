"""Deals of the unseen cards worked out card by card, apart from the library.

The tests hold :mod:`spades_core.rules.knowledge` (which reasons by suit
counts and a cut condition) to two methods written here afresh:

* :func:`find_deal` places every unseen card in a hand by augmenting paths
  (a bipartite matching of cards to hands with capacities), so it answers
  for any position, early in a hand too;
* :func:`all_deals` lists every deal outright, for small positions.

Both read a :class:`Facts`: what one seat knows, as the public record gives
it (not as the library summarises it). A demand ``(seat, card)`` puts a card
in a hand; ``lacking`` keeps suits out of one; ``exact`` fixes how many
cards of a suit a hand holds.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import spades_core as sc
from spades_core.engine.views import View

SPADES = 3


def suit(card: int) -> int:
    return card // 13


@dataclass(frozen=True)
class Facts:
    """What the public record proves about the unseen cards."""

    unseen: tuple[int, ...]
    """The card ids the viewer has not seen."""
    sizes: Mapping[int, int]
    """Each hidden seat: how many cards it holds."""
    shown_out: Mapping[int, frozenset[int]]
    """Each hidden seat: the suits it has shown out of."""
    spades: Mapping[int, int]
    """The hidden seats whose spades are known (a revealed count less those played)."""
    held: Mapping[int, frozenset[int]]
    """Each hidden seat: unseen cards it is known to hold."""


def facts_of(view: View) -> Facts:
    """The facts of ``view``'s seat, read from the view's public record."""
    viewer = view.seat
    hidden = [seat for seat in sc.Seat if seat != viewer]
    played: dict[sc.Seat, list[sc.Card]] = {seat: [] for seat in sc.Seat}
    for trick in view.tricks:
        for who, card in trick.plays:
            played[who].append(card)
    for who, card in view.current_trick:
        played[who].append(card)
    spades = {}
    for seat in hidden:
        count = view.spade_counts[seat]
        if count is not None:
            spades[int(seat)] = count - sum(c.suit is sc.Suit.SPADES for c in played[seat])
    held: dict[int, frozenset[int]] = {int(seat): frozenset() for seat in hidden}
    if (
        view.rules.first_lead is sc.FirstLead.TWO_OF_CLUBS
        and view.phase is sc.Phase.PLAY
        and not view.tricks
        and not view.current_trick
        and view.to_act is not None
        and view.to_act != viewer
    ):
        held[int(view.to_act)] = frozenset({sc.Card.parse("2C").id})
    return Facts(
        unseen=tuple(card.id for card in view.unseen),
        sizes={int(seat): view.cards_left[seat] for seat in hidden},
        shown_out={int(seat): frozenset(int(s) for s in view.shown_out[seat]) for seat in hidden},
        spades=spades,
        held=held,
    )


def find_deal(
    facts: Facts,
    demands: tuple[tuple[int, int], ...] = (),
    lacking: Mapping[int, frozenset[int]] | None = None,
    exact: Mapping[tuple[int, int], int] | None = None,
) -> dict[int, int] | None:
    """A deal (card id → seat) of every unseen card that fits ``facts``,
    gives each ``(seat, card)`` of ``demands`` its card, keeps the suits of
    ``lacking[seat]`` out of that hand and gives a hand exactly
    ``exact[(seat, suit)]`` cards of a suit; ``None`` when there is none.

    Each hand is cut into boxes: one per suit whose number of cards is fixed
    (a revealed spade count, an ``exact`` entry), holding exactly that many,
    and one box for the rest of the hand. Every card must go into a box that
    takes its suit, and every box must be filled: a matching of cards to box
    places, grown one card at a time by augmenting paths."""
    lacking = lacking or {}
    exact = dict(exact or {})
    for seat, count in facts.spades.items():
        if exact.setdefault((seat, SPADES), count) != count:
            return None
    boxes: list[tuple[int, frozenset[int], int]] = []  # (seat, suits taken, places)
    for seat, size in facts.sizes.items():
        barred = facts.shown_out[seat] | lacking.get(seat, frozenset())
        fixed = {s: n for (who, s), n in exact.items() if who == seat}
        for s, n in fixed.items():
            if n < 0 or (n and s in barred):
                return None
            if n:
                boxes.append((seat, frozenset({s}), n))
        rest = size - sum(fixed.values())
        if rest < 0:
            return None
        boxes.append((seat, frozenset(range(4)) - barred - set(fixed), rest))
    if sum(places for _, _, places in boxes) != len(facts.unseen):
        return None
    forced: dict[int, int] = {}
    for seat, cards in facts.held.items():
        for card in cards:
            forced[card] = seat
    for seat, card in demands:
        if forced.setdefault(card, seat) != seat or card not in facts.unseen:
            return None
    # box_of[card]: the box a card sits in; inside[box]: its cards.
    box_of: dict[int, int] = {}
    inside: list[list[int]] = [[] for _ in boxes]

    def takes(box: int, card: int) -> bool:
        seat, suits, _ = boxes[box]
        if card in forced and forced[card] != seat:
            return False
        return suit(card) in suits

    def place(card: int, visited: set[int]) -> bool:
        for box in range(len(boxes)):
            if box in visited or not takes(box, card):
                continue
            visited.add(box)
            if len(inside[box]) < boxes[box][2]:
                inside[box].append(card)
                box_of[card] = box
                return True
            for other in list(inside[box]):
                # Move a card out of the full box to make room, if it fits elsewhere.
                inside[box].remove(other)
                del box_of[other]
                if place(other, visited):
                    inside[box].append(card)
                    box_of[card] = box
                    return True
                inside[box].append(other)
                box_of[other] = box
        return False

    for card in facts.unseen:
        if not place(card, set()):
            return None
    return {card: boxes[box][0] for card, box in box_of.items()}


def deal_is_consistent(facts: Facts, deal: Mapping[int, int]) -> bool:
    """Whether ``deal`` (card id → seat) gives every unseen card to a hidden
    seat in a way the facts allow."""
    if sorted(deal) != sorted(facts.unseen):
        return False
    hands: dict[int, list[int]] = {seat: [] for seat in facts.sizes}
    for card, seat in deal.items():
        if seat not in hands:
            return False
        hands[seat].append(card)
    for seat, cards in hands.items():
        if len(cards) != facts.sizes[seat]:
            return False
        if any(suit(card) in facts.shown_out[seat] for card in cards):
            return False
        if seat in facts.spades and sum(suit(c) == SPADES for c in cards) != facts.spades[seat]:
            return False
        if not facts.held[seat] <= set(cards):
            return False
    return True


def all_deals(facts: Facts) -> Iterator[dict[int, int]]:
    """Every deal (card id → seat) that fits ``facts``: every way of sharing
    the unseen cards out in the hands' sizes, kept when it fits."""
    seats = sorted(facts.sizes)
    cards = list(facts.unseen)

    def share(left: list[int], index: int) -> Iterator[dict[int, int]]:
        if index == len(seats) - 1:
            yield dict.fromkeys(left, seats[index])
            return
        for chosen in itertools.combinations(left, facts.sizes[seats[index]]):
            rest = [card for card in left if card not in chosen]
            for tail in share(rest, index + 1):
                yield {**dict.fromkeys(chosen, seats[index]), **tail}

    if sum(facts.sizes.values()) != len(cards):
        return
    for deal in share(cards, 0):
        if deal_is_consistent(facts, deal):
            yield deal
