"""Double-dummy analysis: the most tricks each side can take with every hand seen.

* :func:`best_tricks` and :func:`card_tricks` — the value of a position of
  the play, and of each card the seat to act may play;
* :func:`par` and :func:`par_batch` — the tricks of each team with each seat
  on lead, for one deal or many (the labels bidding is trained on).

The search plays by the rules kernel (:mod:`spades_core.tricks`) under the
game's options, so every variant is covered, plugins included. The guide is
docs/analysis.md.
"""

from __future__ import annotations

from spades_core.analysis.solve import best_tricks, card_tricks

__all__ = ["best_tricks", "card_tricks"]
