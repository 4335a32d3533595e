"""Double-dummy analysis: the most tricks each team can take with every hand seen.

* :func:`best_tricks` and :func:`card_tricks` — the value of a position of
  the play, and of each card the seat to act may play;
* :func:`par` and :func:`par_batch` — the tricks of each team with each seat
  on lead, for one deal or many (the labels bidding is trained on);
* :func:`review` — the cards of a finished hand that cost a contract or took
  a needless bag, each a :class:`Mistake` (:mod:`spades_core.analysis.mistakes`).

The search plays by the rules kernel (:mod:`spades_core.tricks`) under the
game's options, so every variant is covered, plugins included. See the
guide, docs/analysis.md.

>>> import spades_core as sc
>>> from spades_core.analysis import best_tricks, par
>>> hands = {"N": "AS KS QS JS TS AH KH QH JH TH AD KD QD",
...          "E": "9S 8S 7S 6S 9H 8H 7H 6H JD TD 9D 8D 7D",
...          "S": "5S 4S 3S 2S 5H 4H 3H 2H 6D 5D 4D 3D 2D",
...          "W": "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"}
>>> par(hands).tricks  # (NS, EW) with North, East, South, West on lead
((12, 1), (12, 1), (12, 1), (13, 0))
>>> game = sc.new_game("classic", seed=1, dealer="N").deal(hands)
>>> for _ in range(4):
...     game = game.bid(3)
>>> game.to_act, best_tricks(game)  # East leads: East-West take one trick
(<Seat.EAST: 1>, 1)
"""

from __future__ import annotations

from spades_core.analysis.mistakes import Mistake, MistakeKind, review
from spades_core.analysis.par import Par, par, par_batch
from spades_core.analysis.solve import best_tricks, card_tricks

__all__ = [
    "Mistake",
    "MistakeKind",
    "Par",
    "best_tricks",
    "card_tricks",
    "par",
    "par_batch",
    "review",
]
