"""The bots' margins in a variant with phases (Tournament Spades, the example
plugin: ``pip install -e examples/tournament_spades``) beside the same
pairing in another variant, on duplicate deals, with the phases' rates.

Every deal (or game) is played twice with the partnerships' cards swapped
(a game: the seats swapped), ``--ns`` North-South the first time. A hand's
margin is North-South's bag-adjusted points less East-West's: scored with
no bag limit and 10 points taken off a bag (the cost of a bag at the
margin under the default 10-bag, 100-point penalty). Reported: the mean
margin of the ``--ns`` player per hand with a 95% interval over the deals,
and in the phased variant how often each side went Blind Nil (of the times
it could), how often a Blind Nil and a looked-at Nil succeeded, and the
share of hands with an exchange.

    .venv/bin/python bench/phase_strength.py --variant tournament --ns normal --ew easy \\
        --mode games --deals 200 --seed 7
    .venv/bin/python bench/phase_strength.py --variant classic --ns hard:steps=1500 --ew normal \\
        --mode hands --deals 100 --seed 7
    .venv/bin/python bench/phase_strength.py --ns normal --ew plain-normal --mode games --deals 300

``plain-normal`` and ``plain-hard`` are the baselines: the bots with a plain
phase policy (Blind Nil when trailing by 200 or more, the Nil passing its
highest cards, spades first, the partner its lowest) that bid as if there
were no exchange.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections import Counter
from typing import Any

import attrs

import spades_core as sc
from spades_core.bots import HardBot, NormalBot, Why, play_game
from spades_core.bots.table import Table
from spades_core.engine.views import View
from spades_core.players import make_player
from spades_core.rules.hooks import checked_score_hand

BAG = 10
PLAIN_BLIND_DEFICIT = 200


def plain_phase_decision(view: View) -> tuple[sc.Action, Why]:
    """The baseline phase policy: Blind Nil when trailing by 200 or more, the
    Nil passes its highest cards (spades first), the partner its lowest."""
    legal = view.legal_actions()
    if sc.BLIND_NIL in legal or sc.LOOK in legal:
        assert view.seat is not None
        team = view.seat.team
        behind = view.scores[team.opponent] - view.scores[team]
        if sc.BLIND_NIL in legal and (sc.LOOK not in legal or behind >= PLAIN_BLIND_DEFICIT):
            return sc.BLIND_NIL, Why.BLIND_NIL_BEHIND
        return sc.LOOK, Why.LOOK_FIRST
    passes = [action for action in legal if type(action) is sc.Pass]
    assert view.seat is not None
    strength = lambda action: (  # noqa: E731
        action.cards.mask.bit_length() - 1 >= 39,
        (action.cards.mask.bit_length() - 1) % 13,
    )
    if view.bids[view.seat] == 0:
        return max(passes, key=strength), Why.PASS_HIGH_TO_PARTNER
    return min(passes, key=strength), Why.PASS_LOW_TO_NIL


class PlainNormal(NormalBot):
    """The normal bot with the baseline phase policy, bidding blind to the exchange."""

    def decide(self, view: View) -> tuple[sc.Action, Why]:
        if view.phase is sc.Phase.VARIANT and len(view.legal_actions()) > 1:
            return plain_phase_decision(view)
        return super().decide(view)

    def _bid(self, view: View, table: Table) -> tuple[int, Why]:
        table.nil_passes = 0
        return super()._bid(view, table)


class PlainHard(HardBot):
    """The hard bot with the baseline phase policy, bidding blind to the
    exchange (its play-outs still pass)."""

    def decide(self, view: View) -> tuple[sc.Action, Why]:
        if view.phase is sc.Phase.VARIANT and len(view.legal_actions()) > 1:
            return plain_phase_decision(view)
        return super().decide(view)

    def _bid(self, view: View, table: Table) -> tuple[int, Why]:
        table.nil_passes = 0
        return super()._bid(view, table)


def player(spec: str, seed: int) -> sc.bots.Player:
    """A player from its spec; ``plain-normal`` and ``plain-hard[:options]``
    are the baselines."""
    if spec == "plain-normal":
        return PlainNormal(seed)
    if spec.startswith("plain-hard"):
        options: dict[str, Any] = {}
        for item in spec.split(":")[1:]:
            key, value = item.split("=")
            options[key] = int(value)
        return PlainHard(seed, **options)
    return make_player(spec, seed=seed)


def adjusted(game: sc.Game, result: sc.HandResult) -> tuple[float, float]:
    """Each team's bag-adjusted points of a finished hand."""
    rules = attrs.evolve(game.rules, bag_limit=None)
    points, bags = checked_score_hand(
        game.variant,
        rules,
        tuple(result.bids.values_),
        tuple(result.tricks.values_),
        (0, 0),
        result.steps if type(game.variant).phases is not sc.Variant.phases else None,
    )
    return points[0] - BAG * bags[0], points[1] - BAG * bags[1]


def run(args: argparse.Namespace) -> None:
    options: dict[str, Any] = {}
    for option in args.option:
        name, value = option.split("=", 1)
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    margins: list[float] = []
    counts: Counter[str] = Counter()
    for index in range(args.deals):
        seed = args.seed * 1_000_003 + index
        total = 0.0
        hands = 0
        for swapped in (False, True):
            specs = [args.ns, args.ew, args.ns, args.ew]
            if swapped:
                specs = [args.ew, args.ns, args.ew, args.ns]
            players = [player(spec, seed * 8 + i) for i, spec in enumerate(specs)]
            ns_slot = 1 if swapped else 0
            if args.mode == "games":
                game = play_game(
                    sc.new_game(args.variant, seed=seed, **options), players, hands=args.max_hands
                )
            else:
                first = sc.new_game(args.variant, seed=seed, dealer=sc.Seat.WEST, **options).deal()
                game = first
                if swapped:
                    dealt = [first.dealt_hand(seat) for seat in sc.Seat]
                    game = sc.new_game(
                        args.variant, seed=seed, dealer=sc.Seat.NORTH, **options
                    ).apply(sc.Deal((dealt[3], dealt[0], dealt[1], dealt[2])))
                game = play_game(game, players, hands=1)
            if args.mode == "games":
                counts["games"] += 1
                if game.winner is not None:
                    counts["ns_wins" if int(game.winner) == ns_slot else "ew_wins"] += 1
            for result in game.hand_results:
                points = adjusted(game, result)
                total += points[ns_slot] - points[1 - ns_slot]
                hands += 1
                tally(result, ns_slot, counts)
        margins.append(total / hands)
    n = len(margins)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(n) if n > 1 else 0.0
    print(
        f"{args.variant} {args.mode}: {args.ns} (as NS) vs {args.ew}, {n} duplicate "
        f"{'games' if args.mode == 'games' else 'deals'}, seed {args.seed}"
    )
    print(f"margin per hand, bag-adjusted: {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}]")
    hands_played = counts["hands"]
    if counts["games"]:
        print(
            f"games won: {args.ns} {counts['ns_wins']}, {args.ew} {counts['ew_wins']} "
            f"of {counts['games']}"
        )
    if counts["offered"] or counts["exchanges"]:
        for side in ("ns", "ew"):
            offered = counts[f"{side}_offered"]
            blind = counts[f"{side}_blind"]
            print(
                f"{side.upper()} player: Blind Nil {blind} of {offered} offers "
                f"({blind / max(1, offered):.0%}), made {counts[f'{side}_blind_made']}; "
                f"Nil {counts[f'{side}_nil']}, made {counts[f'{side}_nil_made']}"
            )
        print(f"hands with an exchange: {counts['exchanges']} of {hands_played}")
    else:
        for side in ("ns", "ew"):
            print(
                f"{side.upper()} player: Nil {counts[f'{side}_nil']}, "
                f"made {counts[f'{side}_nil_made']}"
            )
    print(f"hands {hands_played}")


def tally(result: sc.HandResult, ns_slot: int, counts: Counter[str]) -> None:
    """Count the hand's Blind Nil offers and choices, Nils and exchanges."""
    counts["hands"] += 1
    blind = {step.seat for step in result.steps if type(step.action) is sc.BlindNil}
    decided = {step.seat for step in result.steps if type(step.action) in (sc.BlindNil, sc.Look)}
    if any(type(step.action) is sc.Pass for step in result.steps):
        counts["exchanges"] += 1
    for seat in sc.Seat:
        side = "ns" if int(seat.team) == ns_slot else "ew"
        made = result.tricks[seat] == 0
        if seat in decided:
            counts["offered"] += 1
            counts[f"{side}_offered"] += 1
        if seat in blind:
            counts[f"{side}_blind"] += 1
            counts[f"{side}_blind_made"] += made
        elif result.bids[seat] == 0:
            counts[f"{side}_nil"] += 1
            counts[f"{side}_nil_made"] += made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="tournament")
    parser.add_argument("--ns", required=True, help="player spec, e.g. hard:steps=1500")
    parser.add_argument("--ew", required=True)
    parser.add_argument("--mode", choices=("hands", "games"), default="hands")
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals or games")
    parser.add_argument("--max-hands", type=int, default=60, help="games: hands at most")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--option", "-o", action="append", default=[], help="NAME=VALUE")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
