"""Reading serialized OpenSpiel states safely: nothing of a text is run."""

from __future__ import annotations

import base64
import binascii
import io
import pickle
import pickletools
import re
from collections import Counter
from typing import Any, Final, NoReturn, cast

import pyspiel

from spades_core.envs import _episode
from spades_core.envs._openspiel_parameters import GAME_NAME, same_rules
from spades_core.envs._openspiel_state import (
    HANDOVER,
    WRONG_FORMAT,
    Position,
    SpadesCoreGame,
    SpadesCoreState,
    position_from_record,
    refusal,
    refuse,
    register,
)
from spades_core.values.errors import (
    ArgumentTypeError,
    RecordFormatError,
    RecordReason,
    brief,
)

# -- reading serialized states safely ---------------------------------------------------


MAX_SERIALIZED_SIZE: Final = 32 * 1024 * 1024
"""The longest text :func:`deserialize_game_and_state` reads: 32 MiB
(characters), room for a state whose game record is as long as
:data:`~spades_core.records.MAX_RECORD_SIZE` allows.

The work of reading is bounded too. A text is read as one position, whose
record is read once (with :func:`~spades_core.records.loads`); before that,
at most 64 lines, 256 opcodes of the pickle and a history of 21,600 moves
are looked at, and nothing else is built. Refusing a 32 MiB text of any
kind (millions of opcodes, lines or moves, one huge string) takes under a
second and at most about six times the text's size in memory (168 MiB at
the most, for a string of four-byte characters; measured on a busy
two-core machine, ``tests/test_openspiel_reader_work.py``). Reading a
state is one read of its record, a quarter to half a millisecond and about
5 kB for each hand of the game (rough figures): a few seconds for a game of
10,000 hands, up to about half a minute and 250 MB at the records' limit of
50,000 hands."""
_HISTORY_ENTRY = re.compile(r"(-1|[0-3]):([0-9]{1,2})")
_MAX_LINES: Final = 64
"""The most lines of a state's text looked at (OpenSpiel writes eight, and a comment)."""
_MAX_GAME_LINE: Final = 16_384
"""The longest ``[Game]`` line read: a game's name and every option of a variant."""
_MAX_HISTORY: Final = (_episode.DECISIONS_PER_HAND + _episode.CARDS) * _episode.hand_limit(
    _episode.WHOLE_GAME
)
"""The most moves an episode's history may hold (every deal, bid and card of its hands)."""
_TOO_LARGE: Final = RecordReason.TOO_LARGE
_MAX_PICKLE_OPCODES: Final = 256
"""The most opcodes the pickle of a state's ``__dict__`` may hold: the one
spades-core writes has about 80 (one per card being dealt, and a few more)."""
_PICKLE_OPCODES: Final = frozenset(
    {
        # Framing, in every protocol.
        "PROTO",
        "FRAME",
        "STOP",
        "MARK",
        # The dict of the state's attributes and the tuples of the position's parts.
        "EMPTY_DICT",
        "DICT",
        "SETITEM",
        "SETITEMS",
        "EMPTY_TUPLE",
        "TUPLE",
        "TUPLE1",
        "TUPLE2",
        "TUPLE3",
        # Whole numbers (``LONG1``: at most 255 bytes) and text.
        "INT",
        "BININT",
        "BININT1",
        "BININT2",
        "LONG1",
        "UNICODE",
        "SHORT_BINUNICODE",
        "BINUNICODE",
        # The memo, and the one function, called once.
        "PUT",
        "BINPUT",
        "LONG_BINPUT",
        "MEMOIZE",
        "GET",
        "BINGET",
        "LONG_BINGET",
        "GLOBAL",
        "STACK_GLOBAL",
        "REDUCE",
    }
)
"""The opcodes a state's pickle may use (of any protocol): plain values, and
no set, list, object, extension or buffer, so no opcode of a pickle builds
more than one small object."""


def _scan_pickle(pickled: bytes) -> None:
    """Refuse a pickle that is not of the shape spades-core writes, looking
    at no more than :data:`_MAX_PICKLE_OPCODES` opcodes and building nothing:
    only :data:`_PICKLE_OPCODES`, and the function that reads a position
    named and called once. A name the pickle asks for that is not that
    function is what the refusal names first."""
    calls = Counter[str]()
    unexpected = None
    texts: list[str] = []
    try:
        for count, (opcode, argument, _) in enumerate(pickletools.genops(pickled), 1):
            if count > _MAX_PICKLE_OPCODES:
                unexpected = unexpected or f"more than {_MAX_PICKLE_OPCODES} opcodes"
                break
            name = opcode.name
            calls[name] += 1
            if name not in _PICKLE_OPCODES:
                unexpected = unexpected or f"the opcode {name}"
            elif isinstance(argument, str) and name.endswith("UNICODE"):
                texts = [*texts[-1:], argument]
            elif name in ("GLOBAL", "STACK_GLOBAL"):
                named = str(argument).replace(" ", ".") if name == "GLOBAL" else ".".join(texts)
                _check_named(named)
    except RecordFormatError:
        raise
    except Exception as error:  # whatever a damaged pickle makes the scan raise
        refuse(
            f"its pickle cannot be read: {type(error).__name__}: {brief(str(error), 200)}",
            WRONG_FORMAT,
        )
    if unexpected is not None:
        refuse(f"its pickle holds {unexpected}, which a state's never does", WRONG_FORMAT)
    if calls["GLOBAL"] + calls["STACK_GLOBAL"] > 1 or calls["REDUCE"] > 1:
        refuse(_MORE_THAN_ONE, WRONG_FORMAT)


_POSITION_READERS: Final = frozenset(
    {
        f"{position_from_record.__module__}.{position_from_record.__name__}",
        "spades_core.envs.openspiel._position_from_record",
    }
)
"""The names of the function reading a position, where states name it: its
own, and the one states written before the adapter was split by concern use."""


def _check_named(named: str) -> None:
    """Refuse a name a pickle asks for that is not the function reading a position."""
    if named not in _POSITION_READERS:
        refuse(
            f"its pickle asks for {brief(named, 80)}; a state written by "
            "spades-core holds only its game record, so nothing of it is run",
            WRONG_FORMAT,
        )


_MORE_THAN_ONE: Final = "its pickle reads more than one position; a state's holds one, read once"


class _PositionUnpickler(pickle.Unpickler):
    """Reads the pickle of a state's ``__dict__`` as
    :func:`deserialize_game_and_state` allows: plain values and the one
    function that reads a position from its game record, called at most
    once; any other name the pickle asks for is refused before anything is
    built from it."""

    def __init__(self, file: io.BytesIO) -> None:
        super().__init__(file)
        self.read: tuple[str, Position] | None = None
        """The record's text and the position read from it, once read."""

    def find_class(self, module: str, name: str) -> Any:
        _check_named(f"{module}.{name}")
        return self._read_once

    def _read_once(self, *parts: object) -> Position:
        # A pickle may call what it names again and again on one memoized
        # record, each call reading the whole record: only the first is read.
        if self.read is not None or len(parts) != 4:
            refuse(_MORE_THAN_ONE if self.read is not None else "its position is malformed")
        position = position_from_record(*parts)
        self.read = (cast(str, parts[0]), position)
        return position

    def persistent_load(self, pid: object) -> NoReturn:
        refuse("its pickle refers to outside objects", WRONG_FORMAT)


class _ReadPosition:
    """A position read back and checked, pickled again as the record text it
    was read from (not written out a second time)."""

    def __init__(self, record: str, position: Position) -> None:
        self.record = record
        self.position = position

    def __reduce__(self) -> tuple[Any, ...]:
        position = self.position
        return (
            position_from_record,
            (self.record, tuple(position.dealing), position.start_hand, position.start_scores),
        )


def _sections(text: str) -> dict[str, list[str]]:
    """The lines of each ``[Section]`` of OpenSpiel's serialization, comments
    left out; at most :data:`_MAX_LINES` lines are looked at, one at a time."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    start = 0
    for _ in range(_MAX_LINES):
        end = text.find("\n", start)
        if end == -1:
            end = len(text)
        if not text.startswith("#", start):  # a comment is skipped without being copied
            line = text[start:end]
            if line.startswith("[") and line.endswith("]"):
                if line in sections:
                    refuse(f"the section {brief(line)} appears twice", WRONG_FORMAT)
                current = sections[line] = []
            elif current is not None:
                if line:
                    current.append(line)
            elif line:
                refuse(f"text before the first section: {brief(line)}", WRONG_FORMAT)
        if end == len(text):
            return sections
        start = end + 1
    raise refusal(
        f"it has more than {_MAX_LINES} lines, which a state's text never does", WRONG_FORMAT
    )


def _history(line: str) -> list[tuple[int, int]]:
    entries = line.removeprefix("history=")
    if not entries:
        return []
    if entries.count(",") >= _MAX_HISTORY:  # counted before anything is built from it
        refuse(f"its history is longer than any episode's {_MAX_HISTORY:,} moves", _TOO_LARGE)
    history = []
    for entry in entries.split(","):
        found = _HISTORY_ENTRY.fullmatch(entry)
        if found is None:
            refuse(f"not a move of the history: {brief(entry)}", WRONG_FORMAT)
        history.append((int(found[1]), int(found[2])))
    return history


def deserialize_game_and_state(text: object) -> tuple[SpadesCoreGame, SpadesCoreState]:
    """The game and state in ``text`` written by
    ``pyspiel.serialize_game_and_state`` for a ``spades_core`` state, read
    without running anything the text contains.

    ``pyspiel.deserialize_game_and_state`` unpickles the state's attributes
    (OpenSpiel does that for every game written in Python), so it runs
    whatever a crafted text asks for: use it for text you wrote yourself, and
    this function for text from anywhere else. Here the pickle may hold only
    plain values and the game record, which is read with
    :func:`~spades_core.records.loads`; the game's parameters, the history
    and every part of the position are checked, and the state is rebuilt
    from the checked values. Anything else raises
    :class:`~spades_core.RecordFormatError`: a pickle that reads a position
    more than once, or holds anything but plain values and that one call
    (reason ``wrong_format``), a text, history or game line longer than any
    state's (``too_large``). Its time and memory are bounded as
    :data:`MAX_SERIALIZED_SIZE` says.
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(
            f"deserialize_game_and_state: text must be a str; got {type(text).__name__}"
        )
    if len(text) > MAX_SERIALIZED_SIZE:
        refuse(
            f"the text is too large: {len(text):,} characters where at most "
            f"{MAX_SERIALIZED_SIZE:,} are read",
            RecordReason.TOO_LARGE,
        )
    sections = _sections(text)
    if sections.get("[Meta]") != ["Version: 1"]:
        refuse("it has no [Meta] section of version 1", WRONG_FORMAT)
    game_lines = sections.get("[Game]", [])
    state_lines = sections.get("[State]", [])
    if len(game_lines) != 1 or not game_lines[0].startswith(GAME_NAME + "("):
        refuse(f"its [Game] is not a {GAME_NAME} game", WRONG_FORMAT)
    if len(game_lines[0]) > _MAX_GAME_LINE:
        refuse(f"its [Game] is longer than {_MAX_GAME_LINE:,} characters", _TOO_LARGE)
    if (
        len(state_lines) != 3
        or not state_lines[0].startswith("history=")
        or not state_lines[1].startswith("move_number=")
        or not state_lines[2].startswith("__dict__=")
    ):
        refuse("its [State] is not history=, move_number= and __dict__= lines", WRONG_FORMAT)
    history = _history(state_lines[0])
    if state_lines[1] != f"move_number={len(history)}":
        refuse(f"{brief(state_lines[1])} does not count the history's moves", WRONG_FORMAT)
    if GAME_NAME not in pyspiel.registered_names():
        register()
    try:
        game = pyspiel.load_game(game_lines[0])
    except Exception as error:  # the game's own RulesError, or OpenSpiel's parsing error
        refuse(f"its [Game] cannot be loaded: {brief(str(error), 200)}", RecordReason.BAD_OPTION)
    try:
        # binascii reads the ASCII text in place: no copies but the pickle's bytes.
        pickled = binascii.a2b_base64(state_lines.pop()[len("__dict__=") :], strict_mode=True)
    except ValueError:
        refuse("its __dict__= is not base64 text", WRONG_FORMAT)
    del sections, state_lines  # the longest line, no longer needed
    _scan_pickle(pickled)
    reader = _PositionUnpickler(io.BytesIO(pickled))
    try:
        attributes = reader.load()
    except RecordFormatError:
        raise
    except RecursionError:
        refuse("its pickle is nested too deeply", WRONG_FORMAT)
    except Exception as error:  # whatever a damaged pickle makes the unpickler raise
        refuse(
            f"its pickle cannot be read: {type(error).__name__}: {brief(str(error), 200)}",
            WRONG_FORMAT,
        )
    if not isinstance(game, SpadesCoreGame):  # pragma: no cover - the name was checked
        refuse(f"its [Game] is not a {GAME_NAME} game", WRONG_FORMAT)
    if type(attributes) is not dict or list(attributes) != ["_position"]:
        refuse("its __dict__ holds more or less than the position", WRONG_FORMAT)
    position = attributes["_position"]
    if not isinstance(position, Position) or reader.read is None:
        refuse(f"its position is not a game record; got {brief(position)}", WRONG_FORMAT)
    if position.game.variant.id != game.variant.id or not same_rules(
        game.variant, position.game.rules, game.rules
    ):
        refuse(f"its game record plays other rules than its [Game] ({game})")
    longest = (_episode.DECISIONS_PER_HAND + _episode.CARDS) * _episode.hand_limit(game.hands)
    if len(history) > longest:
        refuse(f"its history is longer than an episode of {game}", RecordReason.TOO_LARGE)
    # The text OpenSpiel reads is written again from the checked values, so
    # the pickle it loads is one this module made; it names the record text
    # just read, whose position OpenSpiel's reader is handed rather than
    # reading the record again.
    read = _ReadPosition(reader.read[0], position)
    checked = "\n".join(
        (
            "[Meta]",
            "Version: 1",
            "",
            "[Game]",
            str(game),
            "[State]",
            "history=" + ",".join(f"{player}:{action}" for player, action in history),
            f"move_number={len(history)}",
            "__dict__=" + base64.b64encode(pickle.dumps({"_position": read})).decode("ascii"),
            "",
        )
    )
    HANDOVER.position = (reader.read[0], position)
    try:
        game_again, state = pyspiel.deserialize_game_and_state(checked)
    finally:
        HANDOVER.position = None
    return cast(SpadesCoreGame, game_again), cast(SpadesCoreState, state)
