"""spades-core benchmarks: speed and memory of the engine (``make bench``).

    python bench/run.py            # a table
    python bench/run.py --json     # machine-readable results
    python bench/run.py --quick    # a fast smoke run (fewer hands and runs)
    python bench/run.py --only a,b # some sections only
    python bench/run.py --cpu-time # time with CPU time (steadier on a busy machine)
    python bench/run.py --compiled # the pure-Python and the compiled build side by side

Sections (docs/performance.md explains the method and the targets):

a. complete random hands per second through the checked API
   (``legal_actions()`` + ``apply()``, dealing and scoring included), per variant;
b. the same hands through the fast simulation path, :func:`spades_core.engine.playouts.playout`;
c. microseconds per ``legal_actions()`` on random mid-hand games, first call
   (a fresh game, nothing cached) and cached;
d. seeded deals per second;
e. the cost of ``view()``;
f. ``dumps`` / ``loads`` per record;
g. decision latency per bot level (median and 99th percentile);
h. memory: bytes a mid-hand game retains beyond what it shares with its
   predecessor, and a finished 500-point game with its history (tracemalloc);
dd. the double-dummy solver from a deal's first lead (endplay's DDS beside it on
   the same positions with spades broken), the review of a finished hand, and
   the expert's card decisions beside the hard bot's (bench/dd_rows.py);
i. the results history: time per hand through :func:`playout` early in one
   long game and late in it (hand 5,000 and hand 60,000), which stays flat
   when appending a hand result costs the same however long the game.

batch. the batch engine (``spades_core.batch``, needs numpy): hands per second
   of ``batch.play_hands`` by policy, table-steps per second of ``batch.Tables`` at
   4,096 tables, and OpenSpiel's all-C++ loop (``pyspiel.evaluate_bots``) beside them.

gym. the Gymnasium environments (``spades_core.envs.gymnasium``, needs the
   ``gymnasium`` extra): learner steps per second of ``SpadesVectorEnv`` at 4,096
   tables with ``random`` and ``normal`` batch policies at the other seats, and of
   ``SpadesEnv`` beside Shimmy's OpenSpiel ``spades`` stepped the same way, with
   their ratio over interleaved pairs (the loops of ``bench/gym_envs.py``).

A hand starts from a fresh game waiting for its deal (``new_game``, then the
deal from the seed) and ends when it is scored; Mirror and Whiz games played
at random may never end, so speed is counted per hand, not per game. Each
figure is the median of several timed runs after a warm-up run. Sections
whose API is not present report "not available". When ``pyspiel`` (OpenSpiel)
is importable, its random hands per second from a Python loop are measured
too, for comparison. Section ``envs`` measures random hands through the
OpenSpiel game and the PettingZoo environment of ``spades_core.envs`` beside
the engine driven by action ids; the OpenSpiel game is played with the
native row's loop, letter for letter, and once more picking deals from
``chance_outcomes()``; and, when ``shimmy[openspiel]`` is installed,
OpenSpiel's own ``spades`` as a PettingZoo environment through Shimmy, the
environment a PettingZoo user would pick instead of ours. When section ``os``
is chosen, the ``ratio`` rows give each Python path (``envs``, and ``a`` for
classic) as a multiple of OpenSpiel's Python loop, and section ``envs`` gives
both PettingZoo environments as multiples of Shimmy's; each ratio is the
median of interleaved pairs (in each pair the path and the one it is
measured against take eight turns each in alternation, a few hundredths of a
second a turn, so that the machine's changing speed falls on both alike).
With section ``batch``, ``batch.play_hands`` is given as a multiple of
OpenSpiel's all-C++ loop. Each ratio is shown against its goal.

With ``--compiled`` the chosen sections run twice: here (the pure-Python
install) and then, in a child process, in the compiled build's environment
(``.venv-compiled``, made by ``make compiled``); the table gives each figure
for both builds and their ratio. Each build measures its own OpenSpiel rows.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import attrs

import spades_core as sc
from spades_core.engine.playouts import playout
from spades_core.rules import rng as seeded

VARIANTS = ("classic", "mirror", "whiz")

clock: Callable[[], float] = time.perf_counter
"""The timer: wall-clock time, or this process's CPU time with ``--cpu-time``."""
MID_HAND = (sc.Phase.BID, sc.Phase.PLAY)


@dataclass
class Result:
    """One measured figure: the median of ``runs``."""

    section: str
    name: str
    value: float | None
    unit: str
    target: str = ""
    met: bool | None = None
    runs: list[float] = field(default_factory=list)
    note: str = ""


@dataclass(frozen=True)
class Plan:
    """How much work each section does."""

    hands: int
    runs: int
    sample_hands: int
    decisions: int
    bot_seconds: float
    long_game: tuple[int, int] = (5_000, 60_000)
    """The hands of section i's long game at which time per hand is measured."""


FULL = Plan(hands=1000, runs=5, sample_hands=200, decisions=300, bot_seconds=10.0)
QUICK = Plan(
    hands=100, runs=3, sample_hands=20, decisions=40, bot_seconds=3.0, long_game=(500, 6_000)
)


def timed_runs(plan: Plan, run: Callable[[int], float]) -> list[float]:
    """A warm-up run, then ``plan.runs`` timed runs; ``run(i)`` returns one figure."""
    run(-1)
    return [run(i) for i in range(plan.runs)]


def median_result(section: str, name: str, unit: str, runs: list[float], **extra: Any) -> Result:
    """A result holding the median of ``runs``."""
    return Result(section, name, statistics.median(runs), unit, runs=runs, **extra)


def with_target(result: Result, target: float, *, at_least: bool) -> Result:
    """``result`` marked against a target (at least / at most ``target``)."""
    assert result.value is not None
    result.target = f"{'>=' if at_least else '<='} {target:g}"
    result.met = result.value >= target if at_least else result.value <= target
    return result


def unavailable(section: str, name: str, why: str) -> Result:
    """A section whose API is missing."""
    return Result(section, name, None, "", note=f"not available: {why}")


# -- random play ----------------------------------------------------------------


def in_hand(game: sc.Game) -> bool:
    """Whether ``game`` is in the middle of a hand (bidding or playing)."""
    return game.phase in MID_HAND


def checked_hand(game: sc.Game, rng: random.Random) -> sc.Game:
    """``game`` (waiting for a deal) after one random hand through the checked API."""
    choice = rng.choice
    game = game.apply(choice(game.legal_actions()))
    while game.phase in MID_HAND:
        game = game.apply(choice(game.legal_actions()))
    return game


def random_states(variant: str, hands: int, seed: int) -> list[sc.Game]:
    """Every mid-hand game (bidding and play) of ``hands`` random hands."""
    rng = random.Random(seed)
    states = []
    for i in range(hands):
        game = sc.new_game(variant, seed=seed + i)
        game = game.apply(rng.choice(game.legal_actions()))
        while in_hand(game):
            states.append(game)
            game = game.apply(rng.choice(game.legal_actions()))
    return states


def to_act(game: sc.Game) -> sc.Seat:
    """The seat to act in a mid-hand game."""
    seat = game.to_act
    assert seat is not None
    return seat


def fresh(game: sc.Game) -> sc.Game:
    """An equal game with nothing cached."""
    copy: sc.Game = attrs.evolve(game)
    return copy


# -- a, b: hands per second -------------------------------------------------------


def hand_rate_run(
    hands: int, variant: str, play_hand: Callable[[sc.Game, random.Random], sc.Game]
) -> Callable[[int], float]:
    """A run of ``hands`` hands of ``play_hand(new_game(...), rng)``, each from a
    new game waiting for its first deal, returning hands per second."""

    def run(i: int) -> float:
        rng = random.Random(i)
        first_seed = (i + 1) * 1_000_003
        new_game = sc.new_game
        start = clock()
        for seed in range(first_seed, first_seed + hands):
            play_hand(new_game(variant, seed=seed), rng)
        return hands / (clock() - start)

    return run


def hands_per_second(
    plan: Plan, variant: str, play_hand: Callable[[sc.Game, random.Random], sc.Game]
) -> list[float]:
    """Hands per second of ``play_hand`` in each timed run (see :func:`hand_rate_run`)."""
    return timed_runs(plan, hand_rate_run(plan.hands, variant, play_hand))


def fast_hand(game: sc.Game, rng: random.Random) -> sc.Game:
    """One random hand through :func:`playout`."""
    return playout(game, rng)


def hand_rates(
    plan: Plan,
    section: str,
    path: str,
    play_hand: Callable[[sc.Game, random.Random], sc.Game],
    target: float,
) -> list[Result]:
    """Hands per second of ``play_hand`` for each variant."""
    results = []
    for variant in VARIANTS:
        results.append(
            with_target(
                median_result(
                    section,
                    f"random hands, {path}, {variant}",
                    "hands/s",
                    hands_per_second(plan, variant, play_hand),
                    note="each hand in a new game",
                ),
                target,
                at_least=True,
            )
        )
    return results


def section_a(plan: Plan) -> list[Result]:
    """Random hands per second through the checked API."""
    return hand_rates(plan, "a", "checked API", checked_hand, 5000)


def section_b(plan: Plan) -> list[Result]:
    """Random hands per second through playout()."""
    return hand_rates(plan, "b", "playout()", fast_hand, 16000)


# -- c: legal_actions ------------------------------------------------------------


def per_call_us(plan: Plan, states: Sequence[sc.Game], *, cached: bool) -> list[float]:
    """Microseconds per ``legal_actions()`` call over ``states``."""
    legal_actions = sc.Game.legal_actions

    def run(i: int) -> float:
        games = [fresh(game) for game in states]
        if cached:
            list(map(legal_actions, games))
        start = clock()
        list(map(legal_actions, games))
        return (clock() - start) / len(games) * 1e6

    return timed_runs(plan, run)


def section_c(plan: Plan) -> list[Result]:
    """legal_actions() on random mid-hand games, first call and cached."""
    results = []
    for variant in VARIANTS:
        states = random_states(variant, plan.sample_hands, seed=11)
        bidding = [game for game in states if game.phase is sc.Phase.BID]
        playing = [game for game in states if game.phase is sc.Phase.PLAY]
        first = median_result(
            "c",
            f"legal_actions() first call, {variant}",
            "µs",
            per_call_us(plan, states, cached=False),
            note=f"{len(states)} mid-hand games",
        )
        results.append(with_target(first, 2.0, at_least=False))
        for label, sample in (("bidding", bidding), ("playing", playing)):
            results.append(
                median_result(
                    "c",
                    f"  first call, {label} only, {variant}",
                    "µs",
                    per_call_us(plan, sample, cached=False),
                    note=f"{len(sample)} games",
                )
            )
        results.append(
            median_result(
                "c",
                f"legal_actions() cached, {variant}",
                "µs",
                per_call_us(plan, states, cached=True),
            )
        )
    return results


# -- d: deals ----------------------------------------------------------------------


def section_d(plan: Plan) -> list[Result]:
    """Seeded deals per second: Game.deal() and the shuffle alone."""
    count = plan.hands * 5

    def game_deals(i: int) -> float:
        games = [sc.new_game("classic", seed=(i + 1) * count + k) for k in range(count)]
        start = clock()
        for game in games:
            game.deal()
        return count / (clock() - start)

    def raw_deals(i: int) -> float:
        deal_masks = seeded.deal_masks
        first = (i + 2) * count
        start = clock()
        for seed in range(first, first + count):
            deal_masks(seed, 0, 0)
        return count / (clock() - start)

    return [
        median_result("d", "Game.deal() from the seed", "deals/s", timed_runs(plan, game_deals)),
        median_result(
            "d", "rng.deal_masks() (shuffle only)", "deals/s", timed_runs(plan, raw_deals)
        ),
    ]


# -- e: views ------------------------------------------------------------------------


def section_e(plan: Plan) -> list[Result]:
    """The cost of view(seat) and public_view() on mid-hand games."""
    try:
        importlib.import_module("spades_core.engine.views")
    except ImportError as error:
        return [unavailable("e", "view()", str(error))]
    states = random_states("mirror", max(1, plan.sample_hands // 4), seed=23)
    results = []
    for label, call in (
        ("view(seat to act)", lambda game: game.view(to_act(game))),
        ("public_view()", lambda game: game.public_view()),
    ):

        def run(i: int, call: Callable[[sc.Game], object] = call) -> float:
            games = [fresh(game) for game in states]
            start = clock()
            for game in games:
                call(game)
            return (clock() - start) / len(games) * 1e6

        results.append(
            median_result(
                "e", label, "µs", timed_runs(plan, run), note=f"{len(states)} Mirror games"
            )
        )
    return results


# -- f: records -------------------------------------------------------------------------


def finished_game(variant: str = "mirror") -> sc.Game:
    """The first random game of ``variant`` (seeds 0, 1, ...) that ends within 300 hands."""
    for seed in range(1000):
        game = playout(sc.new_game(variant, seed=seed), random.Random(seed), hands=300)
        if game.is_over:
            return game
    raise RuntimeError(f"no random {variant} game ended")


def section_f(plan: Plan) -> list[Result]:
    """dumps() and loads() per record: one hand, and a finished game."""
    dumps = getattr(sc, "dumps", None)
    loads = getattr(sc, "loads", None)
    if dumps is None or loads is None:
        return [unavailable("f", "dumps/loads", "spades_core.dumps/loads not found")]
    one_hand = playout(sc.new_game("classic", seed=5), random.Random(5))
    whole = finished_game()
    results = []
    for label, game in (
        ("one hand", one_hand),
        (f"finished game, {len(whole.hand_results)} hands", whole),
    ):
        text = dumps(game)
        repeat = max(1, plan.hands // (10 * len(game.hand_results)))

        def dump_run(i: int, game: sc.Game = game, repeat: int = repeat) -> float:
            start = clock()
            for _ in range(repeat):
                dumps(game)
            return (clock() - start) / repeat * 1e6

        def load_run(i: int, text: str = text, repeat: int = repeat) -> float:
            start = clock()
            for _ in range(repeat):
                loads(text)
            return (clock() - start) / repeat * 1e6

        results.append(
            median_result(
                "f",
                f"dumps, {label}",
                "µs/record",
                timed_runs(plan, dump_run),
                note=f"{len(text)} bytes",
            )
        )
        results.append(
            median_result("f", f"loads, {label}", "µs/record", timed_runs(plan, load_run))
        )
    return results


# -- g: bots ------------------------------------------------------------------------------


def section_g(plan: Plan) -> list[Result]:
    """Decision latency of each bot level: median and 99th percentile."""
    try:
        bots: Any = importlib.import_module("spades_core.bots")
    except ImportError as error:
        return [unavailable("g", "bot decisions", str(error))]
    make = getattr(bots, "make", None)
    if make is None:
        return [unavailable("g", "bot decisions", "spades_core.bots.make not found")]
    levels = tuple(getattr(bots, "LEVELS", ("random", "easy", "normal", "hard")))
    results = []
    for level in levels:
        for variant in VARIANTS:
            try:
                bot = make(level, seed=1)
            except sc.SpadesError as error:
                results.append(unavailable("g", f"bot {level!r}", str(error)))
                break
            latencies = bot_latencies(plan, bot, variant)
            latencies.sort()
            p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
            results.append(
                median_result(
                    "g",
                    f"bot {level!r} decision, {variant}",
                    "µs",
                    latencies,
                    note=f"p99 {p99:,.0f} µs over {len(latencies)} decisions",
                )
            )
            results[-1].runs = [statistics.median(latencies), p99]
    return results


def bot_latencies(plan: Plan, bot: Any, variant: str) -> list[float]:
    """Microseconds per ``bot.choose(view)`` over random mid-hand decisions."""
    states = random_states(variant, max(1, plan.decisions // 50), seed=31)
    sample = random.Random(3).sample(states, min(plan.decisions, len(states)))
    bot.choose(sample[0].view(to_act(sample[0])))
    latencies = []
    deadline = clock() + plan.bot_seconds
    for game in sample:
        view = game.view(to_act(game))
        start = clock()
        bot.choose(view)
        latencies.append((clock() - start) * 1e6)
        if clock() > deadline:
            break
    return latencies


# -- h: memory -------------------------------------------------------------------------------


def traced(build: Callable[[], object]) -> tuple[int, object]:
    """Bytes still allocated after ``build()`` returns, and what it returned."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = build()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return after - before, kept


def section_h(plan: Plan) -> list[Result]:
    """Memory per step of a hand, and of a finished game with its history."""
    results = []
    hands = max(5, plan.sample_hands // 4)
    for variant in VARIANTS:

        def chain(variant: str = variant) -> list[sc.Game]:
            # Every game of each hand is kept, as an undo history or a search tree would.
            rng = random.Random(7)
            games = []
            for seed in range(hands):
                game = sc.new_game(variant, seed=seed)
                game = game.apply(rng.choice(game.legal_actions()))
                while in_hand(game):
                    games.append(game)
                    game = game.apply(rng.choice(game.legal_actions()))
            return games

        chain()
        size, games = traced(chain)
        assert isinstance(games, list)
        results.append(
            with_target(
                Result(
                    "h",
                    f"retained per mid-hand step, {variant}",
                    size / len(games),
                    "bytes",
                    note=f"{len(games)} games kept, legal_actions() cached on each",
                ),
                1024,
                at_least=False,
            )
        )
    whole = finished_game()
    actions = replayable(whole)

    def replay() -> sc.Game:
        game = sc.new_game(whole.variant, seed=whole.seed, dealer=whole.first_dealer)
        for index in actions:
            game = game.apply(game.legal_actions()[index])
        return game

    assert replay() == whole
    size, kept = traced(replay)
    assert kept == whole
    results.append(
        Result(
            "h",
            "finished 500-point game with its history",
            size,
            "bytes",
            note=f"Mirror, {len(whole.hand_results)} hands, {size / len(whole.hand_results):,.0f}"
            " bytes per hand",
        )
    )
    return results


def replayable(game: sc.Game) -> list[int]:
    """The index into ``legal_actions()`` of every action of ``game``, from its start."""
    indices: list[int] = []
    current = sc.new_game(game.variant, seed=game.seed, dealer=game.first_dealer)
    for result in game.hand_results:
        wanted: list[sc.Action] = [sc.Deal()]
        order = result.bidding_order
        wanted += [sc.Bid.of(result.bids[seat]) for seat in order]
        wanted += [sc.Play.of(card) for trick in result.played for card in trick.cards]
        for action in wanted:
            legal = current.legal_actions()
            index = legal.index(action)
            indices.append(index)
            current = current.apply(legal[index])
    return indices


# -- i: the results history ----------------------------------------------------------------


def endless_game() -> sc.Game:
    """A Mirror game that random play does not end: one bag costs 100 points,
    and the target is out of reach."""
    return sc.new_game("mirror", seed=1, target_score=1_000_000, bag_limit=1, bag_overflow="reset")


def section_i(plan: Plan) -> list[Result]:
    """Time per hand early and late in one long game."""
    window = plan.hands
    rng = random.Random(1)
    game = endless_game()
    results = []
    for mark in plan.long_game:
        game = playout(game, rng, hands=mark - len(game.hand_results))
        if game.is_over:
            return [unavailable("i", "time per hand", f"the long game ended at hand {mark}")]
        reached = game

        def run(i: int, reached: sc.Game = reached) -> float:
            start = clock()
            playout(reached, random.Random(i), hands=window)
            return (clock() - start) / window * 1e6

        results.append(
            median_result(
                "i",
                f"time per hand at hand {mark:,}",
                "µs",
                timed_runs(plan, run),
                note=f"{window} hands through playout(), Mirror with bag_limit=1",
            )
        )
    return results


# -- OpenSpiel (optional) ----------------------------------------------------------------------


def openspiel_native_run(hands: int) -> Callable[[int], float] | None:
    """Hands per second of OpenSpiel's own ``spades`` played at random from a
    Python loop (52 chance deals included), or ``None`` without ``pyspiel``."""
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError:
        return None
    return random_loop_run(pyspiel.load_game("spades"), hands)


def random_loop_run(game: Any, hands: int) -> Callable[[int], float]:
    """Hands per second of the OpenSpiel ``game`` played at random from a
    Python loop, ``legal_actions()`` at every node (chance deals included):
    the one loop that drives OpenSpiel's own game and ours alike."""

    def run(i: int) -> float:
        rng = random.Random(i)
        choice = rng.choice
        start = clock()
        for _ in range(hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
        return hands / (clock() - start)

    return run


def section_openspiel(plan: Plan) -> list[Result]:
    """OpenSpiel's ``spades`` random hands per second from a Python loop, if installed."""
    run = openspiel_native_run(plan.hands)
    if run is None:
        return [unavailable("os", "OpenSpiel spades, Python loop", "pyspiel not importable")]
    return [
        median_result(
            "os",
            "OpenSpiel spades, Python loop",
            "hands/s",
            timed_runs(plan, run),
            note="legal_actions + apply_action, 52 chance deals included",
        )
    ]


# -- the framework integrations (optional) ------------------------------------------------------

ENVS_VARIANT = "classic"


def engine_ids_run(hands: int) -> Callable[[int], float]:
    """Hands per second of the engine driven by action ids: a seeded deal,
    then ``legal_ids`` + ``apply`` of a random one."""
    legal_ids = sc.encoding.legal_ids
    actions = sc.encoding.ACTIONS

    def run(i: int) -> float:
        rng = random.Random(i)
        choice = rng.choice
        first = (i + 1) * hands  # the warm-up run (i = -1) plays deals of its own
        start = clock()
        for number in range(first, first + hands):
            game = sc.new_game(ENVS_VARIANT, seed=number).deal()
            while game.phase in MID_HAND:
                game = game.apply(actions[choice(legal_ids(game))])
        return hands / (clock() - start)

    return run


def openspiel_game_run(hands: int, *, chance_outcomes: bool) -> Callable[[int], float] | None:
    """Hands per second of the ``spades_core`` OpenSpiel game played at random
    from a Python loop, or ``None`` without ``pyspiel``. Without
    ``chance_outcomes`` the loop is the native row's (:func:`random_loop_run`); with
    it, chance nodes pick from ``chance_outcomes()`` as OpenSpiel's samplers do."""
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
        wrapper: Any = importlib.import_module("spades_core.envs.openspiel")
    except ImportError:
        return None
    wrapper.register()
    game = pyspiel.load_game("spades_core", {"variant": ENVS_VARIANT})
    if not chance_outcomes:
        return random_loop_run(game, hands)

    def run_with_outcomes(i: int) -> float:
        rng = random.Random(i)
        choice = rng.choice
        start = clock()
        for _ in range(hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
        return hands / (clock() - start)

    return run_with_outcomes


def pettingzoo_run(hands: int, *, wrapped: bool) -> Callable[[int], float] | None:
    """Hands per second of the PettingZoo environment (``env()`` when
    ``wrapped``, else ``raw_env``) played with random masked actions, or
    ``None`` without ``pettingzoo``."""
    try:
        zoo: Any = importlib.import_module("spades_core.envs.pettingzoo")
    except ImportError:
        return None
    make = zoo.env if wrapped else zoo.raw_env
    return aec_run(lambda: make(ENVS_VARIANT, hands=1), hands, lambda last: last[0]["action_mask"])


def shimmy_run(hands: int) -> Callable[[int], float] | None:
    """Hands per second of OpenSpiel's own ``spades`` as a PettingZoo
    environment through Shimmy (``OpenSpielCompatibilityV0``, what a PettingZoo
    user would pick instead of ours), played like :func:`pettingzoo_run`, or
    ``None`` without ``shimmy``. Its action mask is in the agent's info."""
    try:
        shimmy: Any = importlib.import_module("shimmy")
    except ImportError:
        return None
    return aec_run(
        lambda: shimmy.OpenSpielCompatibilityV0(game_name="spades"),
        hands,
        lambda last: last[4]["action_mask"],
    )


def aec_run(
    make: Callable[[], Any], hands: int, mask_of: Callable[[tuple[Any, ...]], Any]
) -> Callable[[int], float]:
    """Hands per second of the one-hand PettingZoo AEC environment ``make()``
    returns, each hand from a reset with a seed of its own; every move a random
    legal action, picked with :mod:`random` from the ids ``mask_of(table.last())``
    marks, the loop both PettingZoo rows and Shimmy's share."""
    numpy: Any = importlib.import_module("numpy")
    flatnonzero = numpy.flatnonzero

    def run(i: int) -> float:
        rng = random.Random(i)
        choice = rng.choice
        table = make()
        start = clock()
        for number in range(hands):
            table.reset(seed=(i + 1) * hands + number)  # the warm-up (i = -1) too
            for _ in table.agent_iter():
                last = table.last()
                if last[2] or last[3]:  # terminated or truncated
                    table.step(None)
                else:
                    table.step(choice(flatnonzero(mask_of(last)).tolist()))
        return hands / (clock() - start)

    return run


def envs_paths(plan: Plan) -> dict[str, tuple[Callable[[int], float] | None, str, str]]:
    """Each path of section ``envs`` by its row name: its run (``None`` when its
    framework is not installed), a note, and why it may be missing."""
    hands = plan.hands
    return {
        "engine, action ids": (
            engine_ids_run(max(10, hands // 2)),
            "seeded deal, legal_ids + apply",
            "",
        ),
        "OpenSpiel game": (
            openspiel_game_run(max(10, hands // 4), chance_outcomes=False),
            "the os row's loop: legal_actions + apply_action, 52 chance deals",
            "pyspiel not importable",
        ),
        "OpenSpiel game, chance_outcomes": (
            openspiel_game_run(max(10, hands // 4), chance_outcomes=True),
            "chance nodes pick from chance_outcomes(), players from legal_actions",
            "pyspiel not importable",
        ),
        "PettingZoo env()": (
            pettingzoo_run(max(10, hands // 5), wrapped=True),
            "observation + mask every step, random masked actions",
            "pettingzoo not importable",
        ),
        "PettingZoo raw_env": (
            pettingzoo_run(max(10, hands // 5), wrapped=False),
            "observation + mask every step, random masked actions",
            "pettingzoo not importable",
        ),
        SHIMMY: (
            shimmy_run(max(10, hands // 5)),
            "OpenSpielCompatibilityV0(game_name='spades'), the PettingZoo rows' loop",
            "shimmy[openspiel] not installed",
        ),
    }


def section_envs(plan: Plan) -> list[Result]:
    """Random classic hands per second through the raw engine's action ids, the
    OpenSpiel game and the PettingZoo environment (each when installed)."""
    results = []
    for name, (run, note, missing) in envs_paths(plan).items():
        if run is None:
            results.append(unavailable("envs", name, missing))
        else:
            results.append(median_result("envs", name, "hands/s", timed_runs(plan, run), note=note))
    return results


# -- the batch engine (optional) ----------------------------------------------------------------

BATCH_HANDS = {"full": 1_000_000, "quick": 100_000}
BATCH_TABLES = 4096


def section_batch(plan: Plan) -> list[Result]:
    """The batch engine: batch.play_hands hands/s by policy, Tables steps/s, and
    OpenSpiel's all-C++ random loop for comparison."""
    try:
        batch: Any = importlib.import_module("spades_core.batch")
    except ImportError:
        return [unavailable("batch", "batch.play_hands", "numpy not installed")]
    quick = plan is QUICK
    hands = BATCH_HANDS["quick" if quick else "full"]
    runs = 2 if quick else 3
    results = []

    def play_rate(variant: str, policy: str, count: int) -> Callable[[int], float]:
        def run(i: int) -> float:
            start = clock()
            # Run -1 is the warm-up: every run gets seeds of its own.
            first = (i + 1) * count
            batch.play_hands(variant, range(first, first + count), policy=policy, rng=i + 1)
            return count / (clock() - start)

        return run

    def measured(name: str, run: Callable[[int], float], repeats: int, unit: str) -> Result:
        if not quick:
            run(-1)  # warm-up: numpy's lookup tables and the allocator
        return median_result("batch", name, unit, [run(i) for i in range(repeats)])

    headline = measured(
        f"batch.play_hands random, classic, {hands:,} hands",
        play_rate("classic", "random", hands),
        runs,
        "hands/s",
    )
    results.append(with_target(headline, 150_000, at_least=True))
    side = hands // 5
    for variant in ("mirror", "whiz"):
        results.append(
            measured(
                f"batch.play_hands random, {variant}",
                play_rate(variant, "random", side),
                runs,
                "hands/s",
            )
        )
    for policy in ("lowest", "easy", "normal"):
        results.append(
            measured(
                f"batch.play_hands {policy}, classic",
                play_rate("classic", policy, side),
                runs,
                "hands/s",
            )
        )

    steps = 200 if quick else 1000

    def step_rate(i: int) -> float:
        tables = batch.Tables("classic", BATCH_TABLES, seed=(i + 1) * 10**6)
        rng = batch_rng(i)
        start = clock()
        for _ in range(steps):
            tables.step(tables.random_actions(rng))
        return BATCH_TABLES * steps / (clock() - start)

    stepped = measured(
        f"Tables.step + random_actions, {BATCH_TABLES:,} tables", step_rate, runs, "steps/s"
    )
    results.append(with_target(stepped, 1_000_000, at_least=True))

    def observe_rate(i: int) -> float:
        tables = batch.Tables("classic", BATCH_TABLES, seed=max(i, 0))
        start = clock()
        for _ in range(20):
            tables.observe()
        return BATCH_TABLES * 20 / (clock() - start)

    results.append(
        measured(f"Tables.observe, {BATCH_TABLES:,} tables", observe_rate, runs, "obs/s")
    )
    results.extend(openspiel_cpp_loop(plan))
    return results


def batch_rng(i: int) -> Any:
    """A numpy generator for run ``i``."""
    numpy: Any = importlib.import_module("numpy")
    return numpy.random.default_rng(max(i, 0))


def openspiel_cpp_loop(plan: Plan) -> list[Result]:
    """OpenSpiel's spades played to the end in C++ (``evaluate_bots`` with
    uniform random bots): one Python call per hand."""
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError:
        return [unavailable("batch", "OpenSpiel spades, C++ loop", "pyspiel not importable")]
    game = pyspiel.load_game("spades")
    count = plan.hands * 10

    def run(i: int) -> float:
        bots = [pyspiel.make_uniform_random_bot(seat, max(i, 0) * 4 + seat) for seat in range(4)]
        start = clock()
        for hand in range(count):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, hand)
        return count / (clock() - start)

    return [
        median_result(
            "batch",
            "OpenSpiel spades, C++ loop",
            "hands/s",
            timed_runs(plan, run),
            note="evaluate_bots with uniform random bots: the whole hand in C++",
        )
    ]


# -- ratios against OpenSpiel, from the same run -----------------------------------------------

NATIVE_LOOP = "OpenSpiel spades, Python loop"
"""OpenSpiel's own ``spades`` played from a Python loop (section ``os``)."""

SHIMMY = "OpenSpiel spades through Shimmy"
"""OpenSpiel's own ``spades`` as a PettingZoo environment through Shimmy (section ``envs``)."""

PAIRED_GOALS: tuple[tuple[str, str, str, float], ...] = (
    # (section, name of the measured row, the row it is measured against, goal as a multiple)
    ("envs", "engine, action ids", NATIVE_LOOP, 0.40),
    ("envs", "OpenSpiel game", NATIVE_LOOP, 0.25),
    ("envs", "PettingZoo raw_env", NATIVE_LOOP, 0.15),
    ("envs", "PettingZoo env()", NATIVE_LOOP, 0.10),
    ("a", "random hands, checked API, classic", NATIVE_LOOP, 0.6),
    # A PettingZoo user's other choice: OpenSpiel's C++ game behind Shimmy's wrapper.
    ("envs", "PettingZoo raw_env", SHIMMY, 3.0),
    ("envs", "PettingZoo env()", SHIMMY, 2.0),
)
"""The Python paths compared pair by pair with OpenSpiel's ``spades``: played
from a Python loop, or as a PettingZoo environment through Shimmy."""

RATIO_GOALS: tuple[tuple[str, str, str, float], ...] = (
    # (section, name of the measured row, name of OpenSpiel's row, goal)
    (
        "batch",
        f"batch.play_hands random, classic, {BATCH_HANDS['full']:,} hands",
        "OpenSpiel spades, C++ loop",
        1.0,
    ),
    (
        "batch",
        f"batch.play_hands random, classic, {BATCH_HANDS['quick']:,} hands",
        "OpenSpiel spades, C++ loop",
        1.0,
    ),
)
"""The rows compared with OpenSpiel's all-C++ loop measured in the same run."""


def paired_runs(plan: Plan) -> int:
    """How many interleaved pairs each paired ratio takes."""
    return 2 * plan.runs - 1


PAIR_TURNS = 8
"""How many turns each side of a pair takes: a pair plays the path and
OpenSpiel's loop in alternation, a few hundredths of a second each, so that a
change in the machine's speed lasting a fraction of a second reaches both."""


def paired_ratio(
    plan: Plan,
    name: str,
    run: Callable[[int], float],
    reference: str,
    native: Callable[[int], float],
    goal: float,
) -> Result:
    """``run``'s hands per second over the ``reference`` row's (``native``), as
    the median of interleaved pairs. Each pair gives both :data:`PAIR_TURNS`
    turns in alternation (``run`` and ``native`` each play one turn's hands,
    the one to start alternating too) and compares their time per hand over
    all turns."""
    run(-1)
    native(-1)
    ratios, rates, native_rates = [], [], []
    for i in range(paired_runs(plan)):
        seconds = native_seconds = 0.0  # per hand, summed over the turns
        for turn in range(PAIR_TURNS):
            number = i * PAIR_TURNS + turn
            if (i + turn) % 2:
                seconds += 1 / run(number)
                native_seconds += 1 / native(number)
            else:
                native_seconds += 1 / native(number)
                seconds += 1 / run(number)
        rates.append(PAIR_TURNS / seconds)
        native_rates.append(PAIR_TURNS / native_seconds)
        ratios.append(native_seconds / seconds)
    note = (
        f"median of {len(ratios)} interleaved pairs, range {min(ratios):.2f}-{max(ratios):.2f}; "
        f"{statistics.median(rates):,.0f} / {statistics.median(native_rates):,.0f} hands/s"
    )
    result = median_result("ratio", f"{name} / {reference}", "x", ratios, note=note)
    return with_target(result, goal, at_least=True)


def paired_ratios(plan: Plan, chosen: Sequence[str]) -> list[Result]:
    """Each row of :data:`PAIRED_GOALS` whose section was chosen, as a multiple
    of its reference measured pair by pair with it: OpenSpiel's Python loop
    when section ``os`` was chosen, Shimmy's environment with section ``envs``
    (each when installed)."""
    # Each turn of a pair plays a share of the hands a run of the section plays.
    turn = replace(plan, hands=max(PAIR_TURNS, plan.hands // PAIR_TURNS))
    runs: dict[str, Callable[[int], float] | None] = {}
    if "envs" in chosen:
        runs.update((name, path[0]) for name, path in envs_paths(turn).items())
    if "a" in chosen:
        runs["random hands, checked API, classic"] = hand_rate_run(
            turn.hands, "classic", checked_hand
        )
    references = {
        NATIVE_LOOP: openspiel_native_run(turn.hands) if "os" in chosen else None,
        SHIMMY: runs.get(SHIMMY),
    }
    rows = []
    for section, name, reference, goal in PAIRED_GOALS:
        run, native = runs.get(name), references[reference]
        if section in chosen and run is not None and native is not None:
            rows.append(paired_ratio(plan, name, run, reference, native, goal))
    return rows


def ratios(results: list[Result]) -> list[Result]:
    """Each row of :data:`RATIO_GOALS` measured in this run, divided by OpenSpiel's
    figure of the same run, against its goal."""
    found = {result.name: result for result in results if result.value is not None}
    rows = []
    for section, name, reference, goal in RATIO_GOALS:
        measured, against = found.get(name), found.get(reference)
        if measured is None or against is None or measured.section != section:
            continue
        assert measured.value is not None
        assert against.value is not None
        rows.append(
            with_target(
                Result(
                    "ratio",
                    f"{name} / {reference}",
                    measured.value / against.value,
                    "x",
                    note=f"{measured.value:,.0f} / {against.value:,.0f} hands/s, same run",
                ),
                goal,
                at_least=True,
            )
        )
    return rows


# -- the Gymnasium environments (optional) ------------------------------------------------------

GYM_GOALS = {"random": 1_000_000, "normal": 300_000}
"""Learner steps per second of ``SpadesVectorEnv`` at 4,096 tables, by the other seats' policy."""
GYM_VS_SHIMMY = 1.0
"""``SpadesEnv``'s steps per second as a multiple of Shimmy's OpenSpiel ``spades``."""


def gym_bench() -> Any:
    """``bench/gym_envs.py`` as a module, or ``None`` without Gymnasium."""
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        return importlib.import_module("gym_envs")
    except ImportError:
        return None


def section_gym(plan: Plan) -> list[Result]:
    """Learner steps per second of the Gymnasium environments, the loops of
    ``bench/gym_envs.py``: the vector environment at 4,096 tables with random
    and normal seats, and the single environment beside Shimmy's OpenSpiel
    ``spades``, in interleaved pairs."""
    bench = gym_bench()
    if bench is None:
        return [unavailable("gym", "SpadesVectorEnv", "gymnasium not installed")]
    seconds = 1.0 if plan is QUICK else 3.0
    results = []
    for opponents, goal in GYM_GOALS.items():

        def run(i: int, opponents: str = opponents) -> float:
            rate: float = bench.vector_rate(opponents, BATCH_TABLES, seconds)
            return rate

        result = median_result(
            "gym",
            f"SpadesVectorEnv, {BATCH_TABLES:,} tables, {opponents} seats",
            "steps/s",
            timed_runs(plan, run),
            note="random legal learner ids drawn from info['action_mask']",
        )
        results.append(with_target(result, goal, at_least=True))
    bench.ours(seconds / 3)  # warm-up
    single: list[float] = []
    reference: list[float] = []
    has_shimmy = importlib.util.find_spec("shimmy") is not None
    for _ in range(plan.runs):
        single.append(bench.ours(seconds))
        if has_shimmy:
            reference.append(bench.shimmy(seconds))
    results.append(
        median_result(
            "gym", "SpadesEnv, random bots", "steps/s", single, note="4 game actions a step"
        )
    )
    if not has_shimmy:
        results.append(unavailable("gym", SHIMMY, "shimmy[openspiel] not installed"))
        return results
    results.append(
        median_result(
            "gym",
            f"{SHIMMY}, stepped as SpadesEnv",
            "steps/s",
            reference,
            note="its episodes end after the bids",
        )
    )
    pairs = [ours / theirs for ours, theirs in zip(single, reference, strict=True)]
    ratio = median_result(
        "ratio",
        f"SpadesEnv / {SHIMMY}",
        "x",
        pairs,
        note=f"median of {len(pairs)} interleaved pairs, range {min(pairs):.2f}-{max(pairs):.2f}",
    )
    results.append(with_target(ratio, GYM_VS_SHIMMY, at_least=True))
    return results


# -- dd: double dummy -----------------------------------------------------------------------


def section_dd(plan: Plan) -> list[Result]:
    """The solver beside endplay's DDS, a hand's review and the expert's
    decisions (bench/dd_rows.py)."""
    try:
        import dd_rows
    except ImportError as error:
        return [unavailable("dd", "double dummy", str(error))]

    def result(name: str, unit: str, runs: list[float], note: str = "") -> Result:
        if not runs:
            return unavailable("dd", name, note.removeprefix("not available: "))
        return median_result("dd", name, unit, runs, note=note)

    rows: list[Result] = dd_rows.section_dd(plan, result, lambda: clock())
    return rows


# -- running -------------------------------------------------------------------------------------

SECTIONS: dict[str, Callable[[Plan], list[Result]]] = {
    "a": section_a,
    "b": section_b,
    "c": section_c,
    "d": section_d,
    "e": section_e,
    "f": section_f,
    "g": section_g,
    "h": section_h,
    "i": section_i,
    "dd": section_dd,
    "os": section_openspiel,
    "envs": section_envs,
    "batch": section_batch,
    "gym": section_gym,
}


def machine() -> dict[str, Any]:
    """Where the figures were measured."""
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "spades_core": sc.__version__,
        "build": "compiled" if sc.COMPILED else "pure Python",
    }


def show(value: float | None) -> str:
    """A figure for the table."""
    if value is None:
        return "-"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.2f}"


def print_table(results: list[Result], info: dict[str, Any]) -> None:
    """The results as a plain-text table."""
    print(
        f"spades-core {info['spades_core']} ({info['build']}) on {info['cpus']} x {info['cpu']}, "
        f"{info['implementation']} {info['python']}"
    )
    width = max(len(result.name) for result in results)
    print(f"{'':2} {'measure':<{width}}  {'median':>10}  {'unit':<9} {'target':<9} note")
    for result in results:
        mark = {True: "ok", False: "MISSED", None: ""}[result.met]
        target = f"{result.target} {mark}".strip()
        print(
            f"{result.section:2} {result.name:<{width}}  {show(result.value):>10}  "
            f"{result.unit:<9} {target:<9} {result.note}"
        )


COMPILED_PYTHON = Path(__file__).resolve().parent.parent / ".venv-compiled" / "bin" / "python"
"""The interpreter of the compiled build (``make compiled``)."""


def compiled_results(arguments: list[str]) -> tuple[dict[str, Any], list[Result]]:
    """The machine information and results of the same sections run by the compiled build."""
    if not COMPILED_PYTHON.exists():
        raise SystemExit(
            f"--compiled needs the compiled build in {COMPILED_PYTHON.parent.parent}: make compiled"
        )
    completed = subprocess.run(
        [str(COMPILED_PYTHON), __file__, "--json", *arguments],
        capture_output=True,
        text=True,
        check=False,
        env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"},
    )
    if completed.returncode != 0:
        raise SystemExit(f"the compiled build's run failed:\n{completed.stderr}")
    report = json.loads(completed.stdout)
    if report["machine"]["build"] != "compiled":
        raise SystemExit(f"{COMPILED_PYTHON} does not run the compiled build")
    return report["machine"], [Result(**result) for result in report["results"]]


def print_side_by_side(pure: list[Result], compiled: list[Result], info: dict[str, Any]) -> None:
    """Each figure of both builds and the compiled build's ratio to the pure one."""
    print(
        f"spades-core {info['spades_core']}, pure Python and compiled (mypyc), on "
        f"{info['cpus']} x {info['cpu']}, {info['implementation']} {info['python']}"
    )
    by_key = {(result.section, result.name): result for result in compiled}
    width = max(len(result.name) for result in pure)
    print(f"{'':5} {'measure':<{width}}  {'pure':>10}  {'compiled':>10}  {'ratio':>6}  unit")
    for result in pure:
        other = by_key.get((result.section, result.name))
        value = None if other is None else other.value
        ratio = f"{value / result.value:.2f}" if value is not None and result.value else "-"
        print(
            f"{result.section:5} {result.name:<{width}}  {show(result.value):>10}  "
            f"{show(value):>10}  {ratio:>6}  {result.unit}"
        )
    print("ratio: compiled / pure (for a time per call, below 1 is faster)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks and print a table or JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time with this process's CPU time instead of the wall clock "
        "(steadier on a busy machine)",
    )
    parser.add_argument(
        "--only", default=",".join(SECTIONS), help="comma-separated sections (default: all)"
    )
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="run the same sections in the compiled build too (.venv-compiled) and "
        "show both builds side by side",
    )
    args = parser.parse_args(argv)
    if args.compiled and sc.COMPILED:
        parser.error("--compiled compares with the pure-Python build: run it from .venv")
    plan = QUICK if args.quick else FULL
    global clock
    clock = time.process_time if args.cpu_time else time.perf_counter
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown sections {unknown}; choose from {', '.join(SECTIONS)}")
    results: list[Result] = []
    for name in chosen:
        results += SECTIONS[name](plan)
    results += ratios(results)
    results += paired_ratios(plan, chosen)
    info = machine()
    if args.compiled:
        child = ["--only", ",".join(chosen)]
        child += ["--quick"] if args.quick else []
        child += ["--cpu-time"] if args.cpu_time else []
        compiled_info, compiled = compiled_results(child)
        if args.json:
            report = {
                "machine": info,
                "plan": asdict(plan),
                "clock": "cpu" if args.cpu_time else "wall",
                "results": [asdict(r) for r in results],
                "compiled": {"machine": compiled_info, "results": [asdict(r) for r in compiled]},
            }
            json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
            print()
        else:
            print_side_by_side(results, compiled, info)
        return 0
    if args.json:
        json.dump(
            {
                "machine": info,
                "plan": asdict(plan),
                "clock": "cpu" if args.cpu_time else "wall",
                "results": [asdict(r) for r in results],
            },
            sys.stdout,
            indent=2,
            ensure_ascii=False,
        )
        print()
    else:
        print_table(results, info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
