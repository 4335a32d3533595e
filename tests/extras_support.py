"""What a test run needs beyond the core install, and what it does without it.

The core suite needs only ``pip install -e '.[testing]'``. Tests that need
more say so with a mark, on the test or on the whole module
(``pytestmark = pytest.mark.integration("batch")``):

* ``integration(EXTRA)`` — needs the extra ``EXTRA`` (``batch``,
  ``openspiel``, ``pettingzoo``, ``gymnasium``, ``ray``, ``plot``, ``web``);
* ``browser`` — drives Chromium through Playwright;
* ``ray`` — starts Ray;
* ``integration("endplay")`` — compares the double-dummy solver with
  endplay's (Bo Haglund's DDS), which the dev extra installs;
* ``compiled`` — compares the pure-Python install (``.venv``) with the
  optional compiled build (``.venv-compiled``, made by ``make compiled``).

Without what they need they are left out of the run, not collected (a module
that needs an extra is not even imported), and the header says which were
left out and how to get them; ``-m "not integration and not browser and not
ray"`` selects the core suite alone. A library module whose top-level imports
need an extra (``spades_core.batch``) is likewise left out of the doctests.

With ``SPADES_REQUIRE_EXTRAS=1`` (``make test`` sets it) everything must be
installed: a missing extra stops the run with an error before any test runs,
so nothing is ever skipped there. A comma-separated list instead of 1
(``SPADES_REQUIRE_EXTRAS=batch,compiled``) requires just those: the compiled
build's environment holds only the extras its tests use.

The root ``conftest.py`` hands these hooks to pytest, so that they apply to
the library's doctests under ``src/`` as well as to the tests.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
from functools import cache
from pathlib import Path
from typing import Final

import pytest

REQUIRE_ENV: Final = "SPADES_REQUIRE_EXTRAS"
"""Set to 1 to make a missing extra an error (``make test`` does), or to a
comma-separated list of the extras that must be there."""

EXTRA_MODULES: Final[dict[str, tuple[str, ...]]] = {
    "batch": ("numpy",),
    "openspiel": ("pyspiel", "numpy"),
    "pettingzoo": ("pettingzoo", "gymnasium", "numpy"),
    "gymnasium": ("gymnasium", "numpy"),
    "ray": ("ray", "psutil"),
    "plot": ("matplotlib",),
    "web": ("starlette", "uvicorn", "websockets", "httpx2"),
    "browser": ("playwright", "starlette", "uvicorn", "websockets"),
    "compiled": (),
    "endplay": ("endplay",),
}
"""What each extra (and the browser tests) installs that the tests import
(``endplay``: the outside double-dummy solver, which the dev extra installs)."""

CHROMIUM: Final = os.environ.get("CHROMIUM", "/usr/bin/chromium")
"""The browser the browser tests drive (the Makefile's ``CHROMIUM``)."""

INSTALL_HINT: Final[dict[str, str]] = {
    # Starlette's test client needs httpx2, which the dev extra installs.
    "web": "pip install -e '.[web]' httpx2",
    "browser": "pip install -e '.[dev]' and a Chromium (make browser)",
    "ray": "pip install -e '.[ray]' psutil",
    "compiled": "make compiled (and make dev for .venv)",
    "endplay": "pip install -e '.[dev]' (or pip install endplay)",
}

ROOT: Final = Path(__file__).resolve().parent.parent
SOURCE: Final = ROOT / "src"
BUILD_PYTHONS: Final = {
    "pure": ROOT / ".venv/bin/python",
    "compiled": ROOT / ".venv-compiled/bin/python",
}
"""The interpreters of the two builds the ``compiled`` tests compare."""

_left_out: dict[str, set[str]] = {}


@cache
def missing(extra: str) -> tuple[str, ...]:
    """What ``extra`` needs that is not installed (empty when it is all there)."""
    absent = tuple(name for name in EXTRA_MODULES[extra] if not _installed(name))
    if extra == "browser" and not shutil.which(CHROMIUM):
        absent += (CHROMIUM,)
    if extra == "compiled":
        absent += tuple(
            str(python.relative_to(ROOT))
            for python in BUILD_PYTHONS.values()
            if not python.exists()
        )
    return absent


def _hint(extra: str) -> str:
    return INSTALL_HINT.get(extra, f"pip install -e '.[{extra}]'")


def extras_of_marks(marks: list[pytest.Mark]) -> set[str]:
    """The extras a test's marks say it needs."""
    needed = set()
    for mark in marks:
        if mark.name == "integration":
            if len(mark.args) != 1 or mark.args[0] not in EXTRA_MODULES:
                raise pytest.UsageError(
                    f"integration marks name one extra of {', '.join(sorted(EXTRA_MODULES))}; "
                    f"got {mark.args}"
                )
            needed.add(mark.args[0])
        elif mark.name in ("browser", "ray", "compiled"):
            needed.add(mark.name)
    return needed


def declared_extras(path: Path) -> set[str]:
    """The extras a test module's ``pytestmark`` names, read without importing it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    needed: set[str] = set()
    for node in tree.body:
        if not (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
        ):
            continue
        for call in ast.walk(node.value):
            target = call.func if isinstance(call, ast.Call) else call
            if not isinstance(target, ast.Attribute):
                continue
            if target.attr == "integration" and isinstance(call, ast.Call):
                needed |= {arg.value for arg in call.args if isinstance(arg, ast.Constant)}  # type: ignore[misc]
            elif target.attr in ("browser", "ray", "compiled"):
                needed.add(target.attr)
    return needed


def imported_modules(path: Path) -> set[str]:
    """The modules of extras that a module imports at its top level, itself,
    through the tests' own helper modules it imports (and those of the
    extras such a helper declares: ``web_table_support`` loads the web
    table's server), or through the modules of ``spades_core`` it imports
    from (``spades_v0`` re-exports the PettingZoo environment;
    ``spades_core.envs.features`` serves ``spades_core.batch.features``,
    whose package needs numpy)."""
    found: set[str] = set()
    seen = {path}
    waiting = [path]
    while waiting:
        names, links = _top_level_imports(waiting.pop())
        found |= names
        for link in links - seen:
            seen.add(link)
            waiting.append(link)
    return found


@cache
def _top_level_imports(path: Path) -> tuple[frozenset[str], frozenset[Path]]:
    """What one file imports at its top level: the modules of extras it
    names, and the files of the tests' helpers and of ``spades_core`` whose
    imports it runs (each file is read once a session: the modules of the
    package import one another)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    links: set[Path] = set()
    for node in tree.body:
        nodes = [node, *getattr(node, "body", ())] if isinstance(node, ast.Try) else [node]
        for statement in nodes:
            if isinstance(statement, ast.Import):
                names |= {alias.name.split(".")[0] for alias in statement.names}
            elif isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
                names.add(statement.module.split(".")[0])
                if statement.module.startswith("spades_core."):
                    links |= _source_files(statement.module)
    found = names & {name for modules in EXTRA_MODULES.values() for name in modules}
    for name in names:
        helper = ROOT / "tests" / f"{name}.py"
        if helper.is_file():
            links.add(helper)
            # A helper that loads an extra's code its own way says so in its marks.
            for extra in declared_extras(helper):
                found |= set(EXTRA_MODULES[extra])
    return frozenset(found), frozenset(links - {path})


def _source_files(module: str) -> set[Path]:
    """The files of ``spades_core`` that importing ``module`` runs at the top:
    the module's own and its packages' ``__init__``."""
    parts = module.split(".")
    files = {SOURCE.joinpath(*parts[:depth], "__init__.py") for depth in range(2, len(parts) + 1)}
    files.add(SOURCE.joinpath(*parts[:-1], parts[-1] + ".py"))
    return {path for path in files if path.is_file()}


def extra_of(module: str) -> str:
    """The first extra that installs ``module`` (numpy: batch)."""
    return next(extra for extra, modules in EXTRA_MODULES.items() if module in modules)


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def required_extras() -> tuple[str, ...]:
    """The extras that ``SPADES_REQUIRE_EXTRAS`` makes an error to miss."""
    value = os.environ.get(REQUIRE_ENV, "")
    if value == "1":
        return tuple(EXTRA_MODULES)
    named = tuple(name.strip() for name in value.split(",") if name.strip() and value != "0")
    unknown = [name for name in named if name not in EXTRA_MODULES]
    if unknown:
        raise pytest.UsageError(
            f"{REQUIRE_ENV}: unknown extras {unknown}; use 1 or names of {', '.join(EXTRA_MODULES)}"
        )
    return named


def pytest_configure(config: pytest.Config) -> None:
    absent = {extra: missing(extra) for extra in required_extras() if missing(extra)}
    if absent:
        lines = [
            f"  {extra}: no {', '.join(names)} ({_hint(extra)})" for extra, names in absent.items()
        ]
        demand = (
            "every extra must be installed"
            if os.environ.get(REQUIRE_ENV) == "1"
            else "these extras must be installed"
        )
        raise pytest.UsageError(
            f"{REQUIRE_ENV}={os.environ.get(REQUIRE_ENV)}: {demand}, and these are not:\n"
            + "\n".join(lines)
        )


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.suffix != ".py" or not collection_path.is_file():
        return None
    if collection_path == SOURCE / "spades_core" / "state.py":
        # Importing it warns (games pickled by 0.1 name it): it has no doctest,
        # and tests/test_compat.py imports it on purpose.
        return True
    if collection_path.is_relative_to(SOURCE):
        # A module of a package that needs an extra (spades_core.batch) is
        # imported through that package's __init__, which must import.
        needed = {
            extra_of(name)
            for package in collection_path.parents
            if package.is_relative_to(SOURCE) and (package / "__init__.py").is_file()
            for name in imported_modules(package / "__init__.py")
            if not _installed(name)
        }
    elif collection_path.parent == ROOT / "tests":
        # A test module says what it needs (tests/test_extras.py checks it does).
        needed = declared_extras(collection_path)
    else:
        return None
    # A module whose own imports need a missing extra cannot even be imported.
    needed |= {extra_of(name) for name in imported_modules(collection_path) if not _installed(name)}
    absent = sorted(extra for extra in needed if missing(extra))
    if not absent:
        return None
    for extra in absent:
        _left_out.setdefault(extra, set()).add(str(collection_path.relative_to(ROOT)))
    return True


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    kept, dropped = [], []
    for item in items:
        absent = sorted(
            extra for extra in extras_of_marks(list(item.iter_markers())) if missing(extra)
        )
        if absent:
            dropped.append(item)
            for extra in absent:
                _left_out.setdefault(extra, set()).add(item.nodeid)
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_report_header(config: pytest.Config) -> list[str]:
    required = required_extras()
    if required == tuple(EXTRA_MODULES):
        return [f"extras: all required ({REQUIRE_ENV}=1)"]
    if required:
        return [f"extras: {', '.join(required)} required ({REQUIRE_ENV})"]
    absent = [extra for extra in EXTRA_MODULES if missing(extra)]
    if not absent:
        return ["extras: all installed"]
    return [
        "extras: tests that need these are left out: "
        + "; ".join(f"{extra} ({_hint(extra)})" for extra in absent)
    ]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _left_out:
        return
    terminalreporter.section("left out: extras not installed")
    for extra, where in sorted(_left_out.items()):
        terminalreporter.write_line(f"{extra}: {len(where)} modules or tests ({_hint(extra)})")
