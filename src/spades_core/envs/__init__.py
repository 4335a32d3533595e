"""Every variant as a game for research frameworks.

* :mod:`spades_core.envs.openspiel` — an OpenSpiel game (extra ``spades-core[openspiel]``):
  ``register()`` and then ``pyspiel.load_game("spades_core", {...})``.
* :mod:`spades_core.envs.pettingzoo` — a PettingZoo AEC environment (extra
  ``spades-core[pettingzoo]``): ``env(variant="classic", ...)``; also under
  PettingZoo's versioned name, :mod:`spades_core.envs.spades_v0`.
* :mod:`spades_core.envs.gymnasium` — Gymnasium environments where one seat
  (or team) learns against bots (extra ``spades-core[gymnasium]``): importing
  it registers ``spades_core/Spades-v0`` for ``gymnasium.make`` (one table)
  and ``gymnasium.make_vec`` (thousands of tables as numpy arrays).
* :mod:`spades_core.envs.features` — the fixed-length observation vector they all
  use, built from one seat's :class:`~spades_core.views.View` (needs numpy).

Importing this package imports none of those frameworks; each module imports
its own when it is imported.
"""
