"""spades-core: a typed, immutable-state rules engine for partnership Spades.

>>> import spades_core as sc
>>> game = sc.new_game("classic", seed=7, dealer=sc.Seat.WEST).deal()
>>> print(game.to_act, len(game.hand(sc.Seat.NORTH)))
North 13

Importing the package loads only the engine: cards, seats, options, variants
and the game with its views. The players, the coach, records, play-outs and the action
encoding are loaded the first time one of their names is used (``sc.bots``,
``sc.coach``, ``sc.dumps``...), so a variant plugin that needs only
:class:`Variant` and :class:`CardSet` stays quick to import.

``sc.coach``, ``sc.determinize`` and ``sc.playout`` are functions; their
modules are :mod:`spades_core.tips`, :mod:`spades_core.sampling` and
:mod:`spades_core.playouts`.
"""

from __future__ import annotations

# Private names: the package's namespace is its public API.
import importlib as _importlib
import sys as _sys
from typing import TYPE_CHECKING, Final

from spades_core.actions import (
    BLIND_NIL,
    LOOK,
    NIL,
    PASSES,
    Action,
    Bid,
    BlindNil,
    Deal,
    Look,
    Pass,
    Play,
)
from spades_core.cards import Card, CardSet, Rank, Suit
from spades_core.errors import (
    ArgumentTypeError,
    DuplicateVariantError,
    IllegalActionError,
    IllegalReason,
    InconsistentViewError,
    InvalidNotationError,
    RecordFormatError,
    RecordReason,
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
from spades_core.rules.phases import HandPhase, PhaseStep, PhaseTable, Turn, Where
from spades_core.seats import Seat, SeatMap, Team, TeamMap
from spades_core.variant import Variant

if TYPE_CHECKING:
    from spades_core import bots, encoding
    from spades_core import records as records  # a module, not in __all__
    from spades_core import views as views  # a module, not in __all__
    from spades_core.playouts import playout
    from spades_core.records import dumps, loads
    from spades_core.sampling import determinize
    from spades_core.simulation import simulate, tournament
    from spades_core.tips import Tip, coach

_LAZY: Final[dict[str, tuple[str, str | None]]] = {
    "bots": ("spades_core.bots", None),
    "encoding": ("spades_core.encoding", None),
    "records": ("spades_core.records", None),
    "views": ("spades_core.views", None),
    "Tip": ("spades_core.tips", "Tip"),
    "coach": ("spades_core.tips", "coach"),
    "determinize": ("spades_core.sampling", "determinize"),
    "dumps": ("spades_core.records", "dumps"),
    "loads": ("spades_core.records", "loads"),
    "playout": ("spades_core.playouts", "playout"),
    # Simulations pull in process pools and sockets: loaded on first use only.
    "simulate": ("spades_core.simulation", "simulate"),
    "tournament": ("spades_core.simulation", "tournament"),
}
"""Public names loaded on first use: the module, and the name inside it (``None``: the module)."""

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


def _compiled() -> bool:
    # The rules kernel is loaded with the game; a compiled build compiles it
    # together with the other hot modules, so it stands for all of them.
    from importlib.machinery import ExtensionFileLoader

    return isinstance(
        getattr(_sys.modules["spades_core.rules.tricks"], "__loader__", None), ExtensionFileLoader
    )


COMPILED: Final = _compiled()
"""Whether this install is the optional compiled build: the rules kernel, the
play-outs and the bots' simulation run as C extension modules that mypyc built
from the same source, with the same results. ``False`` for the pure-Python
install, the default and the reference (``spades --version`` says which)."""

__all__ = [
    "BLIND_NIL",
    "COMPILED",
    "LOOK",
    "NIL",
    "PASSES",
    "Action",
    "ArgumentTypeError",
    "BagOverflow",
    "Bid",
    "BlindNil",
    "BreakRule",
    "Card",
    "CardSet",
    "Deal",
    "DoubleNil",
    "DuplicateVariantError",
    "FirstLead",
    "Game",
    "HandPhase",
    "HandResult",
    "IllegalActionError",
    "IllegalReason",
    "InconsistentViewError",
    "InvalidNotationError",
    "Look",
    "NilTricks",
    "OptionSpec",
    "Pass",
    "Phase",
    "PhaseStep",
    "PhaseTable",
    "Play",
    "Rank",
    "RecordFormatError",
    "RecordReason",
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
    "Turn",
    "Variant",
    "VariantError",
    "VariantLoadError",
    "VariantNotFoundError",
    "Where",
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
