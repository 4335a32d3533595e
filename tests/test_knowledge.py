"""What a seat knows, exactly (``spades_core.rules.knowledge``): a card is
called possible for a seat exactly when some deal consistent with the public
record gives it to that seat. The owner reasons by suit counts and a cut
condition; the tests hold it to deals found card by card
(tests/deal_matching.py: a matching of cards to hands, and on small positions
every deal listed), over random positions of real games in every variant and
over made-up positions whose constraints are tight."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from coach_claims import NEAR_COUNT
from deal_matching import Facts, all_deals, deal_is_consistent, facts_of, find_deal
from spades_core import InconsistentViewError, Phase, Seat
from spades_core.engine.sampling import HiddenCards, knowledge_of
from spades_core.rules.knowledge import (
    NO_VIEWER,
    UNKNOWN,
    Knowledge,
    deal_fits,
    revealed_spades_left,
    seat_knowledge,
)
from spades_core.testing.strategies import games, play_randomly

SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * suit) for suit in range(4))


def mask(cards: Sequence[int] | frozenset[int]) -> int:
    out = 0
    for card in cards:
        out |= 1 << card
    return out


# -- the cut condition, against every way of sharing small suits out -------------------


def shares(counts: Sequence[int], need: Sequence[int], room: Sequence[int]) -> bool:
    """Whether some table ``x[seat][suit]`` fills each need from the counts within the room."""
    if any(n < 0 for n in need) or any(c < 0 for c in counts):
        return False

    def fill(suit: int, left: list[int]) -> bool:
        if suit == 4:
            return not any(left)
        ranges = [range(min(room[4 * s + suit], left[s]) + 1) for s in range(4)]
        for split in itertools.product(*ranges):
            if sum(split) == counts[suit] and fill(
                suit + 1, [left[s] - split[s] for s in range(4)]
            ):
                return True
        return False

    return fill(0, list(need))


@given(
    counts=st.lists(st.integers(0, 3), min_size=4, max_size=4),
    need=st.lists(st.integers(0, 4), min_size=4, max_size=4),
    room=st.lists(st.sampled_from([0, 0, 1, 2, 13]), min_size=16, max_size=16),
)
def test_the_cut_condition_decides_every_small_sharing(
    counts: list[int], need: list[int], room: list[int]
) -> None:
    assert deal_fits(counts, need, room) == shares(counts, need, room)


def test_the_cut_condition_refuses_negative_numbers_and_unequal_totals() -> None:
    anything = [13] * 16
    assert deal_fits([1, 1, 0, 0], [1, 1, 0, 0], anything)
    assert not deal_fits([1, 1, 0, 0], [2, 1, 0, 0], anything)
    assert not deal_fits([2, 0, 0, 0], [3, -1, 0, 0], anything)
    assert not deal_fits([3, -1, 0, 0], [2, 0, 0, 0], anything)


# -- made-up positions: a real deal, and part of what it shows ------------------------


@st.composite
def made_up_facts(draw: st.DrawFn, most: int) -> tuple[int, int, Facts, dict[int, int]]:
    """``(viewer, viewer's hand, facts, the real deal)``: up to ``most``
    unseen cards really dealt to the hidden seats; the facts keep some of the
    suits each hidden seat really lacks as shown out, some seats' real spade
    counts as revealed, and now and then a card a seat is known to hold."""
    viewer = draw(st.sampled_from([NO_VIEWER, 0, 1, 2, 3]), label="viewer")
    hidden = [seat for seat in range(4) if seat != viewer]
    sizes = {seat: draw(st.integers(0, 13), label=f"size {seat}") for seat in hidden}
    while sum(sizes.values()) > most:
        biggest = max(sizes, key=lambda seat: sizes[seat])
        sizes[biggest] -= 1
    # Few suits among the cards make voids, and so tight counts, common.
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True), label="suits")
    deck = [card for card in range(52) if card // 13 in suits]
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="deal seed"))
    rng.shuffle(deck)
    total = sum(sizes.values())
    if total > len(deck):
        extra = [card for card in range(52) if card not in deck]
        rng.shuffle(extra)
        deck += extra[: total - len(deck)]
    deal: dict[int, int] = {}
    position = 0
    for seat in hidden:
        for card in deck[position : position + sizes[seat]]:
            deal[card] = seat
        position += sizes[seat]
    hand_cards = [card for card in range(52) if card not in deal]
    hand = 0 if viewer == NO_VIEWER else mask(rng.sample(hand_cards, min(13, len(hand_cards))))
    shown_out: dict[int, frozenset[int]] = {}
    spades: dict[int, int] = {}
    held: dict[int, frozenset[int]] = {}
    for seat in hidden:
        mine = [card for card, who in deal.items() if who == seat]
        lacks = [s for s in range(4) if not any(card // 13 == s for card in mine)]
        shown_out[seat] = frozenset(s for s in lacks if draw(st.booleans()))
        if draw(st.booleans()):
            spades[seat] = sum(card // 13 == 3 for card in mine)
        known = [card for card in mine if draw(st.integers(0, 9)) == 0]
        held[seat] = frozenset(known)
    facts = Facts(
        unseen=tuple(sorted(deal)),
        sizes=sizes,
        shown_out=shown_out,
        spades=spades,
        held=held,
    )
    return viewer, hand, facts, deal


def owner_of(viewer: int, hand: int, facts: Facts) -> Knowledge:
    cards_left = [0, 0, 0, 0]
    shown_out = [0, 0, 0, 0]
    spades_left = [UNKNOWN] * 4
    holds = [0, 0, 0, 0]
    for seat, size in facts.sizes.items():
        cards_left[seat] = size
        shown_out[seat] = sum(1 << s for s in facts.shown_out[seat])
        spades_left[seat] = facts.spades.get(seat, UNKNOWN)
        holds[seat] = mask(facts.held[seat])
    if viewer != NO_VIEWER:
        cards_left[viewer] = hand.bit_count()
    return seat_knowledge(
        viewer, hand, mask(facts.unseen), cards_left, shown_out, spades_left, holds
    )


def assert_agrees_with_deals(
    known: Knowledge, viewer: int, hand: int, facts: Facts, deals: list[dict[int, int]]
) -> None:
    """Every answer of ``known`` against the list of every consistent deal."""
    assert deals, "the real deal is consistent"
    for seat in range(4):
        if seat == viewer:
            assert known.may_hold[seat] == known.must_hold[seat] == hand
            continue
        hands = [mask([card for card, who in deal.items() if who == seat]) for deal in deals]
        may = 0
        must = hands[0]
        for held in hands:
            may |= held
            must &= held
        assert known.may_hold[seat] == may, seat
        assert known.must_hold[seat] == must, seat
        assert known.void[seat] == sum(1 << s for s in range(4) if not may & SUIT_MASKS[s])
        for suit in range(4):
            numbers = {(held & SUIT_MASKS[suit]).bit_count() for held in hands}
            assert known.count_range(seat, suit) == (min(numbers), max(numbers)), (seat, suit)
        spades = {(held & SUIT_MASKS[3]).bit_count() for held in hands}
        assert known.spades_left[seat] == (spades.pop() if len(spades) == 1 else UNKNOWN)


@settings(max_examples=100)
@given(made_up_facts(most=8), st.data())
def test_every_answer_agrees_with_the_list_of_every_consistent_deal(
    made: tuple[int, int, Facts, dict[int, int]], data: st.DataObject
) -> None:
    viewer, hand, facts, deal = made
    assert deal_is_consistent(facts, deal)
    known = owner_of(viewer, hand, facts)
    deals = list(all_deals(facts))
    assert_agrees_with_deals(known, viewer, hand, facts, deals)
    for _ in range(6):
        seat = data.draw(st.sampled_from(sorted(facts.sizes)), label="seat")
        cards = data.draw(st.integers(0, (1 << 52) - 1), label="cards") & mask(facts.unseen)
        lacking = data.draw(st.integers(0, 15), label="lacking")
        expected = any(
            any(deal[c] == seat for c in facts.unseen if cards >> c & 1)
            and not any(deal[c] == seat and c // 13 in _suits(lacking) for c in facts.unseen)
            for deal in deals
        )
        assert known.could_hold(seat, cards, lacking) == expected


def _suits(suits: int) -> set[int]:
    return {s for s in range(4) if suits >> s & 1}


@settings(max_examples=80)
@given(made_up_facts(most=8))
def test_the_matching_finds_a_deal_exactly_when_the_list_has_one(
    made: tuple[int, int, Facts, dict[int, int]],
) -> None:
    """The card-by-card matching the coach's checks use is itself held to the list."""
    _, _, facts, _ = made
    deals = list(all_deals(facts))
    for seat in facts.sizes:
        for card in facts.unseen:
            found = find_deal(facts, ((seat, card),))
            assert (found is not None) == any(deal[card] == seat for deal in deals)
            if found is not None:
                assert found[card] == seat
                assert deal_is_consistent(facts, found)


@settings(max_examples=80)
@given(made_up_facts(most=39))
def test_may_hold_agrees_with_the_matching_on_positions_of_any_size(
    made: tuple[int, int, Facts, dict[int, int]],
) -> None:
    viewer, hand, facts, _ = made
    known = owner_of(viewer, hand, facts)
    assert_agrees_with_matching(known, facts)


def assert_agrees_with_matching(known: Knowledge, facts: Facts) -> None:
    """``may_hold`` card by card, and the known spade counts, against the matching."""
    for seat in facts.sizes:
        for card in facts.unseen:
            possible = find_deal(facts, ((seat, card),)) is not None
            assert bool(known.may_hold[seat] >> card & 1) == possible, (seat, card)
        numbers = [
            count
            for count in range(facts.sizes[seat] + 1)
            if find_deal(facts, exact={(seat, 3): count}) is not None
        ]
        assert numbers == list(range(numbers[0], numbers[-1] + 1))
        low, high = known.count_range(seat, 3)
        assert (low, high) == (numbers[0], numbers[-1])
        assert known.spades_left[seat] == (low if low == high else UNKNOWN)


# -- real games, every variant: the view's facts, read apart from the owner --------------


VARIANTS: tuple[str | sc.Variant, ...] = ("classic", "mirror", "whiz", NEAR_COUNT)


@settings(max_examples=60)
@given(
    game=st.sampled_from(VARIANTS).flatmap(lambda variant: games(variant, phase=Phase.PLAY)),
    seat=st.sampled_from([None, *Seat]),
    data=st.data(),
)
def test_what_a_view_knows_agrees_with_the_matching_in_every_variant(
    game: sc.Game, seat: Seat | None, data: st.DataObject
) -> None:
    view = game.public_view() if seat is None else game.view(seat)
    known = knowledge_of(view)
    facts = facts_of(view)
    assert_agrees_with_matching(known, facts)
    # The real hands are among the consistent deals.
    for other in Seat:
        held = game.hand(other).mask
        assert held & ~known.may_hold[other] == 0
        assert known.must_hold[other] & ~held == 0
    # Trumping: a hand holding a spade that beats and none of the suit led.
    for _ in range(4):
        who = data.draw(st.sampled_from(sorted(facts.sizes)), label="seat asked")
        led = data.draw(st.integers(0, 2), label="suit led")
        above = data.draw(st.integers(0, 12), label="lowest spade")
        spades = mask([39 + rank for rank in range(above, 13)]) & view.unseen.mask
        expected = any(
            find_deal(facts, ((who, card),), lacking={who: frozenset({led})}) is not None
            for card in range(52)
            if spades >> card & 1
        )
        assert known.could_hold(who, spades, 1 << led) == expected


@pytest.mark.parametrize(
    ("variant", "options"),
    [("mirror", {}), ("whiz", {}), ("classic", {"first_lead": "two_of_clubs"})],
)
def test_the_samples_hold_only_cards_their_seats_may_hold(
    variant: str, options: dict[str, str]
) -> None:
    """The sampler draws its deals from the same facts: over random positions,
    each sampled hand holds only cards its seat may hold and every card it must."""
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        game = sc.new_game(variant, seed=seed, **options)
        game = play_randomly(game, rng, steps=rng.randrange(5, 50))
        if game.phase is not Phase.PLAY:
            continue
        for seat in Seat:
            hidden = HiddenCards(game.view(seat))
            known = hidden.knowledge
            assert known is hidden.knowledge
            for _ in range(5):
                held = hidden.sample(rng)
                for other in Seat:
                    assert held[other] & ~known.may_hold[other] == 0
                    assert known.must_hold[other] & ~held[other] == 0
            checked += 1
    assert checked >= 100


def test_the_first_leader_under_two_of_clubs_must_hold_the_two() -> None:
    game = sc.new_game("classic", seed=8, first_lead="two_of_clubs").deal()
    while game.phase is Phase.BID:
        game = game.bid(game.legal_bids()[-1])
    leader = game.to_act
    assert leader is not None
    two = sc.Card.parse("2C")
    for seat in Seat:
        if seat is leader:
            continue
        hidden = HiddenCards(game.view(seat))
        assert hidden.knowledge.must_hold[leader] & two.mask
        assert all(hidden.sample(random.Random(n))[leader] & two.mask for n in range(5))
        for other in Seat:
            if other not in (seat, leader):
                assert not hidden.knowledge.may_hold[other] & two.mask


# -- the spades left, and refusals ----------------------------------------------------------


def test_the_spades_left_are_the_revealed_count_less_the_spades_played() -> None:
    played = (mask([51, 0]), mask([50, 49]), 0, mask([39]))
    assert revealed_spades_left((3, 2, UNKNOWN, 1), played) == (2, 0, UNKNOWN, 0)


def test_counting_finds_the_cards_a_void_leaves_to_the_others() -> None:
    # East (2 cards) has shown out of clubs and hearts; the unseen are two
    # clubs, a heart and two diamonds; South and West hold one and two cards.
    unseen = mask([0, 1, 26, 13, 14])
    known = seat_knowledge(0, mask([51]), unseen, (1, 2, 1, 2), (0, 0b0101, 0, 0), (UNKNOWN,) * 4)
    assert known.must_hold[1] == mask([13, 14])
    assert known.may_hold[2] == known.may_hold[3] == mask([0, 1, 26])
    assert known.void[1] == 0b1101
    assert known.spades_left == (1, 0, 0, 0)
    assert known.count_range(3, 0) == (1, 2)


def test_inconsistent_facts_are_refused() -> None:
    nothing = (UNKNOWN,) * 4
    with pytest.raises(InconsistentViewError, match="unseen"):
        seat_knowledge(NO_VIEWER, 0, mask([0, 1]), (1, 0, 0, 0), (0,) * 4, nothing)
    with pytest.raises(InconsistentViewError, match="contradict"):
        seat_knowledge(NO_VIEWER, 0, mask([0, 1]), (2, 0, 0, 0), (1, 0, 0, 0), nothing)
    with pytest.raises(InconsistentViewError, match="showed out of spades"):
        seat_knowledge(NO_VIEWER, 0, mask([39]), (1, 0, 0, 0), (8, 0, 0, 0), (1, -1, -1, -1))
    with pytest.raises(InconsistentViewError, match="viewer holds"):
        seat_knowledge(0, mask([5]), mask([39]), (2, 1, 0, 0), (0,) * 4, nothing)


def test_an_inconsistent_view_is_refused_by_the_owner_and_the_sampler_alike() -> None:
    game = sc.new_game("classic", seed=3).deal()
    for bid in (3, 3, 3, 3):
        game = game.bid(bid)
    view = game.view(Seat.NORTH)
    # East shown out of every suit, yet holding 13 cards.
    wrong = attrs.evolve(
        view,
        shown_out=sc.SeatMap(
            tuple(frozenset(sc.Suit) if s is Seat.EAST else frozenset() for s in Seat)
        ),
    )
    with pytest.raises(InconsistentViewError):
        knowledge_of(wrong)
    with pytest.raises(InconsistentViewError):
        HiddenCards(wrong)


def test_knowledge_of_refuses_what_is_not_a_view() -> None:
    with pytest.raises(sc.ArgumentTypeError, match="knowledge_of"):
        knowledge_of("North")  # type: ignore[arg-type]
