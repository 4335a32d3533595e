"""Limits that agree: what is written within a limit is read back, and what
a reader would refuse is refused by the writer, up front, instead of being
written and reported as saved."""

from __future__ import annotations

from pathlib import Path

import pytest

import spades_core as sc
from play_helpers import private_data_dir, run_play  # noqa: F401 (the `data` fixture)
from spades_core.cli import saves
from spades_core.cli.saves import (
    AUTOSAVE_NAME,
    MAX_SAVE_BYTES,
    PlayerConfig,
    SaveFileError,
    read_save,
    session_json,
    write_save,
)
from spades_core.engine import records
from spades_variants.classic import ClassicVariant


def played(hands: int) -> sc.Game:
    """A classic game after ``hands`` whole hands of first legal moves, no end in sight."""
    game = sc.new_game("classic", seed=2, target_score=1_000_000, loss_floor=None)
    return sc.playout(game, lambda count: 0, hands=hands)


# -- records -----------------------------------------------------------------------


def test_a_record_holds_as_many_hands_as_loads_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    # Playing 50,001 hands takes minutes, so the limit is lowered to 3; the
    # writer and the reader share it.
    monkeypatch.setattr(records, "MAX_HANDS", 3)
    game = played(3)
    assert game.phase is sc.Phase.DEAL
    assert not game.is_over
    assert sc.loads(sc.dumps(game)) == game
    assert sc.loads(sc.dumps(game, indent=2)) == game
    over = game.deal()  # a fourth hand, in its bidding
    for write in (sc.dumps, records.to_record, lambda g: session_json(g, PlayerConfig())):
        with pytest.raises(sc.RecordFormatError, match="at most 3") as caught:
            write(over)
        assert caught.value.reason == "too_large"
    monkeypatch.setattr(records, "MAX_HANDS", 4)
    assert sc.loads(sc.dumps(over)) == over


def test_a_record_text_is_as_long_as_loads_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    game = played(2).deal().bid(2)
    compact = sc.dumps(game)
    indented = sc.dumps(game, indent=4)
    monkeypatch.setattr(records, "MAX_RECORD_SIZE", len(compact))
    assert sc.loads(compact) == game
    assert sc.loads(compact.encode()) == game
    with pytest.raises(sc.RecordFormatError, match="too large") as caught:
        sc.dumps(game, indent=4)
    assert caught.value.reason == "too_large"
    with pytest.raises(sc.RecordFormatError, match="too large"):
        sc.loads(indented)
    monkeypatch.setattr(records, "MAX_RECORD_SIZE", len(compact) - 1)
    with pytest.raises(sc.RecordFormatError, match="too large"):
        sc.dumps(game)


def _accept_text(value: object) -> str:
    if not isinstance(value, str):
        raise sc.RulesError(f"option 'motto' accepts text; got {value!r}")
    return value


def test_a_record_is_measured_in_bytes_of_utf8(monkeypatch: pytest.MonkeyPatch) -> None:
    # A record is ASCII but for a plugin's text options, which may be anything.
    motto = sc.OptionSpec("motto", "any text", "the table's motto", _accept_text)
    variant = ClassicVariant(id="mottoes", title="Mottoes", options={motto: ""})
    game = sc.new_game(variant, seed=1, motto="Pique à l'épée")
    text = sc.dumps(game)
    assert len(text.encode()) == len(text) + 3
    monkeypatch.setattr(records, "MAX_RECORD_SIZE", len(text) + 3)
    assert sc.loads(text.encode(), variant=variant) == game
    monkeypatch.setattr(records, "MAX_RECORD_SIZE", len(text) + 2)
    with pytest.raises(sc.RecordFormatError, match="too large"):
        sc.loads(text.encode(), variant=variant)
    # loads would read the text as characters, but not its bytes: dumps refuses.
    with pytest.raises(sc.RecordFormatError, match="too large"):
        sc.dumps(game)


# -- the autosave --------------------------------------------------------------------


def padded_save(game: sc.Game, size: int) -> str:
    """The autosave of ``game`` padded with blanks to ``size`` bytes with its newline."""
    text = session_json(game, PlayerConfig())
    return text + " " * (size - 1 - len(text.encode()))


def test_a_save_of_the_largest_size_read_is_written_and_read(tmp_path: Path) -> None:
    path = tmp_path / AUTOSAVE_NAME
    game = sc.new_game("classic", seed=4).deal().bid(3)
    write_save(path, padded_save(game, MAX_SAVE_BYTES))
    assert path.stat().st_size == MAX_SAVE_BYTES
    assert read_save(path)[0] == game


def test_a_save_over_the_read_limit_is_never_written(tmp_path: Path) -> None:
    path = tmp_path / AUTOSAVE_NAME
    game = sc.new_game("classic", seed=4).deal()
    write_save(path, session_json(game, PlayerConfig()))
    before = path.read_bytes()
    with pytest.raises(SaveFileError, match=f"more than {MAX_SAVE_BYTES:,} bytes"):
        write_save(path, padded_save(game.bid(3), MAX_SAVE_BYTES + 1))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [AUTOSAVE_NAME]


def test_play_says_a_game_too_long_to_save_is_not_saved(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A whole session within a lowered limit: the first autosave of the game
    # already takes more.
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", 200)
    status, out, err = run_play(monkeypatch, capsys, ["--seed", "3"], ["quit"])
    assert status == 1
    assert "Game saved" not in out
    assert "The game could NOT be saved: the game is too long to save" in out
    assert not (data / AUTOSAVE_NAME).exists()
    assert "Traceback" not in err
