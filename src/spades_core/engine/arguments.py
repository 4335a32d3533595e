"""Checks of the engine's own values as arguments: a public call given
something that is not a :class:`~spades_core.Game` (or a
:class:`~spades_core.views.View`) where it needs one raises
:class:`~spades_core.ArgumentTypeError` naming the call and the argument.

The values layer (:mod:`spades_core.values.checks`) decides the errors of
every other kind of argument; these two live here because games and views
are the engine's.
"""

from __future__ import annotations

from spades_core.engine.game import Game
from spades_core.engine.views import View
from spades_core.values.checks import instance

__all__ = ["game", "view"]


def game(value: object, call: str, name: str = "game") -> Game:
    """``value`` if it is a :class:`~spades_core.Game`."""
    return instance(value, Game, call, name, "a Game (from new_game)")


def view(value: object, call: str, name: str = "view") -> View:
    """``value`` if it is a :class:`~spades_core.views.View`."""
    return instance(value, View, call, name, "a View (game.view(seat))")
