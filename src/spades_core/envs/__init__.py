"""Every variant as a game for research frameworks.

* :mod:`spades_core.envs.openspiel` — an OpenSpiel game (extra ``spades-core[openspiel]``):
  ``register()`` and then ``pyspiel.load_game("spades_core", {...})``.
* :mod:`spades_core.envs.pettingzoo` — a PettingZoo AEC environment (extra
  ``spades-core[pettingzoo]``): ``env(variant="classic", ...)``.
* :mod:`spades_core.envs.features` — the fixed-length observation vector both
  use, built from one seat's :class:`~spades_core.views.View` (needs numpy).

Importing this package imports none of those frameworks; each module imports
its own when it is imported.
"""
