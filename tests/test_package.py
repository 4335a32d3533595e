"""The package's top level: ``import spades_core`` loads the engine only, and the
players, coach, records, play-outs and encoding load on first use under their
usual names.

Each check that depends on what is already imported runs in a fresh
interpreter, because the test session itself has loaded everything.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import spades_core as sc

ROOT = Path(__file__).resolve().parent.parent

HEAVY_PARTS = (
    "spades_core.bots",
    "spades_core.tips",
    "spades_core.engine.sampling",
    "spades_core.engine.encoding",
    "spades_core.engine.playouts",
    "spades_core.engine.records",
    "spades_core.cli",
    "spades_core.testing",
)
INTEGRATIONS = (
    "numpy",
    "pyspiel",
    "pettingzoo",
    "gymnasium",
    "ray",
    "starlette",
    "uvicorn",
    "httpx",
    "matplotlib",
    "hypothesis",
)


def fresh(code: str) -> str:
    """What ``code`` prints when run by a new interpreter of this environment."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def modules_after(code: str) -> set[str]:
    return set(json.loads(fresh(f"{code}\nimport json, sys\nprint(json.dumps(list(sys.modules)))")))


def test_importing_the_package_loads_neither_heavy_parts_nor_integrations() -> None:
    loaded = modules_after("import spades_core")
    assert "spades_core.rules.variant" in loaded
    assert "spades_core.values.cards" in loaded
    heavy = {
        name
        for name in loaded
        for part in (*HEAVY_PARTS, *INTEGRATIONS)
        if name == part or name.startswith(part + ".")
    }
    assert heavy == set()


def test_a_plugin_importing_variant_and_cardset_stays_light() -> None:
    loaded = modules_after("from spades_core import CardSet, Variant, Rules, SpadesError")
    assert not {"spades_core.bots", "spades_core.engine.records", "spades_core.tips"} & loaded


def test_the_first_use_of_a_lazy_name_loads_only_its_module() -> None:
    loaded = modules_after("import spades_core as sc\nsc.dumps")
    assert "spades_core.engine.records" in loaded
    assert "spades_core.bots" not in loaded


def test_coach_determinize_and_playout_are_functions_when_their_modules_load_first() -> None:
    printed = fresh(
        "import spades_core.tips, spades_core.sampling, spades_core.playouts, spades_core as sc\n"
        "sc.bots.make('hard', seed=1)\n"
        "print(type(sc.coach).__name__, type(sc.determinize).__name__, callable(sc.playout))"
    )
    assert printed.split() == ["function", "function", "True"]


def test_submodules_the_package_used_to_expose_are_still_attributes() -> None:
    printed = fresh(
        "import spades_core as sc\n"
        "print(sc.records.load_lines.__name__, sc.views.View.__name__, sc.encoding.__name__)"
    )
    assert printed.split() == ["load_lines", "View", "spades_core.encoding"]


def test_the_namespace_holds_no_helper_modules_of_its_own() -> None:
    for helper in ("importlib", "sys", "types"):
        assert not hasattr(sc, helper), helper


def test_lazy_names_are_the_objects_of_their_modules() -> None:
    bots, tips, sampling, encoding, playouts, records = (
        importlib.import_module(f"spades_core.{name}")
        for name in ("bots", "tips", "sampling", "encoding", "playouts", "records")
    )
    assert sc.bots is bots
    assert sc.encoding is encoding
    assert sc.coach is tips.coach
    assert sc.Tip is tips.Tip
    assert sc.determinize is sampling.determinize
    assert sc.dumps is records.dumps
    assert sc.loads is records.loads
    assert isinstance(sc.bots, types.ModuleType)
    assert callable(sc.coach)
    assert sc.playout is playouts.playout


def test_no_module_shares_its_name_with_a_public_name_of_the_package() -> None:
    modules = {path.stem for path in (ROOT / "src" / "spades_core").glob("*.py")}
    modules |= {path.name for path in (ROOT / "src" / "spades_core").iterdir() if path.is_dir()}
    functions = {name for name in sc.__all__ if not isinstance(getattr(sc, name), types.ModuleType)}
    assert modules & functions == set()


def test_every_public_name_resolves_and_is_listed() -> None:
    for name in sc.__all__:
        assert getattr(sc, name) is not None, name
    assert set(sc.__all__) <= set(dir(sc))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'bot'"):
        getattr(sc, "bot")  # noqa: B009 - mypy rejects the plain lookup, as it should
    assert not hasattr(sc, "records_of")


def test_a_lazily_loaded_game_round_trip_works_from_a_fresh_interpreter() -> None:
    printed = fresh(
        "import spades_core as sc\n"
        "game = sc.new_game('whiz', seed=4, target_score=120)\n"
        "players = [sc.bots.make('easy', seed=i) for i in range(4)]\n"
        "done = sc.bots.play_game(game, players)\n"
        "print(done.is_over, sc.loads(sc.dumps(done)) == done)"
    )
    assert printed.split() == ["True", "True"]


def _is_module(name: str) -> bool:
    path = ROOT.joinpath("src", *name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imports_of_private_parts(source: Path, module: str) -> list[str]:
    """``from X import Y`` lines of ``source`` that reach into another package's
    private module, or take a private name from any other module."""
    package = module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        if not node.module.startswith(("spades_core", "spades_variants")):
            continue
        for alias in node.names:
            private_name = alias.name.startswith("_") and not alias.name.startswith("__")
            if _is_module(f"{node.module}.{alias.name}"):
                # ``from package import module``: judged as an import of the module.
                target, private_name = f"{node.module}.{alias.name}", False
            else:
                target = node.module
            owner = target.rpartition(".")[0]
            inside = package == owner or package.startswith(owner + ".")
            private_module = any(part.startswith("_") for part in target.split(".")[1:])
            if private_name or (private_module and not inside):
                found.append(f"{module}: from {node.module} import {alias.name}")
    return found


def test_no_module_reaches_into_another_packages_private_parts() -> None:
    source_root = ROOT / "src"
    offenders = []
    for path in sorted(source_root.rglob("*.py")):
        parts = path.relative_to(source_root).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if parts[-1] == "__init__":
            module += ".__init__"
        offenders += _imports_of_private_parts(path, module)
    assert offenders == []


def test_the_private_import_check_catches_what_it_should(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from spades_core.bots._play import normal_play\n", encoding="utf-8")
    assert _imports_of_private_parts(sample, "spades_core.tips") != []
    assert _imports_of_private_parts(sample, "spades_core.bots._search") == []
    sample.write_text("from spades_core.testing.strategies import _accepts\n", encoding="utf-8")
    assert _imports_of_private_parts(sample, "spades_core.testing.conformance") != []
    sample.write_text("from spades_core.bots import _play\n", encoding="utf-8")
    assert _imports_of_private_parts(sample, "spades_core.tips") != []
    assert _imports_of_private_parts(sample, "spades_core.bots.masks") == []


def test_nothing_cites_a_tracker_number_or_a_planning_document() -> None:
    # Built from parts so that this test does not find itself.
    cited = re.compile(r"[Ii]ssue #?[0-9]+|" + "DESIGN" + r"\.md|" + "RULES" + r"\.md")
    found = []
    for top in ("src", "tests", "docs", "examples", "bench"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in (".py", ".md", ".toml", ".js", ".html") or "build" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if cited.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
