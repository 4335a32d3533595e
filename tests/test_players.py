"""Players by name through the ``spades_core.players`` entry-point group: the
built-in levels register there, and so do other distributions' players (each
test installs fake ``*.dist-info`` metadata in a temporary directory)."""

from __future__ import annotations

import itertools
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import spades_core as sc
from registry_isolation import registry_restored
from spades_core.players import (
    BUILTIN_PLAYERS,
    PLAYER_GROUP,
    PlayerError,
    PlayerSpec,
    available_players,
    make_player,
    parse_player,
    refresh_players,
)
from spades_core.rules.registry import BUILTIN_ONLY_ENV

_counter = itertools.count()
MODULE_STEM = "spades_players_test_"

CAUTIOUS = """
from spades_core.bots import make


class Cautious:
    '''Plays like the easy bot but always bids its lowest legal bid.'''

    def __init__(self, *, seed, margin=0):
        self.seed = seed
        self.margin = margin
        self._easy = make("easy", seed=seed)

    def choose(self, view):
        if view.phase.name == "BID":
            return view.legal_actions()[0]
        return self._easy.choose(view)


def not_a_player(*, seed):
    return 42
"""


class PlayerSite:
    """A directory on ``sys.path`` holding fake installed distributions."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.module = f"{MODULE_STEM}{next(_counter)}"
        (root / f"{self.module}.py").write_text(textwrap.dedent(CAUTIOUS))
        sys.path.insert(0, str(root))

    def distribution(self, name: str, entries: dict[str, str]) -> None:
        info = self.root / f"{name.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        lines = [f"{key} = {value.format(module=self.module)}" for key, value in entries.items()]
        (info / "entry_points.txt").write_text(f"[{PLAYER_GROUP}]\n" + "\n".join(lines) + "\n")
        refresh_players()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[PlayerSite]:
    with registry_restored(MODULE_STEM):
        try:
            yield PlayerSite(tmp_path)
        finally:
            refresh_players()


def test_the_bot_levels_are_registered_players() -> None:
    assert available_players()[:4] == BUILTIN_PLAYERS
    for level in BUILTIN_PLAYERS:
        player = make_player(level, seed=3)
        assert isinstance(player, sc.bots.Player)
        assert type(player) is type(sc.bots.make(level, seed=3))
        assert player.seed == 3


def test_specs_read_options_and_print_back() -> None:
    spec = parse_player(" HARD:steps=2000:confidence=0.5:draws=3 ")
    assert spec == PlayerSpec("hard", (("confidence", 0.5), ("draws", 3), ("steps", 2000)))
    assert parse_player(str(spec)) == spec
    assert parse_player("medium") == PlayerSpec("normal")
    assert parse_player("x:flag=true:name=bold").options == (("flag", True), ("name", "bold"))
    assert str(parse_player("x:flag=false")) == "x:flag=false"
    hard = make_player("hard:steps=2000", seed=1)
    assert hard.budget.steps == 2000  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "not a player name: ''"),
        ("no way", "not a player name"),
        ("hard:steps", "OPTION=VALUE"),
        ("hard:1x=2", "OPTION=VALUE"),
        ("hard:steps=1:steps=2", "'steps' is given twice"),
        ("nobody", "unknown player 'nobody'; installed players: random, easy, normal, hard"),
        ("normal:steps=3", "NormalBot has no option steps; it takes only a seed"),
        ("hard:colour=red", "colour"),
        ("hard:steps=0", "steps must be a whole number ≥ 1"),
    ],
)
def test_bad_specs_raise_player_error(spec: object, message: str) -> None:
    with pytest.raises(PlayerError, match=message):
        make_player(spec, seed=1)  # type: ignore[arg-type]


def test_a_spec_that_is_not_text_is_an_argument_type_error() -> None:
    with pytest.raises(
        sc.ArgumentTypeError,
        match=r"spec must be a name like 'easy' or 'hard:steps=2000'; got None",
    ):
        make_player(None, seed=1)  # type: ignore[arg-type]


def test_another_distributions_player_plays_in_simulations(site: PlayerSite) -> None:
    site.distribution("cautious-spades", {"cautious": "{module}:Cautious"})
    assert "cautious" in available_players()
    assert make_player("cautious:margin=2", seed=5).margin == 2  # type: ignore[attr-defined]
    # Spawned pool workers find the same distributions, on the same sys.path.
    one = sc.simulate("cautious", "easy", hands=4, seed=2, workers=1)
    two = sc.simulate("cautious", "easy", hands=4, seed=2, workers=2, task_size=1)
    assert one == two
    assert one.ns.player == "cautious"
    result = sc.tournament(["easy", "cautious"], hands=2, seed=1, workers=1)
    assert result.players == ("easy", "cautious")


def test_a_broken_player_fails_for_its_name_only(site: PlayerSite) -> None:
    site.distribution(
        "broken-spades",
        {"ghost": "no_such_module_anywhere:Player", "answer": "{module}:not_a_player"},
    )
    with pytest.raises(PlayerError, match=r"player 'ghost' from broken-spades .* could not be"):
        make_player("ghost", seed=1)
    with pytest.raises(PlayerError, match="built 42, which has no choose"):
        make_player("answer", seed=1)
    assert make_player("easy", seed=1).choose is not None


def test_built_in_names_cannot_be_replaced(site: PlayerSite) -> None:
    site.distribution("impostor", {"hard": "{module}:Cautious", "ismcts": "{module}:Cautious"})
    assert type(make_player("hard", seed=1)) is sc.bots.HardBot


@pytest.mark.integration("openspiel")
def test_the_built_in_ismcts_cannot_be_replaced(site: PlayerSite) -> None:
    site.distribution("impostor", {"ismcts": "{module}:Cautious"})
    assert type(make_player("ismcts", seed=1)).__name__ == "ISMCTSPlayer"


def test_a_name_claimed_twice_is_refused(site: PlayerSite) -> None:
    site.distribution("first-dist", {"twin": "{module}:Cautious"})
    site.distribution("second-dist", {"twin": "{module}:Cautious"})
    with pytest.raises(PlayerError, match="claimed by several distributions"):
        make_player("twin", seed=1)


def test_builtin_only_ignores_other_players(
    site: PlayerSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    site.distribution("cautious-spades", {"cautious": "{module}:Cautious"})
    monkeypatch.setenv(BUILTIN_ONLY_ENV, "1")
    refresh_players()
    # The bot levels, then the double-dummy expert, the OpenSpiel search and
    # the perfect-information reference player spades-core also registers.
    assert available_players() == (*BUILTIN_PLAYERS, "expert", "ismcts", "perfect-info")
    with pytest.raises(PlayerError, match="unknown player 'cautious'"):
        make_player("cautious", seed=1)


def test_ismcts_without_openspiel_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for module in ("spades_core.envs.openspiel", "spades_core.envs.ismcts"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    refresh_players()
    try:
        with pytest.raises(PlayerError, match=r"pip install 'spades-core\[openspiel\]'"):
            make_player("ismcts", seed=1)
    finally:
        monkeypatch.undo()
        refresh_players()
