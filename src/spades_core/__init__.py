"""spades-core: a typed, immutable-state rules engine for partnership Spades.

>>> import spades_core as sc
>>> game = sc.new_game("classic", seed=7, dealer=sc.Seat.WEST).deal()
>>> game.to_act, len(game.hand(sc.Seat.NORTH))
(<Seat.NORTH: 0>, 13)
"""

from __future__ import annotations

from spades_core import bots, encoding, playout
from spades_core.actions import NIL, Action, Bid, Deal, Play
from spades_core.cards import Card, CardSet, Rank, Suit
from spades_core.coach import Tip, coach
from spades_core.determinize import determinize
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
from spades_core.game import new_game
from spades_core.options import (
    BagOverflow,
    BreakRule,
    DoubleNil,
    FirstLead,
    NilTricks,
    OptionSpec,
    Rules,
)
from spades_core.records import dumps, loads
from spades_core.registry import available_variants, load_variant, refresh_variants
from spades_core.seats import Seat, SeatMap, Team, TeamMap
from spades_core.state import Game, HandResult, Phase, Trick
from spades_core.variant import Variant

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
]
