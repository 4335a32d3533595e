"""Coach tips: a good move for the seat to act, and one sentence saying why.

:func:`coach` asks the normal bot (which decides in well under a millisecond)
for its move and turns the idea behind it into plain English that names the
cards, for bids and for plays, in every variant. The hard bot searches with
the normal policy, so its moves are usually the same; the coach prefers the
normal player's answer because it can always say *why*.

>>> import spades_core as sc
>>> game = sc.new_game("mirror", seed=2).deal()
>>> tip = sc.coach(game.view(game.to_act))
>>> tip.action in game.legal_actions()
True
>>> tip.reason.startswith("In Mirror your bid must equal your spades")
True
"""

from __future__ import annotations

from typing import Final, final

import attrs

from spades_core import _check
from spades_core.actions import Action, Bid, Play
from spades_core.bots import NormalBot, Why
from spades_core.bots.bidding import estimate_tricks
from spades_core.bots.masks import above, winner_so_far
from spades_core.bots.table import SPADE_MASK, SUIT, Table, table_from_view
from spades_core.cards import ALL_CARDS, Card, Rank, Suit, ids_of_mask
from spades_core.seats import Seat
from spades_core.tricks import FIRST_SPADE, RANKS, SPADES
from spades_core.views import View

__all__ = ["Tip", "bid_rule", "coach"]

_SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
_SUIT_SINGULAR: Final = ("club", "diamond", "heart", "spade")
_ACE_OF_SPADES: Final = Card.parse("AS")


@final
@attrs.frozen
class Tip:
    """A suggested action and the reason for it."""

    action: Action
    """One of the view's legal actions."""
    reason: str
    """One plain-English sentence naming the cards and the idea."""
    idea: str
    """A short machine-readable name of the idea (``"cash_winner"``, ``"protect_cover"``…)."""


def coach(view: View) -> Tip:
    """The normal player's move for the seat of ``view`` and why.

    The view must be of the seat to act (its ``legal_actions()`` not empty);
    otherwise :class:`~spades_core.IllegalActionError` is raised. Anything
    but a view raises :class:`~spades_core.ArgumentTypeError`.
    """
    _check.view(view, "coach")
    action, why = _COACH_BOT.decide(view)
    table = table_from_view(view)
    if isinstance(action, Bid):
        reason = _bid_reason(view, table, action.value, why)
    elif isinstance(action, Play):
        reason = _play_reason(view, table, action.card.id, why)
    else:  # pragma: no cover - bots never deal
        reason = "Deal the next hand."
    return Tip(action=action, reason=reason, idea=why.name.lower())


_COACH_BOT: Final = NormalBot(seed=0)


# -- words -----------------------------------------------------------------------


def name(card: int) -> str:
    """A card for people: ``"10♥"``, ``"K♠"``."""
    return ALL_CARDS[card].symbol


def _names(cards: list[int]) -> str:
    words = [name(c) for c in cards]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _cards_desc(mask: int) -> list[int]:
    return ids_of_mask(mask)[::-1]


def _seat(seat: int) -> str:
    return Seat(seat).name.title()


def _bid_text(bid: int) -> str:
    return "Nil" if bid == 0 else str(bid)


# -- bids ------------------------------------------------------------------------


def bid_rule(view: View) -> str:
    """Why the seat to act in ``view`` may make only the bids it may, as a
    clause for a sentence: ``"your partnership's bids may total at most 13 and
    your partner bid 12"``, ``"in Mirror Spades your bid is your spade count,
    and you hold 3 spades"``. Used by the coach and to explain a refused bid."""
    legal = tuple(a.value for a in view.legal_actions() if isinstance(a, Bid))
    spades = view.hand().count(Suit.SPADES)
    rules = view.rules
    if _cap_binds(view, legal):
        partner = view.bids[view.seat.partner]  # type: ignore[union-attr]
        return (
            f"your partnership's bids may total at most {rules.max_team_bid} "
            f"and your partner bid {partner}"
        )
    title = view.variant.title
    if legal == (0,) and not spades:
        return f"you hold no spades, and in {title} that means Nil"
    if legal == (spades,):
        if dict(rules.extra).get("whiz_nil_needs_no_ace") is True and _ACE_OF_SPADES in view.hand():
            return (
                f"you hold the A♠, so the house rule whiz_nil_needs_no_ace rules out Nil, "
                f"and in {title} the other bid is your spade count, {spades}"
            )
        spade_word = f"{spades} spade{'s' if spades != 1 else ''}"
        return f"in {title} your bid is your spade count, and you hold {spade_word}"
    if legal == (0, spades):
        return f"in {title} you may bid only Nil or your spade count, {spades}"
    shown = ", ".join(_bid_text(value) for value in legal)
    return f"the {title} rules allow only {shown or 'no bid'} here"


def _cap_binds(view: View, legal: tuple[int, ...]) -> bool:
    """Whether the team cap, after the partner's bid, is what limits ``legal``."""
    cap = view.rules.max_team_bid
    partner = view.bids[view.seat.partner] if view.seat is not None else None
    return bool(cap is not None and partner and legal and max(legal) == cap - partner < 13)


def _bid_reason(view: View, table: Table, bid: int, why: Why) -> str:
    hand = table.hand
    spades = _cards_desc(hand & SPADE_MASK)
    legal = table.legal_bids or tuple(a.value for a in view.legal_actions() if isinstance(a, Bid))
    capped = _cap_binds(view, legal)
    if why is Why.ONLY_CHOICE or why is Why.BID_FORCED:
        if capped:
            rule = bid_rule(view)
            return f"{rule[0].upper()}{rule[1:]}, so {_bid_text(bid)} is your only bid."
        if not spades and legal == (0,):
            return "You hold no spades, so Nil is your only bid."
        if bid == len(spades) and view.variant.id == "mirror":
            return (
                f"In Mirror your bid must equal your spades: you hold {len(spades)} "
                f"({_names(spades)}), so bid {bid}."
            )
        if bid == len(spades):
            return (
                f"You hold {len(spades)} spade{'s' if len(spades) != 1 else ''} "
                f"({_names(spades)}) and the rules only allow bidding that count here: "
                f"bid {bid}."
            )
        return f"{_bid_text(bid)} is the only bid the rules allow you here."
    if why is Why.BID_NIL_WEAK:
        top = max(_cards_desc(hand), key=lambda c: (c % RANKS, c))
        spade_part = "no spades" if not spades else f"only the {_names(spades)} in spades"
        return (
            f"Your hand is weak (your best card is the {name(top)}, with {spade_part}), "
            f"so bid Nil for {view.rules.nil_value} points."
        )
    strong = _strong_cards(hand)
    if why is Why.BID_WHIZ_COUNT and bid == len(spades) and not capped:
        return (
            f"Your {_names(strong) if strong else 'spades'} make Nil too risky: bid your "
            f"{len(spades)} spade{'s' if len(spades) != 1 else ''}."
        )
    if why is Why.BID_WHIZ_COUNT:
        rule = bid_rule(view)
        choices = " or ".join(_bid_text(value) for value in legal)
        if strong:
            risky = f"with the {_names(strong)}"
        else:
            risky = f"holding {len(spades)} spades" if len(spades) > 1 else "with this hand"
        return (
            f"{rule[0].upper()}{rule[1:]}, so you may bid only {choices}: bid {bid}, "
            f"since Nil is too risky {risky}."
        )
    winners = strong
    estimate = estimate_tricks(hand)
    length = max(0, len(spades) - 3)
    extra = f", and {len(spades)} spades should take more by length or trumping" if length else ""
    if len(winners) == 1:
        listed = f"the {name(winners[0])} looks like a winner"
    elif winners:
        listed = f"the {_names(winners)} look like winners"
    else:
        listed = "you have few high cards"
    partner = table.bids[table.seat ^ 2]
    partner_part = (
        f" (with your partner's {_bid_text(partner)}, a team contract of {max(partner, 0) + bid})"
        if partner >= 0
        else ""
    )
    expected = round(estimate)
    tricks = f"about {expected} trick{'s' if expected != 1 else ''}"
    if bid == expected:
        return f"You can expect {tricks}: {listed}{extra}, so bid {bid}{partner_part}."
    # The bid comes from the player's own reckoning, which weighs more than this
    # count of winners; say which way it leans rather than imply it follows.
    if bid > expected:
        lean = (
            "too many cards could win a trick to risk Nil"
            if expected == 0
            else "length and your partner's support should bring a little more"
        )
    elif capped and bid == max(legal):
        lean = f"it is the most you may bid: {bid_rule(view)}"
    else:
        lean = "bidding a little under leaves room to avoid bags"
    return f"You can expect {tricks} ({listed}{extra}); bid {bid}{partner_part}: {lean}."


def _strong_cards(hand: int) -> list[int]:
    """Aces, kings with company, and the top spades: the cards likely to win tricks."""
    out = []
    for suit in range(4):
        bits = hand & SUIT[suit]
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


# -- plays -----------------------------------------------------------------------


def _play_reason(view: View, table: Table, card: int, why: Why) -> str:
    trick = table.trick
    seat = table.seat
    card_name = name(card)
    suit = card // RANKS
    winning = ""
    winner_seat = -1
    if trick:
        position, best = winner_so_far(trick)
        winner_seat = (table.leader + position) % 4
        winning = name(best)
    led = trick[0] // RANKS if trick else suit
    unseen = table.unseen()
    contract = table.contract(seat)
    counted = table.counted(seat)
    team_bags = table.bags[seat & 1]
    opp_nil = next(
        (o for o in (seat ^ 1, seat ^ 3) if table.nil_alive(o)),
        winner_seat if winner_seat in (seat ^ 1, seat ^ 3) else seat ^ 1,
    )

    if why is Why.ONLY_CHOICE:
        return f"The {card_name} is your only legal card."
    if why is Why.LEAD_ACE:
        return f"Lead your {card_name}: an ace wins the trick before the suit can be trumped."
    if why is Why.LEAD_LOW:
        return (
            f"Lead a low card, the {card_name}, from your longest suit and keep your "
            "high cards for later."
        )
    if why is Why.CASH_WINNER:
        return (
            f"The {card_name} is the highest {_SUIT_SINGULAR[suit]} left: cash it now, before "
            f"the opponents run out of {_SUIT_NAMES[suit]} and can trump it."
        )
    if why is Why.DRAW_TRUMPS:
        return (
            f"Your {card_name} is the highest spade left: lead it to draw the opponents' "
            "spades so they cannot trump your winners."
        )
    if why is Why.LEAD_FOR_PARTNER_RUFF:
        return (
            f"Your partner is out of {_SUIT_NAMES[suit]} and may still hold spades: lead the "
            f"{card_name} so they can trump it."
        )
    if why is Why.LEAD_SHORT_SUIT:
        return (
            f"Lead your last {_SUIT_SINGULAR[suit]}, the {card_name}: once you are out of "
            f"{_SUIT_NAMES[suit]} you can trump them."
        )
    if why in (Why.DUCK_LEAD, Why.DUCK, Why.DUCK_DISCARD, Why.DUCK_FORCED):
        return _duck_reason(why, card_name, winning, counted, contract, team_bags, table)
    if why is Why.WIN_CHEAPLY:
        return (
            f"Win the trick as cheaply as possible: your {card_name} beats the {winning}."
            if len(trick) < 3
            else f"You play last: the {card_name} is the cheapest card that beats the {winning}."
        )
    if why is Why.WIN_SURELY:
        return (
            f"Nobody still to play can beat your {card_name}: take the trick with it "
            f"over the {winning}."
        )
    if why is Why.SECOND_HAND_LOW:
        return (
            f"Second to play, keep your high cards: play the {card_name} and let your "
            "partner, who plays last, try to win."
        )
    if why is Why.THIRD_HAND_HIGH:
        return (
            f"Only an opponent plays after you: play high with your {card_name} to beat "
            f"the {winning} and make them use their best card."
        )
    if why is Why.TRUMP:
        return (
            f"You are out of {_SUIT_NAMES[led]}: trump with your {card_name}, the lowest spade "
            f"that beats the {winning}."
        )
    if why is Why.THROW_LOW:
        if card // RANKS == led:
            return (
                f"You cannot beat the {winning}: play your lowest {_SUIT_SINGULAR[led]}, "
                f"the {card_name}."
            )
        return f"You cannot win this trick: throw away a card you will not miss, the {card_name}."
    if why is Why.PARTNER_WINNING:
        return (
            f"Your partner is winning this trick with the {winning}: don't overtake; "
            f"play your {card_name}."
        )
    if why is Why.SECURE_PARTNER_TRICK:
        return (
            f"Your partner's {winning} could still be beaten by the opponent after you: "
            f"make sure of the trick with your {card_name}."
        )
    if why is Why.NIL_LEAD:
        return f"You bid Nil: lead the {card_name}, a low card the other players will have to beat."
    if why is Why.NIL_UNDER:
        return (
            f"You bid Nil: play your {card_name}, the highest card that still loses to "
            f"the {winning}."
        )
    if why is Why.NIL_DISCARD:
        return (
            f"You bid Nil and are out of {_SUIT_NAMES[led]}: throw away your dangerous {card_name}."
        )
    if why is Why.NIL_FORCED:
        return (
            f"You bid Nil, but every card you may play beats the {winning}: play the "
            f"{card_name} and hope someone overtakes."
        )
    if why is Why.PROTECT_LEAD_VOID:
        return (
            f"Your partner bid Nil and is out of {_SUIT_NAMES[suit]}: lead the {card_name} so "
            "they can throw away a dangerous card."
        )
    if why is Why.PROTECT_LEAD_HIGH:
        return f"Your partner bid Nil: lead your high {card_name} so they can play under it."
    if why is Why.PROTECT_COVER:
        below = unseen & SUIT[suit] & ~above(card) & ~(1 << card)
        if below:
            threat = below.bit_length() - 1
            return (
                f"Your partner bid Nil and the {name(threat)} is still out: win this trick "
                f"with your {card_name} so they can play under it."
            )
        return (
            f"Your partner bid Nil and plays after you: win this trick with your {card_name} "
            "so they can play under it."
        )
    if why is Why.PROTECT_OVERTAKE:
        return (
            f"Your partner bid Nil and is winning this trick with the {winning}: overtake "
            f"with your {card_name} to save the Nil."
        )
    if why is Why.PROTECT_TRUMP:
        return (
            f"Your partner bid Nil and plays after you: trump with your {card_name} so they "
            "can throw a card under it."
        )
    nil_name = _seat(opp_nil)
    if why is Why.ATTACK_LEAD:
        return (
            f"{nil_name} bid Nil: lead your low {card_name} to make it hard for them to stay under."
        )
    if why is Why.ATTACK_UNDER:
        return (
            f"{nil_name} bid Nil and is winning this trick with the {winning}: play under it "
            f"with your {card_name} so they have to take it."
        )
    if why is Why.ATTACK_LOW:
        return (
            f"{nil_name} bid Nil and plays after you: play your {card_name} and leave them "
            "room to be forced to win the trick."
        )
    return f"Play the {card_name}."  # pragma: no cover - every play idea is described above


def _duck_reason(
    why: Why,
    card_name: str,
    winning: str,
    counted: int,
    contract: int,
    team_bags: int,
    table: Table,
) -> str:
    """Why to lose a trick on purpose: the contract is made (more tricks are
    bags), cannot be made any more (more tricks score nothing), or was never
    wanted (both partners bid Nil)."""
    if contract == 0:
        standing = "You and your partner both bid Nil"
        goal = " to take no more tricks"
    elif counted >= contract:
        standing = (
            f"Your team has its contract ({counted} of {contract} tricks) and "
            f"{team_bags} bag{'s' if team_bags != 1 else ''}"
        )
        goal = " to avoid another bag" if why is Why.DUCK else " to avoid taking more bags"
    else:
        standing = (
            f"Your team can no longer make its contract ({counted} of {contract} tricks, "
            f"{table.remaining()} still to play), so winning tricks would score nothing"
        )
        goal = ""
    if why is Why.DUCK_LEAD:
        return f"{standing}: lead the {card_name}, a card unlikely to win{goal and ','}{goal}."
    if why is Why.DUCK:
        return f"{standing}: play the {card_name} under the {winning}{goal}."
    if why is Why.DUCK_DISCARD:
        return (
            f"{standing}: throw away your {card_name}, a card that could win a trick later"
            f"{goal and ','}{goal}."
        )
    return (
        f"{standing}, but every card you may play beats the {winning}: play the "
        f"{card_name} and hope someone overtakes."
    )
