"""Read a game record and print each hand: the deal, the bids, every trick
and the score.

    python examples/replay_record.py game.json      # a record (sc.dumps, 'save FILE')
    python examples/replay_record.py games.jsonl    # JSON Lines: one record per line
    python examples/replay_record.py ~/.local/share/spades-core/autosave.json
    python examples/replay_record.py                # records a short bot game first

Every file ``spades replay`` reads is read here too: the autosave of
``spades play`` is a record inside a small wrapper (the players' seats and
levels), and the record is taken out of it. Loading a record replays it
through the engine, so a record that breaks a rule is reported (with the
hand and action) instead of being printed.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import spades_core as sc
from spades_core.cli.saves import SESSION_FORMAT


def read_game(text: str) -> sc.Game:
    """The game of one record, or of the record in an autosave of ``spades play``."""
    document = sc.records.read_json(text)
    if isinstance(document, dict) and document.get("format") == SESSION_FORMAT:
        document = document.get("record")
    return sc.records.from_record(document)


def read_games(text: str, *, json_lines: bool) -> Iterator[sc.Game]:
    """The games in a file's ``text``: one record, or JSON Lines of records."""
    if not json_lines:
        yield read_game(text)
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                yield read_game(line)
            except sc.RecordFormatError as error:
                raise sc.RecordFormatError(
                    f"line {number}: {error}",
                    reason=error.reason,
                    hand=error.hand,
                    action=error.action,
                ) from None


def describe_hand(result: sc.HandResult) -> Iterable[str]:
    """The lines printed for one finished hand."""
    yield f"Hand {result.number + 1}, dealt by {result.dealer.name.title()}"
    for seat in sc.Seat:
        cards = " ".join(card.symbol for card in result.deal[seat])
        bid = "Nil" if result.bids[seat] == 0 else result.bids[seat]
        yield f"  {seat.name.title():<5} bid {bid!s:>3}, took {result.tricks[seat]:>2}: {cards}"
    for number, trick in enumerate(result.played, start=1):
        plays = " ".join(f"{seat.letter}:{card.symbol}" for seat, card in trick.plays)
        yield f"  trick {number:>2}: {plays}  → {trick.winner.name.title()}"
    for team in sc.Team:
        yield (
            f"  {team.name}: {result.points[team]:+d} this hand, "
            f"score {result.scores[team]}, bags {result.bags[team]}"
        )


def describe_game(game: sc.Game) -> Iterable[str]:
    """Every finished hand of ``game``, then where the game stands."""
    options = game.rules.overrides_json()
    yield f"{game.variant.title}" + (f" with {options}" if options else "")
    for result in game.hand_results:
        yield from describe_hand(result)
    if game.winner is not None:
        yield f"{game.winner.name} won."
    else:
        yield f"Game in progress: hand {game.hand_number + 1}, {game.phase.name}."


def sample_record(folder: Path) -> Path:
    """A record of two hands of Mirror between bots, written to ``folder``."""
    game = sc.new_game("mirror", seed=12)
    players = [sc.bots.make("easy", seed=seat) for seat in range(4)]
    game = sc.bots.play_game(game, players, hands=2)
    path = folder / "sample.json"
    path.write_text(sc.dumps(game, indent=1), encoding="utf-8")
    return path


def main(argv: Sequence[str]) -> int:
    """Print the record files named in ``argv`` (or a sample); 1 if one is bad."""
    with tempfile.TemporaryDirectory() as folder:
        paths = [Path(name) for name in argv] or [sample_record(Path(folder))]
        for path in paths:
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as error:
                print(f"{path}: cannot read: {error.strerror}", file=sys.stderr)
                return 1
            try:
                for game in read_games(text, json_lines=path.suffix == ".jsonl"):
                    print("\n".join(describe_game(game)))
            except sc.RecordFormatError as error:
                print(f"{path}: {error}", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
