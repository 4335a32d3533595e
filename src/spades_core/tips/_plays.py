"""The coach's words for a card: the lead and follow words by idea, and the
words for losing a trick on purpose."""

from __future__ import annotations

from typing import Final

from spades_core.bots import Why
from spades_core.bots.table import table_from_view
from spades_core.rules.hooks import checked_score_hand
from spades_core.rules.tricks import FIRST_SPADE
from spades_core.tips._follows import FOLLOWS, forced_words, out_of_led
from spades_core.tips._leads import LEADS, highest_words, still_out
from spades_core.tips._seen import Seen
from spades_core.tips._words import name, plural
from spades_core.values.cards import ids_of_mask

__all__ = ["play_reason"]

_DUCKS: Final = frozenset({Why.DUCK_LEAD, Why.DUCK, Why.DUCK_DISCARD, Why.DUCK_FORCED})


def play_reason(seen: Seen, card: int, why: Why) -> str:
    """Why to play ``card`` (the normal player's, for idea ``why``)."""
    reason = LEADS.get(why)
    if reason is not None and not seen.trick:
        return reason(seen, card)
    reason = FOLLOWS.get(why)
    if reason is not None and seen.trick:
        return reason(seen, card)
    if why in _DUCKS:
        return _duck_reason(seen, card, why)
    if why is Why.ONLY_CHOICE or seen.legal == 1 << card:
        return f"The {name(card)} is your only legal card."
    return f"Play the {name(card)}."  # pragma: no cover - every idea is described


def _more_tricks_score_nothing(seen: Seen, remaining: int) -> bool:
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


def _duck_reason(seen: Seen, card: int, why: Why) -> str:
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
            f"{plural(team_bags, 'bag')} from earlier hands"
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
        return f"{standing}: lead the {shown}, with {still_out(seen, card)}{goal and ','}{goal}."
    if not seen.trick:  # pragma: no cover - the other ducks follow
        return f"{standing}: lead the {shown}."
    winning = name(seen.best)
    if why is Why.DUCK_FORCED and all(
        seen.beats(other, seen.best) for other in ids_of_mask(seen.legal)
    ):
        forced = forced_words(seen, card)
        return f"{standing}, but every card you may play beats the {winning}: {forced}."
    if seen.beats(card, seen.best):  # pragma: no cover - a duck loses
        return f"{standing}: play the {shown}."
    if why is Why.DUCK_DISCARD and card < FIRST_SPADE and out_of_led(seen):
        return (
            f"{standing}: throw away the {shown}, {highest_words(seen, card)}{goal and ','}{goal}."
        )
    return f"{standing}: play the {shown} under the {winning}{goal}."
