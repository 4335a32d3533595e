"""An opt-in pytest plugin: fixtures parametrized over the installed variants.

It is not loaded automatically (spades-core registers no ``pytest11`` entry
point); enable it with ``-p spades_core.testing.pytest_plugin`` on the command
line or in ``addopts``. Then a test that asks for

* ``spades_variant_id`` runs once per installed variant id;
* ``spades_variant`` runs once per installed variant, with the loaded
  :class:`~spades_core.Variant` (a variant that fails to load makes that
  test error with the registry's error).

Restrict the variants with ``--spades-variant ID`` (repeatable) or the ini
option ``spades_variants = ID ...``. The test report header lists the
installed variants and the distributions that provide them.

Example::

    def test_passes_conformance(spades_variant):
        check_variant(spades_variant, max_examples=10)


    def test_array_forms_are_twins_of_the_hooks(spades_variant):
        check_array_forms(spades_variant)
"""

from __future__ import annotations

try:
    import pytest
except ImportError as _missing:
    from spades_core.testing import MissingTestingExtraError

    raise MissingTestingExtraError(
        "spades_core.testing.pytest_plugin needs pytest; "
        "install it with: pip install spades-core[testing]",
        name=_missing.name,
    ) from _missing

from spades_core.rules.registry import available_variants, load_variant, variant_entries
from spades_core.rules.variant import Variant

__all__ = [
    "pytest_addoption",
    "pytest_generate_tests",
    "pytest_report_header",
    "spades_variant",
    "spades_variant_id",
]

_OPTION = "--spades-variant"
_INI = "spades_variants"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--spades-variant`` and the ``spades_variants`` ini option."""
    group = parser.getgroup("spades-core")
    group.addoption(
        _OPTION,
        action="append",
        default=[],
        metavar="ID",
        help="run the spades_variant fixtures for this variant only (repeatable)",
    )
    parser.addini(
        _INI,
        type="args",
        default=[],
        help="variant ids the spades_variant fixtures run over (default: every installed one)",
    )


def _selected(config: pytest.Config) -> list[str]:
    chosen: list[str] = list(config.getoption(_OPTION)) or list(config.getini(_INI))
    return chosen or list(available_variants())


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``spades_variant_id`` (and so ``spades_variant``) over the variants."""
    if "spades_variant_id" in metafunc.fixturenames:
        ids = _selected(metafunc.config)
        metafunc.parametrize("spades_variant_id", ids, ids=ids, indirect=True)


def pytest_report_header(config: pytest.Config) -> str:
    """One header line naming the installed variants and their distributions."""
    listed = ", ".join(
        f"{entry.id} ({entry.distribution} {entry.distribution_version})"
        for entry in variant_entries()
    )
    return f"spades-core variants: {listed or 'none'}"


@pytest.fixture
def spades_variant_id(request: pytest.FixtureRequest) -> str:
    """The id of an installed variant (the test runs once per variant)."""
    variant_id: str = request.param
    return variant_id


@pytest.fixture
def spades_variant(spades_variant_id: str) -> Variant:
    """An installed variant, loaded (the test runs once per variant)."""
    return load_variant(spades_variant_id)
