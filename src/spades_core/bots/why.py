"""Why a bot chose its move: the codes the coach turns into sentences."""

from __future__ import annotations

import enum

from spades_core.values import checks
from spades_core.values.enums import CheckedLookup

__all__ = ["Why"]


class Why(enum.IntEnum, metaclass=CheckedLookup):
    """The idea behind a bot's choice (what the coach explains)."""

    @classmethod
    def _missing_(cls, value: object) -> Why:
        raise checks.not_a_member(cls, value)

    ONLY_CHOICE = 0
    # bidding
    BID_FORCED = 1
    BID_COUNT_WINNERS = 2
    BID_ESTIMATE = 3
    BID_NIL_WEAK = 4
    BID_WHIZ_COUNT = 5
    BID_SIMULATED = 6
    BID_NIL_SIMULATED = 7
    # leading
    LEAD_ACE = 10
    LEAD_LOW = 11
    CASH_WINNER = 12
    DRAW_TRUMPS = 13
    LEAD_FOR_PARTNER_RUFF = 14
    LEAD_SHORT_SUIT = 15
    DUCK_LEAD = 16
    # following
    WIN_CHEAPLY = 20
    WIN_SURELY = 21
    SECOND_HAND_LOW = 22
    THIRD_HAND_HIGH = 23
    TRUMP = 24
    THROW_LOW = 25
    PARTNER_WINNING = 26
    SECURE_PARTNER_TRICK = 27
    DUCK = 28
    DUCK_DISCARD = 29
    DUCK_FORCED = 30
    # Nil: own, partner's (protect), opponent's (attack)
    NIL_LEAD = 40
    NIL_UNDER = 41
    NIL_DISCARD = 42
    NIL_FORCED = 43
    PROTECT_LEAD_VOID = 44
    PROTECT_LEAD_HIGH = 45
    PROTECT_COVER = 46
    PROTECT_OVERTAKE = 47
    PROTECT_TRUMP = 48
    ATTACK_LEAD = 50
    ATTACK_UNDER = 51
    ATTACK_LOW = 52
    # search
    SEARCH = 60
    # a variant's phases: Blind Nil, the card exchange
    BLIND_NIL_BEHIND = 70
    LOOK_FIRST = 71
    PASS_HIGH_TO_PARTNER = 72
    PASS_LOW_TO_NIL = 73
