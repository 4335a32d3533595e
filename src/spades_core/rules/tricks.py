"""The trick rules on ints: following suit, leading spades, the first lead,
the trick winner, breaking spades, and what a play shows about a hand.

Each rule is written here once. The checked engine, the hard bot's
simulations and the views' inference call these functions card by card;
the fast play-out calls :func:`play_tricks`, which applies the same rules to
a whole hand without a call per card (the tests hold it to the one-card
functions). An engine written in another form (vectorised, say) should
mirror them constant for constant.

Everything is a plain int:

* a card is its id ``suit * 13 + rank``: suits clubs, diamonds, hearts,
  spades (0-3), ranks deuce (0) to ace (12);
* a set of cards (a hand, the cards played) is a 52-bit mask, bit ``id`` set
  when the card is in it;
* a set of suits is a 4-bit mask, bit ``suit`` set when the suit is in it;
* the led suit of a trick is a suit number, or :data:`NO_SUIT` when the next
  card leads.

The two rule options enter as flags: ``any_spade`` (``break_rule`` is
``any_spade``) and ``two_of_clubs`` (``first_lead`` is ``two_of_clubs``);
:func:`rule_flags` reads both from :class:`~spades_core.Rules`.

>>> hand = (1 << 5) | (1 << FIRST_SPADE)  # the 7C and the 2S
>>> legal_card_mask(hand, NO_SUIT, broken=False, lead_two_of_clubs=False) == 1 << 5
True
>>> legal_card_mask(hand, SPADES, broken=False, lead_two_of_clubs=False) == 1 << FIRST_SPADE
True
>>> trick_winner((12, 0, FIRST_SPADE, 11))  # AC, 2C, 2S, KC: the spade wins
2
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from spades_core.values import deprecation
from spades_core.values.cards import SUIT_MASKS
from spades_core.values.options import BreakRule, FirstLead, Rules

__all__ = [
    "FIRST_SPADE",
    "LEFT_OF",
    "NON_SPADE_MASK",
    "NON_SPADE_SUITS",
    "NO_SUIT",
    "RANKS",
    "SPADES",
    "SPADE_MASK",
    "SUIT_MASKS",
    "TWO_OF_CLUBS",
    "breaks_spades",
    "first_leader",
    "legal_card_mask",
    "play_tricks",
    "rule_flags",
    "shown_out",
    "trick_winner",
]

RANKS: Final = 13
"""Cards per suit: a card's suit is ``card // RANKS``, its rank ``card % RANKS``."""
SPADES: Final = 3
"""The suit number of spades, always trump."""
FIRST_SPADE: Final = SPADES * RANKS
"""The id of the deuce of spades: a card is a spade when its id is at least this."""
TWO_OF_CLUBS: Final = 0
"""The id of the deuce of clubs, which leads the first trick under ``first_lead=two_of_clubs``."""
SPADE_MASK: Final = SUIT_MASKS[SPADES]
"""The 52-bit mask of the 13 spades."""
NON_SPADE_MASK: Final = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2]
"""The 52-bit mask of the 39 clubs, diamonds and hearts."""
NON_SPADE_SUITS: Final = (1 << SPADES) - 1
"""The 4-bit suit set of clubs, diamonds and hearts."""
NO_SUIT: Final = -1
"""The led suit while a trick has no card yet: the next card leads."""


def rule_flags(rules: Rules) -> tuple[bool, bool]:
    """``(any_spade, two_of_clubs)``: the two options the trick rules read."""
    return rules.break_rule is BreakRule.ANY_SPADE, rules.first_lead is FirstLead.TWO_OF_CLUBS


def legal_card_mask(held: int, led: int, broken: bool, lead_two_of_clubs: bool) -> int:
    """The cards of ``held`` that may be played to a trick led in suit ``led``
    (:data:`NO_SUIT`: the card leads).

    A card following must be of the led suit when ``held`` has one. A lead
    may be anything once spades are ``broken``, and otherwise anything but a
    spade unless ``held`` is all spades. ``lead_two_of_clubs`` is true for the
    first lead of a hand under ``first_lead=two_of_clubs``: then the only
    legal card is the deuce of clubs, which the leader holds.
    """
    if led >= 0:
        return held & SUIT_MASKS[led] or held
    if lead_two_of_clubs:
        return 1 << TWO_OF_CLUBS
    if broken:
        return held
    return held & NON_SPADE_MASK or held


LEFT_OF: Final = (1, 2, 3, 0)
"""``LEFT_OF[seat]``: the seat (0-3) on the left of ``seat``. Left of the
dealer sits the seat that is dealt the first card, bids first, leads the
first trick (unless ``first_lead="two_of_clubs"``) and deals the next hand.
(A lookup, not a function: the engine asks it every hand. Index a numpy
array made of it for many dealers at once.)

>>> LEFT_OF[3]
0
"""


def first_leader(dealer: int, held: Sequence[int], two_of_clubs: bool) -> int:
    """The seat (0-3) that leads a hand's first trick: left of ``dealer``, or
    under ``two_of_clubs`` the seat whose mask in ``held`` has the deuce of clubs."""
    if two_of_clubs:
        for seat in range(4):
            if held[seat] >> TWO_OF_CLUBS & 1:
                return seat
    return LEFT_OF[dealer]


def breaks_spades(card: int, led: int, any_spade: bool) -> bool:
    """Whether playing ``card`` to a trick led in ``led`` (:data:`NO_SUIT`:
    leading it) breaks spades: a spade played to a trick led in another suit
    always does; under ``any_spade`` any spade does, one led or followed too."""
    return card >= FIRST_SPADE and (any_spade or 0 <= led < SPADES)


def shown_out(card: int, led: int, broken: bool) -> int:
    """The suits (a 4-bit set) the player of ``card`` proves to be out of by
    playing it to a trick led in ``led`` (:data:`NO_SUIT`: leading it), spades
    ``broken`` or not before the card: a card off the led suit shows the led
    suit out; a spade led before spades are broken shows every other suit out
    (the only-spades exception is the one way to lead it)."""
    if led >= 0:
        return 0 if card // RANKS == led else 1 << led
    if card >= FIRST_SPADE and not broken:
        return NON_SPADE_SUITS
    return 0


def trick_winner(cards: Sequence[int]) -> int:
    """Position (0-3, from the leader) of the winning card of a trick of four
    card ids in play order: the highest spade, else the highest card of the
    led suit."""
    # Card ids order each suit by rank and put the spades above every other
    # suit: a card of the led suit or a spade beats the best so far when its id
    # is higher. Written out for the three cards after the lead, as every
    # trick of every hand asks it.
    best = cards[0]
    led = best // RANKS
    position = 0
    card = cards[1]
    if card > best and (card >= FIRST_SPADE or card // RANKS == led):
        best, position = card, 1
    card = cards[2]
    if card > best and (card >= FIRST_SPADE or card // RANKS == led):
        best, position = card, 2
    card = cards[3]
    if card > best and (card >= FIRST_SPADE or card // RANKS == led):
        position = 3
    return position


# The card ids of a suit's cards in a hand, lowest first, from the hand's
# 13-bit slice of that suit cut in two: ids of the low 7 bits, then of the
# high 6 (a table of every 13-bit slice would take 8192 entries per suit).
_LOW_IDS: Final = tuple(
    tuple(suit * RANKS + r for r in range(7) if bits >> r & 1)
    for suit in range(4)
    for bits in range(128)
)
_HIGH_IDS: Final = tuple(
    tuple(suit * RANKS + 7 + r for r in range(6) if bits >> r & 1)
    for suit in range(4)
    for bits in range(64)
)
# The three seats after each seat, clockwise: the followers when it leads.
_FOLLOWERS: Final = tuple(((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4) for seat in range(4))


def _by_suit(held: int) -> list[list[int]]:
    """The hand ``held`` as four ascending lists of card ids, one per suit."""
    return [
        [*_LOW_IDS[held & 0x7F], *_HIGH_IDS[held >> 7 & 0x3F]],
        [*_LOW_IDS[128 + (held >> 13 & 0x7F)], *_HIGH_IDS[64 + (held >> 20 & 0x3F)]],
        [*_LOW_IDS[256 + (held >> 26 & 0x7F)], *_HIGH_IDS[128 + (held >> 33 & 0x3F)]],
        [*_LOW_IDS[384 + (held >> 39 & 0x7F)], *_HIGH_IDS[192 + (held >> 46)]],
    ]


def _take(hand: list[list[int]], index: int) -> int:
    """Remove and return card ``index`` of ``hand`` (lists by suit), counting
    from the lowest id."""
    suit = 0
    while index >= len(hand[suit]):
        index -= len(hand[suit])
        suit += 1
    return hand[suit].pop(index)


def play_tricks(
    held: Sequence[int],
    leader: int,
    trick: Sequence[int],
    broken: bool,
    any_spade: bool,
    lead_two_of_clubs: bool,
    choose: Callable[[int], int],
    plays: list[int],
    won: list[int],
) -> None:
    """Play the rest of a hand by the rules above, each card picked by ``choose``.

    ``held`` is each seat's cards (masks, by seat number) and ``trick`` the
    zero to three cards of the trick in progress, led by seat ``leader``;
    ``broken``, ``any_spade`` and ``lead_two_of_clubs`` are as for
    :func:`legal_card_mask` and :func:`breaks_spades` (``lead_two_of_clubs``: no
    card of the hand is played yet, under ``first_lead=two_of_clubs``). For
    each card ``choose(n)`` gets the number ``n`` of legal cards and returns
    the index of the card to play among them, lowest id first. Each card
    played is appended to ``plays``, and each trick adds one to its winner's
    count in ``won``.

    The rules are those of :func:`legal_card_mask`, :func:`breaks_spades` and
    :func:`trick_winner`, applied to each hand held as four lists of card ids,
    one per suit: a suit's legal cards are then a whole list, and a card
    costs no call but ``choose``.

    >>> plays, won = [], [0, 0, 0, 0]
    >>> hands = (1 << 12 | 1 << 40, 1 << 0 | 1 << 1, 1 << 13 | 1 << 14, 1 << 26 | 1 << 41)
    >>> play_tricks(hands, 0, (), False, False, False, lambda n: 0, plays, won)
    >>> plays, won  # North leads the AC, not the unbroken 3S; West's 4S takes trick two
    ([12, 0, 13, 26, 40, 1, 14, 41], [1, 0, 0, 1])
    """
    hands = [_by_suit(mask) for mask in held]
    if trick:
        led = trick[0] // RANKS
        # Padded with copies of its first card, which beat nothing, the trick
        # so far has four cards and trick_winner finds the best of them.
        position = trick_winner((*trick, trick[0], trick[0], trick[0]))
        best = trick[position]
        winner = (leader + position) % 4
        followers = _FOLLOWERS[leader][len(trick) - 1 :]
    else:
        winner = leader
    append = plays.append
    leading = not trick
    for _ in range(sum(map(int.bit_count, held)) + 3 >> 2):
        if leading:
            hand = hands[winner]
            if lead_two_of_clubs:
                choose(1)
                card = hand[0].pop(0)
                lead_two_of_clubs = False
            else:
                count = len(hand[0]) + len(hand[1]) + len(hand[2])
                if broken or not count:
                    count += len(hand[3])
                card = _take(hand, choose(count))
                if card >= FIRST_SPADE and not broken:
                    broken = breaks_spades(card, NO_SUIT, any_spade)
            append(card)
            led = card // RANKS
            best = card
            followers = _FOLLOWERS[winner]
        leading = True
        for seat in followers:
            hand = hands[seat]
            following = hand[led]
            if following:
                card = following.pop(choose(len(following)))
                if card > best:
                    best = card
                    winner = seat
                if not broken and card >= FIRST_SPADE:
                    broken = breaks_spades(card, led, any_spade)
            else:
                card = _take(
                    hand, choose(len(hand[0]) + len(hand[1]) + len(hand[2]) + len(hand[3]))
                )
                if card >= FIRST_SPADE:
                    if card > best:
                        best = card
                        winner = seat
                    if not broken:
                        broken = breaks_spades(card, led, any_spade)
            append(card)
        won[winner] += 1


# Assigned, not defined: a compiled module's own __getattr__ would be asked
# for __file__ while the module is still being set up.
__getattr__ = deprecation.OldNames(
    "spades_core.tricks",
    {"legal_mask": (legal_card_mask, "spades_core.tricks.legal_card_mask")},
).attribute
"""Names this module offered in release 0.1, with a warning."""
