"""How a game UI drives spades-core: views, legal actions, a human, bots,
coach tips, and saving and resuming.

You sit South in a game of Whiz Spades against three bots. At each of your
turns the program shows what your seat may see (its view), the legal actions
numbered from 1, and the coach's tip; type a number, or press Enter to take
the tip. The game is saved after every action; after the first hand it is
loaded back from the save file, as a UI would after a restart, and play goes
on from there.

    python examples/embed_game_loop.py            # type your moves
    python examples/embed_game_loop.py --auto     # the coach plays for you

When standard input ends (a pipe, a script), the coach plays the remaining
moves, so the example also runs unattended.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import spades_core as sc


def describe(action: sc.Action) -> str:
    """An action as a UI would label its button."""
    if isinstance(action, sc.Bid):
        return f"bid {action}"
    if isinstance(action, sc.Play):
        return f"play {action.card.symbol}"
    return "deal"


class ConsoleHuman:
    """A :class:`spades_core.bots.Player` that asks a person at the console.

    Like a bot, it is handed only its own seat's view, never the game.
    """

    def __init__(self, *, auto: bool, read: Callable[[str], str] = input) -> None:
        self.auto = auto
        self.read = read

    def choose(self, view: sc.views.View) -> sc.Action:
        """Show the view, the legal actions and a tip; return the chosen action."""
        tip = sc.coach(view)
        trick = ", ".join(f"{seat.name.title()} {card.symbol}" for seat, card in view.current_trick)
        print(f"\n[{view.seat.name.title() if view.seat else '?'}] hand {view.hand_number + 1}")
        print("  your cards: " + " ".join(card.symbol for card in view.hand()))
        print("  bids so far: " + str({s.letter: b for s, b in view.bids.items() if b is not None}))
        if trick:
            print("  this trick: " + trick)
        for number, action in enumerate(view.legal_actions(), start=1):
            print(f"  {number:2}) {describe(action)}")
        print(f"  coach: {describe(tip.action)} - {tip.reason}")
        while not self.auto:
            try:
                answer = self.read("  your choice [Enter = coach]: ").strip()
            except EOFError:
                self.auto = True  # no more input: let the coach finish the game
                break
            if not answer:
                return tip.action
            if answer.isdigit() and 1 <= int(answer) <= len(view.legal_actions()):
                return view.legal_actions()[int(answer) - 1]
            print(f"  type a number from 1 to {len(view.legal_actions())}")
        return tip.action


def play_hands(
    game: sc.Game, players: dict[sc.Seat, sc.bots.Player], hands: int, save_to: Path
) -> sc.Game:
    """Play ``hands`` more hands (or to the end), saving after every action."""
    stop_at = len(game.hand_results) + hands
    while not game.is_over and len(game.hand_results) < stop_at:
        if game.phase is sc.Phase.DEAL:
            game = game.deal()
            continue
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)  # everything this seat may know, nothing more
        action = players[seat].choose(view)
        if seat is not sc.Seat.SOUTH:
            print(f"{seat.name.title()} chose: {describe(action)}")
        finished = len(game.hand_results)
        game = game.apply(action, seat=seat)
        save_to.write_text(sc.dumps(game), encoding="utf-8")
        if len(game.hand_results) > finished:
            result = game.hand_results[-1]
            points = ", ".join(f"{team.name} {result.points[team]:+d}" for team in sc.Team)
            print(f"Hand {result.number + 1} over: {points}")
    return game


def main(argv: Sequence[str] | None = None) -> int:
    """Play two hands of Whiz, saving, reloading and resuming in between."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--auto", action="store_true", help="let the coach choose your moves")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    players: dict[sc.Seat, sc.bots.Player] = {
        sc.Seat.NORTH: sc.bots.make("normal", seed=args.seed + 1),
        sc.Seat.EAST: sc.bots.make("easy", seed=args.seed + 2),
        sc.Seat.SOUTH: ConsoleHuman(auto=args.auto),
        sc.Seat.WEST: sc.bots.make("easy", seed=args.seed + 3),
    }
    with tempfile.TemporaryDirectory() as folder:
        save_file = Path(folder) / "game.json"
        game = sc.new_game("whiz", seed=args.seed)
        game = play_hands(game, players, 1, save_file)

        # A UI restarting later: read the record back. Loading replays every
        # action through the rules, so a tampered file is rejected.
        resumed = sc.loads(save_file.read_text(encoding="utf-8"))
        assert resumed == game
        print(f"\nSaved and reloaded: {resumed!r}")
        game = play_hands(resumed, players, 1, save_file)

    spectator = game.public_view()  # what a spectator's screen shows: no hands
    scores = ", ".join(f"{team.name} {spectator.scores[team]}" for team in sc.Team)
    print(f"\nAfter {len(game.hand_results)} hands: {scores}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
