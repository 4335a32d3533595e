"""Double-dummy analysis: the most tricks each team can take with every hand seen.

* :func:`best_tricks` and :func:`card_tricks` — the value of a position of
  the play, and of each card the seat to act may play;
* :func:`par` and :func:`par_batch` — the tricks of each team with each seat
  on lead, for one deal or many (the labels bidding is trained on).

The search plays by the rules kernel (:mod:`spades_core.tricks`) under the
game's options, so every variant is covered, plugins included. See the
guide, docs/analysis.md.

>>> import spades_core as sc
>>> from spades_core.analysis import best_tricks
>>> game = sc.new_game("classic", seed=11).deal()
>>> for _ in range(4):
...     game = game.bid(3)
>>> 0 <= best_tricks(game) <= 13
True
"""

from __future__ import annotations

from spades_core.analysis.par import Par, par, par_batch
from spades_core.analysis.solve import best_tricks, card_tricks

__all__ = ["Par", "best_tricks", "card_tricks", "par", "par_batch"]
