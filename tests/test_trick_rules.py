"""The trick rules on ints (:mod:`spades_core.tricks`) and the four parts of
the library that play by them: the checked engine, the fast play-out (through
the kernel's whole-hand :func:`~spades_core.tricks.play_tricks`), the hard
bot's simulation table and the views' shown-out inference.

Each hand is driven through the checked engine; the others follow the same
cards in lockstep and must agree with it on every legal set, every trick
winner and every "spades broken" flag, under both break rules and both
first-lead options, on seeded deals and on lopsided ones (whole suits to one
seat, where the only-spades lead exception happens).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from spades_core import BreakRule, CardSet, FirstLead, Phase, Seat
from spades_core.bots._search import Sim
from spades_core.bots.table import table_from_view
from spades_core.engine.playouts import playout
from spades_core.engine.views import View
from spades_core.rules.tricks import (
    FIRST_SPADE,
    NO_SUIT,
    NON_SPADE_MASK,
    NON_SPADE_SUITS,
    RANKS,
    SPADE_MASK,
    SPADES,
    TWO_OF_CLUBS,
    breaks_spades,
    first_leader,
    legal_card_mask,
    play_tricks,
    rule_flags,
    shown_out,
    trick_winner,
)

VARIANTS = ("classic", "mirror", "whiz")


def card(text: str) -> int:
    return sc.Card.parse(text).id


def mask(text: str) -> int:
    return CardSet.parse(text).mask


# -- the kernel on its own ------------------------------------------------------------


def test_constants_name_the_deck_layout() -> None:
    assert card("2S") == FIRST_SPADE
    assert RANKS == 13
    assert int(sc.Suit.SPADES) == SPADES
    assert card("2C") == TWO_OF_CLUBS
    assert sc.Suit.SPADES.mask == SPADE_MASK
    assert sc.CardSet.full_deck().mask == NON_SPADE_MASK | SPADE_MASK
    assert NON_SPADE_MASK & SPADE_MASK == 0
    assert NON_SPADE_SUITS == 0b0111


def test_following_suit_is_required_when_possible() -> None:
    hand = mask("2C 9C AH 3S")
    assert legal_card_mask(hand, sc.Suit.CLUBS, False, False) == mask("2C 9C")
    # Void in diamonds: anything, spades included, broken or not.
    assert legal_card_mask(hand, sc.Suit.DIAMONDS, False, False) == hand


def test_leading_spades_waits_for_them_to_be_broken_unless_only_spades_are_held() -> None:
    hand = mask("9C AH 3S KS")
    assert legal_card_mask(hand, NO_SUIT, False, False) == mask("9C AH")
    assert legal_card_mask(hand, NO_SUIT, True, False) == hand
    only_spades = mask("3S KS")
    assert legal_card_mask(only_spades, NO_SUIT, False, False) == only_spades


def test_the_first_lead_under_two_of_clubs_is_the_two_of_clubs() -> None:
    assert legal_card_mask(mask("2C 9C AH 3S"), NO_SUIT, False, True) == mask("2C")
    held = (mask("9C"), mask("3S"), mask("2C AH"), mask("KS"))
    assert first_leader(0, held, two_of_clubs=True) == 2
    assert first_leader(0, held, two_of_clubs=False) == 1
    assert first_leader(3, held, two_of_clubs=False) == 0


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        ("AC 2C KC QC", 0),
        ("2C AC KC QC", 1),
        ("2C AD AH 3C", 3),
        ("2C AD 2S 3C", 2),
        ("2C 3S 2S AC", 1),
        ("2S AC AD AH", 0),
        ("5S 4S AS KS", 2),
        ("KD AH 2S 3H", 2),
        ("2H AC AD 3H", 3),
        ("TC 3S AS 2S", 2),
    ],
)
def test_the_highest_spade_wins_else_the_highest_card_of_the_led_suit(
    cards: str, winner: int
) -> None:
    assert trick_winner([card(text) for text in cards.split()]) == winner


@pytest.mark.parametrize("any_spade", [False, True])
def test_what_breaks_spades(any_spade: bool) -> None:
    # A spade on a trick led in another suit breaks them under both rules.
    assert breaks_spades(card("2S"), sc.Suit.HEARTS, any_spade)
    # Any other spade only under any_spade: led, or following a spade lead.
    assert breaks_spades(card("2S"), NO_SUIT, any_spade) is any_spade
    assert breaks_spades(card("2S"), SPADES, any_spade) is any_spade
    assert not breaks_spades(card("AH"), sc.Suit.CLUBS, any_spade)
    assert not breaks_spades(card("AH"), NO_SUIT, any_spade)


def test_what_a_card_shows_about_its_players_hand() -> None:
    assert shown_out(card("AH"), sc.Suit.CLUBS, False) == 1 << sc.Suit.CLUBS
    assert shown_out(card("3S"), sc.Suit.DIAMONDS, True) == 1 << sc.Suit.DIAMONDS
    assert shown_out(card("2C"), sc.Suit.CLUBS, False) == 0
    # A spade led before they are broken: the leader held nothing else.
    assert shown_out(card("3S"), NO_SUIT, False) == NON_SPADE_SUITS
    assert shown_out(card("3S"), NO_SUIT, True) == 0
    assert shown_out(card("3H"), NO_SUIT, False) == 0


def test_rule_flags_read_the_two_options() -> None:
    for break_rule in BreakRule:
        for first_lead in FirstLead:
            rules = sc.new_game("classic", break_rule=break_rule, first_lead=first_lead).rules
            assert rule_flags(rules) == (
                break_rule is BreakRule.ANY_SPADE,
                first_lead is FirstLead.TWO_OF_CLUBS,
            )


# -- every consumer against the checked engine -------------------------------------


@st.composite
def hands_to_play(draw: st.DrawFn) -> tuple[sc.Game, int]:
    """A game waiting for its deal (every variant, break rule and first lead),
    dealt from its seed or lopsidedly, and a seed for the choices."""
    game = sc.new_game(
        draw(st.sampled_from(VARIANTS)),
        seed=draw(st.integers(0, 2**32)),
        break_rule=draw(st.sampled_from(list(BreakRule))),
        first_lead=draw(st.sampled_from(list(FirstLead))),
    )
    if draw(st.booleans()):
        # Runs of the deck in id order (shrinking towards whole suits per seat).
        order = draw(st.permutations(range(52)))
        hands = [CardSet(sum(1 << c for c in order[13 * s : 13 * s + 13])) for s in range(4)]
        game = game.deal({seat: hands[seat] for seat in Seat})
    else:
        game = game.deal()
    return game, draw(st.integers(0, 2**32))


def to_play(game: sc.Game, choose: random.Random) -> sc.Game:
    """``game`` with its bidding finished by random legal bids."""
    while game.phase is Phase.BID:
        game = game.apply(choose.choice(game.legal_actions()))
    return game


def in_play(case: tuple[sc.Game, int], steps: int) -> tuple[sc.Game, random.Random]:
    """The dealt game of ``case`` after random bids and up to ``steps`` random
    cards (fewer if the hand ends), and the generator that chose them, seeded
    by ``case``, to go on choosing."""
    dealt, seed = case
    choose = random.Random(seed)
    game = to_play(dealt, choose)
    for _ in range(steps):
        if game.phase is not Phase.PLAY:
            break
        game = game.apply(choose.choice(game.legal_actions()))
    return game, choose


def shown_out_masks(view: View) -> list[int]:
    return [sum(1 << suit for suit in suits) for suits in view.shown_out.values()]


@settings(deadline=None)  # a whole hand per example; the machine may be busy
@given(hands_to_play())
def test_engine_simulation_and_views_agree_card_by_card(case: tuple[sc.Game, int]) -> None:
    dealt, seed = case
    choose = random.Random(seed)
    game = to_play(dealt, choose)
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    sim = Sim(view, table_from_view(view), game._held)
    while game.phase is Phase.PLAY:
        legal = game.legal_cards().mask
        assert legal == sim.legal_card_mask()
        plays = [action for action in game.legal_actions() if isinstance(action, sc.Play)]
        assert sum(1 << play.card.id for play in plays) == legal
        assert len(plays) == len(game.legal_actions())
        assert sim.broken == game.spades_broken
        assert sim.to_act == game._to_act
        assert sim.leader == game._leader
        assert sim.won == list(game._won)
        view = game.view(game.to_act)  # type: ignore[arg-type]
        assert view.legal_actions() == game.legal_actions()
        assert shown_out_masks(view) == sim.voids
        chosen = choose.choice(plays)
        tricks_before = len(game.tricks)
        game = game.apply(chosen)
        sim.play(chosen.card.id)
        if game.phase is Phase.PLAY and len(game.tricks) > tricks_before:
            last = game.tricks[-1]
            ids = [c.id for c in last.cards]
            assert last.winner == (last.leader + trick_winner(ids)) % 4
            assert sim.leader == last.winner
    assert sim.tricks_done == 13
    (result,) = game.hand_results
    assert tuple(sim.won) == tuple(result.tricks.values())
    assert all(
        trick.winner == (trick.leader + trick_winner([c.id for c in trick.cards])) % 4
        for trick in result.played
    )


def lockstep_chooser(
    start: sc.Game, choose: random.Random
) -> tuple[Callable[[int], int], list[sc.Game]]:
    """A chooser for :func:`playout` that walks the checked engine alongside it:
    at each decision it asserts the play-out offers as many actions as the
    engine and takes the same random index."""
    games = [start]

    def pick(n: int) -> int:
        game = games[-1]
        legal = game.legal_actions()
        assert n == len(legal), f"play-out offers {n} actions, the engine {len(legal)}"
        index = choose.randrange(n)
        games.append(game.apply(legal[index]))
        return index

    return pick, games


@settings(deadline=None)
@given(hands_to_play(), st.integers(0, 52))
def test_playout_follows_the_engine_from_any_point_of_a_hand(
    case: tuple[sc.Game, int], steps: int
) -> None:
    game, _ = in_play(case, steps)
    pick, games = lockstep_chooser(game, random.Random(case[1] + 1))
    fast = playout(game, pick)
    checked = games[-1]
    assert fast == checked
    assert fast.hand_results[-1].played == checked.hand_results[-1].played
    assert fast.hand_results[-1].tricks == checked.hand_results[-1].tricks


def test_a_spade_led_from_an_all_spade_hand_breaks_spades_only_under_any_spade() -> None:
    # North holds all the spades and leads first (West deals): the exception.
    hands = {
        Seat.NORTH: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        Seat.EAST: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        Seat.SOUTH: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        Seat.WEST: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    }
    for break_rule in BreakRule:
        game = sc.new_game("classic", seed=1, dealer=Seat.WEST, break_rule=break_rule)
        game = game.deal({seat: CardSet.parse(hands[seat]) for seat in Seat})
        choose = random.Random(0)
        game = to_play(game, choose)
        view = game.view(Seat.NORTH)
        sim = Sim(view, table_from_view(view), game._held)
        game = game.play("AS")
        sim.play(card("AS"))
        assert game.spades_broken is (break_rule is BreakRule.ANY_SPADE)
        assert sim.broken is game.spades_broken
        assert shown_out_masks(game.public_view())[Seat.NORTH] == NON_SPADE_SUITS
        assert sim.voids[Seat.NORTH] == NON_SPADE_SUITS


def card_by_card(
    held: tuple[int, ...],
    leader: int,
    trick: tuple[int, ...],
    broken: bool,
    any_spade: bool,
    lead_two_of_clubs: bool,
    indices: list[int],
) -> tuple[list[int], list[int], list[int]]:
    """The rest of the hand played one card at a time with :func:`legal_card_mask`,
    :func:`breaks_spades` and :func:`trick_winner`, taking the given index
    among the legal cards at each card: the cards played, the tricks won by
    seat and the number of legal cards at each card."""
    hands = list(held)
    trick_cards = list(trick)
    seat = (leader + len(trick)) % 4
    plays: list[int] = []
    won = [0, 0, 0, 0]
    counts: list[int] = []
    for index in indices:
        led = trick_cards[0] // RANKS if trick_cards else NO_SUIT
        legal = legal_card_mask(hands[seat], led, broken, lead_two_of_clubs)
        counts.append(legal.bit_count())
        chosen = [c for c in range(52) if legal >> c & 1][index]
        hands[seat] ^= 1 << chosen
        if not broken:
            broken = breaks_spades(chosen, led, any_spade)
        lead_two_of_clubs = False
        trick_cards.append(chosen)
        plays.append(chosen)
        if len(trick_cards) == 4:
            leader = seat = (leader + trick_winner(trick_cards)) % 4
            won[seat] += 1
            trick_cards = []
        else:
            seat = (seat + 1) % 4
    return plays, won, counts


@settings(deadline=None)
@given(hands_to_play(), st.integers(0, 51))
def test_play_tricks_applies_the_rules_of_the_one_card_functions(
    case: tuple[sc.Game, int], steps: int
) -> None:
    game, choose = in_play(case, steps)
    assert game.phase is Phase.PLAY
    any_spade, two_of_clubs = rule_flags(game.rules)
    position = (
        game._held,
        game._leader,
        game._trick,
        game._broken,
        any_spade,
        two_of_clubs and not game._played and not game._trick,
    )
    counts: list[int] = []
    indices: list[int] = []

    def pick(n: int) -> int:
        counts.append(n)
        indices.append(choose.randrange(n))
        return indices[-1]

    plays: list[int] = []
    won = [0, 0, 0, 0]
    play_tricks(*position, pick, plays, won)
    assert len(plays) == 52 - steps
    assert card_by_card(*position, indices) == (plays, won, counts)


def test_play_tricks_finishes_a_trick_in_progress_and_extends_what_it_is_given() -> None:
    # East led the KH, South played the 2S: West, void in hearts, must beat
    # the 2S to take the trick; North follows with the AH and loses it.
    held = (mask("AH 4C"), mask("5C"), mask("6C"), mask("3S 7C"))
    plays = [card("KH"), card("2S")]
    won = [4, 3, 2, 1]
    play_tricks(held, 1, plays[:], True, False, False, lambda n: n - 1, plays, won)
    assert plays == [card(text) for text in ("KH", "2S", "3S", "AH", "7C", "4C", "5C", "6C")]
    assert won == [4, 3, 2, 3]
