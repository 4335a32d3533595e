"""The twin check: a variant's array forms agree with its hooks
(:func:`check_array_forms`; needs numpy, the ``batch`` extra).

A variant's :meth:`~spades_core.Variant.array_forms` declare array twins of
its hooks (see :class:`spades_core.batch.ArrayForms`). This check holds them
to the hooks, scenario by scenario, each with its own option set drawn from
the variant's option specs:

* every form against its hook on random inputs, beyond what play reaches:
  the legal bids of random hands after random legal bids, the spade counts
  those bids reveal, the score of random bids and tricks from random bags,
  and the game outcome of random scores;
* whole hands and whole games: :class:`spades_core.batch.Tables` and one
  engine game per table, stepped with the same random actions and compared
  at every step (legal actions, observations, rewards, scores and bags, the
  end of every game and its winner, the hand limit included), with illegal
  actions refused for the engine's reason;
* :func:`spades_core.batch.play_hands` against the engine taking the lowest legal
  action at every decision.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from spades_core.engine.encoding import ACTIONS
from spades_core.engine.game import Game, Phase, new_game
from spades_core.rules.hooks import (
    checked_game_outcome,
    checked_revealed_spade_counts,
    checked_score_hand,
)
from spades_core.rules.registry import load_variant
from spades_core.rules.variant import Variant, checked_legal_bids
from spades_core.testing._failure import ConformanceError
from spades_core.testing.strategies import accepts_options, pick_option_value, random_deal
from spades_core.values.cards import CardSet
from spades_core.values.errors import IllegalActionError, SpadesError
from spades_core.values.options import Rules
from spades_core.values.seats import Seat

if TYPE_CHECKING:
    from spades_core.batch import CheckedForms, Tables

__all__ = ["check_array_forms"]

_CHECK: Final = "array_forms"
_SEATS: Final = tuple(Seat)
_RANDOM_ROWS: Final = 64
"""Random inputs per form and scenario."""


class _Failed(Exception):
    """A disagreement, with what was compared (turned into a ConformanceError)."""


def check_array_forms(
    variant: Variant | str,
    *,
    scenarios: int = 6,
    tables: int = 4,
    steps: int = 300,
    seed: int | None = None,
    extra_option_values: Mapping[str, Sequence[object]] | None = None,
) -> None:
    """Check that ``variant``'s array forms (a :class:`~spades_core.Variant`
    or an installed variant's id) agree with its hooks; raise
    :class:`~spades_core.testing.ConformanceError` (check ``"array_forms"``)
    on the first disagreement, naming the seed that replays it.

    Each of ``scenarios`` scenarios draws an option set (the values
    :func:`~spades_core.testing.strategies.option_values` lists, and the
    standard whole-number options' values, ``max_hands`` included), compares
    each form with its hook on random inputs, then steps ``tables`` tables of
    :class:`spades_core.batch.Tables` for ``steps`` steps against the engine
    (whole hands in even scenarios, whole games in odd ones), and plays a
    few hands with :func:`spades_core.batch.play_hands`. ``seed`` replays only the
    scenario of that seed (from a failure message); ``extra_option_values``
    lists values to try for options the variant defines itself.

    A variant without array forms passes too: the batch engine then calls
    its hooks row by row, and the check confirms that path.
    """
    chosen = variant if isinstance(variant, Variant) else load_variant(variant)
    seeds = [seed] if seed is not None else list(range(scenarios))
    for scenario in seeds:
        rnd = random.Random(scenario)
        options = _options(chosen, rnd, extra_option_values)
        try:
            _check_scenario(
                chosen, options, rnd, whole_games=scenario % 2 == 1, tables=tables, steps=steps
            )
        except _Failed as failure:
            raise ConformanceError(
                _CHECK,
                str(failure),
                variant_id=chosen.id,
                seed=scenario,
                where=f"options {options!r}",
                replay="check_array_forms",
            ) from None
        except SpadesError as error:
            raise ConformanceError(
                _CHECK,
                f"{type(error).__name__}: {error}",
                variant_id=chosen.id,
                seed=scenario,
                where=f"options {options!r}",
                replay="check_array_forms",
            ) from error


def _options(
    variant: Variant, rnd: random.Random, extra: Mapping[str, Sequence[object]] | None
) -> dict[str, Any]:
    """A random option set the variant accepts (its defaults if none is found)."""
    for _ in range(10):
        options: dict[str, Any] = {}
        for name, spec in variant.option_specs.items():
            if rnd.random() < 0.5:
                continue
            known, value = pick_option_value(name, spec, rnd, extra)
            if known:
                options[name] = value
        if accepts_options(variant, options):
            return options
    return {}


def _check_scenario(
    variant: Variant,
    options: dict[str, Any],
    rnd: random.Random,
    *,
    whole_games: bool,
    tables: int,
    steps: int,
) -> None:
    from spades_core.batch import CheckedForms, array_forms_of

    rules = variant.rules(**options)
    forms = CheckedForms(variant, array_forms_of(variant))
    _check_forms_on_random_inputs(variant, rules, forms, rnd)
    if whole_games and rules.max_hands is None:
        # Random play may never end a game (Mirror has no loss floor): a hand
        # limit ends each within a few hands, and the forms decide before it.
        options = {**options, "max_hands": rnd.randint(1, 3)}
        if not accepts_options(variant, options):
            return
    _check_tables(variant, options, rnd, whole_games=whole_games, tables=tables, steps=steps)
    _check_play(variant, options, rnd)


# -- each form against its hook -------------------------------------------------------


def _random_bidding(
    variant: Variant, rules: Rules, rnd: random.Random, count: int | None = None
) -> tuple[tuple[int, ...], int, list[int]]:
    """A random deal, the seat to bid after ``count`` (default: a random
    number below 4) random legal bids from a random first bidder, and those
    bids (by seat, -1 for none)."""
    deal = random_deal(rnd)
    hands = tuple(cards.mask for cards in deal.hands or ())
    seat = rnd.randrange(4)
    bids = [-1, -1, -1, -1]
    for _ in range(rnd.randrange(4) if count is None else count):
        made = {_SEATS[s]: b for s, b in enumerate(bids) if b >= 0}
        legal = checked_legal_bids(variant, rules, _SEATS[seat], CardSet(hands[seat]), made)
        bids[seat] = rnd.choice(legal)
        seat = (seat + 1) % 4
    return hands, seat, bids


def _check_forms_on_random_inputs(
    variant: Variant, rules: Rules, forms: CheckedForms, rnd: random.Random
) -> None:
    import numpy as np

    positions = [_random_bidding(variant, rules, rnd) for _ in range(_RANDOM_ROWS)]
    hands = np.array([hands[seat] for hands, seat, _ in positions], dtype=np.uint64)
    seats = np.array([seat for _, seat, _ in positions], dtype=np.int8)
    bids = np.array([made for _, _, made in positions], dtype=np.int8)
    masks = forms.legal_bids(rules, hands, seats, bids)
    for row, (held, seat, made) in enumerate(positions):
        expected = checked_legal_bids(
            variant,
            rules,
            _SEATS[seat],
            CardSet(held[seat]),
            {_SEATS[s]: b for s, b in enumerate(made) if b >= 0},
        )
        found = tuple(bid for bid in range(14) if int(masks[row]) >> bid & 1)
        if found != expected:
            raise _Failed(
                f"legal_bids gives {found} where the hook gives {expected} "
                f"(seat {seat}, hand {CardSet(held[seat])}, bids so far {made})"
            )

    revealed = forms.revealed_spade_counts(rules, bids)
    for row, (_, _, made) in enumerate(positions):
        expected_counts = tuple(
            -1 if count is None else count
            for count in checked_revealed_spade_counts(
                variant, rules, tuple(None if b < 0 else b for b in made)
            )
        )
        found_counts = tuple(int(count) for count in revealed[row])
        if found_counts != expected_counts:
            raise _Failed(
                f"revealed_spade_counts gives {found_counts} where the hook gives "
                f"{expected_counts} (bids so far {made})"
            )

    deals = []
    for _ in range(_RANDOM_ROWS):
        cuts = sorted(rnd.randint(0, 13) for _ in range(3))
        tricks = (cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2])
        made_bids = tuple(_random_bidding(variant, rules, rnd, 4)[2])
        before = (rnd.randint(0, 40), rnd.randint(0, 40))
        deals.append((made_bids, tricks, before))
    points, bags = forms.score_hands(
        rules,
        np.array([d[0] for d in deals], dtype=np.int8),
        np.array([d[1] for d in deals], dtype=np.int8),
        np.array([d[2] for d in deals], dtype=np.int64),
    )
    for row, (made_bids, tricks, before) in enumerate(deals):
        expected_score = checked_score_hand(variant, rules, made_bids, tricks, before)
        found_score = (
            (int(points[row, 0]), int(points[row, 1])),
            (int(bags[row, 0]), int(bags[row, 1])),
        )
        if found_score != expected_score:
            raise _Failed(
                f"score_hands gives (points, bags) {found_score} where the hook gives "
                f"{expected_score} (bids {made_bids}, tricks {tricks}, bags before {before})"
            )

    target = rules.target_score
    scores = [
        (rnd.randint(-2 * target, 2 * target), rnd.randint(-2 * target, 2 * target))
        for _ in range(_RANDOM_ROWS)
    ]
    scores += [(target, target), (target, target - 1), (0, 0)]
    outcomes = forms.game_outcomes(rules, np.array(scores, dtype=np.int64))
    for row, pair in enumerate(scores):
        winner = checked_game_outcome(variant, rules, pair)
        expected_outcome = -1 if winner is None else int(winner)
        found_outcome = int(outcomes[row])
        if found_outcome != expected_outcome:
            raise _Failed(
                f"game_outcomes gives {found_outcome} where the hook gives "
                f"{expected_outcome} (scores {pair})"
            )


# -- whole hands and games ------------------------------------------------------------


def _check_tables(
    variant: Variant,
    options: dict[str, Any],
    rnd: random.Random,
    *,
    whole_games: bool,
    tables: int,
    steps: int,
) -> None:
    import numpy as np

    from spades_core.batch import Tables
    from spades_core.batch.features import observation

    first_seed = rnd.getrandbits(63)
    episode = "game" if whole_games else "hand"
    batch = Tables(variant, tables, seed=first_seed, episode=episode, **options)
    games = [new_game(variant, seed=first_seed + i, **options).deal() for i in range(tables)]
    next_seed = first_seed + tables
    rng = np.random.default_rng(rnd.getrandbits(32))
    for step in range(steps):
        mask = batch.legal_mask()
        observed = batch.observe()
        for i, game in enumerate(games):
            where = f"table {i}, step {step}, {game!r}"
            if not (tuple(bool(x) for x in mask[i]) == game.legal_mask()):
                raise _Failed(f"Tables' legal actions differ from the engine's at {where}")
            seat = game.to_act
            assert seat is not None
            if not (bool((observed[i] == observation(game.view(seat))).all())):
                raise _Failed(f"Tables' observation differs from the engine view's at {where}")
        if rnd.random() < 0.1:
            _check_refusal(batch, games, rnd)
        actions = batch.random_actions(rng)
        rewards, done = batch.step(actions)
        for i in range(tables):
            game = games[i].apply(ACTIONS[int(actions[i])])
            where = f"table {i}, step {step}, {game!r}"
            if game.phase in (Phase.DEAL, Phase.GAME_OVER):
                points = tuple(game.hand_results[-1].points.values())
                if not (tuple(int(r) for r in rewards[i]) == points):
                    raise _Failed(
                        f"Tables scored {rewards[i].tolist()} where the engine scored "
                        f"{points} at {where}"
                    )
                finished = not whole_games or game.phase is Phase.GAME_OVER
                if not (bool(done[i]) == finished):
                    raise _Failed(
                        f"Tables says the episode is {'' if done[i] else 'not '}over "
                        f"where the engine says {'it is' if finished else 'it is not'} at {where}"
                    )
                if whole_games and finished:
                    winner = -1 if game.winner is None else int(game.winner)
                    if not (int(batch.winners[i]) == winner):
                        raise _Failed(
                            f"Tables names winner {int(batch.winners[i])} where the "
                            f"engine names {winner} at {where}"
                        )
                if finished:
                    game = new_game(variant, seed=next_seed, **options).deal()
                    next_seed += 1
                else:
                    game = game.deal()
                    if not (
                        tuple(int(s) for s in batch.scores[i]) == tuple(game.scores.values())
                        and tuple(int(b) for b in batch.bags[i]) == tuple(game.bags.values())
                    ):
                        raise _Failed(
                            f"Tables' scores {batch.scores[i].tolist()} and bags "
                            f"{batch.bags[i].tolist()} differ from the engine's at {where}"
                        )
            else:
                if done[i]:
                    raise _Failed(f"Tables ended an episode in the middle of a hand at {where}")
            games[i] = game


def _check_refusal(batch: Tables, games: list[Game], rnd: random.Random) -> None:
    """An illegal action at a random table is refused for the engine's reason,
    and changes nothing."""
    import numpy as np

    row = rnd.randrange(len(games))
    game = games[row]
    illegal = [i for i, ok in enumerate(game.legal_mask()) if not ok]
    action = rnd.choice(illegal)
    actions = batch.random_actions(np.random.default_rng(rnd.getrandbits(32)))
    actions[row] = action
    before = (batch.legal_mask().copy(), batch.observe().copy())
    error = game.why_illegal(ACTIONS[action])
    assert error is not None
    try:
        batch.step(actions)
    except IllegalActionError as refusal:
        if refusal.reason is not error.reason:
            raise _Failed(
                f"Tables refuses action id {action} at table {row} for "
                f"{refusal.reason.name} where the engine refuses it for {error.reason.name} "
                f"({game!r})"
            ) from refusal
    else:
        raise _Failed(f"Tables accepted action id {action} at table {row}: {error}")
    if not (bool((batch.legal_mask() == before[0]).all() and (batch.observe() == before[1]).all())):
        raise _Failed("a refused step changed the tables")


def _check_play(variant: Variant, options: dict[str, Any], rnd: random.Random) -> None:
    from spades_core.batch import play_hands

    first = rnd.getrandbits(63)
    seeds = range(first, first + 8)
    result = play_hands(variant, seeds, policy="lowest", **options)
    for row, seed in enumerate(seeds):
        game = new_game(variant, seed=seed, **options).deal()
        while game.phase in (Phase.BID, Phase.PLAY):
            game = game.apply(game.legal_actions()[0])
        hand = game.hand_results[0]
        found = (
            tuple(int(b) for b in result.bids[row]),
            tuple(int(t) for t in result.tricks[row]),
            tuple(int(p) for p in result.points[row]),
        )
        expected = (
            tuple(hand.bids.values()),
            tuple(hand.tricks.values()),
            tuple(hand.points.values()),
        )
        if found != expected:
            raise _Failed(
                f"batch.play_hands gives bids, tricks and points {found} where the engine "
                f"gives {expected} (seed {seed}, lowest legal action)"
            )
