"""The rules reference (docs/rules.md) against the engine, and the rule that the
repository cites only itself.

The worked examples are read from the page's tables and scored by the engine,
so a number written wrongly in the docs fails here; the option table is compared
with every built-in variant's defaults.
"""

from __future__ import annotations

import enum
import re
import subprocess
from pathlib import Path

import pytest

import spades_core as sc
from spades_core.rules.scoring import game_outcome, score_hand
from spades_core.values.options import STANDARD_OPTIONS

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "rules.md"

# Built from pieces so that this file does not match the patterns itself.
OUTSIDE_CITATION = re.compile("RULES" + r"\.md|\.\./" + "shared")


def section(title: str) -> str:
    """The text of the page under the heading ``title`` up to the next heading of its level."""
    text = PAGE.read_text(encoding="utf-8")
    match = re.search(rf"^(#+) {re.escape(title)}\n", text, flags=re.MULTILINE)
    assert match, f"docs/rules.md has no section {title!r}"
    level = match.group(1)
    rest = text[match.end() :]
    end = re.search(rf"^#{{1,{len(level)}}} ", rest, flags=re.MULTILINE)
    return rest[: end.start()] if end else rest


def table_rows(title: str) -> list[list[str]]:
    """The cells of every body row of the first table in section ``title``."""
    lines = [line for line in section(title).splitlines() if line.startswith("|")]
    assert len(lines) > 2, f"no table in section {title!r}"
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def numbers(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.replace("−", "-").split(","))


TeamResults = tuple[tuple[int, int], tuple[int, int]]
"""((points NS, bags NS), (points EW, bags EW))."""


def team_results(text: str) -> TeamResults:
    """``"-49,1 ; -80,0"`` as :data:`TeamResults`."""
    ns, ew = text.split(";")
    return per_team(ns), per_team(ew)


def per_seat(text: str) -> tuple[int, int, int, int]:
    north, east, south, west = numbers(text)
    return north, east, south, west


def per_team(text: str) -> tuple[int, int]:
    ns, ew = numbers(text)
    return ns, ew


def scored(variant: str, bids: str, tricks: str, bags_before: str) -> TeamResults:
    """The example's hand scored by the engine under ``variant``'s defaults."""
    (points_ns, points_ew), (bags_ns, bags_ew) = score_hand(
        sc.load_variant(variant).rules(), per_seat(bids), per_seat(tricks), per_team(bags_before)
    )
    return (points_ns, bags_ns), (points_ew, bags_ew)


def test_no_tracked_file_cites_a_file_outside_the_repository() -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    offenders = []
    for name in filter(None, listed):
        path = ROOT / name.decode()
        if not path.is_file():
            continue
        text = path.read_bytes().decode("utf-8", errors="replace")
        offenders += [
            f"{name.decode()}:{number}"
            for number, line in enumerate(text.splitlines(), 1)
            if OUTSIDE_CITATION.search(line)
        ]
    assert len(listed) > 50, "git ls-files listed too few files to be this repository"
    assert offenders == [], "cite docs/rules.md instead: " + ", ".join(offenders)


def test_the_page_is_in_the_site_navigation() -> None:
    assert "rules.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_every_scoring_example_matches_the_engine() -> None:
    rows = table_rows("Scoring examples")
    assert [row[0] for row in rows] == [f"F{i}" for i in range(1, 18)]
    for name, bids, tricks, bags, classic, mirror, _ in rows:
        hand = bids, tricks, bags
        assert scored("classic", *hand) == team_results(classic), name
        if mirror == "n/a":
            assert sum(numbers(bids)) != 13, (
                f"{name}: only bids that cannot happen in Mirror are n/a"
            )
            continue
        expected = team_results(classic if mirror == "same" else mirror)
        assert scored("mirror", *hand) == expected, name
        assert scored("whiz", *hand) == expected, name


@pytest.mark.parametrize("variant", ["classic", "mirror", "whiz"])
def test_every_game_end_example_matches_the_engine(variant: str) -> None:
    rows = table_rows("Game-end examples")
    assert [row[0] for row in rows] == [f"G{i}" for i in range(1, 10)]
    column = 2 if variant == "classic" else 3
    outcomes = {"NS wins": sc.Team.NS, "EW wins": sc.Team.EW, "another hand": None}
    for row in rows:
        scores_text, _, options = row[1].partition(" with ")
        chosen = {
            name: int(value)
            for name, value in re.findall(r"`(\w+)=(-?\d+)`", options)  # e.g. target_score=250
        }
        rules = sc.load_variant(variant).rules(**chosen)
        assert game_outcome(rules, per_team(scores_text)) == outcomes[row[column]], row[0]


def test_the_option_table_gives_every_default_of_every_variant() -> None:
    rows = table_rows("Options")
    # The standard options, then Whiz's own.
    assert [row[0].strip("`") for row in rows] == [*STANDARD_OPTIONS, "whiz_nil_needs_no_ace"]
    columns = {"classic": 3, "mirror": 4, "whiz": 5}
    for variant_id, column in columns.items():
        variant = sc.load_variant(variant_id)
        defaults = variant.rules()
        for row in rows:
            name, written = row[0].strip("`"), row[column].strip("`").replace("−", "-")
            if written == "—":
                assert name not in variant.option_specs
                with pytest.raises(sc.RulesError, match=name):
                    variant.rules(**{name: getattr(sc.Rules(), name, False)})
                continue
            default = defaults.get(name)
            shown = default.value if isinstance(default, enum.Enum) else default
            assert written == str(shown), (variant_id, name)
