"""The API reference (docs/api.md and the ``:::`` blocks of other pages,
rendered by mkdocstrings) documents every public name: each module of the
package but the command line's appears there, and every name in the
``__all__`` of those modules and of the package itself has a docstring there.
The public API is in docs/api.md and the names the layers share among
themselves in docs/internals.md: no name is on both, and a module split
between them loses none of its names.

Read statically, as mkdocstrings reads it (griffe does not import the
modules), so the integrations are checked without their extras installed.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path
from typing import Final

import pytest

ROOT: Final = Path(__file__).resolve().parent.parent
SOURCE: Final = ROOT / "src"
DOCS: Final = ROOT / "docs"
DIRECTIVE: Final = re.compile(r"^::: (?P<module>[\w.]+)\n(?P<options>(?:[ \t]+.*\n)*)", re.M)

NOT_IN_THE_REFERENCE: Final = {
    "spades_core.cli": "the command line, documented as commands in docs/cli.md",
    "spades_core.__main__": "python -m spades_core, the command line",
    "spades_core.state": "the module of release 0.1 that games pickled by it name (deprecated)",
}
"""Public modules (no ``_`` in their path) that the reference leaves out, and why."""


LAYERS: Final = ("values", "rules", "engine")
"""The layer packages: a top-level module that re-exports one of their modules
(``spades_core.game`` for ``spades_core.engine.game``) is documented at its home."""


def home_of(module: str) -> str:
    """The module whose names ``module`` serves: its layer module for a public
    path such as ``spades_core.game``, the module whose ``__all__`` it serves
    (``spades_core.envs.features``), else ``module`` itself."""
    for layer in LAYERS:
        home = module.replace("spades_core.", f"spades_core.{layer}.", 1)
        if module.count(".") == 1 and module_path(home).exists():
            return home
    for node in tree(module).body:
        # A public path of another module: it serves that module's __all__.
        if isinstance(node, ast.ImportFrom) and any(a.name == "__all__" for a in node.names):
            return _absolute(module, node)
    return module


def module_path(module: str) -> Path:
    path = SOURCE.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def public_modules() -> list[str]:
    """Every module of the package with no private part in its name."""
    found = []
    for path in sorted((SOURCE / "spades_core").rglob("*.py")):
        parts = list(path.relative_to(SOURCE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if any(part.startswith("_") and part != "__main__" for part in parts):
            continue
        found.append(".".join(parts))
    return found


@cache
def tree(module: str) -> ast.Module:
    return ast.parse(module_path(module).read_text(encoding="utf-8"))


def all_of(module: str) -> list[str]:
    """The module's ``__all__`` as written."""
    for node in tree(module).body:
        if not isinstance(node, ast.Assign | ast.AnnAssign):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            value = node.value
            assert isinstance(value, ast.List | ast.Tuple), module
            return [ast.literal_eval(element) for element in value.elts]
    return []


def documented(pages: list[Path] | None = None) -> dict[str, set[str] | None]:
    """Each module the pages (all of ``docs/`` unless told) render, with the
    members they list (``None``: all of ``__all__``; an empty set: only the
    module's own docstring)."""
    found: dict[str, set[str] | None] = {}
    for page in sorted(DOCS.rglob("*.md")) if pages is None else pages:
        for match in DIRECTIVE.finditer(page.read_text(encoding="utf-8")):
            options = match["options"]
            members: set[str] | None = None
            if re.search(r"^\s+members:\s*false\s*$", options, re.M):
                members = set()
            elif "members:" in options:
                members = set(re.findall(r"^\s+- (\w+)\s*$", options, re.M))
            module = match["module"]
            previous = found.get(module, set())
            found[module] = None if members is None or previous is None else previous | members
    return found


def defined_in(module: str, name: str) -> bool:
    """Whether ``module`` defines ``name`` itself (rather than importing it)."""
    for node in tree(module).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return True
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
    return False


def _string_after(body: list[ast.stmt], index: int) -> bool:
    following = body[index + 1] if index + 1 < len(body) else None
    return (
        isinstance(following, ast.Expr)
        and isinstance(following.value, ast.Constant)
        and isinstance(following.value.value, str)
        and bool(following.value.value.strip())
    )


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The module a ``from … import`` of ``module`` reads from."""
    if not node.level:
        return node.module or ""
    package = module if module_path(module).name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def has_docstring(module: str, name: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether ``name`` of ``module`` has a docstring as mkdocstrings finds it:
    its own (a function or class), the string after its assignment (data), or
    that of what it is imported from."""
    if f"{module}:{name}" in seen:
        return False
    body = tree(module).body
    defined = False
    for index, node in enumerate(body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            # Of overloads, the implementation carries the docstring.
            if node.name == name:
                if ast.get_docstring(node) is not None:
                    return True
                defined = True
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return _string_after(body, index)
    if defined:
        return False
    for found in ast.walk(tree(module)):
        if not isinstance(found, ast.ImportFrom):
            continue
        node = found
        for alias in node.names:
            if (alias.asname or alias.name) != name:
                continue
            home = _absolute(module, node)
            if module_path(home).exists():
                return has_docstring(home, alias.name, seen | {module + ":" + name})
            if module_path(f"{home}.{alias.name}").exists():
                return ast.get_docstring(tree(f"{home}.{alias.name}")) is not None
    return False


def test_every_public_module_is_in_the_reference() -> None:
    reference = documented()
    missing = [
        module
        for module in public_modules()
        if module not in reference
        and not any(module == m or module.startswith(m + ".") for m in NOT_IN_THE_REFERENCE)
        and home_of(module) == module
    ]
    assert missing == [], "add them to docs/api.md (or to NOT_IN_THE_REFERENCE, with why)"


@pytest.mark.parametrize("module", sorted(documented()))
def test_every_name_a_documented_module_exports_has_a_docstring(module: str) -> None:
    listed = documented()[module]
    names = all_of(module) if listed is None else sorted(listed)
    if listed is not None:
        assert set(listed) <= set(all_of(module)), f"{module}: the page lists names not in __all__"
    assert ast.get_docstring(tree(module)), f"{module} has no module docstring"
    undocumented = [name for name in names if not has_docstring(module, name)]
    assert undocumented == []


def test_every_name_of_the_package_is_documented_in_the_module_that_holds_it() -> None:
    reference = documented()
    homes = {
        module: set(all_of(module)) if members is None else members
        for module, members in reference.items()
        # The package's own page lists only the names the package itself defines.
        if module != "spades_core" or members is not None
    }
    not_found = []
    for name in all_of("spades_core"):
        if name.startswith("__"):
            continue  # __version__, the release
        if module_path(f"spades_core.{name}").exists():
            if home_of(f"spades_core.{name}") not in reference:
                not_found.append(name)
            continue
        if not any(name in names for names in homes.values()):
            not_found.append(name)
    assert not_found == []


def test_the_static_reading_finds_docstrings_and_their_absence(tmp_path: Path) -> None:
    assert has_docstring("spades_core.values.actions", "NIL")  # data: the string after it
    assert has_docstring("spades_core.engine.game", "new_game")  # a function
    assert has_docstring("spades_core.batch", "play_hands")  # re-exported, relative import
    assert not has_docstring("spades_core.values.actions", "no_such_name")
    assert "spades_core.tips" in public_modules()
    assert "spades_core.engine._compat" not in public_modules()


def test_a_module_split_between_pages_loses_none_of_its_names() -> None:
    # A module whose public names are in the API reference and whose others
    # are on the internals page lists each of its own names on one of them.
    lost = {
        module: sorted(
            name
            for name in all_of(module)
            if name not in members and defined_in(module, name) and not name.startswith("__")
        )
        for module, members in documented().items()
        if members is not None
    }
    assert {module: names for module, names in lost.items() if names} == {}


def test_the_api_reference_lists_the_public_api_and_internals_the_rest() -> None:
    public = documented([DOCS / "api.md"])
    internal = documented([DOCS / "internals.md"])

    def listed(pages: dict[str, set[str] | None], module: str) -> set[str]:
        names = pages.get(module, set())
        return set(all_of(module)) if names is None else names

    both = {module: sorted(listed(public, module) & listed(internal, module)) for module in public}
    assert {module: names for module, names in both.items() if names} == {}
    # The steps that skip the checks, and legality's tables, are the engine's own.
    for module, name in [
        ("spades_core.engine.transitions", "play_unchecked"),
        ("spades_core.engine.game", "play_unchecked"),
        ("spades_core.rules.legality", "PLAYS_BY_MASK"),
    ]:
        assert name not in listed(public, module), f"{module}.{name} is in the API reference"
        assert name in listed(internal, module)
