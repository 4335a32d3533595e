"""Public names of release 0.1 that were renamed or reshaped, kept for one minor release.

Everything in this module is removed in spades-core 0.3.0 (:data:`REMOVED_IN`),
together with the lines elsewhere that name ``_compat``. Until then each old
name works as it did and raises a :class:`DeprecationWarning` naming its
replacement (``docs/design.md``, "Changing the API"; the changelog lists
every name under "Deprecated").

The old names are kept in four ways:

* a module's old attribute (``transitions.check``, ``batch.play``) is looked
  up in :data:`MOVED_ATTRIBUTES` by the module's ``__getattr__``;
* an old module path (``spades_core.coach``) is answered by a finder that
  builds an alias of the new module (:data:`MOVED_MODULES`); games pickled by
  release 0.1 name ``spades_core.state`` and load through it;
* an old keyword (``play_game(max_hands=)``) is read by :func:`renamed_keyword`;
* a member that became a method (``view.legal_actions``) or changed shape
  (``game.bids``) returns one of the objects below, which behave the old way
  and warn.

This module imports only :mod:`spades_core.seats` (and the errors) at import
time, so that any module may hand it its old names.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import os
import sys
import types
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final, Generic, ParamSpec, TypeVar

from spades_core.values.seats import Seat, SeatMap

__all__ = [
    "DEPRECATED_KEYWORDS",
    "DEPRECATED_METHODS",
    "MOVED_ATTRIBUTES",
    "MOVED_MODULES",
    "REMOVED_IN",
    "FunctionOnceAModule",
    "MethodOnceAnAttribute",
    "bids_made_so_far",
    "deprecated",
    "install",
    "method_once_an_attribute",
    "module_attribute",
    "module_getattr",
    "renamed_keyword",
    "upgrade_pickled_game",
    "view_state",
]

REMOVED_IN: Final = "0.3.0"
"""The release that removes every name this module keeps."""

_PACKAGE_DIR: Final = os.path.dirname(os.path.abspath(__file__))


def _outside_caller_level() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside
    spades-core and the import machinery: the line that used the old name."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith((_PACKAGE_DIR, "<frozen importlib")):
            return level
        frame = frame.f_back  # type: ignore[assignment]
        # warnings.warn does not count the import machinery's frames.
        if frame is not None and not frame.f_code.co_filename.startswith("<frozen importlib"):
            level += 1
    return level


def deprecated(old: str, new: str) -> None:
    """Warn that ``old`` is deprecated in favour of ``new``."""
    warnings.warn(
        f"{old} is deprecated and will be removed in spades-core {REMOVED_IN}; use {new}",
        DeprecationWarning,
        stacklevel=_outside_caller_level(),
    )


# -- module attributes -----------------------------------------------------------

MOVED_ATTRIBUTES: Final[dict[str, dict[str, tuple[str, str]]]] = {
    # Queries that transitions offered before legality and the trick rules
    # had modules of their own.
    "spades_core.engine.transitions": {
        name: (f"{home}:{name}", f"{home}.{name}")
        for home, names in (
            (
                "spades_core.rules.legality",
                ("bid_values", "check", "legal_actions", "legal_bid_values", "legal_play_mask"),
            ),
            ("spades_core.rules.results", ("make_trick",)),
            ("spades_core.rules.tricks", ("trick_winner",)),
        )
        for name in names
    },
    "spades_core.rules.tricks": {
        "legal_mask": (
            "spades_core.rules.tricks:legal_card_mask",
            "spades_core.rules.tricks.legal_card_mask",
        ),
    },
    "spades_core.engine.records": {
        "REASONS": (
            "spades_core.engine._compat:_RECORD_REASONS",
            "spades_core.RecordReason (RecordFormatError.reason is one of its members)",
        ),
    },
    "spades_core.tips": {
        "bid_rule": (
            "spades_core.engine._compat:_bid_rule",
            "View.explain_bids(), the variant's own sentence (None when every bid is open)",
        ),
    },
    "spades_core.batch": {
        "play": ("spades_core.batch:play_hands", "spades_core.batch.play_hands"),
        "play_chunks": (
            "spades_core.batch:play_hands_in_chunks",
            "spades_core.batch.play_hands_in_chunks",
        ),
    },
    "spades_core.simulation": {
        "DEFAULT_MAX_HANDS": (
            "spades_core.simulation:DEFAULT_HAND_LIMIT",
            "spades_core.simulation.DEFAULT_HAND_LIMIT",
        ),
    },
    "spades_core.simulation.core": {
        "DEFAULT_MAX_HANDS": (
            "spades_core.simulation.core:DEFAULT_HAND_LIMIT",
            "spades_core.simulation.core.DEFAULT_HAND_LIMIT",
        ),
    },
}
"""Per module, each old attribute: ``(the "module:name" it is now, the
replacement a warning names)``."""


def _bid_rule(view: Any) -> str:
    """``spades_core.tips.bid_rule`` of release 0.1: the variant's sentence on
    what limits the bid, or one saying every bid is open."""
    explained: str | None = view.explain_bids()
    return explained or "Every bid from Nil to 13 is open to you."


# records.REASONS of release 0.1: the reasons as strings, among them copies of
# IllegalReason's values (a replayed illegal action now has reason
# ILLEGAL_ACTION, and the IllegalReason in illegal_reason).
_RECORD_REASONS: Final = frozenset(
    {
        "not_json",
        "not_an_object",
        "wrong_format",
        "unsupported_version",
        "missing_field",
        "unknown_field",
        "wrong_type",
        "bad_value",
        "unknown_variant",
        "variant_unavailable",
        "variant_version",
        "bad_option",
        "too_large",
        "missing_deal",
        "invalid_deal",
        "bad_card",
        "too_many_bids",
        "too_many_plays",
        "incomplete_hand",
        "after_game_over",
        "wrong_phase",
        "bid_not_allowed",
        "card_not_in_hand",
        "must_follow_suit",
        "spades_not_broken",
        "must_lead_two_of_clubs",
    }
)


def module_attribute(module: str, name: str) -> Any:
    """The object an old attribute ``name`` of ``module`` stands for (what a
    module's ``__getattr__`` returns), with a warning; :class:`AttributeError`
    for a name that never existed."""
    try:
        target, replacement = MOVED_ATTRIBUTES[module][name]
    except KeyError:
        raise AttributeError(f"module {module!r} has no attribute {name!r}") from None
    deprecated(f"{module}.{name}", replacement)
    home, _, attribute = target.partition(":")
    return getattr(importlib.import_module(home), attribute)


def module_getattr(module: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` answering the old names of ``module`` through
    :func:`module_attribute`.

    A module that the optional compiled build compiles assigns this instead of
    defining ``__getattr__`` itself: a compiled module's own ``__getattr__``
    would be asked for ``__file__`` while the module is still being set up.
    """

    def old_attribute(name: str) -> Any:
        return module_attribute(module, name)

    return old_attribute


# -- old module paths ------------------------------------------------------------

MOVED_MODULES: Final[dict[str, tuple[tuple[str, ...], str]]] = {
    "spades_core.state": (
        ("spades_core.engine.game", "spades_core.rules.results"),
        "spades_core.game (Game, Phase, GameSetup) and spades_core.results (Trick, HandResult); "
        "a game pickled by release 0.1 loads until then: pickle it again, or save it as a record",
    ),
    "spades_core.coach": (("spades_core.tips",), "spades_core.tips"),
    "spades_core.determinize": (("spades_core.engine.sampling",), "spades_core.engine.sampling"),
    "spades_core.playout": (("spades_core.engine.playouts",), "spades_core.engine.playouts"),
}
"""Each old module path: the modules that now hold its names, and the
replacement a warning names."""

_STATE_NAMES: Final = ("NO_SEAT", "SEATS", "TEAMS", "Game", "GameSetup", "Phase")


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old module paths and builds each as an alias of its new modules."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED_MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        homes, replacement = MOVED_MODULES[module.__name__]
        deprecated(f"the module {module.__name__}", replacement)
        loaded = [importlib.import_module(home) for home in homes]
        names: dict[str, object] = {}
        for home in loaded:
            for name in getattr(home, "__all__", ()):
                names[name] = getattr(home, name)
        if module.__name__ == "spades_core.state":
            names = {name: names[name] for name in (*_STATE_NAMES, "HandResult", "Trick")}
        module.__dict__.update(names)
        module.__all__ = sorted(names)  # type: ignore[attr-defined]
        first = loaded[0]

        def forward(name: str) -> object:
            # Private helpers of the old module live on in the new one.
            return getattr(first, name)

        module.__getattr__ = forward  # type: ignore[method-assign]


def upgrade_pickled_game(game: Any, setters: Mapping[str, Callable[[Any, object], None]]) -> None:
    """Bring a game unpickled from release 0.1 up to date: its history was a
    tuple (now a ``HandResults``), and its rules lack the options added since
    or hold one that has moved to a variant of its own."""
    import attrs

    from spades_core.rules.results import HandResults
    from spades_core.values.options import STANDARD_OPTIONS, Rules

    standing = game._standing
    if not isinstance(standing.results, HandResults):
        standing = attrs.evolve(standing, results=HandResults(standing.results))
        setters["_standing"](game, standing)
    setup = standing.setup
    own_options = {name for name in setup.variant.option_specs if name not in STANDARD_OPTIONS}
    if (
        not all(hasattr(setup.rules, field.name) for field in attrs.fields(Rules))
        or {name for name, _ in setup.rules.extra} != own_options
    ):
        rules = setup.variant.rules(**dict(setup.rules.overrides))
        setters["_standing"](game, attrs.evolve(standing, setup=attrs.evolve(setup, rules=rules)))


_STANDING_FIELDS: Final = ("_setup", "_dealer", "_scores", "_bags", "_results", "_winner")


def game_state(state: Mapping[str, Any]) -> Mapping[str, Any]:
    """The pickled state of a ``Game`` by today's fields. A game pickled
    before ``phase`` was a field of its own holds it as ``_phase`` and its
    setup, dealer, scores, bags, results and winner in fields of their own
    (today gathered in one ``Standing``); one pickled before the card ids of
    its completed tricks were kept (``_played``) holds their ``Trick``
    records as ``_tricks``."""
    if "_phase" not in state:  # pickled since: nothing to rename
        return state
    from spades_core.engine.game import Standing
    from spades_core.rules.results import card_ids

    renamed = {
        name: value
        for name, value in state.items()
        if name not in ("_phase", "_tricks") and name not in _STANDING_FIELDS
    }
    renamed["phase"] = state["_phase"]
    if "_tricks" in state:
        renamed["_played"] = card_ids(state["_tricks"])
        renamed["_trick_records"] = state["_tricks"]
    if "_setup" in state:
        # Release 0.1 kept its results in a tuple: upgrade_pickled_game
        # replaces it next.
        renamed["_standing"] = Standing(*(state[name] for name in _STANDING_FIELDS))
    return renamed


def view_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The pickled state of a ``View`` by today's field names: a view pickled
    by release 0.1 names ``hand`` and ``legal_actions`` without the underscore."""
    renamed = {"hand": "_hand", "legal_actions": "_legal_actions"}
    return {renamed.get(name, name): value for name, value in state.items()}


class _Package(types.ModuleType):
    """The package module while the old module paths exist.

    Importing ``spades_core.coach`` binds the module to the package attribute
    ``coach``; the package's public ``coach`` is the function, so that binding
    is declined (and likewise for ``determinize`` and ``playout``).
    """

    def __setattr__(self, name: str, value: object) -> None:
        if isinstance(value, types.ModuleType) and value.__name__ in MOVED_MODULES:
            return
        super().__setattr__(name, value)


def install(package: types.ModuleType) -> None:
    """Let the old module paths be imported, keeping the package's functions."""
    if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(_MovedModules())
    package.__class__ = _Package


# -- keywords --------------------------------------------------------------------

DEPRECATED_KEYWORDS: Final[dict[str, tuple[str, ...]]] = {
    "play_game": ("max_hands",),
    "simulate": ("max_hands", "options"),
    "tournament": ("max_hands", "options"),
}
"""Per public function, its keywords kept under their release 0.1 names."""

DEPRECATED_METHODS: Final = frozenset({"Game.legal_plays"})
"""Methods kept under their release 0.1 names."""


def renamed_keyword(call: str, old: str, old_value: Any, new: str, new_value: Any) -> Any:
    """The value of keyword ``new`` of ``call``, given under its old name
    ``old`` or its new one (``old_value`` is ``None`` when the old name was
    not used). Giving both is refused, whatever the values."""
    if old_value is None:
        return new_value
    deprecated(f"{call}({old}=...)", f"{call}({new}=...)")
    if new_value is not None:
        from spades_core.values.errors import RulesError

        raise RulesError(f"{call}: give {new}= alone; {old}= is its old name")
    return old_value


# -- members that became methods or changed shape --------------------------------

T = TypeVar("T")
P = ParamSpec("P")


class MethodOnceAnAttribute(Generic[T]):
    """What ``view.hand``, ``view.dealt_hand`` and ``view.legal_actions``
    are until 0.3.0, when they are plain methods: calling it is the method
    (no warning); using it as the value it was in release 0.1 (iterating,
    indexing, comparing, reading its attributes) works, and warns."""

    __slots__ = ("_method", "_name")

    def __init__(self, name: str, method: Callable[..., T]) -> None:
        self._name = name
        self._method = method

    def __call__(self, *args: Any, **kwargs: Any) -> T:
        return self._method(*args, **kwargs)

    def _old(self) -> Any:
        deprecated(f"{self._name} without brackets", f"{self._name}() (a method, as on Game)")
        return self._method()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._old(), name)

    def __repr__(self) -> str:
        return repr(self._method())

    def __str__(self) -> str:
        return str(self._old())

    def __len__(self) -> int:
        return len(self._old())

    def __iter__(self) -> Iterator[Any]:
        return iter(self._old())

    def __getitem__(self, index: Any) -> Any:
        return self._old()[index]

    def __contains__(self, item: object) -> bool:
        return item in self._old()

    def __bool__(self) -> bool:
        return bool(self._old())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MethodOnceAnAttribute):
            other = other._old()
        return bool(self._old() == other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._old())

    def __or__(self, other: Any) -> Any:
        return self._old() | other

    def __ror__(self, other: Any) -> Any:
        return other | self._old()

    def __and__(self, other: Any) -> Any:
        return self._old() & other

    def __rand__(self, other: Any) -> Any:
        return other & self._old()

    def __sub__(self, other: Any) -> Any:
        return self._old() - other

    def __rsub__(self, other: Any) -> Any:
        return other - self._old()

    def __add__(self, other: Any) -> Any:
        return self._old() + other

    def __radd__(self, other: Any) -> Any:
        return other + self._old()


class _MethodOnceAnAttributeDescriptor:
    """The class attribute :func:`method_once_an_attribute` makes."""

    def __init__(self, method: Callable[..., Any]) -> None:
        self.__wrapped__ = method
        self.__doc__ = method.__doc__
        self.__name__ = method.__name__
        self._qualname = method.__qualname__

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self.__wrapped__
        bound = self.__wrapped__.__get__(instance, owner)
        return MethodOnceAnAttribute(self._qualname, bound)


def method_once_an_attribute(method: Callable[P, T]) -> Callable[P, T]:
    """Make ``method`` a method that, until 0.3.0, also still works as the
    attribute it was in release 0.1 (see :class:`MethodOnceAnAttribute`)."""
    return _MethodOnceAnAttributeDescriptor(method)  # type: ignore[return-value]


class FunctionOnceAModule:
    """What ``sc.playout`` is until 0.3.0: the function :func:`playout`, which
    release 0.1 exposed as its module. Calling it is the function (no
    warning); reading a module attribute from it (``sc.playout.Chooser``)
    works, and warns."""

    def __init__(self, name: str, function: Callable[..., Any], module: str) -> None:
        self._name = name
        self._function = function
        self._module = module
        self.__wrapped__ = function
        self.__doc__ = function.__doc__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._function(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        deprecated(f"{self._name} as a module ({self._name}.{name})", f"{self._module}.{name}")
        return getattr(importlib.import_module(self._module), name)

    def __repr__(self) -> str:
        return repr(self._function)


def bids_made_so_far(bids: tuple[int | None, ...]) -> SeatMap[int | None]:
    """``Game.bids`` until 0.3.0: every seat's bid (``None``: not bid yet),
    like ``View.bids``. While the bidding is under way, iterating it,
    ``len()``, ``in`` and comparing it with a plain mapping answer as in
    release 0.1, about the bids made only, and warn."""
    if None not in bids:
        return SeatMap(bids)
    return _BidsSoFar(bids)


_BIDS_OLD: Final = (
    "iterating Game.bids, len(), `in`, or comparing it with a dict, while the bidding is under way"
)
_BIDS_NEW: Final = (
    "game.bids[seat], which is None for a seat yet to bid (from 0.3.0 Game.bids lists "
    "every seat, as View.bids does)"
)


def _made(bids: Sequence[int | None]) -> dict[Seat, int]:
    return {seat: bid for seat, bid in zip(Seat, bids, strict=True) if bid is not None}


class _BidsSoFar(SeatMap[int | None]):  # type: ignore[misc]
    """Every seat's bid, answering iteration, ``len()``, ``in`` and ``==``
    with a plain mapping as release 0.1 did (the bids made only)."""

    def __iter__(self) -> Iterator[Seat]:
        deprecated(_BIDS_OLD, _BIDS_NEW)
        return iter(_made(self.values_))

    def __len__(self) -> int:
        deprecated(_BIDS_OLD, _BIDS_NEW)
        return len(_made(self.values_))

    def __contains__(self, key: object) -> bool:
        deprecated(_BIDS_OLD, _BIDS_NEW)
        return key in _made(self.values_)

    def get(self, key: Seat, default: Any = None) -> Any:
        """The seat's bid; for a seat yet to bid, ``default`` as in release 0.1
        (with a warning when a ``default`` is given: from 0.3.0 it is ``None``)."""
        bid = self[key] if isinstance(key, Seat) else None
        if bid is None and default is not None:
            deprecated("Game.bids.get(seat, default) for a seat yet to bid", _BIDS_NEW)
            return default
        return bid

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeatMap):
            return self.values_ == other.values_
        if isinstance(other, Mapping):
            deprecated(_BIDS_OLD, _BIDS_NEW)
            return _made(self.values_) == dict(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.values_)

    def __repr__(self) -> str:
        # It stands in for a SeatMap, and shows as one.
        return "SeatMap" + super().__repr__().removeprefix(type(self).__name__)
