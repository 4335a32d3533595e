"""Tests that install plugin distributions on the fly leave no trace: this puts
back ``sys.path``, the plugin modules, the built-in-only switch and the registry."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

import spades_core as sc
from spades_core.rules.registry import BUILTIN_ONLY_ENV


@contextlib.contextmanager
def registry_restored(module_prefix: str) -> Iterator[None]:
    """Undo, on exit, what a test did to ``sys.path``, to the modules whose
    names start with ``module_prefix``, to ``SPADES_CORE_BUILTIN_ONLY``, and
    to what the registry discovered."""
    saved_path = list(sys.path)
    saved_modules = set(sys.modules)
    saved_switch = os.environ.get(BUILTIN_ONLY_ENV)
    try:
        yield
    finally:
        sys.path[:] = saved_path
        for name in set(sys.modules) - saved_modules:
            if name.startswith(module_prefix):
                del sys.modules[name]
        if saved_switch is None:
            os.environ.pop(BUILTIN_ONLY_ENV, None)
        else:
            os.environ[BUILTIN_ONLY_ENV] = saved_switch
        sc.refresh_variants()
