"""``sc.simulate`` and ``sc.tournament`` on the local backend: the numbers, the
bag-adjusted yardstick, determinism across workers and task sizes, retries."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import signal
import subprocess
import sys
from typing import Any

import attrs
import pytest

import spades_core as sc
from spades_core.players import PlayerError, PlayerSpec
from spades_core.simulation import (
    BackendError,
    Interval,
    Progress,
    SimulationError,
    SimulationResult,
    simulate,
    tournament,
)
from spades_core.simulation.stats import bag_cost, mean_interval, wilson_interval
from spades_core.simulation.work import Match, item_seed, run_chunk, run_item, seat_players


def json_bytes(result: SimulationResult | sc.simulation.TournamentResult) -> str:
    return json.dumps(result.to_json(), sort_keys=True)


def test_sc_simulate_is_the_simulation_api_and_is_imported_lazily() -> None:
    assert sc.simulate is simulate
    assert sc.tournament is tournament
    code = "import sys, spades_core; print('spades_core.simulation' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_same_seed_gives_the_same_bytes_for_any_workers_and_task_size() -> None:
    settings: tuple[dict[str, Any], ...] = (
        {"workers": 1},
        {"workers": 1, "task_size": 2},
        {"workers": 2, "task_size": 1},
        {"workers": 2, "task_size": 4},
    )
    runs = [
        simulate("normal", "easy", variant="whiz", hands=9, seed=11, duplicate=True, **kw)
        for kw in settings
    ]
    assert len({json_bytes(run) for run in runs}) == 1
    assert runs[0].hands == 18


def test_games_mode_is_the_same_for_any_workers() -> None:
    kwargs: dict[str, Any] = {
        "games": 3, "seed": 2, "target_score": 150, "duplicate": True,
    }  # fmt: skip
    one = simulate("normal", "random", variant="mirror", workers=1, **kwargs)
    two = simulate("normal", "random", variant="mirror", workers=2, task_size=1, **kwargs)
    assert json_bytes(one) == json_bytes(two)


def test_the_bag_adjusted_figure_charges_each_bag_its_share_of_the_penalty() -> None:
    result = simulate("normal", "easy", hands=12, seed=5, workers=1)
    assert result.bag_cost == 10.0
    for side in (result.ns, result.ew):
        # From 0-0 no hand reaches the penalty, so raw points keep every bag's
        # +1 and the adjusted figure takes 10 off for each bag.
        assert side.adjusted == pytest.approx(side.points - 10 * side.bags)
    assert result.ns.bags + result.ew.bags > 0
    assert result.difference.value == pytest.approx(result.ns.adjusted - result.ew.adjusted)
    assert result.raw_difference.value == pytest.approx(result.ns.points - result.ew.points)


@pytest.mark.parametrize(
    ("options", "cost"),
    [({"bag_limit": None}, 0.0), ({"bag_limit": 5, "bag_penalty": 50}, 10.0), ({}, 10.0)],
)
def test_the_bag_cost_follows_the_bag_options(options: dict[str, Any], cost: float) -> None:
    result = simulate("easy", "easy", hands=3, seed=1, workers=1, **options)
    assert result.bag_cost == cost
    if cost == 0.0:
        assert result.difference == result.raw_difference


def test_games_mode_takes_the_lumpy_penalty_out_and_charges_every_bag() -> None:
    match = Match(
        "classic",
        PlayerSpec("easy"),
        PlayerSpec("random"),
        "games",
        seed=3,
        options=(("bag_limit", 3), ("bag_penalty", 60), ("target_score", 300)),
    )
    item = run_item(match, 0)
    game = sc.bots.play_game(
        match.new_game(seed=item_seed(match, 0)), seat_players(match, 0), hands=200
    )
    penalties = [0, 0]
    for result in game.hand_results:
        before = game.hand_results[result.number - 1].bags if result.number else (0, 0)
        for team in sc.Team:
            taken = item_bags_taken(game, result, team)
            # carry: every full 3 bags cost 60 points.
            penalties[team] += (before[team] + taken - result.bags[team]) // 3
    assert sum(penalties) > 0, "the seed must reach a bag penalty"
    for slot in (0, 1):
        assert item.base[slot] - item.points[slot] == 60 * penalties[slot]


def item_bags_taken(game: sc.Game, result: sc.HandResult, team: sc.Team) -> int:
    """Overtricks of a made contract (classic counts Nil tricks toward it)."""
    seats = [seat for seat in sc.Seat if seat.team is team]
    bid = sum(result.bids[seat] for seat in seats)
    won = sum(result.tricks[seat] for seat in seats)
    return won - bid if won >= bid else 0


def test_games_mode_reports_both_win_rates_with_wilson_intervals() -> None:
    result = simulate("normal", "random", games=4, seed=2, workers=1, target_score=100)
    games = result.games
    assert games is not None
    assert games.played == 4
    assert games.wins[0] + games.wins[1] + games.unfinished == 4
    assert games.ns_win_rate == wilson_interval(games.wins[0], 4)
    assert games.ew_win_rate == wilson_interval(games.wins[1], 4)
    assert result.to_json()["games"]["ns_win_rate"]["value"] == games.wins[0] / 4
    assert result.max_hands == 200


def test_duplicate_hands_give_each_player_the_other_sides_cards() -> None:
    same = simulate("easy", "easy", hands=5, seed=9, duplicate=True, workers=1)
    # The same player on both sides, every deal both ways: equal totals.
    assert same.ns.points == same.ew.points
    assert same.difference.value == 0
    single = run_item(Match("classic", PlayerSpec("normal"), PlayerSpec("random"), "hands", 4), 0)
    both = run_item(
        Match("classic", PlayerSpec("normal"), PlayerSpec("random"), "hands", 4, duplicate=True),
        0,
    )
    assert both.hands == 2
    assert both.points != (2 * single.points[0], 2 * single.points[1])


def test_duplicate_games_swap_the_players_seats() -> None:
    match = Match(
        "mirror", PlayerSpec("normal"), PlayerSpec("normal"), "games", 5, duplicate=True,
        options=(("target_score", 100),),
    )  # fmt: skip
    assert run_item(match, 0).wins == (1, 1)


def test_the_hand_limit_leaves_a_game_unfinished() -> None:
    result = simulate("random", "random", variant="mirror", games=1, hand_limit=1, workers=1)
    assert result.games is not None
    assert (result.hands, result.games.unfinished) == (1, 1)


def test_progress_reports_every_item_and_hand() -> None:
    seen: list[Progress] = []
    simulate("easy", "easy", hands=6, seed=1, workers=1, task_size=2, progress=seen.append)
    # A tick after each deal inside a task, and a report when the task ends.
    assert [p.done for p in seen] == [0, 0, 2, 2, 2, 4, 4, 4, 6]
    assert [p.hands for p in seen] == [0, 0, 2, 2, 2, 4, 4, 4, 6]
    assert all(p.total == 6 and p.retried == 0 for p in seen)
    assert seen[-1].seconds_left == 0


def test_a_failing_task_is_run_again(monkeypatch: pytest.MonkeyPatch) -> None:
    real = run_chunk
    calls: list[int] = []

    def flaky(match: Match, start: int, stop: int) -> tuple[object, ...]:
        calls.append(start)
        if calls.count(start) == 1 and start == 2:
            raise OSError("a passing failure")
        return real(match, start, stop)

    monkeypatch.setattr("spades_core.simulation.backends.run_chunk", flaky)
    seen: list[Progress] = []
    retried = simulate(
        "easy", "normal", hands=6, seed=4, workers=1, task_size=2, progress=seen.append
    )
    monkeypatch.undo()
    # Deal by deal: deal 2 fails once, and its task (deals 2 and 3) runs again.
    assert calls == [0, 1, 2, 2, 3, 4, 5]
    assert seen[-1].retried == 1
    clean = simulate("easy", "normal", hands=6, seed=4, workers=1)
    assert json_bytes(retried) == json_bytes(clean)


def test_a_task_failing_every_time_fails_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(match: Match, start: int, stop: int) -> tuple[object, ...]:
        raise OSError("disk on fire")

    monkeypatch.setattr("spades_core.simulation.backends.run_chunk", broken)
    with pytest.raises(SimulationError, match=r"deals 1-3 of easy vs easy failed 3 times") as info:
        simulate("easy", "easy", hands=3, seed=1, workers=1, task_size=3, retries=2)
    assert isinstance(info.value.__cause__, OSError)


def test_a_killed_pool_worker_loses_no_deal() -> None:
    killed: list[int] = []

    def kill_a_worker(progress: Progress) -> None:
        workers = multiprocessing.active_children()
        if not killed and workers and workers[0].pid is not None:
            os.kill(workers[0].pid, signal.SIGKILL)
            killed.append(workers[0].pid)

    seen: list[Progress] = []

    def watch(progress: Progress) -> None:
        kill_a_worker(progress)
        seen.append(progress)

    survived = simulate(
        "normal", "easy", hands=24, seed=8, duplicate=True, workers=2, task_size=2,
        progress=watch,
    )  # fmt: skip
    assert killed
    assert seen[-1].retried >= 1
    assert seen[-1].done == 24
    clean = simulate("normal", "easy", hands=24, seed=8, duplicate=True, workers=1)
    assert json_bytes(survived) == json_bytes(clean)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"hands": 0}, sc.RulesError, "hands must be a whole number ≥ 1; got 0"),
        ({"hands": 2, "games": 2}, sc.RulesError, "hands or games, not both"),
        ({"games": "3"}, sc.ArgumentTypeError, "games must be a whole number; got '3'"),
        ({"seed": 1.5}, sc.ArgumentTypeError, "seed must be a whole number; got 1.5"),
        ({"seed": -1}, sc.RulesError, "seed must be a whole number from 0"),
        ({"workers": 0}, sc.RulesError, "workers must be a whole number ≥ 1"),
        ({"task_size": 0}, sc.RulesError, "task_size must be"),
        ({"retries": -1}, sc.RulesError, "retries must be"),
        ({"hand_limit": 0}, sc.RulesError, "hand_limit must be a whole number ≥ 1"),
        ({"hand_limit": 2.0}, sc.ArgumentTypeError, "hand_limit must be a whole number"),
        ({"duplicate": 1}, sc.ArgumentTypeError, "duplicate must be True or False"),
        ({"variant": 3}, sc.ArgumentTypeError, "variant must be an installed variant's id"),
        ({"backend": "spark"}, sc.RulesError, "backend must be one of local, ray"),
        ({"address": "127.0.0.1:1"}, sc.RulesError, "an address is for the ray backend"),
        ({"variant": "nope"}, sc.VariantNotFoundError, "no variant named 'nope'"),
        ({"target_score": 0}, sc.RulesError, "target_score"),
        ({"no_such_rule": 1}, sc.RulesError, "no_such_rule"),
        ({"ns": "grandmaster"}, PlayerError, "unknown player 'grandmaster'"),
        ({"ns": "easy:steps=3"}, PlayerError, "EasyBot has no option steps"),
        ({"ew": "hard:steps=0"}, PlayerError, "steps must be a whole number ≥ 1"),
        ({"ew": "hard:"}, PlayerError, "OPTION=VALUE"),
        ({"ew": 7}, sc.ArgumentTypeError, "spec must be a name like 'easy'"),
        ({"progress": []}, sc.ArgumentTypeError, "progress must be a function"),
    ],
)
def test_bad_arguments_raise_a_specific_error_before_any_work(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    arguments = {"seed": 1, **kwargs}
    players = {key: arguments.pop(key) for key in ("ns", "ew") if key in arguments}
    with pytest.raises(error, match=message):
        simulate(players.get("ns", "easy"), players.get("ew", "easy"), **arguments)  # type: ignore[arg-type]


def test_an_unknown_keyword_is_refused_with_the_list_of_arguments() -> None:
    with pytest.raises(sc.RulesError, match=r"unknown argument hand; the arguments are variant, "):
        simulate("easy", "easy", hand=3)
    with pytest.raises(sc.RulesError, match=r"unknown argument deals.*house rules of 'mirror' are"):
        tournament(["easy", "normal"], variant="mirror", deals=3)


def test_a_malformed_ray_address_is_refused_before_ray_starts() -> None:
    with pytest.raises(BackendError, match="a Ray address is HOST:PORT"):
        simulate("easy", "easy", backend="ray", address="nowhere")


def test_intervals() -> None:
    rate = wilson_interval(140, 200)
    assert (round(rate.low, 4), round(rate.high, 4)) == (0.6332, 0.7593)
    assert wilson_interval(0, 10).low == 0.0
    assert wilson_interval(10, 10).high == 1.0
    assert all(math.isnan(x) for x in attrs.astuple(wilson_interval(0, 0)))
    assert mean_interval([3.0]).value == 3.0
    assert math.isnan(mean_interval([3.0]).low)
    assert Interval(1.0, math.nan, 2.0).to_json() == {"value": 1.0, "low": None, "high": 2.0}
    assert bag_cost(7, 100) == pytest.approx(100 / 7)


# -- tournament ---------------------------------------------------------------------


def test_a_tournament_plays_every_pair_over_the_same_deals() -> None:
    result = tournament(["random", "easy", "normal"], hands=4, seed=3, duplicate=True, workers=1)
    assert result.players == ("random", "easy", "normal")
    assert [(p.ns.player, p.ew.player) for p in result.pairs] == [
        ("random", "easy"),
        ("random", "normal"),
        ("easy", "normal"),
    ]
    # Each pairing is exactly the simulation of those two players.
    alone = simulate("easy", "normal", hands=4, seed=3, duplicate=True, workers=1)
    assert result.pair(1, 2) == alone
    assert result.pair(2, 1) == alone
    assert result.margin(2, 1) == Interval(
        -alone.difference.value, -alone.difference.high, -alone.difference.low
    )
    assert result.hands == 3 * 8


def test_ratings_are_the_mean_margin_against_the_field() -> None:
    result = tournament(["random", "easy", "normal"], hands=5, seed=3, workers=1)
    for i in range(3):
        others = [result.margin(i, j).value for j in range(3) if j != i]
        assert result.ratings[i].value == pytest.approx(sum(others) / 2)
        assert result.ratings[i].low < result.ratings[i].value < result.ratings[i].high
    assert sum(r.value for r in result.ratings) == pytest.approx(0, abs=1e-9)
    two = tournament(["easy", "normal"], hands=5, seed=3, workers=1)
    assert two.ratings[0] == two.pair(0, 1).difference


def test_a_tournament_is_the_same_for_any_workers_in_games_mode() -> None:
    kwargs = {"games": 2, "seed": 6, "target_score": 100, "workers": 1}
    one = tournament(["easy", "normal", "random"], **kwargs)  # type: ignore[arg-type]
    kwargs.update(workers=2, task_size=1)
    two = tournament(["easy", "normal", "random"], **kwargs)  # type: ignore[arg-type]
    assert json_bytes(one) == json_bytes(two)
    assert all(pair.games is not None for pair in one.pairs)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["easy"], "at least two players"),
        (["easy", "easy"], "repeated: easy"),
        (["easy", "Medium", "normal"], "repeated: normal"),
        ("easy,normal", "must be a list of players"),
        (["easy", "nobody"], "unknown player 'nobody'"),
    ],
)
def test_a_tournament_refuses_bad_players(players: object, message: str) -> None:
    with pytest.raises(sc.SpadesError, match=message):
        tournament(players, hands=1, workers=1)  # type: ignore[arg-type]
    with pytest.raises(sc.RulesError, match="no pairing"):
        tournament(["easy", "normal"], hands=1, workers=1).pair(0, 0)


def test_the_ray_backend_without_ray_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(BackendError, match=r"pip install 'spades-core\[ray\]'"):
        simulate("easy", "easy", hands=1, backend="ray")


def test_simulation_and_tournament_results_describe_their_run_alike() -> None:
    run_fields = [field.name for field in attrs.fields(sc.simulation.RunResult)]
    assert run_fields == ["variant", "options", "mode", "count", "duplicate", "seed", "max_hands"]
    hands = simulate("easy", "random", hands=2, seed=3, workers=1, hand_limit=7)
    games = tournament(["easy", "random"], games=1, seed=3, workers=1, hand_limit=2)
    for result in (hands, games):
        assert isinstance(result, sc.simulation.RunResult)
        assert [field.name for field in attrs.fields(type(result))][:7] == run_fields
        assert list(result.to_json())[:6] == run_fields[:6]
    # max_hands plays no part in hands mode, so a result there leaves it out.
    assert hands.max_hands is None
    assert "max_hands" not in hands.to_json()
    assert (games.mode, games.max_hands, games.to_json()["max_hands"]) == ("games", 2, 2)
    assert games.pairs[0].max_hands == 2
