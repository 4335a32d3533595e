"""Shared by the framework-integration tests: the example plugin (Suicide
Spades, ``examples/custom_variant``) installed for the duration of a test.

The plugin is installed the way an installed distribution is found: its
source directory and a ``*.dist-info`` directory naming its entry point are
put on ``sys.path``, and the registry rediscovers variants. Everything is
undone afterwards (see :mod:`registry_isolation`).
"""

from __future__ import annotations

import contextlib
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import spades_core as sc
from registry_isolation import registry_restored

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "examples" / "custom_variant"
PLUGIN_MODULE = "spades_variant_suicide"
VARIANTS = ("classic", "mirror", "whiz", "suicide")
"""The three built-in variants and the example plugin's."""


TOURNAMENT_PLUGIN = ROOT / "examples" / "tournament_spades"
"""The plugin with phases (Tournament Spades), installed the same way."""


@contextlib.contextmanager
def example_plugin_installed(
    site: Path, plugin: Path = PLUGIN, module: str = PLUGIN_MODULE
) -> Iterator[None]:
    """Make an example plugin (by default Suicide Spades; ``plugin`` is its
    project directory, ``module`` its import package) an installed variant
    while the block runs."""
    project = tomllib.loads((plugin / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    points = project["entry-points"]["spades_core.variants"]
    name, version = project["name"], project["version"]
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    lines = "".join(f"{key} = {value}\n" for key, value in points.items())
    (info / "entry_points.txt").write_text(f"[spades_core.variants]\n{lines}")
    with registry_restored(module):
        sys.path[:0] = [str(plugin / "src"), str(site)]
        sc.refresh_variants()
        yield
