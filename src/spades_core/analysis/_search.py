"""The double-dummy search on ints: the most tricks a side can take with all
four hands seen, both sides playing perfectly.

Everything is a plain int, as in :mod:`spades_core.tricks`: a card is its id,
a hand a 52-bit mask, a seat 0-3 (North, East, South, West), North-South the
seats of even number. The rules come from the kernel (:func:`legal_card_mask`
for the cards a seat may play, :func:`trick_winner` for who takes a trick,
:func:`breaks_spades` for when spades may be led); nothing here decides a
play's legality or a trick's winner on its own.

How the search works
--------------------
:meth:`Search.at_least` answers one yes-or-no question, "does North-South
take at least ``target`` of the tricks still to play from here?", by
depth-first search over the legal cards, a seat of North-South answering
yes when one of its cards does and a seat of East-West answering no when one
of its cards does. :meth:`Search.value` finds the exact number of tricks
with a few of these questions (a bisection over the bounds known so far,
each answer narrowing them), as MTD(f) does with null-window searches.

At the start of every trick the position is looked up in a transposition
table of *rank-equivalent* positions: within each suit only the order of the
cards still held matters (the cards of finished tricks are gone), so a
position is read as, suit by suit, which seat holds each card still held,
highest first. The table is keyed by the leader, whether spades are broken
and every hand's length in every suit; under each key it holds answers found
before, each a lower or an upper bound on North-South's tricks with the
pattern of cards it holds for (below).

Before a trick is searched, two bounds may answer the question at once
(:meth:`Search._bounds`):

* *sure tricks*: the highest spade still held, and each spade below it in an
  unbroken run in the same hand, takes a trick whenever it is played (a spade
  beats every other suit, and one hand plays one card to a trick);
* *quick tricks*: the leader can cash its top cards in a side suit, one
  trick each, as long as neither opponent who holds a spade runs out of the
  suit (an opponent without spades cannot ruff). Together with the leader's
  own sure spades (other cards of the same hand, so other tricks) they are
  a floor for the leader's side; so are partner's, with partner's sure
  spades, when the leader holds a card of a suit in which partner cashes
  (led to partner's winner, it hands partner the lead).

A question answered by a bound, by the table or by a search leaves the cards
whose ranks the answer rested on (a trick's winner that beat another card of
its suit, the cards a bound counted); the table keeps the answer with the
cards down to the lowest of them in each suit, so that one entry serves
every position alike down to there (partition search).

Moves are ordered so that a good card comes first (the lead that answered
last time in a position alike, cash winners, lead to partner's winner, win a
trick with a card nobody after can beat, win cheaply, play low behind
partner's winner), and of cards that are *equivalent* — adjacent in
one hand once the cards of finished tricks are taken out, as the ten and
eight are when the nine is gone — only the lowest is tried: they win and
lose the same tricks.

:func:`beating_cards`, used only to order moves (never to decide a result),
is the one twin of a kernel rule here: the cards of a hand that would beat
the best card of a trick so far. It is held to :func:`trick_winner` by
``tests/test_analysis_rules.py``.

The class is written for mypyc as well as for the interpreter: ints, lists
of ints and a dict, annotated locals, no closures.
"""

from __future__ import annotations

from typing import Final, final

from spades_core.rules.tricks import (
    FIRST_SPADE,
    NO_SUIT,
    RANKS,
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    breaks_spades,
    legal_card_mask,
    trick_winner,
)

__all__ = ["ALL_CARDS_MASK", "TABLE_LIMIT", "Search", "beating_cards", "equivalence_classes"]

ALL_CARDS_MASK: Final = (1 << 52) - 1
"""The 52-bit mask of the whole deck."""
_SUIT_BITS: Final = (1 << RANKS) - 1
_ACES: Final = sum(1 << (suit * RANKS + RANKS - 1) for suit in range(4))
_DEUCES: Final = sum(1 << (suit * RANKS) for suit in range(4))
_SUIT_SLICE: Final = (1 << (4 * RANKS)) - 1
_CLUBS: Final = SUIT_MASKS[0]
_DIAMONDS: Final = SUIT_MASKS[1]
_HEARTS: Final = SUIT_MASKS[2]

# _SPREAD[seat * 52 + card]: the bit of ``card`` held by ``seat`` in the
# suit-major layout the keys are read from: suit by suit, each suit's four
# 13-bit slices side by side (North's lowest), so one shift and one mask give
# a whole suit's deal.
_SPREAD: Final[tuple[int, ...]] = tuple(
    1 << ((card // RANKS) * 4 * RANKS + seat * RANKS + card % RANKS)
    for seat in range(4)
    for card in range(52)
)
_NO_ENTRY: Final = -1
TABLE_LIMIT: Final = 1 << 19
"""The most suit-length patterns the transposition table keeps (some 150 MB
at most); past it the table starts afresh."""
# _RANKS_DOWN[bits]: the ranks set in a 13-bit suit slice, highest first.
_RANKS_DOWN: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(rank for rank in range(RANKS - 1, -1, -1) if bits >> rank & 1)
    for bits in range(1 << RANKS)
)
_FIELD: Final = 2 * RANKS
"""Bits of one suit in a position's pattern: two per card, the seat holding it."""
_FIELD_MASK: Final = (1 << _FIELD) - 1


def beating_cards(cards: int, best: int, led: int) -> int:
    """The cards of the mask ``cards`` that would beat the card ``best``, the
    best card so far of a trick led in suit ``led``: a higher card of the led
    suit, or a higher spade (card ids order a suit by rank and put the spades
    above every other suit).

    A twin of :func:`~spades_core.tricks.trick_winner` for a whole hand at
    once, used to order moves only.

    >>> ace, king, two_spades = 12, 11, FIRST_SPADE
    >>> beating_cards(1 << ace | 1 << two_spades, king, 0) == 1 << ace | 1 << two_spades
    True
    """
    above = cards & ~((2 << best) - 1)
    return above & (SUIT_MASKS[led] | SPADE_MASK)


def equivalence_classes(held: int, alive: int) -> int:
    """The lowest card of each run of ``held`` that no other card of ``alive``
    (the cards not yet in a finished trick, ``held`` among them) splits: the
    cards of a run take the same tricks, so one stands for all.

    A carry started just above each card of another hand (and at each deuce)
    runs up through the gone cards and stops on the next card still in play:
    where that card is one of ``held``, it is the lowest of its run.

    >>> # Clubs: holding 2, 4 and 6 with the 3 gone and the 5 elsewhere: 2-4 is one run
    >>> equivalence_classes(0b10101, 0b11101) == 0b10001
    True
    """
    others = alive & ~held
    gone = ALL_CARDS_MASK & ~alive & ~_ACES
    return ((((others & ~_ACES) << 1) | _DEUCES) + gone) & held


def _lowest_cards(cards: int) -> list[int]:
    """The card ids of ``cards``, lowest first."""
    found: list[int] = []
    while cards:
        low = cards & -cards
        found.append(low.bit_length() - 1)
        cards ^= low
    return found


@final
class Search:
    """A double-dummy search over one deal's remaining cards.

    ``hands`` are the four hands held now (masks by seat), ``any_spade`` the
    break rule's flag (:func:`~spades_core.tricks.rule_flags`). The trick in
    progress is given to each call. The transposition table lives as long as
    the object, so later questions about positions of the same deal (another
    card, another target) reuse what earlier ones found; a search changes
    ``hands`` while it runs and restores them before it returns.
    """

    hands: list[int]
    tricks: list[list[int]]
    any_spade: bool
    table: dict[int, list[int]]
    best_moves: dict[int, int]
    suit_keys: dict[int, int]
    layout: int
    nodes: int
    relevant: int
    low_cards: int
    high_cards: int
    limit: int

    def __init__(self, hands: list[int], any_spade: bool) -> None:
        self.hands = [hands[0], hands[1], hands[2], hands[3]]
        # The cards of the trick in progress at each depth, by the number of
        # tricks left: a trick's cards stay put while later tricks are searched.
        self.tricks = [[0, 0, 0, 0] for _ in range(14)]
        self.any_spade = any_spade
        self.table = {}
        self.best_moves = {}
        self.suit_keys = {}
        layout = 0
        for seat in range(4):
            held = hands[seat]
            while held:
                low = held & -held
                layout |= _SPREAD[seat * 52 + low.bit_length() - 1]
                held ^= low
        self.layout = layout
        self.nodes = 0
        self.relevant = 0
        self.low_cards = 0
        self.high_cards = 0
        self.limit = TABLE_LIMIT

    # -- the questions -----------------------------------------------------

    def value(
        self, to_act: int, trick: list[int], broken: bool, first: bool, low: int, high: int
    ) -> int:
        """The exact number of the remaining tricks (the one in progress
        included) North-South takes from the position where ``to_act`` plays
        next to the cards ``trick`` (0-3 card ids in play order), spades
        ``broken`` or not, ``first`` when this is the hand's first lead under
        ``first_lead=two_of_clubs``. ``low`` and ``high`` are bounds known
        for it (0 and the tricks remaining when nothing is known)."""
        while low < high:
            target = (low + high + 1) >> 1
            if self.at_least(to_act, trick, broken, first, target):
                low = target
            else:
                high = target - 1
        return low

    def at_least(
        self, to_act: int, trick: list[int], broken: bool, first: bool, target: int
    ) -> bool:
        """Whether North-South takes at least ``target`` of the remaining
        tricks from the position :meth:`value` describes."""
        count = len(trick)
        hands = self.hands
        held = hands[to_act]
        if target <= 0:
            return True
        if target > held.bit_count():
            return False
        alive = hands[0] | hands[1] | hands[2] | hands[3]
        level = self.tricks[held.bit_count()]
        for position in range(count):
            level[position] = trick[position]
            alive |= 1 << trick[position]
        if count == 0:
            if not first:
                return self._ge(to_act, 0, broken, target, 0, 0, alive)
            # The hand's first lead under first_lead=two_of_clubs: the one
            # card the kernel allows, then the search as usual.
            legal = legal_card_mask(held, NO_SUIT, broken, True)
            card = legal.bit_length() - 1
            hands[to_act] = held ^ legal
            self.layout ^= _SPREAD[to_act * 52 + card]
            level[0] = card
            now_broken = broken or (
                card >= FIRST_SPADE and breaks_spades(card, NO_SUIT, self.any_spade)
            )
            found = self._ge((to_act + 1) & 3, 1, now_broken, target, card, to_act, alive)
            hands[to_act] = held
            self.layout ^= _SPREAD[to_act * 52 + card]
            return found
        led = trick[0] // RANKS
        best = trick[0]
        winner = (to_act - count) & 3
        for position in range(1, count):
            if beating_cards(1 << trick[position], best, led):
                best = trick[position]
                winner = (to_act - count + position) & 3
        return self._ge(to_act, count, broken, target, best, winner, alive)

    # -- the search ---------------------------------------------------------

    def _ge(
        self,
        to_act: int,
        count: int,
        broken: bool,
        target: int,
        best: int,
        winner: int,
        alive: int,
    ) -> bool:
        # Whether North-South takes at least ``target`` of the remaining tricks,
        # ``to_act`` playing the card numbered ``count`` (0: the lead) of the
        # trick in progress; ``best`` and ``winner`` are its best card so far
        # and who played it, ``alive`` the cards not in a finished trick.
        # Leaves in ``relevant`` the cards whose ranks the answer rests on.
        self.nodes += 1
        hands = self.hands
        held = hands[to_act]
        left = held.bit_count()
        trick = self.tricks[left]
        pattern = 0
        bucket_key = 0
        exact = 0
        tried = -1
        if count == 0:
            if left == 1:
                return self._last_trick(to_act) >= target
            layout = self.layout
            keys = self.suit_keys
            lengths = 0
            for suit in range(4):
                deal = layout >> (suit * 4 * RANKS) & _SUIT_SLICE
                code = keys.get(deal, _NO_ENTRY)
                if code == _NO_ENTRY:
                    code = _suit_key(deal)
                    keys[deal] = code
                pattern |= (code & _FIELD_MASK) << (suit * _FIELD)
                lengths |= (code >> _FIELD) << (suit * 16)
            bucket_key = lengths << 3 | to_act << 1 | (1 if broken else 0)
            bucket = self.table.get(bucket_key)
            if bucket is not None:
                size = len(bucket)
                index = 0
                while index < size:
                    mask = bucket[index]
                    if pattern & mask == bucket[index + 1]:
                        info = bucket[index + 2]
                        if info & 1:
                            if target <= info >> 1:
                                self.relevant = _cards_at_depths(mask, alive)
                                return True
                        elif target > info >> 1:
                            self.relevant = _cards_at_depths(mask, alive)
                            return False
                    index += 3
            bounds = self._bounds(to_act, left)
            if target <= bounds & 15:
                self.relevant = self.low_cards
                return True
            if target > bounds >> 4:
                self.relevant = self.high_cards
                return False
            exact = pattern << 67 | bucket_key
            tried = self.best_moves.get(exact, -1)
            if tried < 0 or not (held >> tried) & 1:
                tried = self.best_moves.get(bucket_key, -1)
            led = NO_SUIT
            order = self._order_lead(
                to_act,
                equivalence_classes(held, alive) & legal_card_mask(held, NO_SUIT, broken, False),
                alive,
                tried,
            )
        else:
            led = trick[0] // RANKS
            cards = equivalence_classes(held, alive) & legal_card_mask(held, led, broken, False)
            if cards & (cards - 1):
                order = self._order_follow(to_act, count, cards, led, best, winner)
            else:
                order = [cards.bit_length() - 1]
        maximizing = (to_act & 1) == 0
        found = not maximizing
        spread = to_act * 52
        relevant = 0
        child = 0
        for card in order:
            bit = 1 << card
            hands[to_act] = held ^ bit
            self.layout ^= _SPREAD[spread + card]
            trick[count] = card
            now_broken = broken
            if not broken and card >= FIRST_SPADE:
                now_broken = breaks_spades(card, led, self.any_spade)
            if count == 3:
                position = trick_winner(trick)
                taker = (to_act + 1 + position) & 3
                played = bit | 1 << trick[0] | 1 << trick[1] | 1 << trick[2]
                needed = target - 1 if (taker & 1) == 0 else target
                if needed <= 0:
                    result = True
                    child = 0
                elif needed >= left:
                    result = False
                    child = 0
                else:
                    result = self._ge(taker, 0, now_broken, needed, 0, 0, alive & ~played)
                    child = self.relevant
                taken = trick[position]
                if played & SUIT_MASKS[taken // RANKS] != 1 << taken:
                    # Won by rank over another card of its suit.
                    child |= 1 << taken
            elif count == 0:
                result = self._ge((to_act + 1) & 3, 1, now_broken, target, card, to_act, alive)
                child = self.relevant
            elif beating_cards(bit, best, led):
                result = self._ge(
                    (to_act + 1) & 3, count + 1, now_broken, target, card, to_act, alive
                )
                child = self.relevant
            else:
                result = self._ge(
                    (to_act + 1) & 3, count + 1, now_broken, target, best, winner, alive
                )
                child = self.relevant
            hands[to_act] = held
            self.layout ^= _SPREAD[spread + card]
            if result == maximizing:
                found = maximizing
                relevant = child
                if count == 0 and card != tried:
                    moves = self.best_moves
                    if len(moves) >= 2 * self.limit:
                        moves.clear()
                    moves[exact] = card
                    moves[bucket_key] = card
                break
            relevant |= child
        self.relevant = relevant
        if count == 0:
            self._store(bucket_key, pattern, relevant, alive, found, target)
        return found

    def _store(
        self, bucket_key: int, pattern: int, relevant: int, alive: int, found: bool, target: int
    ) -> None:
        # Keep the answer for every position with the same suit lengths whose
        # cards down to the lowest relevant one of each suit lie alike.
        mask = 0
        for suit in range(4):
            cards = relevant & SUIT_MASKS[suit]
            if cards:
                lowest = cards & -cards
                depth = (alive & SUIT_MASKS[suit] & ~(lowest - 1)).bit_count()
                mask |= ((1 << 2 * depth) - 1) << (suit * _FIELD + _FIELD - 2 * depth)
        info = (target << 1 | 1) if found else (target - 1) << 1
        value = pattern & mask
        bucket = self.table.get(bucket_key)
        if bucket is None:
            if len(self.table) >= self.limit:
                # A bounded memory: the table holds only facts, so starting
                # afresh costs time, never a wrong answer.
                self.table.clear()
                self.best_moves.clear()
            self.table[bucket_key] = [mask, value, info]
            return
        size = len(bucket)
        index = 0
        while index < size:
            if bucket[index] == mask and bucket[index + 1] == value:
                known = bucket[index + 2]
                if (known & 1) == (info & 1):
                    if (info & 1 and info > known) or (not info & 1 and info < known):
                        bucket[index + 2] = info
                    return
            index += 3
        bucket.append(mask)
        bucket.append(value)
        bucket.append(info)

    def _last_trick(self, leader: int) -> int:
        # North-South's tricks of the last trick: each hand has one card left.
        hands = self.hands
        trick = self.tricks[1]
        played = 0
        for position in range(4):
            card = hands[(leader + position) & 3].bit_length() - 1
            trick[position] = card
            played |= 1 << card
        position = trick_winner(trick)
        taken = trick[position]
        self.relevant = 0
        if played & SUIT_MASKS[taken // RANKS] != 1 << taken:
            self.relevant = 1 << taken
        return 1 if ((leader + position) & 1) == 0 else 0

    # -- the bounds -----------------------------------------------------------

    def _bounds(self, leader: int, left: int) -> int:
        # Bounds on North-South's tricks of the ``left`` still to play, with
        # ``leader`` to lead: low | high << 4 (see the module's docstring),
        # and in low_cards and high_cards the cards each rests on.
        hands = self.hands
        mine = hands[leader]
        partner = hands[leader ^ 2]
        right = hands[(leader + 1) & 3]
        left_hand = hands[(leader + 3) & 3]
        cashed = _cashable(mine, partner | right | left_hand, right, left_hand)
        quick = cashed & 15
        quick_cards = cashed >> 4
        # Partner's cashable cards count too when the leader can reach them:
        # a card of a suit in which partner cashes, led to partner's winner.
        crossed = _cashable(partner, mine | right | left_hand, right, left_hand)
        across = 0
        across_cards = 0
        reached = crossed >> 4
        if (
            (reached & _CLUBS and mine & _CLUBS)
            or (reached & _DIAMONDS and mine & _DIAMONDS)
            or (reached & _HEARTS and mine & _HEARTS)
        ):
            across = crossed & 15
            across_cards = reached
        ours = quick
        ours_cards = quick_cards
        if across > ours:
            ours = across
            ours_cards = across_cards
        theirs = 0
        theirs_cards = 0
        spades = (mine | partner | right | left_hand) & SPADE_MASK
        if spades:
            top = 1 << (spades.bit_length() - 1)
            owner = leader
            while not hands[owner] & top:
                owner = (owner + 1) & 3
            held = hands[owner] & SPADE_MASK
            rest = spades & ~held
            run_cards = held >> rest.bit_length() << rest.bit_length() if rest else held
            run = run_cards.bit_count()
            # A hand's sure spades are other cards than the side suits it
            # cashes, so other tricks: they add to that hand's own cashing.
            if owner == leader:
                if quick + run > ours:
                    ours = quick + run
                    ours_cards = quick_cards | run_cards
            elif owner == leader ^ 2:
                if run > ours:
                    ours = run
                    ours_cards = run_cards
                if across and across + run > ours:
                    ours = across + run
                    ours_cards = across_cards | run_cards
            else:
                theirs = run
                theirs_cards = run_cards
        if ours > left:
            ours = left
        if (leader & 1) == 0:
            self.low_cards = ours_cards
            self.high_cards = theirs_cards
            return ours | (left - theirs) << 4
        self.low_cards = theirs_cards
        self.high_cards = ours_cards
        return theirs | (left - ours) << 4

    # -- move ordering ---------------------------------------------------------

    def _order_lead(self, leader: int, cards: int, alive: int, tried: int) -> list[int]:
        # The leads in ``cards``, the likeliest good ones first: ``tried``
        # (the lead that answered last time, or -1) before all.
        hands = self.hands
        partner = hands[leader ^ 2]
        right = hands[(leader + 1) & 3]
        left_hand = hands[(leader + 3) & 3]
        scored: list[int] = []
        while cards:
            low = cards & -cards
            cards ^= low
            card = low.bit_length() - 1
            suit = card // RANKS
            mask = SUIT_MASKS[suit]
            suit_alive = alive & mask
            rank = card % RANKS
            score = 0
            if suit == SPADES:
                ruffed = False
                partner_ruffs = False
            else:
                ruffed = (not right & mask and (right & SPADE_MASK) != 0) or (
                    not left_hand & mask and (left_hand & SPADE_MASK) != 0
                )
                partner_ruffs = not partner & mask and (partner & SPADE_MASK) != 0
            if low << 1 > suit_alive:
                # The highest card of its suit still in play.
                score = 30 if ruffed else 100
            else:
                theirs = (right | left_hand) & mask
                if (partner & mask) > theirs and not ruffed:
                    score = 80
                elif partner_ruffs and not ruffed:
                    score = 70
                elif ruffed:
                    score = 10
                else:
                    score = 40 + (hands[leader] & mask).bit_count()
                score -= rank
            if card == tried:
                score = 1000
            scored.append(score << 6 | card)
        scored.sort(reverse=True)
        return [entry & 63 for entry in scored]

    def _order_follow(
        self, seat: int, count: int, cards: int, led: int, best: int, winner: int
    ) -> list[int]:
        # The cards in ``cards`` to play to a trick led in ``led``, the
        # likeliest good ones first: win cheaply when the other side is
        # winning, play low when partner is.
        hands = self.hands
        partners = (winner & 1) == (seat & 1)
        beating = beating_cards(cards, best, led)
        if cards & SUIT_MASKS[led]:
            if partners:
                if count == 2:
                    # Third hand: win cheaply when fourth hand can beat partner.
                    fourth = hands[(seat + 1) & 3]
                    if beating_cards(fourth, best, led) and beating:
                        suited = fourth & SUIT_MASKS[led]
                        over = beating & ~((2 << (suited.bit_length() - 1)) - 1) if suited else 0
                        return _cheapest_first(cards, over or beating)
                return _lowest_cards(cards)
            if not beating:
                return _lowest_cards(cards)
            if count == 2:
                # Third hand against the second: beat fourth hand too if possible.
                fourth = hands[(seat + 1) & 3] & SUIT_MASKS[led]
                if fourth:
                    over = beating & ~((2 << (fourth.bit_length() - 1)) - 1)
                    if over:
                        return _cheapest_first(cards, over)
            if count == 1:
                # Second hand: win with a card neither hand to come can beat.
                later = (hands[(seat + 1) & 3] | hands[(seat + 2) & 3]) & SUIT_MASKS[led]
                sure = beating & ~((2 << (later.bit_length() - 1)) - 1) if later else beating
                if sure:
                    return _cheapest_first(cards, sure)
                order = _lowest_cards(cards)
                top = beating.bit_length() - 1
                if top != order[0]:
                    order.remove(top)
                    order.insert(1, top)
                return order
            return _cheapest_first(cards, beating)
        # Void in the led suit: ruff or discard.
        discards: list[int] = []
        if not partners and beating:
            discards.append((beating & -beating).bit_length() - 1)
        for mask in (_CLUBS, _DIAMONDS, _HEARTS):
            suited = cards & mask
            if suited:
                discards.append((suited & -suited).bit_length() - 1)
        rest = cards
        for card in discards:
            rest &= ~(1 << card)
        discards.extend(_lowest_cards(rest))
        return discards


def _cashable(mine: int, others: int, right: int, left_hand: int) -> int:
    # The side-suit tricks the hand ``mine`` can cash on lead, one after the
    # other, against the other hands ``others`` (its opponents ``right`` and
    # ``left_hand`` among them): its cards above every other card of a suit,
    # as many as each opponent holding a spade can follow. ``count | cards << 4``.
    right_ruffs = (right & SPADE_MASK) != 0
    left_ruffs = (left_hand & SPADE_MASK) != 0
    quick = 0
    cards = 0
    for suit in range(SPADES):
        mask = SUIT_MASKS[suit]
        suited = mine & mask
        if not suited:
            continue
        against = others & mask
        tops = suited >> against.bit_length() << against.bit_length() if against else suited
        count = tops.bit_count()
        if count:
            if right_ruffs:
                length = (right & mask).bit_count()
                if length < count:
                    count = length
            if left_ruffs:
                length = (left_hand & mask).bit_count()
                if length < count:
                    count = length
            if count:
                quick += count
                cards |= tops
    return cards << 4 | quick


def _cards_at_depths(mask: int, alive: int) -> int:
    # The cards of ``alive`` a stored entry's ``mask`` reaches down to: for
    # each suit, the card as many places from the top as the mask covers.
    cards = 0
    for suit in range(4):
        depth = (mask >> (suit * _FIELD) & _FIELD_MASK).bit_count() >> 1
        if depth:
            ranks = _RANKS_DOWN[alive >> (suit * RANKS) & _SUIT_BITS]
            cards |= 1 << (suit * RANKS + ranks[depth - 1])
    return cards


def _cheapest_first(cards: int, winners: int) -> list[int]:
    # The cheapest card of ``winners``, then the others of ``cards`` lowest first.
    cheapest = winners & -winners
    order = [cheapest.bit_length() - 1]
    order.extend(_lowest_cards(cards & ~cheapest))
    return order


def _suit_key(deal: int) -> int:
    # A suit's four 13-bit holdings (North's lowest) as the seats holding its
    # cards, two bits each from the highest card down, the highest in the top
    # two bits of a 26-bit field; above it the four holdings' lengths, four
    # bits each.
    holdings = (
        deal & _SUIT_BITS,
        deal >> RANKS & _SUIT_BITS,
        deal >> 2 * RANKS & _SUIT_BITS,
        deal >> 3 * RANKS,
    )
    code = 0
    count = 0
    for rank in range(RANKS - 1, -1, -1):
        bit = 1 << rank
        for seat in range(4):
            if holdings[seat] & bit:
                code = code << 2 | seat
                count += 1
                break
    code <<= _FIELD - 2 * count
    lengths = 0
    for seat in range(4):
        lengths |= holdings[seat].bit_count() << (4 * seat)
    return lengths << _FIELD | code
