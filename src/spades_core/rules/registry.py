"""Finding and loading variants through the ``spades_core.variants`` entry-point group.

Discovery reads installed distributions' metadata and imports nothing; a
variant's module is imported the first time :func:`load_variant` asks for it,
and the loaded variant is cached. Problems are confined to the id they concern,
each with its own error class, chained (``__cause__``) to what went wrong:

* an id claimed by two distributions → :class:`~spades_core.DuplicateVariantError`;
* an entry point whose module or attribute fails to import → :class:`VariantImportError`;
* one that resolves to something that is not a :class:`Variant` → :class:`NotAVariantError`;
* one whose variant has another id than the entry point's name →
  :class:`VariantIdMismatchError`.

The last three are :class:`~spades_core.VariantLoadError` subclasses. The
built-in ids (``classic``, ``mirror``, ``whiz``) belong to spades-core: another
distribution claiming one is ignored with a :class:`ReservedVariantWarning`,
so installing a package can never change the rules of a built-in variant.
A distribution whose entry-point metadata cannot be read is skipped with a
:class:`PluginMetadataWarning`.

Set the environment variable ``SPADES_CORE_BUILTIN_ONLY=1`` to ignore every
third-party plugin (for reproducible environments); it is read when the
registry discovers variants, i.e. on first use and after :func:`refresh_variants`.

>>> "classic" in available_variants()
True
>>> [entry.distribution for entry in variant_entries() if entry.id == "classic"]
['spades-core']
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Final, cast, final

import attrs

from spades_core.rules.variant import Variant, set_variant_loader
from spades_core.values import checks
from spades_core.values.errors import (
    DuplicateVariantError,
    VariantLoadError,
    VariantNotFoundError,
    brief,
)

__all__ = [
    "BUILTIN_DISTRIBUTION",
    "BUILTIN_IDS",
    "BUILTIN_ONLY_ENV",
    "ENTRY_POINT_GROUP",
    "NotAVariantError",
    "PluginMetadataWarning",
    "ReservedVariantWarning",
    "VariantEntry",
    "VariantIdMismatchError",
    "VariantImportError",
    "available_variants",
    "builtin_only",
    "load_variant",
    "refresh_variants",
    "shadowed_entries",
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


class PluginMetadataWarning(UserWarning):
    """A distribution's entry-point metadata could not be read, so it was skipped."""


class VariantImportError(VariantLoadError):
    """A plugin's entry point could not be imported (or its class not instantiated);
    ``__cause__`` is the original exception."""


class NotAVariantError(VariantLoadError):
    """A plugin's entry point resolves to something that is not a
    :class:`~spades_core.Variant`; ``__cause__`` is a :class:`TypeError` describing it."""


class VariantIdMismatchError(VariantLoadError):
    """A plugin's variant has another id than its entry point's name;
    ``__cause__`` is a :class:`ValueError` naming both."""


@final
@attrs.frozen
class VariantEntry:
    """One discovered variant: its id, the entry point's target
    (``"package.module:attribute"``) and the distribution(s) claiming it."""

    id: str
    target: str
    distribution: str
    """Normalized name of the distribution providing the entry point."""
    distribution_version: str
    claimed_by: tuple[str, ...] = ()
    """Every distribution claiming this id; more than one is an error."""

    @property
    def is_builtin(self) -> bool:
        """Whether spades-core itself provides this entry."""
        return self.distribution == BUILTIN_DISTRIBUTION


def _normalize(name: str) -> str:
    # PEP 503 normalization, enough to compare distribution names.
    return "-".join(name.lower().replace("_", "-").replace(".", "-").split("-"))


def builtin_only() -> bool:
    """Whether the ``SPADES_CORE_BUILTIN_ONLY`` switch is on in the environment."""
    return os.environ.get(BUILTIN_ONLY_ENV, "").strip() not in ("", "0")


def _distribution_claims(
    seen: set[str],
) -> Iterator[tuple[str, str, list[tuple[str, str]]]]:
    """(normalized name, version, [(entry name, target)]) for each distribution
    with entry points in our group, the first of each name on ``sys.path`` only
    (the one Python imports), skipping any whose metadata cannot be read."""
    for dist in importlib.metadata.distributions():
        try:
            # The name from the metadata directory's file name is cheap; the
            # METADATA file is parsed only for distributions that claim variants.
            raw_name = getattr(dist, "_normalized_name", None) or dist.metadata["Name"]
            if not raw_name:
                continue
            name = _normalize(raw_name)
            if name in seen:
                continue
            seen.add(name)
            text = dist.read_text("entry_points.txt")
            if not text or ENTRY_POINT_GROUP not in text:
                continue
            claims = [
                (entry_point.name, entry_point.value)
                for entry_point in dist.entry_points
                if entry_point.group == ENTRY_POINT_GROUP
            ]
            version = dist.version or ""
        except Exception as error:
            # One unreadable distribution must not hide every other variant.
            where = getattr(dist, "_path", None) or dist
            warnings.warn(
                f"skipping the distribution at {where}: its metadata cannot be read "
                f"({type(error).__name__}: {error})",
                PluginMetadataWarning,
                stacklevel=4,
            )
            continue
        if claims:
            yield name, version, claims


@final
@attrs.frozen
class _Discovery:
    claims: dict[str, tuple[VariantEntry, ...]]
    shadowed: tuple[VariantEntry, ...]


def _discover() -> _Discovery:
    restricted = builtin_only()
    claims: dict[str, list[VariantEntry]] = {}
    shadowed: list[VariantEntry] = []
    for dist_name, dist_version, entry_points in _distribution_claims(set()):
        is_builtin = dist_name == BUILTIN_DISTRIBUTION
        if restricted and not is_builtin:
            continue
        for entry_name, target in entry_points:
            entry = VariantEntry(entry_name, target, dist_name, dist_version, (dist_name,))
            if entry_name in BUILTIN_IDS and not is_builtin:
                shadowed.append(entry)
                warnings.warn(
                    f"ignoring the {entry_name!r} variant from {dist_name} {dist_version}: "
                    f"{entry_name!r} is a built-in spades-core variant and cannot be replaced",
                    ReservedVariantWarning,
                    stacklevel=3,
                )
                continue
            known = claims.setdefault(entry_name, [])
            if all(other.distribution != dist_name for other in known):
                known.append(entry)
    return _Discovery(
        {
            name: tuple(sorted(found, key=lambda e: e.distribution))
            for name, found in claims.items()
        },
        tuple(shadowed),
    )


class _Registry:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._discovery: _Discovery | None = None
        self._entries: dict[str, VariantEntry] = {}
        self._loaded: dict[str, Variant] = {}

    def discovery(self) -> _Discovery:
        with self._lock:
            if self._discovery is None:
                discovery = _discover()
                self._entries = {
                    name: attrs.evolve(
                        found[0], claimed_by=tuple(entry.distribution for entry in found)
                    )
                    for name, found in discovery.claims.items()
                }
                self._discovery = discovery
            return self._discovery

    def entries(self) -> dict[str, VariantEntry]:
        self.discovery()
        return self._entries

    def refresh(self) -> None:
        with self._lock:
            self._discovery = None
            self._entries = {}
            self._loaded.clear()

    def load(self, variant_id: str) -> Variant:
        cached = self._loaded.get(variant_id) if isinstance(variant_id, str) else None
        if cached is not None:
            return cached
        discovery = self.discovery()
        claims = discovery.claims.get(variant_id) if isinstance(variant_id, str) else None
        if not claims:
            known = ", ".join(sorted(discovery.claims)) or "none"
            raise VariantNotFoundError(
                f"no variant named {brief(variant_id)} is installed; available: {known}"
            )
        if len(claims) > 1:
            detail = "; ".join(
                f"{entry.distribution} {entry.distribution_version} ({entry.target})"
                for entry in claims
            )
            raise DuplicateVariantError(
                f"variant {variant_id!r} is claimed by several distributions "
                f"({', '.join(entry.distribution for entry in claims)}); uninstall all but one"
            ) from LookupError(f"{variant_id!r} is claimed by: {detail}")
        variant = _load_entry(claims[0])
        with self._lock:
            # A refresh while importing must not resurrect the old entry.
            if self._discovery is discovery:
                self._loaded[variant_id] = variant
        return variant


def _load_entry(entry: VariantEntry) -> Variant:
    where = f"variant {entry.id!r} from {entry.distribution} ({entry.target})"
    module_name, _, attribute = entry.target.partition(":")
    # A plugin calling sys.exit() must not end the program that asked for a
    # variant: SystemExit is reported like any other failure. KeyboardInterrupt
    # is not caught, so Ctrl-C still interrupts a hanging import.
    try:
        loaded: object = importlib.import_module(module_name.strip())
        for part in attribute.strip().split(".") if attribute.strip() else ():
            loaded = getattr(loaded, part)
    except (Exception, SystemExit) as error:
        raise VariantImportError(
            f"{where} could not be imported: {type(error).__name__}: {error}"
        ) from error
    if isinstance(loaded, type) and issubclass(loaded, Variant):
        try:
            loaded = cast("Callable[[], object]", loaded)()
        except (Exception, SystemExit) as error:
            raise VariantImportError(
                f"{where} could not be created: {type(error).__name__}: {error}"
            ) from error
    if not isinstance(loaded, Variant):
        kind = type(loaded).__name__
        raise NotAVariantError(
            f"{where} is a {kind}, not a spades_core.Variant "
            "(or a Variant subclass that takes no arguments)"
        ) from TypeError(f"expected a spades_core.Variant, got {kind}: {loaded!r:.200}")
    if loaded.id != entry.id:
        raise VariantIdMismatchError(
            f"{where} has id {loaded.id!r}; the entry-point name and the variant id must match"
        ) from ValueError(f"entry point name {entry.id!r} != variant id {loaded.id!r}")
    return loaded


_REGISTRY: Final = _Registry()


def available_variants() -> tuple[str, ...]:
    """The ids of every discovered variant, sorted. Nothing is imported, so an
    id listed here may still fail to load (see :func:`load_variant`)."""
    return tuple(sorted(_REGISTRY.entries()))


def variant_entries() -> tuple[VariantEntry, ...]:
    """Every discovered variant's entry, sorted by id. Nothing is imported."""
    entries = _REGISTRY.entries()
    return tuple(entries[key] for key in sorted(entries))


def shadowed_entries() -> tuple[VariantEntry, ...]:
    """Third-party entries that were ignored because they claim a built-in id."""
    return _REGISTRY.discovery().shadowed


def load_variant(variant_id: str) -> Variant:
    """The installed variant ``variant_id``, imported on first use and cached.

    Raises :class:`~spades_core.VariantNotFoundError` (listing the available
    ids), :class:`~spades_core.DuplicateVariantError`, or a
    :class:`~spades_core.VariantLoadError` subclass (:class:`VariantImportError`,
    :class:`NotAVariantError`, :class:`VariantIdMismatchError`); anything but
    text, :class:`~spades_core.ArgumentTypeError`.
    """
    checks.instance(variant_id, str, "load_variant", "variant_id", "a variant id like 'classic'")
    return _REGISTRY.load(variant_id)


def refresh_variants() -> None:
    """Forget what was discovered and loaded, so that distributions installed
    or removed since (and a changed ``SPADES_CORE_BUILTIN_ONLY``) are seen.
    Existing games keep their variant objects."""
    importlib.invalidate_caches()
    _REGISTRY.refresh()


set_variant_loader(load_variant)
