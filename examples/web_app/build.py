"""Build the web app into a directory of static files (``make app``).

    python examples/web_app/build.py --out build/app [--plugin PATH]...

The directory holds everything the app needs, so any static file server
serves it and, after the first visit, the browser needs no server at all:

* ``index.html`` and ``static/``: the page shared with the multiplayer table
  (``examples/web_table/static``);
* ``pyodide/``: Pyodide (CPython compiled to WebAssembly) from the npm
  package installed by ``npm ci`` from ``package-lock.json``;
* ``wheels/``: spades-core's wheel and those of its two dependencies, attrs
  and typing-extensions (at the versions of the environment running this
  script), made by ``pip wheel``, and the wheel of every ``--plugin`` (a
  project directory, built with ``pip wheel``, or a ready ``.whl``). Pyodide
  installs them with their metadata, so variants load through the
  ``spades_core.variants`` entry points as they do anywhere else;
* ``python/``: the table's protocol (``table_protocol.py``, which the
  server runs too) and the app's table (``local_table.py``);
* ``worker.js``, ``sw.js`` (the service worker, with the list of files to
  keep offline, each with its size and SHA-256), ``manifest.webmanifest``
  and the icons;
* ``build-info.json``: the wheels and modules the worker loads, and a hash of
  every input, so a test can tell a build that no longer matches its sources.

A plugin's own dependencies other than spades-core are not fetched: give
their wheels as ``--plugin`` too. Only pure-Python wheels can be bundled.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final

HERE: Final = Path(__file__).resolve().parent
ROOT: Final = HERE.parents[1]
WEB_TABLE: Final = ROOT / "examples" / "web_table"
PYODIDE: Final = HERE / "node_modules" / "pyodide"
PYODIDE_FILES: Final = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What Pyodide loads in a worker (its other files serve Node or debugging)."""
DEPENDENCIES: Final = ("attrs", "typing_extensions")
"""spades-core's runtime dependencies."""
PYTHON_MODULES: Final = (WEB_TABLE / "table_protocol.py", HERE / "local_table.py")
APP_FILES: Final = ("worker.js", "manifest.webmanifest", "icons/icon-192.png", "icons/icon-512.png")
INFO: Final = "build-info.json"
_SKIPPED_DIRECTORIES: Final = frozenset(
    {"__pycache__", "build", "dist", "node_modules", ".venv", ".pytest_cache"}
)


class BuildError(Exception):
    """The app cannot be built; the message says why."""


# -- what the build reads ------------------------------------------------------------


def _files_under(directory: Path) -> Iterable[Path]:
    for path in sorted(directory.rglob("*")):
        parts = set(path.relative_to(directory).parts)
        if path.is_file() and not parts & _SKIPPED_DIRECTORIES and not path.name.endswith(".pyc"):
            yield path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _label(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def input_files(plugins: Sequence[Path]) -> list[Path]:
    """Every file the build reads, plugins included."""
    found = [
        ROOT / "pyproject.toml",
        *_files_under(ROOT / "src"),
        *_files_under(WEB_TABLE / "static"),
        *PYTHON_MODULES,
        HERE / "build.py",
        HERE / "sw.js",
        HERE / "package-lock.json",
        *(HERE / name for name in APP_FILES),
    ]
    for plugin in plugins:
        found.extend(_files_under(plugin) if plugin.is_dir() else [plugin])
    return found


def input_digests(plugins: Sequence[Path]) -> dict[str, str]:
    """The SHA-256 of every input, by path (relative to the repository when inside it)."""
    return {_label(path): _digest(path) for path in input_files(plugins)}


def stale_inputs(out: Path) -> list[str]:
    """The inputs that changed (or appeared, or went) since ``out`` was built,
    with the plugins it was built with; every input when it was never built."""
    try:
        info = json.loads((out / INFO).read_text(encoding="utf-8"))
        plugins = [Path(plugin) for plugin in info["plugins"]]
        built: dict[str, str] = info["inputs"]
        now = input_digests(plugins)
    except (OSError, ValueError, KeyError, TypeError):
        return ["(no complete build)"]
    return sorted(name for name in built.keys() | now.keys() if built.get(name) != now.get(name))


# -- building -----------------------------------------------------------------------


def _run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode:
        raise BuildError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")


def _wheels(into: Path, plugins: Sequence[Path]) -> list[str]:
    """Build or copy every wheel into ``into``; their file names, spades-core's first."""
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(into)]
    _run([*pip, str(ROOT)])
    pinned = [f"{name}=={importlib.metadata.version(name)}" for name in DEPENDENCIES]
    _run([*pip, "--only-binary=:all:", *pinned])
    for plugin in plugins:
        if plugin.is_dir():
            _run([*pip, str(plugin)])
        elif plugin.suffix == ".whl" and plugin.is_file():
            shutil.copy2(plugin, into / plugin.name)
        else:
            raise BuildError(f"plugin {plugin}: give a project directory or a .whl file")
    names = sorted(path.name for path in into.glob("*.whl"))
    impure = [name for name in names if not name.endswith("-none-any.whl")]
    if impure:
        raise BuildError(
            f"only pure-Python wheels can be bundled, and {', '.join(impure)} is not; "
            "Pyodide needs a WebAssembly build of such a package"
        )
    return sorted(names, key=lambda name: not name.startswith("spades_core-"))


def _service_worker(out: Path) -> str:
    """sw.js with the files to keep (each with its size and SHA-256, so the
    copy can be checked) and a version that changes with any of them."""
    files = sorted(
        path.relative_to(out).as_posix()
        for path in out.rglob("*")
        if path.is_file() and path.name != "sw.js"
    )
    version = hashlib.sha256()
    for name in files:
        version.update(name.encode() + b"\0" + (out / name).read_bytes())
    template = (HERE / "sw.js").read_text(encoding="utf-8")
    for mark in ("__VERSION__", "__FILES__"):
        if mark not in template:
            raise BuildError(f"sw.js lacks {mark}")
    # The page's own address is whatever the server answers for the folder;
    # its bytes are kept as they come (index.html is checked under its name).
    page = {"path": "./", "size": (out / "index.html").stat().st_size, "sha256": None}
    listed = [
        page,
        *(
            {"path": name, "size": (out / name).stat().st_size, "sha256": _digest(out / name)}
            for name in files
        ),
    ]
    return template.replace("__VERSION__", version.hexdigest()[:16]).replace(
        "__FILES__", json.dumps(listed)
    )


def build(out: Path, plugins: Sequence[Path]) -> dict[str, Any]:
    """Build the app into ``out`` (replacing it once the new build is complete);
    its build information."""
    missing = [name for name in PYODIDE_FILES if not (PYODIDE / name).is_file()]
    if missing:
        raise BuildError(
            f"{PYODIDE} lacks {', '.join(missing)}: run `npm ci` in {HERE} (make app does)"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        shutil.copy2(WEB_TABLE / "static" / "index.html", staging / "index.html")
        shutil.copytree(WEB_TABLE / "static", staging / "static", ignore=_ignore_page)
        (staging / "pyodide").mkdir()
        for name in PYODIDE_FILES:
            shutil.copy2(PYODIDE / name, staging / "pyodide" / name)
        (staging / "wheels").mkdir()
        wheels = _wheels(staging / "wheels", plugins)
        (staging / "python").mkdir()
        for module in PYTHON_MODULES:
            shutil.copy2(module, staging / "python" / module.name)
        for name in APP_FILES:
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(HERE / name, staging / name)
        pyodide = json.loads((PYODIDE / "package.json").read_text(encoding="utf-8"))["version"]
        info = {
            "pyodide": pyodide,
            "wheels": wheels,
            "python": [module.name for module in PYTHON_MODULES],
            "plugins": [str(plugin) for plugin in plugins],
            "inputs": input_digests(plugins),
        }
        (staging / INFO).write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
        (staging / "sw.js").write_text(_service_worker(staging), encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return info


def _ignore_page(directory: str, names: list[str]) -> list[str]:
    return ["index.html"] if Path(directory) == WEB_TABLE / "static" else []


def main(argv: list[str] | None = None) -> int:
    """Build the app unless the build in ``--out`` is up to date."""
    parser = argparse.ArgumentParser(description="Build the spades-core web app.")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "app")
    parser.add_argument(
        "--plugin",
        type=Path,
        action="append",
        default=[],
        help="a variant plugin's project directory or wheel to bundle (repeatable)",
    )
    parser.add_argument("--force", action="store_true", help="build even when up to date")
    args = parser.parse_args(argv)
    plugins = [plugin.resolve() for plugin in args.plugin]
    out: Path = args.out.resolve()
    if out in (ROOT, ROOT.parent, Path(out.anchor)) or ROOT.is_relative_to(out):
        parser.error(f"--out {args.out} would replace the repository")
    current = [str(plugin) for plugin in plugins]
    try:
        built_with = json.loads((out / INFO).read_text(encoding="utf-8"))["plugins"]
    except (OSError, ValueError, KeyError, TypeError):
        built_with = None
    if not args.force and built_with == current and not stale_inputs(out):
        print(f"The web app in {_label(out)} is up to date.")
        return 0
    try:
        info = build(out, plugins)
    except BuildError as error:
        print(f"build.py: {error}", file=sys.stderr)
        return 1
    size = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
    print(
        f"Built the web app in {_label(out)}: Pyodide {info['pyodide']}, "
        f"wheels {', '.join(info['wheels'])} ({size / 2**20:.1f} MiB in all)."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
