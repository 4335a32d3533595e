"""The command line as a newcomer meets it: the README's commands, messages
that name the command as it was started, a readable ``spades play`` (pauses,
echoes, stable card numbers, ``last`` and ``score``, the board's notation,
one format for refused bids, long lines wrapped to a terminal's width), names
in any case, refused negative delays and quiet exits into ``| head``."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import spades_core as sc
from play_helpers import private_data_dir, run_play  # noqa: F401 (the `data` fixture)
from spades_core.cli import build_parser, command_name, level_name, main, play, variant_name
from spades_core.cli.commands import card_numbers, read_bid
from spades_core.cli.saves import AUTOSAVE_NAME, DATA_DIR_ENV

ROOT = Path(__file__).resolve().parents[1]
ALL_NUMBERS = [str(n) for n in range(14)]


# -- the README ----------------------------------------------------------------------


def readme_commands() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n(.*?)```", text, flags=re.S)
    commands = []
    for block in blocks:
        for line in block.splitlines():
            command = line.split("#", 1)[0].strip()
            if command:
                commands.append(shlex.split(command))
    return commands


def test_every_readme_command_exists_as_written() -> None:
    commands = readme_commands()
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z-]+):", makefile, flags=re.M))
    spades = [words for words in commands if words[0] == "spades"]
    assert (
        {"make", "spades"}
        <= {words[0] for words in commands}
        <= {"make", "spades", "python", "pip"}
    )
    assert len(spades) >= 7
    for words in commands:
        if words[0] == "make":
            assert words[1] in targets, words
            continue
        if words[0] != "spades":
            continue  # run by tests/test_readme_commands.py
        try:
            args = build_parser().parse_args(words[1:])
        except SystemExit:
            pytest.fail(f"the README's {' '.join(words)!r} is not a valid command")
        assert args.command == words[1]


def test_make_run_says_how_to_put_the_commands_on_the_path() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "source .venv/bin/activate" in readme
    assert 'export PATH="$PWD/.venv/bin:$PATH"' in readme
    run_recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "activate" in run_recipe
    assert "PATH" in run_recipe
    assert "make play" in run_recipe
    play_recipe = makefile.split("\nplay:", 1)[1].split("\n\n", 1)[0]
    assert "spades play $(ARGS)" in play_recipe
    # The demo shows bots, not random moves, and says so.
    assert "spades watch" in run_recipe
    assert "random_game" not in run_recipe


def test_the_random_example_says_its_moves_are_random() -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-W",
            "error::DeprecationWarning",
            str(ROOT / "examples" / "random_game.py"),
            "--seed",
            "3",
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=True,
    )
    assert "drawn at random from the legal ones" in completed.stdout.splitlines()[1]


# -- how the command was started -------------------------------------------------------


def test_command_name_follows_how_the_program_was_started(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "argv", [str(Path(sc.__file__).parent / "__main__.py"), "play"])
    assert command_name() == "python -m spades_core"
    script = tmp_path / "bin" / "spades"
    script.parent.mkdir()
    script.write_text("", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", [str(script), "play"])
    monkeypatch.setenv("PATH", "")
    assert command_name() == str(script)
    monkeypatch.setenv("PATH", str(script.parent))
    script.chmod(0o755)
    assert command_name() == "spades"
    monkeypatch.setattr(sys, "argv", ["spades", "play"])
    assert command_name() == "spades"


def test_another_programs_main_module_names_the_installed_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # As under python -m pytest: the main module is another package's.
    other = tmp_path / "other_tool" / "__main__.py"
    monkeypatch.setattr(sys, "argv", [str(other), "play"])
    assert command_name() == "spades"
    monkeypatch.setattr(sys, "argv", ["-c", "play"])
    assert command_name() == "python -m spades_core"


def test_the_exit_message_repeats_the_command_as_it_was_started(tmp_path: Path) -> None:
    env = {DATA_DIR_ENV: str(tmp_path), "PYTHONIOENCODING": "utf-8", "PATH": ""}
    completed = subprocess.run(
        [sys.executable, "-m", "spades_core", "play", "--seed", "2"],
        input="quit\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Continue later with: python -m spades_core play --continue" in completed.stdout


# -- spades play -------------------------------------------------------------------------


def test_on_a_terminal_play_waits_for_enter_before_the_next_deal(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(play, "_is_terminal", lambda stream: True)
    script = ["3", *ALL_NUMBERS * 13]
    args = ["--seed", "11", "-o", "target_score=5000", "-o", "loss_floor=none"]
    status, out, _ = run_play(monkeypatch, capsys, args, script)
    assert status == 0
    scored = out.index("Hand 1 scored")
    pause = out.index("Press Enter to deal the next hand", scored)
    assert out.index("Hand 2: ", scored) > pause


def test_on_a_terminal_play_wraps_long_lines_at_its_width(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def read_line(prompt: str) -> str:
        # The prompt is left out: input() writes it with no line break after it.
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    monkeypatch.setattr(play, "_is_terminal", lambda stream: True)
    monkeypatch.setattr(play, "_input_line", read_line)
    outputs = {}
    for columns in (36, 500):
        monkeypatch.setenv("COLUMNS", str(columns))
        monkeypatch.setenv(DATA_DIR_ENV, str(data / str(columns)))  # each a new game
        status, out, _ = run_play(monkeypatch, capsys, ["--seed", "11"], ["help", "hint", "quit"])
        assert status == 0
        outputs[columns] = out
    narrow, wide = outputs[36].splitlines(), outputs[500].splitlines()
    assert max(map(len, wide)) > 60  # the help and the coach's sentence are long lines
    assert max(map(len, narrow)) <= 36
    # Only the line breaks differ: every word is there, in order.
    assert outputs[36].split() == outputs[500].split()
    coach = next(number for number, line in enumerate(narrow) if line.startswith("Coach: "))
    assert narrow[coach + 1].startswith("  ")  # the sentence goes on, indented


def test_in_a_pipe_play_keeps_long_lines_whole(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "36")
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "11"], ["help", "hint", "quit"])
    assert status == 0
    assert any(line.startswith("Coach: ") and len(line) > 36 for line in out.splitlines())


def test_last_and_score_show_the_previous_trick_and_the_score_by_hand(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--seed", "11", "-o", "target_score=5000", "-o", "loss_floor=none"]
    status, out, _ = run_play(monkeypatch, capsys, args, ["last", "score", "3", "quit"])
    assert status == 0
    assert "No trick has been played yet." in out
    assert "No hand has been scored yet." in out

    script = ["3", *ALL_NUMBERS * 13, "last", "score"]
    status, out, _ = run_play(monkeypatch, capsys, ["--continue"], script)
    assert status == 0
    game, _ = play.read_save(data / play.AUTOSAVE_NAME)
    lines = out.splitlines()
    last = [line for line in lines if re.match(r"Hand \d+, trick \d+: ", line)][-1]
    shown = game.tricks[-1] if game.tricks else game.hand_results[-1].played[-1]
    plays = ", ".join(f"{seat.name.title()} {card.symbol}" for seat, card in shown.plays)
    assert last.endswith(f"{plays} → {shown.winner.name.title()} wins")
    header = lines.index(next(line for line in lines if line.startswith("Hand      NS: points")))
    rows = lines[header + 1 : header + 1 + len(game.hand_results)]
    for row, result in zip(rows, game.hand_results, strict=True):
        cells = row.split()
        assert int(cells[0]) == result.number + 1
        assert [int(cell) for cell in cells[1:]] == [
            result.points[sc.Team.NS],
            result.scores[sc.Team.NS],
            result.bags[sc.Team.NS],
            result.points[sc.Team.EW],
            result.scores[sc.Team.EW],
            result.bags[sc.Team.EW],
        ]


def test_a_card_keeps_its_number_for_the_whole_hand(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "11"], ["3", *ALL_NUMBERS * 4])
    assert status == 0
    seen: dict[str, int] = {}
    hands_shown = 0
    for block in out.split("Your hand (* = you may play it):")[1:]:
        hands_shown += 1
        for line in block.splitlines()[1:5]:
            for number, card in re.findall(r"(\d+) (10|[2-9JQKA])[♠♥♣♦]", line):
                key = line.split()[0] + card
                assert seen.setdefault(key, int(number)) == int(number)
    assert hands_shown >= 3
    assert sorted(seen.values()) == list(range(1, 14))
    game = sc.new_game("classic", seed=11).deal()
    numbers = card_numbers(game.hand(sc.Seat.SOUTH))
    assert sorted(numbers.values()) == list(range(1, 14))


def test_a_played_card_number_is_explained(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "11"], ["3", *ALL_NUMBERS * 3])
    assert status == 0
    assert re.search(r"Card \d+, the (10|[2-9JQKA])[♠♥♣♦], has been played already\.", out)
    assert re.search(r"South \(you\) plays (10|[2-9JQKA])[♠♥♣♦]", out)


def classic_bidding(partner_bid: int) -> sc.Game:
    """A classic game at South's bid, with North (South's partner) having bid."""
    game = sc.new_game("classic", seed=4, dealer=sc.Seat.WEST).deal()
    return game.bid(partner_bid).bid(3)


def test_a_refused_classic_bid_says_the_partnership_cap_and_the_partner_bid() -> None:
    view = classic_bidding(4).view(sc.Seat.SOUTH)
    assert read_bid("13", view) == (
        "You cannot bid 13. In Classic Spades a partnership's bids may total at most 13, and "
        "your partner bid 4, so you may bid Nil or 1-9."
    )


@pytest.mark.parametrize("typed", ["99", "-1", "banana", "3.5", "nil nil"])
def test_every_bad_bid_gets_the_same_message_format(typed: str) -> None:
    view = classic_bidding(4).view(sc.Seat.SOUTH)
    answer = read_bid(typed, view)
    assert isinstance(answer, str)
    assert re.fullmatch(
        r"You cannot bid .+: bids are Nil \(0\) or 1 to 13\. You may bid Nil or 1-9\.", answer
    )
    assert read_bid("nil", view) == sc.Bid.of(0)
    assert read_bid("bid 9", view) == sc.Bid.of(9)


def test_a_refused_mirror_bid_says_it_must_be_the_spade_count() -> None:
    game = sc.new_game("mirror", seed=4).deal()
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    spades = view.hand().count(sc.Suit.SPADES)
    other = 13 if spades != 13 else 12
    answer = read_bid(str(other), view)
    held = f"{spades} spade{'s' if spades != 1 else ''}" if spades else "no spades"
    assert answer == (
        f"You cannot bid {other}. In Mirror Spades your bid is your spade count, and you hold "
        f"{held}, so you must bid {'Nil' if spades == 0 else spades}."
    )


# -- names, delays, pipes --------------------------------------------------------------------


@pytest.mark.slow
def test_variant_and_level_names_are_read_in_any_case(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert variant_name("Classic") == "classic"
    assert variant_name(" WHIZ ") == "whiz"
    assert level_name("Hard") == "hard"
    assert level_name("MEDIUM") == "medium"
    assert level_name("genius") == "genius"  # left for bots.make to refuse
    status, out, _ = run_play(
        monkeypatch, capsys, ["--variant", "Mirror", "--opponents", "Random"], ["quit"]
    )
    assert status == 0
    assert "New game of Mirror Spades" in out
    assert "East and West at level random" in out
    assert main(["rules", "WHIZ"]) == 0
    assert capsys.readouterr().out.startswith("Whiz Spades (whiz")
    assert main(["watch", "--variant", "Classic", "--level", "EASY", "--hands", "1"]) == 0
    assert "Stopped after 1 hand: NS " in capsys.readouterr().out


@pytest.mark.parametrize("command", [["play"], ["watch"]])
@pytest.mark.parametrize("delay", ["-1", "nan", "soon"])
def test_a_negative_or_non_numeric_delay_is_refused(
    data: Path, capsys: pytest.CaptureFixture[str], command: list[str], delay: str
) -> None:
    assert main([*command, "--delay", delay]) == 2
    err = capsys.readouterr().err
    assert "a delay is a number of seconds, 0 or more" in err


@pytest.mark.parametrize(
    "pipeline",
    [
        "{spades} rules whiz | head -1",
        # `true` reads nothing and is gone before Python writes: the pipe is surely closed.
        "{spades} rules whiz | true",
        "{spades} variants | true",
        "{spades} play --seed 3 --delay 0 < {moves} | true",
        "{spades} watch --delay 0 | head -1",
        "{spades} play --seed 3 --delay 0 < {moves} | head -1",
    ],
)
def test_output_into_a_closed_pipe_ends_quietly(tmp_path: Path, pipeline: str) -> None:
    spades = f"{shlex.quote(sys.executable)} -m spades_core"
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(ALL_NUMBERS * 200) + "\n", encoding="utf-8")
    command = pipeline.format(spades=spades, moves=shlex.quote(str(moves)))
    completed = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={DATA_DIR_ENV: str(tmp_path), "PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"},
        timeout=180,
        check=False,
    )
    assert completed.stderr == ""
    assert completed.returncode == 0
    assert len(completed.stdout.splitlines()) == (1 if "head -1" in pipeline else 0)


# -- round two: every word true ------------------------------------------------------------


def test_a_typed_number_is_shown_bare_in_every_refusal_and_other_text_quoted() -> None:
    view = classic_bidding(4).view(sc.Seat.SOUTH)
    # 13 breaks the partnership cap (explained by the variant), 99 and -1 the range of bids:
    # each as typed, unquoted.
    for typed, reason in (
        ("13", ". In Classic Spades a partnership's bids may total at most 13"),
        ("99", ": bids are Nil"),
        ("-1", ": bids"),
    ):
        answer = read_bid(typed, view)
        assert isinstance(answer, str)
        assert answer.startswith(f"You cannot bid {typed}{reason}"), answer
    assert read_bid("bid 99", view) == read_bid("99", view)
    assert str(read_bid("banana", view)).startswith("You cannot bid 'banana': bids are Nil")


def test_a_one_hand_game_says_the_hand_limit_ends_it_not_the_target(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--seed", "5", "-o", "max_hands=1"]
    status, out, _ = run_play(monkeypatch, capsys, args, ALL_NUMBERS * 13 * 3)
    assert status == 0
    headings = [line for line in out.splitlines() if line.startswith("Classic Spades · hand 1")]
    assert headings
    for heading in headings:
        assert heading.endswith("· last hand: the game ends after it (max_hands=1)")
    assert "target 500" not in out
    assert re.search(
        r"^Game over after 1 hand \(the hand limit, max_hands=1\): (NS|EW) \(", out, re.M
    ), out[-400:]
    assert "1 hands" not in out


def test_with_a_hand_limit_further_off_the_heading_gives_every_end(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "5", "-o", "max_hands=3"], ["quit"])
    assert status == 0
    assert "· target 500, loss floor -200, or after hand 3" in out


def seed_of(save: Path) -> int:
    """The seed of the game in a save file."""
    seed = json.loads(save.read_text(encoding="utf-8"))["record"]["seed"]
    assert isinstance(seed, int)
    return seed


def test_new_games_keep_the_last_five_games_that_were_in_progress(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in range(1, 8):
        status, out, _ = run_play(monkeypatch, capsys, ["--seed", str(seed)], ["quit"])
        assert status == 0
    kept = data / "autosave.previous.1.json"
    assert f"The game that was in progress is kept as {kept} (the last 5 are kept)" in out
    assert f"play --resume {kept}" in out
    # Game 7 is in the autosave; 6 to 2 are kept, the most recent first; 1 is gone.
    assert seed_of(data / AUTOSAVE_NAME) == 7
    assert [seed_of(data / f"autosave.previous.{n}.json") for n in range(1, 6)] == [6, 5, 4, 3, 2]
    assert sorted(path.name for path in data.glob("autosave*")) == [
        AUTOSAVE_NAME, *(f"autosave.previous.{n}.json" for n in range(1, 6))
    ]  # fmt: skip

    status, out, _ = run_play(
        monkeypatch, capsys, ["--resume", str(data / "autosave.previous.3.json")], ["quit"]
    )
    assert status == 0
    assert "Resuming the game saved in " in out


def test_continue_names_the_games_kept_and_how_to_take_one_up(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in (1, 2, 3):
        run_play(monkeypatch, capsys, ["--seed", str(seed)], ["quit"])
    status, out, _ = run_play(monkeypatch, capsys, ["--continue"], ["quit"])
    assert status == 0
    assert (
        f"(2 games set aside when new games started are kept in {data}, "
        "autosave.previous.1.json the most recent: take one up with "
    ) in out
    assert "play --resume FILE.)" in out
    (data / AUTOSAVE_NAME).unlink()
    status, _, err = run_play(monkeypatch, capsys, ["--continue"], [])
    assert status == 1
    assert err.startswith(
        f"spades play: there is no game to continue (no {data / AUTOSAVE_NAME}); 2 games"
    )
    assert "play --resume FILE" in err


def test_the_one_previous_game_of_earlier_versions_is_listed_and_never_overwritten(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from spades_core.cli.saves import previous_games

    run_play(monkeypatch, capsys, ["--seed", "1"], ["quit"])
    legacy = data / "autosave.previous.json"
    legacy.write_bytes((data / AUTOSAVE_NAME).read_bytes())
    for seed in range(2, 9):
        run_play(monkeypatch, capsys, ["--seed", str(seed)], ["quit"])
    assert seed_of(legacy) == 1
    assert previous_games(data / AUTOSAVE_NAME)[-1] == legacy
    assert len(previous_games(data / AUTOSAVE_NAME)) == 6
