"""The coach's words for a card that follows: winning the trick, ducking
under it, trumping, covering a partner's Nil, and who still to play could
beat the card."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from spades_core.bots import Why
from spades_core.rules.tricks import RANKS, SPADE_MASK
from spades_core.tips._seen import Seen
from spades_core.tips._words import SUIT_NAMES, SUIT_SINGULAR, name, seat_name
from spades_core.values.cards import SUIT_MASKS, ids_of_mask

__all__ = ["FOLLOWS", "forced_words", "out_of_led"]


def out_of_led(seen: Seen) -> bool:
    """Whether the seat to act holds no card of the suit led."""
    return not seen.hand & SUIT_MASKS[seen.led]


def _win_cheaply(seen: Seen, card: int) -> str:
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


def _win_surely(seen: Seen, card: int) -> str:
    winning = name(seen.best)
    if not seen.beats(card, seen.best):  # pragma: no cover - the idea is to win
        return f"Play the {name(card)}."
    if seen.nobody_beats(card):
        return (
            f"Nobody still to play can beat your {name(card)}: it takes the trick over "
            f"the {winning}."
        )
    return f"Play your {name(card)} over the {winning}: {seen.threat(card)}."


def _second_hand_low(seen: Seen, card: int) -> str:
    suit = card // RANKS
    lowest = seen.lowest_of_suit(card) and suit == seen.led
    higher = bool(seen.hand & SUIT_MASKS[suit] & ~((2 << card) - 1))
    if seen.position == 1 and lowest and higher:
        return (
            f"Second to play, keep your higher {SUIT_NAMES[suit]}: play your lowest "
            f"{SUIT_SINGULAR[suit]}, the {name(card)}, and let your partner, who plays last, "
            "try to win."
        )
    return f"Play the {name(card)}."  # pragma: no cover - second hand low is second and low


def _third_hand_high(seen: Seen, card: int) -> str:
    suit = card // RANKS
    highest = not seen.hand & SUIT_MASKS[suit] & ~((2 << card) - 1)
    if seen.position == 2 and suit == seen.led and highest and seen.beats(card, seen.best):
        return (
            f"Only an opponent plays after you: play your highest {SUIT_SINGULAR[suit]}, the "
            f"{name(card)}, to beat the {name(seen.best)} and make them use their best card."
        )
    return f"Play the {name(card)}."  # pragma: no cover - third hand high is third and high


def _trump(seen: Seen, card: int) -> str:
    winning = name(seen.best)
    led = SUIT_NAMES[seen.led]
    beaters = [
        other for other in ids_of_mask(seen.legal & SPADE_MASK) if seen.beats(other, seen.best)
    ]
    if card not in beaters or not out_of_led(seen):  # pragma: no cover - a trump beats
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
        who = " or ".join(seat_name(seat) for seat in opponents)
        return (
            f"You are out of {led}: trump with your {name(card)} rather than your "
            f"{name(lowest)}, which {who} could overtrump; {seen.threat(card)}."
        )
    return f"You are out of {led}: trump with your {name(card)}; {seen.threat(card)}."


def _throw_low(seen: Seen, card: int) -> str:
    winning = name(seen.best)
    suit = card // RANKS
    if any(seen.beats(other, seen.best) for other in ids_of_mask(seen.legal)):
        return f"Play the {name(card)}."  # pragma: no cover - thrown when nothing beats
    verb = "play" if suit == seen.led else "throw away"
    if seen.lowest_of_suit(card):
        return (
            f"You cannot beat the {winning}: {verb} your lowest {SUIT_SINGULAR[suit]}, "
            f"the {name(card)}."
        )
    return f"You cannot beat the {winning}: {verb} the {name(card)}."


def _partner_winning(seen: Seen, card: int) -> str:
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


def _secure_partner_trick(seen: Seen, card: int) -> str:
    winning = name(seen.best)
    threats = [
        seat
        for seat in seen.after
        if seat != seen.partner and any(seen.could_beat(seat, seen.best))
    ]
    if seen.winner != seen.partner or not seen.beats(card, seen.best):
        return f"Play the {name(card)}."  # pragma: no cover - the idea needs both
    if not threats:
        # The player guards against a threat that counting rules out: say what
        # is true of the partner's trick instead.
        return _partner_winning(seen, card)
    who = " or ".join(seat_name(seat) for seat in threats)
    plays = "play" if len(threats) > 1 else "plays"
    return (
        f"Your partner's {winning} could still be beaten by {who}, who {plays} after you: "
        f"play your {name(card)} over it; {seen.threat(card)}."
    )


def _nil_under(seen: Seen, card: int) -> str:
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


def _nil_discard(seen: Seen, card: int) -> str:
    winning = name(seen.best)
    led = SUIT_NAMES[seen.led]
    under = [other for other in ids_of_mask(seen.legal) if not seen.beats(other, seen.best)]
    if card not in under or not out_of_led(seen):  # pragma: no cover - a discard loses
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


def forced_words(seen: Seen, card: int) -> str:
    """After "every card you may play beats the ...": what to do about it."""
    suit = SUIT_SINGULAR[card // RANKS]
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


def _nil_forced(seen: Seen, card: int) -> str:
    winning = name(seen.best)
    if not all(seen.beats(other, seen.best) for other in ids_of_mask(seen.legal)):
        return f"You bid Nil: play the {name(card)}."  # pragma: no cover - forced is forced
    forced = forced_words(seen, card)
    return f"You bid Nil, but every card you may play beats the {winning}: {forced}."


def _protect_cover(seen: Seen, card: int) -> str:
    winning = name(seen.best)
    suit = card // RANKS
    after = seen.partner in seen.after
    if not after:  # pragma: no cover - covering is for a partner still to play
        return f"Your partner bid Nil: play the {name(card)}."
    if not seen.beats(card, seen.best):
        highest = not seen.legal & SUIT_MASKS[suit] & ~((2 << card) - 1)
        which = (
            f"your highest {SUIT_SINGULAR[suit]}, the {name(card)}"
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


def _protect_overtake(seen: Seen, card: int) -> str:
    winning = name(seen.best)
    if seen.winner != seen.partner or not seen.beats(card, seen.best):  # pragma: no cover
        return f"Your partner bid Nil: play the {name(card)}."
    return (
        f"Your partner bid Nil and is winning this trick with the {winning}: overtake with "
        f"your {name(card)} so they do not take it."
    )


def _protect_trump(seen: Seen, card: int) -> str:
    if seen.partner not in seen.after or not seen.beats(card, seen.best):  # pragma: no cover
        return f"Your partner bid Nil: play the {name(card)}."
    return (
        f"Your partner bid Nil and plays after you: trump with your {name(card)} so they "
        "can throw a card under it."
    )


def _attack_under(seen: Seen, card: int) -> str:
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
        f"{seat_name(nil)} bid Nil and is winning this trick with the {winning}: play under it "
        f"with your {name(card)}{tail}."
    )


def _attack_low(seen: Seen, card: int) -> str:
    nils = [seat for seat in seen.after if seat != seen.partner and seen.nil_alive(seat)]
    if not nils:  # pragma: no cover - attacking a Nil still to play
        return f"Play the {name(card)}."
    return (
        f"{seat_name(nils[0])} bid Nil and plays after you: play your {name(card)} and leave them "
        "room to be forced to win the trick."
    )


FOLLOWS: Final[dict[Why, Callable[[Seen, int], str]]] = {
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
"""The words for each idea of a card that follows."""
