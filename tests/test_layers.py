"""The package is built in layers with no import circle: every import of every
module counts (at module level, inside functions and under ``TYPE_CHECKING``),
and nothing reaches up a layer (docs/design.md, "Layers")."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

ROOT: Final = Path(__file__).resolve().parent.parent
SOURCE: Final = ROOT / "src"
PACKAGES: Final = ("spades_core", "spades_variants")
LAYERS: Final = ("values", "rules", "engine")
"""The core's layers, lowest first; everything else of spades_core integrates."""


def modules() -> dict[str, Path]:
    """Every module of the two packages, by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in sorted((SOURCE / package).rglob("*.py")):
            parts = list(path.relative_to(SOURCE).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(module: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The modules of the packages that ``module`` imports, anywhere in it."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                home = package
                for _ in range(node.level - 1):
                    home = home.rpartition(".")[0]
                base = f"{home}.{base}" if base else home
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                yield name


def graph() -> dict[str, set[str]]:
    """Each module's imports. A package's ``__init__`` importing its own
    submodules is the package's face, not a dependency of theirs, so those
    edges are left out."""
    known = modules()
    edges = {}
    for module, path in known.items():
        face = path.name == "__init__.py"
        edges[module] = {
            target
            for target in imported(module, path, known)
            if not (face and target.startswith(module + "."))
        }
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(edges)))
    try:
        for node in edges:
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return found


def layer_of(module: str) -> int | None:
    """The index in :data:`LAYERS` of a core module, ``len(LAYERS)`` for the
    rest of spades_core and the variants, ``None`` for the package's face and
    the short paths that re-export a layer's module."""
    parts = module.split(".")
    if parts[0] == "spades_variants":
        return len(LAYERS)
    if len(parts) == 1:
        return None
    if parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    if len(parts) == 2 and any(
        (SOURCE / "spades_core" / layer / f"{parts[1]}.py").is_file() for layer in LAYERS
    ):
        return None
    if parts[1] == "state":
        return None
    return len(LAYERS)


def test_no_module_takes_part_in_an_import_circle() -> None:
    assert circles(graph()) == []


def test_no_module_imports_a_higher_layer() -> None:
    upward = []
    for module, targets in graph().items():
        own = layer_of(module)
        if own is None:
            continue
        for target in targets:
            theirs = layer_of(target)
            if theirs is None and own < len(LAYERS):
                upward.append(f"{module} -> {target} (a face above every layer)")
            elif theirs is not None and theirs > own:
                upward.append(f"{module} -> {target}")
    assert upward == []


def test_the_core_never_imports_the_built_in_variants() -> None:
    offenders = [
        f"{module} -> {target}"
        for module, targets in graph().items()
        if module.startswith("spades_core")
        for target in targets
        if target.startswith("spades_variants")
    ]
    assert offenders == []


def test_the_check_finds_a_circle_and_an_upward_import() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(edges) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    assert layer_of("spades_core.rules.tricks") == 1
    assert layer_of("spades_core.engine.game") == 2
    assert layer_of("spades_core.bots") == 3
    assert layer_of("spades_core.game") is None


@pytest.mark.slow
def test_the_import_linter_contracts_are_kept() -> None:
    done = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: " in done.stdout
    assert "0 broken" in done.stdout
