"""Names of release 0.1 that were renamed or reshaped, kept for one minor release.

Everything kept here goes in spades-core 0.3.0 (:data:`REMOVED_IN`). Until
then each old name works as it did and raises a :class:`DeprecationWarning`
naming its replacement (the changelog lists every name under "Deprecated").
Old names are kept without machinery:

* a module's old attribute (``transitions.check``) is served by the module's
  own ``__getattr__``, an :class:`OldNames` holding the objects it stands for;
* an old keyword (``play_game(max_hands=)``) is read by :func:`renamed_keyword`;
* an old method (``Game.legal_plays()``) is a method that warns and calls
  the new one.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Mapping
from typing import Any, Final, final

from spades_core.values.errors import RulesError

__all__ = [
    "DEPRECATED_KEYWORDS",
    "DEPRECATED_METHODS",
    "REMOVED_IN",
    "OldNames",
    "deprecated",
    "renamed_keyword",
]

REMOVED_IN: Final = "0.3.0"
"""The release that removes every name this module keeps."""

_PACKAGE_DIR: Final = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DEPRECATED_KEYWORDS: Final[dict[str, tuple[str, ...]]] = {
    "play_game": ("max_hands",),
    "simulate": ("max_hands", "options"),
    "tournament": ("max_hands", "options"),
}
"""Per public function, its keywords kept under their release 0.1 names."""

DEPRECATED_METHODS: Final = frozenset({"Game.legal_plays"})
"""Methods kept under their release 0.1 names."""


def _outside_caller_level() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside
    spades-core: the line that used the old name."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def deprecated(old: str, new: str) -> None:
    """Warn that ``old`` is deprecated in favour of ``new``."""
    warnings.warn(
        f"{old} is deprecated and will be removed in spades-core {REMOVED_IN}; use {new}",
        DeprecationWarning,
        stacklevel=_outside_caller_level(),
    )


@final
class OldNames:
    """The old attributes of one module: each name, the object it stands for
    now and the replacement a warning names. A module assigns
    :meth:`attribute` as its ``__getattr__``, which Python asks only for a
    name the module does not have, so nothing else pays for it."""

    __slots__ = ("module", "names")

    def __init__(self, module: str, names: Mapping[str, tuple[object, str]]) -> None:
        self.module: Final = module
        """The module's public path, as warnings name it."""
        self.names: Final = dict(names)
        """Each old name: ``(the object it stands for, its replacement)``."""

    def attribute(self, name: str) -> Any:
        """The object the old attribute ``name`` stands for, with a warning;
        :class:`AttributeError` for a name the module never had."""
        try:
            target, replacement = self.names[name]
        except KeyError:
            raise AttributeError(f"module {self.module!r} has no attribute {name!r}") from None
        deprecated(f"{self.module}.{name}", replacement)
        return target


def renamed_keyword(call: str, old: str, old_value: Any, new: str, new_value: Any) -> Any:
    """The value of keyword ``new`` of ``call``, given under its old name
    ``old`` or its new one (``old_value`` is ``None`` when the old name was
    not used). Giving both is refused, whatever the values."""
    if old_value is None:
        return new_value
    deprecated(f"{call}({old}=...)", f"{call}({new}=...)")
    if new_value is not None:
        raise RulesError(f"{call}: give {new}= alone; {old}= is its old name")
    return old_value
