"""Coach tips: a good move for the seat to act, and why, in plain English.

:func:`coach` asks the normal bot (which decides in well under a millisecond)
for its move and turns the idea behind it into plain English that names the
cards, for bids and for plays, in every variant. The hard bot searches with
the normal policy, so its moves are usually the same; the coach prefers the
normal player's answer because it can always say *why*.

Every fact a tip states is computed from the position the view shows, never
assumed from the idea behind the move: which suit is longest and whether it
may be led, which card is the highest of its suit still out, which Nil bidder
plays after you, and what the rules allow you to bid (in the variant's own
words, :meth:`Variant.explain_bids <spades_core.Variant.explain_bids>`).
Who *can* beat a card is what the view does not rule out: a seat still to
play could beat it with a higher card of the suit led unless it has shown out
of that suit, and by trumping unless it is known to hold no spades (it has
shown out of them or played all its revealed spades) or none are left
unseen. "Nobody still to play can beat it" is said only when no seat still
to play, your partner included, could.

>>> import spades_core as sc
>>> game = sc.new_game("mirror", seed=2).deal()
>>> tip = sc.coach(game.view(game.to_act))
>>> tip.action in game.legal_actions()
True
>>> tip.reason.startswith("In Mirror Spades your bid is your spade count")
True
"""

from __future__ import annotations

from typing import Final, final

import attrs

from spades_core.bots import NormalBot, Why
from spades_core.bots.bidding import EstimatePart, estimate_parts, estimate_tricks
from spades_core.bots.table import table_from_view
from spades_core.engine import arguments
from spades_core.engine.views import View
from spades_core.rules.hooks import checked_score_hand
from spades_core.rules.tricks import (
    FIRST_SPADE,
    NO_SUIT,
    NON_SPADE_MASK,
    RANKS,
    SPADE_MASK,
    SPADES,
    trick_winner,
)
from spades_core.values import deprecation
from spades_core.values.actions import Action, Bid, Play
from spades_core.values.cards import ALL_CARDS, SUIT_MASKS, Rank, ids_of_mask
from spades_core.values.options import DoubleNil
from spades_core.values.seats import Seat

__all__ = ["Tip", "coach"]

_SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
_SUIT_SINGULAR: Final = ("club", "diamond", "heart", "spade")


@final
@attrs.frozen
class Tip:
    """A suggested action and the reason for it."""

    action: Action
    """One of the view's legal actions."""
    reason: str
    """Plain English naming the cards and the idea: one sentence, after the
    variant's own sentence on what limits the bid when that decides it."""
    idea: str
    """A short machine-readable name of the idea (``"cash_winner"``, ``"protect_cover"``…)."""


def coach(view: View) -> Tip:
    """The normal player's move for the seat of ``view`` and why.

    The view must be of the seat to act (its ``legal_actions()`` not empty);
    otherwise :class:`~spades_core.IllegalActionError` is raised. Anything
    but a view raises :class:`~spades_core.ArgumentTypeError`.
    """
    arguments.view(view, "coach")
    action, why = _COACH_BOT.decide(view)
    if isinstance(action, Bid):
        reason = _bid_reason(view, action.value, why)
    elif isinstance(action, Play):
        reason = _play_reason(_Seen(view), action.card.id, why)
    else:  # pragma: no cover - bots never deal
        reason = "Deal the next hand."
    return Tip(action=action, reason=reason, idea=why.name.lower())


_COACH_BOT: Final = NormalBot(seed=0)


# -- words -----------------------------------------------------------------------


def name(card: int) -> str:
    """A card for people: ``"10♥"``, ``"K♠"``."""
    return ALL_CARDS[card].symbol


def _join(words: list[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _names(cards: list[int]) -> str:
    return _join([name(c) for c in cards])


def _cards_desc(mask: int) -> list[int]:
    return ids_of_mask(mask)[::-1]


def _seat(seat: int) -> str:
    return Seat(seat).name.title()


def _bid_text(bid: int) -> str:
    return "Nil" if bid == 0 else str(bid)


def _count(number: int, word: str) -> str:
    """``"1 spade"``, ``"3 spades"``."""
    return f"{number} {word}{'s' if number != 1 else ''}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- bids ------------------------------------------------------------------------


def _bid_reason(view: View, bid: int, why: Why) -> str:
    legal = tuple(a.value for a in view.legal_actions() if isinstance(a, Bid))
    limits = view.explain_bids()
    hand = view.hand().mask
    if len(legal) == 1:
        # One bid is always a limit, so the variant explains it (checked: never None).
        return limits or f"{_bid_text(bid)} is your only legal bid."
    if why is Why.BID_NIL_WEAK and bid == 0:
        return _weak_hand_reason(view, hand)
    if why is Why.BID_WHIZ_COUNT:
        prefix = f"{limits} " if limits else ""
        return f"{prefix}{_nil_too_risky(hand)}: bid {_bid_text(bid)}."
    return _estimate_reason(view, legal, limits, bid)


def _weak_hand_reason(view: View, hand: int) -> str:
    cards = _cards_desc(hand)
    top_rank = max(card % RANKS for card in cards)
    tops = [card for card in cards if card % RANKS == top_rank]
    best = (
        f"your best card is the {name(tops[0])}"
        if len(tops) == 1
        else f"your best cards are the {_names(tops)}"
    )
    spades = _cards_desc(hand & SPADE_MASK)
    spade_part = "no spades" if not spades else f"only the {_names(spades)} in spades"
    rules = view.rules
    partner = view.bids[view.seat.partner] if view.seat is not None else None
    if partner == 0 and rules.double_nil is not DoubleNil.INDEPENDENT:
        # Two Nils in one team score together under this option: no single value to name.
        worth = " as your partner did"
    else:
        worth = f" for {rules.nil_value} points"
    return f"Your hand is weak ({best}, with {spade_part}), so bid Nil{worth}."


def _nil_too_risky(hand: int) -> str:
    strong = _strong_cards(hand)
    spades = (hand & SPADE_MASK).bit_count()
    if strong:
        return f"Nil is too risky with the {_names(strong)}"
    if spades > 1:
        return f"Nil is too risky holding {spades} spades"
    return "Nil is too risky with this hand"


def _strong_cards(hand: int) -> list[int]:
    """Aces, kings with company, and the Q♠ with two more spades: the cards
    likely to win tricks, spades first."""
    out = []
    for suit in range(4):
        bits = hand & SUIT_MASKS[suit]
        length = bits.bit_count()
        ace = RANKS * suit + Rank.ACE
        king = ace - 1
        queen = ace - 2
        if bits >> ace & 1:
            out.append(ace)
        if bits >> king & 1 and length >= 2:
            out.append(king)
        if suit == SPADES and bits >> queen & 1 and length >= 3:
            out.append(queen)
    return sorted(out, key=lambda c: (-(c >= FIRST_SPADE), -(c % RANKS), c))


def _estimate_reason(view: View, legal: tuple[int, ...], limits: str | None, bid: int) -> str:
    """The tricks the hand is expected to take, item by item as
    :func:`~spades_core.bots.bidding.estimate_parts` counts them, so the words
    account for the whole estimate; then how the bid follows from it."""
    hand = view.hand().mask
    estimate = estimate_tricks(hand)
    expected = int(estimate + 0.5)
    parts = estimate_parts(hand)
    # A card worth a whole trick is a winner; everything else adds a part of one.
    whole = [part.kind == "card" and part.value == 1.0 for part in parts]
    winners = [part.what for part, is_whole in zip(parts, whole, strict=True) if is_whole]
    others = [
        _part_words(part, hand) for part, is_whole in zip(parts, whole, strict=True) if not is_whole
    ]
    sure = len(winners)
    rest = expected - sure
    if expected == 0:
        head = (
            "You can expect less than half a trick, from " + _join(others)
            if others
            else "You can expect no tricks"
        )
    elif sure and rest:
        head = (
            f"You can expect about {_count(expected, 'trick')}: the {_names(winners)} should "
            f"take {sure}, and {_join(others)} about {rest} more"
        )
    elif sure:
        head = (
            f"You can expect about {_count(expected, 'trick')}: the {_names(winners)} should "
            f"take {sure}"
        )
        if others:
            verb = "adds" if len(others) == 1 else "add"
            head += f", and {_join(others)} {verb} less than half a trick"
    else:
        head = f"You can expect about {_count(expected, 'trick')} from {_join(others)}"
    counts = [value for value in legal if value]
    partner = view.bids[view.seat.partner] if view.seat is not None else None
    if bid == expected:
        choice = f", so bid {_bid_text(bid)}"
    elif counts and bid == max(counts) and bid < expected:
        choice = f"; bid {bid}, the most you may"
    elif counts and bid == min(counts) and bid > expected:
        if partner == 0:
            why_not_nil = " (your partner bid Nil)"
        elif 0 in legal:
            why_not_nil = " (Nil looks too risky)"
        else:
            why_not_nil = ""
        choice = f"; bid {bid}, the least you may above Nil{why_not_nil}"
    elif bid in counts and all(abs(bid - expected) <= abs(v - expected) for v in counts):
        choice = f"; bid {bid}, the nearest you may to {expected}"
    else:
        choice = f"; bid {_bid_text(bid)}"
    partner_part = (
        f" (with your partner's {_bid_text(partner)}, a team contract of {partner + bid})"
        if partner is not None
        else ""
    )
    sentence = f"{head}{choice}{partner_part}."
    if limits and bid != expected:
        return f"{limits} {sentence}"
    return sentence


def _part_words(part: EstimatePart, hand: int) -> str:
    kind, what, _ = part
    if kind == "card":
        return f"the {name(what)}"
    if kind == "length":
        return f"the length of your {(hand & SPADE_MASK).bit_count()} spades"
    suits = [_SUIT_NAMES[suit] for suit in range(3) if what >> suit & 1]
    return f"trumping in your short {_join(suits)}"


# -- plays -----------------------------------------------------------------------


class _Seen:
    """What the seat to act knows in play, as card ids and masks: its hand and
    legal cards, the trick so far, the cards it has not seen, and the suits
    each seat is known not to hold."""

    def __init__(self, view: View) -> None:
        assert view.seat is not None  # a view with legal actions has a seat
        self.view = view
        self.seat = int(view.seat)
        self.partner = self.seat ^ 2
        self.hand = view.hand().mask
        legal = 0
        for action in view.legal_actions():
            if isinstance(action, Play):
                legal |= action.card.mask
        self.legal = legal
        self.unseen = view.unseen.mask
        plays = [(int(seat), card.id) for seat, card in view.current_trick]
        self.trick = [card for _, card in plays]
        self.position = len(plays)
        """How many cards were played to the trick before this seat's."""
        self.after = tuple((self.seat + k) % 4 for k in range(1, 4 - self.position))
        """The seats still to play to the trick after this one, in order."""
        self.led = self.trick[0] // RANKS if plays else NO_SUIT
        self.winner = -1
        self.best = -1
        if plays:
            padded = (*self.trick, *(self.trick[0],) * (4 - len(self.trick)))
            place = trick_winner(padded)
            self.winner, self.best = plays[place]
        out = []
        counts = view.spade_counts.values_
        for seat in Seat:
            suits = sum(1 << suit for suit in view.shown_out[seat])
            if counts[seat] is not None and view.spades_left(seat) == 0:
                suits |= 1 << SPADES
            out.append(suits)
        self.lacks = out
        """Per seat, the 4-bit set of suits it cannot hold: shown out, or (spades)
        its revealed spade count all played."""

    # -- facts ---------------------------------------------------------------

    @staticmethod
    def beats(card: int, best: int) -> bool:
        """Whether ``card`` played to a trick that ``best`` is winning would win it."""
        return trick_winner((best, card, best, best)) == 1

    def may_hold(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` may hold a card of ``suit``, as far as the seat to act knows."""
        return not self.lacks[seat] >> suit & 1 and bool(self.unseen & SUIT_MASKS[suit])

    def could_beat(self, seat: int, card: int) -> tuple[bool, bool]:
        """Whether ``seat``, still to play, could beat ``card`` winning the trick:
        (with a higher card of the suit led, by trumping)."""
        led = self.led if self.led != NO_SUIT else card // RANKS
        # Only a card of the suit led or a spade can beat anything.
        candidates = ids_of_mask(self.unseen & (SUIT_MASKS[led] | SPADE_MASK))
        higher = [other for other in candidates if self.beats(other, card)]
        by_rank = any(other // RANKS == led for other in higher) and self.may_hold(seat, led)
        by_trump = (
            led != SPADES
            and any(other >= FIRST_SPADE for other in higher)
            and self.may_hold(seat, SPADES)
        )
        return by_rank, by_trump

    def threat(self, card: int) -> str:
        """Who still to play could beat ``card``, as a clause."""
        shown = name(card)
        found = [(seat, *self.could_beat(seat, card)) for seat in self.after]
        threats = [(seat, rank, trump) for seat, rank, trump in found if rank or trump]
        opponents = [(seat, rank) for seat, rank, _ in threats if seat != self.partner]
        if not threats:
            return f"nobody still to play can beat the {shown}"
        if not opponents:
            return f"no opponent still to play can beat the {shown}"
        if not any(rank for _, rank in opponents):
            return f"no opponent still to play can beat the {shown} except by trumping"
        who = " or ".join(_seat(seat) for seat, _ in opponents)
        return f"{who} could still beat the {shown}"

    def nobody_beats(self, card: int) -> bool:
        """Whether no seat still to play could beat ``card``."""
        return not any(any(self.could_beat(seat, card)) for seat in self.after)

    def nil_alive(self, seat: int) -> bool:
        """Whether ``seat`` bid Nil and has taken no trick this hand."""
        view = self.view
        return view.bids.values_[seat] == 0 and view.tricks_won.values_[seat] == 0

    def lowest_of_suit(self, card: int) -> bool:
        """Whether ``card`` is the lowest card of its suit in the hand."""
        mine = self.hand & SUIT_MASKS[card // RANKS]
        return mine & -mine == 1 << card

    def highest_left(self, card: int) -> bool:
        """Whether no card of ``card``'s suit above it is left unplayed, in
        this hand or another."""
        suit = SUIT_MASKS[card // RANKS]
        return not any(other > card for other in ids_of_mask((self.unseen | self.hand) & suit))

    def higher_out(self, card: int) -> int:
        """How many cards of ``card``'s suit above it are still out."""
        return sum(other > card for other in ids_of_mask(self.unseen & SUIT_MASKS[card // RANKS]))

    def opponents_may_trump(self) -> bool:
        """Whether an opponent may still hold a spade."""
        return self.may_hold(self.seat ^ 1, SPADES) or self.may_hold(self.seat ^ 3, SPADES)


def _play_reason(seen: _Seen, card: int, why: Why) -> str:
    reason = _LEADS.get(why)
    if reason is not None and not seen.trick:
        return reason(seen, card)
    reason = _FOLLOWS.get(why)
    if reason is not None and seen.trick:
        return reason(seen, card)
    if why in _DUCKS:
        return _duck_reason(seen, card, why)
    if why is Why.ONLY_CHOICE or seen.legal == 1 << card:
        return f"The {name(card)} is your only legal card."
    return f"Play the {name(card)}."  # pragma: no cover - every idea is described


# -- leads -------------------------------------------------------------------------


def _lead_ace(seen: _Seen, card: int) -> str:
    if seen.highest_left(card):
        return f"Lead your {name(card)}: it is the highest {_SUIT_SINGULAR[card // RANKS]} left."
    return f"Lead your {name(card)}."


def _lead_low(seen: _Seen, card: int) -> str:
    suit = card // RANKS
    hand = seen.hand
    lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    longest = max(lengths)
    longest_side = max(lengths[:SPADES])
    where = ""
    if lengths[suit] == longest:
        where = "your longest suit" if lengths.count(longest) == 1 else "one of your longest suits"
    elif suit != SPADES and lengths[suit] == longest_side:
        # Spades are longer: say so, and whether they may be led.
        ties = lengths[:SPADES].count(longest_side)
        where = "your longest suit" if ties == 1 else "one of your longest suits"
        where += " outside spades"
        if not seen.legal & SPADE_MASK:
            where += " (spades may not be led yet)"
    text = f"Lead your lowest {_SUIT_SINGULAR[suit]}, the {name(card)}"
    if not seen.lowest_of_suit(card):
        text = f"Lead the {name(card)}"
    if where:
        text += f", from {where}"
    if hand & SUIT_MASKS[suit] & ~((2 << card) - 1):
        text += f", and keep your higher {_SUIT_NAMES[suit]} for later"
    return text + "."


def _cash_winner(seen: _Seen, card: int) -> str:
    suit = card // RANKS
    if not seen.highest_left(card):
        return f"Lead your {name(card)}."
    text = f"The {name(card)} is the highest {_SUIT_SINGULAR[suit]} left"
    if seen.opponents_may_trump():
        return (
            f"{text}: cash it now; an opponent who runs out of {_SUIT_NAMES[suit]} could "
            "trump it later."
        )
    return f"{text}, and no opponent can trump it: cash it now."


def _draw_trumps(seen: _Seen, card: int) -> str:
    if not seen.highest_left(card):
        return f"Lead your {name(card)}."
    text = f"Your {name(card)} is the highest spade left"
    if not seen.opponents_may_trump():
        return f"{text}: lead it."
    winners = [top for top in _cards_desc(seen.hand & NON_SPADE_MASK) if seen.highest_left(top)]
    tail = f", so they cannot trump your {_names(winners)}" if winners else ""
    return f"{text}: lead it to draw the opponents' spades{tail}."


def _lead_for_partner_ruff(seen: _Seen, card: int) -> str:
    suit = card // RANKS
    partner = seen.partner
    if seen.lacks[partner] >> suit & 1 and seen.may_hold(partner, SPADES):
        return (
            f"Your partner is out of {_SUIT_NAMES[suit]} and may still hold spades: lead "
            f"the {name(card)} so they can trump it."
        )
    return f"Lead the {name(card)}."


def _lead_short_suit(seen: _Seen, card: int) -> str:
    suit = card // RANKS
    if seen.hand & SUIT_MASKS[suit] == 1 << card and seen.hand & SPADE_MASK:
        return (
            f"Lead your last {_SUIT_SINGULAR[suit]}, the {name(card)}: once you are out of "
            f"{_SUIT_NAMES[suit]} you can trump them with your spades."
        )
    return f"Lead the {name(card)}."


def _nil_lead(seen: _Seen, card: int) -> str:
    return f"You bid Nil: lead the {name(card)}, with {_still_out(seen, card)}."


def _still_out(seen: _Seen, card: int) -> str:
    """``"9 higher diamonds still out"``, ``"no higher spade still out"``."""
    count = seen.higher_out(card)
    suit = card // RANKS
    if not count:
        return f"no higher {_SUIT_SINGULAR[suit]} still out"
    word = _SUIT_SINGULAR[suit] if count == 1 else _SUIT_NAMES[suit]
    return f"{count} higher {word} still out"


def _protect_lead_void(seen: _Seen, card: int) -> str:
    suit = card // RANKS
    if seen.lacks[seen.partner] >> suit & 1:
        return (
            f"Your partner bid Nil and is out of {_SUIT_NAMES[suit]}: lead the {name(card)} "
            "so they can throw away a dangerous card."
        )
    return f"Your partner bid Nil: lead the {name(card)}."


def _protect_lead_high(seen: _Seen, card: int) -> str:
    return (
        f"Your partner bid Nil: lead your {name(card)}, {_highest_words(seen, card)}, so "
        "they can play under it."
    )


def _highest_words(seen: _Seen, card: int) -> str:
    """Where ``card`` stands by rank among the hand's cards outside spades (or
    among its spades): ``"your highest card outside spades"``."""
    if card >= FIRST_SPADE:
        return "your highest spade" if seen.hand >> card == 1 else "one of your spades"
    ranks = [other % RANKS for other in ids_of_mask(seen.hand & NON_SPADE_MASK)]
    if card % RANKS != max(ranks):
        return "a card outside spades"
    if ranks.count(max(ranks)) > 1:
        return "one of your highest cards outside spades"
    return "your highest card outside spades"


def _attack_lead(seen: _Seen, card: int) -> str:
    nils = [seat for seat in (seen.seat ^ 1, seen.seat ^ 3) if seen.nil_alive(seat)]
    names = " and ".join(_seat(seat) for seat in sorted(nils, key=lambda s: (s - seen.seat) % 4))
    who = f"{names} both bid Nil" if len(nils) == 2 else f"{names} bid Nil"
    suit = card // RANKS
    low = (
        f"your lowest {_SUIT_SINGULAR[suit]}, the {name(card)}"
        if seen.lowest_of_suit(card)
        else f"the {name(card)}"
    )
    them = "them" if len(nils) == 1 else "them both"
    return f"{who}: lead {low}, to make it hard for {them} to stay under."


# -- following ---------------------------------------------------------------------


def _out_of_led(seen: _Seen) -> bool:
    return not seen.hand & SUIT_MASKS[seen.led]


def _win_cheaply(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    beaters = [other for other in ids_of_mask(seen.legal) if seen.beats(other, seen.best)]
    if card not in beaters:  # pragma: no cover - the idea is to win
        return f"Play the {name(card)}."
    cheapest = min(beaters, key=lambda other: (other // RANKS != seen.led, other))
    what = "the cheapest card" if card == cheapest else "a card"
    if not seen.after:
        return (
            f"You play last: the {name(card)} is {what} that beats the {winning}, so the "
            "trick is yours."
        )
    return f"The {name(card)} is {what} that beats the {winning}: {seen.threat(card)}."


def _win_surely(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    if not seen.beats(card, seen.best):  # pragma: no cover - the idea is to win
        return f"Play the {name(card)}."
    if seen.nobody_beats(card):
        return (
            f"Nobody still to play can beat your {name(card)}: it takes the trick over "
            f"the {winning}."
        )
    return f"Play your {name(card)} over the {winning}: {seen.threat(card)}."


def _second_hand_low(seen: _Seen, card: int) -> str:
    suit = card // RANKS
    lowest = seen.lowest_of_suit(card) and suit == seen.led
    higher = bool(seen.hand & SUIT_MASKS[suit] & ~((2 << card) - 1))
    if seen.position == 1 and lowest and higher:
        return (
            f"Second to play, keep your higher {_SUIT_NAMES[suit]}: play your lowest "
            f"{_SUIT_SINGULAR[suit]}, the {name(card)}, and let your partner, who plays last, "
            "try to win."
        )
    return f"Play the {name(card)}."  # pragma: no cover - second hand low is second and low


def _third_hand_high(seen: _Seen, card: int) -> str:
    suit = card // RANKS
    highest = not seen.hand & SUIT_MASKS[suit] & ~((2 << card) - 1)
    if seen.position == 2 and suit == seen.led and highest and seen.beats(card, seen.best):
        return (
            f"Only an opponent plays after you: play your highest {_SUIT_SINGULAR[suit]}, the "
            f"{name(card)}, to beat the {name(seen.best)} and make them use their best card."
        )
    return f"Play the {name(card)}."  # pragma: no cover - third hand high is third and high


def _trump(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    led = _SUIT_NAMES[seen.led]
    beaters = [
        other for other in ids_of_mask(seen.legal & SPADE_MASK) if seen.beats(other, seen.best)
    ]
    if card not in beaters or not _out_of_led(seen):  # pragma: no cover - a trump beats
        return f"Play the {name(card)}."
    lowest = min(beaters)
    if card == lowest:
        return (
            f"You are out of {led}: trump with your {name(card)}, the lowest spade that beats "
            f"the {winning}."
        )
    found = [seat for seat in seen.after if any(seen.could_beat(seat, lowest))]
    opponents = [seat for seat in found if seat != seen.partner]
    if opponents:
        who = " or ".join(_seat(seat) for seat in opponents)
        return (
            f"You are out of {led}: trump with your {name(card)} rather than your "
            f"{name(lowest)}, which {who} could overtrump; {seen.threat(card)}."
        )
    return f"You are out of {led}: trump with your {name(card)}; {seen.threat(card)}."


def _throw_low(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    suit = card // RANKS
    if any(seen.beats(other, seen.best) for other in ids_of_mask(seen.legal)):
        return f"Play the {name(card)}."  # pragma: no cover - thrown when nothing beats
    verb = "play" if suit == seen.led else "throw away"
    if seen.lowest_of_suit(card):
        return (
            f"You cannot beat the {winning}: {verb} your lowest {_SUIT_SINGULAR[suit]}, "
            f"the {name(card)}."
        )
    return f"You cannot beat the {winning}: {verb} the {name(card)}."


def _partner_winning(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    if seen.winner != seen.partner:  # pragma: no cover - the idea is the partner's trick
        return f"Play the {name(card)}."
    start = f"Your partner is winning this trick with the {winning}"
    if not seen.beats(card, seen.best):
        return f"{start}: don't overtake; play your {name(card)}."
    if all(seen.beats(other, seen.best) for other in ids_of_mask(seen.legal)):
        return (
            f"{start}, but every card you may play beats it: play the {name(card)}; "
            f"{seen.threat(card)}."
        )
    return f"{start}: play your {name(card)}; {seen.threat(card)}."


def _secure_partner_trick(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    threats = [
        seat
        for seat in seen.after
        if seat != seen.partner and any(seen.could_beat(seat, seen.best))
    ]
    if seen.winner != seen.partner or not threats or not seen.beats(card, seen.best):
        return f"Play the {name(card)}."  # pragma: no cover - the idea needs all three
    who = " or ".join(_seat(seat) for seat in threats)
    plays = "play" if len(threats) > 1 else "plays"
    return (
        f"Your partner's {winning} could still be beaten by {who}, who {plays} after you: "
        f"play your {name(card)} over it; {seen.threat(card)}."
    )


def _nil_under(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    under = [other for other in ids_of_mask(seen.legal) if not seen.beats(other, seen.best)]
    if card in under and card == max(under, key=lambda other: (other % RANKS, other)):
        return (
            f"You bid Nil: play your {name(card)}, the highest card you may play that still "
            f"loses to the {winning}."
        )
    if card in under:
        return f"You bid Nil: play your {name(card)}, which loses to the {winning}."
    return f"You bid Nil: play the {name(card)}."  # pragma: no cover - under is under


def _nil_discard(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    led = _SUIT_NAMES[seen.led]
    under = [other for other in ids_of_mask(seen.legal) if not seen.beats(other, seen.best)]
    if card not in under or not _out_of_led(seen):  # pragma: no cover - a discard loses
        return f"You bid Nil: play the {name(card)}."
    ranks = [other % RANKS for other in under]
    if card % RANKS == max(ranks):
        which = (
            "your highest card that does not beat"
            if ranks.count(max(ranks)) == 1
            else "one of your highest cards that do not beat"
        )
        return (
            f"You bid Nil and are out of {led}: throw away the {name(card)}, {which} the {winning}."
        )
    return f"You bid Nil and are out of {led}: throw away the {name(card)}."


def _forced(seen: _Seen, card: int) -> str:
    """After "every card you may play beats the ...": what to do about it."""
    suit = _SUIT_SINGULAR[card // RANKS]
    legal = ids_of_mask(seen.legal)
    if not seen.after:
        which = (
            f"your highest {suit}, the {name(card)}"
            if card == max(legal)
            else f"your lowest {suit}, the {name(card)}"
            if card == min(legal)
            else f"the {name(card)}"
        )
        return f"you play last, so the trick is yours: play {which}"
    which = f"your lowest {suit}, the {name(card)}" if card == min(legal) else f"the {name(card)}"
    if seen.nobody_beats(card):
        return f"play {which}; nobody still to play can beat the {name(card)}"
    return f"play {which}, and hope someone still to play beats it"


def _nil_forced(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    if not all(seen.beats(other, seen.best) for other in ids_of_mask(seen.legal)):
        return f"You bid Nil: play the {name(card)}."  # pragma: no cover - forced is forced
    return f"You bid Nil, but every card you may play beats the {winning}: {_forced(seen, card)}."


def _protect_cover(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    suit = card // RANKS
    after = seen.partner in seen.after
    if not after:  # pragma: no cover - covering is for a partner still to play
        return f"Your partner bid Nil: play the {name(card)}."
    if not seen.beats(card, seen.best):
        highest = not seen.legal & SUIT_MASKS[suit] & ~((2 << card) - 1)
        which = (
            f"your highest {_SUIT_SINGULAR[suit]}, the {name(card)}"
            if highest
            else f"the {name(card)}"
        )
        return f"Your partner bid Nil and plays after you: play {which}."
    below = seen.unseen & SUIT_MASKS[suit] & ((1 << card) - 1)
    if below:
        return (
            f"Your partner bid Nil and the {name(below.bit_length() - 1)} is still out: play "
            f"your {name(card)} over the {winning} so they can play under it."
        )
    return (
        f"Your partner bid Nil and plays after you: play your {name(card)} over the "
        f"{winning} so they can play under it."
    )


def _protect_overtake(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    if seen.winner != seen.partner or not seen.beats(card, seen.best):  # pragma: no cover
        return f"Your partner bid Nil: play the {name(card)}."
    return (
        f"Your partner bid Nil and is winning this trick with the {winning}: overtake with "
        f"your {name(card)} so they do not take it."
    )


def _protect_trump(seen: _Seen, card: int) -> str:
    if seen.partner not in seen.after or not seen.beats(card, seen.best):  # pragma: no cover
        return f"Your partner bid Nil: play the {name(card)}."
    return (
        f"Your partner bid Nil and plays after you: trump with your {name(card)} so they "
        "can throw a card under it."
    )


def _attack_under(seen: _Seen, card: int) -> str:
    winning = name(seen.best)
    nil = seen.winner
    if not seen.nil_alive(nil) or seen.beats(card, seen.best):  # pragma: no cover
        return f"Play the {name(card)}."
    tail = (
        ", so they have to take it"
        if seen.nobody_beats(seen.best)
        else f"; {seen.threat(seen.best)}"
    )
    return (
        f"{_seat(nil)} bid Nil and is winning this trick with the {winning}: play under it "
        f"with your {name(card)}{tail}."
    )


def _attack_low(seen: _Seen, card: int) -> str:
    nils = [seat for seat in seen.after if seat != seen.partner and seen.nil_alive(seat)]
    if not nils:  # pragma: no cover - attacking a Nil still to play
        return f"Play the {name(card)}."
    return (
        f"{_seat(nils[0])} bid Nil and plays after you: play your {name(card)} and leave them "
        "room to be forced to win the trick."
    )


_LEADS: Final = {
    Why.LEAD_ACE: _lead_ace,
    Why.LEAD_LOW: _lead_low,
    Why.CASH_WINNER: _cash_winner,
    Why.DRAW_TRUMPS: _draw_trumps,
    Why.LEAD_FOR_PARTNER_RUFF: _lead_for_partner_ruff,
    Why.LEAD_SHORT_SUIT: _lead_short_suit,
    Why.NIL_LEAD: _nil_lead,
    Why.PROTECT_LEAD_VOID: _protect_lead_void,
    Why.PROTECT_LEAD_HIGH: _protect_lead_high,
    Why.ATTACK_LEAD: _attack_lead,
}
_FOLLOWS: Final = {
    Why.WIN_CHEAPLY: _win_cheaply,
    Why.WIN_SURELY: _win_surely,
    Why.SECOND_HAND_LOW: _second_hand_low,
    Why.THIRD_HAND_HIGH: _third_hand_high,
    Why.TRUMP: _trump,
    Why.THROW_LOW: _throw_low,
    Why.PARTNER_WINNING: _partner_winning,
    Why.SECURE_PARTNER_TRICK: _secure_partner_trick,
    Why.NIL_UNDER: _nil_under,
    Why.NIL_DISCARD: _nil_discard,
    Why.NIL_FORCED: _nil_forced,
    Why.PROTECT_COVER: _protect_cover,
    Why.PROTECT_OVERTAKE: _protect_overtake,
    Why.PROTECT_TRUMP: _protect_trump,
    Why.ATTACK_UNDER: _attack_under,
    Why.ATTACK_LOW: _attack_low,
}
_DUCKS: Final = frozenset({Why.DUCK_LEAD, Why.DUCK, Why.DUCK_DISCARD, Why.DUCK_FORCED})


def _more_tricks_score_nothing(seen: _Seen, remaining: int) -> bool:
    """Whether the team's score for the hand is the same however many of the
    ``remaining`` tricks the seat to act wins (the rest going to an opponent),
    by the variant's own scoring."""
    view = seen.view
    bids = tuple(0 if bid is None else bid for bid in view.bids.values_)
    before = view.bags.values_
    team = seen.seat & 1
    outcomes = set()
    for won in range(remaining + 1):
        tricks = list(view.tricks_won.values_)
        tricks[seen.seat] += won
        tricks[seen.seat ^ 1] += remaining - won
        points, bags = checked_score_hand(
            view.variant, view.rules, bids, tuple(tricks), (before[0], before[1])
        )
        outcomes.add((points[team], bags[team]))
    return len(outcomes) == 1


def _duck_reason(seen: _Seen, card: int, why: Why) -> str:
    """Why to lose a trick on purpose: the contract is made (more tricks are
    bags), cannot be made any more (more tricks score nothing), or was never
    wanted (both partners bid Nil)."""
    table = table_from_view(seen.view)
    seat = seen.seat
    contract = table.contract(seat)
    counted = table.counted(seat)
    team_bags = seen.view.bags.values_[seat & 1]
    if contract == 0:
        standing = "You and your partner both bid Nil"
        goal = " to take no more tricks"
    elif counted >= contract:
        standing = (
            f"Your team has made its contract of {contract} ({counted} tricks so far) and has "
            f"{_count(team_bags, 'bag')} from earlier hands"
        )
        goal = " to avoid another bag" if why is Why.DUCK else " to avoid taking more bags"
    else:
        standing = (
            f"Your team can no longer make its contract of {contract} ({counted} tricks so far, "
            f"{table.remaining()} still to play)"
        )
        if _more_tricks_score_nothing(seen, table.remaining()):
            standing += ", so winning tricks would score nothing"
        goal = ""
    shown = name(card)
    if why is Why.DUCK_LEAD and not seen.trick:
        return f"{standing}: lead the {shown}, with {_still_out(seen, card)}{goal and ','}{goal}."
    if not seen.trick:  # pragma: no cover - the other ducks follow
        return f"{standing}: lead the {shown}."
    winning = name(seen.best)
    if why is Why.DUCK_FORCED and all(
        seen.beats(other, seen.best) for other in ids_of_mask(seen.legal)
    ):
        forced = _forced(seen, card)
        return f"{standing}, but every card you may play beats the {winning}: {forced}."
    if seen.beats(card, seen.best):  # pragma: no cover - a duck loses
        return f"{standing}: play the {shown}."
    if why is Why.DUCK_DISCARD and card < FIRST_SPADE and _out_of_led(seen):
        return (
            f"{standing}: throw away the {shown}, {_highest_words(seen, card)}{goal and ','}{goal}."
        )
    return f"{standing}: play the {shown} under the {winning}{goal}."


def _bid_rule(view: View) -> str:
    """``spades_core.tips.bid_rule`` of release 0.1: the variant's sentence on
    what limits the bid, or one saying every bid is open."""
    return view.explain_bids() or "Every bid from Nil to 13 is open to you."


__getattr__ = deprecation.OldNames(
    "spades_core.tips",
    {
        "bid_rule": (
            _bid_rule,
            "View.explain_bids(), the variant's own sentence (None when every bid is open)",
        )
    },
).attribute
