"""The observations the environments keep up to date one action at a time (a
declared faster twin) equal those built from scratch from each seat's view
(the owner, ``features.observation``), byte for byte, for every seat and the
spectator, over random games, variants and option sets."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from spades_core.engine.encoding import ACTIONS, legal_ids
from spades_core.engine.sampling import knowledge_of
from spades_core.envs import features
from spades_core.envs._tracking import ObservationTracker
from spades_core.rules.knowledge import (
    NO_VIEWER,
    UNKNOWN,
    Knowledge,
    revealed_spades_left,
    seat_knowledge,
)
from spades_core.testing.strategies import option_sets

pytestmark = pytest.mark.integration("batch")

VIEWERS = (None, 0, 1, 2, 3)


def owner(game: sc.Game, seat: int | None) -> np.ndarray:
    view = game.public_view() if seat is None else game.view(sc.Seat(seat))
    return features.observation(view)


def assert_same(tracker: ObservationTracker, game: sc.Game, seats: tuple[int | None, ...]) -> None:
    for seat in seats:
        kept = tracker.observation(game, seat)
        built = owner(game, seat)
        assert kept.dtype == built.dtype
        assert kept.shape == built.shape
        assert kept.tobytes() == built.tobytes(), (game, seat)


@settings(max_examples=25, deadline=None)
@given(
    data=st.data(),
    variant=st.sampled_from(("classic", "mirror", "whiz")),
    seed=st.integers(0, 2**32),
)
def test_every_step_of_random_games_matches_the_views(
    data: st.DataObject, variant: str, seed: int
) -> None:
    options: dict[str, Any] = data.draw(option_sets(variant), label="options")
    rng = random.Random(seed)
    game = sc.new_game(variant, seed=seed, **options)
    tracker = ObservationTracker()
    for _ in range(2):  # two hands: scoring and the next deal are followed too
        assert_same(tracker, game, VIEWERS)
        if game.is_over:
            break
        game = game.deal()
        while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
            # One seat asked at random, as an environment asks for the seat to act;
            # every viewer now and then.
            asked = VIEWERS if rng.random() < 0.2 else (rng.choice(VIEWERS),)
            assert_same(tracker, game, asked)
            game = game.apply(ACTIONS[rng.choice(legal_ids(game))])


def test_games_that_do_not_follow_the_last_one_are_built_afresh() -> None:
    # Two lines of play from one position (as a search explores), jumps back
    # and forth, and a game of another hand: each still matches its views.
    rng = random.Random(5)
    start = sc.new_game("whiz", seed=9).deal()
    lines: list[list[sc.Game]] = []
    for _ in range(2):
        played = [start]
        game = start
        while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
            game = game.apply(ACTIONS[rng.choice(legal_ids(game))])
            played.append(game)
        lines.append(played)
    tracker = ObservationTracker()
    order = [(line, step) for step in range(len(lines[0])) for line in (0, 1)]
    order += [(rng.randrange(2), rng.randrange(len(lines[0]))) for _ in range(200)]
    for line, step in order:
        games = lines[line]
        assert_same(tracker, games[min(step, len(games) - 1)], VIEWERS)


def test_observations_are_new_arrays() -> None:
    tracker = ObservationTracker()
    game = sc.new_game("classic", seed=2).deal()
    first = tracker.observation(game, 0)
    again = tracker.observation(game, 0)
    assert first is not again
    first[:] = 7.0
    assert tracker.observation(game, 0).tobytes() == owner(game, 0).tobytes()


@settings(max_examples=25, deadline=None)
@given(
    data=st.data(),
    variant=st.sampled_from(("classic", "mirror", "whiz")),
    seed=st.integers(0, 2**32),
)
def test_a_tracker_told_of_each_action_matches_the_views(
    data: st.DataObject, variant: str, seed: int
) -> None:
    # The environment's path: it tells the tracker of each bid or card it
    # applied within a hand, and the tracker does not check that one follows.
    options: dict[str, Any] = data.draw(option_sets(variant), label="options")
    rng = random.Random(seed)
    game = sc.new_game(variant, seed=seed, **options).deal()
    tracker = ObservationTracker()
    assert_same(tracker, game, VIEWERS)
    while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
        after = game.apply(ACTIONS[rng.choice(legal_ids(game))])
        if len(after.hand_results) == len(game.hand_results):
            tracker.stepped(game, after)
            # Asked after being told: nothing is built afresh.
            assert tracker._game is after
        game = after
        assert_same(tracker, game, VIEWERS if rng.random() < 0.3 else (rng.choice(VIEWERS),))


def test_a_tracker_told_of_a_step_from_a_game_it_does_not_hold_ignores_it() -> None:
    game = sc.new_game("mirror", seed=5).deal()
    later = game.apply(game.legal_actions()[0])
    tracker = ObservationTracker()
    tracker.stepped(game, later)  # it holds no game yet
    assert tracker._game is None
    assert_same(tracker, later, VIEWERS)


# -- what a seat knows, from the tracker's vectors -------------------------------------------


def knowledge_from_observation(
    vector: np.ndarray, viewer: int | None, rules: sc.Rules
) -> Knowledge:
    """The owner's answer for the seat whose observation ``vector`` is, from
    the vector alone (its hand, the cards each seat played, the suits shown
    out and the revealed spade counts; rows counted from the viewer) and the
    game's rules."""
    me = 0 if viewer is None else viewer

    def cards(bits: np.ndarray) -> int:
        return sum(1 << int(card) for card in np.flatnonzero(bits))

    def seat_of(row: int) -> int:
        return (me + row) % 4

    hand = cards(features.section(vector, "hand"))
    played = [0, 0, 0, 0]
    shown_out = [0, 0, 0, 0]
    counts = [UNKNOWN] * 4
    for row in range(4):
        seat = seat_of(row)
        played[seat] = cards(features.section(vector, "played")[row])
        shown_out[seat] = cards(features.section(vector, "shown_out")[row])
        slot = int(np.flatnonzero(features.section(vector, "spade_count")[row])[0])
        counts[seat] = UNKNOWN if slot == 0 else slot - 1
    everything = played[0] | played[1] | played[2] | played[3]
    holds = [0, 0, 0, 0]
    to_act = np.flatnonzero(features.section(vector, "to_act"))
    playing = features.section(vector, "phase")[features.PHASE_SLOTS[sc.Phase.PLAY]] == 1
    if rules.first_lead is sc.FirstLead.TWO_OF_CLUBS and playing and not everything:
        # The first lead falls to the holder of the 2♣.
        leader = seat_of(int(to_act[0]))
        if leader != viewer:
            holds[leader] = 1
    return seat_knowledge(
        NO_VIEWER if viewer is None else viewer,
        hand,
        ((1 << 52) - 1) & ~everything & ~hand,
        [13 - played[seat].bit_count() for seat in range(4)],
        shown_out,
        revealed_spades_left(counts, played),
        holds,
    )


@settings(max_examples=15, deadline=None)
@given(
    data=st.data(),
    variant=st.sampled_from(("classic", "mirror", "whiz")),
    seed=st.integers(0, 2**32),
)
def test_the_tracked_vectors_carry_what_each_seat_knows(
    data: st.DataObject, variant: str, seed: int
) -> None:
    """The tracker keeps the facts the owner of what a seat knows reads: at
    every step of random hands, the knowledge worked out from a seat's tracked
    vector is the owner's from the seat's view."""
    options: dict[str, Any] = data.draw(option_sets(variant), label="options")
    rng = random.Random(seed)
    game = sc.new_game(variant, seed=seed, **options).deal()
    tracker = ObservationTracker()
    while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
        for seat in VIEWERS:
            view = game.public_view() if seat is None else game.view(sc.Seat(seat))
            kept = knowledge_from_observation(tracker.observation(game, seat), seat, game.rules)
            owner_knows = knowledge_of(view)
            assert kept.may_hold == owner_knows.may_hold
            assert kept.must_hold == owner_knows.must_hold
            assert kept.spades_left == owner_knows.spades_left
        after = game.apply(ACTIONS[rng.choice(legal_ids(game))])
        if len(after.hand_results) == len(game.hand_results):
            tracker.stepped(game, after)
        game = after
