"""The web app's engine under Pyodide, run in Node from the built app's own
files (tests/pyodide_run.mjs sets it up as the app's worker does): it cannot
drift from CPython, neither at a first start nor restored from the memory
snapshot a later visit starts from, and a plugin bundled by ``make app
PLUGINS=...`` is installed, offered and played.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import spades_core as sc
from web_app_support import (
    ROOT,
    builder,
    built_app,
    run_under_cpython,
    run_under_pyodide,
)

# The built app (make app) run by Node with Pyodide: the browser tooling, left out
# with the browser tests where it is not installed.
pytestmark = pytest.mark.browser

SELFPLAY = ROOT / "tests" / "web_app_selfplay.py"
PLUGIN = ROOT / "examples" / "custom_variant"

PLUGIN_CHECK = """
import json
import spades_core as sc
import local_table

offered = [v["id"] for v in json.loads(local_table.catalogue())["variants"]]
settings = {"variant": "suicide", "players": {"N": "normal", "E": "easy", "W": "random"}}
table = local_table.start_game(json.dumps(settings))
assert not isinstance(table, str), table
while not table.game.hand_results:
    if table.bot_due():
        table.bot_step()
        continue
    state = json.loads(table.state())
    tip = state["coach"]["action"]
    message = {"type": "play", "card": tip}
    if isinstance(tip, int):
        message = {"type": "bid", "value": tip}
    assert table.receive(json.dumps(message)) is None
result = table.game.hand_results[0]
print(json.dumps({
    "offered": offered,
    "loaded_from": type(sc.load_variant("suicide")).__module__,
    "nils_per_team": sorted({sum(result.bids[s] == 0 for s in team.seats) for team in sc.Team}),
    "record": table.record(),
}))
"""


@pytest.mark.parametrize("snapshot", [False, True], ids=["first-start", "from-snapshot"])
def test_pyodide_plays_the_same_games_as_cpython_byte_for_byte_in_every_variant(
    snapshot: bool,
) -> None:
    app = built_app()
    in_cpython = run_under_cpython(SELFPLAY)
    in_pyodide = run_under_pyodide(app, SELFPLAY, snapshot=snapshot)
    games = [json.loads(line) for line in in_cpython.splitlines()]
    assert [game["variant"] for game in games] == ["classic"] * 2 + ["mirror"] * 2 + ["whiz"] * 2
    for game in games:  # real games: the hands asked for, played by the rules
        played = sc.loads(game["record"])
        assert played.variant.id == game["variant"]
        assert len(played.hand_results) == int(game["hands"]) or played.is_over
    assert in_pyodide == in_cpython


def test_a_plugin_bundled_by_make_app_is_installed_offered_and_played(tmp_path: Path) -> None:
    app = tmp_path / "app"
    assert builder.main(["--out", str(app), "--plugin", str(PLUGIN)]) == 0
    wheels = [path.name for path in (built_app(app) / "wheels").iterdir()]
    assert any(name.startswith("spades_variant_suicide-") for name in wheels)
    script = tmp_path / "plugin_check.py"
    script.write_text(PLUGIN_CHECK, encoding="utf-8")
    report = json.loads(run_under_pyodide(app, script))
    # Restored from a snapshot, the plugin is found again through its entry point.
    assert json.loads(run_under_pyodide(app, script, snapshot=True))["offered"] == report["offered"]
    assert sorted(report["offered"]) == ["classic", "mirror", "suicide", "whiz"]
    # Loaded through its entry point from the bundled wheel, not from this checkout.
    assert report["loaded_from"] == "spades_variant_suicide"
    assert report["nils_per_team"] == [1]  # the plugin's own rule: one Nil per partnership
    assert '"variant":"suicide"' in report["record"]
