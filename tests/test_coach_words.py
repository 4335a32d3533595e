"""The coach's words are true: every factual clause of every tip is checked
against the game (the checks are in tests/coach_claims.py, written apart from
the coach), over random positions in every variant and a plugin's, and each
sentence once worded wrongly is pinned to a position that produced it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import assume, event, given
from hypothesis import strategies as st

import spades_core as sc
from coach_claims import (
    CLAUSES,
    NEAR_COUNT,
    VARIANTS,
    Position,
    Tally,
    check_tip,
    coach_and_check,
    play_to_position,
    positions,
)
from positions import deal, position
from spades_core import Bid, CardSet, Phase, Play, Seat
from spades_core.cli.commands import read_bid
from spades_core.rules.variant import describe_bids
from spades_core.testing.strategies import games


@st.composite
def coached_positions(draw: st.DrawFn) -> sc.Game:
    """A position to coach: a game of any variant (a plugin's included) with
    options drawn by the testing kit, zero or one hands already played, then
    a deal, bids and plays, sometimes with one team dealt no spades and bidding
    Nil twice, so a seat may face two opponents on Nil."""
    variant = draw(st.sampled_from(VARIANTS))
    start = draw(games(variant, phase=Phase.DEAL))
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="play seed"))
    game = play_to_position(
        rng,
        start,
        nil_team=draw(st.sampled_from([None, sc.Team.NS, sc.Team.EW]), label="Nil team"),
        nil_bias=draw(st.sampled_from([0.0, 0.3, 0.7]), label="other Nils"),
        steps=draw(st.integers(0, 56), label="actions into the hand"),
        follow_coach=draw(st.floats(0, 1), label="share of the coach's moves"),
    )
    assume(game is not None)
    assert game is not None
    return game


@given(coached_positions())
def test_every_clause_of_every_tip_holds(game: sc.Game) -> None:
    seat = game.to_act
    assert seat is not None
    tip = sc.coach(game.view(seat))
    assert tip.action in game.legal_actions()
    event(f"idea: {tip.idea}")
    for name in check_tip(game, tip):
        event(f"clause: {name}")


# Clauses the normal player never makes the coach write: the easy player's
# ace lead, and a card that loses to the winner without being the highest
# that does.
_NEVER_WRITTEN: frozenset[str] = frozenset({"it is the highest left", "which loses"})


def test_the_checks_see_every_clause_idea_and_kind_of_position() -> None:
    """Over a fixed spread of positions, every clause the checks know is
    written and checked, every idea of the normal player comes up, and so do
    the positions once worded wrongly: both opponents on Nil, a card your
    partner or an opponent not known void could still beat."""
    tally = Tally()
    both_nil = partner_threat = opponent_threat = 0
    for game in positions(random.Random(2024), 1500):
        tip = coach_and_check(game, tally)
        seat = game.to_act
        assert seat is not None
        opponents = (seat.next, seat.partner.next)
        if game.phase is Phase.PLAY and all(game.bids[o] == 0 for o in opponents):
            both_nil += "bid Nil" in tip.reason
        if "still to play" in tip.reason and isinstance(tip.action, Play):
            # A tip on who can beat the card played, when the partner or an
            # opponent not known to be void still could.
            known = Position(game, tip)
            mine = tip.action.card
            partner_threat += known.partner in known.after and any(
                known.could_beat(known.partner, mine)
            )
            opponent_threat += any(
                any(known.could_beat(seat, mine)) for seat in known.after if seat != known.partner
            )
    unused = {known.name for known in CLAUSES} - set(tally.by_clause) - _NEVER_WRITTEN
    assert not unused, f"clauses never checked: {sorted(unused)}"
    ideas = {why.name.lower() for why in sc.bots.Why} - {
        "bid_forced",  # a single legal action is the only choice, bid or card
        "lead_ace",  # the easy player's
        "bid_count_winners",  # the easy player's
        "bid_simulated",  # the hard player's
        "bid_nil_simulated",
        "search",
        # a variant's phases, which no built-in variant has: the coach's words
        # there are checked in Tournament Spades (test_phase_bots.py)
        "blind_nil_behind",
        "look_first",
        "pass_high_to_partner",
        "pass_low_to_nil",
    }
    assert ideas <= set(tally.by_idea), f"ideas never seen: {sorted(ideas - set(tally.by_idea))}"
    assert both_nil >= 20
    assert partner_threat >= 10
    assert opponent_threat >= 30
    assert tally.clauses >= 2 * tally.tips


def test_every_team_cap_from_1_to_13_is_explained_truly() -> None:
    """Classic with each team cap: the first of a team to bid, and the second
    after each bid the first could make, get a true sentence (or none when
    every bid is open) and a tip whose clauses hold."""
    explained = 0
    for cap in range(1, 14):
        game = sc.new_game("classic", seed=cap, dealer=Seat.WEST, max_team_bid=cap).deal()
        # North first; then South after each bid North may make (East bids Nil).
        states = [game, *(game.bid(bid).bid(0) for bid in game.legal_bids())]
        for state in states:
            tip = coach_and_check(state)
            limits = state.explain_bids()
            partner = (state.bids[Seat.NORTH] or 0) if state.to_act is Seat.SOUTH else 0
            assert (limits is None) == (cap - partner >= 13)
            if limits is not None:
                check_tip(state, sc.Tip(action=tip.action, reason=limits, idea=tip.idea))
                explained += 1
    # Caps 1-12 limit every bid (North's and South's after each of North's 0-cap),
    # 13 only South's after North's 1-13.
    assert explained == sum(cap + 2 for cap in range(1, 13)) + 13


def test_a_made_up_clause_is_caught() -> None:
    """The checks fail on words they cannot check, and on a false clause."""
    game = position("classic", NIL_OPPONENT, [5, 2, 0, 4, "2H", "3H", "9H"], dealer="S")
    tip = sc.coach(game.view(Seat.SOUTH))
    check_tip(game, tip)
    for wrong in (
        tip.reason.replace("so they have to take it", "so they surely lose"),
        tip.reason.replace("East bid Nil", "West bid Nil"),
        tip.reason.replace("9♥", "8♥"),
    ):
        assert wrong != tip.reason
        try:
            check_tip(game, sc.Tip(action=tip.action, reason=wrong, idea=tip.idea))
        except AssertionError:
            continue
        raise AssertionError(f"not caught: {wrong}")


# -- the sentences once false, each at a position that produced it --------------------------


def cards_in(text: str) -> list[int | str]:
    """The cards of ``text`` in order, as ``position`` takes plays."""
    return list(text.split())


NIL_OPPONENT = deal(
    N="3H 5H 6H 2C 3C 4C 2D 3D 4D 2S 3S 4S 5S",
    E="9H 5C 6C 7C 8C 5D 6D 7D 8D 6S 7S 8S 9S",
    S="4H KH 7H 9C TC JC 9D TD JD TS JS QS KS",
    W="2H 8H TH JH QH AH QC KC AC QD KD AD AS",
)


def test_a_trump_is_called_the_lowest_only_when_no_lower_spade_beats() -> None:
    # South is out of hearts; the 6♠ and the A♠ both beat East's A♥. The
    # coach once called the A♠ "the lowest spade that beats the A♥".
    hands = deal(
        N="2C 5C TC AC 5D 9D KD 5H KH 4S 5S 9S TS",
        E="4C QC 7D 8D QD 3H 4H 7H QH AH 3S 8S KS",
        S="6C 7C JC 4D JD AD 2H 6H 8H JH 6S JS AS",
        W="3C 8C 9C KC 2D 3D 6D TD 9H TH 2S 7S QS",
    )
    plays = cards_in(
        "5D 8D JD 3D 4D 6D 9D 7D 2C 4C JC 8C 6H TH 5H 3H 9C TC QC 6C 4H 2H 9H KH KD QD AD "
        "TD JH 2S 5C QH 2D TS 7H 8H AC 3S 7C KC KS JS 7S 5S AH"
    )
    game = position("whiz", hands, [4, 3, 3, 0, *plays])
    tip = sc.coach(game.view(Seat.SOUTH))
    assert tip.action == Play.of("AS")
    assert "the lowest spade" not in tip.reason
    assert tip.reason == (
        "You are out of hearts: trump with your A♠ rather than your 6♠, which West could "
        "overtrump; nobody still to play can beat the A♠."
    )
    check_tip(game, tip)


def test_a_low_lead_from_a_side_suit_says_spades_are_longer() -> None:
    # West holds three hearts and four spades, and spades may be led; the
    # coach once said the 3♥ came from West's longest suit.
    hands = deal(
        N="6C 7C 2D 6D 8D 9D JD KD 5H 8H QH 6S 8S",
        E="4C TC JC TD AD 2H TH JH KH 3S 5S QS AS",
        S="2C 3C 8C 9C KC AC 3D 4D 7D 7S 9S JS KS",
        W="5C QC 5D QD 3H 4H 6H 7H 9H AH 2S 4S TS",
    )
    plays = cards_in(
        "QH KH 3C 4H JH AC AH 8H 7H 5H 2H 9C QD KD TD 7D 2D AD 3D 5D TC 2C 5C 7C TH JS 6H 9D "
        "8C QC 6C 4C"
    )
    game = position("classic", hands, [0, 0, 10, 3, *plays])
    west = game.hand(Seat.WEST)
    assert west.count(sc.Suit.SPADES) > west.count(sc.Suit.HEARTS)
    assert any(card.suit is sc.Suit.SPADES for card in game.legal_cards())
    tip = sc.coach(game.view(Seat.WEST))
    assert tip.action == Play.of("3H")
    assert tip.reason == (
        "Lead your lowest heart, the 3♥, from your longest suit outside spades, and keep "
        "your higher hearts for later."
    )
    check_tip(game, tip)


def test_nobody_can_beat_a_card_is_said_only_when_no_opponent_could() -> None:
    # South's K♥ leads the trick, but West, still to play, may be out of
    # hearts and trump it (and does hold spades).
    hands = deal(
        N="8C 9C TC QC AC 4D 8D JD 5H 7H 9H 3S JS",
        E="7C 2D 3D 5D 9D KD 2H 4H 8H QH 5S 8S AS",
        S="2C 4C 5C 6C 6D TD AD 3H 6H TH KH AH 6S",
        W="3C JC KC 7D QD JH 2S 4S 7S 9S TS QS KS",
    )
    plays = cards_in(
        "QC 7C 6C JC 4D 5D TD QD 7D 8D 2D AD 6D TS JD 9D KS JS AS 6S 3D 4C JH 5H KD 5C QS TC "
        "2S 3S 5S AH 2H"
    )
    game = position("mirror", hands, [2, 3, 1, 7, *plays])
    tip = sc.coach(game.view(Seat.SOUTH))
    assert tip.action == Play.of("KH")
    assert not tip.reason.startswith("Nobody")
    assert tip.reason == (
        "Play your K♥ over the 2♥: no opponent still to play can beat the K♥ except by trumping."
    )
    check_tip(game, tip)


def test_nobody_can_beat_a_card_counts_the_partner_too() -> None:
    # East's 4♠ beats South's 3♠, but East's partner West, still to play,
    # holds the A♠: the coach once said nobody still to play could beat it.
    hands = deal(
        N="8C JC QC KC 3D 4D 6D 8D JD KD TH 3S KS",
        E="6C 9C TC 5D TD 2H 8H 9H KH 4S 7S 9S TS",
        S="3C 4C 5C 7C 2D 7D 9D AD 4H 6H 7H JS QS",
        W="2C AC QD 3H 5H JH QH AH 2S 5S 6S 8S AS",
    )
    plays = cards_in(
        "4D 5D 7D QD QH TH KH 4H 2H 6H AH 6D AC JC TC 5C JH KC 8H 7H 5H KD 9H JS 9D 2S 8D TD "
        "8S KS 9S QS QC 9C 7C 2C 3S"
    )
    game = position("mirror", hands, [2, 4, 2, 5, *plays])
    seat = game.to_act
    assert seat is Seat.EAST
    assert Play.of("AS").card in game.hand(seat.partner)
    tip = sc.coach(game.view(seat))
    assert tip.action == Play.of("4S")
    assert not tip.reason.startswith("Nobody")
    assert "no opponent still to play can beat the 4♠" in tip.reason
    check_tip(game, tip)


def test_with_both_opponents_on_nil_the_tip_names_the_one_still_to_play() -> None:
    # North and South both bid Nil; North has played to the trick, South has
    # not. The coach once told East "North bid Nil and plays after you".
    hands = deal(
        N="4C 5C 9C JC 2D 3D 5D QD 6H 9H KH TS QS",
        E="2C 7C KC 7D AD 3H 7H JH QH 2S 4S JS AS",
        S="3C 6C 8C AC 4D TD KD 2H 8H 3S 8S 9S KS",
        W="TC QC 6D 8D 9D JD 4H 5H TH AH 5S 6S 7S",
    )
    game = position("classic", hands, [0, 2, 0, 2, "4C", "7C", "6C", "TC", "AH", "KH"])
    tip = sc.coach(game.view(Seat.EAST))
    assert tip.action == Play.of("3H")
    assert tip.reason.startswith("South bid Nil and plays after you")
    check_tip(game, tip)


def test_a_team_cap_is_explained_whoever_has_bid() -> None:
    # Classic with max_team_bid=1: North, first to bid, holds one spade. The
    # refusal once said "in Classic Spades you may bid only Nil or your spade
    # count, 1"; the cap, not the spades, limits the bid.
    game = sc.new_game("classic", seed=2, dealer=Seat.WEST, max_team_bid=1).deal()
    view = game.view(Seat.NORTH)
    assert view.hand().count(sc.Suit.SPADES) == 1
    assert read_bid("5", view) == (
        "You cannot bid 5. In Classic Spades a partnership's bids may total at most 1, and "
        "your partner has not bid yet, so you may bid Nil or 1."
    )
    tip = sc.coach(view)
    assert "spade count" not in tip.reason
    check_tip(game, tip)
    after_nil = game.bid(0).bid(0)  # North and East bid Nil: South's turn
    assert after_nil.explain_bids() == (
        "In Classic Spades a partnership's bids may total at most 1, and your partner bid "
        "Nil, so you may bid Nil or 1."
    )
    check_tip(after_nil, sc.coach(after_nil.view(Seat.SOUTH)))
    strong = sc.new_game("classic", seed=2, dealer=Seat.WEST, max_team_bid=1).deal(
        deal(
            N="AS 2C 3C 4C 5C 6C 7C 8C AH KH QH AD KD",
            E="2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 9C",
            S="TC JC QC KC AC 2H 3H 4H 5H 6H 7H 8H 9H",
            W="2D 3D 4D 5D 6D 7D 8D 9D TD JD QD TH JH",
        )
    )
    tip = sc.coach(strong.view(Seat.NORTH))
    assert tip.action == Bid.of(1)
    assert tip.reason == (
        "In Classic Spades a partnership's bids may total at most 1, and your partner has "
        "not bid yet, so you may bid Nil or 1. Nil is too risky with the A♠, A♦, A♥, K♦ and "
        "K♥: bid 1."
    )
    check_tip(strong, tip)


def test_a_bid_reason_accounts_for_the_whole_estimate() -> None:
    # The coach once said "You can expect about 2 tricks: the A♣ looks like a
    # winner, so bid 2", naming one trick of two.
    game = sc.new_game("classic", seed=11, dealer=Seat.WEST).deal()
    tip = sc.coach(game.view(Seat.NORTH))
    assert tip.action == Bid.of(2)
    assert tip.reason == (
        "You can expect about 2 tricks: the A♣ should take 1, and the Q♣ and trumping in your "
        "short diamonds about 1 more, so bid 2."
    )
    check_tip(game, tip)


def test_a_plugin_without_words_of_its_own_gets_true_ones() -> None:
    game = sc.new_game(NEAR_COUNT, seed=5).deal()
    counts: Counter[str] = Counter()
    while game.phase is Phase.BID:
        seat = game.to_act
        assert seat is not None
        spades = game.hand(seat).count(sc.Suit.SPADES)
        legal = describe_bids(game.legal_bids())
        assert game.explain_bids() == (
            f"The Near Count Spades rules allow you to bid only {legal} here."
        )
        assert set(game.legal_bids()) == {0, *range(spades, min(spades + 2, 13) + 1)}
        tip = coach_and_check(game)
        counts[tip.idea] += 1
        game = game.apply(tip.action)
    assert sum(counts.values()) == 4


# -- claims that counting proves false: who may hold what is exact ---------------------------


def replayed(variant: str, options: dict[str, Any], bids: list[int], plays: str) -> sc.Game:
    """A seeded game dealt, bid in turn from the seat to act, and played."""
    game = sc.new_game(variant, **options).deal()
    for bid in bids:
        game = game.bid(bid)
    for card in plays.split():
        game = game.play(card)
    return game


def test_a_partner_whose_cards_are_all_counted_may_not_hold_spades() -> None:
    # North, East and South have shown out of clubs, so West's five cards are
    # the five unseen clubs. The coach once told East "Your partner is out of
    # hearts and may still hold spades".
    game = replayed(
        "classic",
        {"seed": 444229369194, "nil_value": 100, "bag_limit": 7, "break_rule": "offsuit_spade"}
        | {"max_hands": 2},
        [12, 1, 0, 8],
        "3D 5D TD 2D 3H AH KH TH 8C 3C 7C TC 7D 9C QD AD 8H JH KC 9H 2H 9S 4H 6H 2C 9D QH "
        "AS 8D 6C 6D KD",
    )
    assert game.to_act is Seat.EAST
    view = game.view(Seat.EAST)
    clubs = view.unseen & CardSet.parse("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")
    assert len(clubs) == view.cards_left[Seat.WEST] == 5
    assert all(sc.Suit.CLUBS in view.shown_out[seat] for seat in (Seat.NORTH, Seat.SOUTH))
    tip = sc.coach(view)
    assert tip.idea == "lead_for_partner_ruff"
    assert "may still hold spades" not in tip.reason
    assert tip.reason == "Lead the 7♥."
    check_tip(game, tip)


def test_no_opponent_can_trump_when_the_counts_leave_them_no_spade() -> None:
    # West has played both spades its Whiz bid revealed, and North's count
    # takes all five unseen spades, so East (Nil, count unknown) holds none.
    # The coach once said "an opponent who runs out of clubs could trump it later".
    game = replayed(
        "whiz",
        {"seed": 1033673909928, "target_score": 100, "loss_floor": -100}
        | {"double_nil": "no_loss", "whiz_nil_needs_no_ace": True, "max_hands": 1},
        [0, 4, 2, 6],
        "2H 6H 9H KH QH TH 4H JH JD AD 4D KD AH 5H QS 8H TS 5S JS AS",
    )
    assert game.to_act is Seat.SOUTH
    view = game.view(Seat.SOUTH)
    assert view.spades_left(Seat.WEST) == 0
    assert view.spades_left(Seat.NORTH) == len(view.unseen.suit(sc.Suit.SPADES)) == 5
    tip = sc.coach(view)
    assert tip.action == Play.of("AC")
    assert "could trump it later" not in tip.reason
    assert tip.reason == (
        "The A♣ is the highest club left, and no opponent can trump it: cash it now."
    )
    check_tip(game, tip)


def test_a_seat_that_must_follow_suit_cannot_overtrump() -> None:
    # South led the J♦. North and East each hold one card besides the three
    # spades their bids revealed; East has shown out of diamonds, so its card
    # is the 10♥, and North's (North is out of clubs) is the Q♦ or the K♦:
    # North must follow suit and cannot overtrump a 9♠. The coach once said
    # "trump with your A♠ rather than your 9♠, which North could overtrump".
    game = replayed(
        "whiz",
        {"seed": 729802985470, "nil_value": 200, "bag_limit": 5, "bag_penalty": 250}
        | {"whiz_nil_needs_no_ace": True, "max_hands": 2},
        [3, 4, 3, 3],
        "AC 2C 8C 6C 5H QH 2H 3C KC QC 5C 7C AH 3H 5D 4H KH 9H 6D 6H 7H 8H 7D JH AD TD 4D "
        "8D 3D 7S 2D 9C 4C 8S TC 9D JD",
    )
    assert game.to_act is Seat.WEST
    view = game.view(Seat.WEST)
    assert view.spades_left(Seat.NORTH) == view.spades_left(Seat.EAST) == 3
    assert [view.cards_left[seat] for seat in (Seat.NORTH, Seat.EAST)] == [4, 4]
    assert sc.Suit.DIAMONDS in view.shown_out[Seat.EAST]
    assert sc.Suit.CLUBS in view.shown_out[Seat.NORTH]
    assert str(view.unseen - view.unseen.suit(sc.Suit.SPADES)) == "QD KD TH"
    tip = sc.coach(view)
    assert tip.action == Play.of("AS")
    assert "could overtrump" not in tip.reason
    assert tip.reason == (
        "You are out of diamonds: trump with your A♠; nobody still to play can beat the A♠."
    )
    check_tip(game, tip)


def test_a_partners_trick_is_threatened_only_by_a_seat_that_may_beat_it() -> None:
    # West leads the 5♠ and wins it so far. South has shown out of hearts;
    # West, out of clubs, diamonds and hearts, must hold the last unseen
    # spade, the 6♠, so South's two cards are the K♦ and A♦ and it cannot
    # beat a spade. The coach once told East "Your partner's 5♠ could still be
    # beaten by South".
    hands = deal(
        N="QC KC 3D 5D 7D 8D 3H 8H 9H JH KH 7S QS",
        E="4C 5C 7C 4D 6D JD 5H 6H AH 2S 8S 9S AS",
        S="2C 9C TC AC 2D QD KD AD 2H 4H QH TS JS",
        W="3C 6C 8C JC 9D TD 7H TH 3S 4S 5S 6S KS",
    )
    plays = cards_in(
        "KC 4C TC JC KH AH QH 7H JD 2D TD 3D 7C 2C 6C QC JH 6H 2H TH 9H 5H 4H 9D 8H 4D AC 8C "
        "8D 6D QD 3C 9C 3S 7D 5C 4S QS AS TS 2S JS KS 7S 5S 5D"
    )
    game = position("classic", hands, [9, 8, 0, 0, *plays], target_score=10000, loss_floor=None)
    assert game.to_act is Seat.EAST
    view = game.view(Seat.EAST)
    assert view.shown_out[Seat.WEST] == {sc.Suit.CLUBS, sc.Suit.DIAMONDS, sc.Suit.HEARTS}
    assert str(view.unseen) == "KD AD 3H 6S"
    tip = sc.coach(view)
    assert tip.idea == "secure_partner_trick"
    assert "could still be beaten" not in tip.reason
    assert tip.reason == (
        "Your partner is winning this trick with the 5♠, but every card you may play beats it: "
        "play the 8♠; nobody still to play can beat the 8♠."
    )
    check_tip(game, tip)
