"""``spades watch``, ``spades rules`` and ``spades --version``."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from typing import Any

import pytest

import spades_core as sc
from spades_core.cli import main, render
from spades_core.cli.render import Style
from spades_core.cli.rules import format_value, markdown_option_table
from spades_core.rules.hooks import score_breakdown


def test_watch_plays_a_whole_game_trick_by_trick(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["watch", "--variant", "mirror", "--delay", "0", "--seed", "8"]
    status = main([*args, "--option", "target_score=150", "--level", "easy"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.startswith("Mirror Spades: NS (easy) against EW (easy) · seed 8")
    assert "Hand 1, dealt by " in out
    assert re.search(r"^Bids: North \w+, East \w+, South \w+, West \w+$", out, re.MULTILINE)
    tricks = re.findall(r"^Trick +(\d+): ", out, re.MULTILINE)
    assert tricks[:13] == [str(n) for n in range(1, 14)]
    assert len(tricks) % 13 == 0
    hands = len(tricks) // 13
    assert out.count(" scored\n") == hands
    assert re.search(rf"^(NS|EW) wins -?\d+ to -?\d+ after {hands} hands\.$", out, re.MULTILINE)


def test_watch_is_reproducible_and_levels_apply_per_team(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["watch", "--variant", "whiz", "--delay", "0", "--seed", "3", "-o", "target_score=120"]
    outputs = []
    for _ in range(2):
        assert main([*args, "--ns", "normal", "--ew", "random"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("Whiz Spades: NS (normal) against EW (random)")


def test_watch_rejects_a_bad_variant_option_or_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", "--variant", "nope", "--delay", "0"]) == 2
    assert "no variant named 'nope'" in capsys.readouterr().err
    assert main(["watch", "--option", "loss_floor=5", "--delay", "0"]) == 2
    assert "loss_floor" in capsys.readouterr().err
    assert main(["watch", "--level", "genius", "--delay", "0"]) == 2
    assert "genius" in capsys.readouterr().err


@pytest.mark.parametrize("variant_id", ["classic", "mirror", "whiz"])
def test_rules_shows_summary_and_every_option_with_its_default(
    variant_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = sc.load_variant(variant_id)
    assert main(["rules", variant_id]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{variant.title} ({variant_id}, rules version {variant.version})")
    assert " ".join(out.split()).count(" ".join(variant.summary.split())) == 1
    for name, _, default, _ in variant.option_table():
        assert f"\n  {name} = {format_value(default)}\n" in out


def test_rules_markdown_table_and_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "classic", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == markdown_option_table(sc.load_variant("classic"))
    assert "| `loss_floor` | `-200` |" in out
    assert main(["rules", "euchre"]) == 2
    assert "no variant named 'euchre'" in capsys.readouterr().err


def test_version_flag_prints_the_package_version() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "spades_core", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0
    assert completed.stdout.strip() == f"spades-core {sc.__version__}"


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    from spades_core.cli.render import use_colour

    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour(Terminal())  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Terminal())  # type: ignore[arg-type]
    assert Style(colour=True).red("x") == "\x1b[31mx\x1b[0m"
    assert Style(colour=False).red("x") == "x"


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"double_nil": "all_or_nothing", "nil_tricks": "bags_with_points", "bag_overflow": "reset"},
        {"double_nil": "no_loss", "bag_limit": 3},
    ],
)
@pytest.mark.parametrize("variant_id", ["classic", "mirror", "whiz"])
def test_the_hand_report_prints_the_scorings_own_items(
    variant_id: str, options: dict[str, Any]
) -> None:
    """The report shows each item of the scoring's breakdown with its points
    and the hand total, under house rules: it computes no score of its own."""
    plain = Style(colour=False)
    for seed in range(4):
        game = sc.new_game(variant_id, seed=seed, target_score=150, **options)
        chooser = random.Random(seed)
        while not game.is_over and game.hand_number < 4:
            game = game.apply(chooser.choice(game.legal_actions()))
        for number, result in enumerate(game.hand_results):
            text = "\n".join(render.result_lines(game, plain, number))
            breakdown = score_breakdown(game, number)
            for team in sc.Team:
                for item in breakdown.team_items(team):
                    assert f"    {item.label:<52} {plain.points(item.points, 6)}" in text
                assert f"hand {plain.points(result.points[team])} → " in text


def test_colour_adds_escapes_and_nothing_else() -> None:
    """On a terminal the same text is shown, aligned the same way, only coloured."""
    game = sc.new_game("mirror", seed=6)
    game = sc.bots.play_game(game, [sc.bots.make("easy", seed=n) for n in range(4)], hands=2)
    game = game.deal()
    while game.phase is not sc.Phase.PLAY or len(game.current_trick) < 2:
        game = game.apply(game.legal_actions()[-1])
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    legal = sc.CardSet.of(a.card for a in view.legal_actions() if isinstance(a, sc.Play))
    assert len(game.hand_results) == 2

    def table(style: Style) -> list[str]:
        return render.table_lines(view, style, labels={sc.Seat.SOUTH: "you"})

    def hand(style: Style) -> list[str]:
        return render.hand_lines(
            view.hand(), style, legal=legal, numbers=dict.fromkeys(view.hand(), 1)
        )

    def result(style: Style) -> list[str]:
        return render.result_lines(game, style, 1)

    ansi = re.compile(r"\x1b\[[0-9;]*m")
    for make in (table, hand, result):
        coloured, plain = make(Style(colour=True)), make(Style(colour=False))
        assert any(ansi.search(line) for line in coloured)
        assert [ansi.sub("", line) for line in coloured] == plain
