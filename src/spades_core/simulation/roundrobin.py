"""A round robin among players over the same seeded deals.

Every pair of players plays the same items (deal or game seeds ``0 … count-1``
of the tournament's seed), so with ``duplicate`` every player meets the same
cards from both sides. Each pairing is summarized as by
:func:`~spades_core.simulation.simulate`, and each player gets a *rating*:
its bag-adjusted margin per hand against the field — for every item, the mean
of its margins over all its opponents, averaged over items, with a 95%
interval over items (which accounts for the pairings sharing their deals).

>>> from spades_core.simulation import tournament
>>> result = tournament(["random", "easy", "normal"], variant="mirror", hands=3, seed=2, workers=1)
>>> result.players
('random', 'easy', 'normal')
>>> [pair.ns.player + "-" + pair.ew.player for pair in result.pairs]
['random-easy', 'random-normal', 'easy-normal']
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from spades_core.players import PlayerSpec
from spades_core.simulation.backends import DEFAULT_RETRIES, BackendName
from spades_core.simulation.core import (
    RunPlan,
    RunResult,
    SimulationResult,
    check_player,
    check_progress,
    item_differences,
    plan_run,
    run_settings,
    summarize,
)
from spades_core.simulation.progress import Progress
from spades_core.simulation.stats import Interval, mean_interval
from spades_core.simulation.work import ItemResult, Match
from spades_core.values.checks import described
from spades_core.values.errors import ArgumentTypeError, RulesError

__all__ = [
    "TournamentResult",
    "check_players",
    "pairings",
    "tournament",
    "tournament_result",
]

_PAIR_FIELDS = ("ns", "ew", "hands", "difference", "raw_difference", "games")


@attrs.frozen
class TournamentResult(RunResult):
    """What a tournament measured: exactly the numbers ``spades tournament
    --json`` prints (:meth:`to_json`).

    ``pairs`` holds one :class:`~spades_core.simulation.SimulationResult` per
    pairing, in the order of :func:`itertools.combinations` of ``players``
    (the earlier player as ``ns``); ``ratings`` each player's bag-adjusted
    margin per hand against the field.
    """

    bag_cost: float
    players: tuple[str, ...]
    pairs: tuple[SimulationResult, ...]
    ratings: tuple[Interval, ...]

    @property
    def hands(self) -> int:
        """Hands played in all pairings."""
        return sum(pair.hands for pair in self.pairs)

    def pair(self, first: int, second: int) -> SimulationResult:
        """The pairing of players number ``first`` and ``second`` (either order)."""
        low, high = sorted((first, second))
        n = len(self.players)
        if low == high or low < 0 or high >= n:
            raise RulesError(f"no pairing ({first}, {second}) among {n} players")
        # Position of (low, high) in combinations(range(n), 2).
        return self.pairs[low * (2 * n - low - 1) // 2 + high - low - 1]

    def margin(self, first: int, second: int) -> Interval:
        """Bag-adjusted points per hand of player ``first`` minus player ``second``."""
        difference = self.pair(first, second).difference
        if first < second:
            return difference
        return Interval(-difference.value, -difference.high, -difference.low)

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-ready dict (``None`` for undefined numbers)."""
        data = self.run_json()
        data |= {
            "bag_cost": self.bag_cost,
            "hands": self.hands,
            "players": [
                {"player": player, "rating": rating.to_json()}
                for player, rating in zip(self.players, self.ratings, strict=True)
            ],
            "pairs": [
                {key: value for key, value in pair.to_json().items() if key in _PAIR_FIELDS}
                for pair in self.pairs
            ],
        }
        if self.max_hands is not None:
            data["max_hands"] = self.max_hands
        return data


def check_players(players: Sequence[str | PlayerSpec]) -> list[PlayerSpec]:
    """The players read and built once: at least two, none twice."""
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise ArgumentTypeError(
            f"tournament: players must be a list of players; got {described(players)}"
        )
    specs = [check_player(player) for player in players]
    labels = [str(spec) for spec in specs]
    if len(specs) < 2:
        raise RulesError(f"a tournament needs at least two players; got {len(specs)}")
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise RulesError(f"each player may enter once; repeated: {', '.join(repeated)}")
    return specs


def pairings(plan: RunPlan, specs: Sequence[PlayerSpec]) -> list[Match]:
    """One match per pair of players, in the order of :func:`itertools.combinations`."""
    return [plan.match(first, second) for first, second in itertools.combinations(specs, 2)]


def tournament_result(
    plan: RunPlan, matches: Sequence[Match], per_match: Sequence[Sequence[ItemResult]]
) -> TournamentResult:
    """The tournament's figures from every pairing's item results."""
    # The players in order of first appearance, which is their order in the
    # tournament since the matches come from combinations().
    labels = list(dict.fromkeys(str(spec) for m in matches for spec in (m.first, m.second)))
    index = {label: number for number, label in enumerate(labels)}
    # margins[player][item]: summed over the player's opponents.
    margins = [[0.0] * plan.count for _ in labels]
    for match, results in zip(matches, per_match, strict=True):
        i, j = index[str(match.first)], index[str(match.second)]
        for item, difference in enumerate(item_differences(results, plan.bag_cost)):
            margins[i][item] += difference
            margins[j][item] -= difference
    opponents = len(labels) - 1
    return TournamentResult(
        **plan.description(),
        bag_cost=plan.bag_cost,
        players=tuple(labels),
        pairs=tuple(
            summarize(plan, match, results)
            for match, results in zip(matches, per_match, strict=True)
        ),
        ratings=tuple(mean_interval([m / opponents for m in margin]) for margin in margins),
    )


def tournament(
    players: Sequence[str | PlayerSpec],
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
) -> TournamentResult:
    """Play every pair of ``players`` (at least two, each at most once) over
    the same ``hands`` deals or ``games`` game seeds. The other arguments,
    house rules as keywords among them, are those of
    :func:`~spades_core.simulation.simulate`; the work of all pairings is
    split into tasks together."""
    settings: Any = run_settings(
        "tournament",
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
    matches = pairings(plan, check_players(players))
    return tournament_result(plan, matches, plan.run(matches, progress))
