"""The conformance suite every variant must pass: :func:`check_variant`.

It plays many games of the variant and checks, at every step:

``definition``
    the variant resolves its defaults and starts a game;
``cards_conserved``
    the four dealt hands partition the deck, and every card is either held or
    played, never both and never lost;
``thirteen_tricks``
    tricks have four cards, follow suit, go to the right card, and a hand is
    exactly 13 of them;
``turn_order``
    bidding starts left of the dealer, the trick winner leads, the deal rotates;
``legal_actions``
    the legal actions are non-empty until the game is over, have the right
    shape, and every one of them applies;
``illegal_actions``
    every other action is rejected with :class:`~spades_core.IllegalActionError`
    (and :meth:`~spades_core.Game.why_illegal` agrees), changing nothing;
``only_spades_errors``
    no exception other than a :class:`~spades_core.SpadesError` escapes a
    public call, whatever it is given;
``scores``
    hand scores and bags are whole numbers, and the running scores are the
    sums of the hand scores;
``game_end``
    the game ends with a winner, or goes on legally, under every combination
    of the variant's listable options (bounded by a number of hands);
``records``
    a game saved with :func:`spades_core.records.dumps` loads back equal;
``views``
    a seat's view shows its own hand and nothing it may not know: swapping
    two cards hidden from it does not change its view, and every spade count
    the variant reveals is true;
``same_seed``
    the same seed, options and actions give the same game.

A failure raises :class:`ConformanceError` naming the check and the seed of
the scenario: ``check_variant(variant, seed=N)`` replays exactly that scenario.
The single-state checks (:func:`check_game`, :func:`check_illegal_actions`,
:func:`check_views`, :func:`check_record`) are public too, for tests of your own.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from functools import partial

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as HypothesisPhase
from hypothesis import strategies as st

from spades_core.engine.game import SEATS, Game, Phase, new_game
from spades_core.rules.registry import load_variant
from spades_core.rules.variant import Variant
from spades_core.testing._action_checks import check_illegal_actions, check_legal_actions_apply
from spades_core.testing._failure import CHECKS, ConformanceError, fail, guard
from spades_core.testing._state_checks import check_game, check_record, check_scoring_hooks
from spades_core.testing._view_checks import check_views
from spades_core.testing.strategies import (
    accepts_options,
    option_values,
    pick_option_value,
    random_deal,
)
from spades_core.values.actions import DEAL_FROM_SEED, Action, Play
from spades_core.values.seats import Seat

__all__ = [
    "CHECKS",
    "ConformanceError",
    "check_game",
    "check_illegal_actions",
    "check_record",
    "check_variant",
    "check_views",
]


@attrs.frozen
class _Scenario:
    seed: int
    options: dict[str, object]
    game_seed: int
    dealer: Seat | None
    explicit_deals: bool
    playable: bool
    """False when the variant rejects the scenario's option combination."""


def _grid(
    variant: Variant, extra: Mapping[str, Sequence[object]] | None
) -> list[dict[str, object]]:
    values = option_values(variant, extra)
    names = sorted(values)
    return [
        dict(zip(names, combo, strict=True))
        for combo in itertools.product(*(values[n] for n in names))
    ]


def _scenario(
    variant: Variant,
    seed: int,
    grid: Sequence[Mapping[str, object]],
    extra: Mapping[str, Sequence[object]] | None,
) -> _Scenario:
    """The scenario of ``seed``: the option combination ``seed`` indexes in
    ``grid``, other options picked at random (again if the variant rejects
    them, see :meth:`~spades_core.Variant.check_rules`), game seed, dealer."""
    rnd = random.Random(seed)
    combination = dict(grid[seed % len(grid)]) if grid else {}
    options = combination
    for _ in range(10):
        options = dict(combination)
        for name, spec in variant.option_specs.items():
            if name in options or rnd.random() < 0.5:
                continue
            known, value = pick_option_value(name, spec, rnd, extra)
            if known:
                options[name] = value
        if accepts_options(variant, options):
            break
    else:
        options = combination
    return _Scenario(
        seed=seed,
        options=options,
        game_seed=rnd.getrandbits(64),
        dealer=rnd.choice((None, *SEATS)),
        explicit_deals=rnd.random() < 0.3,
        playable=accepts_options(variant, options),
    )


def _describe(game: Game, steps: int, options: Mapping[str, object]) -> str:
    return (
        f"hand {game.hand_number}, {game.phase.name}, after {steps} actions, "
        f"options {dict(options)!r}"
    )


def _play_scenario(variant: Variant, scenario: _Scenario, *, hands: int, thorough: bool) -> None:
    if not scenario.playable:
        return
    options = scenario.options
    game = guard(
        "definition",
        f"new_game(seed={scenario.game_seed}, dealer={scenario.dealer}, **{options!r})",
        lambda: new_game(variant, seed=scenario.game_seed, dealer=scenario.dealer, **options),
    )
    start = game
    if thorough:
        again = guard(
            "same_seed",
            "new_game with the same seed",
            lambda: new_game(variant, seed=scenario.game_seed, dealer=scenario.dealer, **options),
        )
        if again != start:
            fail("same_seed", "two new games with the same seed and options differ")
    choices = random.Random(scenario.seed)
    probes = random.Random(scenario.seed ^ 0x5EED)
    actions: list[Action] = []
    phase_seen: set[tuple[int, Phase]] = set()
    record_at = probes.randrange(1, 57 * hands)
    steps = 0
    try:
        while not game.is_over and game.hand_number < hands:
            new_phase = (game.hand_number, game.phase) not in phase_seen
            phase_seen.add((game.hand_number, game.phase))
            if game.phase is Phase.DEAL:
                check_game(game)
            elif thorough:
                check_game(game, finished_hands=False)
            if thorough:
                check_legal_actions_apply(game)
                if new_phase or probes.random() < 0.04:
                    check_illegal_actions(game)
                    check_views(game)
                if steps == record_at:
                    check_record(game)
            if game.phase is Phase.DEAL and scenario.explicit_deals:
                action: Action = random_deal(choices)
            else:
                legal = guard("legal_actions", "legal_actions()", game.legal_actions)
                if not legal:
                    fail("legal_actions", f"no legal action in the {game.phase.name} phase")
                action = legal[choices.randrange(len(legal))]
            ends_hand = len(game.tricks) == 12 and len(game.current_trick) == 3
            if not thorough and ends_hand and isinstance(action, Play):
                check_scoring_hooks(game, action)
            game = guard(
                "legal_actions", f"applying the legal {action!r}", partial(game.apply, action)
            )
            actions.append(action)
            steps += 1
        check_game(game)
        check_illegal_actions(game)
        if game.is_over == (game.phase is not Phase.GAME_OVER) or (
            not game.is_over and game.legal_actions() != (DEAL_FROM_SEED,)
        ):
            fail("game_end", f"after {game.hand_number} hands the game is neither over nor dealing")
        if thorough:
            check_views(game)
            check_record(game)
            replay = start
            for number, action in enumerate(actions):
                replay = guard(
                    "same_seed",
                    f"replaying action {number} ({action!r})",
                    partial(replay.apply, action),
                )
            if replay != game:
                fail(
                    "same_seed", "replaying the same actions from the same seed gives another game"
                )
    except ConformanceError as error:
        raise error.located(
            variant_id=variant.id, seed=scenario.seed, where=_describe(game, steps, options)
        ) from error.__cause__


def _check_definition(variant: Variant) -> None:
    if not isinstance(variant, Variant):
        fail("definition", f"{variant!r} is not a spades_core.Variant")
    rules = guard("definition", "rules()", variant.rules)
    for name in variant.option_specs:
        if name not in variant.defaults:
            fail("definition", f"option {name!r} has no default")
    if rules.overrides:
        fail("definition", "rules() with no overrides reports overrides")
    game = guard("definition", "new_game", lambda: new_game(variant, seed=0))
    if game.variant is not variant or game.rules != rules:
        fail("definition", "a new game does not keep the variant and its default rules")


def check_variant(
    variant: Variant | str,
    *,
    max_examples: int = 25,
    hands: int = 2,
    seed: int | None = None,
    combinations: bool = True,
    extra_option_values: Mapping[str, Sequence[object]] | None = None,
) -> None:
    """Run the conformance suite on ``variant`` (a :class:`~spades_core.Variant`
    or an installed variant's id); raise :class:`ConformanceError` on the
    first failure, naming the check and the seed that reproduces it.

    * ``max_examples`` random scenarios (drawn by Hypothesis, so its settings
      profile decides whether they are derandomized) each play up to ``hands``
      hands with random legal actions and every check at every step;
    * with ``combinations`` (the default), one hand is also played under every
      combination of the variant's listable options (see
      :func:`~spades_core.testing.strategies.option_values`), checking the
      state at every deal and the end;
    * ``seed`` replays only the scenario of that seed (from a failure message);
    * ``extra_option_values`` lists values to try for options the variant
      defines itself (otherwise they keep their defaults).

    Each scenario's options, game seed, dealer and choices follow from its seed.
    """
    if isinstance(variant, Variant):
        chosen = variant
    else:
        try:
            chosen = guard("definition", "load_variant", partial(load_variant, variant))
        except ConformanceError as error:
            raise error.located(variant_id=str(variant), seed=None, where="") from error.__cause__
    try:
        _check_definition(chosen)
    except ConformanceError as error:
        raise error.located(
            variant_id=getattr(chosen, "id", repr(chosen)), seed=None, where=""
        ) from error.__cause__
    grid = _grid(chosen, extra_option_values)
    if seed is not None:
        _play_scenario(
            chosen, _scenario(chosen, seed, grid, extra_option_values), hands=hands, thorough=True
        )
        return
    if combinations:
        played = 0
        for index in range(max(len(grid), 1)):
            scenario = _scenario(chosen, index, grid, extra_option_values)
            played += scenario.playable
            _play_scenario(chosen, scenario, hands=1, thorough=False)
        if not played:
            raise ConformanceError(
                "definition",
                "the variant rejects every combination of its listable options",
                variant_id=chosen.id,
            )

    if max_examples < 1:
        return

    @settings(
        max_examples=max_examples,
        deadline=None,
        database=None,
        phases=(HypothesisPhase.explicit, HypothesisPhase.generate),
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.integers(0, 2**32 - 1))
    def scenario_passes(scenario_seed: int) -> None:
        _play_scenario(
            chosen,
            _scenario(chosen, scenario_seed, grid, extra_option_values),
            hands=hands,
            thorough=True,
        )

    scenario_passes()
