"""The id-level API (spades_core.encoding) for a variant with phases: ids
66-119 of passes, Blind Nil and look, masks of 120 entries, agreeing with
``Game.legal_mask`` and ``Game.legal_actions`` over whole seeded games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import spades_core as sc
from envs_support import TOURNAMENT_PLUGIN, example_plugin_installed
from spades_core import encoding

MODULE = "spades_variant_tournament"


@pytest.fixture
def tournament(tmp_path: Path) -> Iterator[sc.Variant]:
    """The plugin, installed for the test."""
    with example_plugin_installed(tmp_path / "site", TOURNAMENT_PLUGIN, MODULE):
        yield sc.load_variant("tournament")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ids_follow_the_engine_through_phases(tournament: sc.Variant, seed: int) -> None:
    rng = random.Random(seed)
    game = sc.new_game("tournament", seed=seed, blind_nil_margin=0)
    seen_phase_ids = set()
    for _ in range(400):
        if game.is_over:
            break
        mask = encoding.legal_mask(game)
        assert mask == game.legal_mask()
        ids = encoding.legal_ids(game)
        assert ids == tuple(n for n, flag in enumerate(mask) if flag)
        if not ids:
            game = game.deal()
            continue
        chosen = rng.choice(ids)
        action = encoding.action_from_id(game, chosen)
        assert encoding.action_id(action) == chosen
        if chosen >= encoding.NUM_ACTIONS:
            seen_phase_ids.add(chosen)
        game = game.apply(action)
    assert seen_phase_ids
    with pytest.raises(sc.IllegalActionError):
        encoding.action_from_id(game, 120)
