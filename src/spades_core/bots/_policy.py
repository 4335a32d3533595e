"""The easy and normal policies: bids and card play from a :class:`Table`.

Each policy returns ``(choice, why)``: the card id (or bid) and a :class:`Why`
code naming the idea behind it, which the coach turns into a sentence. The
hard bot runs :func:`normal_play` inside its play-outs, so it works on ints
only and allocates little.
"""

from __future__ import annotations

import enum
from typing import Final

from spades_core import _check
from spades_core.bots._table import NO_BID, SPADE_MASK, SUIT, Table

__all__ = [
    "Why",
    "beaters",
    "easy_bid",
    "easy_play",
    "estimate_tricks",
    "nil_risk",
    "normal_bid",
    "normal_play",
    "winner_so_far",
]

_NON_SPADES: Final = SUIT[0] | SUIT[1] | SUIT[2]
_RANK_BITS: Final = 0x1FFF


class Why(enum.IntEnum):
    """The idea behind a bot's choice (what the coach explains)."""

    @classmethod
    def _missing_(cls, value: object) -> Why:
        raise _check.not_a_member(cls, value)

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


# -- card helpers ------------------------------------------------------------------


def high(mask: int) -> int:
    """The highest card id in ``mask`` (within one suit: the highest rank)."""
    return mask.bit_length() - 1


def low(mask: int) -> int:
    """The lowest card id in ``mask`` (within one suit: the lowest rank)."""
    return (mask & -mask).bit_length() - 1


def above(card: int) -> int:
    """The mask of cards of ``card``'s suit ranked above it."""
    return SUIT[card // 13] & ~((2 << card) - 1)


def beaters(mask: int, best: int) -> int:
    """The cards of ``mask`` that would beat ``best`` if played to its trick."""
    out = mask & above(best)
    if best < 39:
        out |= mask & SPADE_MASK
    return out


def winner_so_far(trick: list[int]) -> tuple[int, int]:
    """(position from the leader, card) of the card winning a trick in progress."""
    best = trick[0]
    position = 0
    for i in range(1, len(trick)):
        card = trick[i]
        if card // 13 == best // 13:
            if card > best:
                best, position = card, i
        elif card >= 39:
            best, position = card, i
    return position, best


def lowest_rank(mask: int, hand: int) -> int:
    """The card of ``mask`` with the lowest rank; ties go to the shortest suit in ``hand``."""
    best = -1
    key = (99, 99)
    for suit in range(4):
        bits = (mask >> (13 * suit)) & _RANK_BITS
        if bits:
            rank = (bits & -bits).bit_length() - 1
            k = (rank, (hand & SUIT[suit]).bit_count())
            if k < key:
                key, best = k, 13 * suit + rank
    return best


def highest_rank(mask: int, hand: int) -> int:
    """The card of ``mask`` with the highest rank; ties go to the shortest suit in ``hand``."""
    best = -1
    key = (-1, -99)
    for suit in range(4):
        bits = (mask >> (13 * suit)) & _RANK_BITS
        if bits:
            rank = bits.bit_length() - 1
            k = (rank, -(hand & SUIT[suit]).bit_count())
            if k > key:
                key, best = k, 13 * suit + rank
    return best


def _may_hold_spades(t: Table, seat: int) -> bool:
    return t.spades_left[seat] != 0 and not t.voids[seat] >> 3 & 1


def ruff_risk(t: Table, suit: int, opponents: tuple[int, ...] | list[int]) -> bool:
    """Whether one of ``opponents`` might trump a card of side suit ``suit``."""
    unseen = t.unseen()
    if not unseen & SPADE_MASK:
        return False
    short = (unseen & SUIT[suit]).bit_count() <= 2
    for opp in opponents:
        if not _may_hold_spades(t, opp):
            continue
        if short or t.voids[opp] >> suit & 1:
            return True
    return False


def threatened(t: Table, card: int, led: int, opponents: list[int]) -> bool:
    """Whether an opponent still to play might beat ``card`` in a trick led in ``led``."""
    if not opponents:
        return False
    unseen = t.unseen()
    higher = unseen & above(card)
    if card >= 39:
        if not higher:
            return False
        for opp in opponents:
            if _may_hold_spades(t, opp) and (
                led == 3 or t.voids[opp] >> led & 1 or (unseen & SUIT[led]).bit_count() <= 2
            ):
                return True
        return False
    suit = card // 13
    if higher and any(not t.voids[opp] >> suit & 1 for opp in opponents):
        return True
    return ruff_risk(t, suit, opponents)


def _discard(t: Table) -> int:
    """A card to throw away when not following suit: the lowest-ranked side card
    that is not a winner, from the shortest suit."""
    legal = t.legal
    side = legal & _NON_SPADES
    if side:
        unseen = t.unseen()
        losers = 0
        for suit in range(3):
            mine = side & SUIT[suit]
            while mine:
                card = high(mine)
                mine ^= 1 << card
                if unseen & above(card):
                    losers |= 1 << card
        return lowest_rank(losers or side, t.hand)
    return low(legal)


def _low_card(t: Table, following: bool) -> int:
    return low(t.legal) if following else _discard(t)


# -- wanting tricks ----------------------------------------------------------------


def bag_room(t: Table, seat: int) -> int:
    """Overtricks ``seat``'s team can still take before its bags reach the limit."""
    limit = t.rules.bag_limit
    if limit is None:
        return 13
    overtricks = max(0, -t.need(seat))
    return limit - 1 - t.bags[seat & 1] - overtricks


def wants_tricks(t: Table) -> bool:
    """Whether the seat's team should try to win tricks now (else it ducks bags)."""
    seat = t.seat
    if t.contract(seat) == 0:
        return False
    need = t.need(seat)
    remaining = t.remaining()
    opponent = seat ^ 1
    opp_contract = t.contract(opponent)
    opp_need = t.need(opponent) if opp_contract else -1
    if need > remaining:
        # Already set: winning tricks costs nothing and may set them too.
        return opp_need > 0
    if need > 0:
        return True
    if opp_need <= 0:
        return False
    to_set = remaining - opp_need + 1
    return to_set <= bag_room(t, seat) or 20 * opp_contract >= t.rules.bag_penalty


# -- normal play -------------------------------------------------------------------


def normal_play(t: Table) -> tuple[int, Why]:
    """The normal bot's card: counting cards, partner-aware, Nil-aware, bag-aware."""
    legal = t.legal
    if not legal & (legal - 1):
        return high(legal), Why.ONLY_CHOICE
    seat = t.seat
    if t.nil_alive(seat):
        return _nil_play(t)
    if t.nil_alive(seat ^ 2):
        found = _protect(t)
        if found is not None:
            return found
    opp_nils = [o for o in (seat ^ 1, seat ^ 3) if t.nil_alive(o)]
    if t.trick:
        return _follow(t, opp_nils)
    return _lead(t, opp_nils)


def _nil_play(t: Table) -> tuple[int, Why]:
    legal = t.legal
    trick = t.trick
    if not trick:
        unseen = t.unseen()
        best = -1
        key = (-99, 99)
        for card in _cards(legal):
            k = ((unseen & above(card)).bit_count() - (3 if card >= 39 else 0), card % 13)
            if k[0] > key[0] or (k[0] == key[0] and k[1] < key[1]):
                key, best = k, card
        return best, Why.NIL_LEAD
    _, best = winner_so_far(trick)
    under = legal & ~beaters(legal, best)
    following = bool(legal & SUIT[trick[0] // 13])
    if following:
        if under:
            return high(under), Why.NIL_UNDER
        return (high(legal) if len(trick) == 3 else low(legal)), Why.NIL_FORCED
    if under:
        return highest_rank(under, t.hand), Why.NIL_DISCARD
    return low(legal), Why.NIL_FORCED


def _protect(t: Table) -> tuple[int, Why] | None:
    """Play for a partner's live Nil; ``None`` when the partner is safe this trick."""
    seat = t.seat
    partner = seat ^ 2
    legal = t.legal
    trick = t.trick
    if not trick:
        voids = t.voids[partner]
        unseen = t.unseen()
        for suit in (0, 1, 2):
            mine = legal & SUIT[suit]
            if mine and voids >> suit & 1 and unseen & SUIT[suit]:
                top = high(mine)
                return (top if not unseen & above(top) else low(mine)), Why.PROTECT_LEAD_VOID
        side = legal & _NON_SPADES
        return highest_rank(side or legal, t.hand), Why.PROTECT_LEAD_HIGH
    position, best = winner_so_far(trick)
    winner = (t.leader + position) % 4
    partner_played = (partner - t.leader) % 4 < len(trick)
    if partner_played:
        if winner != partner:
            return None
        beat = beaters(legal, best)
        if not beat:
            return None
        return low(beat), Why.PROTECT_OVERTAKE
    led = trick[0] // 13
    if legal & SUIT[led]:
        top = high(legal)
        if top // 13 == led and (best // 13 != led or top > best):
            return top, Why.PROTECT_COVER
        return None
    beat = beaters(legal, best) & SPADE_MASK
    if beat:
        return high(beat), Why.PROTECT_TRUMP
    return None


def _follow(t: Table, opp_nils: list[int]) -> tuple[int, Why]:
    trick = t.trick
    legal = t.legal
    seat = t.seat
    position = len(trick)
    led = trick[0] // 13
    win_pos, best = winner_so_far(trick)
    winner = (t.leader + win_pos) % 4
    following = bool(legal & SUIT[led])
    after = [(seat + k) % 4 for k in range(1, 4 - position)]
    beat = beaters(legal, best)
    for opp in opp_nils:
        if opp == winner:
            under = legal & ~beat
            if under:
                if following:
                    return high(under), Why.ATTACK_UNDER
                side = under & _NON_SPADES
                return highest_rank(side or under, t.hand), Why.ATTACK_UNDER
        elif opp in after:
            if following:
                under = legal & ~beat
                return low(under or legal), Why.ATTACK_LOW
            side = legal & _NON_SPADES
            if side:
                return highest_rank(side, t.hand), Why.ATTACK_LOW
    if not wants_tricks(t):
        return _duck_follow(t, following, beat, position)
    opponents_after = [s for s in after if s != seat ^ 2]
    if winner == seat ^ 2:
        if position == 3 or not threatened(t, best, led, opponents_after):
            return _low_card(t, following), Why.PARTNER_WINNING
        sure = _sure(t, beat, led, opponents_after)
        if sure:
            return low(sure), Why.SECURE_PARTNER_TRICK
        return _low_card(t, following), Why.PARTNER_WINNING
    if not beat:
        return _low_card(t, following), Why.THROW_LOW
    if position == 3:
        return low(beat & SUIT[led] or beat), (Why.WIN_CHEAPLY if following else Why.TRUMP)
    sure = _sure(t, beat, led, opponents_after)
    if sure:
        card = low(sure & SUIT[led] or sure)
        return card, (Why.WIN_SURELY if card // 13 == led else Why.TRUMP)
    if not following:
        return low(beat), Why.TRUMP
    if position == 1:
        return low(legal), Why.SECOND_HAND_LOW
    return high(beat), Why.THIRD_HAND_HIGH


def _sure(t: Table, beat: int, led: int, opponents_after: list[int]) -> int:
    out = 0
    for card in _cards(beat):
        if not threatened(t, card, led, opponents_after):
            out |= 1 << card
    return out


def _duck_follow(t: Table, following: bool, beat: int, position: int) -> tuple[int, Why]:
    legal = t.legal
    under = legal & ~beat
    if following:
        if under:
            return high(under), Why.DUCK
        return (high(legal) if position == 3 else low(legal)), Why.DUCK_FORCED
    side = under & _NON_SPADES
    if side:
        return highest_rank(side, t.hand), Why.DUCK_DISCARD
    if under:
        return high(under), Why.DUCK
    return (high(legal) if position == 3 else low(legal)), Why.DUCK_FORCED


def _lead(t: Table, opp_nils: list[int]) -> tuple[int, Why]:
    legal = t.legal
    hand = t.hand
    unseen = t.unseen()
    seat = t.seat
    if opp_nils:
        voids = t.voids[opp_nils[0]]
        ok = 0
        for suit in range(4):
            if not voids >> suit & 1 and unseen & SUIT[suit]:
                ok |= SUIT[suit]
        candidates = legal & ok
        side = candidates & _NON_SPADES
        return lowest_rank(side or candidates or legal, hand), Why.ATTACK_LEAD
    if not wants_tricks(t):
        return _duck_lead(t), Why.DUCK_LEAD
    opponents = (seat ^ 1, seat ^ 3)
    cash = -1
    cash_key = -1
    for suit in (0, 1, 2):
        mine = legal & SUIT[suit]
        if not mine:
            continue
        top = high(mine)
        outstanding = unseen & SUIT[suit]
        if unseen & above(top) or ruff_risk(t, suit, opponents):
            continue
        if not outstanding and any(_may_hold_spades(t, o) for o in opponents):
            continue
        key = outstanding.bit_count()
        if key > cash_key:
            cash, cash_key = top, key
    if cash >= 0:
        return cash, Why.CASH_WINNER
    spades = legal & SPADE_MASK
    if spades:
        top = high(spades)
        if not unseen & above(top) and any(_may_hold_spades(t, o) for o in opponents):
            return top, Why.DRAW_TRUMPS
    side = legal & _NON_SPADES
    if not side:
        return low(spades), Why.LEAD_LOW
    partner = seat ^ 2
    if _may_hold_spades(t, partner):
        for suit in (0, 1, 2):
            mine = side & SUIT[suit]
            if (
                mine
                and t.voids[partner] >> suit & 1
                and not any(t.voids[o] >> suit & 1 for o in opponents)
                and unseen & SUIT[suit]
            ):
                return low(mine), Why.LEAD_FOR_PARTNER_RUFF
    if hand & SPADE_MASK:
        for suit in (0, 1, 2):
            mine = side & SUIT[suit]
            if mine and not mine & (mine - 1) and unseen & above(low(mine)):
                return low(mine), Why.LEAD_SHORT_SUIT
    longest = max(
        (s for s in (0, 1, 2) if side & SUIT[s]), key=lambda s: (hand & SUIT[s]).bit_count()
    )
    return low(side & SUIT[longest]), Why.LEAD_LOW


def _duck_lead(t: Table) -> int:
    unseen = t.unseen()
    best = -1
    key = (-99, 99)
    for card in _cards(t.legal):
        k = ((unseen & above(card)).bit_count() - (2 if card >= 39 else 0), card % 13)
        if k[0] > key[0] or (k[0] == key[0] and k[1] < key[1]):
            key, best = k, card
    return best


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit.bit_length() - 1)
        mask ^= bit
    return out


# -- easy play ---------------------------------------------------------------------


def easy_play(t: Table) -> tuple[int, Why]:
    """The easy bot's card: win as cheaply as possible or throw the lowest card."""
    legal = t.legal
    if not legal & (legal - 1):
        return high(legal), Why.ONLY_CHOICE
    trick = t.trick
    hand = t.hand
    if not trick:
        side = legal & _NON_SPADES
        for suit in (0, 1, 2):
            if side >> (13 * suit + 12) & 1:
                return 13 * suit + 12, Why.LEAD_ACE
        if side:
            longest = max(
                (s for s in (0, 1, 2) if side & SUIT[s]),
                key=lambda s: (hand & SUIT[s]).bit_count(),
            )
            return low(side & SUIT[longest]), Why.LEAD_LOW
        return low(legal), Why.LEAD_LOW
    _, best = winner_so_far(trick)
    beat = beaters(legal, best)
    if t.nil_alive(t.seat):
        under = legal & ~beat
        if under:
            return highest_rank(under, hand), Why.NIL_UNDER
        return low(legal), Why.NIL_FORCED
    led = trick[0] // 13
    if beat:
        return low(beat & SUIT[led] or beat), (Why.WIN_CHEAPLY if beat & SUIT[led] else Why.TRUMP)
    side = legal & _NON_SPADES
    return lowest_rank(side or legal, hand), Why.THROW_LOW


# -- bidding -----------------------------------------------------------------------


def _ranks(hand: int, suit: int) -> int:
    return (hand >> (13 * suit)) & _RANK_BITS


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
    """The normal bot's bid: estimated tricks, Nil when the hand is safe enough."""
    legal = t.legal_bids
    if len(legal) == 1:
        return legal[0], Why.BID_FORCED
    hand = t.hand
    partner_bid = t.bids[t.seat ^ 2]
    limit = _NIL_RISK_LIMIT if partner_bid != 0 else _NIL_RISK_LIMIT / 3
    nil_ok = 0 in legal and nil_risk(hand) <= limit and estimate_tricks(hand) < 2.0
    if len(legal) == 2 and legal[0] == 0:
        return (0, Why.BID_NIL_WEAK) if nil_ok else (legal[1], Why.BID_WHIZ_COUNT)
    if nil_ok and partner_bid != 0 and (partner_bid == NO_BID or partner_bid >= 3):
        return 0, Why.BID_NIL_WEAK
    estimate = estimate_tricks(hand)
    return _nearest(legal, max(1, int(estimate + 0.5))), Why.BID_ESTIMATE
