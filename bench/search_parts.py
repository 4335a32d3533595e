"""The hard bot's search in parts, for counting their instructions apart.

The positions are every decision of seeded hands played by normal bots. A
part runs ``--count`` times over them:

* ``deals``: the hard bot's source of deals (bid reading included) asked for
  ``--count`` samples at every position (bids and plays);
* ``late``: the same at the plays with at most ``--cards-left`` cards left in
  all hands, where a decision draws the most samples;
* ``playouts``: four sampled deals per play position, each played out
  ``--count`` times from a copy, as a candidate is (the normal card first).

Run a part under callgrind twice, with ``--count N`` and ``--count 0``: the
difference is the part's own work (positions, deals to play out and start-up
are the same in both). The digest it prints changes only if the part's
results do::

    valgrind --tool=callgrind python bench/search_parts.py deals --count 40
    valgrind --tool=callgrind python bench/search_parts.py deals --count 0
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys

import spades_core as sc
from spades_core.bots import _search
from spades_core.bots.table import table_from_view
from spades_core.engine.views import View
from spades_core.players import make_player


def positions(variant: str, hands: int) -> list[View]:
    """The view of the seat to act at every decision of ``hands`` seeded hands."""
    views = []
    for index in range(hands):
        game = sc.new_game(variant, seed=1 + index).deal()
        bot = make_player("normal", seed=index)
        while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            views.append(view)
            game = game.apply(bot.choose(view))
    return views


def cards_left(view: View) -> int:
    """The cards still held by all four seats."""
    return sum(view.cards_left[seat] for seat in sc.Seat)


def draw_deals(views: list[View], count: int, digest: hashlib._Hash) -> int:
    """``count`` samples at each of ``views``; returns the samples drawn."""
    budget = _search.Budget()
    for index, view in enumerate(views):
        deals = _search.sampled_deals(view, table_from_view(view), random.Random(index), budget)
        for _ in range(count):
            digest.update(repr(deals()).encode())
    return len(views) * count


def play_outs(views: list[View], count: int, digest: hashlib._Hash) -> int:
    """Four sampled deals per view, each played out ``count`` times; returns the play-outs."""
    budget = _search.Budget()
    starts = []
    for index, view in enumerate(views):
        table = table_from_view(view)
        deals = _search.sampled_deals(view, table, random.Random(index), budget)
        starts += [_search.Sim(view, table, deals()) for _ in range(4)]
    for _ in range(count):
        for start in starts:
            sim = start.clone()
            sim.play_out()
            digest.update(repr(_search.hand_value(sim, 0)).encode())
    return len(starts) * count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=("deals", "late", "playouts"))
    parser.add_argument("--count", type=int, default=40, help="samples or play-outs (40)")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--hands", type=int, default=2, help="seeded hands (2)")
    parser.add_argument("--cards-left", type=int, default=20, help="the late positions' limit (20)")
    args = parser.parse_args(argv)
    if args.count < 0 or args.hands < 1:
        parser.error("--count must be 0 or more and --hands at least 1")
    views = positions(args.variant, args.hands)
    digest = hashlib.sha256()
    if args.part == "deals":
        done = draw_deals(views, args.count, digest)
    elif args.part == "late":
        late = [
            view
            for view in views
            if view.phase is sc.Phase.PLAY and cards_left(view) <= args.cards_left
        ]
        done = draw_deals(late, args.count, digest)
    else:
        plays = [view for view in views if view.phase is sc.Phase.PLAY]
        done = play_outs(plays, args.count, digest)
    print(f"{args.part} {args.variant}: {done} done, digest {digest.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
