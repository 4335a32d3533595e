"""Reviewing a finished hand against the double-dummy values, and ``spades replay --review``.

``tests/data/review_costly_card.jsonl`` is a hand of Classic (seed 10, North
dealing, every seat bidding 3) played by the solver's best cards but for one:
at trick 3 North plays the K♥ where the J♥ keeps North-South's third trick,
which the contract of six needed. ``review_needless_bag.jsonl`` (seed 3,
every seat bidding 1) has East-West overtake as fourth hand after making
their contract.
"""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

import spades_core as sc
from play_helpers import run_play
from spades_core.analysis.mistakes import Mistake, MistakeKind, review
from spades_core.cli.saves import DATA_DIR_ENV, PlayerConfig
from spades_core.cli.session import PlaySession
from spades_core.tips import after_hand

DATA = Path(__file__).parent / "data"
COSTLY = DATA / "review_costly_card.jsonl"
BAGS = DATA / "review_needless_bag.jsonl"
KNOWN = (
    "Hand 1, trick 3: North played K♥; North-South needed 6 more tricks and could "
    "take 3 with J♥, but only 2 after K♥."
)


def costly_game() -> sc.Game:
    return sc.loads(COSTLY.read_text(encoding="utf-8").strip())


def test_review_finds_the_known_costly_card() -> None:
    mistakes = review(costly_game(), 0)
    assert mistakes == (
        Mistake(
            MistakeKind.COST_TRICKS,
            hand=0,
            trick=3,
            seat=sc.Seat.NORTH,
            card=sc.Card("KH"),
            better=sc.Card("JH"),
            tricks=2,
            best=3,
            needed=6,
        ),
    )
    assert mistakes[0].describe() == KNOWN
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        mistakes[0].trick = 4  # type: ignore[misc]


def test_review_refuses_what_is_not_a_finished_hand() -> None:
    game = costly_game()
    with pytest.raises(sc.ArgumentTypeError, match="a Game"):
        review(None, 0)  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="hand_index must be a whole number"):
        review(game, "0")  # type: ignore[arg-type]
    with pytest.raises(sc.RulesError, match="a finished hand, 0 to 0; got 1"):
        review(game, 1)
    with pytest.raises(sc.RulesError, match="no finished hand"):
        review(sc.new_game("classic", seed=1), 0)


def test_review_finds_the_needless_bags_of_a_hand_played_carelessly() -> None:
    # Classic, seed 3, every seat bidding 1, the cards picked without care:
    # East-West make their two tricks, then overtake as fourth hand twice.
    game = sc.loads(BAGS.read_text(encoding="utf-8").strip())
    mistakes = review(game, 0)
    assert [(m.kind, m.trick, m.seat, m.card, m.better) for m in mistakes] == [
        (MistakeKind.NEEDLESS_BAG, 4, sc.Seat.EAST, sc.Card("KD"), sc.Card("8D")),
        (MistakeKind.NEEDLESS_BAG, 7, sc.Seat.WEST, sc.Card("KS"), sc.Card("8S")),
    ]
    assert mistakes[0].describe() == (
        "Hand 1, trick 4: East played K♦ and took a needless bag: East-West had made its "
        "contract, and 8♦ would have let the trick go."
    )
    played = game.hand_results[0].played
    for bag in mistakes:
        trick = played[bag.trick - 1]
        # The bag was the trick's last card and won it for its team...
        assert trick.plays[3] == (bag.seat, bag.card)
        assert trick.winner.team is bag.seat.team
        # ...after the team had its two tricks.
        made = sum(earlier.winner.team is bag.seat.team for earlier in played[: bag.trick - 1])
        assert made >= 2


def test_spades_replay_review_prints_the_costly_card_in_a_terminal() -> None:
    # A real terminal: replay prints its summary for people there.
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "spades_core", "replay", "--review", str(COSTLY)],
            stdin=subprocess.DEVNULL,
            stdout=follower,
            stderr=subprocess.PIPE,
            timeout=300,
            check=False,
        )
        os.close(follower)
        follower = -1
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    screen = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    assert done.returncode == 0, done.stderr
    assert screen.splitlines() == [
        "line 1: ok — classic, 1 hand played, hand 2 not dealt yet; NS -60, EW 65",
        f"  review: {KNOWN}",
        "1 record: 1 valid, 0 invalid; 1 finished hand in the valid ones",
    ]


def test_spades_replay_review_json_lists_the_mistakes() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spades_core", "replay", "--review", "--json", str(COSTLY)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"review": [{"kind": "cost_tricks", "hand": 1, "trick": 3, "seat": "NORTH"' in (
        done.stdout
    )


def test_spades_play_review_shows_the_costly_card_and_the_coach_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Resumed after its first hand, the game asks South for a bid of hand 2,
    # where 'review' looks back at hand 1 and North's K♥.
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    status, out, err = run_play(
        monkeypatch, capsys, ["--resume", str(COSTLY)], ["review", "review 2", "quit"]
    )
    assert status == 0, err
    lines = out.splitlines()
    start = lines.index("Reviewing hand 1 with every hand seen…")
    assert lines[start + 1 : start + 3] == [
        f"  {KNOWN}",
        "Coach, hand 1 with every hand seen: your side's cards let 1 trick of your contract "
        f"go. The costliest: {KNOWN}",
    ]
    assert "Write 'review' for the last hand, or 'review N' for hand 1 to 1." in out


def test_the_review_between_hands_and_the_coach_for_the_other_side(tmp_path: Path) -> None:
    game = costly_game()
    said = io.StringIO()
    typed = iter(["review", "review 1", "quit"])
    session = PlaySession(
        game,
        PlayerConfig(coach=True, seat=sc.Seat.EAST),
        autosave=tmp_path / "autosave.json",
        out=said,
        read_line=lambda _prompt: next(typed),
        echo_input=False,
        delay=0.0,
        pause_between_hands=True,
    )
    assert session.run() == 0
    words = (
        "Coach, hand 1 with every hand seen: no card of your side cost its contract a trick "
        "or took a needless bag."
    )
    # Both 'review' and 'review 1' name hand 1, the one finished.
    assert said.getvalue().count(f"  {KNOWN}\n{words}\n") == 2


def test_the_coach_counts_the_needless_bags_of_its_side() -> None:
    game = sc.loads(BAGS.read_text(encoding="utf-8").strip())
    mistakes = review(game, 0)
    assert after_hand(mistakes, sc.Seat.WEST, 0) == (
        "Coach, hand 1 with every hand seen: your side's cards took 2 needless bags. "
        f"The costliest: {mistakes[0].describe()}"
    )
    assert [mistake.cost for mistake in mistakes] == [1, 1]
    assert all(mistake.bag for mistake in mistakes)
    costly = review(costly_game(), 0)
    assert [(mistake.bag, mistake.cost) for mistake in costly] == [(False, 1)]
    assert after_hand((), sc.Seat.NORTH, 3).startswith("Coach, hand 4 with every hand seen: no ")


def test_review_before_any_hand_is_finished_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    status, out, err = run_play(monkeypatch, capsys, ["--seed", "3"], ["review", "quit"])
    assert status == 0, err
    assert "No hand has been finished yet: 'review' looks back at a finished hand." in out
