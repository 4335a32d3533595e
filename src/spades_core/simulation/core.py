"""One player against another: :func:`simulate`, its checked arguments and
its result.

>>> result = simulate("normal", "random", variant="mirror", hands=4, seed=1, workers=1)
>>> result.hands, result.ns.player, result.ew.player
(4, 'normal', 'random')
>>> result.difference.value > 0
True
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypedDict

import attrs
from typing_extensions import Unpack

from spades_core.engine.game import new_game
from spades_core.players import PlayerSpec, make_player, parse_player
from spades_core.rules.registry import load_variant
from spades_core.rules.rng import MAX_SEED
from spades_core.rules.scoring import why_games_may_not_end
from spades_core.simulation.backends import (
    BACKENDS,
    DEFAULT_RETRIES,
    BackendName,
    check_address,
    plan_tasks,
    run_tasks,
)
from spades_core.simulation.journal import Journal, Kept, journal_seed, read_journal
from spades_core.simulation.progress import Progress
from spades_core.simulation.stats import Interval, bag_cost, mean_interval, wilson_interval
from spades_core.simulation.work import ItemResult, Match, Mode
from spades_core.values import deprecation
from spades_core.values.checks import count, described, instance, whole_number
from spades_core.values.errors import ArgumentTypeError, RulesError, SpadesError, brief

__all__ = [
    "DEFAULT_HANDS",
    "DEFAULT_HAND_LIMIT",
    "GamesResult",
    "RunPlan",
    "RunResult",
    "RunSettings",
    "SideResult",
    "SimulationResult",
    "check_player",
    "check_progress",
    "default_workers",
    "item_differences",
    "plan_run",
    "run_settings",
    "simulate",
    "summarize",
]

DEFAULT_HANDS: Final = 100
"""Deals played when neither ``hands`` nor ``games`` is given."""
DEFAULT_HAND_LIMIT: Final = 200
"""Games mode: a game still going after this many hands stops and counts as
unfinished (``hand_limit``; the house rule ``max_hands`` instead ends a game
with the higher score winning)."""


def default_workers() -> int:
    """The number of CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - platforms without sched_getaffinity
        return os.cpu_count() or 1


@attrs.frozen
class SideResult:
    """One player's figures per hand: raw ``points``, ``bags`` taken, and
    ``adjusted`` points (each bag charged its cost)."""

    player: str
    points: float
    bags: float
    adjusted: float

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return attrs.asdict(self)


@attrs.frozen
class GamesResult:
    """Games mode: games ``played`` (both copies with ``duplicate``), ``wins``
    of (``ns``, ``ew``), ``unfinished`` games, and each side's win rate with
    its 95% Wilson interval."""

    played: int
    wins: tuple[int, int]
    unfinished: int
    ns_win_rate: Interval
    ew_win_rate: Interval

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return {
            "played": self.played,
            "ns_wins": self.wins[0],
            "ew_wins": self.wins[1],
            "unfinished": self.unfinished,
            "ns_win_rate": self.ns_win_rate.to_json(),
            "ew_win_rate": self.ew_win_rate.to_json(),
        }


@attrs.frozen
class RunResult:
    """What the result of a simulation or a tournament says about the run
    itself: the variant, its options and how the run was made
    (``max_hands`` is ``None`` in hands mode)."""

    variant: str
    options: tuple[tuple[str, object], ...]
    mode: Mode
    count: int
    duplicate: bool
    seed: int
    max_hands: int | None

    def run_json(self) -> dict[str, Any]:
        """The leading ``--json`` fields: the run's description, without ``max_hands``."""
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "mode": self.mode,
            "count": self.count,
            "duplicate": self.duplicate,
            "seed": self.seed,
        }


@attrs.frozen
class SimulationResult(RunResult):
    """What a simulation measured: exactly the numbers ``spades simulate
    --json`` prints (:meth:`to_json`).

    ``difference`` is the headline: the bag-adjusted points per hand of
    ``ns`` minus ``ew``, the mean over items (deals or seeded games) with its
    95% interval; ``raw_difference`` the same with raw points. ``bag_cost``
    is what a bag is charged (``bag_penalty / bag_limit``).
    """

    hands: int
    bag_cost: float
    ns: SideResult
    ew: SideResult
    difference: Interval
    raw_difference: Interval
    games: GamesResult | None

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-ready dict (``None`` for undefined numbers)."""
        data = self.run_json()
        data |= {
            "hands": self.hands,
            "bag_cost": self.bag_cost,
            "ns": self.ns.to_json(),
            "ew": self.ew.to_json(),
            "difference": self.difference.to_json(),
            "raw_difference": self.raw_difference.to_json(),
        }
        if self.games is not None:
            data["max_hands"] = self.max_hands
            data["games"] = self.games.to_json()
        return data


@attrs.frozen
class RunPlan:
    """Checked arguments shared by :func:`simulate` and the tournament."""

    variant: str
    options: tuple[tuple[str, object], ...]
    mode: Mode
    count: int
    seed: int
    duplicate: bool
    max_hands: int
    bag_cost: float
    backend: BackendName
    workers: int
    address: str | None
    task_size: int | None
    retries: int
    endless: str | None = None
    """Why games under these rules may never end, or ``None``."""
    journal: str | None = None
    """The file that keeps the run's finished tasks, or ``None``."""

    def description(self) -> dict[str, Any]:
        """The :class:`RunResult` fields of a run made under this plan, by
        name, to build its result with: ``max_hands`` is ``None`` in hands
        mode, where it plays no part."""
        fields = {field.name: getattr(self, field.name) for field in attrs.fields(RunResult)}
        if self.mode != "games":
            fields["max_hands"] = None
        return fields

    def match(self, first: PlayerSpec, second: PlayerSpec) -> Match:
        """The match between two players under this plan."""
        return Match(
            self.variant,
            first,
            second,
            self.mode,
            self.seed,
            self.duplicate,
            self.options,
            self.max_hands,
        )

    def kept(self, matches: Sequence[Match]) -> Kept:
        """What the run's journal already has for each match (nothing without
        a journal), read without opening it for writing."""
        if self.journal is None:
            return [{} for _ in matches]
        return self._within(read_journal(self.journal, matches))

    def _within(self, kept: Kept) -> Kept:
        """``kept`` without the items past this run's count (a journal may
        hold a longer run)."""
        return [
            {index: result for index, result in have.items() if index < self.count} for have in kept
        ]

    def run(
        self, matches: Sequence[Match], progress: Callable[[Progress], None] | None
    ) -> list[list[ItemResult]]:
        """Every match's item results, in index order. With a journal, the
        items it keeps are taken from it and the others are played and added
        to it; ``progress`` counts only those played."""
        with contextlib.ExitStack() as stack:
            journal = None
            if self.journal is not None:
                journal = stack.enter_context(Journal(self.journal, matches))
            kept = self._within(journal.kept) if journal else [{} for _ in matches]
            total = self.count * len(matches) - sum(len(have) for have in kept)
            if total:
                finished = run_tasks(
                    lambda workers: plan_tasks(matches, self.count, workers, self.task_size, kept),
                    total=total,
                    backend=self.backend,
                    workers=self.workers,
                    address=self.address,
                    retries=self.retries,
                    progress=progress,
                    record=journal.record if journal else None,
                )
                number = {match: index for index, match in enumerate(matches)}
                for task, results in finished:
                    indices = range(task.start, task.stop)
                    kept[number[task.match]].update(zip(indices, results, strict=True))
        return [[have[index] for index in range(self.count)] for have in kept]


_CALL: Final = "a simulation"


def _whole(name: str, value: object, low: int) -> int:
    number = whole_number(value, _CALL, name)
    if number < low:
        raise RulesError(f"{name} must be a whole number ≥ {low}; got {brief(value)}")
    return number


class RunSettings(TypedDict, total=False):
    """The keyword arguments :func:`simulate` and
    :func:`~spades_core.simulation.tournament` share; :func:`simulate` says
    what each one means."""

    variant: str
    hands: int | None
    games: int | None
    seed: int | None
    duplicate: bool
    options: Mapping[str, object] | None
    max_hands: int
    backend: BackendName
    workers: int | None
    address: str | None
    task_size: int | None
    retries: int
    journal: str | os.PathLike[str] | None


def plan_run(**settings: Unpack[RunSettings]) -> RunPlan:
    """Check the arguments of a run (raising a specific
    :class:`~spades_core.SpadesError` for each bad one) and resolve defaults."""
    unknown = sorted(set(settings) - RunSettings.__optional_keys__)
    if unknown:
        raise RulesError(
            f"unknown argument {', '.join(unknown)}; the arguments are "
            f"{', '.join(sorted(RunSettings.__optional_keys__))}"
        )
    variant: object = settings.get("variant", "classic")
    hands = settings.get("hands")
    games = settings.get("games")
    seed = settings.get("seed")
    duplicate = settings.get("duplicate", False)
    options = settings.get("options")
    max_hands = settings.get("max_hands", DEFAULT_HAND_LIMIT)
    backend = settings.get("backend", "local")
    workers = settings.get("workers")
    address = settings.get("address")
    task_size = settings.get("task_size")
    retries = settings.get("retries", DEFAULT_RETRIES)
    journal = settings.get("journal")
    if hands is not None and games is not None:
        raise RulesError("give hands or games, not both")
    if games is not None:
        mode: Mode = "games"
        count = _whole("games", games, 1)
    else:
        mode = "hands"
        count = _whole("hands", DEFAULT_HANDS if hands is None else hands, 1)
    if journal is not None:
        if not isinstance(journal, str | os.PathLike) or not isinstance(os.fspath(journal), str):
            raise ArgumentTypeError(
                f"{_CALL}: journal must be a file name; got {described(journal)}"
            )
        journal = os.fspath(journal)
        if not journal:
            raise RulesError("journal must be a file name; got an empty one")
    if seed is None:
        # A run given its journal again goes on with the journal's seed.
        seed = journal_seed(journal) if journal is not None else None
        if seed is None:
            seed = secrets.randbits(63)
    elif not 0 <= whole_number(seed, _CALL, "seed") <= MAX_SEED:
        raise RulesError(f"seed must be a whole number from 0 to 2**64-1; got {brief(seed)}")
    instance(duplicate, bool, _CALL, "duplicate", "True or False")
    if options is None:
        options = {}
    elif not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise ArgumentTypeError(
            f"{_CALL}: options must map option names to values; got {described(options)}"
        )
    _whole("max_hands", max_hands, 1)
    if backend not in BACKENDS:
        raise RulesError(f"backend must be one of {', '.join(BACKENDS)}; got {brief(backend)}")
    workers = default_workers() if workers is None else _whole("workers", workers, 1)
    if task_size is not None:
        _whole("task_size", task_size, 1)
    _whole("retries", retries, 0)
    if address is not None:
        if backend != "ray":
            raise RulesError("an address is for the ray backend (backend='ray')")
        check_address(instance(address, str, _CALL, "address", "text like 127.0.0.1:6379"))
    variant = instance(variant, str, _CALL, "variant", "an installed variant's id")
    # A bad variant or option fails here, before any worker starts.
    given: dict[str, Any] = dict(options)
    rules = new_game(variant, seed=0, **given).rules
    return RunPlan(
        variant=variant,
        options=tuple(rules.overrides_json().items()),
        mode=mode,
        count=count,
        seed=seed,
        duplicate=duplicate,
        max_hands=max_hands,
        bag_cost=bag_cost(rules.bag_limit, rules.bag_penalty),
        backend=backend,
        workers=workers,
        address=address,
        task_size=task_size,
        retries=retries,
        endless=why_games_may_not_end(rules),
        journal=journal,
    )


def check_progress(progress: object) -> None:
    """Refuse a ``progress`` that is neither ``None`` nor callable."""
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(
            f"{_CALL}: progress must be a function taking a Progress, or None; "
            f"got {described(progress)}"
        )


def check_player(spec: str | PlayerSpec) -> PlayerSpec:
    """``spec`` read, and a player built from it once, so that a bad one fails
    before any worker starts."""
    parsed = parse_player(spec)
    make_player(parsed, seed=0)
    return parsed


def item_differences(results: Sequence[ItemResult], cost: float) -> list[float]:
    """Each item's bag-adjusted points per hand, first player minus second."""
    return [
        (r.base[0] - r.base[1] - cost * (r.bags[0] - r.bags[1])) / r.hands
        for r in results
        if r.hands
    ]


def summarize(plan: RunPlan, match: Match, results: Sequence[ItemResult]) -> SimulationResult:
    """The figures of one match from its items' results."""
    hands = sum(r.hands for r in results)

    def per_hand(total: float) -> float:
        return total / hands if hands else float("nan")

    sides = []
    for slot, spec in enumerate((match.first, match.second)):
        base = sum(r.base[slot] for r in results)
        bags = sum(r.bags[slot] for r in results)
        sides.append(
            SideResult(
                str(spec),
                per_hand(sum(r.points[slot] for r in results)),
                per_hand(bags),
                per_hand(base - plan.bag_cost * bags),
            )
        )
    raw = [(r.points[0] - r.points[1]) / r.hands for r in results if r.hands]
    games = None
    if plan.mode == "games":
        played = len(results) * (2 if plan.duplicate else 1)
        wins = (sum(r.wins[0] for r in results), sum(r.wins[1] for r in results))
        games = GamesResult(
            played,
            wins,
            sum(r.unfinished for r in results),
            wilson_interval(wins[0], played),
            wilson_interval(wins[1], played),
        )
    return SimulationResult(
        **plan.description(),
        hands=hands,
        bag_cost=plan.bag_cost,
        ns=sides[0],
        ew=sides[1],
        difference=mean_interval(item_differences(results, plan.bag_cost)),
        raw_difference=mean_interval(raw),
        games=games,
    )


def run_settings(
    call: str,
    *,
    variant: object,
    hand_limit: int | None,
    max_hands: int | None,
    options: Mapping[str, object] | None,
    house_rules: Mapping[str, object],
) -> dict[str, object]:
    """The ``max_hands`` and ``options`` settings of :func:`plan_run` from the
    keywords of :func:`simulate` and :func:`~spades_core.simulation.tournament`:
    ``hand_limit`` and the house rules as keywords, or the deprecated
    ``max_hands=`` (the hand limit) and ``options=`` (a mapping of house rules)."""
    limit = deprecation.renamed_keyword(call, "max_hands", max_hands, "hand_limit", hand_limit)
    rules: dict[str, object] = dict(house_rules)
    if rules and isinstance(variant, str):
        _check_house_rules(call, variant, rules)
    if options is not None:
        deprecation.deprecated(f"{call}(options={{...}})", f"{call}(..., option=value)")
        if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
            raise ArgumentTypeError(
                f"{call}: options must map option names to values; got {described(options)}"
            )
        given_twice = sorted(set(options) & set(rules))
        if given_twice:
            raise RulesError(f"{call}: {', '.join(given_twice)} given twice (options= and keyword)")
        rules.update(options)
    settings: dict[str, object] = {"options": rules}
    if limit is not None:
        settings["max_hands"] = count(limit, call, "hand_limit", minimum=1)
    return settings


_ARGUMENTS: Final = (
    "variant, hands, games, seed, duplicate, hand_limit, backend, workers, address, "
    "task_size, retries, journal, progress"
)


def _check_house_rules(call: str, variant_id: str, rules: Mapping[str, object]) -> None:
    """Refuse a keyword that is neither an argument nor an option of the variant
    (an unknown variant is reported later, by the run's own checks)."""
    try:
        known = load_variant(variant_id).option_specs
    except SpadesError:
        return
    unknown = sorted(name for name in rules if name not in known)
    if unknown:
        raise RulesError(
            f"{call}: unknown argument {', '.join(unknown)}; the arguments are {_ARGUMENTS}, "
            f"and the house rules of {variant_id!r} are {', '.join(sorted(known))}"
        )


def simulate(
    ns: str | PlayerSpec = "normal",
    ew: str | PlayerSpec = "easy",
    *,
    variant: str = "classic",
    hands: int | None = None,
    games: int | None = None,
    seed: int | None = None,
    duplicate: bool = False,
    hand_limit: int | None = None,
    backend: BackendName = "local",
    workers: int | None = None,
    address: str | None = None,
    task_size: int | None = None,
    retries: int = DEFAULT_RETRIES,
    journal: str | os.PathLike[str] | None = None,
    progress: Callable[[Progress], None] | None = None,
    max_hands: int | None = None,
    options: Mapping[str, object] | None = None,
    **house_rules: object,
) -> SimulationResult:
    """Play ``ns`` against ``ew`` and measure them.

    Keyword arguments (all optional): ``variant`` (default ``"classic"``),
    ``hands``, ``games``, ``seed``, ``duplicate`` (default False),
    ``hand_limit`` (default 200), ``backend`` (default ``"local"``),
    ``workers``, ``address``, ``task_size``, ``retries`` (default 3),
    ``journal`` and ``progress``; any other keyword is a house rule of the
    variant (``target_score=300``), as in :func:`~spades_core.new_game`.

    ``ns`` and ``ew`` are players (``"hard"``, ``"hard:steps=2000"``, a player
    from the ``spades_core.players`` entry-point group, or a
    :class:`~spades_core.players.PlayerSpec`). ``hands=N`` plays N single
    deals from 0–0 (the default, 100); ``games=N`` plays N games to the end or
    until ``hand_limit`` hands, when a game still going stops and counts as
    unfinished. ``duplicate`` plays every deal (or game seed) a second
    time with the partnerships' cards swapped.
    Without ``seed`` a random one is drawn (and reported in the result), or,
    given a journal that exists, the journal's seed is used.

    ``backend`` is ``"local"`` (``workers`` processes; default one per core)
    or ``"ray"`` (a local Ray instance with ``workers`` CPUs, or the cluster
    at ``address``). ``task_size`` items go to each task (default: about
    eight tasks per worker); a task that fails is run again up to ``retries``
    times. ``progress`` is called with a :class:`Progress` as tasks end.

    ``journal`` is a file that keeps every finished task
    (:mod:`spades_core.simulation.journal`): given again, the items it holds
    are taken from it and only the others are played, so a stopped run picks
    up where it left off and a finished one can be given more hands (or, in
    a tournament, more players). The result is the same as without it.

    ``max_hands=`` (the hand limit) and ``options=`` (a mapping of house
    rules) are the deprecated forms of ``hand_limit=`` and of house rules as
    keywords; they are removed in 0.3.0, when ``max_hands=`` becomes the
    house rule of that name, as everywhere else.

    Raises :class:`~spades_core.RulesError` (and other
    :class:`~spades_core.SpadesError` subclasses, such as
    :class:`~spades_core.players.PlayerError`) for bad arguments before any
    work starts; :class:`BackendError` when the backend cannot run;
    :class:`SimulationError` when a task fails on every attempt; and
    :class:`~spades_core.simulation.JournalError` when the journal cannot be
    used (another run's settings, damaged, in use by another run, unwritable).
    """
    settings: Any = run_settings(
        "simulate",
        variant=variant,
        hand_limit=hand_limit,
        max_hands=max_hands,
        options=options,
        house_rules=house_rules,
    )
    plan = plan_run(
        variant=variant,
        hands=hands,
        games=games,
        seed=seed,
        duplicate=duplicate,
        backend=backend,
        workers=workers,
        address=address,
        task_size=task_size,
        retries=retries,
        journal=journal,
        **settings,
    )
    check_progress(progress)
    match = plan.match(check_player(ns), check_player(ew))
    (results,) = plan.run([match], progress)
    return summarize(plan, match, results)


__getattr__ = deprecation.OldNames(
    "spades_core.simulation.core",
    {"DEFAULT_MAX_HANDS": (DEFAULT_HAND_LIMIT, "spades_core.simulation.core.DEFAULT_HAND_LIMIT")},
).attribute
