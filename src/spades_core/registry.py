"""Finding and loading variants through the ``spades_core.variants`` entry-point group.

Discovery reads installed distributions' metadata and imports nothing; a
variant's module is imported the first time :func:`load_variant` asks for it,
and the loaded variant is cached. Problems are confined to the id they concern:

* an id claimed by two distributions → :class:`DuplicateVariantError`;
* an entry point that fails to import, resolves to something that is not a
  :class:`Variant`, or to a variant with another id → :class:`VariantLoadError`;
* the built-in ids (``classic``, ``mirror``, ``whiz``) belong to spades-core:
  another distribution claiming one is ignored with a warning.

Set the environment variable ``SPADES_CORE_BUILTIN_ONLY=1`` to ignore every
third-party plugin (for reproducible environments).

>>> "classic" in available_variants()
True
"""

from __future__ import annotations

import importlib.metadata
import os
import threading
import warnings
from collections.abc import Callable
from typing import Final, cast, final

import attrs

from spades_core.errors import DuplicateVariantError, VariantLoadError, VariantNotFoundError
from spades_core.variant import Variant

__all__ = [
    "BUILTIN_DISTRIBUTION",
    "BUILTIN_IDS",
    "BUILTIN_ONLY_ENV",
    "ENTRY_POINT_GROUP",
    "VariantEntry",
    "available_variants",
    "load_variant",
    "refresh_variants",
    "variant_entries",
]

ENTRY_POINT_GROUP: Final = "spades_core.variants"
"""The entry-point group variant plugins register under."""
BUILTIN_DISTRIBUTION: Final = "spades-core"
"""The distribution that ships the built-in variants."""
BUILTIN_IDS: Final = frozenset({"classic", "mirror", "whiz"})
"""Variant ids reserved for spades-core's own variants."""
BUILTIN_ONLY_ENV: Final = "SPADES_CORE_BUILTIN_ONLY"
"""Environment variable that, set to ``1``, restricts the registry to the built-ins."""


class ReservedVariantWarning(UserWarning):
    """A third-party distribution tried to register a built-in variant id."""


@final
@attrs.frozen
class VariantEntry:
    """One discovered variant: its id, the entry point's target
    (``"package.module:attribute"``) and the distribution(s) claiming it."""

    id: str
    target: str
    distribution: str
    distribution_version: str
    claimed_by: tuple[str, ...] = ()
    """Every distribution claiming this id; more than one is an error."""


def _normalize(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _discover() -> dict[str, VariantEntry]:
    builtin_only = os.environ.get(BUILTIN_ONLY_ENV, "").strip() not in ("", "0")
    found: dict[str, list[tuple[str, str, str]]] = {}
    for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist = entry_point.dist
        dist_name = _normalize(dist.name) if dist is not None else "(unknown)"
        dist_version = dist.version if dist is not None else ""
        is_builtin = dist_name == BUILTIN_DISTRIBUTION
        if builtin_only and not is_builtin:
            continue
        if entry_point.name in BUILTIN_IDS and not is_builtin:
            warnings.warn(
                f"ignoring the {entry_point.name!r} variant from {dist_name}: "
                f"{entry_point.name!r} is a built-in spades-core variant and cannot be replaced",
                ReservedVariantWarning,
                stacklevel=3,
            )
            continue
        claims = found.setdefault(entry_point.name, [])
        # One distribution seen twice on sys.path is one claim, not a conflict.
        if all(claim[0] != dist_name for claim in claims):
            claims.append((dist_name, dist_version, entry_point.value))
    entries = {}
    for variant_id, claims in found.items():
        dist_name, dist_version, target = claims[0]
        entries[variant_id] = VariantEntry(
            id=variant_id,
            target=target,
            distribution=dist_name,
            distribution_version=dist_version,
            claimed_by=tuple(sorted(claim[0] for claim in claims)),
        )
    return entries


class _Registry:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[str, VariantEntry] | None = None
        self._loaded: dict[str, Variant] = {}

    def entries(self) -> dict[str, VariantEntry]:
        with self._lock:
            if self._entries is None:
                self._entries = _discover()
            return self._entries

    def refresh(self) -> None:
        with self._lock:
            self._entries = None
            self._loaded.clear()

    def load(self, variant_id: str) -> Variant:
        cached = self._loaded.get(variant_id)
        if cached is not None:
            return cached
        entries = self.entries()
        entry = entries.get(variant_id) if isinstance(variant_id, str) else None
        if entry is None:
            known = ", ".join(sorted(entries)) or "none"
            raise VariantNotFoundError(
                f"no variant named {variant_id!r} is installed; available: {known}"
            )
        if len(entry.claimed_by) > 1:
            raise DuplicateVariantError(
                f"variant {variant_id!r} is claimed by several distributions "
                f"({', '.join(entry.claimed_by)}); uninstall all but one"
            )
        variant = _load_entry(entry)
        with self._lock:
            self._loaded[variant_id] = variant
        return variant


def _load_entry(entry: VariantEntry) -> Variant:
    where = f"variant {entry.id!r} from {entry.distribution} ({entry.target})"
    module_name, _, attribute = entry.target.partition(":")
    try:
        loaded: object = importlib.import_module(module_name.strip())
        for part in attribute.strip().split(".") if attribute.strip() else ():
            loaded = getattr(loaded, part)
    except Exception as error:
        raise VariantLoadError(
            f"{where} could not be loaded: {type(error).__name__}: {error}"
        ) from error
    if isinstance(loaded, type) and issubclass(loaded, Variant):
        try:
            loaded = cast("Callable[[], object]", loaded)()
        except Exception as error:
            raise VariantLoadError(
                f"{where} could not be created: {type(error).__name__}: {error}"
            ) from error
    if not isinstance(loaded, Variant):
        raise VariantLoadError(
            f"{where} is a {type(loaded).__name__}, not a spades_core.Variant "
            "(or a Variant subclass that takes no arguments)"
        )
    if loaded.id != entry.id:
        raise VariantLoadError(
            f"{where} has id {loaded.id!r}; the entry-point name and the variant id must match"
        )
    return loaded


_REGISTRY: Final = _Registry()


def available_variants() -> tuple[str, ...]:
    """The ids of every discovered variant, sorted. Nothing is imported."""
    return tuple(sorted(_REGISTRY.entries()))


def variant_entries() -> tuple[VariantEntry, ...]:
    """Every discovered variant's entry, sorted by id. Nothing is imported."""
    entries = _REGISTRY.entries()
    return tuple(entries[key] for key in sorted(entries))


def load_variant(variant_id: str) -> Variant:
    """The installed variant ``variant_id``, imported on first use and cached.

    Raises :class:`VariantNotFoundError` (listing the available ids),
    :class:`DuplicateVariantError` or :class:`VariantLoadError`.
    """
    return _REGISTRY.load(variant_id)


def refresh_variants() -> None:
    """Forget what was discovered and loaded, so that distributions installed
    or removed since are seen. Existing games keep their variant objects."""
    importlib.invalidate_caches()
    _REGISTRY.refresh()
