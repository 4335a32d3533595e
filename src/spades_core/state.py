"""Where :class:`~spades_core.Game` and its parts lived before release 0.2.

:class:`Game`, :class:`Phase` and :class:`GameSetup` are now in
:mod:`spades_core.game`, :class:`Trick` and :class:`HandResult` in
:mod:`spades_core.results`. The names stay importable from here, and games
pickled by release 0.1 (which name this module) still load.
"""

from __future__ import annotations

from spades_core.game import NO_SEAT, SEATS, TEAMS, Game, GameSetup, Phase
from spades_core.results import HandResult, Trick

__all__ = ["NO_SEAT", "SEATS", "TEAMS", "Game", "GameSetup", "HandResult", "Phase", "Trick"]
