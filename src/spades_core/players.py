"""Players by name: the ``spades_core.players`` entry-point group.

Simulations and tournaments seat players named by a *spec*: a name,
optionally followed by options, ``NAME[:OPTION=VALUE[:OPTION=VALUE…]]`` —
``"easy"``, ``"hard"``, ``"hard:steps=2000:bid_steps=2000"``. The built-in
bot levels (``random``, ``easy``, ``normal``, ``hard``; ``medium`` is another
name for ``normal``) register under the entry-point group the same way other
packages do, just as variants do under ``spades_core.variants``::

    [project.entry-points."spades_core.players"]
    cautious = "my_package.players:CautiousPlayer"

spades-core also registers ``ismcts``, OpenSpiel's information-set Monte
Carlo tree search (``ismcts:simulations=200:uct_c=2`` with random roll-outs,
``ismcts:rollout=normal`` with the normal policy's; it needs the
``openspiel`` extra), an opponent written outside this project, and
``perfect-info``, the hard bot's search on every seat's true cards, a
reference for measurements that tables where a person plays refuse
(:func:`check_human_table`).
``expert`` is the hard bot with its card play from double-dummy solves of
sampled deals (``expert:samples=20:depth=7``,
:mod:`spades_core.analysis.expert`).

An entry point names a *factory*: a callable taking keyword arguments only,
``seed`` (an int, from which the player must draw all its randomness, so a
seed gives the same play) and the spec's options, and returning a player (an
object with ``choose(view)``, see :class:`spades_core.bots.Player`). A class
whose ``__init__`` takes ``seed`` and options as keywords is such a factory.

Discovery reads metadata and imports nothing; a factory is imported on first
use. A name claimed by two distributions, a factory that fails to import or
that builds no player raise :class:`PlayerError` for that name only. The
names spades-core registers belong to it: other distributions cannot
replace them. ``SPADES_CORE_BUILTIN_ONLY=1`` ignores every third-party player, as it
does variants.

>>> spec = parse_player("hard:steps=2000")
>>> spec.name, spec.options, str(spec)
('hard', (('steps', 2000),), 'hard:steps=2000')
>>> make_player(spec, seed=1)  # doctest: +NORMALIZE_WHITESPACE
<HardBot seed=1 steps=2000 bid_steps=6000 samples=6-100 draws=6 confidence=1.0
 inference=off prune=on>
"""

from __future__ import annotations

import importlib
import importlib.metadata
import re
import threading
from collections.abc import Callable, Mapping
from typing import Final, cast

import attrs

from spades_core.bots import Player
from spades_core.rules.registry import BUILTIN_DISTRIBUTION, builtin_only
from spades_core.values.checks import instance
from spades_core.values.errors import SpadesError, brief

__all__ = [
    "BUILTIN_PLAYERS",
    "PLAYER_GROUP",
    "PlayerError",
    "PlayerSpec",
    "available_players",
    "check_human_table",
    "make_player",
    "parse_player",
    "refresh_players",
]

PLAYER_GROUP: Final = "spades_core.players"
"""The entry-point group players register under."""
BUILTIN_PLAYERS: Final = ("random", "easy", "normal", "hard")
"""The built-in players (the bot levels), weakest first."""
_ALIASES: Final = {"medium": "normal"}
# Players spades-core registers that need an extra, and the extra.
_EXTRAS: Final = {"ismcts": "openspiel"}
_MAX_NAME: Final = 64

OptionValue = int | float | bool | str
"""The type of a player option's value."""


class PlayerError(SpadesError, ValueError):
    """A player spec that cannot be read, an unknown player, a player option it
    refuses, or a player plugin that cannot be loaded."""


@attrs.frozen
class PlayerSpec:
    """A player by name with its options; ``str(spec)`` is its label, and
    :func:`parse_player` reads it back."""

    name: str
    """The entry-point name (lower case; ``medium`` is stored as ``normal``)."""
    options: tuple[tuple[str, OptionValue], ...] = ()
    """Keyword options for the factory, sorted by name."""

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{key}={_show(value)}" for key, value in self.options)])


def _show(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_player(spec: str | PlayerSpec) -> PlayerSpec:
    """Read ``NAME[:OPTION=VALUE…]`` (names are case-insensitive). Values that
    read as whole numbers become ints, decimals floats, ``true``/``false``
    booleans; anything else stays text. Raises :class:`PlayerError`
    (:class:`~spades_core.ArgumentTypeError` for a spec that is not text).

    >>> parse_player("Hard:confidence=0.5:steps=400")
    PlayerSpec(name='hard', options=(('confidence', 0.5), ('steps', 400)))
    """
    if isinstance(spec, PlayerSpec):
        return spec
    instance(spec, str, "a player", "spec", "a name like 'easy' or 'hard:steps=2000'")
    name, *parts = spec.strip().split(":")
    name = name.strip().lower()
    if not name or len(name) > _MAX_NAME or not name.replace("_", "").replace("-", "").isalnum():
        raise PlayerError(
            f"not a player name: {brief(spec)}; write NAME or NAME:OPTION=VALUE, "
            "like 'hard:steps=2000'"
        )
    options: dict[str, OptionValue] = {}
    for part in parts:
        key, equals, raw = part.partition("=")
        key = key.strip()
        if not equals or not key.isidentifier():
            raise PlayerError(
                f"a player option is written OPTION=VALUE, like 'hard:steps=2000'; "
                f"got {brief(part)} in {brief(spec)}"
            )
        if key in options:
            raise PlayerError(f"player option {key!r} is given twice in {brief(spec)}")
        options[key] = _value(raw.strip())
    return PlayerSpec(_ALIASES.get(name, name), tuple(sorted(options.items())))


def _value(text: str) -> OptionValue:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def make_player(spec: str | PlayerSpec, *, seed: int) -> Player:
    """A new player built from ``spec`` (a :class:`PlayerSpec` or its text) with
    ``seed``. Raises :class:`PlayerError` for an unknown player, options the
    factory refuses, or a factory that returns no player."""
    parsed = parse_player(spec)
    factory = _REGISTRY.factory(parsed.name)
    try:
        player = factory(seed=seed, **dict(parsed.options))
    except SpadesError as error:
        raise PlayerError(f"player {str(parsed)!r}: {error}") from error
    except TypeError as error:
        # A factory's signature refusing an option surfaces as a TypeError.
        raise PlayerError(
            f"player {str(parsed)!r} was refused by its factory: {error}; "
            + ("it takes no options" if parsed.options else "check its options")
        ) from error
    except Exception as error:
        raise PlayerError(
            f"player {str(parsed)!r} could not be created: {type(error).__name__}: {error}"
        ) from error
    if not callable(getattr(player, "choose", None)):
        raise PlayerError(
            f"player {parsed.name!r} built {brief(player)}, which has no choose(view) method"
        )
    return cast("Player", player)


def check_human_table(player: object) -> None:
    """Refuse a player that may not sit at a table where a person plays.

    A player declares this with ``for_human_tables = False`` (the
    ``perfect-info`` player, which sees every seat's cards, does). ``player``
    is a player object, or a name or spec (``"perfect-info"``): then its
    factory is looked up, without building a player, and asked. Raises
    :class:`PlayerError` saying so for such a player. Anything else passes:
    a name that is no installed player (or cannot be imported) is left to
    the table's own check of what it seats.

    >>> check_human_table("hard")
    >>> try:
    ...     check_human_table("perfect-info")
    ... except PlayerError as error:
    ...     print(str(error)[:51])
    perfect-info is for measurement only: it sees every
    """
    name = None
    if isinstance(player, str | PlayerSpec):
        try:
            name = parse_player(player).name
            target: object = _REGISTRY.factory(name)
        except PlayerError:
            return
    else:
        target = player
    if getattr(target, "for_human_tables", True) is False:
        shown = name or getattr(target, "level", None) or type(target).__name__
        raise PlayerError(
            f"{shown} is for measurement only: it sees every seat's cards, so it cannot sit "
            "at a table where a person plays; choose another player"
        )


def available_players() -> tuple[str, ...]:
    """Every installed player name: the built-ins first, weakest first, then
    the others sorted. Nothing is imported."""
    names = _REGISTRY.entries()
    others = sorted(name for name in names if name not in BUILTIN_PLAYERS)
    return tuple(name for name in BUILTIN_PLAYERS if name in names) + tuple(others)


Factory = Callable[..., object]


class _Registry:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[str, tuple[tuple[str, str], ...]] | None = None
        self._loaded: dict[str, Factory] = {}

    def entries(self) -> Mapping[str, tuple[tuple[str, str], ...]]:
        """name → ((distribution, target), …) for every claim on the name."""
        with self._lock:
            if self._entries is None:
                self._entries = _discover()
            return self._entries

    def factory(self, name: str) -> Factory:
        loaded = self._loaded.get(name)
        if loaded is not None:
            return loaded
        claims = self.entries().get(name)
        if not claims:
            raise PlayerError(
                f"unknown player {name!r}; installed players: {', '.join(available_players())}"
            )
        if len(claims) > 1:
            raise PlayerError(
                f"player {name!r} is claimed by several distributions "
                f"({', '.join(dist for dist, _ in claims)}); uninstall all but one"
            )
        distribution, target = claims[0]
        try:
            found: object = importlib.metadata.EntryPoint(name, target, PLAYER_GROUP).load()
        except Exception as error:
            extra = _EXTRAS.get(name) if distribution == BUILTIN_DISTRIBUTION else None
            if not isinstance(error, ModuleNotFoundError):
                extra = None
            raise PlayerError(
                f"player {name!r} from {distribution} ({target}) could not be imported: "
                f"{type(error).__name__}: {error}"
                + (f"; install it with: pip install 'spades-core[{extra}]'" if extra else "")
            ) from error
        if not callable(found):
            raise PlayerError(
                f"player {name!r} from {distribution} ({target}) is {brief(found)}, "
                "not a factory that builds a player"
            )
        factory = cast("Factory", found)
        with self._lock:
            self._loaded[name] = factory
        return factory

    def refresh(self) -> None:
        with self._lock:
            self._entries = None
            self._loaded.clear()


def _discover() -> dict[str, tuple[tuple[str, str], ...]]:
    restricted = builtin_only()
    found = []
    # entry_points() already keeps only the first distribution of each name on sys.path.
    for entry_point in importlib.metadata.entry_points(group=PLAYER_GROUP):
        dist = entry_point.dist
        distribution = _normalize(dist.name) if dist is not None else "unknown"
        found.append((entry_point.name, distribution, entry_point.value))
    # Every name spades-core registers is its own: no other distribution replaces it.
    own = {name for name, distribution, _ in found if distribution == BUILTIN_DISTRIBUTION}
    own.update(BUILTIN_PLAYERS)
    claims: dict[str, list[tuple[str, str]]] = {}
    for name, distribution, target in found:
        if distribution != BUILTIN_DISTRIBUTION and (restricted or name in own):
            continue
        claims.setdefault(name, []).append((distribution, target))
    return {name: tuple(found) for name, found in claims.items()}


def _normalize(name: str) -> str:
    # PEP 503, enough to compare distribution names.
    return re.sub(r"[-_.]+", "-", name).lower()


_REGISTRY: Final = _Registry()


def refresh_players() -> None:
    """Forget discovered and loaded players, so that distributions installed or
    removed since are seen."""
    importlib.invalidate_caches()
    _REGISTRY.refresh()
