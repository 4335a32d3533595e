"""House-rule options (docs/rules.md, Options) for every variant: defaults, validation,
enum values, :meth:`Variant.derive`, and the other arguments of ``new_game``."""

from __future__ import annotations

import enum
import json

import pytest

import spades_core as sc
from spades_core import (
    BagOverflow,
    BreakRule,
    DoubleNil,
    FirstLead,
    NilTricks,
    Phase,
    RulesError,
    Seat,
    SpadesError,
    Suit,
)
from spades_core.values.options import STANDARD_OPTIONS
from spades_variants.whiz import WHIZ_NIL_NEEDS_NO_ACE

VARIANTS = ["classic", "mirror", "whiz"]

# docs/rules.md, Options, column by column. A missing key is "—": not an option there.
RULES_MD_DEFAULTS: dict[str, dict[str, object]] = {
    "classic": {
        "target_score": 500,
        "loss_floor": -200,
        "nil_value": 100,
        "nil_tricks": "count_toward_contract",
        "double_nil": "independent",
        "bag_limit": 10,
        "bag_penalty": 100,
        "bag_overflow": "carry",
        "break_rule": "offsuit_spade",
        "first_lead": "left_of_dealer",
        "max_team_bid": 13,
        "max_hands": None,
    },
    "mirror": {
        "target_score": 500,
        "loss_floor": None,
        "nil_value": 100,
        "nil_tricks": "bags_only",
        "double_nil": "independent",
        "bag_limit": 10,
        "bag_penalty": 100,
        "bag_overflow": "carry",
        "break_rule": "any_spade",
        "first_lead": "left_of_dealer",
        "max_hands": None,
    },
    "whiz": {
        "target_score": 500,
        "loss_floor": None,
        "nil_value": 100,
        "nil_tricks": "bags_only",
        "double_nil": "independent",
        "bag_limit": 10,
        "bag_penalty": 100,
        "bag_overflow": "carry",
        "break_rule": "any_spade",
        "first_lead": "left_of_dealer",
        "whiz_nil_needs_no_ace": False,
        "max_hands": None,
    },
}

# What each option accepts (docs/rules.md, Options, "values"), as the error messages say it.
ACCEPTS = {
    "target_score": "a whole number from 1 to 1,000,000",
    "loss_floor": "a whole number from -1,000,000 to -1, or None",
    "nil_value": "a whole number from 0 to 1,000,000",
    "nil_tricks": "one of 'count_toward_contract', 'bags_only', 'bags_with_points'",
    "double_nil": "one of 'independent', 'all_or_nothing', 'no_loss'",
    "bag_limit": "a whole number from 1 to 1,000, or None",
    "bag_penalty": "a whole number from 0 to 1,000,000",
    "bag_overflow": "one of 'carry', 'reset'",
    "break_rule": "one of 'offsuit_spade', 'any_spade'",
    "first_lead": "one of 'left_of_dealer', 'two_of_clubs'",
    "max_team_bid": "a whole number from 1 to 13, or None",
    "whiz_nil_needs_no_ace": "True or False",
    "max_hands": "a whole number from 1 to 1,000,000, or None",
}

# Values each option accepts, and values it must refuse (wrong type or out of range).
GOOD_VALUES: dict[str, list[object]] = {
    "target_score": [1, 250, 300, 500, 10_000, 1_000_000],
    "loss_floor": [-1, -200, -10_000, -1_000_000, None],
    "nil_value": [0, 50, 100, 200, 1_000_000],
    "nil_tricks": [*NilTricks, *(m.value for m in NilTricks)],
    "double_nil": [*DoubleNil, *(m.value for m in DoubleNil)],
    "bag_limit": [1, 5, 10, 1000, None],
    "bag_penalty": [0, 50, 100, 1_000_000],
    "bag_overflow": [*BagOverflow, *(m.value for m in BagOverflow)],
    "break_rule": [*BreakRule, *(m.value for m in BreakRule)],
    "first_lead": [*FirstLead, *(m.value for m in FirstLead)],
    "max_team_bid": [1, 7, 13, None],
    "whiz_nil_needs_no_ace": [True, False],
    "max_hands": [1, 50, 1_000_000, None],
}
BAD_VALUES: dict[str, list[object]] = {
    "target_score": [0, -500, 1_000_001, None, "500", 500.0, True, [500]],
    "loss_floor": [0, 1, 200, -1_000_001, "-200", -200.0, False],
    "nil_value": [-1, -100, 1_000_001, None, "100", 100.0, True],
    "nil_tricks": ["BAGS_ONLY", "bags only", "", None, 1, True, DoubleNil.NO_LOSS],
    "double_nil": ["none", "All_Or_Nothing", None, 0, NilTricks.BAGS_ONLY],
    "bag_limit": [0, -10, 1001, "10", 10.0, True],
    "bag_penalty": [-1, 1_000_001, None, "100", 1e2, False],
    "bag_overflow": ["wrap", "CARRY", None, 1],
    "break_rule": ["never", "any", None, True],
    "first_lead": ["2C", "dealer", None, 0],
    "max_team_bid": [0, 14, -1, "13", 13.0, True],
    "whiz_nil_needs_no_ace": [1, 0, "true", "True", None],
    "max_hands": [0, -1, 1_000_001, "5", 5.0, True],
}


def _variant_options() -> list[tuple[str, str]]:
    return [(v, name) for v in VARIANTS for name in RULES_MD_DEFAULTS[v]]


def _plain(value: object) -> object:
    return value.value if isinstance(value, enum.Enum) else value


# -- defaults ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_defaults_match_the_rules_md_table_exactly(variant: str) -> None:
    chosen = sc.load_variant(variant)
    assert set(chosen.option_specs) == set(RULES_MD_DEFAULTS[variant])
    assert {name: _plain(value) for name, value in chosen.defaults.items()} == (
        RULES_MD_DEFAULTS[variant]
    )
    rules = sc.new_game(variant, seed=1).rules
    for name, expected in RULES_MD_DEFAULTS[variant].items():
        assert _plain(rules.get(name)) == expected, name
        assert _plain(rules.get(name)) == expected, name
    assert rules.overrides == ()
    assert rules == chosen.rules()


def test_the_option_columns_differ_only_where_the_table_says() -> None:
    classic, mirror, whiz = (sc.load_variant(v) for v in VARIANTS)
    assert set(classic.option_specs) - set(mirror.option_specs) == {"max_team_bid"}
    assert set(whiz.option_specs) - set(mirror.option_specs) == {"whiz_nil_needs_no_ace"}
    assert dict(mirror.defaults) == {
        name: value for name, value in whiz.defaults.items() if name != "whiz_nil_needs_no_ace"
    }


@pytest.mark.parametrize("variant", VARIANTS)
def test_default_modes_are_enum_members(variant: str) -> None:
    rules = sc.load_variant(variant).rules()
    assert isinstance(rules.nil_tricks, NilTricks)
    assert isinstance(rules.double_nil, DoubleNil)
    assert isinstance(rules.bag_overflow, BagOverflow)
    assert isinstance(rules.break_rule, BreakRule)
    assert isinstance(rules.first_lead, FirstLead)


# -- accepted values --------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "option"), _variant_options())
def test_every_documented_value_is_accepted(variant: str, option: str) -> None:
    for value in GOOD_VALUES[option]:
        game = sc.new_game(variant, seed=1, dealer=None, **{option: value})
        assert _plain(game.rules.get(option)) == _plain(value)
        assert game.rules.overrides == ((option, game.rules.get(option)),)
        assert game.rules.overrides_json() == {option: _plain(value)}
        assert game.phase is Phase.DEAL


def test_string_modes_become_enum_members() -> None:
    rules = sc.load_variant("classic").rules(nil_tricks="bags_only", first_lead="two_of_clubs")
    assert rules.nil_tricks is NilTricks.BAGS_ONLY
    assert rules.first_lead is FirstLead.TWO_OF_CLUBS
    assert rules == sc.load_variant("classic").rules(
        nil_tricks=NilTricks.BAGS_ONLY, first_lead=FirstLead.TWO_OF_CLUBS
    )


def test_several_options_at_once() -> None:
    game = sc.new_game(
        "mirror",
        seed=1,
        target_score=250,
        loss_floor=-300,
        double_nil="no_loss",
        bag_limit=None,
        first_lead=FirstLead.TWO_OF_CLUBS,
    )
    rules = game.rules
    assert (rules.target_score, rules.loss_floor, rules.bag_limit) == (250, -300, None)
    assert rules.double_nil is DoubleNil.NO_LOSS
    assert rules.first_lead is FirstLead.TWO_OF_CLUBS
    assert rules.nil_tricks is NilTricks.BAGS_ONLY  # untouched default
    assert dict(rules.overrides).keys() == {
        "target_score",
        "loss_floor",
        "double_nil",
        "bag_limit",
        "first_lead",
    }


# -- refused values ------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "option"), _variant_options())
def test_wrong_type_or_range_is_a_rules_error_naming_option_and_values(
    variant: str, option: str
) -> None:
    for value in BAD_VALUES[option]:
        with pytest.raises(RulesError) as caught:
            sc.new_game(variant, seed=1, dealer=None, **{option: value})
        message = str(caught.value)
        assert repr(option) in message, value
        assert ACCEPTS[option] in message, value
        assert repr(value) in message, value
        assert isinstance(caught.value, SpadesError)
        assert isinstance(caught.value, ValueError)
        with pytest.raises(RulesError):
            sc.load_variant(variant).rules(**{option: value})


def test_a_refused_value_message_in_full() -> None:
    with pytest.raises(RulesError) as caught:
        sc.new_game("classic", target_score="500")
    assert str(caught.value) == (
        "option 'target_score' accepts a whole number from 1 to 1,000,000; got '500'"
    )


@pytest.mark.parametrize("option", ["target_score", "loss_floor", "nil_value", "bag_penalty"])
@pytest.mark.parametrize("sign", [1, -1])
def test_a_huge_value_is_refused_without_writing_it_out(option: str, sign: int) -> None:
    options: dict[str, object] = {option: sign * 10**4300}  # past what CPython formats
    with pytest.raises(RulesError) as caught:
        sc.new_game("classic", seed=1, dealer=None, **options)
    message = str(caught.value)
    assert message == (
        f"option {option!r} accepts {ACCEPTS[option]}; got an int of about 4301 digits"
    )


@pytest.mark.parametrize("option", ["target_score", "loss_floor", "nil_value", "bag_penalty"])
def test_points_options_reach_a_million_and_no_further(option: str) -> None:
    edge = -1_000_000 if option == "loss_floor" else 1_000_000
    at_edge: dict[str, object] = {option: edge}
    assert getattr(sc.new_game("classic", seed=1, dealer=None, **at_edge).rules, option) == edge
    beyond: dict[str, object] = {option: edge - 1 if edge < 0 else edge + 1}
    with pytest.raises(RulesError, match=f"'{option}' accepts .*1,000,000"):
        sc.new_game("classic", seed=1, dealer=None, **beyond)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", ["targetscore", "blind_nil", "Target_Score", "seedx", "extra"])
def test_an_unknown_option_is_a_rules_error_listing_the_options(variant: str, name: str) -> None:
    with pytest.raises(RulesError) as caught:
        sc.new_game(variant, seed=1, dealer=None, **{name: 1})
    message = str(caught.value)
    assert repr(name) in message
    assert "unknown option" in message
    for option in RULES_MD_DEFAULTS[variant]:
        assert option in message


@pytest.mark.parametrize(
    ("variant", "option", "value"),
    [
        ("mirror", "max_team_bid", 13),
        ("mirror", "max_team_bid", None),
        ("whiz", "max_team_bid", 10),
    ],
)
def test_an_option_of_another_variant_is_an_error_never_ignored(
    variant: str, option: str, value: object
) -> None:
    with pytest.raises(RulesError) as caught:
        sc.new_game(variant, seed=1, dealer=None, **{option: value})
    message = str(caught.value)
    assert f"option {option!r} does not apply to the {variant!r} variant" in message
    for supported in RULES_MD_DEFAULTS[variant]:
        assert supported in message


@pytest.mark.parametrize(("variant", "value"), [("classic", False), ("mirror", True)])
def test_the_whiz_ace_rule_is_whizs_own_option(variant: str, value: bool) -> None:
    with pytest.raises(RulesError, match="unknown option 'whiz_nil_needs_no_ace'"):
        sc.new_game(variant, seed=1, whiz_nil_needs_no_ace=value)
    whiz = sc.load_variant("whiz")
    assert whiz.option_specs["whiz_nil_needs_no_ace"] is WHIZ_NIL_NEEDS_NO_ACE
    assert "whiz_nil_needs_no_ace" not in STANDARD_OPTIONS
    assert whiz.rules().extra == (("whiz_nil_needs_no_ace", False),)
    assert whiz.rules(whiz_nil_needs_no_ace=True).get(WHIZ_NIL_NEEDS_NO_ACE) is True


def test_every_standard_option_is_in_the_rules_md_table() -> None:
    documented = set().union(*(set(d) for d in RULES_MD_DEFAULTS.values()))
    assert set(STANDARD_OPTIONS) | {WHIZ_NIL_NEEDS_NO_ACE.name} == documented == set(ACCEPTS)
    for name, spec in (
        *STANDARD_OPTIONS.items(),
        (WHIZ_NIL_NEEDS_NO_ACE.name, WHIZ_NIL_NEEDS_NO_ACE),
    ):
        assert spec.name == name
        assert spec.accepts == ACCEPTS[name]
        assert spec.summary


# -- option tables and Rules helpers ------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_option_table_lists_every_option_with_its_default(variant: str) -> None:
    table = sc.load_variant(variant).option_table()
    assert [row[0] for row in table] == list(sc.load_variant(variant).option_specs)
    for name, accepts, default, summary in table:
        assert accepts == ACCEPTS[name]
        assert _plain(default) == RULES_MD_DEFAULTS[variant][name]
        assert summary == STANDARD_OPTIONS.get(name, WHIZ_NIL_NEEDS_NO_ACE).summary


def test_rules_get_rejects_an_unknown_name() -> None:
    rules = sc.load_variant("classic").rules()
    with pytest.raises(RulesError, match="no option named 'nope'"):
        rules.get("nope")


# -- Variant.derive ---------------------------------------------------------------------


def test_derive_makes_a_new_variant_with_other_defaults() -> None:
    mirror = sc.load_variant("mirror")
    short = mirror.derive(id="mirror-250", title="Mirror to 250", target_score=250)
    assert (short.id, short.title, short.version) == ("mirror-250", "Mirror to 250", 1)
    assert short.defaults["target_score"] == 250
    assert short.rules().target_score == 250
    assert short.summary == mirror.summary
    # The original is untouched.
    assert mirror.defaults["target_score"] == 500
    assert mirror.id == "mirror"
    assert sc.load_variant("mirror") is mirror
    assert repr(short) == "<MirrorVariant 'mirror-250' v1>"


def test_derive_checks_and_converts_its_defaults() -> None:
    classic = sc.load_variant("classic")
    derived = classic.derive(nil_tricks="bags_with_points", version=2)
    assert derived.defaults["nil_tricks"] is NilTricks.BAGS_WITH_POINTS
    assert derived.version == 2
    assert derived.id == "classic"
    with pytest.raises(RulesError, match="'target_score' accepts"):
        classic.derive(id="x", target_score=0)
    with pytest.raises(RulesError, match="unknown option 'whiz_nil_needs_no_ace'"):
        classic.derive(id="x", whiz_nil_needs_no_ace=True)
    with pytest.raises(RulesError, match="does not apply to the 'mirror' variant"):
        sc.load_variant("mirror").derive(id="x", max_team_bid=9)
    with pytest.raises(RulesError, match="unknown option 'nope'"):
        classic.derive(id="x", nope=1)
    with pytest.raises(RulesError, match="variant id"):
        classic.derive(id="Not An Id")


def test_derived_variant_keeps_its_bidding_behaviour_and_plays() -> None:
    mirror_like = sc.load_variant("mirror").derive(id="mirror-short", target_score=100)
    game = sc.new_game(mirror_like, seed=4).deal()
    assert game.variant is mirror_like
    while game.phase is Phase.BID:
        assert game.to_act is not None
        assert game.legal_bids() == (game.hand(game.to_act).count(Suit.SPADES),)
        game = game.apply(game.legal_actions()[0])
    whiz_strict = sc.load_variant("whiz").derive(id="whiz-strict", whiz_nil_needs_no_ace=True)
    game = sc.new_game(whiz_strict, seed=4, dealer=Seat.WEST).deal(
        {
            Seat.NORTH: "AS 2S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
            Seat.EAST: "KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
            Seat.SOUTH: "3S 4S 5S 6S KD AD 2H 3H 4H 5H 6H 7H 8H",
            Seat.WEST: "7S 8S 9S TS JS QS KS 9H TH JH QH KH AH",
        }
    )
    assert game.legal_bids() == (2,)  # holds the A♠: no Nil by the derived default
    # A game option still overrides the derived default.
    relaxed = sc.new_game(whiz_strict, seed=4, dealer=Seat.WEST, whiz_nil_needs_no_ace=False)
    assert relaxed.rules.get(WHIZ_NIL_NEEDS_NO_ACE) is False


def test_derived_variant_refuses_options_it_does_not_have() -> None:
    derived = sc.load_variant("mirror").derive(id="mirror-x")
    with pytest.raises(RulesError, match="does not apply to the 'mirror-x' variant"):
        sc.new_game(derived, max_team_bid=13)


def test_variants_are_immutable() -> None:
    classic = sc.load_variant("classic")
    with pytest.raises(AttributeError, match="derive"):
        classic.id = "other"
    with pytest.raises(TypeError):
        classic.defaults["target_score"] = 100  # type: ignore[index]


# -- seed and dealer ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2**32, 2**64 - 1])
def test_seeds_in_range_are_kept(seed: int) -> None:
    assert sc.new_game("classic", seed=seed).seed == seed


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_a_seed_out_of_range_is_a_rules_error(seed: int) -> None:
    with pytest.raises(RulesError, match=r"seed must be a whole number from 0 to 2\*\*64-1"):
        sc.new_game("classic", seed=seed)


@pytest.mark.parametrize("seed", [1.5, 7.0, "7", True, [7]])
def test_a_seed_that_is_not_a_whole_number_is_an_argument_type_error(seed: object) -> None:
    with pytest.raises(sc.ArgumentTypeError, match="new_game: seed must be a whole number"):
        sc.new_game("classic", seed=seed)  # type: ignore[arg-type]


def test_no_seed_draws_one_and_keeps_it() -> None:
    game = sc.new_game("classic")
    assert 0 <= game.seed < 2**64
    again = sc.new_game("classic", seed=game.seed, dealer=game.first_dealer)
    assert again.deal() == sc.new_game("classic", seed=game.seed).deal()
    assert again.deal().hand(Seat.NORTH) == game.deal().hand(Seat.NORTH)


@pytest.mark.parametrize(
    ("dealer", "expected"),
    [
        (Seat.EAST, Seat.EAST),
        ("N", Seat.NORTH),
        ("s", Seat.SOUTH),
        ("west", Seat.WEST),
        ("EAST", Seat.EAST),
    ],
)
def test_dealer_is_a_seat_or_its_name(dealer: Seat | str, expected: Seat) -> None:
    game = sc.new_game("whiz", seed=1, dealer=dealer)
    assert game.dealer is expected
    assert game.first_dealer is expected
    assert game.deal().to_act is expected.next


@pytest.mark.parametrize("dealer", ["X", "", "NW", 5, 0])
def test_a_bad_dealer_is_a_seat_that_cannot_be_read(dealer: object) -> None:
    with pytest.raises(sc.InvalidNotationError, match="new_game: dealer: not a seat"):
        sc.new_game("classic", seed=1, dealer=dealer)  # type: ignore[arg-type]


def test_an_unknown_variant_lists_the_installed_ones() -> None:
    with pytest.raises(sc.VariantNotFoundError) as caught:
        sc.new_game("no-such-variant")
    assert isinstance(caught.value, LookupError)
    for variant in VARIANTS:
        assert variant in str(caught.value)


@pytest.mark.parametrize("value", [2**40, 1_000_001, -5])
def test_a_record_with_an_option_out_of_range_is_refused(value: int) -> None:
    record = json.loads(sc.dumps(sc.new_game("classic", seed=1)))
    record["options"] = {"nil_value": value}
    with pytest.raises(sc.RecordFormatError) as caught:
        sc.loads(json.dumps(record))
    assert caught.value.reason == "bad_option"
    message = str(caught.value)
    assert "'nil_value' accepts a whole number from 0 to 1,000,000" in message
    assert len(message) < 200


def test_a_number_options_bounds_are_what_it_checks() -> None:
    specs = {
        (variant.id, spec.name): spec
        for variant in (sc.load_variant(name) for name in sc.available_variants())
        for spec in variant.option_specs.values()
    }
    numbers = 0
    for spec in specs.values():

        def takes(value: object, spec: sc.OptionSpec[object] = spec) -> bool:
            try:
                spec.check(value)
            except sc.RulesError:
                return False
            return True

        if spec.minimum is None or spec.maximum is None:
            assert spec.minimum is None
            assert spec.maximum is None
            assert not takes(12345) or spec.values is None
            continue
        numbers += 1
        low, high = spec.minimum, spec.maximum
        assert takes(low)
        assert takes(high)
        assert not takes(low - 1)
        assert not takes(high + 1)
        assert takes(None) is spec.allows_none
        assert f"from {low:,} to {high:,}" in spec.accepts
    assert numbers >= 5
