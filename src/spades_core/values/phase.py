"""Where a game is: the :class:`Phase` of a hand, from the deal to the end."""

from __future__ import annotations

import enum

from spades_core.values import checks
from spades_core.values.enums import CheckedLookup

__all__ = ["Phase"]


class Phase(enum.Enum, metaclass=CheckedLookup):
    """Where a game is: ``DEAL`` → ``BID`` → ``PLAY`` → (scored) → ``DEAL`` … ``GAME_OVER``.

    A variant that adds phases to the hand (:meth:`Variant.phases
    <spades_core.Variant.phases>`) passes through ``VARIANT`` before or after
    bidding; :attr:`Game.phase_name <spades_core.Game.phase_name>` gives the
    variant's own name for the phase in progress."""

    @classmethod
    def _missing_(cls, value: object) -> Phase:
        raise checks.not_a_member(cls, value)

    DEAL = "deal"
    """Waiting for the next hand to be dealt."""
    BID = "bid"
    """Players bid in turn, starting left of the dealer."""
    PLAY = "play"
    """Thirteen tricks are played; the hand is scored after the last one."""
    VARIANT = "variant"
    """A phase the variant adds to the hand (Blind Nil decisions, a card
    exchange…); the variant names it and says who acts and what they may do."""
    GAME_OVER = "game_over"
    """A team has won; no action is legal."""
