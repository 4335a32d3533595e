"""``spades variants``: every discovered variant with id, version,
distribution and status — ``ok`` or its error in one line — as a table or JSON,
against real temporary distributions."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import textwrap
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

import spades_core as sc
from registry_isolation import registry_restored
from spades_core.cli import main
from spades_core.cli.variants import check_in_subprocess
from spades_core.rules.registry import BUILTIN_ONLY_ENV

_counter = itertools.count()
# Every plugin module a test writes is named spades_cli_test_<n>_<id>.
MODULE_STEM = "spades_cli_test_"


class Site:
    """A directory on ``sys.path`` with fake installed plugin distributions."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.prefix = f"{MODULE_STEM}{next(_counter)}_"
        sys.path.insert(0, str(root))

    def install(self, dist: str, variant_id: str, module_source: str) -> None:
        module = self.prefix + variant_id
        (self.root / f"{module}.py").write_text(textwrap.dedent(module_source))
        info = self.root / f"{dist.replace('-', '_')}-2.5.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 2.5\n")
        (info / "entry_points.txt").write_text(
            f"[spades_core.variants]\n{variant_id} = {module}:VARIANT\n"
        )
        sc.refresh_variants()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    with registry_restored(MODULE_STEM):
        yield Site(tmp_path)


GOOD = """
from spades_core import load_variant

VARIANT = load_variant("mirror").derive(
    id="quick", title="Quick Mirror", version=3, target_score=200
)
"""
BROKEN = """
raise RuntimeError("this plugin is broken\\non two lines")
"""
IMPOSTOR = """
from spades_core import load_variant

VARIANT = load_variant("classic").derive(target_score=1)
"""


def test_variants_lists_the_builtins_as_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["ID", "VERSION", "DISTRIBUTION", "STATUS"]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    for variant_id in ("classic", "mirror", "whiz"):
        assert rows[variant_id] == [variant_id, "1", "spades-core", sc.__version__, "ok"]


def test_variants_shows_each_plugin_with_its_status(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    site.install("spades-variant-quick", "quick", GOOD)
    site.install("spades-variant-broken", "broken", BROKEN)
    site.install("spades-impostor", "classic", IMPOSTOR)
    assert main(["variants"]) == 1, "a variant that cannot be loaded makes the exit status 1"
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    by_id: dict[str, list[str]] = {}
    for line in lines[1:]:
        by_id.setdefault(line.split()[0], []).append(line)
    assert by_id["quick"][0].split() == ["quick", "3", "spades-variant-quick", "2.5", "ok"]
    (broken,) = by_id["broken"]
    assert broken.split()[:4] == ["broken", "-", "spades-variant-broken", "2.5"]
    assert "error: VariantImportError: variant 'broken' from spades-variant-broken" in broken
    assert "RuntimeError: this plugin is broken on two lines" in broken
    builtin, impostor = by_id["classic"]
    assert builtin.split() == ["classic", "1", "spades-core", sc.__version__, "ok"]
    assert impostor.split()[:5] == ["classic", "-", "spades-impostor", "2.5", "ignored:"]
    assert by_id["mirror"][0].endswith("ok")
    assert "ReservedVariantWarning" not in captured.err


def test_variants_json_has_the_same_rows(site: Site, capsys: pytest.CaptureFixture[str]) -> None:
    site.install("spades-variant-quick", "quick", GOOD)
    site.install("spades-variant-broken", "broken", BROKEN)
    assert main(["variants", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["builtin_only"] is False
    rows = {row["id"]: row for row in report["variants"]}
    assert set(rows) == {"broken", "classic", "mirror", "quick", "whiz"}
    assert rows["quick"] == {
        "id": "quick",
        "version": 3,
        "title": "Quick Mirror",
        "distribution": "spades-variant-quick",
        "distribution_version": "2.5",
        "target": f"{site.prefix}quick:VARIANT",
        "builtin": False,
        "status": "ok",
        "error": None,
    }
    assert rows["broken"]["status"] == "error"
    assert rows["broken"]["version"] is None
    assert "\n" not in rows["broken"]["error"]
    assert rows["broken"]["error"].startswith("VariantImportError: ")
    assert rows["classic"]["builtin"] is True


def test_variants_with_the_builtin_only_switch(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    site.install("spades-variant-quick", "quick", GOOD)
    os.environ[BUILTIN_ONLY_ENV] = "1"
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()[1:4]] == ["classic", "mirror", "whiz"]
    assert "quick" not in out
    assert f"third-party variants are ignored: {BUILTIN_ONLY_ENV} is set" in out


def test_python_m_spades_core_variants_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "spades_core", "variants", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    ids = [row["id"] for row in json.loads(result.stdout)["variants"]]
    assert {"classic", "mirror", "whiz"} <= set(ids)


HANGING = """
import time

time.sleep(3600)
"""
CRASHING = """
import os

from spades_core import load_variant

VARIANT = load_variant("mirror").derive(id="crashing", title="Crashing")
os._exit(7)
"""
EXITING = """
import sys

sys.exit("this plugin ends the program")
"""
EXITING_HOOK = """
import sys

from spades_variants.classic import ClassicVariant


class ExitingScore(ClassicVariant):
    def score_hand(self, rules, bids, tricks, bags_before):
        sys.exit(5)


VARIANT = ExitingScore(id="exitscore", title="Exits", options={"target_score": 500})
"""


@pytest.mark.slow
def test_variants_check_reports_hanging_and_crashing_plugins_and_finishes(site: Site) -> None:
    site.install("spades-variant-hangs", "hangs", HANGING)
    site.install("spades-variant-crashing", "crashing", CRASHING)
    site.install("spades-variant-quick", "quick", GOOD)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    # The hanging plugin sleeps for an hour; the command must stop it after its
    # time limit (2 s) and finish. The outer limit only keeps a bug from
    # hanging the test suite.
    result = subprocess.run(
        [sys.executable, "-m", "spades_core", "variants", "--check", "--timeout", "2", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    rows = {row["id"]: row for row in json.loads(result.stdout)["variants"]}
    assert rows["hangs"]["status"] == "error"
    assert "no answer within 2 s" in rows["hangs"]["error"]
    assert rows["crashing"]["status"] == "error"
    assert "crashed its process (exit status 7)" in rows["crashing"]["error"]
    assert rows["quick"]["status"] == "ok"
    assert rows["quick"]["version"] == 3
    assert rows["classic"]["status"] == "ok"


def test_a_plugin_calling_sys_exit_at_import_is_a_load_error(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    site.install("spades-variant-exits", "exits", EXITING)
    with pytest.raises(sc.VariantLoadError, match="SystemExit: this plugin ends the program"):
        sc.load_variant("exits")
    assert main(["variants"]) == 1
    out = capsys.readouterr().out
    (row,) = [line for line in out.splitlines() if line.startswith("exits ")]
    assert "VariantImportError" in row


def test_a_plugin_hook_calling_sys_exit_is_a_load_error(site: Site) -> None:
    site.install("spades-variant-exitscore", "exitscore", EXITING_HOOK)
    game = sc.new_game("exitscore", seed=1)
    with pytest.raises(sc.VariantLoadError, match="SystemExit"):
        sc.bots.play_game(game, [sc.bots.RandomBot(seat) for seat in range(4)], hands=1)
    with pytest.raises(sc.VariantLoadError, match="SystemExit"):
        sc.playout(game, lambda n: 0, hands=1)


# -- what a plugin prints under --check ------------------------------------------------------

FLOODING = """
import sys

from spades_core import load_variant

chunk = "x" * (1 << 20) + "\\n"
for _ in range(128):
    sys.stderr.write(chunk)
sys.stderr.flush()
VARIANT = load_variant("mirror").derive(id="flooding", title="Flooding", version=4)
"""
UNENDED_LINE = """
import sys

from spades_core import load_variant

sys.stdout.write("y" * (5 << 20))
sys.stdout.flush()
VARIANT = load_variant("mirror").derive(id="unended", title="Unended", version=5)
"""
FLOOD_THEN_CRASH = """
import os
import sys

sys.stderr.write(("z" * 1000 + "\\n") * 10_000 + "fatal: the plugin gives up\\n")
sys.stderr.flush()
os._exit(3)
"""
SILENT_EXIT = """
import os

os._exit(0)
"""


def test_check_keeps_a_bounded_tail_of_a_flooding_plugins_output(site: Site) -> None:
    site.install("spades-variant-flooding", "flooding", FLOODING)
    tracemalloc.start()
    try:
        answer = check_in_subprocess("flooding", 60.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer == {"version": 4, "title": "Flooding"}
    # The plugin wrote 128 MiB; far less than that was ever held.
    assert peak < 16 << 20


def test_check_reads_the_answer_after_megabytes_without_a_newline(site: Site) -> None:
    site.install("spades-variant-unended", "unended", UNENDED_LINE)
    assert check_in_subprocess("unended", 60.0) == {"version": 5, "title": "Unended"}


def test_check_reports_the_last_line_of_a_crash_after_a_flood(site: Site) -> None:
    site.install("spades-variant-gives-up", "givesup", FLOOD_THEN_CRASH)
    answer = check_in_subprocess("givesup", 60.0)
    assert answer == {
        "error": "the plugin crashed its process (exit status 3): fatal: the plugin gives up"
    }


def test_check_reports_a_plugin_that_ends_its_process_without_answering(site: Site) -> None:
    site.install("spades-variant-silent", "silent", SILENT_EXIT)
    answer = check_in_subprocess("silent", 60.0)
    assert answer == {
        "error": "the plugin ended its process before it answered (exit status 0): no output"
    }


LONG_LAST_LINE = """
import os
import sys

sys.stderr.write("q" * 100_000)
sys.stderr.flush()
os._exit(4)
"""


def test_check_cuts_a_long_last_line(site: Site) -> None:
    site.install("spades-variant-long-line", "longline", LONG_LAST_LINE)
    error = check_in_subprocess("longline", 60.0)["error"]
    assert error.startswith("the plugin crashed its process (exit status 4): qqq")
    assert error.endswith("q…")
    assert len(error) < 400
