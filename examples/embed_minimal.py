"""A whole game of Mirror Spades between four bots, one line per hand.

python examples/embed_minimal.py
"""

from __future__ import annotations

import spades_core as sc


def main(seed: int = 2024) -> sc.Game:
    """Play a seeded Mirror game to the end and print every hand's result."""
    game = sc.new_game("mirror", seed=seed)
    players = [sc.bots.make("normal", seed=seed + seat) for seat in range(4)]
    while not game.is_over:
        game = sc.bots.play_game(game, players, hands=1)
        hand = game.hand_results[-1]
        bids = " ".join(f"{seat.letter}:{hand.bids[seat]}" for seat in sc.Seat)
        won = " ".join(f"{seat.letter}:{hand.tricks[seat]}" for seat in sc.Seat)
        print(
            f"hand {hand.number + 1:2}  bids {bids}  tricks {won}  "
            f"NS {hand.points[sc.Team.NS]:+4} = {hand.scores[sc.Team.NS]:4}  "
            f"EW {hand.points[sc.Team.EW]:+4} = {hand.scores[sc.Team.EW]:4}"
        )
    assert game.winner is not None
    print(f"{game.winner.name} wins.")
    return game


if __name__ == "__main__":
    main()
