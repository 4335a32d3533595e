"""What the fuzz tests share: the public surface, found by walking the
package's namespaces, sample objects of every public class, arbitrary values
of every kind, and a snapshot that shows whether an object changed.

The surface is computed, not listed: a function or class added to one of
:data:`PUBLIC_MODULES` (through its ``__all__``) is fuzzed without touching the
tests, and a public class with methods but no samples fails
``test_every_public_class_has_samples`` until it gets some.
"""

from __future__ import annotations

import enum
import inspect
import math
import random
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

import attrs
from hypothesis import strategies as st

import spades_core as sc
from spades_core import bots
from spades_core.bots import EasyBot, HardBot, NormalBot, RandomBot
from spades_core.engine import encoding, playouts, records
from spades_core.engine.views import View
from spades_core.rules import phase_turns, registry
from spades_core.rules.registry import variant_entries
from spades_core.values import deprecation
from spades_core.values.options import STANDARD_OPTIONS

PUBLIC_MODULES: Final[tuple[types.ModuleType, ...]] = (
    sc,
    bots,
    encoding,
    playouts,
    records,
    registry,
)
"""The namespaces whose ``__all__`` is the public surface the fuzz tests cover."""

ENGINE_BUILT: Final = frozenset({sc.Game, sc.HandResult, sc.PhaseStep, sc.PhaseTable})
"""Classes whose documentation says only the engine builds them ("do not call
the constructor"): their constructors are not entry points, their methods are."""

HOOKS: Final = frozenset(
    {
        "legal_bids",
        "score_hand",
        "score_items",
        "game_outcome",
        "revealed_spade_counts",
        "check_rules",
        "array_forms",
        "explain_bids",
        "phases",
        "score_phased_hand",
        "score_phased_items",
    }
)
"""Variant hook methods: the engine calls them with checked values and checks
their answers, so they are not fuzzed as entry points."""
PHASE_HOOKS: Final = frozenset({"turn", "hidden"})
"""The hooks of a variant's phase (:class:`~spades_core.HandPhase`), likewise."""


@attrs.frozen
class Target:
    """One public callable: ``owner`` is the module or class it was found on,
    ``receiver`` picks the object a method is called on (``None`` for
    functions, classmethods and constructors)."""

    name: str
    function: Callable[..., Any] = attrs.field(eq=False)
    signature: inspect.Signature = attrs.field(eq=False)
    receiver: type | None = None


def _ours(obj: object) -> bool:
    module = getattr(obj, "__module__", "") or ""
    return module.split(".")[0] in ("spades_core", "spades_variants")


def public_classes() -> list[type]:
    """Every public class of the surface, each once, in a stable order."""
    found: dict[str, type] = {}
    for module in PUBLIC_MODULES:
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, type) and _ours(obj) and not getattr(obj, "_is_protocol", False):
                found.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
    for sample_type in (type(sample) for samples in SAMPLES.values() for sample in samples()):
        if _ours(sample_type):
            found.setdefault(f"{sample_type.__module__}.{sample_type.__qualname__}", sample_type)
    return [found[key] for key in sorted(found)]


def _methods(cls: type) -> Iterator[tuple[str, object]]:
    seen: set[str] = set()
    for klass in cls.__mro__:
        if not _ours(klass):
            continue
        for name, member in vars(klass).items():
            hook = (name in HOOKS and issubclass(cls, sc.Variant)) or (
                name in PHASE_HOOKS and issubclass(cls, sc.HandPhase)
            )
            if name.startswith("_") or name in seen or hook:
                continue
            seen.add(name)
            # A method that also answers as its old attribute until 0.3.0 (View.hand).
            wrapped = getattr(member, "__wrapped__", None)
            plain = inspect.isfunction(member) or isinstance(member, staticmethod | classmethod)
            if not plain and inspect.isfunction(wrapped):
                member = wrapped
            if isinstance(member, staticmethod | classmethod) or inspect.isfunction(member):
                yield name, member


def _signature(function: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(function)
    except (TypeError, ValueError):
        return None


_ENUM_LOOKUP: Final = inspect.Signature(
    [inspect.Parameter("value", inspect.Parameter.POSITIONAL_ONLY)]
)


def targets() -> list[Target]:
    """Every public function, constructor and method of the surface."""
    found: dict[str, Target] = {}
    for module in PUBLIC_MODULES:
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) and _ours(obj):
                signature = _signature(obj)
                if signature is not None:
                    found.setdefault(
                        f"{obj.__module__}.{obj.__qualname__}", Target(name, obj, signature)
                    )
    for cls in public_classes():
        qualified = f"{cls.__module__}.{cls.__qualname__}"
        if issubclass(cls, enum.Enum):
            # Only the lookup Enum(value): the rest of EnumType.__call__'s
            # signature is Python's functional API for making new enums.
            found[qualified] = Target(cls.__name__, cls, _ENUM_LOOKUP)
        elif not issubclass(cls, BaseException) and cls not in ENGINE_BUILT:
            constructor_signature = _signature(cls)
            if constructor_signature is not None:
                found[qualified] = Target(cls.__name__, cls, constructor_signature)
        for name, member in _methods(cls):
            key = f"{qualified}.{name}"
            if isinstance(member, staticmethod | classmethod):
                bound = getattr(cls, name)
                signature = _signature(bound)
                if signature is not None:
                    found[key] = Target(f"{cls.__name__}.{name}", bound, signature)
            else:
                assert inspect.isfunction(member)
                signature = _signature(member)
                if signature is not None:
                    parameters = list(signature.parameters.values())[1:]
                    found[key] = Target(
                        f"{cls.__name__}.{name}",
                        member,
                        signature.replace(parameters=parameters),
                        cls,
                    )
    # Methods kept under their old names only warn and call the new ones.
    return [
        found[key] for key in sorted(found) if found[key].name not in deprecation.DEPRECATED_METHODS
    ]


# -- samples of every public class -------------------------------------------------


def _games() -> list[sc.Game]:
    fresh = sc.new_game("classic", seed=7, dealer="W")
    bidding = sc.new_game("mirror", seed=11, target_score=250).deal()
    playing = sc.new_game("whiz", seed=5).deal()
    while playing.phase is sc.Phase.BID:
        playing = playing.apply(playing.legal_actions()[0])
    playing = playing.apply(playing.legal_actions()[-1])
    between = playouts.playout(sc.new_game("mirror", seed=2), random.Random(2), hands=2)
    over = playouts.playout(sc.new_game("classic", seed=3), random.Random(1), hands=None)
    return [fresh, bidding, playing, between, over]


def _views() -> list[object]:
    games = GAMES()
    return [
        games[1].view(games[1].to_act),
        games[2].view("N"),
        games[2].view(games[2].to_act),
        games[3].public_view(),
        games[4].view("S"),
    ]


def _lazy(build: Callable[[], list[Any]]) -> Callable[[], list[Any]]:
    cache: list[list[Any]] = []

    def get() -> list[Any]:
        if not cache:
            cache.append(build())
        return cache[0]

    return get


GAMES = _lazy(_games)
VIEWS = _lazy(_views)


def _results() -> list[object]:
    return list(GAMES()[3].hand_results)


SAMPLES: Final[dict[type, Callable[[], list[Any]]]] = {
    sc.Game: GAMES,
    View: VIEWS,
    sc.Card: _lazy(lambda: [sc.Card.parse("QH"), sc.Card.parse("2C"), sc.Card.parse("AS")]),
    sc.CardSet: _lazy(
        lambda: [sc.CardSet(0), sc.CardSet.parse("AS KS 2C"), sc.CardSet.full_deck()]
    ),
    sc.Bid: _lazy(lambda: [sc.Bid.of(0), sc.Bid.of(4), sc.Bid.of(13)]),
    sc.Play: _lazy(lambda: [sc.Play.of("QH"), sc.Play.of("2C")]),
    sc.Deal: _lazy(
        lambda: [sc.Deal(), sc.Deal(tuple(GAMES()[1].dealt_hand(seat) for seat in sc.Seat))]
    ),
    sc.Variant: _lazy(
        lambda: [
            sc.load_variant("classic"),
            sc.load_variant("mirror"),
            sc.load_variant("whiz"),
            sc.load_variant("mirror").derive(id="mirror-250", target_score=250),
        ]
    ),
    sc.Rules: _lazy(lambda: [game.rules for game in GAMES()]),
    sc.OptionSpec: _lazy(lambda: list(STANDARD_OPTIONS.values())),
    sc.HandResult: _lazy(_results),
    sc.Trick: _lazy(lambda: list(GAMES()[3].hand_results[0].played[:2])),
    sc.SeatMap: _lazy(lambda: [GAMES()[2].tricks_won, GAMES()[3].hand_results[0].bids]),
    sc.TeamMap: _lazy(lambda: [GAMES()[3].scores]),
    sc.Tip: _lazy(lambda: [sc.coach(VIEWS()[0])]),
    RandomBot: _lazy(lambda: [RandomBot(1)]),
    EasyBot: _lazy(lambda: [EasyBot(1)]),
    NormalBot: _lazy(lambda: [NormalBot(1)]),
    HardBot: _lazy(
        lambda: [HardBot(1, steps=40, bid_steps=40, min_samples=1, max_samples=2, draws=1)]
    ),
    bots.Bot: _lazy(lambda: [NormalBot(2)]),
    registry.VariantEntry: _lazy(lambda: list(variant_entries())),
    sc.Pass: _lazy(lambda: [sc.Pass.of("QH"), sc.Pass(sc.CardSet.parse("AS 2C"))]),
    sc.BlindNil: _lazy(lambda: [sc.BLIND_NIL]),
    sc.Look: _lazy(lambda: [sc.LOOK]),
    sc.PhaseTable: _lazy(
        lambda: [
            phase_turns.table_of(
                0,
                1,
                (0, 120),
                tuple(GAMES()[1].hand(seat).mask for seat in sc.Seat),
                (None, 0, None, None),
                (sc.PhaseStep("blind_nil", sc.Seat.EAST, sc.BLIND_NIL),),
            )
        ]
    ),
}
"""Objects of each public class that methods are called on."""


def samples_of(cls: type) -> list[Any]:
    """The samples of ``cls``: listed ones, or every member of an enum."""
    if issubclass(cls, enum.Enum):
        return list(cls)
    build = SAMPLES.get(cls)
    if build is not None:
        return build()
    return [sample for listed in SAMPLES.values() for sample in listed() if type(sample) is cls]


# -- arbitrary values ---------------------------------------------------------------

_HUGE: Final = 10**5000
_MEANINGFUL: Final = (
    "classic",
    "mirror",
    "whiz",
    "N",
    "s",
    "south",
    "WEST",
    "NS",
    "QH",
    "10d",
    "A♠",
    "AS KS 2C",
    "nil",
    "hard",
    "random",
    "target_score",
    "nil_value",
    "deal",
    "",
    " ",
    "\ufeff",
    "x" * 100_000,
)


def _library_objects() -> list[object]:
    objects: list[object] = [sc.Seat.NORTH, sc.Seat.SOUTH, sc.Team.NS, sc.Team.EW]
    objects += [sc.Suit.SPADES, sc.Rank.ACE, sc.Phase.PLAY, sc.IllegalReason.WRONG_PHASE]
    for cls, build in SAMPLES.items():
        if cls in (RandomBot, EasyBot, NormalBot, HardBot, bots.Bot):
            continue  # a bot in a list of players would play whole games
        objects += build()
    objects += [sc.RulesError("x"), sc.load_variant("classic").rules]
    return objects


LIBRARY_OBJECTS = _lazy(_library_objects)

atoms = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 2, 3, 4, 12, 13, 14, 51, 52, -1, 2**52, 2**64, 10**4299, -(10**4299)]),
    # Past CPython's 4,300-digit limit for str(); built in a map so that no
    # strategy's repr has to show it.
    st.sampled_from([1, -1]).map(lambda sign: sign * _HUGE),
    st.floats(),
    st.sampled_from([-0.0, 1.0, 2.0, math.inf, math.nan]),
    st.text(max_size=12),
    st.sampled_from(_MEANINGFUL),
    st.binary(max_size=12),
    st.builds(object),
)

library = st.deferred(lambda: st.sampled_from(LIBRARY_OBJECTS()))

anything = st.recursive(
    st.one_of(atoms, library),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner, inner, inner),
        st.dictionaries(
            st.one_of(st.sampled_from(["N", "E", "S", "W"]), st.text(max_size=6)), inner, max_size=4
        ),
        st.dictionaries(st.sampled_from(list(sc.Seat)), inner, max_size=4),
    ),
    max_leaves=6,
)
"""Any value at all: numbers of every size, floats, bools, None, text (long
too), bytes, containers, and objects of the library's own types."""

keyword_names = st.one_of(
    st.sampled_from(
        [
            "self",
            "variant",
            "seed",
            "dealer",
            "id",
            "title",
            "version",
            "steps",
            "hands",
            *sorted(STANDARD_OPTIONS),
        ]
    ),
    st.text(min_size=1, max_size=8),
)

_OMIT: Final = object()


def arguments(target: Target) -> st.SearchStrategy[tuple[list[Any], dict[str, Any]]]:
    """Arbitrary arguments for ``target``, one value (or omission) per parameter."""
    parts: list[st.SearchStrategy[tuple[str, Any]]] = []
    # Keywords kept under their old names only warn; their new names are fuzzed.
    old_names = deprecation.DEPRECATED_KEYWORDS.get(target.name, ())
    for parameter in target.signature.parameters.values():
        if parameter.name in old_names:
            parts.append(st.tuples(st.just(parameter.name), st.just(_OMIT)))
            continue
        value: st.SearchStrategy[Any] = anything
        if parameter.name in ("rng", "choose"):
            value = st.one_of(anything, st.builds(random.Random, st.integers(0, 9)))
        if parameter.kind is parameter.VAR_KEYWORD:
            names = keyword_names.filter(lambda name: name not in old_names)
            strategy: st.SearchStrategy[Any] = st.dictionaries(names, anything, max_size=3)
        elif parameter.kind is parameter.VAR_POSITIONAL:
            strategy = st.lists(anything, max_size=2)
        elif parameter.default is not parameter.empty:
            strategy = st.one_of(st.just(_OMIT), value)
        else:
            strategy = value
        parts.append(st.tuples(st.just(parameter.name), strategy))

    def assemble(drawn: tuple[tuple[str, Any], ...]) -> tuple[list[Any], dict[str, Any]]:
        positional: list[Any] = []
        keywords: dict[str, Any] = {}
        for (name, value), parameter in zip(
            drawn, target.signature.parameters.values(), strict=True
        ):
            if value is _OMIT:
                continue
            if parameter.kind is parameter.VAR_KEYWORD:
                keywords.update(value)
            elif parameter.kind is parameter.VAR_POSITIONAL:
                positional.extend(value)
            elif parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
                positional.append(value)
            else:
                keywords[name] = value
        return positional, keywords

    return st.tuples(*parts).map(assemble)


# -- did anything change? ----------------------------------------------------------


def snapshot(value: object, depth: int = 0) -> object:
    """A plain, comparable picture of ``value``'s state: equal before and after
    a call exactly when the call changed nothing that the value's equality
    (and its record, for a game) depends on."""
    if depth > 40:
        return ("deep", id(value))
    if isinstance(value, float):
        return ("float", value.hex())
    if isinstance(value, str | bytes | int | type(None) | enum.Enum):
        return value
    if isinstance(value, sc.Game):
        fields = _attrs_fields(value, depth)
        return ("Game", fields, records.dumps(value))
    if attrs.has(type(value)):
        return (type(value).__name__, _attrs_fields(value, depth))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(snapshot(item, depth + 1) for item in value))
    if isinstance(value, Mapping):
        return (
            type(value).__name__,
            tuple((snapshot(k, depth + 1), snapshot(v, depth + 1)) for k, v in value.items()),
        )
    if isinstance(value, bots.Bot):
        state = {k: v for k, v in vars(value).items() if k != "_rng"}
        return ("Bot", snapshot(state, depth + 1))
    if isinstance(value, sc.Variant):
        return ("Variant", id(value), snapshot(dict(vars(value)), depth + 1))
    if isinstance(value, BaseException):
        return (type(value).__name__, snapshot(value.args, depth + 1))
    return (type(value).__name__, id(value))


def _attrs_fields(value: object, depth: int) -> tuple[object, ...]:
    return tuple(
        (field.name, snapshot(getattr(value, field.name), depth + 1))
        for field in attrs.fields(type(value))  # type: ignore[arg-type]
        if field.eq
    )
