"""Cards, suits, ranks, card sets, seats and teams (the value types)."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from spades_core import (
    Card,
    CardSet,
    InvalidNotationError,
    Rank,
    Seat,
    SeatMap,
    SpadesError,
    Suit,
    Team,
    TeamMap,
)
from spades_core.values.cards import ALL_CARDS, FULL_DECK_MASK, SUIT_MASKS

# -- Card -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected_id"),
    [
        ("AS", 51),
        ("as", 51),
        ("aS", 51),
        ("A♠", 51),
        ("a♠", 51),
        ("A♤", 51),
        ("2C", 0),
        ("2c", 0),
        ("2♣", 0),
        ("TD", 21),
        ("td", 21),
        ("10D", 21),
        ("10d", 21),
        ("10♦", 21),
        ("QH", 36),
        ("Q♥", 36),
        ("q♡", 36),
        ("KS", 50),
        (" 9c ", 7),
    ],
)
def test_card_parse_accepts_every_documented_notation(text: str, expected_id: int) -> None:
    assert Card.parse(text).id == expected_id


@pytest.mark.parametrize(
    "bad",
    ["", " ", "A", "S", "1S", "11D", "AX", "AAS", "ASS", "ZS", "0C", "10", "A S", "♠A", "SA"],
)
def test_card_parse_rejects_bad_strings_with_invalid_notation_error(bad: str) -> None:
    with pytest.raises(InvalidNotationError, match="not a card") as caught:
        Card.parse(bad)
    assert isinstance(caught.value, SpadesError)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("bad", [None, 5, 51, 1.0, b"AS", ["AS"]])
def test_card_parse_rejects_non_strings(bad: object) -> None:
    with pytest.raises(InvalidNotationError):
        Card.parse(bad)  # type: ignore[arg-type]


def test_card_parse_returns_a_card_unchanged() -> None:
    card = Card.parse("7H")
    assert Card.parse(card) is card  # type: ignore[arg-type]


def test_card_str_is_rank_letter_then_suit_letter_for_all_52() -> None:
    names = [str(card) for card in ALL_CARDS]
    assert names[:13] == [r + "C" for r in "23456789TJQKA"]
    assert names[13] == "2D"
    assert names[-1] == "AS"
    assert len(set(names)) == 52
    for card in ALL_CARDS:
        assert Card.parse(str(card)) is card
        assert Card.parse(card.symbol) is card


def test_card_ids_are_suit_times_13_plus_rank() -> None:
    for suit in Suit:
        for rank in Rank:
            card = Card.of(rank, suit)
            assert card.id == suit * 13 + rank
            assert (card.suit, card.rank) == (suit, rank)
            assert card.mask == 1 << card.id
            assert Card.from_id(card.id) is card


def test_card_symbol_and_repr() -> None:
    assert Card.parse("AS").symbol == "A♠"
    assert Card.parse("10h").symbol == "10♥"
    assert repr(Card.parse("10h")) == "Card('TH')"


@pytest.mark.parametrize("bad", [-1, 52, 100, True, 3.0, "3"])
def test_card_from_id_rejects_out_of_range_or_non_int(bad: object) -> None:
    with pytest.raises(InvalidNotationError, match="card id"):
        Card.from_id(bad)  # type: ignore[arg-type]


def test_cards_order_by_id_and_are_hashable_values() -> None:
    assert Card.parse("2C") < Card.parse("AC") < Card.parse("2D") < Card.parse("2S")
    assert sorted([Card.parse("AS"), Card.parse("2C"), Card.parse("KH")]) == [
        Card.parse("2C"),
        Card.parse("KH"),
        Card.parse("AS"),
    ]
    assert Card(5) == Card.from_id(5)
    assert len({Card.parse("AS"), Card.parse("as"), Card.parse("A♠")}) == 1


def test_card_is_immutable() -> None:
    card = Card.parse("AS")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        card.id = 3  # type: ignore[misc]


# -- Suit and Rank ------------------------------------------------------------------


def test_suits_in_id_order_with_letters_symbols_and_masks() -> None:
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    for suit in Suit:
        assert suit.mask == SUIT_MASKS[suit] == ((1 << 13) - 1) << (13 * suit)
    assert SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3] == FULL_DECK_MASK


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("S", Suit.SPADES),
        ("s", Suit.SPADES),
        ("♠", Suit.SPADES),
        ("♧", Suit.CLUBS),
        ("d", Suit.DIAMONDS),
    ],
)
def test_suit_parse(text: str, suit: Suit) -> None:
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("bad", ["", "X", "SP", "spades", None, 3])
def test_suit_parse_rejects_bad_input(bad: object) -> None:
    with pytest.raises(InvalidNotationError, match="not a suit"):
        Suit.parse(bad)  # type: ignore[arg-type]


def test_ranks_deuce_low_to_ace_high() -> None:
    assert "".join(r.letter for r in Rank) == "23456789TJQKA"
    assert int(Rank.TWO) == 0
    assert int(Rank.ACE) == 12
    assert Rank.parse("10") is Rank.TEN
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("a") is Rank.ACE


@pytest.mark.parametrize("bad", ["", "1", "11", "X", "AA", None])
def test_rank_parse_rejects_bad_input(bad: object) -> None:
    with pytest.raises(InvalidNotationError, match="not a rank"):
        Rank.parse(bad)  # type: ignore[arg-type]


# -- CardSet ------------------------------------------------------------------------


def test_cardset_parse_len_contains_and_str() -> None:
    hand = CardSet.parse("AS, ks 10D 2c")
    assert len(hand) == 4
    assert Card.parse("KS") in hand
    assert "TD" in hand
    assert "td" in hand
    assert "QH" not in hand
    assert "not a card" not in hand
    assert 51 not in hand
    assert str(hand) == "2C TD KS AS"
    assert bool(hand)
    assert not CardSet(0)
    assert len(CardSet(0)) == 0


def test_cardset_iterates_clubs_to_spades_low_to_high() -> None:
    hand = CardSet.parse("AS 2S AH 3D 2D KC 2C")
    assert [str(c) for c in hand] == ["2C", "KC", "2D", "3D", "AH", "2S", "AS"]
    assert list(CardSet.full_deck()) == list(ALL_CARDS)


def test_cardset_set_operations() -> None:
    a = CardSet.parse("AS KS QH")
    b = CardSet.parse("KS QH 2C")
    assert a | b == CardSet.parse("AS KS QH 2C")
    assert a & b == CardSet.parse("KS QH")
    assert a - b == CardSet.parse("AS")
    assert b - a == CardSet.parse("2C")
    # Operands are untouched: the sets are values.
    assert a == CardSet.parse("AS KS QH")
    assert b == CardSet.parse("KS QH 2C")


def test_cardset_per_suit_access_count_highest_lowest() -> None:
    hand = CardSet.parse("AS 3S QH 2D 5D 9D")
    assert hand.suit(Suit.SPADES) == CardSet.parse("3S AS")
    assert hand.suit(Suit.CLUBS) == CardSet(0)
    assert [hand.count(s) for s in Suit] == [0, 3, 1, 2]
    assert hand.highest() == Card.parse("AS")
    assert hand.lowest() == Card.parse("2D")
    assert hand.suit(Suit.DIAMONDS).highest() == Card.parse("9D")
    assert CardSet(0).highest() is None
    assert CardSet(0).lowest() is None


def test_cardset_of_accepts_cards_and_strings_and_dedups() -> None:
    hand = CardSet.of([Card.parse("AS"), "KS", "as"])
    assert hand == CardSet.parse("AS KS")
    assert len(hand) == 2


def test_cardset_full_deck_and_repr_round_trip() -> None:
    deck = CardSet.full_deck()
    assert len(deck) == 52
    assert deck.mask == FULL_DECK_MASK
    hand = CardSet.parse("QH 2C")
    assert repr(hand) == "CardSet.parse('2C QH')"
    assert CardSet.parse(str(hand)) == hand


@pytest.mark.parametrize("bad", ["AS XX", "AS,,ZZ", "1S"])
def test_cardset_parse_rejects_a_bad_card(bad: str) -> None:
    with pytest.raises(InvalidNotationError):
        CardSet.parse(bad)


def test_cardset_of_rejects_non_cards() -> None:
    with pytest.raises(InvalidNotationError):
        CardSet.of([5])  # type: ignore[list-item]
    with pytest.raises(InvalidNotationError):
        CardSet.parse(None)  # type: ignore[arg-type]


def test_cardset_is_an_immutable_hashable_value() -> None:
    hand = CardSet.parse("AS")
    assert hash(hand) == hash(CardSet.parse("as"))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        hand.mask = 0  # type: ignore[misc]


# -- Seat and Team ------------------------------------------------------------------


def test_seats_go_clockwise_with_partners_opposite() -> None:
    assert [s.next for s in Seat] == [Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH]
    assert [s.partner for s in Seat] == [Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST]
    assert [s.team for s in Seat] == [Team.NS, Team.EW, Team.NS, Team.EW]
    assert "".join(s.letter for s in Seat) == "NESW"
    for seat in Seat:
        assert seat.partner.partner is seat
        assert seat.next.next is seat.partner
        assert seat.partner.team is seat.team
        assert seat.next.team is not seat.team


@pytest.mark.parametrize(
    ("text", "seat"),
    [
        ("N", Seat.NORTH),
        ("n", Seat.NORTH),
        ("north", Seat.NORTH),
        ("EAST", Seat.EAST),
        (" w ", Seat.WEST),
        ("South", Seat.SOUTH),
    ],
)
def test_seat_parse(text: str, seat: Seat) -> None:
    assert Seat.parse(text) is seat


@pytest.mark.parametrize("bad", ["", "X", "NE", "nord", None, 0])
def test_seat_parse_rejects_bad_input(bad: object) -> None:
    with pytest.raises(InvalidNotationError, match="not a seat"):
        Seat.parse(bad)  # type: ignore[arg-type]


def test_teams_seats_opponent_and_parse() -> None:
    assert Team.NS.seats == (Seat.NORTH, Seat.SOUTH)
    assert Team.EW.seats == (Seat.EAST, Seat.WEST)
    assert Team.NS.opponent is Team.EW
    assert Team.EW.opponent is Team.NS
    assert Team.parse("ns") is Team.NS
    assert Team.parse(" EW ") is Team.EW
    for bad in ["", "SN", "NE", None]:
        with pytest.raises(InvalidNotationError, match="not a team"):
            Team.parse(bad)  # type: ignore[arg-type]


def test_seat_and_team_maps_are_read_only_mappings() -> None:
    seat_map = SeatMap((1, 2, 3, 4))
    assert dict(seat_map) == {Seat.NORTH: 1, Seat.EAST: 2, Seat.SOUTH: 3, Seat.WEST: 4}
    assert seat_map[Seat.WEST] == 4
    assert len(seat_map) == 4
    with pytest.raises(KeyError):
        seat_map[Team.NS]  # type: ignore[index]
    team_map = TeamMap((10, -20))
    assert dict(team_map) == {Team.NS: 10, Team.EW: -20}
    assert repr(team_map) == "TeamMap({NS: 10, EW: -20})"
    with pytest.raises(KeyError):
        team_map[Seat.NORTH]  # type: ignore[index]
    assert seat_map == SeatMap((1, 2, 3, 4))
    assert seat_map != SeatMap((1, 2, 3, 5))


@pytest.mark.parametrize(
    "make",
    [
        lambda: Suit(7),
        lambda: Rank(13),
        lambda: Rank(-1),
        lambda: Team(2),
        lambda: Card.of(13, 0),  # type: ignore[arg-type]
        lambda: Card.of(Rank.ACE, 4),  # type: ignore[arg-type]
    ],
)
def test_out_of_range_enum_values_raise_invalid_notation(make: Callable[[], object]) -> None:
    with pytest.raises(InvalidNotationError):
        make()


@pytest.mark.parametrize(
    ("read", "bad", "message"),
    [
        (Suit, 7, "not a suit: 7; suits are 0-3 (C, D, H, S)"),
        (Suit.parse, "X", "not a suit: 'X'; write one of C, D, H, S or ♣ ♦ ♥ ♠, or a Suit"),
        (Rank, 13, "not a rank: 13; ranks are 0 (deuce) to 12 (ace)"),
        (Rank.parse, 1, "not a rank: 1; write one of 2-9, T (or 10), J, Q, K, A, or a Rank"),
        (lambda value: Card.of(Rank.ACE, value), 4, "not a suit: 4; suits are 0-3 (C, D, H, S)"),
        (Card, 52, "not a card id: 52; card ids are 0-51"),
        (Card.from_id, -1, "not a card id: -1; card ids are 0-51"),
        (Card.parse, 5, "not a card: 5; write a card like 'AS' or '10D'"),
        (
            Card.parse,
            " 1S",
            "not a card: ' 1S'; write rank then suit, like 'AS', 'TD', '10d' or 'Q♥'",
        ),
        (Seat, 4, "not a seat: 4; seats are 0-3 (N, E, S, W)"),
        (
            Seat.parse,
            Team.NS,
            "not a seat: <Team.NS: 0>; write N, E, S or W, or a seat name (south)",
        ),
        (Team, 2, "not a team: 2; teams are 0 (NS) and 1 (EW)"),
        (Team.parse, Seat.NORTH, "not a team: <Seat.NORTH: 0>; write NS or EW"),
    ],
)
def test_every_notation_words_its_refusal_alike(
    read: Callable[[object], object], bad: object, message: str
) -> None:
    with pytest.raises(InvalidNotationError) as caught:
        read(bad)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("read", "given"),
    [
        (Suit.parse, Suit.HEARTS),
        (Rank.parse, Rank.TEN),
        (Card.parse, ALL_CARDS[7]),
        (Seat.parse, Seat.WEST),
        (Team.parse, Team.EW),
    ],
)
def test_parsing_a_value_of_the_type_returns_it_unchanged(
    read: Callable[[object], object], given: object
) -> None:
    assert read(given) is given
