"""examples/contract_odds runs on a small number of deals and writes its
chart and table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration("batch"), pytest.mark.integration("plot")]

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "contract_odds" / "contract_odds.py"


def test_contract_odds_writes_a_chart_and_a_classic_table(tmp_path: Path) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-W",
            "error::DeprecationWarning",
            str(EXAMPLE),
            "--deals",
            "2000",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    chart = tmp_path / "contract_odds.png"
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = (tmp_path / "classic_contracts.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert [int(row.split("|")[1]) for row in rows] == list(range(14))
    # Random classic bids cover every contract; partnerships counted: two per deal.
    random_counts = [int(row.split("|")[4].replace(",", "")) for row in rows]
    assert sum(random_counts) == 2 * 2000
    assert table in completed.stdout
    # Each output has a title: the chart's line, then the table's.
    chart_title, blank, table_title = completed.stdout.splitlines()[:3]
    assert chart_title.startswith("Mirror Spades: forced contracts made")
    assert chart_title.endswith(f"charted in {chart}")
    assert blank == ""
    assert table_title.startswith("Classic Spades: partnership contracts")
    assert table.startswith(table_title)


def test_by_default_it_is_quick_and_writes_to_build_never_over_the_docs_images(
    tmp_path: Path,
) -> None:
    images = EXAMPLE.parents[2] / "docs" / "images"
    before = {path.name: path.read_bytes() for path in images.iterdir()}
    completed = subprocess.run(
        [sys.executable, str(EXAMPLE)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    out = tmp_path / "build" / "contract_odds"
    assert sorted(path.name for path in out.iterdir()) == [
        "classic_contracts.md",
        "contract_odds.png",
    ]
    table = (out / "classic_contracts.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if line.startswith("| ") and line[2].isdigit()]
    # 20,000 deals by default: two partnerships each.
    assert sum(int(row.split("|")[4].replace(",", "")) for row in rows) == 2 * 20_000
    assert {path.name: path.read_bytes() for path in images.iterdir()} == before
    # The commands its docstring gives write to the default place too.
    docstring = EXAMPLE.read_text(encoding="utf-8").split('"""')[1]
    commands = [
        line.strip() for line in docstring.splitlines() if line.strip().startswith("python ")
    ]
    assert commands
    assert all("--out" not in command for command in commands)
