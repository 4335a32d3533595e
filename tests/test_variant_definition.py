"""Defining a variant: the checks :class:`spades_core.Variant` makes on a
plugin's definition, so a malformed variant fails when it is created rather
than in the middle of a game."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

import spades_core as sc
from spades_variants.classic import ClassicVariant


def make(**changes: object) -> sc.Variant:
    arguments: dict[str, object] = {
        "id": "probe",
        "title": "Probe",
        "options": ["target_score"],
        "defaults": {"target_score": 100},
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
        Silent(id="silent", title="Silent", options=[], defaults={})


def test_an_option_listed_twice_is_rejected() -> None:
    with pytest.raises(sc.RulesError, match="'target_score' twice"):
        make(options=["target_score", "target_score"])


def test_an_unknown_option_or_a_missing_default_is_rejected() -> None:
    with pytest.raises(sc.RulesError, match="unknown option 'no_such_option'"):
        make(options=["no_such_option"], defaults={})
    with pytest.raises(sc.RulesError, match="no default for nil_value"):
        make(options=["target_score", "nil_value"])


def test_variants_are_immutable_and_derive_keeps_the_class() -> None:
    class Fixed(sc.Variant):
        def legal_bids(
            self, rules: sc.Rules, seat: sc.Seat, hand: sc.CardSet, bids: Mapping[sc.Seat, int]
        ) -> tuple[int, ...]:
            return (3,)

    fixed = Fixed(id="fixed", title="Fixed", options=["target_score"], defaults={"target_score": 9})
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
    variant = AtLeastHundred(
        id="hundred", title="Hundred", options=["target_score"], defaults={"target_score": 200}
    )
    assert sc.new_game(variant, seed=1, target_score=150).rules.target_score == 150
    with pytest.raises(sc.RulesError, match="at least 100"):
        sc.new_game(variant, seed=1, target_score=50)
    with pytest.raises(sc.RulesError, match="at least 100"):
        variant.derive(target_score=50)
    with pytest.raises(sc.RulesError, match="at least 100"):
        AtLeastHundred(
            id="low", title="Low", options=["target_score"], defaults={"target_score": 10}
        )
