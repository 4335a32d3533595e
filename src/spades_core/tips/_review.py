"""The coach's words after a hand, from the double-dummy review of it.

The review itself belongs to :func:`spades_core.analysis.review`, a layer
above the coach, so its cards are handed in; every number said here is one
the review computed (each card's ``cost``) or a count of its cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from spades_core.tips._words import plural
from spades_core.values.seats import Seat


class ReviewedCard(Protocol):
    """What the coach reads of a card the review reported: an
    :class:`spades_core.analysis.Mistake`."""

    @property
    def seat(self) -> Seat:
        """The seat that played the card."""

    @property
    def cost(self) -> int:
        """The tricks the card threw away, or 1 for a needless bag."""

    @property
    def bag(self) -> bool:
        """Whether it took a needless bag (rather than costing the contract tricks)."""

    def describe(self) -> str:
        """The card in a sentence."""


def after_hand(mistakes: Sequence[ReviewedCard], seat: Seat, hand: int) -> str:
    """The coach's word to ``seat`` on hand ``hand`` (from 0) from its review:
    what the cards of the seat's side threw away with every hand seen, and the
    costliest of them (the first of equals)."""
    ours = [mistake for mistake in mistakes if mistake.seat.team is seat.team]
    heading = f"Coach, hand {hand + 1} with every hand seen:"
    if not ours:
        return f"{heading} no card of your side cost its contract a trick or took a needless bag."
    thrown = sum(mistake.cost for mistake in ours if not mistake.bag)
    bags = sum(mistake.cost for mistake in ours if mistake.bag)
    parts = []
    if thrown:
        parts.append(f"let {plural(thrown, 'trick')} of your contract go")
    if bags:
        parts.append(f"took {plural(bags, 'needless bag')}")
    costliest = max(ours, key=lambda mistake: (not mistake.bag, mistake.cost))
    return (
        f"{heading} your side's cards {' and '.join(parts)}. The costliest: {costliest.describe()}"
    )
