"""The OpenSpiel game's parameters: the episode's own and every option of every
installed variant, read into a variant's rules (see :mod:`spades_core.envs.openspiel`)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, Final, cast

import attrs

from spades_core.engine.game import SEATS
from spades_core.rules.registry import available_variants, load_variant
from spades_core.rules.variant import Variant
from spades_core.values import checks
from spades_core.values.errors import (
    RulesError,
    SpadesError,
    brief,
)
from spades_core.values.options import OptionSpec, Rules
from spades_core.values.seats import Seat

GAME_NAME: Final = "spades_core"
"""The short name :func:`register` gives the game."""
FIRST_DEALER: Final = Seat.WEST
"""The dealer of every episode's first hand."""
INT_PLACEHOLDER: Final = -(2**31)
"""An integer option left at this value takes the variant's default."""
RETURNS: Final = ("points", "win")
OWN_PARAMETERS: Final[dict[str, object]] = {"variant": "classic", "hands": 1, "returns": "points"}


@attrs.frozen
class _OptionParameter:
    """How one option travels as an OpenSpiel parameter."""

    name: str
    default: int | bool | str
    """The registered default."""
    means_variant_default: bool
    """Whether the registered default stands for each variant's own default."""

    def left_unset(self, value: object) -> bool:
        """Whether ``value`` is the registered default."""
        return type(value) is type(self.default) and value == self.default


def _accepts(spec: OptionSpec[Any], value: object) -> bool:
    try:
        spec.check(value)
    except SpadesError:
        return False
    return True


def _kind(variants: list[Variant], name: str) -> type:
    for variant in variants:
        value = variant.defaults.get(name)
        if isinstance(value, enum.Enum | str):
            return str
        if isinstance(value, bool):
            return bool
        if isinstance(value, int):
            return int
    spec = next(v.option_specs[name] for v in variants if name in v.option_specs)
    return int if _accepts(spec, 1) else bool if _accepts(spec, True) else str


def option_parameters(variants: list[Variant]) -> dict[str, _OptionParameter]:
    names = sorted({name for variant in variants for name in variant.option_specs})
    parameters = {}
    for name in names:
        having = [variant for variant in variants if name in variant.option_specs]
        kind = _kind(having, name)
        defaults = {_as_parameter(variant.defaults.get(name), kind) for variant in having}
        if kind is str:
            parameters[name] = _OptionParameter(name, "", True)
        elif len(defaults) == 1 and None not in defaults:
            parameters[name] = _OptionParameter(name, cast(Any, defaults.pop()), False)
        elif kind is int:
            parameters[name] = _OptionParameter(name, INT_PLACEHOLDER, True)
        else:
            # Variants disagree on a yes/no option: False stands for the variant's default.
            parameters[name] = _OptionParameter(name, False, True)
    return parameters


def _as_parameter(value: object, kind: type) -> int | bool | str | None:
    """An option value as OpenSpiel holds it (``None`` when it cannot)."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if value is None:
        return 0 if kind is int else None
    return cast(int | bool | str, value)


OPTIONS: dict[str, _OptionParameter] = {}


def installed_variants() -> list[Variant]:
    return [load_variant(variant_id) for variant_id in available_variants()]


def game_parameters(
    variant: Variant | str, rules: Rules | None = None, **own: object
) -> dict[str, Any]:
    """The OpenSpiel parameters of ``variant`` under ``rules`` (the variant's
    defaults when ``None``), plus ``hands`` / ``returns`` given in ``own``:
    what ``pyspiel.load_game(GAME_NAME, ...)`` takes to play those rules."""
    chosen = variant if isinstance(variant, Variant) else load_variant(variant)
    if rules is None:
        rules = chosen.rules()
    else:
        checks.instance(rules, Rules, "game_parameters", "rules", "a Rules (from Variant.rules)")
    parameters: dict[str, Any] = {"variant": chosen.id, **own}
    for name, value in rules.overrides:
        parameter = OPTIONS.get(name)
        kind = type(parameter.default) if parameter is not None else type(value)
        held = _as_parameter(value, kind)
        if held is None:
            raise RulesError(f"option {name!r} = {brief(value)} has no OpenSpiel form")
        parameters[name] = held
    return parameters


def rules_from(variant: Variant, given: Mapping[str, object]) -> tuple[Rules, dict[str, Any]]:
    """The variant's rules for OpenSpiel parameters, and the parameters that name them."""
    overrides: dict[str, object] = {}
    for name, value in given.items():
        if name in OWN_PARAMETERS:
            continue
        parameter = OPTIONS.get(name)
        spec = variant.option_specs.get(name)
        if (
            parameter is not None
            and parameter.left_unset(value)
            and (spec is None or parameter.means_variant_default)
        ):
            continue
        if spec is None:
            # The variant reports the unknown option in its own words.
            variant.rules(**{name: value})
            raise RulesError(f"variant {variant.id!r} has no option {name!r}")  # pragma: no cover
        if type(value) is int and value == 0 and not _accepts(spec, 0) and _accepts(spec, None):
            value = None
        if spec.check(value) != variant.defaults.get(name):
            overrides[name] = value
    rules = variant.rules(**overrides)
    resolved: dict[str, Any] = {}
    for name, parameter in OPTIONS.items():
        if name in variant.option_specs:
            held = _as_parameter(rules.get(name), type(parameter.default))
            resolved[name] = parameter.default if held is None else held
    return rules, resolved


def seat_of(player: object) -> Seat:
    if type(player) is not int or not 0 <= player < 4:
        raise RulesError(
            f"players are numbered 0-3 (North, East, South, West); got {brief(player)}"
        )
    return SEATS[player]


def same_rules(variant: Variant, first: Rules, second: Rules) -> bool:
    return all(first.get(name) == second.get(name) for name in variant.option_specs)
