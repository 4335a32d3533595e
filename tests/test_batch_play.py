"""batch.play_hands: arguments, policies, bids, chunks, memory and plugin variants."""

from __future__ import annotations

import tracemalloc
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import spades_core as sc
from spades_core import batch
from spades_core.batch import Decision

pytestmark = pytest.mark.integration("batch")


def test_random_policy_plays_legal_complete_hands() -> None:
    result = batch.play_hands("classic", range(5000), rng=1)
    assert result.hands.shape == (5000, 4, 13)
    assert (result.tricks.sum(axis=1) == 13).all()
    assert (result.bids >= 0).all()
    assert (result.bids <= 13).all()
    team_bids = result.bids[:, [0, 1]] + result.bids[:, [2, 3]]
    assert (team_bids <= 13).all()
    # Every card dealt once per hand.
    assert (np.sort(result.hands.reshape(5000, 52), axis=1) == np.arange(52)).all()


def test_random_policy_is_reproducible_from_its_generator() -> None:
    first = batch.play_hands("whiz", range(2000), rng=5)
    again = batch.play_hands("whiz", range(2000), rng=np.random.default_rng(5))
    other = batch.play_hands("whiz", range(2000), rng=6)
    assert (first.tricks == again.tricks).all()
    assert (first.bids == again.bids).all()
    assert (first.tricks != other.tricks).any()


def test_random_policy_bids_uniformly_over_legal_bids() -> None:
    # With Whiz, a seat holding spades chooses between Nil and its count.
    result = batch.play_hands("whiz", range(20000), rng=2)
    spades = (result.hands >= 39).sum(axis=2)
    holding = spades > 0
    nil_share = (result.bids[holding] == 0).mean()
    assert 0.47 < nil_share < 0.53


def test_chunk_size_does_not_change_deterministic_results() -> None:
    whole = batch.play_hands("mirror", range(3000), policy="easy")
    chunked = batch.play_hands("mirror", range(3000), policy="easy", chunk_size=700)
    for name in ("seeds", "dealer", "hands", "bids", "tricks", "points", "bags"):
        assert (getattr(whole, name) == getattr(chunked, name)).all()


def test_seeds_may_be_an_array_a_list_or_a_range() -> None:
    top = 2**64 - 1
    by_list = batch.play_hands("classic", [top, 0, 12], policy="lowest")
    by_array = batch.play_hands("classic", np.array([top, 0, 12], np.uint64), policy="lowest")
    assert by_list.seeds.tolist() == [top, 0, 12]
    assert (by_list.tricks == by_array.tricks).all()
    game = sc.new_game("classic", seed=top).deal()
    assert int(by_list.dealer[0]) == int(game.dealer)


def test_play_hands_in_chunks_streams_in_constant_memory() -> None:
    def peak(count: int) -> int:
        tracemalloc.start()
        for part in batch.play_hands_in_chunks("classic", range(count), chunk_size=2000, rng=0):
            assert len(part) <= 2000
        _, high = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return high

    small, large = peak(4000), peak(40000)
    assert large < small * 1.3


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"seeds": [1, -2]}, "row 1"),
        ({"seeds": [[1, 2]]}, "one-dimensional"),
        ({"seeds": range(-1, 3)}, "seeds must be"),
        ({"policy": "clever"}, "unknown policy"),
        ({"policy": ["random"] * 3}, "sequence of four"),
        ({"rng": -1}, "rng must be"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"bids": np.zeros((2, 4), np.int64)}, "(3, 4)"),
        ({"bids": np.full((3, 4), 14)}, "row 0, seat N"),
        ({"target_score": -5}, "target_score"),
        ({"max_team_bid": 4}, "does not apply"),
    ],
)
def test_bad_arguments_raise_rules_errors_naming_the_problem(
    kwargs: dict[str, Any], words: str
) -> None:
    arguments: dict[str, Any] = {"variant": "mirror", "seeds": [1, 2, 3], **kwargs}
    with pytest.raises(sc.RulesError, match=None) as caught:
        batch.play_hands(**arguments)
    assert words in str(caught.value)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"seeds": "123"}, "seeds must be"),
        ({"seeds": 7}, "seeds must be"),
        ({"seeds": [1.5]}, "row 0"),
        ({"seeds": np.array([1.5])}, "whole numbers"),
        ({"policy": 7}, "policy must be"),
        ({"policy": ["random", "random", "random", 3]}, "a policy must be"),
        ({"rng": "x"}, "rng must be"),
        ({"bids": np.full((3, 4), 1.0)}, "bids must be"),
        ({"variant": 3}, "variant must be"),
    ],
)
def test_arguments_of_the_wrong_type_raise_argument_type_errors(
    kwargs: dict[str, Any], words: str
) -> None:
    arguments: dict[str, Any] = {"variant": "mirror", "seeds": [1, 2, 3], **kwargs}
    with pytest.raises(sc.ArgumentTypeError) as caught:
        batch.play_hands(**arguments)
    assert words in str(caught.value)
    assert not isinstance(caught.value, sc.RulesError)


def test_an_illegal_given_bid_names_its_row_and_seat() -> None:
    # Mirror bids are forced: find a seat whose forced bid is not 4 and bid 4.
    natural = batch.play_hands("mirror", range(50), policy="lowest")
    bids = natural.bids.astype(np.int64)
    row, seat = 37, 2
    wrong = 4 if bids[row, seat] != 4 else 5
    bids[row, seat] = wrong
    with pytest.raises(sc.RulesError) as caught:
        batch.play_hands("mirror", range(50), bids=bids, chunk_size=16)
    message = str(caught.value)
    assert f"row {row}, seat S" in message
    assert f"legal bids are {natural.bids[row, seat]}" in message.replace("Nil", "0")


def test_classic_team_cap_applies_to_given_bids() -> None:
    bids = np.array([[7, 1, 7, 1]])
    with pytest.raises(sc.RulesError, match="row 0"):
        batch.play_hands("classic", [3], bids=bids)
    capped = batch.play_hands("classic", [3], bids=np.array([[7, 1, 6, 1]]), max_team_bid=None)
    assert capped.bids.tolist() == [[7, 1, 6, 1]]


def highest_policy(decision: Decision) -> npt.NDArray[np.intp]:
    """A user policy: the highest legal action."""
    mask = decision.legal_mask()
    highest: npt.NDArray[np.intp] = mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)
    return highest


def test_a_user_policy_is_called_per_decision_with_legal_masks() -> None:
    result = batch.play_hands("classic", range(300), policy=highest_policy)
    for row in range(0, 300, 37):
        game = sc.new_game("classic", seed=row).deal()
        while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
            game = game.apply(game.legal_actions()[-1])
        hand = game.hand_results[0]
        assert tuple(map(int, result.tricks[row])) == tuple(hand.tricks.values())
        assert tuple(map(int, result.points[row])) == tuple(hand.points.values())


def test_policies_can_differ_by_seat() -> None:
    mixed = batch.play_hands("mirror", range(400), policy=["lowest", "easy", "lowest", "easy"])
    for row in range(0, 400, 41):
        game = sc.new_game("mirror", seed=row).deal()
        easy = sc.bots.make("easy", seed=0)
        while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
            seat = game.to_act
            assert seat is not None
            if seat in (sc.Seat.EAST, sc.Seat.WEST):
                game = game.apply(easy.choose(game.view(seat)))
            else:
                game = game.apply(game.legal_actions()[0])
        assert tuple(map(int, mixed.tricks[row])) == tuple(game.hand_results[0].tricks.values())


def test_an_illegal_policy_choice_raises_illegal_action_error() -> None:
    def always_ace_of_spades(decision: Decision) -> npt.NDArray[np.intp]:
        if decision.phase == "bid":
            lowest: npt.NDArray[np.intp] = decision.legal_mask().argmax(axis=1)
            return lowest
        return np.full(len(decision), 51, dtype=np.intp)

    with pytest.raises(sc.IllegalActionError) as caught:
        batch.play_hands("classic", range(10), policy=always_ace_of_spades)
    assert caught.value.reason in (
        sc.IllegalReason.CARD_NOT_IN_HAND,
        sc.IllegalReason.SPADES_NOT_BROKEN,
    )
    assert "row" in str(caught.value)

    def wrong_shape(decision: Decision) -> list[int]:
        return [52]

    with pytest.raises(sc.IllegalActionError, match="one per row"):
        batch.play_hands("classic", range(10), policy=wrong_shape)


class _Threes(sc.Variant):
    """A plugin without array forms: every seat bids 1, 2 or 3."""

    def legal_bids(
        self, rules: sc.Rules, seat: sc.Seat, hand: sc.CardSet, bids: Mapping[sc.Seat, int]
    ) -> tuple[int, ...]:
        return (1, 2, 3)


class _ThreesArrays(batch.BaseArrayForms):
    def legal_bids(
        self,
        rules: sc.Rules,
        hands: npt.NDArray[np.uint64],
        seats: npt.NDArray[np.int8],
        bids: npt.NDArray[np.int8],
    ) -> npt.NDArray[np.int32]:
        return batch.bid_masks(np.ones(len(hands), np.int32), 3)


class _ThreesWithArrays(_Threes):
    def array_forms(self) -> batch.ArrayForms:
        return _ThreesArrays(self)


def _plugin(kind: type[sc.Variant], variant_id: str) -> sc.Variant:
    return kind(
        id=variant_id,
        title="Threes",
        options={"target_score": 200, "break_rule": "any_spade"},
    )


def _engine_hand(variant: sc.Variant, seed: int) -> sc.HandResult:
    game = sc.new_game(variant, seed=seed).deal()
    while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
        game = game.apply(game.legal_actions()[0])
    return game.hand_results[0]


@pytest.mark.parametrize("kind", [_Threes, _ThreesWithArrays])
def test_a_plugin_runs_with_or_without_array_forms_and_matches_the_engine(
    kind: type[sc.Variant],
) -> None:
    variant = _plugin(kind, "threes")
    result = batch.play_hands(variant, range(200), policy="lowest")
    assert (result.bids == 1).all()
    for row in range(0, 200, 23):
        hand = _engine_hand(variant, row)
        assert tuple(map(int, result.tricks[row])) == tuple(hand.tricks.values())
        assert tuple(map(int, result.points[row])) == tuple(hand.points.values())


def test_a_plugin_scoring_its_own_way_runs_through_its_hook() -> None:
    class Doubled(_Threes):
        def score_hand(
            self,
            rules: sc.Rules,
            bids: sc.SeatMap[int],
            tricks: sc.SeatMap[int],
            bags_before: sc.TeamMap[int],
        ) -> tuple[sc.TeamMap[int], sc.TeamMap[int]]:
            points, bags = super().score_hand(rules, bids, tricks, bags_before)
            return sc.TeamMap(tuple(2 * p for p in points.values())), bags

    variant = _plugin(Doubled, "doubled")
    result = batch.play_hands(variant, range(60), policy="lowest")
    for row in range(0, 60, 7):
        hand = _engine_hand(variant, row)
        assert tuple(map(int, result.points[row])) == tuple(hand.points.values())
        assert tuple(map(int, result.bags[row])) == tuple(hand.bags.values())


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (np.zeros((5, 14), dtype=np.bool_), "legal_bids must return an integer array of shape"),
        (np.zeros(5, dtype=np.int32), "each with at least one bid"),
        (np.full(5, 1 << 14, dtype=np.int32), "14-bit bid masks"),
        ([2, 2, 2, 2, 2], "legal_bids must return"),
        (ZeroDivisionError("boom"), "failed in the array form legal_bids: ZeroDivisionError"),
    ],
)
def test_an_array_form_answering_nonsense_is_reported(answer: object, words: str) -> None:
    class Wrong(batch.BaseArrayForms):
        def legal_bids(self, *args: object) -> Any:
            if isinstance(answer, Exception):
                raise answer
            return answer

    class Broken(_Threes):
        def array_forms(self) -> batch.ArrayForms:
            return Wrong(self)

    with pytest.raises(sc.VariantLoadError, match="variant 'broken'") as caught:
        batch.play_hands(_plugin(Broken, "broken"), range(5))
    assert words in str(caught.value)


@pytest.mark.parametrize("forms", ["forms", 3, object()])
def test_array_forms_that_are_not_array_forms_are_refused(forms: object) -> None:
    class Odd(_Threes):
        def array_forms(self) -> batch.ArrayForms:
            return forms  # type: ignore[return-value]

    with pytest.raises(sc.VariantLoadError, match="array_forms must return None or an object"):
        batch.play_hands(_plugin(Odd, "odd"), range(5))


def test_derived_builtin_variants_play_with_their_new_defaults() -> None:
    short = sc.load_variant("classic").derive(id="classic-nilbags", nil_tricks="bags_only")
    derived = batch.play_hands(short, range(300), policy="lowest")
    direct = batch.play_hands("classic", range(300), policy="lowest", nil_tricks="bags_only")
    assert (derived.points == direct.points).all()
