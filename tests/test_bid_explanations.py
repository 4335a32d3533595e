"""Each variant explains its own bid limits (``Variant.explain_bids``): one
sentence computed from the legal bids and the position, or ``None`` when every
bid is open. The engine checks the answer like every other hook's, and
``Game``/``View`` give it for the seat to bid."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

import spades_core as sc
from play_helpers import private_data_dir, run_play  # noqa: F401 (the `data` fixture)
from positions import deal, position
from spades_core import Seat, Suit, tips
from spades_core.bots.bidding import estimate_parts, estimate_tricks
from spades_core.rules.hooks import checked_explain_bids
from spades_core.rules.variant import describe_bids
from spades_core.testing.strategies import card_sets
from spades_variants.classic import ClassicVariant
from spades_variants.mirror import MirrorVariant
from spades_variants.whiz import WhizVariant

ONE_SPADE_NORTH = deal(
    N="AS 2C 3C 4C 5C 6C 7C 8C AH KH QH AD KD",
    E="2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 9C",
    S="TC JC QC KC AC 2H 3H 4H 5H 6H 7H 8H 9H",
    W="2D 3D 4D 5D 6D 7D 8D 9D TD JD QD TH JH",
)


# -- the built-in variants' sentences ----------------------------------------------------


@pytest.mark.parametrize(
    ("cap", "bids", "sentence"),
    [
        (13, [], None),
        (13, [4, 0], "your partner bid 4, so you may bid Nil or 1-9."),
        (13, [13, 2], "your partner bid 13, so Nil is your only bid."),
        (13, [0, 3], None),
        (1, [], "your partner has not bid yet, so you may bid Nil or 1."),
        (1, [0, 0], "your partner bid Nil, so you may bid Nil or 1."),
        (1, [1, 1], "your partner bid 1, so Nil is your only bid."),
        (7, [5, 0], "your partner bid 5, so you may bid Nil, 1 or 2."),
        (12, [], "your partner has not bid yet, so you may bid Nil or 1-12."),
    ],
)
def test_classic_names_the_team_cap_and_the_partners_bid(
    cap: int, bids: list[int | str], sentence: str | None
) -> None:
    game = position("classic", ONE_SPADE_NORTH, bids, max_team_bid=cap)
    text = game.explain_bids()
    if sentence is None:
        assert text is None
        assert game.legal_bids() == tuple(range(14))
    else:
        assert text == (
            f"In Classic Spades a partnership's bids may total at most {cap}, and {sentence}"
        )


def test_mirror_names_the_spade_count() -> None:
    game = position("mirror", ONE_SPADE_NORTH, [])
    assert game.explain_bids() == (
        "In Mirror Spades your bid is your spade count, and you hold 1 spade, so you must bid 1."
    )
    game = game.bid(1)  # East: every spade but the ace
    assert game.explain_bids() == (
        "In Mirror Spades your bid is your spade count, and you hold 12 spades, so you must bid 12."
    )
    assert game.bid(12).explain_bids() == (
        "In Mirror Spades your bid is your spade count, and you hold no spades, so you must "
        "bid Nil."
    )


def test_whiz_names_the_choice_and_the_ace_house_rule() -> None:
    plain = position("whiz", ONE_SPADE_NORTH, [])
    assert plain.explain_bids() == (
        "In Whiz Spades you bid Nil or your spade count, and you hold 1 spade, so you may "
        "bid Nil or 1."
    )
    assert plain.bid(0).bid(0).explain_bids() == (
        "In Whiz Spades you bid Nil or your spade count, and you hold no spades, so Nil is "
        "your only bid."
    )
    ace_rule = position("whiz", ONE_SPADE_NORTH, [], whiz_nil_needs_no_ace=True)
    assert ace_rule.legal_bids() == (1,)
    assert ace_rule.explain_bids() == (
        "In Whiz Spades you bid Nil or your spade count, but you hold the A♠ and the house "
        "rule whiz_nil_needs_no_ace rules out Nil for its holder, so you must bid your 1 spade."
    )
    # East holds twelve spades but not the ace: the house rule does not apply.
    assert ace_rule.bid(1).legal_bids() == (0, 12)


def test_a_derived_variant_speaks_of_itself() -> None:
    house = sc.load_variant("classic").derive(id="house", title="House Spades", max_team_bid=9)
    game = sc.new_game(house, seed=3, dealer=Seat.WEST).deal()
    assert game.explain_bids() == (
        "In House Spades a partnership's bids may total at most 9, and your partner has not "
        "bid yet, so you may bid Nil or 1-9."
    )


# -- Game and View --------------------------------------------------------------------------


def test_game_and_view_give_the_sentence_to_the_seat_to_bid_only() -> None:
    game = position("mirror", ONE_SPADE_NORTH, [])
    text = game.explain_bids()
    assert text is not None
    assert game.view(Seat.NORTH).explain_bids() == text
    assert game.view(Seat.EAST).explain_bids() is None  # not East's turn
    assert game.public_view().explain_bids() is None
    before_deal = sc.new_game("mirror", seed=1)
    assert before_deal.explain_bids() is None
    playing = game.bid(1).bid(12).bid(0).bid(0)
    assert playing.phase is sc.Phase.PLAY
    assert playing.explain_bids() is None
    assert playing.view(playing.to_act or Seat.NORTH).explain_bids() is None


def test_describe_bids_writes_any_set_of_bids() -> None:
    assert describe_bids([]) == "no bid"
    assert describe_bids([0]) == "Nil"
    assert describe_bids([13]) == "13"
    assert describe_bids({7, 1, 2, 3, 9, 10}) == "1-3, 7, 9 or 10"
    assert describe_bids(range(4, 8)) == "4-7"


# -- a plugin's sentence, and the checks on it -------------------------------------------


class Limited(ClassicVariant):
    """Classic bids limited to Nil or 3-5, with an explanation of the test's choosing."""

    answer: Any = None

    def legal_bids(
        self, rules: sc.Rules, seat: Seat, hand: sc.CardSet, bids: Mapping[Seat, int]
    ) -> Iterable[int]:
        return (0, 3, 4, 5)

    def explain_bids(
        self, rules: sc.Rules, seat: Seat, hand: sc.CardSet, bids: Mapping[Seat, int]
    ) -> str | None:
        answer = type(self).answer
        if isinstance(answer, BaseException):
            raise answer
        return answer  # type: ignore[no-any-return]


def explaining(answer: object) -> sc.Game:
    """A game at its first bid, of a variant whose explain_bids answers ``answer``."""
    cls = type("Explaining", (Limited,), {"answer": answer})
    variant = cls(id="explaining", title="Explaining", options={})
    return sc.new_game(variant, seed=1).deal()


def test_a_plugin_sentence_is_passed_on_trimmed() -> None:
    game = explaining("  Only Nil or three to five tricks here!  ")
    assert game.explain_bids() == "Only Nil or three to five tricks here!"
    seat = game.to_act
    assert seat is not None
    assert game.view(seat).explain_bids() == "Only Nil or three to five tricks here!"


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (ValueError("boom"), "failed in explain_bids: ValueError('boom')"),
        (SystemExit(2), "failed in explain_bids"),
        (None, "explain_bids returned None, but legal_bids allows only Nil or 3-5"),
        (5, "explain_bids must return None or one sentence"),
        (b"Bytes are not text.", "explain_bids must return None or one sentence"),
        ("", "explain_bids must return None or one sentence"),
        ("   ", "explain_bids must return None or one sentence"),
        ("No full stop", "explain_bids must return None or one sentence"),
        ("Two lines.\nOf text.", "explain_bids must return None or one sentence"),
        ("A tab\tinside.", "explain_bids must return None or one sentence"),
        ("Long" + " long" * 100 + ".", "explain_bids must return None or one sentence"),
    ],
)
def test_a_broken_or_malformed_explanation_names_the_variant_and_the_hook(
    answer: object, words: str
) -> None:
    game = explaining(answer)
    seat = game.to_act
    assert seat is not None
    for ask in (game.explain_bids, game.view(seat).explain_bids):
        with pytest.raises(sc.VariantLoadError) as raised:
            ask()
        assert "variant 'explaining'" in str(raised.value)
        assert words in str(raised.value)
    # Nothing else is touched: the game still bids as before.
    assert game.legal_bids() == (0, 3, 4, 5)
    assert game.bid(3).bids[seat] == 3


def test_a_library_error_from_the_hook_passes_through_unchanged() -> None:
    error = sc.RulesError("this option set cannot explain its bids")
    game = explaining(error)
    with pytest.raises(sc.RulesError) as raised:
        game.explain_bids()
    assert raised.value is error


@pytest.mark.parametrize("base", [MirrorVariant, WhizVariant])
def test_a_subclass_bidding_otherwise_is_not_described_by_its_base(
    base: type[sc.Variant],
) -> None:
    class CountOrMore(base):  # type: ignore[valid-type,misc]
        def legal_bids(
            self, rules: sc.Rules, seat: Seat, hand: sc.CardSet, bids: Mapping[Seat, int]
        ) -> Iterable[int]:
            count = hand.count(Suit.SPADES)
            return (count, count + 1)

    variant = CountOrMore(id="count-or-more", title="Count Or More", options={})
    game = position(variant, ONE_SPADE_NORTH, [])
    assert game.explain_bids() == "The Count Or More rules allow you to bid only 1 or 2 here."


def test_a_plugin_without_explain_bids_gets_the_legal_bids_in_words() -> None:
    class Gapped(ClassicVariant):
        def legal_bids(
            self, rules: sc.Rules, seat: Seat, hand: sc.CardSet, bids: Mapping[Seat, int]
        ) -> Iterable[int]:
            return {0, 2, 3, 4, 9} if seat is Seat.NORTH else range(14)

    variant = Gapped(id="gapped", title="Gapped Spades", options={})
    game = sc.new_game(variant, seed=1, dealer=Seat.WEST).deal()
    assert (
        game.explain_bids() == "The Gapped Spades rules allow you to bid only Nil, 2-4 or 9 here."
    )
    assert game.bid(2).explain_bids() is None  # East: every bid is open
    assert checked_explain_bids(variant, variant.rules(), Seat.SOUTH, sc.CardSet(0), {}) is None


# -- the estimate's items, the twin the coach words it from ------------------------------


@given(card_sets(min_size=13, max_size=13))
def test_the_estimate_items_add_up_to_the_estimate_exactly(hand: sc.CardSet) -> None:
    total = 0.0
    for part in estimate_parts(hand.mask):
        assert part.value > 0
        if part.kind == "card":
            assert sc.Card.from_id(part.what) in hand
        elif part.kind == "length":
            assert part.what == hand.count(Suit.SPADES) - 3
        else:
            assert part.what
            for suit in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS):
                assert (part.what >> suit & 1) == (hand.count(suit) <= 2)
        total += part.value
    assert total == estimate_tricks(hand.mask)


# -- where players read the sentence ------------------------------------------------------


def test_spades_play_explains_a_limited_bid_at_the_prompt_and_when_refusing(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_play(
        monkeypatch, capsys, ["--variant", "mirror", "--seed", "4"], ["13", "quit"]
    )
    assert status == 0, err
    found = re.search(
        r"In Mirror Spades your bid is your spade count, and you hold (no spades|\d+ spades?), "
        r"so you must bid (Nil|\d+)\.",
        out,
    )
    assert found is not None, out
    sentence = found[0]
    assert f"{sentence}\nYour bid ({found[2]}): " in out
    assert found[2] != "13"
    assert f"You cannot bid 13. {sentence}" in out


def test_the_coachs_bid_rule_is_deprecated_for_view_explain_bids() -> None:
    mirror = position("mirror", ONE_SPADE_NORTH, []).view(Seat.NORTH)
    with pytest.warns(DeprecationWarning, match=r"View\.explain_bids"):
        assert tips.bid_rule(mirror) == mirror.explain_bids()
    open_bids = position("classic", ONE_SPADE_NORTH, []).view(Seat.NORTH)
    with pytest.warns(DeprecationWarning, match="bid_rule is deprecated"):
        assert tips.bid_rule(open_bids) == "Every bid from Nil to 13 is open to you."
