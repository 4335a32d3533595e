"""``spades watch`` with a plugin whose hooks fail or answer nonsense during
the game: the command ends with its exit status and a message naming the
variant and the hook, never with a traceback."""

from __future__ import annotations

import itertools
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import spades_core as sc
from registry_isolation import registry_restored
from spades_core.cli import main

MODULE_STEM = "spades_watch_test_"
_counter = itertools.count()


def install(root: Path, variant_id: str, source: str) -> None:
    """A plugin distribution providing ``variant_id`` from ``source``, under ``root``."""
    module = f"{MODULE_STEM}{next(_counter)}_{variant_id}"
    (root / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = root / f"spades_variant_{variant_id}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: spades-variant-{variant_id}\nVersion: 1.0\n",
        encoding="utf-8",
    )
    (info / "entry_points.txt").write_text(
        f"[spades_core.variants]\n{variant_id} = {module}:VARIANT\n", encoding="utf-8"
    )


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Path]:
    with registry_restored(MODULE_STEM):
        sys.path.insert(0, str(tmp_path))
        yield tmp_path


HOOKS = {
    "legal_bids raises": """
        def legal_bids(self, rules, seat, hand, bids):
            raise RuntimeError("no bids today")
    """,
    "legal_bids answers nonsense": """
        def legal_bids(self, rules, seat, hand, bids):
            return ["three"]
    """,
    "score_hand raises": """
        def score_hand(self, rules, bids, tricks, bags_before):
            raise ZeroDivisionError("scoring broke")
    """,
    "score_hand answers floats": """
        def score_hand(self, rules, bids, tricks, bags_before):
            return TeamMap((1.5, 0.0)), TeamMap((0, 0))
    """,
    "game_outcome answers a number": """
        def game_outcome(self, rules, scores):
            return 1
    """,
    "revealed_spade_counts raises": """
        def revealed_spade_counts(self, rules, bids):
            raise KeyError("counts")
    """,
    "revealed_spade_counts lies": """
        def revealed_spade_counts(self, rules, bids):
            return {seat: 13 for seat in bids}
    """,
    "revealed_spade_counts exits": """
        def revealed_spade_counts(self, rules, bids):
            raise SystemExit(3)
    """,
}

PLUGIN = """
from spades_core import TeamMap
from spades_variants.classic import ClassicVariant


class Faulty(ClassicVariant):
{hook}

VARIANT = Faulty(id="faulty", title="Faulty", options={{"target_score": 500}})
"""


@pytest.mark.parametrize("hook", HOOKS.values(), ids=HOOKS.keys())
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_watch_reports_a_failing_hook_and_exits_1(
    site: Path, capsys: pytest.CaptureFixture[str], hook: str, level: str
) -> None:
    install(site, "faulty", PLUGIN.format(hook=textwrap.indent(textwrap.dedent(hook), "    ")))
    sc.refresh_variants()
    arguments = ["watch", "--variant", "faulty", "--level", level, "--delay", "0"]
    status = main([*arguments, "--hands", "2", "--seed", "1"])
    captured = capsys.readouterr()
    assert status == 1
    assert "Traceback" not in captured.err
    (message,) = captured.err.splitlines()
    assert message.startswith("spades watch: the game cannot go on: variant 'faulty'")


def test_watch_of_a_sound_plugin_still_plays(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    install(site, "sound", PLUGIN.format(hook="    pass").replace("faulty", "sound"))
    sc.refresh_variants()
    status = main(["watch", "--variant", "sound", "--delay", "0", "--hands", "1", "--seed", "1"])
    assert status == 0
    assert "Stopped after 1 hand" in capsys.readouterr().out
