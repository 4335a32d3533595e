"""The public calls of ``spades_core.batch`` check their arrays: any shape,
dtype or value they do not take (floats, NaN, booleans, objects, text,
ragged lists, numbers past 64 bits, masks past 52 bits, bids of 14, seats
of 4) raises a ``SpadesError`` subclass naming the call and the argument,
never numpy's or Python's own exceptions, and changes nothing it was
given. Fuzzed with Hypothesis, and one test per kind of mistake."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import spades_core as sc
from spades_core import batch

pytestmark = pytest.mark.integration("batch")

CLASSIC = sc.load_variant("classic")
RULES = CLASSIC.rules()
MIRROR = sc.load_variant("mirror")
untyped: Any = batch
"""The module, for calls with arguments of the wrong types on purpose."""

# -- what is drawn ------------------------------------------------------------------

_HUGE = 10**30
_DTYPES: list[Any] = [
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.float16,
    np.float64,
    np.bool_,
    np.complex128,
    np.dtype("U3"),
    np.dtype("S2"),
    np.dtype("datetime64[s]"),
]


def _numeric_arrays(shape: st.SearchStrategy[tuple[int, ...]]) -> st.SearchStrategy[Any]:
    return st.sampled_from(_DTYPES).flatmap(lambda dtype: hnp.arrays(dtype, shape))


def _object_arrays(shape: st.SearchStrategy[tuple[int, ...]]) -> st.SearchStrategy[Any]:
    elements = st.one_of(st.integers(-(2**70), 2**70), st.none(), st.text(max_size=3), st.floats())
    return hnp.arrays(np.dtype(object), shape, elements=elements)


def arrays_of(shape: st.SearchStrategy[tuple[int, ...]]) -> st.SearchStrategy[Any]:
    """Arrays of every kind of dtype and value (NaN, infinities, huge and
    negative numbers included) of the shapes ``shape`` draws."""
    return st.one_of(_numeric_arrays(shape), _object_arrays(shape))


def integer_arrays(shape: st.SearchStrategy[tuple[int, ...]]) -> st.SearchStrategy[Any]:
    """Whole-number arrays of the shapes ``shape`` draws, of values the calls
    take and values they do not (so that the drawing reaches every check)."""
    values = st.one_of(
        st.integers(-2, 14), st.integers(0, (1 << 52) - 1), st.integers(-(2**63), 2**63 - 1)
    )
    signed = hnp.arrays(np.int64, shape, elements=values)
    unsigned = hnp.arrays(np.uint64, shape, elements=st.integers(0, 2**64 - 1))
    small = hnp.arrays(np.int8, shape, elements=st.integers(-2, 14))
    return st.one_of(signed, unsigned, small)


ANY_SHAPE = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)
ROWS = st.integers(0, 4).map(lambda n: (n,))
TABLE = st.integers(0, 4).flatmap(lambda n: st.sampled_from([(n, 4), (n, 2), (n,), (n, 4, 1)]))

values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([3, 13, 14, 51, 52, -1]),
    st.sampled_from([1, -1]).map(lambda sign: sign * 10**5000),  # past what str() writes
    st.floats(),
    st.text(max_size=5),
    st.binary(max_size=5),
    st.lists(st.integers(-5, 20), max_size=5),
    st.lists(st.lists(st.integers(0, 3), max_size=3), max_size=3),  # ragged, often
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.sampled_from([sc.Suit.SPADES, sc.Card.parse("AS"), sc.Seat.NORTH, RULES, CLASSIC, object()]),
    st.sampled_from([np.int64(3), np.float64("nan"), np.uint64(2**63), np.bool_(True)]),
)
"""Values that are not arrays at all, or that numpy turns into odd ones."""


def argument(shape: st.SearchStrategy[tuple[int, ...]]) -> st.SearchStrategy[Any]:
    """An argument for an array parameter: any value, any array, or a
    whole-number array of about the right shape."""
    return st.one_of(values, arrays_of(ANY_SHAPE), arrays_of(shape), integer_arrays(shape))


rules_arguments = st.one_of(st.just(RULES), st.just(MIRROR.rules()), values)
variant_arguments = st.one_of(st.sampled_from([CLASSIC, MIRROR]), values)


def _forms(variant: object) -> Any:
    return batch.BaseArrayForms(variant)  # type: ignore[arg-type]


def _checked(variant: object) -> Any:
    return batch.CheckedForms(variant, batch.array_forms_of(CLASSIC))  # type: ignore[arg-type]


def _tables() -> Any:
    return batch.Tables("classic", 3, seed=5)


CALLS: dict[str, tuple[Callable[..., Any], list[st.SearchStrategy[Any]]]] = {
    "suit_counts": (batch.suit_counts, [argument(ANY_SHAPE), values]),
    "holds": (batch.holds, [argument(ANY_SHAPE), values]),
    "bid_masks": (batch.bid_masks, [argument(ANY_SHAPE)]),
    "bid_masks(low, high)": (batch.bid_masks, [argument(ANY_SHAPE), argument(ANY_SHAPE)]),
    "partner_bids": (batch.partner_bids, [argument(TABLE), argument(ROWS)]),
    "score_hands": (
        batch.score_hands,
        [rules_arguments, argument(TABLE), argument(TABLE), argument(TABLE)],
    ),
    "array_forms_of": (batch.array_forms_of, [variant_arguments]),
    "BaseArrayForms": (batch.BaseArrayForms, [variant_arguments]),
    "BaseArrayForms.legal_bids": (
        lambda *a: _forms(CLASSIC).legal_bids(*a),
        [rules_arguments, argument(ROWS), argument(ROWS), argument(TABLE)],
    ),
    "BaseArrayForms.revealed_spade_counts": (
        lambda *a: _forms(MIRROR).revealed_spade_counts(*a),
        [rules_arguments, argument(TABLE)],
    ),
    "BaseArrayForms.score_hands": (
        lambda *a: _forms(CLASSIC).score_hands(*a),
        [rules_arguments, argument(TABLE), argument(TABLE), argument(TABLE)],
    ),
    "BaseArrayForms.game_outcomes": (
        lambda *a: _forms(CLASSIC).game_outcomes(*a),
        [rules_arguments, argument(TABLE)],
    ),
    "CheckedForms": (
        batch.CheckedForms,
        [variant_arguments, st.one_of(values, st.just(batch.array_forms_of(CLASSIC)))],
    ),
    "CheckedForms.legal_bids": (
        lambda *a: _checked(CLASSIC).legal_bids(*a),
        [rules_arguments, argument(ROWS), argument(ROWS), argument(TABLE)],
    ),
    "CheckedForms.revealed_spade_counts": (
        lambda *a: _checked(CLASSIC).revealed_spade_counts(*a),
        [rules_arguments, argument(TABLE)],
    ),
    "CheckedForms.check_revealed_against_deal": (
        lambda *a: _checked(CLASSIC).check_revealed_against_deal(*a),
        [rules_arguments, argument(TABLE), argument(TABLE)],
    ),
    "CheckedForms.score_hands": (
        lambda *a: _checked(CLASSIC).score_hands(*a),
        [rules_arguments, argument(TABLE), argument(TABLE), argument(TABLE)],
    ),
    "CheckedForms.game_outcomes": (
        lambda *a: _checked(CLASSIC).game_outcomes(*a),
        [rules_arguments, argument(TABLE)],
    ),
    "Tables": (
        lambda n, seed, episode: batch.Tables("mirror", n, seed=seed, episode=episode),
        [
            st.one_of(st.integers(-2, 4), values),
            st.one_of(st.integers(0, 9), values),
            st.one_of(st.sampled_from(["hand", "game"]), values, arrays_of(ANY_SHAPE)),
        ],
    ),
    "Tables.step": (lambda a: _tables().step(a), [argument(ROWS)]),
    "Tables.observe": (lambda a: _tables().observe(a), [argument(ROWS)]),
    "Tables.random_actions": (lambda a: _tables().random_actions(a), [values]),
    "play_hands": (
        lambda seeds, bids: batch.play_hands("mirror", seeds, bids=bids, policy="lowest"),
        [argument(ROWS), st.one_of(st.none(), argument(TABLE))],
    ),
}
"""Every public call of the batch engine that takes an array, with a
strategy for each of its arguments."""


def picture(value: object) -> object:
    """What a call must leave as it was: an array's dtype, shape and bytes."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "O":
            return ("O", value.shape, repr(value.tolist()))
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, list):
        return repr(value)
    return None


@pytest.mark.parametrize("name", sorted(CALLS))
@settings(
    max_examples=min(150, 4 * settings().max_examples),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=list(HealthCheck),
    deadline=None,
)
@given(data=st.data())
def test_only_spades_errors_escape_the_batch_engine_and_nothing_changes(
    name: str, data: st.DataObject
) -> None:
    call, strategies = CALLS[name]
    given_values = [
        data.draw(strategy, label=f"argument {i}") for i, strategy in enumerate(strategies)
    ]
    before = [picture(value) for value in given_values]
    message = None
    try:
        call(*given_values)
    except sc.SpadesError as error:
        message = str(error)
    assert message is None or 0 < len(message) < 600, message
    assert [picture(value) for value in given_values] == before


# -- one test per kind of mistake ------------------------------------------------------


def test_tables_refuse_an_episode_that_is_an_array_as_a_wrong_type() -> None:
    with pytest.raises(sc.ArgumentTypeError, match="episode must be 'hand' or 'game'"):
        batch.Tables("classic", 2, episode=np.array([1, 2]))  # type: ignore[arg-type]
    with pytest.raises(sc.RulesError, match="episode must be 'hand' or 'game'"):
        batch.Tables("classic", 2, episode="season")


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: batch.suit_counts(np.array([np.nan]), 0), sc.ArgumentTypeError, "hands must be"),
        (lambda: batch.suit_counts(np.array([1.0]), 0), sc.ArgumentTypeError, "float64"),
        (lambda: batch.suit_counts(np.array([True]), 0), sc.ArgumentTypeError, "bool"),
        (
            lambda: batch.suit_counts(np.array([_HUGE], dtype=object), 0),
            sc.ArgumentTypeError,
            "object",
        ),
        (lambda: untyped.suit_counts([[1], [1, 2]], 0), sc.ArgumentTypeError, "a list"),
        (lambda: untyped.suit_counts("AS", 0), sc.ArgumentTypeError, "hands must be"),
        (lambda: batch.suit_counts(np.array([1 << 52]), 0), sc.RulesError, "52-bit card masks"),
        (lambda: batch.suit_counts(np.array([-1]), 0), sc.RulesError, "the entry at 0 is -1"),
        (lambda: batch.suit_counts(np.array([1]), 4), sc.RulesError, "suit must be a Suit"),
        (lambda: untyped.suit_counts(np.array([1]), 1.0), sc.ArgumentTypeError, "suit must be"),
        (lambda: batch.suit_counts(np.array([1]), True), sc.ArgumentTypeError, "suit must be"),
        (
            lambda: batch.holds(np.array([1]), 52),
            sc.RulesError,
            "card must be a Card or its number 0-51",
        ),
        (lambda: batch.holds(np.array([1]), 10**5000), sc.RulesError, "about 5001 digits"),
        (lambda: untyped.holds(np.array([1]), "AS"), sc.ArgumentTypeError, "card must be"),
        (lambda: batch.bid_masks(14), sc.RulesError, "lowest must hold bids"),
        (
            lambda: batch.bid_masks(np.array([0, 1]), np.array([1, 2, 3])),
            sc.RulesError,
            "broadcast",
        ),
        (lambda: batch.bid_masks(0, -2), sc.RulesError, "highest must hold bids"),
        (lambda: batch.bid_masks(np.array([0.5])), sc.ArgumentTypeError, "lowest must be"),
        (
            lambda: batch.partner_bids(np.zeros((3, 4), np.int8), np.array([0, 1])),
            sc.RulesError,
            r"seats must have the shape \(3,\)",
        ),
        (
            lambda: batch.partner_bids(np.zeros((3, 5), np.int8), np.zeros(3, np.int8)),
            sc.RulesError,
            r"bids must have the shape \(n, 4\)",
        ),
        (
            lambda: batch.partner_bids(np.full((1, 4), 14), np.zeros(1, np.int8)),
            sc.RulesError,
            "bids must hold bids",
        ),
        (
            lambda: batch.partner_bids(np.zeros((1, 4), np.int8), np.array([4])),
            sc.RulesError,
            "seats must hold seat numbers",
        ),
        (
            lambda: batch.score_hands(None, *_hand(), np.zeros((1, 2), np.int64)),  # type: ignore[arg-type]
            sc.ArgumentTypeError,
            "rules must be the Rules of a variant",
        ),
        (
            lambda: batch.score_hands(RULES, _hand()[0], np.full((1, 4), 3), _no_bags()),
            sc.RulesError,
            "the tricks of a hand add up to 13; row 0 has 12",
        ),
        (
            lambda: batch.score_hands(RULES, *_hand(), np.full((1, 2), 2**62)),
            sc.RulesError,
            "bags_before must hold bags",
        ),
        (
            lambda: untyped.score_hands(RULES, *_hand(), np.zeros((1, 2))),
            sc.ArgumentTypeError,
            "bags_before must be",
        ),
        (
            lambda: untyped.array_forms_of("classic"),
            sc.ArgumentTypeError,
            "variant must be a Variant",
        ),
        (lambda: batch.CheckedForms(CLASSIC, None), sc.ArgumentTypeError, "forms must be"),  # type: ignore[arg-type]
        (
            lambda: _tables().step(np.array([2**63, 0, 0], dtype=np.uint64)),
            sc.IllegalActionError,
            "9223372036854775808 is not an action id",
        ),
        (lambda: _tables().step([[1], [1, 2]]), sc.IllegalActionError, "step needs 3"),
        (lambda: _tables().observe([[0], [1, 2]]), sc.ArgumentTypeError, "seats must be"),
        (lambda: _tables().observe(2.0), sc.ArgumentTypeError, "seats must be"),
    ],
)
def test_each_kind_of_bad_array_raises_its_own_error(
    call: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        call()


def _hand() -> tuple[Any, Any]:
    """The bids and tricks of one finished hand."""
    return np.array([[3, 4, 3, 3]]), np.array([[3, 4, 3, 3]])


def _no_bags() -> Any:
    return np.zeros((1, 2), np.int64)


def test_the_helpers_still_answer_what_they_answered() -> None:
    hands = np.array([sc.CardSet.parse("AS KS 2C").mask, 0], dtype=np.uint64)
    assert batch.suit_counts(hands, sc.Suit.SPADES).tolist() == [2, 0]
    assert batch.suit_counts(hands.astype(np.int64), 0).tolist() == [1, 0]
    assert batch.holds(hands, sc.Card.parse("KS")).tolist() == [True, False]
    assert untyped.holds(hands, np.int8(0)).tolist() == [True, False]
    assert batch.bid_masks(0, 13).tolist() == (1 << 14) - 1
    assert batch.bid_masks(3, -1).tolist() == 0
    assert untyped.bid_masks([0, 2], [[1], [2]]).tolist() == [[3, 0], [7, 4]]
    bids = np.array([[1, -1, 4, -1]], dtype=np.int8)
    assert batch.partner_bids(bids, np.array([0])).tolist() == [4]
    assert untyped.partner_bids(bids, [1]).tolist() == [-1]
    points, bags = batch.score_hands(RULES, *_hand(), np.zeros((1, 2), np.int64))
    assert points.tolist() == [[60, 70]]
    assert bags.tolist() == [[0, 0]]
