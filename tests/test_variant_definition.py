"""Defining a variant: the checks :class:`spades_core.Variant` makes on a
plugin's definition, so a malformed variant fails when it is created rather
than in the middle of a game."""

from __future__ import annotations

import pickle
from collections.abc import Mapping

import pytest

import spades_core as sc
from spades_core.values.options import STANDARD_OPTIONS, bool_option, choice_option, int_option
from spades_variants.classic import ClassicVariant


def make(**changes: object) -> sc.Variant:
    arguments: dict[str, object] = {
        "id": "probe",
        "title": "Probe",
        "options": {"target_score": 100},
        **changes,
    }
    return ClassicVariant(**arguments)  # type: ignore[arg-type]


def test_a_well_formed_variant_is_accepted() -> None:
    variant = make(version=3, summary="A probe.")
    assert (variant.id, variant.version, variant.title) == ("probe", 3, "Probe")


@pytest.mark.parametrize("version", [0, -1, True, 1.0, "1"])
def test_variant_version_must_be_a_positive_whole_number(version: object) -> None:
    with pytest.raises(sc.RulesError, match="version must be a whole number"):
        make(version=version)


@pytest.mark.parametrize("title", ["", "   ", None])
def test_variant_title_must_be_a_non_empty_string(title: object) -> None:
    with pytest.raises(sc.RulesError, match="title must be a non-empty string"):
        make(title=title)


def test_variant_summary_must_be_a_string() -> None:
    with pytest.raises(sc.RulesError, match="summary must be a string"):
        make(summary=None)


@pytest.mark.parametrize("bad_id", ["Classic", "1up", "", "has space", "x" * 41])
def test_variant_id_must_be_a_short_lowercase_name(bad_id: str) -> None:
    with pytest.raises(sc.RulesError, match="variant id"):
        make(id=bad_id)


def test_a_variant_that_does_not_define_legal_bids_is_rejected() -> None:
    class Silent(sc.Variant):
        pass

    with pytest.raises(sc.RulesError, match="Silent must override legal_bids"):
        Silent(id="silent", title="Silent", options={})


def test_an_option_listed_twice_is_rejected() -> None:
    spec = STANDARD_OPTIONS["target_score"]
    with pytest.raises(sc.RulesError, match="'target_score' twice"):
        make(options={"target_score": 100, spec: 200})
    tax = int_option("tax", "a tax")
    with pytest.raises(sc.RulesError, match="'tax' twice"):
        make(options={tax: 1, int_option("tax", "another tax"): 2})


def test_an_unknown_option_is_rejected() -> None:
    with pytest.raises(sc.RulesError, match="unknown option 'no_such_option'"):
        make(options={"no_such_option": 1})
    with pytest.raises(sc.RulesError, match="standard option's name or an OptionSpec; got 7"):
        make(options={7: 1})


@pytest.mark.parametrize("options", [["target_score"], ("target_score", 100), "target_score", None])
def test_options_must_map_each_option_to_its_default(options: object) -> None:
    with pytest.raises(sc.RulesError, match="options must map each option to its default"):
        make(options=options)


def test_each_default_is_checked_by_its_option() -> None:
    with pytest.raises(sc.RulesError, match="'target_score' accepts a whole number from 1"):
        make(options={"target_score": 0})
    with pytest.raises(sc.RulesError, match="'tax' accepts a whole number from 0 to 9"):
        make(options={int_option("tax", "a tax", minimum=0, maximum=9): 10})


def test_a_standard_option_is_listed_by_name_not_redefined() -> None:
    own = int_option("target_score", "a target of my own", minimum=1, maximum=50)
    with pytest.raises(sc.RulesError, match="'target_score' is a standard option; list it by name"):
        make(options={own: 10})


@pytest.mark.parametrize(
    "name", ["seed", "dealer", "variant", "id", "title", "version", "summary", "drop"]
)
def test_an_option_may_not_take_the_name_of_a_keyword(name: str) -> None:
    with pytest.raises(sc.RulesError, match=f"option name '{name}' must be"):
        make(options={bool_option(name, "a flag"): False})


@pytest.mark.parametrize("name", ["Tax", "2x", "with space", "dash-ed", "", "t" * 41])
def test_an_option_name_is_a_short_lowercase_identifier(name: str) -> None:
    with pytest.raises(sc.RulesError, match="must be lowercase letters, digits and '_'"):
        make(options={bool_option(name, "a flag"): False})


def test_a_phase_s_title_is_its_name_in_words_unless_given() -> None:
    assert sc.HandPhase("blind_nil", sc.Where.BEFORE_BIDDING).title == "Blind nil"
    assert sc.HandPhase("swap", sc.Where.AFTER_BIDDING, "Swap a card").title == "Swap a card"
    assert sc.HandPhase("swap", sc.Where.AFTER_BIDDING) != sc.HandPhase(
        "swap", sc.Where.AFTER_BIDDING, "Swap a card"
    )


@pytest.mark.parametrize("title", ["", "   ", 7, b"Swap", "t" * 41])
def test_a_phase_s_title_is_short_text(title: object) -> None:
    with pytest.raises(sc.RulesError, match="phase 'swap': title must be text of 1 to 40"):
        sc.HandPhase("swap", sc.Where.AFTER_BIDDING, title)  # type: ignore[arg-type]


def test_max_hands_is_an_option_of_every_variant() -> None:
    variant = make(options={"target_score": 100})
    assert list(variant.option_specs) == ["target_score", "max_hands"]
    assert variant.defaults["max_hands"] is None
    assert sc.new_game(variant, seed=1, max_hands=3).rules.max_hands == 3
    limited = make(options={"target_score": 100, "max_hands": 8})
    assert limited.rules().max_hands == 8
    with pytest.raises(sc.RulesError, match="'max_hands' belongs to every variant"):
        limited.derive(drop=["max_hands"])


def test_an_option_of_the_variant_s_own_is_read_with_its_type() -> None:
    tax = int_option("tax", "points each team pays every hand", minimum=0, maximum=100)
    strict = bool_option("strict", "a flag")
    mode = choice_option("mode", "a mode", sc.NilTricks)
    variant = make(options={"target_score": 100, tax: 5, strict: False, mode: "bags_only"})
    rules = sc.new_game(variant, seed=1, tax=20, strict=True).rules
    taxed: int = rules.get(tax)
    flag: bool = rules.get(strict)
    chosen: sc.NilTricks = rules.get(mode)
    assert (taxed, flag, chosen) == (20, True, sc.NilTricks.BAGS_ONLY)
    assert rules.get("tax") == 20
    assert rules.get(STANDARD_OPTIONS["target_score"]) == 100
    with pytest.raises(sc.RulesError, match="no option named 'other'"):
        rules.get(int_option("other", "not an option of this variant"))


def test_derive_drops_options() -> None:
    classic = sc.load_variant("classic")
    plain = classic.derive(id="plain", drop=["double_nil", "max_team_bid"], target_score=300)
    assert set(plain.option_specs) == set(classic.option_specs) - {"double_nil", "max_team_bid"}
    assert plain.defaults["target_score"] == 300
    assert plain.rules().max_team_bid is None  # the neutral value: no cap
    game = sc.new_game(plain, seed=2).deal()
    assert game.legal_bids() == tuple(range(14))
    with pytest.raises(sc.RulesError, match="'double_nil' does not apply to the 'plain' variant"):
        sc.new_game(plain, double_nil="no_loss")
    with pytest.raises(sc.RulesError, match="both dropped and given a default"):
        classic.derive(drop=["double_nil"], double_nil="no_loss")
    with pytest.raises(sc.RulesError, match="unknown option 'nope'"):
        classic.derive(drop=["nope"])
    with pytest.raises(sc.RulesError, match="drop must be a list of option names"):
        classic.derive(drop="double_nil")
    with pytest.raises(sc.RulesError, match="drop must be a list of option names"):
        classic.derive(drop=[["double_nil"]])  # type: ignore[list-item]
    assert "double_nil" in classic.option_specs  # the original is untouched


def test_variants_are_immutable_and_derive_keeps_the_class() -> None:
    class Fixed(sc.Variant):
        def legal_bids(
            self, rules: sc.Rules, seat: sc.Seat, hand: sc.CardSet, bids: Mapping[sc.Seat, int]
        ) -> tuple[int, ...]:
            return (3,)

    fixed = Fixed(id="fixed", title="Fixed", options={"target_score": 9})
    with pytest.raises(AttributeError, match="immutable"):
        fixed.id = "other"
    short = fixed.derive(id="fixed-short", target_score=5)
    assert type(short) is Fixed
    assert (short.id, short.defaults["target_score"], fixed.defaults["target_score"]) == (
        "fixed-short",
        5,
        9,
    )
    assert sc.new_game(short, seed=1).deal().legal_bids() == (3,)


class AtLeastHundred(ClassicVariant):
    def check_rules(self, rules: sc.Rules) -> None:
        if rules.target_score < 100:
            raise sc.RulesError("option 'target_score' must be at least 100 here")


def test_check_rules_refuses_option_combinations_the_variant_cannot_play() -> None:
    variant = AtLeastHundred(id="hundred", title="Hundred", options={"target_score": 200})
    assert sc.new_game(variant, seed=1, target_score=150).rules.target_score == 150
    with pytest.raises(sc.RulesError, match="at least 100"):
        sc.new_game(variant, seed=1, target_score=50)
    with pytest.raises(sc.RulesError, match="at least 100"):
        variant.derive(target_score=50)
    with pytest.raises(sc.RulesError, match="at least 100"):
        AtLeastHundred(id="low", title="Low", options={"target_score": 10})


def test_a_variant_derived_without_an_option_pickles_to_the_same_rules() -> None:
    plain = sc.load_variant("classic").derive(id="plain", drop=["double_nil"], target_score=300)
    game = sc.new_game(plain, seed=3).deal()
    again = pickle.loads(pickle.dumps(game))
    assert again.variant.option_specs.keys() == plain.option_specs.keys()
    assert again.rules == game.rules
    assert again.legal_bids() == game.legal_bids()


@pytest.mark.parametrize("name", ["self", "overrides", "defaults"])
def test_an_option_named_like_a_parameter_is_an_unknown_option(name: str) -> None:
    classic = sc.load_variant("classic")
    options: dict[str, object] = {name: 1}
    with pytest.raises(sc.RulesError, match=f"unknown option '{name}' for 'classic'"):
        classic.rules(**options)
    with pytest.raises(sc.RulesError, match=f"unknown option '{name}' for 'classic'"):
        classic.derive(**options)  # type: ignore[arg-type]
    with pytest.raises(sc.RulesError, match=f"unknown option '{name}' for 'classic'"):
        sc.new_game("classic", seed=1, dealer=None, **options)
