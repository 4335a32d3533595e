"""The public face of spades_core.analysis: arguments, errors, par and its batch form."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import spades_core as sc
from analysis_support import endgame
from positions import NORTH_ALL_SPADES, deal
from spades_core.analysis import Par, best_tricks, card_tricks, par, par_batch

ROOT = Path(__file__).resolve().parent.parent

# North and South hold the top spades and two long suits; West every club.
LONG_SUITS = deal(
    N="AS KS QS JS TS AH KH QH JH TH AD KD QD",
    E="9S 8S 7S 6S 9H 8H 7H 6H JD TD 9D 8D 7D",
    S="5S 4S 3S 2S 5H 4H 3H 2H 6D 5D 4D 3D 2D",
    W="2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)


@pytest.mark.parametrize("call", [best_tricks, card_tricks])
def test_a_non_game_is_an_argument_type_error(call: object) -> None:
    with pytest.raises(sc.ArgumentTypeError, match="a Game"):
        call(None)  # type: ignore[operator]


@pytest.mark.parametrize("call", [best_tricks, card_tricks])
def test_a_game_not_in_play_is_refused_as_the_engine_refuses_a_wrong_phase(
    call: object,
) -> None:
    game = sc.new_game("classic", seed=1)
    with pytest.raises(sc.IllegalActionError) as caught:
        call(game)  # type: ignore[operator]
    assert caught.value.reason is sc.IllegalReason.WRONG_PHASE
    with pytest.raises(sc.IllegalActionError) as caught:
        call(game.deal())  # type: ignore[operator]
    assert caught.value.reason is sc.IllegalReason.WRONG_PHASE
    assert str(caught.value).startswith("cannot analyse the play now: ")
    assert str(caught.value).endswith(" must bid")


def test_card_tricks_is_a_read_only_mapping_in_card_order() -> None:
    game = endgame("whiz", 7, 3, 1)
    assert game is not None
    values = card_tricks(game)
    assert list(values) == sorted(game.legal_cards())
    with pytest.raises(TypeError):
        values[next(iter(values))] = 0  # type: ignore[index]


def test_the_analysis_leaves_the_game_as_it_was() -> None:
    game = endgame("classic", 3, 4, 2)
    assert game is not None
    hands = [game.hand(seat) for seat in sc.Seat]
    trick = game.current_trick
    card_tricks(game)
    best_tricks(game)
    assert [game.hand(seat) for seat in sc.Seat] == hands
    assert game.current_trick == trick


def test_par_of_hands_that_hold_one_suit_each() -> None:
    # North holds every spade: whoever leads, North ruffs and draws the rest.
    assert par(NORTH_ALL_SPADES).tricks == ((13, 0),) * 4


def test_par_rows_are_the_first_leaders_and_add_to_thirteen() -> None:
    table = par(LONG_SUITS)
    assert all(ns + ew == 13 for ns, ew in table.tricks)
    assert table.of(sc.Seat.WEST, sc.Team.NS) == table.tricks[3][0]
    assert table.of("N", sc.Team.EW) == table.tricks[0][1]
    # The row of a leader is the solver's value of that game at its first lead.
    for dealer in sc.Seat:
        game = sc.new_game("classic", seed=1, dealer=dealer).deal(LONG_SUITS)
        for _ in range(4):
            game = game.bid(3)
        leader = game.to_act
        assert leader is not None
        assert leader == dealer.next
        assert best_tricks(game) == table.of(leader, leader.team)


def test_under_two_of_clubs_every_row_is_the_deuce_holders() -> None:
    rules = sc.load_variant("classic").rules(first_lead="two_of_clubs")
    table = par(LONG_SUITS, rules)
    game = sc.new_game("classic", seed=1, first_lead="two_of_clubs").deal(LONG_SUITS)
    assert len(set(table.tricks)) == 1
    assert par(game) == table
    for _ in range(4):
        game = game.bid(3)
    assert game.to_act is sc.Seat.WEST
    assert best_tricks(game) == table.of(sc.Seat.WEST, sc.Team.EW)


def test_par_of_a_game_is_par_of_its_deal_under_its_rules() -> None:
    game = sc.new_game("mirror", seed=2).deal(NORTH_ALL_SPADES)
    assert par(game) == par(NORTH_ALL_SPADES, game.rules)
    north, east, south, west = (sc.CardSet.parse(NORTH_ALL_SPADES[seat]) for seat in sc.Seat)
    assert par(sc.Deal((north, east, south, west))) == par(NORTH_ALL_SPADES)


def test_par_refuses_what_is_not_a_deal() -> None:
    with pytest.raises(sc.ArgumentTypeError, match="a Game, a Deal or a mapping"):
        par(42)  # type: ignore[arg-type]
    with pytest.raises(sc.IllegalActionError) as caught:
        par({sc.Seat.NORTH: "AS"})
    assert caught.value.reason is sc.IllegalReason.INVALID_DEAL
    with pytest.raises(sc.IllegalActionError) as caught:
        par(sc.Deal())
    assert caught.value.reason is sc.IllegalReason.INVALID_DEAL
    with pytest.raises(sc.IllegalActionError) as caught:
        par(sc.new_game("classic", seed=1))
    assert caught.value.reason is sc.IllegalReason.WRONG_PHASE
    with pytest.raises(sc.ArgumentTypeError, match="its own rules"):
        par(sc.new_game("classic", seed=1).deal(), sc.load_variant("classic").rules())
    with pytest.raises(sc.ArgumentTypeError, match="rules must be a Rules"):
        par(NORTH_ALL_SPADES, "classic")  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError):
        Par(((13, 0),) * 4).of(sc.Seat.NORTH, 0)  # type: ignore[arg-type]


@pytest.mark.integration("batch")
def test_par_batch_is_an_array_of_the_pars() -> None:
    import numpy as np

    deals: list[sc.Game | dict[sc.Seat, str]] = [
        NORTH_ALL_SPADES,
        LONG_SUITS,
        sc.new_game("classic", seed=2).deal(LONG_SUITS),
    ]
    table = par_batch(deals)
    assert isinstance(table, np.ndarray)
    assert table.shape == (3, 4, 2)
    assert table.dtype == np.int8
    for row, one in zip(table, deals, strict=True):
        assert tuple(map(tuple, row.tolist())) == par(one).tricks
    with pytest.raises(sc.ArgumentTypeError, match="deal 1"):
        par_batch([NORTH_ALL_SPADES, 7])  # type: ignore[list-item]
    with pytest.raises(sc.ArgumentTypeError, match="a sequence of deals"):
        par_batch(NORTH_ALL_SPADES)  # type: ignore[arg-type]
    with pytest.raises(sc.IllegalActionError, match="deal 0"):
        par_batch([{sc.Seat.NORTH: "AS"}])
    with pytest.raises(sc.RulesError, match="workers must be a whole number ≥ 1"):
        par_batch(deals, workers=0)


@pytest.mark.integration("batch")
def test_par_batch_in_worker_processes_gives_the_same_array() -> None:
    import numpy as np

    deals = [NORTH_ALL_SPADES, LONG_SUITS, NORTH_ALL_SPADES]
    assert np.array_equal(par_batch(deals, workers=2), par_batch(deals))


def test_par_batch_without_numpy_gives_pars() -> None:
    code = (
        "import sys\n"
        "sys.modules['numpy'] = None\n"
        "from positions import NORTH_ALL_SPADES\n"
        "from spades_core.analysis import Par, par_batch\n"
        "table = par_batch([NORTH_ALL_SPADES])\n"
        "assert table == (Par(((13, 0),) * 4),), table\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "tests")},
    )
    assert done.returncode == 0, done.stderr


def test_importing_the_analysis_does_not_import_numpy() -> None:
    code = "import sys\nimport spades_core.analysis\nassert 'numpy' not in sys.modules\n"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
