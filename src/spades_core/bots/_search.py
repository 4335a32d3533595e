"""Search for the hard bot: determinized play-outs with the normal policy.

For a decision the hard bot samples the hidden cards several times (see
:class:`~spades_core.sampling.HiddenCards`), and for each sample and each
candidate move plays the rest of the hand out with :func:`normal_play` for
all four seats (each seat using only what it could see, on the sampled
cards). The hand is then scored with the variant's own scoring and game-end
hooks, and the candidate with the best average value is chosen.

The value of a finished hand, for the deciding team, is its points minus the
opponents' points, with bags priced at what each costs at the margin
(:func:`~spades_core.scoring.bag_cost`), and a large bonus (or malus) when
the hand ends the game (the engine's game end, hand limit included: a drawn
game is worth neither): so a team near the target, the loss floor or the
last hand plays for the match, not the hand.

Play-outs run on a mutable :class:`Sim` of ints, never on views (which are
far too slow to build at every step).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Final

import attrs

from spades_core.bots._play import normal_play
from spades_core.bots.bidding import nil_risk, normal_bid
from spades_core.bots.inference import PlayReading
from spades_core.bots.sim import BidReader, Held, Sim
from spades_core.bots.table import Table, table_from_view
from spades_core.bots.why import Why
from spades_core.engine.game import Game, Phase
from spades_core.engine.sampling import HiddenCards
from spades_core.engine.views import View
from spades_core.rules.hooks import (
    checked_game_end,
    checked_score_hand,
)
from spades_core.rules.results import SEATS
from spades_core.rules.scoring import bag_cost
from spades_core.rules.tricks import (
    RANKS,
)

__all__ = [
    "GAME_VALUE",
    "PRUNE_RISK_Z",
    "Budget",
    "Sim",
    "hand_value",
    "playout_value",
    "sampled_deals",
    "search_bid",
    "search_play",
]

"""The four hands as held now, 52-bit masks by seat number."""

GAME_VALUE: Final = 1000
"""What winning (or losing) the game is worth, in points, to the search."""
PRUNE_RISK_Z: Final = 1.645
"""The pruning test's one-sided normal quantile (5%): see :func:`_futile`."""
_PRUNE_FIRST: Final = 8
"""Samples played out before candidates are first compared for pruning."""
_PRUNE_EVERY: Final = 4
"""Samples between later comparisons."""
_NIL_CANDIDATE_RISK: Final = 9.0
"""Hands riskier than this for Nil are not worth simulating a Nil bid for."""
_PROTECTING_NIL: Final = frozenset(
    (
        Why.PROTECT_LEAD_VOID,
        Why.PROTECT_LEAD_HIGH,
        Why.PROTECT_COVER,
        Why.PROTECT_OVERTAKE,
        Why.PROTECT_TRUMP,
    )
)
"""The normal policy's reasons that guard a partner's live Nil: the search keeps them."""


@attrs.frozen
class Budget:
    """How much searching the hard bot does per decision.

    ``steps`` is the number of simulated card plays per card decision: the
    samples are ``steps / (cards left × candidates)``, clamped to
    ``[min_samples, max_samples]``, so late, small decisions get more samples
    for the same time. ``bid_steps`` is the same for a bid (each play-out a
    whole hand). ``confidence`` is how many standard errors better than the
    normal policy's own choice another candidate must be to replace it.
    """

    steps: int = 7000
    bid_steps: int = 6000
    min_samples: int = 6
    max_samples: int = 100
    confidence: float = 1.0
    draws: int = 6
    """Deals drawn per sample; the one that best explains the bids (and with
    ``inference`` the plays) is kept."""
    inference: bool = False
    """Whether the deals are also read against the other seats' plays
    (:class:`~spades_core.bots.inference.PlayReading`)."""
    prune: bool = True
    """Whether a candidate is dropped during the search once it is unlikely to
    end up ``confidence`` standard errors better than the normal policy's
    choice (:func:`_futile`), and the search stops when no other candidate is
    left."""


def hand_value(sim: Sim, team: int) -> float:
    """The value of ``sim``'s finished hand for ``team`` (see the module docs)."""
    return _hand_outcome(sim, team)[0]


def _hand_outcome(sim: Sim, team: int) -> tuple[float, bool]:
    """:func:`hand_value` and whether the hand ends the game."""
    rules = sim.rules
    variant = sim.variant
    points, bags = checked_score_hand(
        variant, rules, tuple(sim.bids), tuple(sim.won), sim.bags, sim.steps
    )
    value = float(points[team] - points[1 - team])
    if rules.bag_limit is not None:
        gained = (bags[team] - sim.bags[team]) - (bags[1 - team] - sim.bags[1 - team])
        value -= bag_cost(rules.bag_limit, rules.bag_penalty) * gained
    scores = (sim.scores[0] + points[0], sim.scores[1] + points[1])
    # The engine's one game end: the variant's outcome, then the hand limit.
    over, winner = checked_game_end(variant, rules, scores, sim.hand_number + 1)
    if over and winner is not None:
        value += GAME_VALUE if winner == team else -GAME_VALUE
    return value, over


def _candidates(table: Table) -> list[int]:
    """One card per group of equivalent legal cards (touching ranks in a suit
    with no unseen card, and no card of the trick in progress, between them),
    the lowest of each group."""
    legal = table.legal
    blockers = table.unseen()
    for played in table.trick:
        blockers |= 1 << played
    out: list[int] = []
    previous = -2
    mask = legal
    while mask:
        bit = mask & -mask
        card = bit.bit_length() - 1
        mask ^= bit
        if previous >= 0 and previous // RANKS == card // RANKS:
            between = ((1 << card) - 1) & ~((2 << previous) - 1)
            if not blockers & between:
                previous = card
                continue
        out.append(card)
        previous = card
    return out


def _group_of(card: int, candidates: list[int]) -> int:
    """The candidate standing for ``card`` (the highest candidate not above it)."""
    best = candidates[0]
    for candidate in candidates:
        if candidate <= card and candidate // RANKS == card // RANKS:
            best = candidate
    return best


def _samples(budget: int, per_sample: int, min_samples: int, max_samples: int) -> int:
    """How many samples a budget of simulated card plays buys."""
    return max(min_samples, min(max_samples, budget // max(1, per_sample)))


# The search's statistics must come out the same to the last bit wherever the
# bot runs (a seed gives the same play in CPython and in the browser's
# Pyodide): sum() of floats is compensated from Python 3.12 on, and x ** 2 goes
# through the platform's pow(), so both are written out in plain, exactly
# rounded float additions and products, left to right.


def _total(values: list[float]) -> float:
    """The sum of ``values``, added left to right."""
    total = 0.0
    for value in values:
        total += value
    return total


def _squares_about(values: list[float], mean: float) -> float:
    """The sum of the squared deviations of ``values`` from ``mean``, left to right."""
    total = 0.0
    for value in values:
        deviation = value - mean
        total += deviation * deviation
    return total


def _pick(values: dict[int, list[float]], preferred: int, confidence: float) -> tuple[int, bool]:
    """The candidate to play and whether it overrides ``preferred``.

    Every candidate was evaluated on the same samples, so candidates are
    compared with ``preferred`` sample by sample; another candidate wins only
    when its mean advantage exceeds ``confidence`` standard errors.
    """
    base = values[preferred]
    n = len(base)
    best, best_gain = preferred, 0.0
    for candidate, scores in values.items():
        if candidate == preferred:
            continue
        diffs = [a - b for a, b in zip(scores, base, strict=True)]
        mean = _total(diffs) / n
        if mean <= best_gain:
            continue
        variance = _squares_about(diffs, mean) / max(1, n - 1)
        if mean > confidence * math.sqrt(variance / n):
            best, best_gain = candidate, mean
    return best, best != preferred


def sampled_deals(
    view: View, table: Table, rng: random.Random, budget: Budget
) -> Callable[[], Held]:
    """The hard bot's source of deals for a decision: each call samples the
    hidden cards anew, reading the bids (and, with ``budget.inference``, the
    plays) to prefer the deals that explain them."""
    hidden = HiddenCards(view)
    reader = BidReader(budget.draws)
    if budget.inference:
        plays = PlayReading(view, table)
        if plays.informative:
            return lambda: reader.sample(hidden, rng, plays)
    return lambda: reader.sample(hidden, rng)


def _played_out_values(
    view: View,
    table: Table,
    deals: Callable[[], Held],
    candidates: list[int],
    samples: int,
    take: Callable[[Sim, int], None],
    preferred: int,
    budget: Budget,
) -> dict[int, list[float]]:
    """Each candidate's hand value for the seat's team over ``samples`` deals
    from ``deals``: on a copy of each deal, ``take(sim, candidate)``, then the
    hand played out. With ``budget.prune``, a candidate that can no longer
    be expected to beat ``preferred`` (:func:`_futile`) is dropped from the
    search and from the result, and the search stops once ``preferred`` is
    alone; but not once a play-out has ended the game: then a rare play-out
    that wins or loses it can outweigh all the others, which a few samples
    cannot rule out."""
    team = table.seat & 1
    values: dict[int, list[float]] = {candidate: [] for candidate in candidates}
    alive = list(candidates)
    base_values = values[preferred]
    prune = budget.prune
    confidence = budget.confidence
    for done in range(1, samples + 1):
        base = Sim(view, table, deals())
        for candidate in alive:
            sim = base.clone()
            take(sim, candidate)
            sim.play_out()
            value, game_ends = _hand_outcome(sim, team)
            values[candidate].append(value)
            if game_ends:
                prune = False
        if prune and done >= _PRUNE_FIRST and (done - _PRUNE_FIRST) % _PRUNE_EVERY == 0:
            alive = [
                candidate
                for candidate in alive
                if candidate == preferred
                or not _futile(values[candidate], base_values, samples, confidence)
            ]
            if len(alive) == 1:
                break
    return {candidate: values[candidate] for candidate in alive}


def _futile(scores: list[float], base: list[float], samples: int, confidence: float) -> bool:
    """Whether a candidate with ``scores`` so far, against ``base`` on the same
    samples, is unlikely to beat it by ``confidence`` standard errors after
    all ``samples``: the chance of that, predicted from the samples so far,
    is below 5% (:data:`PRUNE_RISK_Z`).

    With ``t`` the advantage so far in standard errors and ``f`` the share of
    the samples done, the end result's ``t`` is predicted to be about
    ``t / sqrt(f)``, give or take ``sqrt((1 - f) / f)`` standard deviations
    (the error of the mean so far and that of the samples left, a flat prior
    on the true advantage); the candidate is dropped when
    ``t < confidence * sqrt(f) - z * sqrt(1 - f)``. Differences without
    spread so far count as ``t = 0`` when they are all zero, and as
    infinitely far behind (or ahead) otherwise.
    """
    n = len(scores)
    diffs = [a - b for a, b in zip(scores, base, strict=True)]
    mean = _total(diffs) / n
    variance = _squares_about(diffs, mean) / (n - 1)
    share = n / samples
    bar = confidence * math.sqrt(share) - PRUNE_RISK_Z * math.sqrt(1.0 - share)
    if variance == 0.0:
        # Every sample so far gave the same difference: behind by it, or
        # level (t = 0) when the candidate played out exactly as ``base``.
        return mean < 0.0 or (mean == 0.0 and bar > 0.0)
    return mean / math.sqrt(variance / n) < bar


def _bid_then_bid_out(sim: Sim, bid: int) -> None:
    sim.bids[sim.seat] = bid
    sim.bid_out()


def search_play(
    view: View,
    table: Table,
    rng: random.Random,
    budget: Budget,
    true_hands: Held | None = None,
) -> tuple[int, Why]:
    """The card with the best play-out value (``table.legal`` has at least two cards).

    Given ``true_hands`` (the hands as held now), every play-out is played on
    them instead of on sampled deals: the same search with perfect
    information. Play-outs are deterministic, so one is enough per candidate.
    """
    candidates = _candidates(table)
    normal_card, normal_why = normal_play(table)
    if len(candidates) == 1 or normal_why in _PROTECTING_NIL:
        # Play-outs guess the Nil partner's cards from public facts only, so a
        # few samples are noisier than the rule that keeps a live Nil safe.
        return normal_card, normal_why
    if true_hands is None:
        cards_left = 52 - table.played.bit_count()
        samples = _samples(
            budget.steps, cards_left * len(candidates), budget.min_samples, budget.max_samples
        )
        deals = sampled_deals(view, table, rng, budget)
    else:
        samples, deals = 1, _always(true_hands)
    preferred = _group_of(normal_card, candidates)
    values = _played_out_values(
        view, table, deals, candidates, samples, Sim.play, preferred, budget
    )
    best, overridden = _pick(values, preferred, budget.confidence)
    if not overridden:
        return normal_card, normal_why
    return best, Why.SEARCH


def search_bid(
    view: View,
    table: Table,
    rng: random.Random,
    budget: Budget,
    true_hands: Held | None = None,
) -> tuple[int, Why]:
    """The bid with the best value over simulated hands (on ``true_hands``
    when given, as in :func:`search_play`)."""
    normal_choice, normal_why = normal_bid(table)
    candidates = _bid_candidates(table, normal_choice)
    if len(candidates) == 1:
        return normal_choice, normal_why
    if true_hands is None:
        samples = _samples(
            budget.bid_steps, 52 * len(candidates), budget.min_samples, budget.max_samples
        )
        deals = sampled_deals(view, table, rng, budget)
    else:
        samples, deals = 1, _always(true_hands)
    values = _played_out_values(
        view, table, deals, candidates, samples, _bid_then_bid_out, normal_choice, budget
    )
    best, overridden = _pick(values, normal_choice, budget.confidence)
    if not overridden:
        return normal_choice, normal_why
    return best, (Why.BID_NIL_SIMULATED if best == 0 else Why.BID_SIMULATED)


def _always(hands: Held) -> Callable[[], Held]:
    return lambda: hands


def _bid_candidates(table: Table, normal_choice: int) -> list[int]:
    legal = table.legal_bids
    if len(legal) <= 3:
        return list(legal)
    positive = [b for b in legal if b > 0]
    anchor = normal_choice if normal_choice > 0 else (min(positive) if positive else 0)
    wanted = {anchor - 2, anchor - 1, anchor, anchor + 1, normal_choice}
    if 0 in legal and nil_risk(table.hand) <= _NIL_CANDIDATE_RISK:
        wanted.add(0)
    return sorted(b for b in legal if b in wanted)


def playout_value(game: Game, team: int) -> float:
    """The value for ``team`` (0 or 1) of the current hand of ``game`` played
    out to its end by the normal policy for every seat, on the game's cards,
    as :func:`hand_value` values it; a hand just finished (the game between
    hands, or over) is valued as it ended."""
    if game.phase in (Phase.BID, Phase.PLAY) and game.to_act is not None:
        view = game.view(game.to_act)
        held = tuple(game.hand(seat).mask for seat in SEATS)
        sim = Sim(view, table_from_view(view), held)
        if game.phase is Phase.BID:
            sim.bid_out()
        sim.play_out()
        return hand_value(sim, team)
    results = game.hand_results
    finished = results[-1]
    table = Table(game.rules)
    table.bids = list(finished.bids.values_)
    table.won = list(finished.tricks.values_)
    if len(results) > 1:
        before = results[-2]
        table.bags = (before.bags.values_[0], before.bags.values_[1])
        table.scores = (before.scores.values_[0], before.scores.values_[1])
    sim = Sim(game.public_view(), table, (0, 0, 0, 0))
    sim.hand_number = finished.number  # the public view is already at the next hand
    if sim.steps is not None:
        sim.steps = finished.steps
    return hand_value(sim, team)
