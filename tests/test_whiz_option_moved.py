"""``whiz_nil_needs_no_ace`` became Whiz's own option: records and pickles
written while it was a standard option still load and play the same.

``tests/data/games-before-whiz-option-moved.pickle`` was written by the
engine just before the move: a Whiz game with the ace rule on (seed 21,
target 300, nine random actions of ``random.Random(3)`` after the deal), its
rules and North's view of it; a Whiz game with the rule off (seed 23, two
actions of ``random.Random(4)``); and a Classic game (seed 22,
``max_team_bid=9``, seven actions of ``random.Random(5)``).
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import spades_core as sc
from spades_core.values.options import STANDARD_OPTIONS
from spades_variants.whiz import WHIZ_NIL_NEEDS_NO_ACE

DATA = Path(__file__).resolve().parent / "data"
OLD = pickle.loads((DATA / "games-before-whiz-option-moved.pickle").read_bytes())


def replayed(variant: str, seed: int, choices: int, steps: int, **options: Any) -> sc.Game:
    """The game the pickle holds, played again by today's engine."""
    rnd = random.Random(choices)
    game = sc.new_game(variant, seed=seed, **options).deal()
    for _ in range(steps):
        game = game.apply(rnd.choice(game.legal_actions()))
    return game


def test_the_option_is_whizs_own() -> None:
    assert "whiz_nil_needs_no_ace" not in STANDARD_OPTIONS
    assert sc.load_variant("whiz").option_specs["whiz_nil_needs_no_ace"] is WHIZ_NIL_NEEDS_NO_ACE
    assert not hasattr(sc.Rules(), "whiz_nil_needs_no_ace")


def test_a_whiz_game_pickled_with_the_ace_rule_loads_equal_and_plays_on() -> None:
    loaded = OLD["whiz"]
    again = replayed("whiz", 21, 3, 9, target_score=300, whiz_nil_needs_no_ace=True)
    assert loaded == again
    assert loaded.rules.get(WHIZ_NIL_NEEDS_NO_ACE) is True
    assert loaded.rules.overrides_json() == {"target_score": 300, "whiz_nil_needs_no_ace": True}
    assert loaded.legal_actions() == again.legal_actions()
    rnd_a, rnd_b = random.Random(8), random.Random(8)
    while not loaded.is_over and loaded.hand_number < 2:
        loaded = loaded.apply(rnd_a.choice(loaded.legal_actions()))
        again = again.apply(rnd_b.choice(again.legal_actions()))
    assert loaded == again


def test_pickled_rules_and_views_keep_the_rule() -> None:
    rules = OLD["whiz_rules"]
    assert rules == sc.load_variant("whiz").rules(target_score=300, whiz_nil_needs_no_ace=True)
    view = OLD["whiz_view"]
    assert view.rules.get(WHIZ_NIL_NEEDS_NO_ACE) is True
    assert view.hand() == OLD["whiz"].hand(sc.Seat.NORTH)


def test_games_that_never_set_it_load_with_todays_rules() -> None:
    plain_whiz = OLD["plain_whiz"]
    assert plain_whiz == replayed("whiz", 23, 4, 2)
    assert plain_whiz.rules.get(WHIZ_NIL_NEEDS_NO_ACE) is False
    classic = OLD["classic"]
    assert classic == replayed("classic", 22, 5, 7, max_team_bid=9)
    assert classic.rules.extra == ()


def test_records_naming_it_load_and_replay() -> None:
    game = replayed("whiz", 5, 1, 30, whiz_nil_needs_no_ace=True)
    text = sc.dumps(game)
    assert '"whiz_nil_needs_no_ace":true' in text.replace(" ", "")
    loaded = sc.loads(text)
    assert loaded == game
    assert loaded.rules.get(WHIZ_NIL_NEEDS_NO_ACE) is True
