"""Per-seat views: a view shows a seat what it may know and nothing else.

The central property: two games that differ only in cards a seat cannot see
give that seat equal views (equal, same hash, same repr, same ``to_dict``).
The second game is built by swapping unplayed cards between the hands of
seats other than the viewer in the original deal and replaying the same
actions. Swaps keep every action legal and every public inference the same:
cards are swapped within a suit (so suit lengths, follow-suit duties, shown-out
suits and Mirror/Whiz spade counts are unchanged), never the 2♣ under
``first_lead="two_of_clubs"`` (its holder leads) and never the A♠ under
``whiz_nil_needs_no_ace`` (its holder may not bid Nil).
"""

from __future__ import annotations

import gc
import json
import random
import types
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import spades_core as sc
from positions import NORTH_ALL_SPADES
from spades_core import Card, CardSet, Phase, Seat, Suit
from spades_core.engine.game import GameSetup

VARIANTS = ("classic", "mirror", "whiz")
OPTION_SETS: dict[str, tuple[dict[str, object], ...]] = {
    "classic": (
        {},
        {"first_lead": "two_of_clubs"},
        {"max_team_bid": None, "break_rule": "any_spade"},
    ),
    "mirror": ({}, {"first_lead": "two_of_clubs"}, {"break_rule": "offsuit_spade"}),
    "whiz": ({}, {"whiz_nil_needs_no_ace": True}, {"first_lead": "two_of_clubs"}),
}
VIEWERS: tuple[Seat | None, ...] = (*Seat, None)
TWO_OF_CLUBS = Card.parse("2C")
ACE_OF_SPADES = Card.parse("AS")
BIG_SEED = 2**63 + 987_654_321  # no other int in a view can equal it by chance


def random_step(game: sc.Game, rnd: random.Random) -> sc.Game:
    legal = game.legal_actions()
    return game.apply(legal[rnd.randrange(len(legal))])


def play_hand(game: sc.Game, rnd: random.Random) -> sc.Game:
    """``game`` after random play to the end of the current (or next) hand."""
    hand = game.hand_number
    while not game.is_over and game.hand_number == hand:
        game = random_step(game, rnd)
    return game


@attrs.frozen
class Scenario:
    """A game in the middle of an explicitly dealt hand, and how it got there."""

    before: sc.Game
    """The game before the hand was dealt."""
    deal: tuple[int, int, int, int]
    actions: tuple[sc.Action, ...]
    game: sc.Game


def make_scenario(
    variant: str, options_index: int, chooser: int, hands_before: int, steps: int
) -> Scenario:
    options = OPTION_SETS[variant][options_index]
    rnd = random.Random(chooser)
    game = sc.new_game(variant, seed=BIG_SEED, dealer=Seat(chooser % 4), **options)
    for _ in range(hands_before):
        game = play_hand(game, rnd)
        if game.is_over:
            break
    before = game
    if game.is_over:
        return Scenario(before, (0, 0, 0, 0), (), game)
    deck = list(range(52))
    rnd.shuffle(deck)
    masks = [0, 0, 0, 0]
    for position, card in enumerate(deck):
        masks[position % 4] |= 1 << card
    deal = (masks[0], masks[1], masks[2], masks[3])
    game = game.deal({seat: CardSet(deal[seat]) for seat in Seat})
    actions: list[sc.Action] = []
    for _ in range(steps):
        if game.phase not in (Phase.BID, Phase.PLAY):
            break
        legal = game.legal_actions()
        action = legal[rnd.randrange(len(legal))]
        actions.append(action)
        game = game.apply(action)
    return Scenario(before, deal, tuple(actions), game)


def swappable(scenario: Scenario, card: int) -> bool:
    rules = scenario.game.rules
    if card == TWO_OF_CLUBS.id and rules.first_lead is sc.FirstLead.TWO_OF_CLUBS:
        return False
    return not (card == ACE_OF_SPADES.id and dict(rules.extra).get("whiz_nil_needs_no_ace"))


def swap_hidden_cards(
    scenario: Scenario, viewer: Seat | None, rnd: random.Random, swaps: int
) -> tuple[int, int, int, int]:
    """The scenario's deal with ``swaps`` same-suit swaps of cards still held
    (so never played) between two seats other than ``viewer``."""
    held = [scenario.game.hand(seat).mask for seat in Seat]
    deal = list(scenario.deal)
    others = [seat for seat in Seat if seat != viewer]
    for _ in range(swaps):
        pairs = [
            (a, b, x, y)
            for i, x in enumerate(others)
            for y in others[i + 1 :]
            for a in CardSet(held[x])
            for b in CardSet(held[y])
            if a.suit is b.suit and swappable(scenario, a.id) and swappable(scenario, b.id)
        ]
        if not pairs:
            break
        a, b, x, y = rnd.choice(pairs)
        for masks in (held, deal):
            masks[x] ^= a.mask | b.mask
            masks[y] ^= a.mask | b.mask
    return (deal[0], deal[1], deal[2], deal[3])


def replay(scenario: Scenario, deal: tuple[int, int, int, int]) -> sc.Game:
    game = scenario.before.deal({seat: CardSet(deal[seat]) for seat in Seat})
    for action in scenario.actions:
        game = game.apply(action)  # raises if a swap made the same actions illegal
    return game


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    variant = draw(st.sampled_from(VARIANTS), label="variant")
    return make_scenario(
        variant,
        draw(st.integers(0, len(OPTION_SETS[variant]) - 1), label="options"),
        draw(st.integers(0, 2**32 - 1), label="chooser"),
        draw(st.integers(0, 1), label="hands before"),
        draw(st.integers(0, 4 + 52), label="actions into the hand"),
    )


# -- the view-equality property -------------------------------------------------------


@given(
    scenario=scenarios(),
    viewer=st.sampled_from(VIEWERS),
    swapper=st.integers(0, 2**32 - 1),
    swaps=st.integers(1, 6),
)
def test_games_differing_only_in_hidden_cards_give_equal_views(
    scenario: Scenario, viewer: Seat | None, swapper: int, swaps: int
) -> None:
    deal = swap_hidden_cards(scenario, viewer, random.Random(swapper), swaps)
    other = replay(scenario, deal) if not scenario.game.is_over else scenario.game
    if deal != scenario.deal:
        assert other != scenario.game  # the hidden hands really differ
        assert any(other.hand(seat) != scenario.game.hand(seat) for seat in Seat if seat != viewer)
    mine = scenario.game.view(viewer) if viewer is not None else scenario.game.public_view()
    theirs = other.view(viewer) if viewer is not None else other.public_view()
    assert theirs == mine
    assert hash(theirs) == hash(mine)
    assert repr(theirs) == repr(mine)
    assert theirs.to_dict() == mine.to_dict()
    assert json.dumps(theirs.to_dict()) == json.dumps(mine.to_dict())


@given(scenario=scenarios(), viewer=st.sampled_from(tuple(Seat)))
def test_changing_a_card_the_seat_holds_changes_its_view(scenario: Scenario, viewer: Seat) -> None:
    """Control for the property above: views are not blind to the seat's own cards."""
    game = scenario.game
    if game.phase not in (Phase.BID, Phase.PLAY):
        return
    mine = game.hand(viewer)
    trade = [
        (a, b, seat)
        for seat in Seat
        if seat != viewer
        for a in mine
        for b in game.hand(seat)
        if a.suit is b.suit and swappable(scenario, a.id) and swappable(scenario, b.id)
    ]
    if not trade:
        return
    a, b, seat = trade[0]
    deal = list(scenario.deal)
    deal[viewer] ^= a.mask | b.mask
    deal[seat] ^= a.mask | b.mask
    other = replay(scenario, (deal[0], deal[1], deal[2], deal[3]))
    assert other.view(viewer) != game.view(viewer)
    assert other.view(viewer).to_dict()["hand"] != game.view(viewer).to_dict()["hand"]
    assert other.public_view() == game.public_view()


# -- what a view holds --------------------------------------------------------------

_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def reachable(root: object) -> Iterator[object]:
    """Every object reachable from ``root`` through references, not entering
    classes, modules or functions (shared code, not the view's data)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        if not isinstance(obj, _OPAQUE):
            stack.extend(gc.get_referents(obj))


@given(scenario=scenarios(), viewer=st.sampled_from(VIEWERS))
def test_view_holds_no_game_no_seed_and_no_hidden_hand(
    scenario: Scenario, viewer: Seat | None
) -> None:
    game = scenario.game
    view = game.view(viewer) if viewer is not None else game.public_view()
    # Small masks coincide with legitimate small ints (card ids, scores, counts),
    # so only masks no such number can equal are looked for as raw ints.
    hidden = {
        game.hand(seat).mask for seat in Seat if seat != viewer and game.hand(seat).mask >= 1 << 20
    }
    hidden_sets = {
        game.hand(seat).mask for seat in Seat if seat != viewer and len(game.hand(seat)) >= 2
    }
    found = list(reachable(view))
    assert len(found) > 20  # the walk did get into the view
    for obj in found:
        assert not isinstance(obj, sc.Game | GameSetup)
        if type(obj) is int:
            assert obj != BIG_SEED
            assert obj not in hidden
        if isinstance(obj, CardSet):
            assert obj.mask not in hidden_sets


@given(scenario=scenarios(), viewer=st.sampled_from(VIEWERS))
def test_view_shows_no_card_of_another_hand_until_played(
    scenario: Scenario, viewer: Seat | None
) -> None:
    game = scenario.game
    view = game.view(viewer) if viewer is not None else game.public_view()
    own = (
        game.hand(viewer)
        if viewer is not None and game.phase in (Phase.BID, Phase.PLAY)
        else CardSet(0)
    )
    assert view.hand() == own
    played = view.played
    data = view.to_dict()
    shown = set(data["hand"])
    shown |= {card for trick in data["tricks"] for card in trick["cards"]}
    shown |= {card for _, card in data["current_trick"]}
    shown |= {
        action for action in data["legal_actions"] if isinstance(action, str) and action != "deal"
    }
    assert shown <= {str(card) for card in own | played}
    if game.phase in (Phase.BID, Phase.PLAY):
        assert view.unseen == CardSet.full_deck() - played - own
        assert view.cards_left == sc.SeatMap(tuple(len(game.hand(seat)) for seat in Seat))


@given(scenario=scenarios(), viewer=st.sampled_from(VIEWERS))
def test_legal_actions_only_on_the_viewers_turn(scenario: Scenario, viewer: Seat | None) -> None:
    game = scenario.game
    view = game.view(viewer) if viewer is not None else game.public_view()
    if viewer is not None and viewer == game.to_act:
        assert view.is_my_turn
        assert view.legal_actions() == game.legal_actions()
    else:
        assert not view.is_my_turn
        assert view.legal_actions() == ()


def test_spectator_view_has_no_hand_and_no_actions() -> None:
    game = sc.new_game("mirror", seed=4).deal()
    view = game.public_view()
    assert view.seat is None
    assert view.team is None
    assert view.hand() == CardSet(0)
    assert view.dealt_hand() == CardSet(0)
    assert view.legal_actions() == ()
    assert view.to_dict()["hand"] == []
    assert view.to_dict()["seat"] is None
    assert "spectator" in repr(view)


def test_view_in_deal_phase_shows_only_public_totals() -> None:
    rnd = random.Random(5)
    game = play_hand(sc.new_game("classic", seed=5), rnd)
    assert game.phase is Phase.DEAL
    view = game.view(Seat.NORTH)
    assert view.hand() == CardSet(0)
    assert view.unseen == CardSet(0)
    assert view.hand_results == game.hand_results
    assert view.scores == game.scores


# -- public inferences ----------------------------------------------------------------


@given(scenario=scenarios())
def test_shown_out_suits_are_true_and_every_revoke_is_recorded(scenario: Scenario) -> None:
    game = scenario.game
    view = game.public_view()
    for seat in Seat:
        for suit in view.shown_out[seat]:
            assert game.hand(seat).count(suit) == 0, (seat, suit)
    tricks = [trick.plays for trick in game.tricks]
    if game.current_trick:
        tricks.append(game.current_trick)
    for plays in tricks:
        led = plays[0][1].suit
        for seat, card in plays[1:]:
            if card.suit is not led:
                assert led in view.shown_out[seat]


def expected_shown_out(game: sc.Game) -> dict[Seat, set[Suit]]:
    """The suits each seat has shown out of, worked out trick by trick from the
    public record: every revoke, and an unforced spade lead while spades were
    unbroken (the leader held nothing else)."""
    shown: dict[Seat, set[Suit]] = {seat: set() for seat in Seat}
    rules = game.rules
    broken = False
    tricks = [trick.plays for trick in game.tricks]
    if game.current_trick:
        tricks.append(game.current_trick)
    for number, plays in enumerate(tricks):
        led = plays[0][1].suit
        forced = number == 0 and rules.first_lead is sc.FirstLead.TWO_OF_CLUBS
        if led is Suit.SPADES and not broken and not forced:
            shown[plays[0][0]] |= {Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS}
        for position, (seat, card) in enumerate(plays):
            if card.suit is not led:
                shown[seat].add(led)
            if card.suit is Suit.SPADES and (
                rules.break_rule is sc.BreakRule.ANY_SPADE
                or (position > 0 and led is not Suit.SPADES)
            ):
                broken = True
    return shown


@given(scenario=scenarios())
def test_shown_out_is_exactly_what_the_public_record_proves(scenario: Scenario) -> None:
    game = scenario.game
    shown = game.public_view().shown_out
    if game.phase not in (Phase.BID, Phase.PLAY):
        assert all(not suits for suits in shown.values())
        return
    assert {seat: set(suits) for seat, suits in shown.items()} == expected_shown_out(game)


def test_unbroken_spade_lead_shows_the_leader_holds_only_spades() -> None:
    # P2: spades unbroken and the leader holds only spades -> a spade must be led.
    game = sc.new_game("classic", seed=1, dealer=Seat.WEST).deal(NORTH_ALL_SPADES)
    while game.phase is Phase.BID:
        game = game.bid(game.legal_bids()[0] if game.to_act is not Seat.NORTH else 13)
    game = game.play("2S")
    shown = game.view(Seat.EAST).shown_out
    assert shown[Seat.NORTH] == frozenset({Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS})


@given(scenario=scenarios())
def test_spade_counts_are_what_the_bids_reveal(scenario: Scenario) -> None:
    game = scenario.game
    counts = game.public_view().spade_counts
    if game.phase not in (Phase.BID, Phase.PLAY):
        assert set(counts.values()) == {None}
        return
    for seat in Seat:
        bid = game.bids.get(seat)
        dealt = game.dealt_hand(seat).count(Suit.SPADES)
        # Mirror: every bid is the spade count; Whiz: every bid but Nil.
        revealed = bid is not None and (
            game.variant.id == "mirror" or (game.variant.id == "whiz" and bid != 0)
        )
        if revealed:
            assert counts[seat] == dealt == bid
        else:
            assert counts[seat] is None
        left = game.public_view().spades_left(seat)
        if counts[seat] is not None:
            assert left == game.hand(seat).count(Suit.SPADES)
        else:
            assert left is None


def test_B3_mirror_bids_reveal_every_spade_count() -> None:
    game = sc.new_game("mirror", seed=1, dealer=Seat.WEST).deal(NORTH_ALL_SPADES)
    while game.phase is Phase.BID:
        game = game.bid(game.legal_bids()[0])
    counts = game.view(Seat.SOUTH).spade_counts
    assert counts == sc.SeatMap((13, 0, 0, 0))


def test_whiz_nil_reveals_nothing_and_a_number_reveals_the_count() -> None:
    for seed in range(200):
        game = sc.new_game("whiz", seed=seed).deal()
        assert game.to_act is not None
        if game.legal_bids() == (0, game.hand(game.to_act).count(Suit.SPADES)):
            break
    first = game.to_act
    assert first is not None
    nil = game.bid(0).view(first.partner).spade_counts
    assert nil[first] is None
    count = game.legal_bids()[1]
    shown = game.bid(count).view(first.partner).spade_counts
    assert shown[first] == count


def test_classic_bids_reveal_no_spade_count() -> None:
    game = sc.new_game("classic", seed=3).deal().bid(4).bid(4).bid(4).bid(1)
    assert set(game.view(Seat.NORTH).spade_counts.values()) == {None}


def test_views_are_immutable() -> None:
    view = sc.new_game("classic", seed=3).deal().view(Seat.NORTH)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        view.seat = Seat.SOUTH  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        view._hand = CardSet(0)  # type: ignore[misc]
