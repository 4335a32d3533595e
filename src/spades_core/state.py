"""The module of release 0.1 that held the game: games pickled by 0.1 name it.

Importing it warns; its names are the game's and the results' of today.
Unpickle such a game and pickle it again (or save it as a record) before
0.3.0, which removes this module.
"""

from spades_core.engine.game import NO_SEAT, SEATS, TEAMS, Game, GameSetup, Phase
from spades_core.rules.results import HandResult, Trick
from spades_core.values.deprecation import deprecated

__all__ = ["NO_SEAT", "SEATS", "TEAMS", "Game", "GameSetup", "HandResult", "Phase", "Trick"]

deprecated(
    "the module spades_core.state",
    "spades_core.game (Game, Phase, GameSetup) and spades_core.results (Trick, HandResult); "
    "a game pickled by release 0.1 loads until then: pickle it again, or save it as a record",
)
