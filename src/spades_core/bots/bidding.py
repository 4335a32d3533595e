"""How the easy and normal bots bid, and the hand estimates behind it.

Each policy returns ``(bid, why)``; :func:`estimate_tricks` is also what the
coach quotes and what the hard bot starts its bid search from.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, Literal, NamedTuple

from spades_core.bots.masks import RANK_BITS
from spades_core.bots.phases import nil_sheds
from spades_core.bots.table import NO_BID, Table
from spades_core.bots.why import Why

__all__ = [
    "EstimatePart",
    "easy_bid",
    "estimate_parts",
    "estimate_tricks",
    "nil_risk",
    "normal_bid",
    "sure_winners",
]


def _ranks(hand: int, suit: int) -> int:
    return (hand >> (13 * suit)) & RANK_BITS


def sure_winners(hand: int) -> int:
    """Tricks a hand is sure to take: side aces, top spades, long spades."""
    count = 0
    for suit in (0, 1, 2):
        count += _ranks(hand, suit) >> 12 & 1
    spades = _ranks(hand, 3)
    length = spades.bit_count()
    count += spades >> 12 & 1
    count += 1 if spades >> 11 & 1 and length >= 2 else 0
    count += 1 if spades >> 10 & 1 and length >= 3 else 0
    count += max(0, length - 4)
    return count


# The hard bot's bid search asks for the same hands again and again (each
# sampled deal is bid out once per candidate bid, after its bids were read).
_HANDS_REMEMBERED: Final = 1 << 12


@lru_cache(maxsize=_HANDS_REMEMBERED)
def estimate_tricks(hand: int) -> float:
    """An estimate of the tricks a hand takes with normal play."""
    total = 0.0
    spades = _ranks(hand, 3)
    n_spades = spades.bit_count()
    short_value = 0.0
    for suit in (0, 1, 2):
        bits = _ranks(hand, suit)
        n = bits.bit_count()
        ace = bits >> 12 & 1
        king = bits >> 11 & 1
        queen = bits >> 10 & 1
        if ace:
            total += 1.0 if n <= 5 else 0.7
        if king:
            if n == 1:
                total += 0.15
            elif n <= 5:
                total += 0.85 if ace else 0.6
            else:
                total += 0.3
        if queen and 3 <= n <= 5:
            total += 0.45 if (ace or king) else 0.25
        if n == 0:
            short_value += 0.9
        elif n == 1:
            short_value += 0.55
        elif n == 2:
            short_value += 0.2
    honours = 0
    if spades >> 12 & 1:
        total += 1.0
        honours += 1
    if spades >> 11 & 1:
        total += 0.9 if n_spades >= 2 else 0.4
        honours += 1
    if spades >> 10 & 1:
        total += 0.75 if n_spades >= 3 else 0.25
        honours += 1
    if spades >> 9 & 1 and n_spades >= 4:
        total += 0.4
        honours += 1
    total += max(0, n_spades - 3) * 0.85
    spare = max(0, min(n_spades, 3) - honours)
    total += min(short_value, spare * 0.8)
    return total


class EstimatePart(NamedTuple):
    """One item :func:`estimate_tricks` counts: a high card, the spades beyond
    three, or trumping in short side suits, and the tricks it is worth."""

    kind: Literal["card", "length", "short"]
    """``"card"``: an ace, king or queen, or the J♠ with four spades or more;
    ``"length"``: spades beyond the third; ``"short"``: trumping in side suits
    of two cards or fewer with spades that are not honours."""
    what: int
    """The card's id (``"card"``), the number of spades beyond three
    (``"length"``), or the 4-bit set of the short side suits (``"short"``)."""
    value: float
    """The tricks this item adds to the estimate."""


def estimate_parts(hand: int) -> tuple[EstimatePart, ...]:
    """:func:`estimate_tricks` item by item: its declared twin for words (the
    coach says where an estimate comes from), written beside it. The values,
    added from 0.0 in the order given, are exactly :func:`estimate_tricks`;
    items worth nothing are left out. A test holds the two together."""
    parts: list[EstimatePart] = []
    spades = _ranks(hand, 3)
    n_spades = spades.bit_count()
    short_value = 0.0
    short_suits = 0
    for suit in (0, 1, 2):
        bits = _ranks(hand, suit)
        n = bits.bit_count()
        ace = bits >> 12 & 1
        king = bits >> 11 & 1
        queen = bits >> 10 & 1
        if ace:
            parts.append(EstimatePart("card", 13 * suit + 12, 1.0 if n <= 5 else 0.7))
        if king:
            if n == 1:
                value = 0.15
            elif n <= 5:
                value = 0.85 if ace else 0.6
            else:
                value = 0.3
            parts.append(EstimatePart("card", 13 * suit + 11, value))
        if queen and 3 <= n <= 5:
            parts.append(EstimatePart("card", 13 * suit + 10, 0.45 if (ace or king) else 0.25))
        if n <= 2:
            short_value += (0.9, 0.55, 0.2)[n]
            short_suits |= 1 << suit
    honours = 0
    if spades >> 12 & 1:
        parts.append(EstimatePart("card", 51, 1.0))
        honours += 1
    if spades >> 11 & 1:
        parts.append(EstimatePart("card", 50, 0.9 if n_spades >= 2 else 0.4))
        honours += 1
    if spades >> 10 & 1:
        parts.append(EstimatePart("card", 49, 0.75 if n_spades >= 3 else 0.25))
        honours += 1
    if spades >> 9 & 1 and n_spades >= 4:
        parts.append(EstimatePart("card", 48, 0.4))
        honours += 1
    if n_spades > 3:
        parts.append(EstimatePart("length", n_spades - 3, (n_spades - 3) * 0.85))
    spare = max(0, min(n_spades, 3) - honours)
    trumping = min(short_value, spare * 0.8)
    if trumping:
        parts.append(EstimatePart("short", short_suits, trumping))
    return tuple(parts)


@lru_cache(maxsize=_HANDS_REMEMBERED)
def nil_risk(hand: int) -> float:
    """How dangerous a hand is for a Nil bid (0 is perfectly safe)."""
    risk = 0.0
    for suit in range(4):
        bits = _ranks(hand, suit)
        cover = 0
        rank = 0
        while bits:
            if bits & 1:
                # Spades cannot be thrown away when trumps are led: stricter.
                danger = rank - 3 - 2.0 * cover if suit == 3 else rank - 5 - 2.5 * cover
                if danger > 0:
                    risk += danger
                cover += 1
            bits >>= 1
            rank += 1
        if suit == 3 and cover > 2:
            risk += 1.5 * (cover - 2)
    return risk


_NIL_RISK_LIMIT: Final = 3.0


def _nearest(legal: tuple[int, ...], target: int) -> int:
    non_nil = [b for b in legal if b > 0] or list(legal)
    return min(non_nil, key=lambda b: (abs(b - target), b))


def easy_bid(t: Table) -> tuple[int, Why]:
    """The easy bot's bid: sure winners; in Nil-or-count choices, Nil with a weak hand."""
    legal = t.legal_bids
    if len(legal) == 1:
        return legal[0], Why.BID_FORCED
    hand = t.hand
    if len(legal) == 2 and legal[0] == 0:
        high_cards = sum(_ranks(hand, s) >> 11 for s in range(4))
        spades = _ranks(hand, 3)
        if not high_cards and spades < 1 << 10 and spades.bit_count() <= 3:
            return 0, Why.BID_NIL_WEAK
        return legal[1], Why.BID_WHIZ_COUNT
    return _nearest(legal, max(1, sure_winners(hand))), Why.BID_COUNT_WINNERS


def normal_bid(t: Table) -> tuple[int, Why]:
    """The normal bot's bid: estimated tricks, Nil when the hand is safe
    enough (in a variant with an exchange after a Nil, the hand less the
    cards it would pass: :func:`~spades_core.bots.phases.nil_sheds`)."""
    legal = t.legal_bids
    if len(legal) == 1:
        return legal[0], Why.BID_FORCED
    hand = t.hand
    partner_bid = t.bids[t.seat ^ 2]
    limit = _NIL_RISK_LIMIT if partner_bid != 0 else _NIL_RISK_LIMIT / 3
    # After a variant's exchange a Nil keeps only what it does not pass on.
    kept = hand & ~nil_sheds(hand, t.nil_passes) if t.nil_passes else hand
    nil_ok = 0 in legal and nil_risk(kept) <= limit and estimate_tricks(kept) < 2.0
    if len(legal) == 2 and legal[0] == 0:
        return (0, Why.BID_NIL_WEAK) if nil_ok else (legal[1], Why.BID_WHIZ_COUNT)
    if nil_ok and partner_bid != 0 and (partner_bid == NO_BID or partner_bid >= 3):
        return 0, Why.BID_NIL_WEAK
    estimate = estimate_tricks(hand)
    return _nearest(legal, max(1, int(estimate + 0.5))), Why.BID_ESTIMATE
