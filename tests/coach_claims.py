"""Checking every factual clause of a coach tip against the game it is about.

Each clause the coach can write is listed below with a pattern and a check.
The checks work from the whole game (every hand, the public record) and are
written here afresh, on :class:`~spades_core.Card` objects rather than the
coach's masks: who may hold a card, and so who could beat one, is worked out
with exact counting, card by card, by finding a deal of the cards the seat
to act has not seen that fits the hand sizes, the suits each seat has shown
out of and the spade counts the bids revealed (tests/deal_matching.py, apart
from the library's own reasoning by suits); a claim that nobody can beat a
card is also held to the real hands. After the
clauses are found, what is left of the tip must be advice from a fixed list
(``ADVICE``), so a clause the checks do not know fails the test instead of
going unchecked.

``make test`` checks 1,500 positions (tests/test_coach_words.py). Run as a
script to check more random positions, spread evenly over the four variants,
and count what was checked; the default, 12,000, is 3,000 per variant (a few
minutes)::

    .venv/bin/python tests/coach_claims.py --positions 12000 --seed 1
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import spades_core as sc
from deal_matching import facts_of, find_deal
from spades_core import Bid, Card, CardSet, Game, NilTricks, Phase, Play, Seat, Suit
from spades_core.bots.bidding import estimate_tricks
from spades_core.rules.scoring import score_team
from spades_core.testing.strategies import play_randomly

CARD = r"(?:10|[2-9JQKA])[♣♦♥♠]"
CARDS = rf"{CARD}(?:(?:, | and ){CARD})*"
SEAT = r"(?:North|East|South|West)"
SEATS = rf"{SEAT}(?: or {SEAT})*"
SUIT_1 = r"(?:club|diamond|heart|spade)"
SUITS = r"(?:clubs|diamonds|hearts|spades)"
BIDS = r"(?:Nil|\d+)(?:(?:, | or )(?:\d+(?:-\d+)?))*|\d+(?:-\d+)?(?:(?:, | or )\d+(?:-\d+)?)*"

SUIT_OF_WORD = {
    **dict(zip(("club", "diamond", "heart", "spade"), Suit, strict=True)),
    **dict(zip(("clubs", "diamonds", "hearts", "spades"), Suit, strict=True)),
}
SEAT_OF_NAME = {seat.name.title(): seat for seat in Seat}

# What may remain of a tip once its factual clauses are taken out: advice and
# links between clauses, none of which states a fact about the position.
ADVICE = frozenset(
    {
        "",
        "cash it now",
        "for later",
        "don't overtake",
        "so they can play under it",
        "so they can throw away a dangerous card",
        "so they can throw a card under it",
        "so they can trump it",
        "to make it hard for them to stay under",
        "to make it hard for them both to stay under",
        "and make them use their best card",
        "try to win",
        "and leave them room to be forced to win the trick",
        "to avoid another bag",
        "to avoid taking more bags",
        "to take no more tricks",
        "and",
        "but",
        "lead it",
        "play it",
    }
)


def card(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    return [card(found) for found in re.findall(CARD, text)]


def seats(text: str) -> list[Seat]:
    return [SEAT_OF_NAME[found] for found in re.findall(SEAT, text)]


def bids_of(text: str) -> set[int]:
    """The bids a phrase such as ``Nil, 3-5 or 9`` names."""
    out: set[int] = set()
    for word in re.split(r", | or ", text):
        if word == "Nil":
            out.add(0)
        elif "-" in word:
            low, high = (int(part) for part in word.split("-"))
            assert high - low >= 2, text  # a range stands for three bids or more
            out.update(range(low, high + 1))
        else:
            out.add(int(word))
    return out


def beats(challenger: Card, best: Card) -> bool:
    """Whether ``challenger`` beats ``best``, the card winning a trick so far
    (a spade, or a card of the suit led)."""
    if best.suit is Suit.SPADES:
        return challenger.suit is Suit.SPADES and challenger.rank > best.rank
    return challenger.suit is Suit.SPADES or (
        challenger.suit is best.suit and challenger.rank > best.rank
    )


class Position:
    """The game at the seat to act, with what that seat knows and what is true."""

    def __init__(self, game: Game, tip: sc.Tip) -> None:
        seat = game.to_act
        assert seat is not None
        self.game = game
        self.tip = tip
        self.seat = seat
        self.partner = seat.partner
        self.view = game.view(seat)
        self.hand = game.hand(seat)
        self.action_card = tip.action.card if isinstance(tip.action, Play) else None
        self.action_bid = tip.action.value if isinstance(tip.action, Bid) else None
        self.legal_cards = list(game.legal_cards())
        self.legal_bids = game.legal_bids()
        self.trick = list(game.current_trick)
        self.led = self.trick[0][1].suit if self.trick else None
        self.after = [Seat((int(seat) + k) % 4) for k in range(1, 4 - len(self.trick))]
        played = {c for trick in game.tricks for c in trick.cards} | {c for _, c in self.trick}
        self.unplayed = [c for c in CardSet.full_deck() if c not in played]
        self.unseen = [c for c in self.unplayed if c not in self.hand]
        self.facts = facts_of(self.view)
        self._possible: dict[tuple[int, int, frozenset[int]], bool] = {}
        self.winner: Seat | None = None
        self.best: Card | None = None
        for who, played_card in self.trick:
            if self.best is None or beats(played_card, self.best):
                self.winner, self.best = who, played_card

    # -- what the seat to act can tell -------------------------------------------

    def may_hold(self, seat: Seat, candidate: Card, lacking: frozenset[int] = frozenset()) -> bool:
        """Whether some deal of the cards the seat to act has not seen, consistent
        with the public record, gives ``seat`` the ``candidate`` and no card of
        the suits in ``lacking``: worked out card by card (tests/deal_matching.py)."""
        if candidate not in self.unseen:
            return False
        key = (int(seat), candidate.id, lacking)
        found = self._possible.get(key)
        if found is None:
            deal = find_deal(self.facts, ((int(seat), candidate.id),), lacking={int(seat): lacking})
            found = self._possible[key] = deal is not None
        return found

    def could_beat(self, seat: Seat, target: Card) -> tuple[bool, bool]:
        """(with a higher card of the suit led, by trumping), as far as the seat
        to act can tell: whether some consistent deal gives ``seat`` a card of
        the suit led that beats ``target``, or a spade that beats it and no card
        of the suit led."""
        led = self.led if self.led is not None else target.suit
        by_rank = by_trump = False
        for candidate in self.unseen:
            if not beats(candidate, target):
                continue
            if candidate.suit is led:
                by_rank = by_rank or self.may_hold(seat, candidate)
            elif candidate.suit is Suit.SPADES:
                by_trump = by_trump or self.may_hold(seat, candidate, frozenset({int(led)}))
        return by_rank, by_trump

    def truly_beats(self, seat: Seat, target: Card, *, by_rank_only: bool = False) -> bool:
        """Whether ``seat`` really holds a card it may play that beats ``target``."""
        held = self.game.hand(seat)
        led = self.led if self.led is not None else target.suit
        playable = held.suit(led) or held
        return any(beats(c, target) and (c.suit is led or not by_rank_only) for c in playable)

    def opponent_may_hold_spades(self) -> bool:
        return any(
            self.may_hold(seat, c)
            for seat in (self.seat.next, self.seat.partner.next)
            for c in self.unseen
            if c.suit is Suit.SPADES
        )

    def counted_and_contract(self) -> tuple[int, int]:
        bids = self.game.bids
        won = self.game.tricks_won
        team = (self.seat, self.partner)
        contract = sum(bids[s] or 0 for s in team)  # everyone has bid: no None
        if self.game.rules.nil_tricks is NilTricks.COUNT_TOWARD_CONTRACT:
            counted = sum(won[s] for s in team)
        else:
            counted = sum(won[s] for s in team if bids[s] != 0)
        return counted, contract


Check = Callable[[Position, re.Match[str]], None]


@dataclass
class Clause:
    """One clause the coach may write: a pattern and the check of its facts."""

    name: str
    pattern: re.Pattern[str]
    check: Check


CLAUSES: list[Clause] = []


def clause(name: str, pattern: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        CLAUSES.append(Clause(name, re.compile(pattern), check))
        return check

    return register


def _is(value: object, expected: object, what: str) -> None:
    assert value == expected, f"{what}: the tip says {value!r}, the game has {expected!r}"


# -- the action named ---------------------------------------------------------------------


@clause(
    "the card played",
    rf"(?i)(?:^|: |; |, )(?:play|lead|throw away|trump with|overtake with|"
    rf"play under it with) (?:your |the )?(?:(?:lowest|highest|last) {SUIT_1}, the |"
    rf"low |high )?({CARD})",
)
def _card_played(p: Position, m: re.Match[str]) -> None:
    _is(card(m[1]), p.action_card, "the card to play")


@clause("a bid named", r"(?:^|: |, so |; )bid (Nil|\d+)(?=[,.:; ]|$)")
def _bid_named(p: Position, m: re.Match[str]) -> None:
    _is(0 if m[1] == "Nil" else int(m[1]), p.action_bid, "the bid")


# -- the rules' own sentences on bids (each variant's explain_bids) ------------------------


@clause(
    "team cap",
    rf"In (.+?) a partnership's bids may total at most (\d+), and your partner "
    rf"(has not bid yet|bid (?:Nil|\d+)), so (Nil is your only bid|you may bid ({BIDS}))\.",
)
def _team_cap(p: Position, m: re.Match[str]) -> None:
    _is(m[1], p.game.variant.title, "the variant")
    _is(int(m[2]), p.game.rules.max_team_bid, "the team cap")
    partner = p.game.bids.get(p.partner)
    said = "has not bid yet" if partner is None else f"bid {'Nil' if partner == 0 else partner}"
    _is(m[3], said, "the partner's bid")
    legal = {0} if m[4] == "Nil is your only bid" else bids_of(m[5])
    _is(legal, set(p.legal_bids), "the legal bids")
    cap = p.game.rules.max_team_bid
    assert cap is not None
    _is(max(p.legal_bids), cap - (partner or 0), "the room the cap leaves")


def _spades_phrase(text: str, hand: CardSet) -> None:
    count = 0 if text == "no spades" else int(text.split()[0])
    _is(count, hand.count(Suit.SPADES), "the spades held")
    if count:
        _is(text, f"{count} spade{'s' if count != 1 else ''}", "the spade count's wording")


@clause(
    "Mirror's count",
    rf"In (.+?) your bid is your spade count, and you hold (no spades|\d+ spades?), "
    rf"so you must bid ({BIDS})\.",
)
def _mirror_count(p: Position, m: re.Match[str]) -> None:
    _is(m[1], p.game.variant.title, "the variant")
    _spades_phrase(m[2], p.hand)
    _is(bids_of(m[3]), set(p.legal_bids), "the legal bids")
    _is(set(p.legal_bids), {p.hand.count(Suit.SPADES)}, "the bid the count forces")


@clause(
    "Whiz's choice",
    rf"In (.+?) you bid Nil or your spade count, and you hold (no spades|\d+ spades?), "
    rf"so (Nil is your only bid|you may bid ({BIDS}))\.",
)
def _whiz_choice(p: Position, m: re.Match[str]) -> None:
    _is(m[1], p.game.variant.title, "the variant")
    _spades_phrase(m[2], p.hand)
    legal = {0} if m[3] == "Nil is your only bid" else bids_of(m[4])
    _is(legal, set(p.legal_bids), "the legal bids")
    _is(legal, {0, p.hand.count(Suit.SPADES)}, "Nil and the count")


@clause(
    "Whiz's ace rule",
    r"In (.+?) you bid Nil or your spade count, but you hold the A♠ and the house rule "
    r"whiz_nil_needs_no_ace rules out Nil for its holder, so you must bid your (\d+ spades?)\.",
)
def _whiz_ace(p: Position, m: re.Match[str]) -> None:
    _is(m[1], p.game.variant.title, "the variant")
    assert card("AS") in p.hand, "the A♠ is not held"
    _is(p.game.rules.get("whiz_nil_needs_no_ace"), True, "the house rule")
    _spades_phrase(m[2], p.hand)
    _is(set(p.legal_bids), {p.hand.count(Suit.SPADES)}, "the legal bids")


@clause("the default rule sentence", rf"The (.+?) rules allow you to bid only ({BIDS}) here\.")
def _default_bids(p: Position, m: re.Match[str]) -> None:
    _is(m[1], p.game.variant.title, "the variant")
    _is(bids_of(m[2]), set(p.legal_bids), "the legal bids")


# -- the coach's bids ---------------------------------------------------------------------


@clause(
    "a weak hand",
    rf"Your hand is weak \((?:your best card is the ({CARD})|your best cards are the "
    rf"({CARDS})), with (?:no spades|only the ({CARDS}) in spades)\), so bid Nil"
    rf"(?: for (\d+) points| as your partner did)",
)
def _weak_hand(p: Position, m: re.Match[str]) -> None:
    top = max(c.rank for c in p.hand)
    named = [card(m[1])] if m[1] else cards(m[2])
    _is(set(named), {c for c in p.hand if c.rank == top}, "the best cards")
    _is(set(cards(m[3] or "")), set(p.hand.suit(Suit.SPADES)), "the spades")
    partner = p.game.bids.get(p.partner)
    if m[4]:
        _is(int(m[4]), p.game.rules.nil_value, "Nil's value")
        assert partner != 0 or p.game.rules.double_nil is sc.DoubleNil.INDEPENDENT
    else:
        _is(partner, 0, "the partner's Nil")
    _is(p.action_bid, 0, "the bid")


def _strong(c: Card, hand: CardSet) -> bool:
    """An ace, a king with another card of its suit, or the Q♠ with two more spades."""
    length = hand.count(c.suit)
    return (
        c.rank is sc.Rank.ACE
        or (c.rank is sc.Rank.KING and length >= 2)
        or (c.suit is Suit.SPADES and c.rank is sc.Rank.QUEEN and length >= 3)
    )


@clause(
    "Nil too risky",
    rf"Nil is too risky (?:with the ({CARDS})|holding (\d+) spades|with this hand)(?=:)",
)
def _too_risky(p: Position, m: re.Match[str]) -> None:
    if m[1]:
        for c in cards(m[1]):
            assert c in p.hand, f"{c} is not held"
            assert _strong(c, p.hand), f"{c} is not a strong card"
    if m[2]:
        _is(int(m[2]), p.hand.count(Suit.SPADES), "the spades held")
    assert 0 in p.legal_bids, "Nil is not open, so its risk is not the reason"


def _estimate_items(hand: CardSet) -> tuple[set[Card], set[str]]:
    """What the estimate counts, by this test's own reading of its rules: the
    cards worth a whole trick, and the other items as the tip words them."""
    whole: set[Card] = set()
    other: set[str] = set()
    spades = hand.count(Suit.SPADES)
    for suit in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS):
        length = hand.count(suit)
        for c in hand.suit(suit):
            if c.rank is sc.Rank.ACE and length <= 5:
                whole.add(c)
            elif c.rank in (sc.Rank.ACE, sc.Rank.KING) or (
                c.rank is sc.Rank.QUEEN and 3 <= length <= 5
            ):
                other.add(f"the {c.symbol}")
    honours = 0
    for c in hand.suit(Suit.SPADES):
        if c.rank is sc.Rank.ACE:
            whole.add(c)
        elif c.rank in (sc.Rank.KING, sc.Rank.QUEEN) or (c.rank is sc.Rank.JACK and spades >= 4):
            other.add(f"the {c.symbol}")
        else:
            continue
        honours += 1
    if spades > 3:
        other.add(f"the length of your {spades} spades")
    short = [s for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS) if hand.count(s) <= 2]
    if short and min(spades, 3) > honours:
        names = [s.name.lower() for s in short]
        joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        other.add(f"trumping in your short {joined}")
    return whole, other


ITEM = (
    rf"the {CARD}|the length of your \d+ spades|trumping in your short "
    rf"(?:clubs|diamonds|hearts)(?:(?:, | and )(?:clubs|diamonds|hearts))*"
)
ITEMS = rf"(?:{ITEM})(?:(?:, | and )(?:{ITEM}))*"


def _items(text: str | None) -> set[str]:
    if not text:
        return set()
    found = re.findall(ITEM, text)
    rest = re.sub(ITEM, "", text)
    assert re.fullmatch(r"(?:, | and )*", rest), f"unread items in {text!r}"
    return set(found)


@clause(
    "the estimate",
    rf"You can expect (?:(no tricks)|less than half a trick(?:, from ({ITEMS}))?|about (\d+) "
    rf"tricks?(?:: the ({CARDS}) should take (\d+)(?:, and ({ITEMS}) (?:about (\d+) more|"
    rf"(?:adds|add) less than half a trick))?| from ({ITEMS})))(?=[,;.])",
)
def _estimate(p: Position, m: re.Match[str]) -> None:
    estimate = estimate_tricks(p.hand.mask)
    expected = int(estimate + 0.5)
    whole, other = _estimate_items(p.hand)
    if m[1]:
        _is(estimate, 0.0, "the estimate")
        return
    if m[3] is None:
        assert 0 < estimate < 0.5, estimate
        _is(_items(m[2]), other, "what the estimate counts")
        assert not whole
        return
    _is(int(m[3]), expected, "the tricks expected")
    named_whole = set(cards(m[4] or ""))
    _is(named_whole, whole, "the cards worth a whole trick")
    if m[5]:
        _is(int(m[5]), len(named_whole), "the tricks the winners take")
    _is(_items(m[6] or m[8]), other, "what else the estimate counts")
    if m[7]:
        _is(int(m[7]), expected - len(whole), "the tricks the rest adds")
    elif m[6]:
        assert expected == len(whole), "'less than half a trick' but the rest rounds up"
    elif m[8]:
        assert not whole
    else:
        _is(float(len(whole)), estimate, "the estimate made of whole winners alone")


@clause(
    "the bid and the estimate",
    r"(?:, so bid (\d+)|; bid (\d+), the (most you may|least you may above Nil|nearest you "
    r"may to (\d+)))(?: \((your partner bid Nil|Nil looks too risky)\))?",
)
def _bid_choice(p: Position, m: re.Match[str]) -> None:
    expected = int(estimate_tricks(p.hand.mask) + 0.5)
    counts = [b for b in p.legal_bids if b]
    if m[1]:
        _is(int(m[1]), expected, "the bid equal to the estimate")
        return
    bid = int(m[2])
    if m[3] == "most you may":
        _is(bid, max(counts), "the most you may bid")
        assert bid < expected
    elif m[3] == "least you may above Nil":
        _is(bid, min(counts), "the least bid above Nil")
        assert bid > expected
    else:
        _is(int(m[4]), expected, "the estimate")
        assert all(abs(bid - expected) <= abs(b - expected) for b in counts)
    if m[5] == "your partner bid Nil":
        _is(p.game.bids.get(p.partner), 0, "the partner's bid")
    elif m[5]:
        assert 0 in p.legal_bids, "Nil is not open"


@clause("the team contract", r" \(with your partner's (Nil|\d+), a team contract of (\d+)\)")
def _team_contract(p: Position, m: re.Match[str]) -> None:
    partner = 0 if m[1] == "Nil" else int(m[1])
    _is(p.game.bids.get(p.partner), partner, "the partner's bid")
    assert p.action_bid is not None
    _is(int(m[2]), partner + p.action_bid, "the team contract")


# -- plays: the trick, the cards --------------------------------------------------------


@clause("the only legal card", rf"The ({CARD}) is your only legal card")
def _only_card(p: Position, m: re.Match[str]) -> None:
    _is([card(m[1])], p.legal_cards, "the legal cards")


@clause("the lowest of a suit", rf"your lowest ({SUIT_1}), the ({CARD})")
def _lowest(p: Position, m: re.Match[str]) -> None:
    c = card(m[2])
    _is(c.suit, SUIT_OF_WORD[m[1]], "the suit")
    _is(c, p.hand.suit(c.suit).lowest(), "the lowest card of its suit")


@clause("the highest of a suit", rf"your highest ({SUIT_1}), the ({CARD})")
def _highest(p: Position, m: re.Match[str]) -> None:
    c = card(m[2])
    _is(c.suit, SUIT_OF_WORD[m[1]], "the suit")
    _is(c, p.hand.suit(c.suit).highest(), "the highest card of its suit")


@clause("the last of a suit", rf"Lead your last ({SUIT_1}), the ({CARD})")
def _last_of_suit(p: Position, m: re.Match[str]) -> None:
    c = card(m[2])
    _is(c.suit, SUIT_OF_WORD[m[1]], "the suit")
    _is(list(p.hand.suit(c.suit)), [c], "the cards of the suit")


@clause("trumping later", r"once you are out of (\w+) you can trump them with your spades")
def _trump_later(p: Position, m: re.Match[str]) -> None:
    assert p.action_card is not None
    _is(SUIT_OF_WORD[m[1]], p.action_card.suit, "the suit")
    assert p.hand.count(Suit.SPADES), "no spades to trump with"


@clause("higher cards kept", rf"keep your higher ({SUITS})")
def _higher_kept(p: Position, m: re.Match[str]) -> None:
    assert p.action_card is not None
    suit = SUIT_OF_WORD[m[1]]
    _is(suit, p.action_card.suit, "the suit")
    assert any(c.rank > p.action_card.rank for c in p.hand.suit(suit)), "no higher card held"


@clause(
    "the longest suit",
    r"from (your longest suit|one of your longest suits)( outside spades)?"
    r"( \(spades may not be led yet\))?",
)
def _longest(p: Position, m: re.Match[str]) -> None:
    assert p.action_card is not None
    suit = p.action_card.suit
    suits = [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS] if m[2] else list(Suit)
    assert suit in suits
    lengths = {s: p.hand.count(s) for s in suits}
    longest = max(lengths.values())
    _is(lengths[suit], longest, "the length of the suit led")
    ties = sum(length == longest for length in lengths.values())
    _is(m[1] == "your longest suit", ties == 1, "one longest suit")
    if m[2]:
        assert p.hand.count(Suit.SPADES) > longest, "spades are not longer"
    if m[3]:
        assert p.hand.count(Suit.SPADES), "no spades held"
        assert not any(c.suit is Suit.SPADES for c in p.legal_cards), "spades may be led"


def _highest_left(p: Position, c: Card) -> bool:
    return not any(other.suit is c.suit and other.rank > c.rank for other in p.unplayed)


@clause("the highest left", rf"(?:The|Your) ({CARD}) is the highest ({SUIT_1}) left")
def _is_highest_left(p: Position, m: re.Match[str]) -> None:
    c = card(m[1])
    _is(c, p.action_card, "the card")
    _is(c.suit, SUIT_OF_WORD[m[2]], "the suit")
    assert _highest_left(p, c), f"a higher {m[2]} than the {c} is unplayed"


@clause("it is the highest left", rf"it is the highest ({SUIT_1}) left")
def _it_is_highest_left(p: Position, m: re.Match[str]) -> None:
    assert p.action_card is not None
    assert _highest_left(p, p.action_card)


@clause(
    "opponents may trump",
    r"(?:an opponent who runs out of (\w+) could trump it later|"
    r"lead it to draw the opponents' spades)",
)
def _opponents_may_trump(p: Position, m: re.Match[str]) -> None:
    assert p.opponent_may_hold_spades(), "no opponent may hold a spade"


@clause("no opponent can trump", r", and no opponent can trump it")
def _no_opponent_trumps(p: Position, m: re.Match[str]) -> None:
    assert not p.opponent_may_hold_spades()
    for seat in (p.seat.next, p.partner.next):
        assert not p.game.hand(seat).count(Suit.SPADES), f"{seat.name} holds a spade"


@clause("winners kept from trumps", rf"so they cannot trump your ({CARDS})")
def _side_winners(p: Position, m: re.Match[str]) -> None:
    for c in cards(m[1]):
        assert c in p.hand, c
        assert c.suit is not Suit.SPADES, c
        assert _highest_left(p, c), c


@clause(
    "cards still out", rf"with (?:(\d+) higher ({SUIT_1}|{SUITS})|no higher ({SUIT_1})) still out"
)
def _still_out(p: Position, m: re.Match[str]) -> None:
    c = p.action_card
    assert c is not None
    count = int(m[1]) if m[1] else 0
    _is(SUIT_OF_WORD[m[2] or m[3]], c.suit, "the suit")
    higher = [u for u in p.unseen if u.suit is c.suit and u.rank > c.rank]
    _is(count, len(higher), f"higher {c.suit.name.lower()} still out")


@clause("still out", rf"the ({CARD}) is still out")
def _card_still_out(p: Position, m: re.Match[str]) -> None:
    assert card(m[1]) in p.unseen, f"{m[1]} is not out"


def _current(p: Position, text: str) -> Card:
    named = card(text)
    _is(named, p.best, "the card winning the trick")
    assert p.best is not None
    return named


@clause(
    "beating the winner",
    rf"(?:(?i:play) your ({CARD}) over the|it takes the trick over the|to beat the|"
    rf"your ({CARD}) beats the) ({CARD})",
)
def _over(p: Position, m: re.Match[str]) -> None:
    best = _current(p, m[3])
    mine = card(m[1] or m[2]) if (m[1] or m[2]) else p.action_card
    assert mine is not None
    assert beats(mine, best), f"the {mine} does not beat the {best}"


@clause(
    "over it", rf"play your ({CARD}) over it|overtake with your ({CARD}) so they do not take it"
)
def _over_it(p: Position, m: re.Match[str]) -> None:
    assert p.best is not None
    mine = card(m[1] or m[2])
    assert beats(mine, p.best), f"the {mine} does not beat the {p.best}"


@clause("cannot beat", rf"You cannot beat the ({CARD})")
def _cannot_beat(p: Position, m: re.Match[str]) -> None:
    best = _current(p, m[1])
    assert not any(beats(c, best) for c in p.legal_cards)


@clause(
    "under the winner",
    rf"(?:play the ({CARD}) under the ({CARD})|play under it with your ({CARD}))",
)
def _under(p: Position, m: re.Match[str]) -> None:
    assert p.best is not None
    if m[2]:
        _current(p, m[2])
    mine = card(m[1] or m[3])
    assert not beats(mine, p.best), f"the {mine} beats the {p.best}"


@clause("all cards beat", rf"every card you may play beats (?:the ({CARD})|it)")
def _all_beat(p: Position, m: re.Match[str]) -> None:
    best = _current(p, m[1]) if m[1] else p.best
    assert best is not None
    assert all(beats(c, best) for c in p.legal_cards)


@clause(
    "the highest that loses",
    rf"play your ({CARD}), the highest card you may play that still loses to the ({CARD})",
)
def _highest_loser(p: Position, m: re.Match[str]) -> None:
    best = _current(p, m[2])
    mine = card(m[1])
    losers = [c for c in p.legal_cards if not beats(c, best)]
    assert mine in losers
    _is(mine.rank, max(c.rank for c in losers), "the highest losing rank")


@clause("which loses", rf"play your ({CARD}), which loses to the ({CARD})")
def _which_loses(p: Position, m: re.Match[str]) -> None:
    assert not beats(card(m[1]), _current(p, m[2]))


@clause(
    "the highest discard that loses",
    rf"throw away the ({CARD}), (your highest card that does not beat|one of your highest "
    rf"cards that do not beat) the ({CARD})",
)
def _highest_discard(p: Position, m: re.Match[str]) -> None:
    best = _current(p, m[3])
    mine = card(m[1])
    losers = [c for c in p.legal_cards if not beats(c, best)]
    assert mine in losers
    top = max(c.rank for c in losers)
    _is(mine.rank, top, "the highest losing rank")
    ties = sum(c.rank == top for c in losers)
    _is(m[2].startswith("your"), ties == 1, "one highest card")


@clause(
    "highest outside spades",
    rf"({CARD}), (your highest card outside spades|one of your highest cards outside spades|"
    rf"a card outside spades|your highest spade|one of your spades)",
)
def _highest_outside(p: Position, m: re.Match[str]) -> None:
    mine = card(m[1])
    kind = m[2]
    if kind in ("your highest spade", "one of your spades"):
        assert mine.suit is Suit.SPADES
        _is(kind == "your highest spade", mine == p.hand.suit(Suit.SPADES).highest(), kind)
        return
    assert mine.suit is not Suit.SPADES
    side = [c for c in p.hand if c.suit is not Suit.SPADES]
    top = max(c.rank for c in side)
    if kind == "a card outside spades":
        assert mine.rank < top
        return
    _is(mine.rank, top, "the highest rank outside spades")
    _is(kind.startswith("your"), sum(c.rank == top for c in side) == 1, "one highest card")


@clause(
    "the cheapest winner",
    rf"(?i:the) ({CARD}) is (the cheapest card|a card) that beats the ({CARD})",
)
def _cheapest(p: Position, m: re.Match[str]) -> None:
    best = _current(p, m[3])
    mine = card(m[1])
    _is(mine, p.action_card, "the card")
    winners = [c for c in p.legal_cards if beats(c, best)]
    assert mine in winners
    cheapest = min(winners, key=lambda c: (c.suit is not p.led, c.rank))
    _is(m[2] == "the cheapest card", mine == cheapest, "the cheapest card")


@clause("out of a suit", rf"(?:You are|and are) out of ({SUITS})")
def _out_of(p: Position, m: re.Match[str]) -> None:
    suit = SUIT_OF_WORD[m[1]]
    _is(suit, p.led, "the suit led")
    assert not p.hand.suit(suit), f"you hold {m[1]}"


@clause(
    "the lowest trump that beats",
    rf"trump with your ({CARD}), the lowest spade that beats the ({CARD})",
)
def _lowest_trump(p: Position, m: re.Match[str]) -> None:
    best = _current(p, m[2])
    mine = card(m[1])
    trumps = [c for c in p.legal_cards if c.suit is Suit.SPADES and beats(c, best)]
    _is(mine, min(trumps, key=lambda c: c.rank), "the lowest spade that beats")


@clause(
    "a lower trump overtrumped",
    rf"trump with your ({CARD}) rather than your ({CARD}), which ({SEATS}) could overtrump",
)
def _overtrumped(p: Position, m: re.Match[str]) -> None:
    assert p.best is not None
    mine, lower = card(m[1]), card(m[2])
    trumps = [c for c in p.legal_cards if c.suit is Suit.SPADES and beats(c, p.best)]
    assert mine in trumps
    _is(lower, min(trumps, key=lambda c: c.rank), "the lowest spade that beats")
    assert lower != mine
    for seat in seats(m[3]):
        assert seat in p.after
        assert seat != p.partner
        assert any(p.could_beat(seat, lower)), f"{seat.name} could not beat the {lower}"


@clause(
    "nobody can beat",
    rf"(?i:nobody) still to play can beat (?:your|the) ({CARD})",
)
def _nobody(p: Position, m: re.Match[str]) -> None:
    target = card(m[1])
    if "your" in m[0]:
        _is(target, p.action_card, "your card")
    for seat in p.after:
        assert not any(p.could_beat(seat, target)), f"{seat.name} could beat the {target}"
        assert not p.truly_beats(seat, target), f"{seat.name} does beat the {target}"


@clause(
    "no opponent can beat",
    rf"no opponent still to play can beat the ({CARD})( except by trumping)?",
)
def _no_opponent(p: Position, m: re.Match[str]) -> None:
    target = card(m[1])
    for seat in p.after:
        if seat == p.partner:
            continue
        by_rank, by_trump = p.could_beat(seat, target)
        assert not by_rank, f"{seat.name} could beat the {target} with a higher card"
        assert m[2] or not by_trump, f"{seat.name} could trump the {target}"
        assert not p.truly_beats(seat, target, by_rank_only=bool(m[2])), seat.name


@clause("who could beat", rf"({SEATS}) could still beat the ({CARD})")
def _could_still_beat(p: Position, m: re.Match[str]) -> None:
    target = card(m[2])
    for seat in seats(m[1]):
        assert seat in p.after, f"{seat.name} does not play after you"
        assert any(p.could_beat(seat, target)), f"{seat.name} could not beat the {target}"


@clause("someone could beat", r"hope someone still to play beats it")
def _someone(p: Position, m: re.Match[str]) -> None:
    assert p.action_card is not None
    assert any(any(p.could_beat(seat, p.action_card)) for seat in p.after)


@clause("they have to take it", r"so they have to take it")
def _they_take_it(p: Position, m: re.Match[str]) -> None:
    assert p.best is not None
    for seat in p.after:
        assert not any(p.could_beat(seat, p.best)), seat.name
        assert not p.truly_beats(seat, p.best), seat.name


@clause(
    "partner's trick threatened",
    rf"Your partner's ({CARD}) could still be beaten by ({SEATS}), who plays? after you",
)
def _partner_threatened(p: Position, m: re.Match[str]) -> None:
    best = _current(p, m[1])
    _is(p.winner, p.partner, "the seat winning")
    for seat in seats(m[2]):
        assert seat in p.after
        assert seat != p.partner
        assert any(p.could_beat(seat, best)), f"{seat.name} could not beat the {best}"


@clause(
    "the partner winning", rf"Your partner (?:bid Nil and )?is winning this trick with the ({CARD})"
)
def _partner_winning(p: Position, m: re.Match[str]) -> None:
    _current(p, m[1])
    _is(p.winner, p.partner, "the seat winning")


@clause("a Nil bidder winning", rf"^({SEAT}) bid Nil and is winning this trick with the ({CARD})")
def _nil_winning(p: Position, m: re.Match[str]) -> None:
    _current(p, m[2])
    seat = SEAT_OF_NAME[m[1]]
    _is(p.winner, seat, "the seat winning")
    _is(p.game.bids[seat], 0, f"{seat.name}'s bid")
    assert seat in (p.seat.next, p.partner.next)


@clause("the partner's Nil", r"(?:Y|y)our partner bid Nil")
def _partner_nil(p: Position, m: re.Match[str]) -> None:
    _is(p.game.bids.get(p.partner), 0, "the partner's bid")


@clause("your Nil", r"^You bid Nil")
def _own_nil(p: Position, m: re.Match[str]) -> None:
    _is(p.game.bids.get(p.seat), 0, "your bid")


@clause("opponents' Nils", rf"^({SEAT})(?: and ({SEAT}) both)? bid Nil(?=:)")
def _opponent_nils(p: Position, m: re.Match[str]) -> None:
    named = [SEAT_OF_NAME[m[1]], *([SEAT_OF_NAME[m[2]]] if m[2] else [])]
    for seat in named:
        assert seat in (p.seat.next, p.partner.next), f"{seat.name} is not an opponent"
        _is(p.game.bids[seat], 0, f"{seat.name}'s bid")
        _is(p.game.tricks_won[seat], 0, f"{seat.name}'s tricks")


@clause("plays after you", rf"^(?:({SEAT})|Your partner) bid Nil and plays after you")
def _plays_after(p: Position, m: re.Match[str]) -> None:
    seat = SEAT_OF_NAME[m[1]] if m[1] else p.partner
    assert seat in p.after, f"{seat.name} does not play after you"
    _is(p.game.bids[seat], 0, f"{seat.name}'s bid")
    if m[1]:
        assert seat != p.partner


@clause("the partner is out", rf"Your partner (?:bid Nil and )?is out of ({SUITS})")
def _partner_out(p: Position, m: re.Match[str]) -> None:
    suit = SUIT_OF_WORD[m[1]]
    assert suit in p.view.shown_out[p.partner], f"your partner has not shown out of {m[1]}"
    assert not p.game.hand(p.partner).suit(suit)
    assert p.action_card is not None
    _is(p.action_card.suit, suit, "the suit led")


@clause("the partner may trump", r"and may still hold spades")
def _partner_spades(p: Position, m: re.Match[str]) -> None:
    assert any(p.may_hold(p.partner, c) for c in p.unseen if c.suit is Suit.SPADES)


@clause("playing last", r"(?:You|you) play last")
def _last(p: Position, m: re.Match[str]) -> None:
    _is(p.after, [], "the seats after you")


@clause("the trick is yours", r"so the trick is yours")
def _trick_is_yours(p: Position, m: re.Match[str]) -> None:
    assert p.best is not None
    assert p.action_card is not None
    assert not p.after
    assert beats(p.action_card, p.best)


@clause("second to play", r"^Second to play")
def _second(p: Position, m: re.Match[str]) -> None:
    _is(len(p.trick), 1, "the cards before yours")


@clause("the partner plays last", r"and let your partner, who plays last,")
def _partner_last(p: Position, m: re.Match[str]) -> None:
    _is(p.after[-1:], [p.partner], "the seat playing last")


@clause("third to play", r"^Only an opponent plays after you")
def _third(p: Position, m: re.Match[str]) -> None:
    _is(p.after, [p.seat.next], "the seats after you")


@clause(
    "the contract made",
    r"Your team has made its contract of (\d+) \((\d+) tricks so far\) and has (\d+) bags? "
    r"from earlier hands",
)
def _made(p: Position, m: re.Match[str]) -> None:
    counted, contract = p.counted_and_contract()
    _is((int(m[1]), int(m[2])), (contract, counted), "the contract and tricks")
    assert counted >= contract
    _is(int(m[3]), p.game.bags[p.seat.team], "the bags")


@clause(
    "the contract set",
    r"Your team can no longer make its contract of (\d+) \((\d+) tricks so far, (\d+) still "
    r"to play\)(, so winning tricks would score nothing)?",
)
def _set(p: Position, m: re.Match[str]) -> None:
    counted, contract = p.counted_and_contract()
    remaining = 13 - len(p.game.tricks)
    _is((int(m[1]), int(m[2]), int(m[3])), (contract, counted, remaining), "the contract")
    assert counted + remaining < contract
    # Nothing: the team scores the same whatever share of the rest the seat wins.
    rules = p.game.rules
    team = (p.seat, p.partner)
    bids = (p.game.bids[team[0]] or 0, p.game.bids[team[1]] or 0)  # all four have bid
    won = [p.game.tricks_won[s] for s in team]
    bags = p.game.bags[p.seat.team]
    scores = {
        score_team(rules, bids, (won[0] + more, won[1]), bags) for more in range(remaining + 1)
    }
    _is(len(scores) == 1, bool(m[4]), "more tricks score nothing")


@clause("both partners bid Nil", r"You and your partner both bid Nil")
def _both_nil(p: Position, m: re.Match[str]) -> None:
    _is((p.game.bids[p.seat], p.game.bids[p.partner]), (0, 0), "the team's bids")


# -- checking a tip ----------------------------------------------------------------------


@dataclass
class Tally:
    """What a run of checks looked at."""

    tips: int = 0
    clauses: int = 0
    by_clause: Counter[str] = field(default_factory=Counter)
    by_idea: Counter[str] = field(default_factory=Counter)

    def add(self, idea: str, names: list[str]) -> None:
        self.tips += 1
        self.clauses += len(names)
        self.by_clause.update(names)
        self.by_idea[idea] += 1


def check_tip(game: Game, tip: sc.Tip) -> list[str]:
    """Check every clause of ``tip`` (for the seat to act in ``game``); the
    names of the clauses checked. Raises AssertionError on a false clause or
    on text that is neither a known clause nor advice."""
    position = Position(game, tip)
    reason = tip.reason
    covered = [False] * len(reason)
    names: list[str] = []
    for known in CLAUSES:
        for match in known.pattern.finditer(reason):
            try:
                known.check(position, match)
            except AssertionError as error:
                raise AssertionError(f"{known.name}: {error}\n  tip: {reason}") from None
            names.append(known.name)
            for i in range(*match.span(0)):
                covered[i] = True
    leftover = "".join("\0" if done else ch for ch, done in zip(reason, covered, strict=True))
    for piece in leftover.split("\0"):
        words = piece.strip(" ,.;:()").strip()
        assert words in ADVICE, f"unchecked words {words!r}\n  tip: {reason}"
    return names


def coach_and_check(game: Game, tally: Tally | None = None) -> sc.Tip:
    """The coach's tip for the seat to act, checked."""
    seat = game.to_act
    assert seat is not None
    tip = sc.coach(game.view(seat))
    assert tip.action in game.legal_actions()
    names = check_tip(game, tip)
    if tally is not None:
        tally.add(tip.idea, names)
    return tip


# -- positions -------------------------------------------------------------------------------


def nil_heavy_deal(rng: random.Random, nil_team: sc.Team) -> dict[Seat, CardSet]:
    """A deal in which ``nil_team`` holds no spades, so both its players may
    bid Nil in every variant."""
    spades = [c for c in CardSet.full_deck() if c.suit is Suit.SPADES]
    others = [c for c in CardSet.full_deck() if c.suit is not Suit.SPADES]
    rng.shuffle(others)
    nil_seats = [seat for seat in Seat if seat.team is nil_team]
    other_seats = [seat for seat in Seat if seat.team is not nil_team]
    hands = {nil_seats[0]: others[:13], nil_seats[1]: others[13:26]}
    rest = others[26:] + spades
    rng.shuffle(rest)
    hands[other_seats[0]] = rest[:13]
    hands[other_seats[1]] = rest[13:]
    return {seat: CardSet.of(held) for seat, held in hands.items()}


class NearCount(sc.Variant):
    """A plugin variant that leaves explaining its bids to the default
    :meth:`~spades_core.Variant.explain_bids`: bid Nil, or your spade count
    up to two more."""

    def legal_bids(
        self, rules: sc.Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> set[int]:
        count = hand.count(Suit.SPADES)
        return {0, *range(count, min(count + 2, 13) + 1)}


NEAR_COUNT = NearCount(
    id="near-count",
    title="Near Count Spades",
    options={"target_score": 500, "nil_value": 100, "bag_limit": 10},
)
VARIANTS: tuple[str | sc.Variant, ...] = ("classic", "mirror", "whiz", NEAR_COUNT)


def play_to_position(
    rng: random.Random,
    game: Game,
    *,
    nil_team: sc.Team | None,
    nil_bias: float,
    steps: int,
    follow_coach: float,
) -> Game | None:
    """From ``game`` before a deal: deal (``nil_team``, if any, gets no
    spades, so both its players may bid Nil in every variant), bid (that team
    bids Nil whenever it may, other seats with probability ``nil_bias``) and
    play, ``steps`` actions in all, each the coach's with probability
    ``follow_coach``, else random. ``None`` if the hand ends first."""
    if game.phase is not Phase.DEAL:
        return None
    game = game.deal(nil_heavy_deal(rng, nil_team)) if nil_team is not None else game.deal()
    for _ in range(steps):
        seat = game.to_act
        assert seat is not None
        action = rng.choice(game.legal_actions())
        if game.phase is Phase.BID and 0 in game.legal_bids():
            if seat.team is nil_team or rng.random() < nil_bias:
                action = Bid.of(0)
        elif rng.random() < follow_coach:
            action = sc.coach(game.view(seat)).action
        game = game.apply(action)
        if game.phase is not Phase.BID and game.phase is not Phase.PLAY:
            return None
    return game


def positions(rng: random.Random, count: int) -> Iterator[Game]:
    """``count`` positions spread over the variants (a plugin's included),
    after zero to two random hands, with random team caps (1-13), the Whiz
    ace rule, the ways Nil tricks count, and deals in which one team may bid
    Nil twice."""
    made = 0
    while made < count:
        variant = VARIANTS[made % len(VARIANTS)]
        options: dict[str, Any] = {"target_score": 10_000}
        if variant == "classic":
            options["loss_floor"] = None
            if rng.random() < 0.5:
                options["max_team_bid"] = rng.randint(1, 13)
        if variant == "whiz" and rng.random() < 0.4:
            options["whiz_nil_needs_no_ace"] = True
        if variant != NEAR_COUNT and rng.random() < 0.2:
            options["nil_tricks"] = rng.choice(list(NilTricks)).value
        game = sc.new_game(
            variant, seed=rng.randrange(2**32), dealer=rng.choice(list(Seat)), **options
        )
        for _ in range(rng.choice([0, 0, 1, 2])):
            game = play_randomly(game, rng)
        found = play_to_position(
            rng,
            game,
            nil_team=rng.choice([None, None, sc.Team.NS, sc.Team.EW]),
            nil_bias=rng.choice([0.0, 0.2, 0.6]),
            steps=rng.randrange(0, 57),
            follow_coach=rng.random(),
        )
        if found is not None:
            made += 1
            yield found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check the coach's clauses on random positions.")
    parser.add_argument(
        "--positions", type=int, default=12000, help="positions, spread over the variants"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    tally = Tally()
    for game in positions(random.Random(args.seed), args.positions):
        coach_and_check(game, tally)
    print(f"seed {args.seed}: {tally.tips} tips, {tally.clauses} clauses checked, none false")
    for idea, count in sorted(tally.by_idea.items()):
        print(f"  idea {idea:<22} {count}")
    for name, count in sorted(tally.by_clause.items()):
        print(f"  clause {name:<32} {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
