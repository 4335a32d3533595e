"""Variants own their rules in every form: the array forms of the built-in
variants live in spades_variants and reach the batch engine the way a
plugin's do; the testing kit's twin check holds any variant's forms to its
hooks; a variant without array forms still runs in batch, row by row; and
the core never imports the built-in variants."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import spades_core as sc
from envs_support import example_plugin_installed
from spades_core import batch
from spades_core.rules.registry import variant_entries
from spades_core.testing import ConformanceError, check_array_forms
from spades_variants import _arrays

pytestmark = pytest.mark.integration("batch")

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "spades_core"


def test_no_module_of_the_core_imports_the_built_in_variants() -> None:
    """Every import statement of every module under src/spades_core, at the
    top or inside a function, names no spades_variants module."""
    offenders = []
    for path in sorted(CORE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module is not None:
                names = [node.module]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
                names = [str(getattr(arg, "value", "")) for arg in node.args[:1]]
            offenders += [
                f"{path.relative_to(ROOT)}:{node.lineno}"  # type: ignore[attr-defined]
                for name in names
                if name == "spades_variants" or name.startswith("spades_variants.")
            ]
    assert len(list(CORE.rglob("*.py"))) > 50
    assert offenders == []


def test_the_built_in_variants_load_and_play_without_numpy() -> None:
    """Under Pyodide spades_variants is imported without numpy: the array
    forms are imported only when the batch engine asks for them."""
    code = (
        "import sys, json\n"
        "sys.modules['numpy'] = None\n"  # importing numpy now fails
        "import spades_core as sc, random\n"
        "from spades_core.engine.playouts import playout\n"
        "for v in ('classic', 'mirror', 'whiz'):\n"
        "    playout(sc.new_game(v, seed=1), random.Random(1))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('spades_variants'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        "spades_variants",
        "spades_variants.classic",
        "spades_variants.mirror",
        "spades_variants.whiz",
    ]


@pytest.mark.parametrize(
    ("variant_id", "forms"),
    [
        ("classic", _arrays.ClassicArrays),
        ("mirror", _arrays.MirrorArrays),
        ("whiz", _arrays.WhizArrays),
    ],
)
def test_the_built_in_variants_pass_the_twin_check_through_their_entry_points(
    variant_id: str, forms: type[batch.BaseArrayForms]
) -> None:
    entry = next(entry for entry in variant_entries() if entry.id == variant_id)
    assert entry.is_builtin
    assert entry.target == f"spades_variants.{variant_id}:{variant_id.upper()}"
    variant = sc.load_variant(entry.id)
    assert type(batch.array_forms_of(variant)) is forms
    check_array_forms(variant)
    derived = variant.derive(id=f"{variant_id}-short", target_score=150)
    assert type(batch.array_forms_of(derived)) is forms
    check_array_forms(derived, scenarios=2)


# -- plugins ---------------------------------------------------------------------------


class FourOrNil(sc.Variant):
    """A plugin without array forms: Nil, or 4 when holding exactly four spades
    (so North-South's bids of 4 reveal their spade counts truly)."""

    def legal_bids(
        self, rules: sc.Rules, seat: sc.Seat, hand: sc.CardSet, bids: Mapping[sc.Seat, int]
    ) -> Iterable[int]:
        return (0, 4) if hand.count(sc.Suit.SPADES) == 4 else (0,)

    def revealed_spade_counts(
        self, rules: sc.Rules, bids: Mapping[sc.Seat, int]
    ) -> dict[sc.Seat, int]:
        return {seat: 4 for seat, bid in bids.items() if bid == 4 and seat.team is sc.Team.NS}

    def score_hand(
        self,
        rules: sc.Rules,
        bids: sc.SeatMap[int],
        tricks: sc.SeatMap[int],
        bags_before: sc.TeamMap[int],
    ) -> tuple[sc.TeamMap[int], sc.TeamMap[int]]:
        points, bags = super().score_hand(rules, bids, tricks, bags_before)
        return sc.TeamMap((points[sc.Team.NS] + 7, points[sc.Team.EW])), bags

    def game_outcome(self, rules: sc.Rules, scores: sc.TeamMap[int]) -> sc.Team | None:
        ns, ew = scores.values()
        if abs(ns - ew) >= 150:
            return sc.Team.NS if ns > ew else sc.Team.EW
        return None


def four_or_nil(kind: type[FourOrNil] = FourOrNil) -> sc.Variant:
    return kind(
        id="four-or-nil",
        title="Four or Nil",
        options={"target_score": 300, "loss_floor": -300, "nil_tricks": "bags_only"},
    )


def test_a_plugin_without_array_forms_passes_through_the_fallback() -> None:
    """Every hook overridden, no array forms: the batch engine calls the hooks
    row by row, and Tables and batch.play equal the engine in whole games."""
    variant = four_or_nil()
    assert type(batch.array_forms_of(variant)) is batch.BaseArrayForms
    check_array_forms(variant, scenarios=4)


def test_fallback_results_equal_the_engines_hand_by_hand() -> None:
    variant = four_or_nil()
    result = batch.play_hands(variant, range(120), policy="lowest")
    for row in range(120):
        game = sc.new_game(variant, seed=row).deal()
        while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
            game = game.apply(game.legal_actions()[0])
        hand = game.hand_results[0]
        assert tuple(map(int, result.bids[row])) == tuple(hand.bids.values())
        assert tuple(map(int, result.tricks[row])) == tuple(hand.tricks.values())
        assert tuple(map(int, result.points[row])) == tuple(hand.points.values())
        assert tuple(map(int, result.bags[row])) == tuple(hand.bags.values())


class WrongTwin(batch.BaseArrayForms):
    """Array forms that disagree with FourOrNil: they let everyone bid 4."""

    def legal_bids(
        self,
        rules: sc.Rules,
        hands: npt.NDArray[np.uint64],
        seats: npt.NDArray[np.int8],
        bids: npt.NDArray[np.int8],
    ) -> npt.NDArray[np.int32]:
        return np.full(len(hands), 1 | 1 << 4, dtype=np.int32)


class FourOrNilWithWrongTwin(FourOrNil):
    def array_forms(self) -> batch.ArrayForms:
        return WrongTwin(self)


class ScoringTwinOffByOne(batch.BaseArrayForms):
    def score_hands(
        self,
        rules: sc.Rules,
        bids: npt.NDArray[np.int8],
        tricks: npt.NDArray[np.int8],
        bags_before: npt.NDArray[np.int64],
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        points, bags = super().score_hands(rules, bids, tricks, bags_before)
        return points + np.array([6, 0]), bags


class FourOrNilWithWrongScoring(FourOrNil):
    def array_forms(self) -> batch.ArrayForms:
        return ScoringTwinOffByOne(self)


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        (FourOrNilWithWrongTwin, "legal_bids gives (0, 4) where the hook gives (0,)"),
        (FourOrNilWithWrongScoring, "score_hands gives (points, bags)"),
    ],
)
def test_the_twin_check_finds_a_twin_that_disagrees(kind: type[FourOrNil], words: str) -> None:
    with pytest.raises(ConformanceError) as caught:
        check_array_forms(four_or_nil(kind), scenarios=3)
    failure = caught.value
    assert failure.check == "array_forms"
    assert failure.variant_id == "four-or-nil"
    assert words in failure.detail
    assert f"check_array_forms(variant, seed={failure.seed})" in str(failure)
    with pytest.raises(ConformanceError) as again:
        check_array_forms(four_or_nil(kind), seed=failure.seed)
    assert again.value.detail == failure.detail


def test_the_example_plugin_runs_in_batch_and_passes_the_twin_check(tmp_path: Path) -> None:
    with example_plugin_installed(tmp_path / "site"):
        suicide = sc.load_variant("suicide")
        forms = batch.array_forms_of(suicide)
        assert type(forms).__name__ == "SuicideArrays"
        check_array_forms(suicide, scenarios=4)
        result = batch.play_hands(suicide, range(400), policy="random", rng=3, max_team_bid=9)
        nils = (result.bids == 0).reshape(-1, 2, 2).sum(axis=1)
        assert (nils == 1).all()
        assert (result.bids.reshape(-1, 2, 2).sum(axis=1) <= 9).all()
        tables = batch.Tables(suicide, 8, seed=11, episode="game", max_hands=2)
        rng = np.random.default_rng(0)
        ended = np.zeros(8, dtype=np.bool_)
        for _ in range(2 * 56):
            _, done = tables.step(tables.random_actions(rng))
            ended |= done
        assert ended.all(), "a game of at most two hands ends within 112 steps"


def test_array_forms_that_fail_are_reported_naming_the_variant() -> None:
    class Failing(FourOrNil):
        def array_forms(self) -> Any:
            raise ImportError("no module named 'cupy'")

    with pytest.raises(sc.VariantLoadError, match="'four-or-nil' failed in array_forms"):
        batch.play_hands(four_or_nil(Failing), range(3))
