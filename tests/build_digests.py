"""Digests of what the engine computes on fixed seeds, printed as JSON.

``tests/test_compiled_build.py`` runs this file with the interpreter of each
build, the pure-Python install and the compiled one, and requires the same
digests from both: the records of seeded games between bots (every level,
the hard bot at a small fixed budget), multi-hand play-outs, the action ids
along random games, seeded deals, the determinizer's deals and the batch
engine's hands. Run it directly to see them:

    .venv/bin/python tests/build_digests.py
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import attrs

import spades_core as sc
from spades_core.bots import HardBot, make, play_game
from spades_core.engine import encoding
from spades_core.engine.playouts import playout
from spades_core.engine.sampling import determinize
from spades_core.rules import rng

VARIANTS = ("classic", "mirror", "whiz")
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"break_rule": "any_spade", "first_lead": "two_of_clubs"},
    {"nil_tricks": "bags_only", "double_nil": "all_or_nothing", "bag_limit": 5},
)


def _hash(parts: list[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _hands(game: sc.Game) -> str:
    return " ".join(str(game.hand(seat)) for seat in sc.Seat)


def bot_records() -> str:
    """The records of two seeded hands per variant and option set, four bot levels at a table."""
    records = []
    for variant in VARIANTS:
        for number, options in enumerate(OPTION_SETS):
            seed = 17 + number
            players = [
                HardBot(seed, steps=300, bid_steps=300),
                make("normal", seed=seed + 1),
                make("easy", seed=seed + 2),
                make("random", seed=seed + 3),
            ]
            game = play_game(sc.new_game(variant, seed=seed, **options), players, hands=2)
            records.append(sc.dumps(game))
    return _hash(records)


def playouts() -> str:
    """Five-hand random play-outs from new games and from the middle of a trick."""
    records = []
    for variant in VARIANTS:
        for number, options in enumerate(OPTION_SETS):
            start = sc.new_game(variant, seed=100 + number, **options)
            records.append(sc.dumps(playout(start, random.Random(number), hands=5)))
            middle = start.deal()
            chooser = random.Random(number + 50)
            for _ in range(9):  # four bids and five cards: inside the second trick
                middle = middle.apply(chooser.choice(middle.legal_actions()))
            records.append(sc.dumps(playout(middle, chooser, hands=2)))
    return _hash(records)


def action_ids() -> str:
    """The legal action ids of every state of random hands, and the ids chosen."""
    lines = []
    for variant in VARIANTS:
        for number, options in enumerate(OPTION_SETS):
            game = sc.new_game(variant, seed=200 + number, **options).deal()
            chooser = random.Random(number)
            while game.phase in (sc.Phase.BID, sc.Phase.PLAY):
                ids = encoding.legal_ids(game)
                chosen = chooser.choice(ids)
                lines.append(f"{ids} {chosen}")
                game = encoding.after_legal_id(game, chosen)
    return _hash(lines)


def deals() -> str:
    """Seeded deals, from the bulk shuffle and from the engine."""
    lines = [
        str(rng.deal_masks(seed, hand, dealer))
        for seed in range(0, 2**64, 2**58)
        for hand, dealer in ((0, 0), (7, 3))
    ]
    lines += [str(rng.shuffled_deck(seed, 2)) for seed in range(10)]
    lines += [_hands(sc.new_game("classic", seed=seed).deal()) for seed in range(20)]
    return _hash(lines)


def determinized() -> str:
    """Deals the determinizer draws for views in the middle of random hands."""
    lines = []
    for variant in VARIANTS:
        game = sc.new_game(variant, seed=300).deal()
        chooser = random.Random(3)
        for _ in range(20):
            game = game.apply(chooser.choice(game.legal_actions()))
        seat = game.to_act
        assert seat is not None
        drawer = random.Random(4)
        lines += [_hands(determinize(game.view(seat), drawer)) for _ in range(5)]
    return _hash(lines)


def batch_hands() -> str:
    """The batch engine's hands (random and easy policies), as raw arrays."""
    from spades_core import batch

    parts = []
    for variant in VARIANTS:
        for policy in ("random", "easy"):
            played = batch.play_hands(variant, range(64), policy=policy, rng=5)
            arrays = (getattr(played, field.name) for field in attrs.fields(type(played)))
            parts.append(hashlib.sha256(b"".join(array.tobytes() for array in arrays)).hexdigest())
    return _hash(parts)


def digests() -> dict[str, object]:
    """Every digest, and which build computed them."""
    return {
        "compiled": sc.COMPILED,
        "bot records": bot_records(),
        "playouts": playouts(),
        "action ids": action_ids(),
        "deals": deals(),
        "determinized deals": determinized(),
        "batch hands": batch_hands(),
    }


if __name__ == "__main__":
    json.dump(digests(), sys.stdout, indent=1)
    print()
