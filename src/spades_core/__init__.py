"""spades-core: a typed, immutable-state rules engine for partnership Spades.

>>> import spades_core as sc
>>> game = sc.new_game("classic", seed=7, dealer=sc.Seat.WEST).deal()
>>> game.to_act, len(game.hand(sc.Seat.NORTH))
(<Seat.NORTH: 0>, 13)

Importing the package loads only the engine: cards, seats, options, variants
and the game. The players, the coach, records, play-outs and the action
encoding are loaded the first time one of their names is used (``sc.bots``,
``sc.coach``, ``sc.dumps``...), so a variant plugin that needs only
:class:`Variant` and :class:`CardSet` stays quick to import.
"""

from __future__ import annotations

# Private names: the package's namespace is its public API.
import importlib as _importlib
import sys as _sys
import types as _types
from typing import TYPE_CHECKING, Final

from spades_core.actions import NIL, Action, Bid, Deal, Play
from spades_core.cards import Card, CardSet, Rank, Suit
from spades_core.errors import (
    ArgumentTypeError,
    DuplicateVariantError,
    IllegalActionError,
    IllegalReason,
    InconsistentViewError,
    InvalidNotationError,
    RecordFormatError,
    RulesError,
    SpadesError,
    VariantError,
    VariantLoadError,
    VariantNotFoundError,
)
from spades_core.game import Game, Phase, new_game
from spades_core.options import (
    BagOverflow,
    BreakRule,
    DoubleNil,
    FirstLead,
    NilTricks,
    OptionSpec,
    Rules,
)
from spades_core.registry import available_variants, load_variant, refresh_variants
from spades_core.results import HandResult, Trick
from spades_core.seats import Seat, SeatMap, Team, TeamMap
from spades_core.variant import Variant

if TYPE_CHECKING:
    from spades_core import bots, encoding, playout
    from spades_core import records as records  # a module, not in __all__
    from spades_core import views as views  # a module, not in __all__
    from spades_core.coach import Tip, coach
    from spades_core.determinize import determinize
    from spades_core.records import dumps, loads
    from spades_core.simulation import simulate, tournament

_LAZY: Final[dict[str, tuple[str, str | None]]] = {
    "bots": ("spades_core.bots", None),
    "encoding": ("spades_core.encoding", None),
    "playout": ("spades_core.playout", None),
    "records": ("spades_core.records", None),
    "views": ("spades_core.views", None),
    "Tip": ("spades_core.coach", "Tip"),
    "coach": ("spades_core.coach", "coach"),
    "determinize": ("spades_core.determinize", "determinize"),
    "dumps": ("spades_core.records", "dumps"),
    "loads": ("spades_core.records", "loads"),
    # Simulations pull in process pools and sockets: loaded on first use only.
    "simulate": ("spades_core.simulation", "simulate"),
    "tournament": ("spades_core.simulation", "tournament"),
}
"""Public names loaded on first use: the module, and the name inside it (``None``: the module)."""

_FUNCTIONS_NAMED_LIKE_MODULES: Final = frozenset(
    name for name, (module, inside) in _LAZY.items() if module.rpartition(".")[2] == name and inside
)


class _Package(_types.ModuleType):
    """The package module, keeping ``sc.coach`` and ``sc.determinize`` the functions.

    Loading a submodule binds it to the package attribute of the same name.
    ``spades_core.coach`` and ``spades_core.determinize`` are modules holding a
    function of their own name, and the package's public name is the function,
    so that binding is declined; the modules stay reachable by import.
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name in _FUNCTIONS_NAMED_LIKE_MODULES and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package

if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        """Load a lazily imported public name on first use and keep it."""
        try:
            module_name, inside = _LAZY[name]
        except KeyError:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
        value = _importlib.import_module(module_name)
        if inside is not None:
            value = getattr(value, inside)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    """Every public name, loaded or not."""
    return sorted({*globals(), *_LAZY})


__version__ = "0.1.0"

__all__ = [
    "NIL",
    "Action",
    "ArgumentTypeError",
    "BagOverflow",
    "Bid",
    "BreakRule",
    "Card",
    "CardSet",
    "Deal",
    "DoubleNil",
    "DuplicateVariantError",
    "FirstLead",
    "Game",
    "HandResult",
    "IllegalActionError",
    "IllegalReason",
    "InconsistentViewError",
    "InvalidNotationError",
    "NilTricks",
    "OptionSpec",
    "Phase",
    "Play",
    "Rank",
    "RecordFormatError",
    "Rules",
    "RulesError",
    "Seat",
    "SeatMap",
    "SpadesError",
    "Suit",
    "Team",
    "TeamMap",
    "Tip",
    "Trick",
    "Variant",
    "VariantError",
    "VariantLoadError",
    "VariantNotFoundError",
    "__version__",
    "available_variants",
    "bots",
    "coach",
    "determinize",
    "dumps",
    "encoding",
    "load_variant",
    "loads",
    "new_game",
    "playout",
    "refresh_variants",
    "simulate",
    "tournament",
]
