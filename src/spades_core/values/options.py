"""House-rule options: their names, accepted values and the resolved :class:`Rules`.

An option is described by an :class:`OptionSpec`: its name, what it accepts
and how to read a value. A variant lists the specs it supports with its own
defaults; :meth:`spades_core.Variant.rules` checks the caller's overrides
against them and returns a :class:`Rules`, which the engine reads.

>>> from spades_core import load_variant
>>> rules = load_variant("classic").rules(target_score=300, nil_tricks="bags_only")
>>> rules.target_score, rules.nil_tricks
(300, <NilTricks.BAGS_ONLY: 'bags_only'>)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, Final, Generic, Literal, NoReturn, TypeVar, final, overload

import attrs

from spades_core.values import checks
from spades_core.values.enums import CheckedLookup
from spades_core.values.errors import RulesError, brief

__all__ = [
    "OPTION_LIMIT",
    "STANDARD_OPTIONS",
    "UNIVERSAL_OPTIONS",
    "BagOverflow",
    "BreakRule",
    "DoubleNil",
    "FirstLead",
    "NilTricks",
    "OptionSpec",
    "Rules",
    "bool_option",
    "choice_option",
    "int_option",
]


_T = TypeVar("_T")
_E = TypeVar("_E", bound=enum.StrEnum)


class _OptionEnum(enum.StrEnum, metaclass=CheckedLookup):
    """An option's enum whose lookup of an unknown value raises a library error."""

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        raise checks.not_a_member(cls, value)


class NilTricks(_OptionEnum):
    """How the tricks a Nil bidder takes count for the team."""

    COUNT_TOWARD_CONTRACT = "count_toward_contract"
    """They count toward the partner's contract (classic)."""
    BAGS_ONLY = "bags_only"
    """They never help the contract; each adds one bag (Mirror, Whiz)."""
    BAGS_WITH_POINTS = "bags_with_points"
    """As ``bags_only``, and each also scores one point."""


class DoubleNil(_OptionEnum):
    """How a hand where both partners bid Nil is scored."""

    INDEPENDENT = "independent"
    """Each Nil is scored on its own."""
    ALL_OR_NOTHING = "all_or_nothing"
    """Twice the Nil value if both succeed, minus twice if either fails."""
    NO_LOSS = "no_loss"
    """Twice the Nil value if both succeed, nothing otherwise."""


class BagOverflow(_OptionEnum):
    """What happens to bags past the limit."""

    CARRY = "carry"
    """One penalty per full limit; the rest carries over."""
    RESET = "reset"
    """One penalty and the bags go back to zero."""


class BreakRule(_OptionEnum):
    """What breaks spades, allowing them to be led."""

    OFFSUIT_SPADE = "offsuit_spade"
    """A spade played to a trick led in another suit (classic)."""
    ANY_SPADE = "any_spade"
    """Any spade played on an earlier trick, even one led (Mirror, Whiz)."""


class FirstLead(_OptionEnum):
    """Who leads the first trick of a hand."""

    LEFT_OF_DEALER = "left_of_dealer"
    """The player to the dealer's left, any legal card."""
    TWO_OF_CLUBS = "two_of_clubs"
    """The holder of the 2♣, who must lead it."""


@final
@attrs.frozen
class OptionSpec(Generic[_T]):
    """One option: its ``name``, a description of what it ``accepts``, a one-line
    ``summary``, and ``parse``, which returns the checked value or raises
    :class:`~spades_core.RulesError`.

    Make one with :func:`int_option`, :func:`choice_option` or
    :func:`bool_option`; the type parameter is the type of its values, which
    :meth:`Rules.get` returns for it.
    """

    name: str
    accepts: str
    summary: str
    parse: Callable[[object], _T] = attrs.field(eq=False, repr=False)
    values: tuple[object, ...] | None = attrs.field(default=None, kw_only=True)
    """Every value the option accepts, when they can be listed (a flag's
    ``False`` and ``True``, a choice's strings); ``None`` for a range of
    numbers. Tools that try every combination of options read it."""
    minimum: int | None = attrs.field(default=None, kw_only=True)
    """The lowest whole number a number option accepts (``None`` for other options)."""
    maximum: int | None = attrs.field(default=None, kw_only=True)
    """The highest whole number a number option accepts (``None`` for other options)."""
    allows_none: bool = attrs.field(default=False, kw_only=True)
    """Whether ``None`` is one of the values (a number option's "no limit")."""

    def check(self, value: object) -> _T:
        """The value, checked; a :class:`RulesError` naming the option otherwise."""
        return self.parse(value)

    def error(self, value: object) -> RulesError:
        """The error for a value this option does not accept."""
        return RulesError(f"option {self.name!r} accepts {self.accepts}; got {brief(value)}")


OPTION_LIMIT: Final = 1_000_000
"""The largest size of a whole-number option unless its spec says otherwise:
points, targets and floors lie within ±1,000,000."""


@overload
def int_option(
    name: str,
    summary: str,
    *,
    minimum: int = ...,
    maximum: int = ...,
    allow_none: Literal[False] = ...,
) -> OptionSpec[int]: ...


@overload
def int_option(
    name: str,
    summary: str,
    *,
    minimum: int = ...,
    maximum: int = ...,
    allow_none: Literal[True],
) -> OptionSpec[int | None]: ...


def int_option(
    name: str,
    summary: str,
    *,
    minimum: int = -OPTION_LIMIT,
    maximum: int = OPTION_LIMIT,
    allow_none: bool = False,
) -> OptionSpec[int] | OptionSpec[int | None]:
    """An option taking a whole number from ``minimum`` to ``maximum``
    (±:data:`OPTION_LIMIT` unless given), and ``None`` when ``allow_none``.

    >>> tax = int_option("tax", "points a team pays per hand", minimum=0, maximum=50)
    >>> tax.check(5), tax.accepts
    (5, 'a whole number from 0 to 50')
    """
    if type(minimum) is not int or type(maximum) is not int or minimum > maximum:
        raise RulesError(
            f"option {name!r}: minimum and maximum must be whole numbers, minimum first; "
            f"got {brief(minimum)} and {brief(maximum)}"
        )
    accepts = f"a whole number from {minimum:,} to {maximum:,}"
    if allow_none:
        accepts += ", or None"

    def parse(value: object) -> int | None:
        if value is None and allow_none:
            return None
        if type(value) is not int or not minimum <= value <= maximum:
            raise spec.error(value)
        return value

    spec: OptionSpec[int | None] = OptionSpec(
        name,
        accepts,
        summary,
        parse,
        minimum=minimum,
        maximum=maximum,
        allows_none=allow_none,
    )
    return spec


def choice_option(name: str, summary: str, choices: type[_E]) -> OptionSpec[_E]:
    """An option taking one member of a string enum, or its string value."""
    accepts = "one of " + ", ".join(repr(member.value) for member in choices)

    def parse(value: object) -> _E:
        if isinstance(value, choices):
            return value
        if isinstance(value, str):
            for member in choices:
                if member.value == value:
                    return member
        raise spec.error(value)

    spec = OptionSpec(
        name, accepts, summary, parse, values=tuple(member.value for member in choices)
    )
    return spec


def bool_option(name: str, summary: str) -> OptionSpec[bool]:
    """An option taking ``True`` or ``False``."""

    def parse(value: object) -> bool:
        if type(value) is not bool:
            raise spec.error(value)
        return value

    spec = OptionSpec(name, "True or False", summary, parse, values=(False, True))
    return spec


STANDARD_OPTIONS: Final[Mapping[str, OptionSpec[Any]]] = {
    spec.name: spec
    for spec in (
        int_option("target_score", "score that wins the game", minimum=1),
        int_option(
            "loss_floor",
            "a team at or below this score loses (None: no floor)",
            maximum=-1,
            allow_none=True,
        ),
        int_option("nil_value", "points won or lost by a Nil bid", minimum=0),
        choice_option("nil_tricks", "how a Nil bidder's tricks count", NilTricks),
        choice_option("double_nil", "how two Nil bids in one team are scored", DoubleNil),
        int_option(
            "bag_limit",
            "bags that trigger a penalty (None: no penalty)",
            minimum=1,
            maximum=1000,
            allow_none=True,
        ),
        int_option("bag_penalty", "points lost when the bag limit is reached", minimum=0),
        choice_option("bag_overflow", "what happens to bags past the limit", BagOverflow),
        choice_option("break_rule", "what breaks spades", BreakRule),
        choice_option("first_lead", "who leads the first trick", FirstLead),
        int_option(
            "max_team_bid",
            "the most two partners may bid together (None: no cap)",
            minimum=1,
            maximum=13,
            allow_none=True,
        ),
        int_option(
            "max_hands",
            "the game ends after this many hands, the higher score winning (None: no limit)",
            minimum=1,
            allow_none=True,
        ),
    )
}
"""The standard options (docs/rules.md, Options), by name. Variants pick the ones they support;
``max_hands`` is an option of every variant."""

UNIVERSAL_OPTIONS: Final = ("max_hands",)
"""Standard options every variant has, listed or not (default ``None``)."""


_FORMER_STANDARD: Final = "whiz_nil_needs_no_ace"
"""A standard option of release 0.1 that is now Whiz's own option."""


@final
@attrs.frozen
class Rules:
    """The resolved options a game is played under.

    Standard options are attributes. An option a variant does not support
    keeps the neutral value shown here, which the engine never consults for
    that variant. ``extra`` holds options a plugin defines for itself, read
    with :meth:`get`. ``overrides`` holds exactly the options the caller set.
    """

    target_score: int = 500
    loss_floor: int | None = None
    nil_value: int = 100
    nil_tricks: NilTricks = NilTricks.COUNT_TOWARD_CONTRACT
    double_nil: DoubleNil = DoubleNil.INDEPENDENT
    bag_limit: int | None = 10
    bag_penalty: int = 100
    bag_overflow: BagOverflow = BagOverflow.CARRY
    break_rule: BreakRule = BreakRule.OFFSUIT_SPADE
    first_lead: FirstLead = FirstLead.LEFT_OF_DEALER
    max_team_bid: int | None = None
    max_hands: int | None = None
    extra: tuple[tuple[str, object], ...] = ()
    overrides: tuple[tuple[str, object], ...] = ()

    @overload
    def get(self, option: OptionSpec[_T]) -> _T: ...

    @overload
    def get(self, option: str) -> object: ...

    def get(self, option: OptionSpec[_T] | str) -> _T | object:
        """The value of an option, standard or plugin-defined.

        Given the :class:`OptionSpec` a variant lists, the value has that
        spec's type, which is how a plugin reads its own options::

            tax = rules.get(TAX)  # an int, for TAX = int_option("tax", ...)

        Given a name, the value is an ``object``, for tools that list options.
        """
        name = option.name if isinstance(option, OptionSpec) else option
        if not isinstance(name, str):
            raise RulesError(f"option names are strings; got {brief(name)}")
        for key, value in self.extra:
            if key == name:
                return value
        if name in STANDARD_OPTIONS:
            standard: object = getattr(self, name)
            return standard
        raise RulesError(f"no option named {brief(name)}")

    def __getstate__(self) -> dict[str, object]:
        return {field.name: getattr(self, field.name) for field in attrs.fields(Rules)}

    def __setstate__(self, state: dict[str, object]) -> None:
        # Rules pickled while whiz_nil_needs_no_ace was a standard option hold
        # it as an attribute; it is Whiz's own option now, so it moves to the
        # variant options in ``extra``, which Whiz reads it from.
        if _FORMER_STANDARD in state:
            state = dict(state)
            flag = state.pop(_FORMER_STANDARD)
            extra: tuple[tuple[str, object], ...] = state.get("extra", ())  # type: ignore[assignment]
            if all(name != _FORMER_STANDARD for name, _ in extra):
                state["extra"] = (*extra, (_FORMER_STANDARD, flag))
        for field in attrs.fields(Rules):
            if field.name in state:
                object.__setattr__(self, field.name, state[field.name])

    def overrides_json(self) -> dict[str, object]:
        """The caller's overrides with enum members written as their strings."""
        return {
            name: value.value if isinstance(value, enum.Enum) else value
            for name, value in self.overrides
        }
