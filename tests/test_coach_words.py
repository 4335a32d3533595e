"""The coach's words are true: every factual claim a tip makes (a contract
made or set, counts of tricks, bags and spades, the bid a partner made, why a
bid is forced, the only legal card) is checked against the game, over random
positions in every variant, and the cases once worded wrongly are pinned."""

from __future__ import annotations

import random
import re

from hypothesis import given
from hypothesis import strategies as st

import spades_core as sc
from positions import deal, position
from spades_core import Bid, NilTricks, Play, Seat
from spades_core.cli.rules import rules_text

VARIANTS = ("classic", "mirror", "whiz")
SEAT_BY_NAME = {seat.name.title(): seat for seat in Seat}
CARD = r"(?:10|[2-9JQKA])[♣♦♥♠]"
SUIT_BY_PLURAL = {"clubs": sc.Suit.CLUBS, "diamonds": sc.Suit.DIAMONDS, "hearts": sc.Suit.HEARTS}


def card(text: str) -> sc.Card:
    return sc.Card.parse(text)


def counted_and_contract(game: sc.Game, seat: Seat) -> tuple[int, int]:
    """Tricks that count toward the team's contract, and the contract."""
    bids = game.bids
    won = game.tricks_won
    team = (seat, seat.partner)
    contract = sum(bids[s] or 0 for s in team)
    if game.rules.nil_tricks is NilTricks.COUNT_TOWARD_CONTRACT:
        counted = sum(won[s] for s in team)
    else:
        counted = sum(won[s] for s in team if bids[s] != 0)
    return counted, contract


def check_claims(game: sc.Game, tip: sc.Tip) -> int:
    """Assert every claim of ``tip`` recognised below; the number checked."""
    seat = game.to_act
    assert seat is not None
    reason = tip.reason
    hand = game.hand(seat)
    spades = hand.count(sc.Suit.SPADES)
    legal_bids = game.legal_bids()
    checked = 0

    def claim(pattern: str) -> re.Match[str] | None:
        nonlocal checked
        found = re.search(pattern, reason)
        checked += found is not None
        return found

    if found := claim(r"has its contract \((\d+) of (\d+) tricks\) and (\d+) bags?"):
        counted, contract = counted_and_contract(game, seat)
        assert (int(found[1]), int(found[2])) == (counted, contract), reason
        assert counted >= contract, reason
        assert int(found[3]) == game.bags[seat.team], reason
    if found := claim(r"can no longer make its contract \((\d+) of (\d+) tricks, (\d+) still"):
        counted, contract = counted_and_contract(game, seat)
        remaining = 13 - len(game.tricks)
        assert (int(found[1]), int(found[2]), int(found[3])) == (counted, contract, remaining)
        assert counted + remaining < contract, reason
    if claim(r"You and your partner both bid Nil"):
        assert (game.bids[seat], game.bids[seat.partner]) == (0, 0), reason
    if claim(r"(?i)you hold no spades"):
        assert spades == 0, reason
    held_spades = {c.symbol for c in hand.suit(sc.Suit.SPADES)}
    listed = r"((?:" + CARD + r"(?:, | and )?)+)"
    if found := claim(r"(?i)you hold (\d+)(?: spades?)? \(" + listed + r"\)"):
        assert int(found[1]) == spades, reason
        assert set(re.findall(CARD, found[2])) == held_spades, reason
    if found := claim(r"with only the " + listed + r" in spades"):
        assert set(re.findall(CARD, found[1])) == held_spades, reason
    if found := claim(r"bid your (\d+) spades?|holding (\d+) spades"):
        assert int(found[1] or found[2]) == spades, reason
    if found := claim(r"your partner bid (\d+)"):
        assert game.bids[seat.partner] == int(found[1]), reason
    if found := claim(r"may total at most (\d+)"):
        cap = game.rules.max_team_bid
        assert cap == int(found[1]), reason
        assert max(legal_bids) == cap - (game.bids[seat.partner] or 0), reason
    if found := claim(r"so (Nil|\d+) is your only bid|so (Nil) is your only bid"):
        only = found[1] or found[2]
        assert legal_bids == ((0,) if only == "Nil" else (int(only),)), reason
    if found := claim(r"you may bid only (Nil or \d+)"):
        assert legal_bids == (0, int(found[1].split()[-1])), reason
    if found := claim(r"with your partner's (Nil|\d+), a team contract of (\d+)"):
        partner = 0 if found[1] == "Nil" else int(found[1])
        assert game.bids[seat.partner] == partner, reason
        assert isinstance(tip.action, Bid)
        assert int(found[2]) == partner + tip.action.value, reason
    if found := claim(r"The (" + CARD + r") is your only legal card"):
        assert game.legal_cards() == sc.CardSet.of([card(found[1])]), reason
    if claim(r"^Your partner bid Nil|Your partner bid Nil and"):
        assert game.bids[seat.partner] == 0, reason
    if claim(r"^You bid Nil"):
        assert game.bids[seat] == 0, reason
    if found := claim(r"^(North|East|South|West) bid Nil"):
        assert game.bids[SEAT_BY_NAME[found[1]]] == 0, reason
    if found := claim(r"Your partner is winning this trick with the (" + CARD + ")"):
        trick = game.current_trick
        winner = max(
            trick,
            key=lambda play: (
                play[1].suit is sc.Suit.SPADES,
                play[1].suit is trick[0][1].suit,
                play[1].rank,
            ),
        )
        assert winner == (seat.partner, card(found[1])), reason
    if found := claim(r"You are out of (clubs|diamonds|hearts)"):
        assert not hand.suit(SUIT_BY_PLURAL[found[1]]), reason
    return checked


def random_position(variant: str, seed: int, steps: int) -> sc.Game:
    """A game of ``variant`` after ``steps`` random legal actions (deals included)."""
    rng = random.Random(seed)
    game = sc.new_game(variant, seed=seed, target_score=10_000, loss_floor=None)
    for _ in range(steps):
        game = game.apply(rng.choice(game.legal_actions()))
    while game.to_act is None:
        game = game.deal()
    return game


@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 160),
)
def test_every_claim_of_a_tip_holds_in_the_game(variant: str, seed: int, steps: int) -> None:
    game = random_position(variant, seed, steps)
    seat = game.to_act
    assert seat is not None
    tip = sc.coach(game.view(seat))
    assert tip.action in game.legal_actions()
    check_claims(game, tip)


def test_the_claim_checks_see_most_tips() -> None:
    """Over a sample of positions, most tips make a claim the checks recognise,
    and every duck tip of a team that is set says so."""
    checked = 0
    ducks_when_set = 0
    for seed in range(400):
        variant = VARIANTS[seed % 3]
        game = random_position(variant, seed, 40 + seed % 120)
        seat = game.to_act
        assert seat is not None
        tip = sc.coach(game.view(seat))
        checked += check_claims(game, tip) > 0
        if tip.idea.startswith("duck"):
            counted, contract = counted_and_contract(game, seat)
            if counted + 13 - len(game.tricks) < contract:
                ducks_when_set += 1
                assert "can no longer make its contract" in tip.reason
                assert "has its contract" not in tip.reason
    assert checked >= 150
    assert ducks_when_set >= 1


# -- the cases once worded wrongly -------------------------------------------------------

NO_SPADES_SOUTH = deal(
    N="2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    E="2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    S="2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    W="2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)
NINE_SPADES_SOUTH = deal(
    N="AH KH QH JH AD KD QD JD AC KC QC JC TC",
    E="2H 3H 4H 5H 6H 7H 8H 2D 3D 4D 5D 6D 7D",
    S="2S 3S 4S 5S 6S 7S 8S 9S TS 9H 8D 9D TD",
    W="JS QS KS AS TH 2C 3C 4C 5C 6C 7C 8C 9C",
)


def test_a_nil_forced_by_the_team_cap_names_the_cap_not_the_spades() -> None:
    # Dealer West: North bids 13, East 0, then South, who holds no spades.
    game = position("classic", NO_SPADES_SOUTH, [13, 0])
    tip = sc.coach(game.view(Seat.SOUTH))
    assert tip.action == Bid.of(0)
    assert tip.reason == (
        "Your partnership's bids may total at most 13 and your partner bid 13, "
        "so Nil is your only bid."
    )


def test_a_bid_held_down_by_the_team_cap_does_not_claim_to_bid_the_spades() -> None:
    game = position("classic", NINE_SPADES_SOUTH, [12, 1])
    assert game.legal_bids() == (0, 1)
    tip = sc.coach(game.view(Seat.SOUTH))
    assert tip.action == Bid.of(1)
    assert "bid your 9 spades" not in tip.reason
    assert tip.reason == (
        "Your partnership's bids may total at most 13 and your partner bid 12, "
        "so you may bid only Nil or 1: bid 1, since Nil is too risky holding 9 spades."
    )
    check_claims(game, tip)


def test_a_duck_when_the_team_is_set_says_it_is_set() -> None:
    found = 0
    for seed in range(3000):
        game = random_position(VARIANTS[seed % 3], seed, 60 + seed % 100)
        seat = game.to_act
        assert seat is not None
        if game.phase is not sc.Phase.PLAY:
            continue
        counted, contract = counted_and_contract(game, seat)
        remaining = 13 - len(game.tricks)
        if counted + remaining >= contract or not contract:
            continue
        tip = sc.coach(game.view(seat))
        if not tip.idea.startswith("duck"):
            continue
        assert "has its contract" not in tip.reason
        assert tip.reason.startswith(
            f"Your team can no longer make its contract ({counted} of {contract} tricks, "
            f"{remaining} still to play), so winning tricks would score nothing"
        )
        found += 1
        if found == 5:
            break
    assert found == 5


def test_the_whiz_ace_rule_is_described_as_an_optional_house_rule_off_by_default() -> None:
    whiz = sc.load_variant("whiz")
    assert "Optional house rule, off by default" in whiz.summary
    text = " ".join(rules_text(whiz).split())
    assert "Optional house rule, off by default (whiz_nil_needs_no_ace=true): a player" in text
    assert "whiz_nil_needs_no_ace = false" in rules_text(whiz)


def test_a_whiz_count_forced_by_the_ace_rule_says_so() -> None:
    hands = deal(
        N="AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        E="2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH",
        S="2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        W="2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    )
    game = position("whiz", hands, [], whiz_nil_needs_no_ace=True)
    tip = sc.coach(game.view(Seat.NORTH))
    assert tip.action == Bid.of(1)
    check_claims(game, tip)
    assert sc.coach.__module__ == "spades_core.tips"
    assert Play.of("AS").card.symbol == "A♠"
