"""Seeded games at the web app's table, printed: one JSON line per game with
its record and a digest of every state message South was sent.

You (South) play the coach's move each turn and ask for each next hand, the
other seats are seeded bots of every level. test_web_app_pyodide.py runs this
script with CPython and with Pyodide in Node, as the app's worker runs it;
the two outputs must be the same bytes.

    python tests/web_app_selfplay.py
"""

from __future__ import annotations

import hashlib
import json

import spades_core as sc
from local_table import LocalTable

VARIANTS = ("classic", "mirror", "whiz")
CASES = (
    # (seed, the bots in N, E, W, hands)
    (11, ("hard", "normal", "easy"), 1),
    (12, ("random", "easy", "normal"), 3),
)


def play(variant: str, seed: int, levels: tuple[str, str, str], hands: int) -> dict[str, str]:
    """One game's record and the digest of South's state messages."""
    seats = (sc.Seat.NORTH, sc.Seat.EAST, sc.Seat.WEST)
    players = {sc.Seat.SOUTH: "person", **dict(zip(seats, levels, strict=True))}
    seeds = {seat: seed * 10 + seat for seat in seats}
    table = LocalTable(sc.new_game(variant, seed=seed), players, coach=True, seeds=seeds)
    digest = hashlib.sha256()
    while len(table.game.hand_results) < hands and not table.game.is_over:
        if table.bot_due():
            table.bot_step()
            continue
        text = table.state()
        digest.update(text.encode())
        state = json.loads(text)
        message: dict[str, object]
        if state["phase"] == "DEAL":
            message = {"type": "next"}
        elif isinstance(state["coach"]["action"], int):
            message = {"type": "bid", "value": state["coach"]["action"]}
        else:
            message = {"type": "play", "card": state["coach"]["action"]}
        refusal = table.receive(json.dumps(message))
        assert refusal is None, refusal
    digest.update(table.state().encode())
    return {
        "variant": variant,
        "hands": str(hands),
        "record": table.record(),
        "states": digest.hexdigest(),
    }


def main() -> None:
    """Print every case of every variant."""
    for variant in VARIANTS:
        for seed, levels, hands in CASES:
            print(json.dumps(play(variant, seed, levels, hands), sort_keys=True))


if __name__ == "__main__":
    main()
