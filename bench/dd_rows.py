"""Section ``dd`` of ``bench/run.py``: the double-dummy solver, the review and the expert.

* the solver: a full 13-trick solve of a seeded random Classic deal from its
  first lead (``best_tricks``' search), and the same positions with spades
  counted as broken beside endplay's DDS (``SolveBoard``, one optimal card)
  when endplay is installed: where the rules coincide, so the two solve the
  same problem (the positions and the DDS call are bench/dd_solver.py's);
* the review of a finished hand (:func:`spades_core.analysis.review`) of
  seeded Classic hands played by the normal bot;
* the expert's and the hard bot's decisions on the same random mid-hand
  positions of Classic, median and mean (the expert solves only its last
  cards, so its mean says more of what it costs than its median).

With ``--compiled`` the section runs in both builds, as every section does.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from typing import Any

import spades_core as sc
from spades_core.analysis import review
from spades_core.analysis.solve import Position, position_of
from spades_core.bots import Player
from spades_core.players import make_player


def _deal_positions(count: int) -> list[Position]:
    # bench/dd_solver.py's seeded positions, without needing endplay.
    from spades_core.testing.strategies import play_randomly, random_deal

    positions = []
    for seed in range(1, count + 1):
        rnd = random.Random(seed)
        game = sc.new_game("classic", seed=seed).apply(random_deal(rnd))
        positions.append(position_of(play_randomly(game, rnd, steps=4)))
    return positions


def _bridge(position: Position) -> Position:
    return Position(
        position.hands, position.to_act, position.trick, True, position.any_spade, False
    )


def _timed_ms(
    items: list[Any], solve: Callable[[Any], object], clock: Callable[[], float]
) -> list[float]:
    times = []
    for item in items:
        start = clock()
        solve(item)
        times.append((clock() - start) * 1000)
    return times


def section_dd(plan: Any, result: Callable[..., Any], clock: Callable[[], float]) -> list[Any]:
    """The rows of section ``dd``; ``result(name, unit, runs, note=…)`` makes one."""
    count = max(3, plan.runs * 2)
    positions = _deal_positions(count)
    rows = [
        result(
            "solve, Classic deal from the first lead",
            "ms",
            _timed_ms(positions, lambda p: p.team_tricks(p.search()), clock),
            note=f"median of {count} seeded deals",
        )
    ]
    bridge = [_bridge(position) for position in positions]
    ours = _timed_ms(bridge, lambda p: p.team_tricks(p.search()), clock)
    rows.append(result("solve, spades broken (bridge rules)", "ms", ours, note="same deals"))
    try:
        import dd_solver  # bench/, beside this module; needs endplay
    except ImportError as error:
        rows.append(result("endplay DDS, same positions", "ms", [], note=f"not available: {error}"))
    else:
        deals = [dd_solver.bridge_deal(position) for position in bridge]
        theirs = _timed_ms(deals, dd_solver.dds_best, clock)
        rate = statistics.median(theirs) / statistics.median(ours)
        rows.append(
            result(
                "endplay DDS, same positions",
                "ms",
                theirs,
                note=f"our solve rate {rate:.3f}x DDS's",
            )
        )
    hands = []
    for seed in range(count):
        players = [sc.bots.make("normal", seed=seed * 4 + seat) for seat in range(4)]
        hands.append(sc.bots.play_game(sc.new_game("classic", seed=seed), players, hands=1))
    rows.append(
        result(
            "review of a finished hand",
            "ms",
            _timed_ms(hands, lambda game: review(game, 0), clock),
            note=f"median of {count} normal-bot Classic hands",
        )
    )
    states = _play_states(max(1, plan.decisions // 100))
    for level in ("hard", "expert"):
        times = _timed_ms(states, _decider(make_player(level, seed=1)), clock)
        rows.append(
            result(
                f"{level} card decision, classic",
                "ms",
                times,
                note=f"mean {statistics.fmean(times):.1f} ms over {len(times)} positions",
            )
        )
    return rows


def _decider(bot: Player) -> Callable[[sc.Game], object]:
    def decide(game: sc.Game) -> object:
        seat = game.to_act
        assert seat is not None
        return bot.choose(game.view(seat))

    return decide


def _play_states(hands: int) -> list[sc.Game]:
    # Every position of the play of ``hands`` seeded hands of normal bots,
    # a card decision each.
    states = []
    for seed in range(hands):
        game = sc.new_game("classic", seed=100 + seed).deal()
        players = [sc.bots.make("normal", seed=seed * 4 + seat) for seat in range(4)]
        while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
            seat = game.to_act
            assert seat is not None
            if game.phase is sc.Phase.PLAY:
                states.append(game)
            game = game.apply(players[seat].choose(game.view(seat)))
    return states


__all__ = ["section_dd"]
