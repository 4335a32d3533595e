"""The safe reader of OpenSpiel states bounds its work, not only its bytes:
a text is read as one position, its record read once (a pickle calling the
reading function again and again on one memoized record is refused before
anything is read), the pickle is looked at for at most a few hundred
opcodes, the text's lines, history and game line are bounded before they
are parsed, and a 32 MiB text of any kind is refused within a few times its
size in memory. The IS-MCTS player's budget has its range too."""

from __future__ import annotations

import base64
import io
import random
import tracemalloc
from collections.abc import Callable
from typing import Any

import pyspiel
import pytest

import spades_core as sc
from spades_core.envs import _openspiel_reader, _openspiel_state, ismcts, openspiel
from spades_core.players import PlayerError, make_player

pytestmark = pytest.mark.integration("openspiel")

LIMIT = openspiel.MAX_SERIALIZED_SIZE
MODULE = b"spades_core.envs.openspiel"  # where states written before the adapter was split name it
FUNCTION = b"_position_from_record"


def load(**parameters: object) -> Any:
    openspiel.register()
    return pyspiel.load_game(openspiel.GAME_NAME, parameters)


@pytest.fixture(scope="module")
def long_game() -> tuple[Any, Any, str]:
    """A state at a game of 300 hands: its OpenSpiel game, the state and its text."""
    engine = sc.new_game(
        "classic", seed=3, dealer=openspiel.FIRST_DEALER, target_score=10**6, loss_floor=-(10**6)
    )
    engine = sc.playout(engine, random.Random(1), hands=300)
    game = load(variant="classic", target_score=10**6, loss_floor=-(10**6))
    state = game.state_from_game(engine)
    return game, state, pyspiel.serialize_game_and_state(game, state)


def with_payload(text: str, payload: bytes) -> str:
    head, _ = text.split("__dict__=", 1)
    return head + "__dict__=" + base64.b64encode(payload).decode("ascii") + "\n"


def _text(value: bytes) -> bytes:
    """A pickle's ``BINUNICODE`` of ``value`` (UTF-8 bytes)."""
    return b"X" + len(value).to_bytes(4, "little") + value


def rereading(record: str, calls: int) -> bytes:
    """The pickle of a ``__dict__`` whose position calls the reading function
    ``calls`` times on one memoized record: 5 bytes for each call past the first."""
    head = (
        b"\x80\x04}"  # protocol 4, the dict of attributes
        + b"\x8c\x09_position"
        + b"\x8c"
        + bytes([len(MODULE)])
        + MODULE
        + b"\x8c"
        + bytes([len(FUNCTION)])
        + FUNCTION
        + b"\x93\x94"  # STACK_GLOBAL, memo 0: the function
        + b"("
        + _text(record.encode())
        + b")K\x00K\x00K\x00\x86t\x94"  # memo 1: its arguments
    )
    again = b"h\x00h\x01R"  # BINGET 0, BINGET 1, REDUCE: the record read once more
    return head + b"R(" + again * (calls - 1) + b"t\x86s."  # the value: (position, (more…))


def counting_loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the reader's record reads (``records.loads``) in a one-item list."""
    count = [0]
    real: Callable[[object], sc.Game] = vars(_openspiel_state)["loads"]

    def counted(text: object) -> sc.Game:
        count[0] += 1
        return real(text)

    monkeypatch.setattr(_openspiel_state, "loads", counted)
    return count


# -- one position, one record read ----------------------------------------------------


@pytest.mark.parametrize("calls", [2, 3, 1000, 2_000_000])
def test_a_pickle_reading_one_record_again_and_again_is_refused_before_any_is_read(
    long_game: tuple[Any, Any, str], calls: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each call reads the 300-hand record through the checked engine (a
    # tenth of a second or more): two million of them, 10 MB of pickle,
    # were hours of work for a text within the size limit.
    _, state, text = long_game
    crafted = with_payload(text, rereading(sc.dumps(state.game), calls))
    assert len(crafted) <= LIMIT
    reads = counting_loads(monkeypatch)
    with pytest.raises(sc.RecordFormatError) as refused:
        openspiel.deserialize_game_and_state(crafted)
    assert refused.value.reason == "wrong_format"
    message = "more than one position" if calls < 100 else "more than 256 opcodes"
    assert message in str(refused.value)
    assert reads == [0]


def test_the_unpickler_itself_reads_one_position_at_most(
    long_game: tuple[Any, Any, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Behind the scan of the opcodes, the unpickler reads a record once.
    _, state, _ = long_game
    reads = counting_loads(monkeypatch)
    unpickler = _openspiel_reader._PositionUnpickler(io.BytesIO(rereading(sc.dumps(state.game), 2)))
    with pytest.raises(sc.RecordFormatError, match="more than one position"):
        unpickler.load()
    assert reads == [1]


def test_a_state_is_read_with_one_read_of_its_record(
    long_game: tuple[Any, Any, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, state, text = long_game
    reads = counting_loads(monkeypatch)
    game_again, again = openspiel.deserialize_game_and_state(text)
    assert reads == [1]  # not once more by OpenSpiel's own reader
    assert str(game_again) == str(game)
    assert again.game == state.game
    assert again.history() == state.history()
    # The hand-over is used once: OpenSpiel's reader on its own reads the record itself.
    pyspiel.deserialize_game_and_state(text)
    assert reads == [2]


# -- 32 MiB of every kind --------------------------------------------------------------


def _room(text: str) -> int:
    """Bytes of pickle that fit in a text of :data:`LIMIT` characters after ``text``'s head."""
    head = text.split("__dict__=", 1)[0]
    return (LIMIT - len(head) - 64) * 3 // 4


def _filled(opcode: bytes) -> Callable[[str], str]:
    def build(text: str) -> str:
        count = (_room(text) - 3) // len(opcode)
        return with_payload(text, b"\x80\x04" + opcode * count + b".")

    return build


def _one_string(char: str) -> Callable[[str], str]:
    def build(text: str) -> str:
        body = char * ((_room(text) - 80) // len(char.encode()))
        pickle = (
            b"\x80\x04}\x8c\x09_position"
            + b"\x8c"
            + bytes([len(MODULE)])
            + MODULE
            + b"\x8c"
            + bytes([len(FUNCTION)])
            + FUNCTION
            + b"\x93("
            + _text(body.encode())
            + b")K\x00K\x00K\x00\x86tRs."
        )
        return with_payload(text, pickle)

    return build


def _long_history(text: str) -> str:
    room = LIMIT - len(text) - 16
    return text.replace("history=", "history=" + "0:1," * (room // 4), 1)


KINDS: dict[str, Callable[[str], str]] = {
    "empty sets (each a set of 216 bytes)": _filled(b"\x8f"),
    "empty lists": _filled(b"]"),
    "small numbers": _filled(b"K\x01"),
    "one string of 24 MiB": _one_string("a"),
    "one string of four-byte characters": _one_string("\U0001f0a1"),
    "a history of millions of moves": _long_history,
    "millions of lines": lambda text: text + "\n" * (LIMIT - len(text)),
    "millions of comments": lambda text: "#\n" * ((LIMIT - len(text)) // 2) + text,
    "a game line of 32 MiB": lambda text: text.replace(
        "spades_core(", "spades_core(" + "x" * (LIMIT - len(text) - 16), 1
    ),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_32_mib_text_of_any_kind_is_refused_within_a_few_times_its_size(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load(variant="classic")
    text = pyspiel.serialize_game_and_state(game, game.new_initial_state())
    crafted = KINDS[kind](text)
    assert LIMIT - 256 <= len(crafted) <= LIMIT
    reads = counting_loads(monkeypatch)
    tracemalloc.start()
    try:
        with pytest.raises(sc.RecordFormatError):
            openspiel.deserialize_game_and_state(crafted)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # What is stated in MAX_SERIALIZED_SIZE's documentation: besides the
    # record's game, reading takes at most about six times the text's size.
    assert peak < 6 * LIMIT, f"{peak / 2**20:.0f} MiB"
    assert reads[0] <= 1


# -- the IS-MCTS player's budget -------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:simulations=10001", "simulations must be a whole number from 1 to 10,000"),
        ("ismcts:simulations=0", "simulations must be a whole number"),
        (f"ismcts:simulations={10**30}", "simulations must be a whole number from 1 to 10,000"),
        ("ismcts:uct_c=1001", "uct_c must be a number above 0 and at most 1000"),
        ("ismcts:uct_c=0", "uct_c must be a number above 0"),
    ],
)
def test_the_ismcts_budget_has_a_range(spec: str, message: str) -> None:
    with pytest.raises(PlayerError, match=message):
        make_player(spec, seed=1)
    assert make_player("ismcts:simulations=10000:uct_c=1000", seed=1) is not None
    with pytest.raises(sc.RulesError, match="simulations must be a whole number from 1"):
        ismcts.ISMCTSPlayer.random_rollouts(2**70)
