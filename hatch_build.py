"""The optional compiled build: a hatch build hook that compiles the hot modules with mypyc.

Off by default: ``pip install .`` and ``make dev`` build the pure-Python
package, which stays the reference (the browser build runs it under Pyodide).
``HATCH_BUILD_HOOK_ENABLE_CUSTOM=1`` turns the hook on (``make compiled`` sets
it): the wheel then also holds a C extension for each module listed under
``modules`` in pyproject.toml's ``[tool.hatch.build.targets.wheel.hooks.custom]``,
built by mypyc from the same typed source, beside that source. Python imports
an extension module before a ``.py`` file of the same name, so a compiled
wheel runs the compiled modules and every other module as it is.
"""

from __future__ import annotations

import glob
import os
import shutil
import sys
import sysconfig
import tempfile
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompiledBuildHook(BuildHookInterface):
    """Compiles the modules of ``config["modules"]`` into the wheel with mypyc."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Build the extensions and add them to the wheel as platform files."""
        if self.target_name != "wheel":
            return
        if version == "editable":
            raise RuntimeError(
                "the compiled build makes a regular wheel, not an editable install: "
                "pip install . (without -e) with HATCH_BUILD_HOOK_ENABLE_CUSTOM=1, or make compiled"
            )
        modules = self.config.get("modules", [])
        if not modules or not all(isinstance(name, str) for name in modules):
            raise TypeError("the compiled build hook needs `modules`, a list of module names")
        os.chdir(self.root)  # mypy reads its settings from pyproject.toml here
        built = self._compile([f"src/{name.replace('.', '/')}.py" for name in modules])
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        for path in built:
            relative = os.path.relpath(path, self._lib_dir)
            if not relative.endswith(suffix):
                raise RuntimeError(f"mypyc built an unexpected file: {relative}")
            build_data["force_include"][path] = relative
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def _compile(self, paths: list[str]) -> list[str]:
        """The extension modules of ``paths``, built in a scratch directory."""
        # Imported here: hatchling installs the hook's dependencies (mypy and
        # setuptools) only when the hook is enabled.
        from mypyc.build import mypycify
        from setuptools import Distribution

        scratch = tempfile.mkdtemp(prefix="spades-core-mypyc-")
        self._lib_dir = os.path.join(scratch, "lib")
        extensions = mypycify(
            # The compiled modules import none of the optional integrations (Ray,
            # OpenSpiel, plotting, the web table), but mypy follows every import
            # of the package; those it cannot find are typed as Any.
            ["--ignore-missing-imports", *paths],
            opt_level="3",
            multi_file=True,
            target_dir=os.path.join(scratch, "c"),
        )
        distribution = Distribution({"ext_modules": extensions, "name": "spades-core"})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = self._lib_dir
        command.build_temp = os.path.join(scratch, "temp")
        command.parallel = int(os.environ.get("SPADES_CORE_COMPILE_JOBS", "2"))
        distribution.run_command("build_ext")
        built = sorted(
            glob.glob(
                os.path.join(self._lib_dir, "**", "*" + sysconfig.get_config_var("EXT_SUFFIX")),
                recursive=True,
            )
        )
        if len(built) < len(paths):
            raise RuntimeError(
                f"mypyc built {len(built)} extension modules for {len(paths)} modules"
            )
        print(f"compiled {len(paths)} modules with mypyc for {sys.implementation.cache_tag}")
        self._scratch = scratch
        return built

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the scratch directory once the wheel holds the extensions."""
        scratch = getattr(self, "_scratch", None)
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
