"""The variant registry against real distributions: each test writes
``*.dist-info`` metadata and plugin modules into a temporary directory, puts it
on ``sys.path`` and refreshes the registry, exactly as installing a package
would (docs/design.md, "Plugins")."""

from __future__ import annotations

import importlib.metadata
import itertools
import os
import sys
import textwrap
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

import spades_core as sc
from registry_isolation import registry_restored
from spades_core.rules.registry import (
    BUILTIN_ONLY_ENV,
    ENTRY_POINT_GROUP,
    NotAVariantError,
    PluginMetadataWarning,
    ReservedVariantWarning,
    VariantIdMismatchError,
    VariantImportError,
    builtin_only,
    shadowed_entries,
    variant_entries,
)

_counter = itertools.count()
# Every plugin module a test writes is named spades_registry_test_<n>_<id>.
MODULE_STEM = "spades_registry_test_"

GOOD_MODULE = """
from spades_core import load_variant

VARIANT = load_variant("classic").derive(id={id!r}, title="Short classic", target_score=100)
"""


class PluginSite:
    """A directory on ``sys.path`` holding fake installed distributions."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.prefix = f"{MODULE_STEM}{next(_counter)}_"
        sys.path.insert(0, str(root))

    def module(self, name: str, source: str) -> str:
        """Write a plugin module; returns its importable (unique) name."""
        full = self.prefix + name
        (self.root / f"{full}.py").write_text(textwrap.dedent(source))
        return full

    def distribution(
        self,
        name: str,
        entry_points: Mapping[str, str],
        *,
        version: str = "1.0",
        raw_entry_points: str | None = None,
    ) -> None:
        """Install the metadata of distribution ``name`` with these
        ``spades_core.variants`` entry points, then refresh the registry."""
        info = self.root / f"{name.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        text = raw_entry_points
        if text is None:
            lines = [f"{key} = {value}" for key, value in entry_points.items()]
            text = f"[{ENTRY_POINT_GROUP}]\n" + "\n".join(lines) + "\n"
        (info / "entry_points.txt").write_text(text)
        sc.refresh_variants()

    def good_plugin(self, dist: str, variant_id: str) -> None:
        """A working plugin distribution providing ``variant_id``."""
        module = self.module(variant_id.replace("-", "_"), GOOD_MODULE.format(id=variant_id))
        self.distribution(dist, {variant_id: f"{module}:VARIANT"})


@pytest.fixture
def site(tmp_path: Path) -> Iterator[PluginSite]:
    """A plugin directory on ``sys.path``; afterwards ``sys.path``,
    ``sys.modules``, the environment switch and the registry are restored."""
    with registry_restored(MODULE_STEM):
        yield PluginSite(tmp_path)


def assert_everything_else_works(*broken: str) -> None:
    """Every discovered variant except ``broken`` loads and deals a game."""
    for variant_id in sc.available_variants():
        if variant_id in broken:
            continue
        game = sc.new_game(variant_id, seed=1).deal()
        assert game.phase is sc.Phase.BID


def test_builtins_are_discovered_from_spades_core_entry_point_metadata() -> None:
    entries = {entry.id: entry for entry in variant_entries()}
    for variant_id, module in [
        ("classic", "spades_variants.classic:CLASSIC"),
        ("mirror", "spades_variants.mirror:MIRROR"),
        ("whiz", "spades_variants.whiz:WHIZ"),
    ]:
        entry = entries[variant_id]
        assert entry.distribution == "spades-core"
        assert entry.distribution_version == sc.__version__
        assert entry.target == module
        assert entry.is_builtin
        assert entry.claimed_by == ("spades-core",)
    installed = {
        ep.name: ep.dist.name if ep.dist else None
        for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    }
    assert {installed[name] for name in ("classic", "mirror", "whiz")} == {"spades-core"}


def test_a_working_plugin_is_discovered_without_import_and_loads(site: PluginSite) -> None:
    site.good_plugin("spades-variant-short", "short")
    module = site.prefix + "short"
    assert "short" in sc.available_variants()
    assert module not in sys.modules, "discovery must not import plugins"
    variant = sc.load_variant("short")
    assert module in sys.modules
    assert variant.id == "short"
    assert variant.defaults["target_score"] == 100
    assert sc.load_variant("short") is variant, "a loaded variant is cached"
    entry = next(entry for entry in variant_entries() if entry.id == "short")
    assert (entry.distribution, entry.distribution_version) == ("spades-variant-short", "1.0")
    assert not entry.is_builtin
    assert sc.new_game("short", seed=3).rules.target_score == 100


def test_plugin_whose_import_fails_raises_variant_import_error_for_its_id_only(
    site: PluginSite,
) -> None:
    site.good_plugin("spades-variant-fine", "fine")
    broken = site.module("broken", "raise ZeroDivisionError('plugin bug at import')\n")
    site.distribution("spades-variant-broken", {"broken": f"{broken}:VARIANT"})
    assert {"broken", "fine", "classic"} <= set(sc.available_variants())
    for _ in range(2):  # the failure is not cached as success, nor does it poison the registry
        with pytest.raises(VariantImportError, match=r"'broken'.*ZeroDivisionError") as caught:
            sc.load_variant("broken")
        assert isinstance(caught.value, sc.VariantLoadError)
        assert isinstance(caught.value.__cause__, ZeroDivisionError)
    assert_everything_else_works("broken")


def test_plugin_with_a_missing_attribute_raises_variant_import_error(site: PluginSite) -> None:
    module = site.module("empty", "NOT_IT = 1\n")
    site.distribution("spades-variant-empty", {"empty": f"{module}:VARIANT"})
    with pytest.raises(VariantImportError, match="AttributeError") as caught:
        sc.load_variant("empty")
    assert isinstance(caught.value.__cause__, AttributeError)
    assert_everything_else_works("empty")


def test_entry_point_resolving_to_the_wrong_type_raises_not_a_variant_error(
    site: PluginSite,
) -> None:
    module = site.module("wrong", "VARIANT = {'id': 'wrong'}\n")
    site.distribution("spades-variant-wrong", {"wrong": f"{module}:VARIANT"})
    with pytest.raises(NotAVariantError, match=r"is a dict, not a spades_core\.Variant") as caught:
        sc.load_variant("wrong")
    assert isinstance(caught.value, sc.VariantLoadError)
    assert isinstance(caught.value.__cause__, TypeError)
    assert_everything_else_works("wrong")


def test_entry_point_naming_a_variant_class_instantiates_it(site: PluginSite) -> None:
    module = site.module(
        "classy",
        """
        from spades_variants.classic import ClassicVariant

        class Classy(ClassicVariant):
            def __init__(self) -> None:
                super().__init__(id="classy", title="Classy", options={"target_score": 200})

        class NeedsArguments(ClassicVariant):
            def __init__(self, id: str) -> None:
                super().__init__(id=id, title="x", options={})
        """,
    )
    site.distribution(
        "spades-variant-classy",
        {"classy": f"{module}:Classy", "needy": f"{module}:NeedsArguments"},
    )
    assert sc.load_variant("classy").defaults["target_score"] == 200
    with pytest.raises(VariantImportError, match="could not be created") as caught:
        sc.load_variant("needy")
    assert isinstance(caught.value.__cause__, TypeError)


def test_variant_id_differing_from_entry_point_name_raises_id_mismatch(site: PluginSite) -> None:
    module = site.module("named", GOOD_MODULE.format(id="othername"))
    site.distribution("spades-variant-named", {"named": f"{module}:VARIANT"})
    assert "named" in sc.available_variants()
    with pytest.raises(VariantIdMismatchError, match="has id 'othername'") as caught:
        sc.load_variant("named")
    assert isinstance(caught.value.__cause__, ValueError)
    with pytest.raises(sc.VariantNotFoundError):
        sc.load_variant("othername")
    assert_everything_else_works("named")


def test_two_distributions_claiming_one_id_raise_duplicate_error_for_that_id_only(
    site: PluginSite,
) -> None:
    site.good_plugin("spades-variant-fine", "fine")
    first = site.module("twin_a", GOOD_MODULE.format(id="twin"))
    second = site.module("twin_b", GOOD_MODULE.format(id="twin"))
    site.distribution("spades-twin-a", {"twin": f"{first}:VARIANT"}, version="1.0")
    site.distribution("spades-twin-b", {"twin": f"{second}:VARIANT"}, version="2.0")
    entry = next(entry for entry in variant_entries() if entry.id == "twin")
    assert entry.claimed_by == ("spades-twin-a", "spades-twin-b")
    with pytest.raises(sc.DuplicateVariantError, match="spades-twin-a, spades-twin-b") as caught:
        sc.load_variant("twin")
    cause = caught.value.__cause__
    assert isinstance(cause, LookupError)
    assert "spades-twin-a 1.0" in str(cause)
    assert "spades-twin-b 2.0" in str(cause)
    assert first not in sys.modules, "neither claim is imported"
    assert second not in sys.modules
    assert sc.load_variant("fine").id == "fine"
    assert_everything_else_works("twin")


def test_one_distribution_seen_twice_on_the_path_is_one_claim(
    site: PluginSite, tmp_path_factory: pytest.TempPathFactory
) -> None:
    site.good_plugin("spades-variant-short", "short")
    again = tmp_path_factory.mktemp("again")
    info = next(site.root.glob("*.dist-info"))
    (again / info.name).mkdir()
    for part in info.iterdir():
        (again / info.name / part.name).write_bytes(part.read_bytes())
    sys.path.append(str(again))
    sc.refresh_variants()
    assert sc.load_variant("short").id == "short"


@pytest.mark.parametrize("builtin_id", ["classic", "mirror", "whiz"])
def test_third_party_claim_of_a_builtin_id_is_ignored_with_a_warning(
    site: PluginSite, builtin_id: str
) -> None:
    impostor = site.module("impostor", GOOD_MODULE.format(id=builtin_id))
    site.distribution("spades-impostor", {builtin_id: f"{impostor}:VARIANT"})
    with pytest.warns(ReservedVariantWarning, match=f"ignoring the '{builtin_id}' variant"):
        available = sc.available_variants()
    assert builtin_id in available
    variant = sc.load_variant(builtin_id)
    assert type(variant).__module__ == f"spades_variants.{builtin_id}"
    assert variant.defaults["target_score"] == 500
    assert impostor not in sys.modules, "the impostor is never imported"
    entry = next(entry for entry in variant_entries() if entry.id == builtin_id)
    assert entry.distribution == "spades-core"
    assert entry.claimed_by == ("spades-core",)
    assert [(e.id, e.distribution) for e in shadowed_entries()] == [(builtin_id, "spades-impostor")]
    assert sc.new_game(builtin_id, seed=2).deal().phase is sc.Phase.BID


def test_builtin_only_switch_restricts_the_registry_to_the_builtins(site: PluginSite) -> None:
    site.good_plugin("spades-variant-short", "short")
    assert "short" in sc.available_variants()
    os.environ[BUILTIN_ONLY_ENV] = "1"
    assert builtin_only()
    sc.refresh_variants()
    assert sc.available_variants() == ("classic", "mirror", "whiz")
    with pytest.raises(sc.VariantNotFoundError, match="available: classic, mirror, whiz"):
        sc.load_variant("short")
    os.environ[BUILTIN_ONLY_ENV] = "0"
    assert not builtin_only()
    sc.refresh_variants()
    assert "short" in sc.available_variants()


def test_builtin_only_switch_also_silences_reserved_id_claims(site: PluginSite) -> None:
    impostor = site.module("impostor", GOOD_MODULE.format(id="classic"))
    os.environ[BUILTIN_ONLY_ENV] = "1"
    site.distribution("spades-impostor", {"classic": f"{impostor}:VARIANT"})
    assert sc.available_variants() == ("classic", "mirror", "whiz")  # no warning raised
    assert shadowed_entries() == ()


def test_unknown_id_raises_variant_not_found_listing_available_ids(site: PluginSite) -> None:
    site.good_plugin("spades-variant-short", "short")
    with pytest.raises(sc.VariantNotFoundError) as caught:
        sc.load_variant("no-such-variant")
    message = str(caught.value)
    assert "'no-such-variant'" in message
    assert "available: classic, mirror, short, whiz" in message
    assert isinstance(caught.value, LookupError)
    with pytest.raises(sc.ArgumentTypeError, match="load_variant: variant_id must be"):
        sc.load_variant(42)  # type: ignore[arg-type]


def test_unreadable_entry_point_metadata_skips_that_distribution_with_a_warning(
    site: PluginSite,
) -> None:
    site.good_plugin("spades-variant-fine", "fine")
    site.distribution(
        "spades-garbled",
        {},
        raw_entry_points=f"[{ENTRY_POINT_GROUP}]\nthis line is not an entry point\n",
    )
    with pytest.warns(PluginMetadataWarning, match="metadata cannot be read"):
        available = sc.available_variants()
    assert {"classic", "mirror", "whiz", "fine"} <= set(available)
    assert_everything_else_works()


def test_refresh_sees_installed_and_removed_distributions(site: PluginSite) -> None:
    assert "late" not in sc.available_variants()
    site.good_plugin("spades-variant-late", "late")
    assert "late" in sc.available_variants()
    game = sc.new_game("late", seed=1)
    for info in site.root.glob("*.dist-info"):
        for part in info.iterdir():
            part.unlink()
        info.rmdir()
    sc.refresh_variants()
    assert "late" not in sc.available_variants()
    assert game.deal().phase is sc.Phase.BID, "existing games keep their variant"
