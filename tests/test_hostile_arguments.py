"""Arguments an attacker (or a slip) can give that used to escape as
something other than a SpadesError, or to cost time and memory before being
refused: each is refused at once with the library's own error."""

from __future__ import annotations

import itertools
import tracemalloc
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np
import pytest

import spades_core as sc
from spades_core import batch
from spades_core.bots.why import Why
from spades_core.envs import pettingzoo as pz
from spades_core.rules.hooks import checked_revealed_spade_counts
from spades_variants.classic import ClassicVariant
from variant_doubles import like_classic

# The batch engine and the PettingZoo environment are among the calls tried.
pytestmark = [pytest.mark.integration("batch"), pytest.mark.integration("pettingzoo")]

SMALL_MEMORY = 16 << 20
"""Far less than the hundreds of megabytes an unchecked argument took."""


def peak_memory(call: Callable[[], object]) -> int:
    """The most memory ``call`` allocated at once, in bytes (it must raise a SpadesError)."""
    tracemalloc.start()
    try:
        with pytest.raises(sc.SpadesError):
            call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# -- records --------------------------------------------------------------------------


@pytest.mark.parametrize("indent", [10**20, 2**63, -1, 17])
def test_dumps_refuses_an_indent_out_of_range(indent: int) -> None:
    game = sc.new_game("classic", seed=1).deal()
    assert peak_memory(lambda: sc.dumps(game, indent=indent)) < SMALL_MEMORY
    with pytest.raises(sc.RulesError, match="indent"):
        sc.dumps(game, indent=indent)


@pytest.mark.parametrize("indent", [2.0, True, "\t", b" "])
def test_dumps_refuses_an_indent_that_is_not_a_number(indent: object) -> None:
    game = sc.new_game("classic", seed=1)
    with pytest.raises(sc.ArgumentTypeError, match="indent"):
        sc.dumps(game, indent=indent)  # type: ignore[arg-type]


def test_dumps_takes_every_indent_in_range() -> None:
    game = sc.new_game("classic", seed=1).deal().bid(3)
    for indent in range(sc.records.MAX_INDENT + 1):
        assert sc.loads(sc.dumps(game, indent=indent)) == game


# -- variants -------------------------------------------------------------------------


class _Counted:
    """An iterable of ``names`` that counts how many of them were taken."""

    def __init__(self, names: Iterator[Any]) -> None:
        self._names = names
        self.taken = 0

    def __iter__(self) -> Iterator[Any]:
        for name in self._names:
            self.taken += 1
            yield name


@pytest.mark.parametrize(
    "drop",
    [
        range(10**20),
        range(10**7),
        itertools.repeat("double_nil"),
        itertools.chain(["double_nil"], range(10**7)),
    ],
)
def test_derive_reads_no_more_of_drop_than_it_needs(drop: Any) -> None:
    classic = sc.load_variant("classic")
    counted = _Counted(iter(drop))
    assert peak_memory(lambda: classic.derive(id="plain", drop=counted)) < SMALL_MEMORY
    assert counted.taken <= len(classic.option_specs) + 1
    with pytest.raises(sc.RulesError, match="drop"):
        classic.derive(id="plain", drop=_Counted(iter(drop)))


def test_derive_still_drops_what_it_is_given() -> None:
    classic = sc.load_variant("classic")
    plain = classic.derive(id="plain", drop=iter(["double_nil", "double_nil", "nil_tricks"]))
    assert "double_nil" not in plain.option_specs
    assert "nil_tricks" not in plain.option_specs


# -- cards, seats and the library's other enums ------------------------------------------


@pytest.mark.parametrize("cards", [np.array(5), np.float64(3.0), np.int8(1)])
def test_cardset_of_refuses_what_does_not_iterate(cards: object) -> None:
    with pytest.raises(sc.InvalidNotationError, match="collection of cards"):
        sc.CardSet.of(cards)  # type: ignore[arg-type]


def test_cardset_of_reads_an_array_of_card_names() -> None:
    assert sc.CardSet.of(np.array(["AS", "KH"])) == sc.CardSet.parse("AS KH")


ENUMS = [sc.Seat, sc.Team, sc.Suit, sc.Rank, sc.Phase, sc.NilTricks, sc.IllegalReason, Why]


class _BadComparison:
    """A value that cannot be hashed and whose comparisons fail."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparing")


@pytest.mark.parametrize("enum_class", ENUMS)
@pytest.mark.parametrize(
    "value",
    [np.array([1, 2]), np.array([[0, 1]]), [1], {"a": 1}, _BadComparison(), 10**5000],
    ids=["array", "2d-array", "list", "dict", "bad-comparison", "huge-int"],
)
def test_an_enum_refuses_any_value_with_its_own_error(enum_class: Any, value: object) -> None:
    with pytest.raises(sc.InvalidNotationError):
        enum_class(value)


def test_enum_lookups_still_find_their_members() -> None:
    assert sc.Seat(2) is sc.Seat.SOUTH
    assert sc.Seat(np.int64(3)) is sc.Seat.WEST  # type: ignore[arg-type]
    assert sc.Seat(sc.Seat.EAST) is sc.Seat.EAST
    assert sc.Phase("deal") is sc.Phase.DEAL
    assert sc.NilTricks("bags_only") is sc.NilTricks.BAGS_ONLY
    assert sc.IllegalReason("not_your_turn") is sc.IllegalReason.NOT_YOUR_TURN


# -- bots ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players", [range(10**20), range(2**63 - 1), itertools.repeat(sc.bots.RandomBot(0))]
)
def test_play_game_reads_at_most_five_players(players: Any) -> None:
    game = sc.new_game("classic", seed=1)
    with pytest.raises(sc.RulesError, match="four players"):
        sc.bots.play_game(game, players)


def test_play_game_still_takes_a_range_of_four_players() -> None:
    class Seated(tuple[Any, ...]):
        """Four players in a sequence type of its own."""

    game = sc.new_game("classic", seed=1)
    players = Seated(sc.bots.RandomBot(seat) for seat in range(4))
    assert sc.bots.play_game(game, players, hands=1).hand_number == 1


# -- the batch engine --------------------------------------------------------------------


@pytest.mark.parametrize("n", [10**20, 2**40, "just past the bound"])
def test_tables_have_an_upper_bound(n: int | str) -> None:
    count = batch.MAX_TABLES + 1 if isinstance(n, str) else n
    assert peak_memory(lambda: batch.Tables("classic", count)) < SMALL_MEMORY
    with pytest.raises(sc.RulesError, match=f"1 to {batch.MAX_TABLES:,}"):
        batch.Tables("classic", count)


# -- PettingZoo --------------------------------------------------------------------------


def finished_table() -> pz.raw_env:
    """A raw environment whose one-hand episode ended and whose agents all stepped."""
    table = pz.raw_env(variant="mirror", hands=1)
    table.reset(seed=3)
    for agent in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
        else:
            assert observation is not None
            table.step(int(np.flatnonzero(observation["action_mask"])[0]))
        assert agent in pz.AGENTS
    assert table.agents == []
    return table


def test_pettingzoo_env_after_every_agent_is_done() -> None:
    table = pz.env(variant="classic", hands=1)
    table.reset(seed=4)
    while table.agents:
        observation, _, terminated, truncated, _ = table.last()
        done = terminated or truncated
        table.step(None if done else int(np.flatnonzero(observation["action_mask"])[0]))
    observation, reward, terminated, truncated, info = table.last()
    assert (reward, terminated, truncated, info) == (0.0, True, False, {})
    assert not observation["action_mask"].any()
    table.reset(seed=5)
    assert table.last()[0]["action_mask"].any()


def test_pettingzoo_after_every_agent_is_done() -> None:
    table = finished_table()
    observation, reward, terminated, truncated, info = table.last()
    assert (reward, terminated, truncated, info) == (0.0, True, False, {})
    assert observation is not None
    assert not observation["action_mask"].any()
    assert table.last(observe=False)[0] is None
    for agent in pz.AGENTS:
        assert not table.observe(agent)["action_mask"].any()
    for action in (None, 0):
        with pytest.raises(sc.IllegalActionError, match="reset") as caught:
            table.step(action)
        assert caught.value.reason is sc.IllegalReason.WRONG_PHASE
    table.reset(seed=4)
    assert table.agents == list(pz.AGENTS)
    assert table.last()[0]["action_mask"].any()  # type: ignore[index]


def test_pettingzoo_a_done_agent_steps_with_none_only() -> None:
    table = pz.raw_env(variant="mirror", hands=1)
    table.reset(seed=3)
    while not table.terminations[table.agent_selection]:
        mask = table.observe(table.agent_selection)["action_mask"]
        table.step(int(np.flatnonzero(mask)[0]))
    with pytest.raises(sc.IllegalActionError, match="step\\(None\\)"):
        table.step(5)
    table.step(None)


# -- plugin hooks ------------------------------------------------------------------------


class _ImpossibleCounts(ClassicVariant):
    """Reveals, for every bid, counts in range that no deal has: North 13, the rest 0."""

    def revealed_spade_counts(
        self, rules: sc.Rules, bids: Mapping[sc.Seat, int]
    ) -> dict[sc.Seat, int]:
        return {seat: 13 if seat is sc.Seat.NORTH else 0 for seat in bids}


class _OffByOne(ClassicVariant):
    """Every bid claimed to reveal one spade more than the bid (in range, but false)."""

    def revealed_spade_counts(
        self, rules: sc.Rules, bids: Mapping[sc.Seat, int]
    ) -> dict[sc.Seat, int]:
        return {seat: min(bid + 1, 13) for seat, bid in bids.items()}


@pytest.mark.parametrize("cls", [_ImpossibleCounts, _OffByOne])
def test_impossible_revealed_counts_are_refused_before_the_hard_bot_plays(cls: type) -> None:
    variant = like_classic(cls, "impossible-counts")
    game = sc.new_game(variant, seed=3)
    bots = [sc.bots.make("hard", seed=seat, steps=200, bid_steps=200) for seat in range(4)]
    with pytest.raises(sc.VariantLoadError, match="revealed_spade_counts reveals"):
        sc.bots.play_game(game, bots, hands=1)


def test_the_revealed_counts_check_keeps_hidden_hands_hidden() -> None:
    variant = like_classic(_OffByOne, "off-by-one")
    game = sc.new_game(variant, seed=3).deal()
    bidder = game.to_act
    assert bidder is not None
    true_count = game.dealt_hand(bidder).count(sc.Suit.SPADES)
    bid = 5 if true_count != 6 else 4  # a bid whose count plus one is false
    game = game.bid(bid)
    with pytest.raises(sc.VariantLoadError) as caught:
        game.view(bidder.next)
    message = str(caught.value)
    assert f"reveals {bid + 1} spades for {bidder.name.title()}" in message
    assert str(true_count) not in message.replace(str(bid + 1), "")


def test_revealed_counts_are_checked_against_the_deal() -> None:
    variant = like_classic(_OffByOne, "off-by-one")
    rules = variant.rules()
    north = sc.CardSet.parse("AS KS QS AH KH QH JH TH 9H 8H 7H 6H 5H").mask  # three spades
    dealt = (north, 0, 0, 0)
    check = checked_revealed_spade_counts
    with pytest.raises(sc.VariantLoadError, match="reveals 4 spades for North"):
        check(variant, rules, (3, None, None, None), dealt=dealt)
    assert check(variant, rules, (2, None, None, None), dealt=dealt) == (3, None, None, None)
    # Without a deal (comparing a variant's array forms with its hook) only the answer is checked.
    assert check(variant, rules, (3, None, None, None)) == (4, None, None, None)
    mirror = sc.load_variant("mirror")
    found = check(mirror, mirror.rules(), (3, None, None, None), dealt=dealt)
    assert found == (3, None, None, None)
    classic = sc.load_variant("classic")
    found = check(classic, classic.rules(), (3, None, None, None), dealt=dealt)
    assert found == (None, None, None, None)


@pytest.mark.parametrize("cls", [_ImpossibleCounts, _OffByOne])
def test_the_batch_engine_refuses_impossible_revealed_counts_and_keeps_its_tables(
    cls: type,
) -> None:
    variant = like_classic(cls, "impossible-counts")
    tables = batch.Tables(variant, 3, seed=7)
    before = (tables.bids.copy(), tables.to_act.copy(), tables.phase.copy())
    legal = tables.legal_mask()
    first = np.array([int(np.flatnonzero(row)[0]) for row in legal])
    with pytest.raises(sc.VariantLoadError, match="revealed_spade_counts reveals"):
        tables.step(first)
    after = (tables.bids, tables.to_act, tables.phase)
    assert all(np.array_equal(old, new) for old, new in zip(before, after, strict=True))


def test_the_batch_engine_accepts_true_revealed_counts() -> None:
    tables = batch.Tables("mirror", 3, seed=7)
    for _ in range(4):
        legal = tables.legal_mask()
        tables.step(np.array([int(np.flatnonzero(row)[0]) for row in legal]))
    assert (tables.bids >= 0).all()
