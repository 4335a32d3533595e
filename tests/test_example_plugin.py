"""The example plugin package (``examples/custom_variant``) works as a
separately installed distribution: built into a wheel, installed with
spades-core into a fresh virtual environment, discovered through its entry
point, loaded, passing ``check_variant``, played to ``GAME_OVER`` by bots,
listed by ``spades variants``, and passing its own test suite there (its array
forms included).

Third-party wheels (hatchling to build, attrs, typing-extensions, Hypothesis,
pytest and numpy to run) are downloaded from the package index once, at the versions
of this environment, into pytest's cache directory and reused from there.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "custom_variant"
RUNTIME = ("attrs", "typing_extensions", "hypothesis", "pytest", "numpy")
"""spades-core's dependencies, its testing extra and numpy (the batch extra, for
the plugin's array forms), pinned to this environment's versions."""

CHECK_SCRIPT = """
import json
import spades_core as sc
from spades_core import bots
from spades_core.testing import check_variant

report = {"available": list(sc.available_variants())}
variant = sc.load_variant("suicide")
report["loaded"] = [type(variant).__module__, variant.id, variant.title]
check_variant(variant, max_examples=10, hands=2)
report["check_variant"] = "passed"
game = sc.new_game("suicide", seed=2024)
game = bots.play_game(game, [bots.make("normal", seed=seat) for seat in range(4)])
report["phase"] = game.phase.value
report["winner"] = game.winner.name
report["hands"] = game.hand_number
report["nils_per_team"] = sorted(
    {
        sum(1 for seat in team.seats if result.bids[seat] == 0)
        for result in game.hand_results
        for team in sc.Team
    }
)
print(json.dumps(report))
"""


def run(command: list[str], *, cwd: Path | None = None) -> str:
    """Run ``command``; its stdout, or a failure showing everything it printed."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    environment["PYTHONDONTWRITEBYTECODE"] = "1"  # nothing written into the source tree
    result = subprocess.run(
        command,
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if result.returncode != 0:
        pytest.fail(
            f"{' '.join(command)} exited with {result.returncode}\n"
            f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"
        )
    return result.stdout


def wheelhouse(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, list[str]]:
    """A directory of the third-party wheels, and the requirements it satisfies."""
    requirements = ["hatchling>=1.21"] + [
        f"{name}=={importlib.metadata.version(name)}" for name in RUNTIME
    ]
    cache = getattr(request.config, "cache", None)
    directory = cache.mkdir("spades_example_wheelhouse") if cache is not None else tmp_path
    stamp = directory / "requirements.txt"
    wanted = "\n".join(requirements)
    if not stamp.exists() or stamp.read_text() != wanted:
        run(
            [
                *(sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:"),
                *("--dest", str(directory), *requirements),
            ]
        )
        stamp.write_text(wanted)
    return directory, requirements


@pytest.mark.slow
def test_example_plugin_installs_and_plays_in_a_fresh_virtual_environment(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    wheels, requirements = wheelhouse(request, tmp_path)
    venv = tmp_path / "venv"
    python = str(venv / "bin" / "python")
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    # This environment's pip installs into the new one (pip --python), so the
    # new environment needs no pip of its own.
    pip = [sys.executable, "-m", "pip", "--python", python]
    offline = ["--no-index", "--find-links", str(wheels)]
    run([*pip, "install", "--quiet", *offline, *requirements])
    built = tmp_path / "dist"
    run(
        [
            *(*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index"),
            *("--wheel-dir", str(built), str(ROOT), str(EXAMPLE)),
        ]
    )
    assert sorted(path.name.split("-")[0] for path in built.glob("*.whl")) == [
        "spades_core",
        "spades_variant_suicide",
    ]
    run([*pip, "install", "--quiet", "--no-deps", *map(str, built.glob("*.whl"))])

    report = json.loads(
        run([python, "-W", "error::DeprecationWarning", "-c", CHECK_SCRIPT], cwd=tmp_path)
    )
    assert "suicide" in report["available"]
    assert {"classic", "mirror", "whiz"} <= set(report["available"])
    assert report["loaded"] == ["spades_variant_suicide", "suicide", "Suicide Spades"]
    assert report["check_variant"] == "passed"
    assert report["phase"] == "game_over"
    assert report["winner"] in ("NS", "EW")
    assert report["hands"] >= 1
    assert report["nils_per_team"] == [1], "Suicide Spades: exactly one Nil per partnership"

    listing = json.loads(run([str(venv / "bin" / "spades"), "variants", "--json"]))
    suicide = next(row for row in listing["variants"] if row["id"] == "suicide")
    assert suicide["status"] == "ok"
    assert suicide["distribution"] == "spades-variant-suicide"
    assert suicide["distribution_version"] == "1.0.0"
    assert not suicide["builtin"]

    # The plugin's own suite, with its own pytest configuration (which enables
    # spades_core.testing.pytest_plugin), against the installed wheel.
    output = run(
        [
            *(python, "-W", "error::DeprecationWarning", "-m", "pytest", "-p", "no:cacheprovider"),
            "-v",
            *("-c", str(EXAMPLE / "pyproject.toml"), "--rootdir", str(EXAMPLE)),
            str(EXAMPLE / "tests"),
        ],
        cwd=tmp_path,
    )
    assert "test_suicide_passes_the_conformance_suite[suicide] PASSED" in output
    assert "TestSuicideMachine::runTest PASSED" in output
    assert "test_suicide_array_forms_agree_with_its_hooks[suicide] PASSED" in output
    assert "test_suicide_runs_in_the_batch_engine PASSED" in output
    summary = output.strip().splitlines()[-1]
    assert " passed" in summary
    assert "failed" not in summary
    assert "skipped" not in summary
