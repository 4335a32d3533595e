"""Games, views and results pickle, so they can be sent to worker processes:
installed variants travel by id and derived ones as their derivation, and an
unpickled game equals the original and plays on the same way."""

from __future__ import annotations

import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

import spades_core as sc
from spades_core.engine.playouts import playout
from spades_variants.classic import ClassicVariant
from variant_doubles import like_classic

VARIANTS = ["classic", "mirror", "whiz"]


def after(game: sc.Game, steps: int, seed: int) -> sc.Game:
    """``game`` after ``steps`` random checked actions."""
    chooser = random.Random(seed)
    for _ in range(steps):
        game = game.apply(chooser.choice(game.legal_actions()))
    return game


def round_trip(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("steps", [0, 1, 3, 5, 30, 57])
def test_a_game_round_trips_equal_and_plays_on_the_same(variant: str, steps: int) -> None:
    game = after(sc.new_game(variant, seed=11, first_lead="two_of_clubs"), steps, steps)
    loaded = round_trip(game)
    assert loaded == game
    assert hash(loaded) == hash(game)
    assert loaded.variant is game.variant
    assert loaded.legal_actions() == game.legal_actions()
    assert after(loaded, 20, 1) == after(game, 20, 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_finished_hands_round_trip_with_their_tricks(variant: str) -> None:
    game = playout(sc.new_game(variant, seed=5), random.Random(5), hands=3)
    game.hand_results[0].played  # noqa: B018  # one result with its tricks built, two without
    loaded = round_trip(game)
    assert loaded == game
    for mine, theirs in zip(loaded.hand_results, game.hand_results, strict=True):
        assert mine.played == theirs.played
        assert mine.summary() == theirs.summary()


def test_views_round_trip_equal() -> None:
    game = after(sc.new_game("mirror", seed=3), 20, 2)
    for seat in (*sc.Seat, None):
        view = game.view(seat) if seat is not None else game.public_view()
        assert round_trip(view) == view


def test_a_derived_variant_is_rebuilt_from_its_derivation() -> None:
    mirror = sc.load_variant("mirror")
    short = mirror.derive(id="short-mirror", title="Short Mirror", target_score=200)
    shorter = short.derive(id="shorter-mirror", bag_limit=5)
    loaded = round_trip(sc.new_game(shorter, seed=4))
    variant = loaded.variant
    assert type(variant) is type(mirror)
    assert (variant.id, variant.title) == ("shorter-mirror", "Short Mirror")
    assert variant.defaults == shorter.defaults
    assert loaded.rules == shorter.rules()
    assert loaded.rules.target_score == 200
    assert loaded.rules.bag_limit == 5


def test_derive_leaves_the_installed_variant_alone() -> None:
    classic = sc.load_variant("classic")
    defaults = dict(classic.defaults)
    derived = classic.derive(id="quick", target_score=100)
    assert derived is not classic
    assert "_derivation" not in vars(classic)
    assert dict(classic.defaults) == defaults
    assert round_trip(classic) is classic


def test_a_variant_that_is_not_installed_says_how_to_make_it_picklable() -> None:
    stray = like_classic(ClassicVariant, "stray")
    with pytest.raises(TypeError, match=r"'stray' cannot be pickled.*entry-point.*derive"):
        pickle.dumps(sc.new_game(stray, seed=1))


def one_hand(game: sc.Game) -> sc.Game:
    return playout(game, random.Random(9))


def test_a_worker_process_plays_a_pickled_game() -> None:
    start = sc.new_game("whiz", seed=21)
    with ProcessPoolExecutor(max_workers=1) as pool:
        remote = pool.submit(one_hand, start).result(timeout=60)
    assert remote == one_hand(start)
    assert remote.variant is start.variant
