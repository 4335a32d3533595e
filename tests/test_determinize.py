"""``sc.determinize``: samples of the hidden cards consistent with a view."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from spades_core import Card, CardSet, InconsistentViewError, Phase, Seat, SeatMap, Suit
from spades_core.engine.sampling import HiddenCards
from spades_core.engine.views import View

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"first_lead": "two_of_clubs", "max_team_bid": None}),
    ("mirror", {}),
    ("mirror", {"first_lead": "two_of_clubs"}),
    ("whiz", {}),
    ("whiz", {"whiz_nil_needs_no_ace": True}),
]


def random_game(variant: str, options: dict[str, Any], seed: int, steps: int) -> sc.Game:
    """A game after ``steps`` random legal actions (several hands when steps is large)."""
    rng = random.Random(seed)
    game = sc.new_game(variant, seed=seed, target_score=150, **options)
    for _ in range(steps):
        if game.is_over:
            break
        game = game.apply(rng.choice(game.legal_actions()))
    return game


def view_of(game: sc.Game, seat: Seat | None) -> View:
    return game.public_view() if seat is None else game.view(seat)


def view_to_act(game: sc.Game) -> View | None:
    """The view of the seat to act, or ``None`` when ``game`` is between hands."""
    if game.phase not in (Phase.BID, Phase.PLAY):
        return None
    seat = game.to_act
    assert seat is not None
    return game.view(seat)


@settings(max_examples=60)
@given(
    case=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 180),
    seat=st.sampled_from([None, *Seat]),
    sample_seed=st.integers(0, 2**32),
)
def test_sample_view_equals_the_view_in_every_variant(
    case: tuple[str, dict[str, Any]], seed: int, steps: int, seat: Seat | None, sample_seed: int
) -> None:
    variant, options = case
    game = random_game(variant, options, seed, steps)
    view = view_of(game, seat)
    sample = sc.determinize(view, random.Random(sample_seed))
    assert isinstance(sample, sc.Game)
    assert view_of(sample, seat) == view
    if seat is not None and seat == game.to_act:
        # The sample is a real game: the engine offers the seat the same moves.
        assert sample.legal_actions() == game.legal_actions()


def test_sample_keeps_the_seats_own_cards_and_moves_the_hidden_ones() -> None:
    game = random_game("classic", {}, seed=4, steps=30)
    assert game.phase is Phase.PLAY
    seat = Seat.SOUTH
    view = game.view(seat)
    hidden = {seat_: game.hand(seat_) for seat_ in Seat if seat_ is not seat}
    moved = False
    rng = random.Random(0)
    for _ in range(10):
        sample = sc.determinize(view, rng)
        assert sample.hand(seat) == game.hand(seat)
        assert sample.hand_results == game.hand_results
        moved |= any(sample.hand(s) != cards for s, cards in hidden.items())
    assert moved, "ten samples all placed every hidden card where it really is"


def test_sample_seed_is_drawn_from_the_rng_not_the_game() -> None:
    game = sc.new_game("mirror", seed=123456789).deal()
    view = game.view(Seat.NORTH)
    seeds = {sc.determinize(view, random.Random(i)).seed for i in range(5)}
    assert game.seed not in seeds
    assert len(seeds) == 5
    again = sc.determinize(view, random.Random(3))
    assert again == sc.determinize(view, random.Random(3))


def test_sample_replays_finished_hands_scores_bags_and_dealer() -> None:
    rng = random.Random(8)
    # No loss floor, so random play cannot end the game within two hands.
    game = sc.new_game("classic", seed=8, target_score=5000, loss_floor=None)
    while len(game.hand_results) < 2:
        game = game.apply(rng.choice(game.legal_actions()))
    game = game.deal()
    game = game.bid(game.legal_bids()[1])
    view = game.view(Seat.EAST)
    sample = sc.determinize(view, random.Random(1))
    assert len(sample.hand_results) == 2
    assert sample.hand_results == game.hand_results
    assert (sample.scores, sample.bags, sample.dealer) == (game.scores, game.bags, game.dealer)
    assert sample.first_dealer == game.first_dealer
    assert sample.view(Seat.EAST) == view


def test_voids_shown_are_respected() -> None:
    # North leads clubs; East, holding none, throws a heart: East is out of clubs.
    hands = {
        Seat.NORTH: "2C 3C 4C 5C 6C 7C 2D 3D 4D 2H 3H 2S 3S",
        Seat.EAST: "4H 5H 6H 7H 8H 9H 5D 6D 7D 8D 4S 5S 6S",
        Seat.SOUTH: "8C 9C TC JC 9D TD JD TH JH 7S 8S 9S TS",
        Seat.WEST: "QC KC AC QD KD AD QH KH AH JS QS KS AS",
    }
    game = sc.new_game("classic", seed=0, dealer=Seat.WEST).deal(hands)
    for bid in (2, 3, 4, 4):
        game = game.bid(bid)
    game = game.play("2C").play("4H")
    view = game.view(Seat.SOUTH)
    assert Suit.CLUBS in view.shown_out[Seat.EAST]
    rng = random.Random(5)
    for _ in range(30):
        sample = sc.determinize(view, rng)
        assert sample.hand(Seat.EAST).count(Suit.CLUBS) == 0


def test_mirror_spade_counts_are_respected() -> None:
    game = sc.new_game("mirror", seed=21).deal()
    while game.phase is Phase.BID:
        game = game.apply(game.legal_actions()[0])
    view = game.view(Seat.WEST)
    rng = random.Random(2)
    for _ in range(30):
        sample = sc.determinize(view, rng)
        for seat in Seat:
            assert sample.hand(seat).count(Suit.SPADES) == game.hand(seat).count(Suit.SPADES)


def test_B5_whiz_nil_bidder_is_never_given_the_ace_of_spades() -> None:
    # North bids Nil under whiz_nil_needs_no_ace, so North cannot hold the A♠.
    hands = {
        Seat.NORTH: "2S 2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H",
        Seat.EAST: "3S 4S 7C 8C 9C 6D 7D 8D 9D 5H 6H 7H 8H",
        Seat.SOUTH: "5S 6S 7S TC JC QC TD JD QD 9H TH JH QH",
        Seat.WEST: "8S 9S TS JS QS KS AS KC AC KD AD KH AH",
    }
    game = sc.new_game("whiz", seed=0, dealer=Seat.WEST, whiz_nil_needs_no_ace=True).deal(hands)
    game = game.bid(0)
    view = game.view(Seat.SOUTH)
    ace = Card.parse("AS")
    rng = random.Random(9)
    owners = set()
    for _ in range(40):
        sample = sc.determinize(view, rng)
        assert ace not in sample.dealt_hand(Seat.NORTH)
        owners |= {seat for seat in Seat if ace in sample.hand(seat)}
    assert owners == {Seat.EAST, Seat.WEST}


def test_P6_two_of_clubs_holder_is_the_seat_to_lead() -> None:
    game = sc.new_game("classic", seed=17, first_lead="two_of_clubs").deal()
    while game.phase is Phase.BID:
        game = game.apply(game.legal_actions()[-1])
    leader = game.to_act
    assert leader is not None
    viewer = next(seat for seat in Seat if seat != leader)
    view = game.view(viewer)
    rng = random.Random(4)
    for _ in range(20):
        sample = sc.determinize(view, rng)
        assert Card.parse("2C") in sample.hand(leader)
        assert sample.view(viewer) == view


@pytest.mark.parametrize("phase_steps", [0, 10_000])
def test_views_outside_a_hand_give_the_public_game(phase_steps: int) -> None:
    game = random_game("mirror", {}, seed=3, steps=phase_steps)
    assert game.phase in (Phase.DEAL, Phase.GAME_OVER)
    view = game.view(Seat.NORTH)
    sample = sc.determinize(view, random.Random(0))
    assert sample.view(Seat.NORTH) == view
    assert sample.phase is game.phase


def test_impossible_voids_raise_inconsistent_view_error() -> None:
    game = sc.new_game("classic", seed=5).deal()
    view = game.view(Seat.NORTH)
    # Every other seat "out of" every suit: nobody can hold the hidden cards.
    everything = frozenset(Suit)
    impossible = attrs.evolve(view, shown_out=SeatMap((frozenset(), *(everything,) * 3)))
    with pytest.raises(InconsistentViewError, match="no deal of the hidden cards"):
        sc.determinize(impossible, random.Random(0))


def test_impossible_spade_counts_raise_inconsistent_view_error() -> None:
    game = sc.new_game("mirror", seed=5).deal()
    view = game.view(Seat.NORTH)
    # Thirteen spades claimed by each opponent: more spades than exist.
    impossible = attrs.evolve(view, spade_counts=SeatMap((None, 13, 13, None)))
    with pytest.raises(InconsistentViewError):
        sc.determinize(impossible, random.Random(0))


def test_wrong_card_count_raises_inconsistent_view_error() -> None:
    game = sc.new_game("whiz", seed=6).deal()
    view = game.view(Seat.EAST)
    impossible = attrs.evolve(view, cards_left=SeatMap((13, 13, 13, 12)))
    with pytest.raises(InconsistentViewError, match="unaccounted"):
        sc.determinize(impossible, random.Random(0))


def test_a_non_view_raises_argument_type_error() -> None:
    game = sc.new_game("whiz", seed=6).deal()
    with pytest.raises(sc.ArgumentTypeError, match="determinize: view must be a View"):
        sc.determinize(game, random.Random(0))  # type: ignore[arg-type]


@settings(max_examples=25)
@given(case=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32), steps=st.integers(1, 52))
def test_guided_placement_always_fits_the_constraints(
    case: tuple[str, dict[str, Any]], seed: int, steps: int
) -> None:
    """The fallback used after random dead ends places every card legally."""
    variant, options = case
    game = random_game(variant, options, seed, steps + 4)
    view = view_to_act(game)
    if view is None:
        return
    seat = view.seat
    hidden = HiddenCards(view)
    held = hidden._try_place(random.Random(seed), guided=True)
    assert held is not None
    dealt = hidden.dealt(held)
    start = sc.new_game(variant, seed=1, dealer=game.dealer, **options)
    assert sorted(CardSet(mask).mask.bit_count() for mask in dealt) == [13, 13, 13, 13]
    for other in Seat:
        if other is not seat:
            for suit in view.shown_out[other]:
                assert CardSet(held[other]).count(suit) == 0
    assert start.deal({s: CardSet(dealt[s]) for s in Seat}).phase is Phase.BID


def test_hidden_cards_refuse_a_seat_that_has_not_bid_or_is_not_a_seat() -> None:
    game = sc.new_game("classic", seed=1).deal().bid(2).bid(3)
    assert game.to_act is Seat.EAST
    east_could_bid = tuple(
        action.value for action in game.legal_actions() if isinstance(action, sc.Bid)
    )
    game = game.bid(4).bid(3)
    hidden = HiddenCards(game.view(Seat.NORTH))
    east = game.hand(Seat.EAST).mask
    assert hidden.legal_bids(1, east) == east_could_bid
    # South dealt: West, North (the viewer), East and South bid, in that order.
    assert game.dealer is Seat.SOUTH
    assert hidden.hidden_bids == ((3, 2), (1, 4), (2, 3))
    assert HiddenCards(game.view(Seat.WEST)).hidden_bids == ((0, 3), (1, 4), (2, 3))
    for seat in (0, 4, -1, "E", None, 1.0):
        with pytest.raises(sc.RulesError, match="hidden seat that has bid"):
            hidden.legal_bids(seat, east)  # type: ignore[arg-type]


class _OwnDraws(random.Random):
    """A generator with a draw of its own: the sampler must ask it."""

    def _randbelow(self, n: int) -> int:
        return n - 1


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 52))
def test_a_shuffle_nobody_reads_draws_what_the_shuffle_draws(seed: int, length: int) -> None:
    from spades_core.engine.sampling import _skip_shuffle

    for kind in (random.Random, _OwnDraws):
        ours, theirs = kind(seed), kind(seed)
        _skip_shuffle(ours, length)
        theirs.shuffle(list(range(length)))
        assert ours.getstate() == theirs.getstate()


def test_the_sampler_draws_through_the_generators_own_methods() -> None:
    # Every draw goes through shuffle and randrange, so a generator with a
    # draw of its own deals by it: the highest index at every step.
    game = sc.new_game("classic", seed=3).deal()
    view = game.view(sc.Seat.NORTH)

    def hands(rng: random.Random) -> list[sc.CardSet]:
        dealt = sc.determinize(view, rng)
        return [dealt.hand(seat) for seat in sc.Seat]

    own = hands(_OwnDraws(1))
    assert own == hands(_OwnDraws(2))  # its draws ignore the seed
    assert own != hands(random.Random(1))


@settings(max_examples=30, deadline=None)
@given(
    case=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32),
    steps=st.integers(4, 60),
    sample_seed=st.integers(0, 2**32),
)
def test_the_legal_bids_a_sampler_remembers_are_the_variants_answer(
    case: tuple[str, dict[str, Any]], seed: int, steps: int, sample_seed: int
) -> None:
    """Over many samples (hands repeating later in a hand), the legal bids
    :meth:`HiddenCards.legal_bids` gives for each sampled hand are what the
    variant answers for that hand, asked afresh."""
    from spades_core.rules.variant import checked_legal_bids

    variant, options = case
    view = view_to_act(random_game(variant, options, seed, steps))
    if view is None:
        return
    hidden = HiddenCards(view)
    if view.phase is Phase.PLAY:
        assert len(hidden.hidden_bids) == 3  # every bid but the viewer's is checked
    order = [Seat((int(view.dealer) + 1 + i) % 4) for i in range(4)]
    rng = random.Random(sample_seed)
    for _ in range(40):
        dealt = hidden.dealt(hidden.sample(rng))
        for number, _bid in hidden.hidden_bids:
            bidder = Seat(number)
            before: dict[Seat, int] = {}
            for earlier in order[: order.index(bidder)]:
                made = view.bids[earlier]
                assert made is not None  # bids are made in turn
                before[earlier] = made
            expected = checked_legal_bids(
                view.variant, view.rules, bidder, CardSet(dealt[number]), before
            )
            assert hidden.legal_bids(number, dealt[number]) == expected
