"""How the easy and normal bots play a card, from a :class:`Table`.

Each policy returns ``(card, why)``: the card id and a :class:`Why` code
naming the idea behind it, which the coach turns into a sentence. The hard bot
runs :func:`normal_play` inside its play-outs, so it works on ints only and
allocates little. Bidding is in :mod:`spades_core.bots.bidding`.
"""

from __future__ import annotations

from spades_core.bots.masks import (
    ABOVE,
    NON_SPADES,
    beaters,
    high,
    highest_rank,
    least_covered,
    low,
    lowest_rank,
    winner_so_far,
)
from spades_core.bots.table import SPADE_MASK, SUIT, Table
from spades_core.bots.why import Why
from spades_core.rules.tricks import FIRST_SPADE, RANKS, SPADES
from spades_core.values.cards import Rank

__all__ = ["bag_room", "easy_play", "normal_play", "ruff_risk", "threatened", "wants_tricks"]


def _may_hold_spades(t: Table, seat: int) -> bool:
    return t.spades_left[seat] != 0 and not t.voids[seat] >> SPADES & 1


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
    higher = unseen & ABOVE[card]
    if card >= FIRST_SPADE:
        if not higher:
            return False
        for opp in opponents:
            if _may_hold_spades(t, opp) and (
                led == SPADES or t.voids[opp] >> led & 1 or (unseen & SUIT[led]).bit_count() <= 2
            ):
                return True
        return False
    suit = card // RANKS
    if higher:
        voids = t.voids
        for opp in opponents:
            if not voids[opp] >> suit & 1:
                return True
    return ruff_risk(t, suit, opponents)


def _discard(t: Table) -> int:
    """A card to throw away when not following suit: the lowest-ranked side card
    that is not a winner, from the shortest suit."""
    legal = t.legal
    side = legal & NON_SPADES
    if side:
        unseen = t.unseen()
        losers = 0
        for suit in range(3):
            mine = side & SUIT[suit]
            while mine:
                card = high(mine)
                mine ^= 1 << card
                if unseen & ABOVE[card]:
                    losers |= 1 << card
        return lowest_rank(losers or side, t.hand)
    return low(legal)


def _low_card(t: Table, following: bool) -> int:
    return low(t.legal) if following else _discard(t)


# -- wanting tricks ----------------------------------------------------------------


def bag_room(t: Table, seat: int) -> int:
    """Overtricks ``seat``'s team can still take before its bags reach the limit."""
    return _bag_room(t, seat, t.need(seat))


def _bag_room(t: Table, seat: int, need: int) -> int:
    limit = t.rules.bag_limit
    if limit is None:
        return 13
    overtricks = -need if need < 0 else 0
    return limit - 1 - t.bags[seat & 1] - overtricks


def wants_tricks(t: Table) -> bool:
    """Whether the seat's team should try to win tricks now (else it ducks bags)."""
    seat = t.seat
    contract = t.contract(seat)
    if contract == 0:
        return False
    need = contract - t.counted(seat)
    remaining = t.remaining()
    opponent = seat ^ 1
    opp_contract = t.contract(opponent)
    opp_need = opp_contract - t.counted(opponent) if opp_contract else -1
    if need > remaining:
        # Already set: winning tricks costs nothing and may set them too.
        return opp_need > 0
    if need > 0:
        return True
    if opp_need <= 0:
        return False
    to_set = remaining - opp_need + 1
    return to_set <= _bag_room(t, seat, need) or 20 * opp_contract >= t.rules.bag_penalty


# -- normal play -------------------------------------------------------------------


def normal_play(t: Table) -> tuple[int, Why]:
    """The normal bot's card: counting cards, partner-aware, Nil-aware, bag-aware."""
    legal = t.legal
    if not legal & (legal - 1):
        return high(legal), Why.ONLY_CHOICE
    seat = t.seat
    opp_nils = []
    # Without a Nil bid no seat's Nil is alive: this runs at every play-out step.
    if 0 in t.bids:
        if t.nil_alive(seat):
            return _nil_play(t)
        if t.nil_alive(seat ^ 2):
            found = _protect(t)
            if found is not None:
                return found
        opp_nils = [opp for opp in (seat ^ 1, seat ^ 3) if t.nil_alive(opp)]
    if t.trick:
        return _follow(t, opp_nils)
    return _lead(t, opp_nils)


def _nil_play(t: Table) -> tuple[int, Why]:
    legal = t.legal
    trick = t.trick
    if not trick:
        return least_covered(legal, t.unseen(), 3), Why.NIL_LEAD
    _, best = winner_so_far(trick)
    under = legal & ~beaters(legal, best)
    following = bool(legal & SUIT[trick[0] // RANKS])
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
                return (top if not unseen & ABOVE[top] else low(mine)), Why.PROTECT_LEAD_VOID
        side = legal & NON_SPADES
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
    led = trick[0] // RANKS
    if legal & SUIT[led]:
        top = high(legal)
        if top // RANKS == led and (best // RANKS != led or top > best):
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
    led = trick[0] // RANKS
    win_pos, best = winner_so_far(trick)
    winner = (t.leader + win_pos) % 4
    following = bool(legal & SUIT[led])
    beat = beaters(legal, best)
    for opp in opp_nils:
        if opp == winner:
            under = legal & ~beat
            if under:
                if following:
                    return high(under), Why.ATTACK_UNDER
                side = under & NON_SPADES
                return highest_rank(side or under, t.hand), Why.ATTACK_UNDER
        elif (opp - seat) % 4 < 4 - position:
            if following:
                under = legal & ~beat
                return low(under or legal), Why.ATTACK_LOW
            side = legal & NON_SPADES
            if side:
                return highest_rank(side, t.hand), Why.ATTACK_LOW
    if not wants_tricks(t):
        return _duck_follow(t, following, beat, position)
    # Following, the seats still to play are at most the next opponent and the partner.
    opponents_after = [(seat + 1) % 4] if position < 3 else []
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
        return card, (Why.WIN_SURELY if card // RANKS == led else Why.TRUMP)
    if not following:
        return low(beat), Why.TRUMP
    if position == 1:
        return low(legal), Why.SECOND_HAND_LOW
    return high(beat), Why.THIRD_HAND_HIGH


def _sure(t: Table, beat: int, led: int, opponents_after: list[int]) -> int:
    out = 0
    while beat:
        bit = beat & -beat
        beat ^= bit
        if not threatened(t, bit.bit_length() - 1, led, opponents_after):
            out |= bit
    return out


def _duck_follow(t: Table, following: bool, beat: int, position: int) -> tuple[int, Why]:
    legal = t.legal
    under = legal & ~beat
    if following:
        if under:
            return high(under), Why.DUCK
        return (high(legal) if position == 3 else low(legal)), Why.DUCK_FORCED
    side = under & NON_SPADES
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
        side = candidates & NON_SPADES
        return lowest_rank(side or candidates or legal, hand), Why.ATTACK_LEAD
    if not wants_tricks(t):
        return _duck_lead(t), Why.DUCK_LEAD
    opponents = (seat ^ 1, seat ^ 3)
    opponents_may_ruff = _may_hold_spades(t, seat ^ 1) or _may_hold_spades(t, seat ^ 3)
    cash = -1
    cash_key = -1
    for suit in (0, 1, 2):
        mine = legal & SUIT[suit]
        if not mine:
            continue
        top = high(mine)
        outstanding = unseen & SUIT[suit]
        if unseen & ABOVE[top] or ruff_risk(t, suit, opponents):
            continue
        if not outstanding and opponents_may_ruff:
            continue
        key = outstanding.bit_count()
        if key > cash_key:
            cash, cash_key = top, key
    if cash >= 0:
        return cash, Why.CASH_WINNER
    spades = legal & SPADE_MASK
    if spades:
        top = high(spades)
        if not unseen & ABOVE[top] and opponents_may_ruff:
            return top, Why.DRAW_TRUMPS
    side = legal & NON_SPADES
    if not side:
        return low(spades), Why.LEAD_LOW
    partner = seat ^ 2
    if _may_hold_spades(t, partner):
        known_voids = t.voids
        opponents_void = known_voids[seat ^ 1] | known_voids[seat ^ 3]
        for suit in (0, 1, 2):
            mine = side & SUIT[suit]
            if (
                mine
                and known_voids[partner] >> suit & 1
                and not opponents_void >> suit & 1
                and unseen & SUIT[suit]
            ):
                return low(mine), Why.LEAD_FOR_PARTNER_RUFF
    if hand & SPADE_MASK:
        for suit in (0, 1, 2):
            mine = side & SUIT[suit]
            if mine and not mine & (mine - 1) and unseen & ABOVE[low(mine)]:
                return low(mine), Why.LEAD_SHORT_SUIT
    return _low_of_longest(side, hand), Why.LEAD_LOW


def _low_of_longest(side: int, hand: int) -> int:
    """The lowest card of ``side`` (side-suit cards) in its suit longest in
    ``hand``; on equal lengths the first suit."""
    longest = -1
    length = -1
    for suit in (0, 1, 2):
        if side & SUIT[suit]:
            count = (hand & SUIT[suit]).bit_count()
            if count > length:
                longest, length = suit, count
    return low(side & SUIT[longest])


def _duck_lead(t: Table) -> int:
    return least_covered(t.legal, t.unseen(), 2)


# -- easy play ---------------------------------------------------------------------


def easy_play(t: Table) -> tuple[int, Why]:
    """The easy bot's card: win as cheaply as possible or throw the lowest card."""
    legal = t.legal
    if not legal & (legal - 1):
        return high(legal), Why.ONLY_CHOICE
    trick = t.trick
    hand = t.hand
    if not trick:
        side = legal & NON_SPADES
        for suit in (0, 1, 2):
            if side >> (RANKS * suit + Rank.ACE) & 1:
                return RANKS * suit + Rank.ACE, Why.LEAD_ACE
        if side:
            return _low_of_longest(side, hand), Why.LEAD_LOW
        return low(legal), Why.LEAD_LOW
    _, best = winner_so_far(trick)
    beat = beaters(legal, best)
    if t.nil_alive(t.seat):
        under = legal & ~beat
        if under:
            return highest_rank(under, hand), Why.NIL_UNDER
        return low(legal), Why.NIL_FORCED
    led = trick[0] // RANKS
    if beat:
        return low(beat & SUIT[led] or beat), (Why.WIN_CHEAPLY if beat & SUIT[led] else Why.TRUMP)
    side = legal & NON_SPADES
    return lowest_rank(side or legal, hand), Why.THROW_LOW
