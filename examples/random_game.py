"""Play a whole game of classic Spades with random legal moves and print it.

Every bid and card is drawn at random from ``game.legal_actions()``, using a
generator seeded like the game itself, so a seed always prints the same game::

    python examples/random_game.py            # the default seed
    python examples/random_game.py --seed 7   # another game

For each hand it prints the bids, the tricks won, each team's points for the
hand, running score and bags; then the winner.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

import spades_core as sc

DEFAULT_SEED = 2024


def play_random_game(seed: int) -> sc.Game:
    """A classic game played to the end, every action chosen at random."""
    chooser = random.Random(seed)
    game = sc.new_game("classic", seed=seed)
    while not game.is_over:
        game = game.apply(chooser.choice(game.legal_actions()))
    return game


def _by_seat(values: sc.SeatMap[int], *, nil: bool = False) -> str:
    return "  ".join(
        f"{seat.letter} {'Nil' if nil and values[seat] == 0 else values[seat]:>3}"
        for seat in sc.Seat
    )


def describe_hand(result: sc.HandResult) -> list[str]:
    """The lines printed for one finished hand."""
    lines = [
        f"Hand {result.number + 1} (dealer {result.dealer.name.title()})",
        f"  bids    {_by_seat(result.bids, nil=True)}",
        f"  tricks  {_by_seat(result.tricks)}",
    ]
    for team in sc.Team:
        lines.append(
            f"  {team.name}  {result.points[team]:+5d} → {result.scores[team]:5d}"
            f"   bags {result.bags[team]}"
        )
    return lines


def describe_game(game: sc.Game) -> list[str]:
    """Every line the example prints for a finished game."""
    lines = [
        f"{game.variant.title}, seed {game.seed}, first dealer {game.first_dealer.name.title()}",
        "Every bid and card is drawn at random from the legal ones (no strategy),",
        "so the bids are wild; `spades watch` shows bots playing to win.",
        "",
    ]
    for result in game.hand_results:
        lines += [*describe_hand(result), ""]
    winner = game.winner
    assert winner is not None, "describe_game needs a finished game"
    loser = winner.opponent
    hands = len(game.hand_results)
    lines.append(
        f"Winner: {winner.name}, {game.scores[winner]} to {game.scores[loser]}, "
        f"after {hands} hand{'s' if hands > 1 else ''}"
    )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, play the game and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the game's seed")
    args = parser.parse_args(argv)
    try:
        game = play_random_game(args.seed)
    except sc.SpadesError as error:
        parser.error(str(error))
    print("\n".join(describe_game(game)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
