"""Game records: saving a game as JSON and loading it back by replaying it.

A record is one JSON object (``docs/records.md`` describes every field)::

    {"format": "spades-game", "version": 1,
     "variant": "classic", "variant_version": 1,
     "options": {"target_score": 300},
     "seed": 7, "first_dealer": "W",
     "hands": [{"bids": [3, 0, 4, 2], "plays": ["2C", "5C", ...]}]}

:func:`dumps` writes one; :func:`loads` reads one by **replaying it through the
engine's checked API** (:func:`~spades_core.new_game`, :meth:`Game.deal`,
:meth:`Game.apply`), so a record that breaks a rule is rejected. Anything
wrong with a record raises :class:`~spades_core.RecordFormatError` whose
``hand`` and ``action`` locate the problem and whose ``reason`` is a
:class:`~spades_core.RecordReason` (with the ``illegal_reason`` for an action
the rules reject). :func:`dump_lines` and :func:`load_lines` stream JSON Lines
files, one record per line.

Decisions:

* :func:`dumps` always writes ``seed`` (a game always has one, and a resumed
  game must deal the same future hands) and writes a hand's ``deal`` only when
  it differs from the deal the seed gives.
* The action index of a hand counts its bids, then its plays, from 0 (bids
  are actions 0-3, plays 4-55). Problems with a hand's deal or with the hand
  as a whole have ``action = None``.
* A record made under another version of its variant's rules is rejected
  (``reason=RecordReason.VARIANT_VERSION``): replaying it under changed rules could
  silently give other scores.
* Unknown fields are rejected, so a misspelt field is never ignored.
* Option names are data: each is looked up among the variant's options
  before anything is called with it.
* Sizes are bounded (:data:`MAX_RECORD_SIZE`, :data:`MAX_HANDS`,
  :data:`MAX_OPTIONS`, :data:`MAX_NAME_LENGTH`, :data:`MAX_NUMBER`); larger
  input is refused with ``reason=RecordReason.TOO_LARGE``, a too long text before it is
  parsed. Messages echo at most a short prefix of a bad value.
* ``hand`` and ``action`` count from 0 (they index the record's lists);
  messages, written for people, count hands and actions from 1.
* A text starting with a UTF-8 byte order mark is read without it.

>>> import spades_core as sc
>>> game = sc.new_game("classic", seed=7, dealer=sc.Seat.WEST, target_score=300)
>>> game = game.deal().bid(3).bid(0).bid(4).bid(2)
>>> text = sc.dumps(game)
>>> text[:80]
'{"format":"spades-game","version":1,"variant":"classic","variant_version":1,"opt'
>>> text[80:]
'ions":{"target_score":300},"seed":7,"first_dealer":"W","hands":[{"bids":[3,0,4,2],"plays":[]}]}'
>>> sc.loads(text) == game
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final, NoReturn

from spades_core.engine import arguments
from spades_core.engine.game import SEATS, Game, Phase, new_game
from spades_core.rules import rng
from spades_core.rules.phases import PhaseStep
from spades_core.rules.registry import load_variant
from spades_core.rules.rng import MAX_SEED
from spades_core.rules.variant import Variant
from spades_core.values import checks, deprecation
from spades_core.values.actions import (
    BIDS,
    PHASE_ACTION_TYPES,
    PLAYS,
    Action,
    BlindNil,
    Play,
    action_of,
)
from spades_core.values.cards import ALL_CARDS, Card, CardSet
from spades_core.values.errors import (
    IllegalActionError,
    IllegalReason,
    InvalidNotationError,
    RecordFormatError,
    RecordReason,
    RulesError,
    VariantError,
    VariantNotFoundError,
    brief,
)
from spades_core.values.seats import Seat

__all__ = [
    "FORMAT",
    "MAX_HANDS",
    "MAX_INDENT",
    "MAX_NAME_LENGTH",
    "MAX_NUMBER",
    "MAX_OPTIONS",
    "MAX_RECORD_SIZE",
    "MAX_STEPS",
    "VERSION",
    "dump_lines",
    "dumps",
    "from_record",
    "load_lines",
    "loads",
    "read_json",
    "to_record",
]

FORMAT: Final = "spades-game"
"""The value of a record's ``format`` field."""
VERSION: Final = 1
"""The record format version this library writes and reads."""

MAX_RECORD_SIZE: Final = 16 * 1024 * 1024
"""The longest record text :func:`loads` reads: 16 MiB (characters of a
``str``, bytes of ``bytes``); a 50,000-hand game takes about 15 MB."""
MAX_HANDS: Final = 50_000
"""The most hands a record may hold."""
MAX_OPTIONS: Final = 64
"""The most entries a record's ``options`` may hold."""
MAX_NAME_LENGTH: Final = 64
"""The longest variant id or option name a record may give, in characters."""
MAX_NUMBER: Final = 2**64
"""No whole number in a record's options may exceed this in magnitude."""
MAX_STEPS: Final = 512
"""The most actions of a variant's phases (``steps``) one hand of a record may hold."""
MAX_INDENT: Final = 16
"""The widest ``indent`` :func:`dumps` takes, in spaces."""

_RECORD_FIELDS: Final = frozenset(
    {"format", "version", "variant", "variant_version", "options", "seed", "first_dealer", "hands"}
)
_HAND_FIELDS: Final = frozenset({"deal", "bids", "plays", "steps"})
_IN_HAND: Final = (Phase.BID, Phase.PLAY, Phase.VARIANT)
_CARD_TEXT: Final = tuple(str(card) for card in ALL_CARDS)
# Records written by dumps() use exactly these texts; others go through Card.parse.
_PLAY_BY_TEXT: Final = {text: PLAYS[card_id] for card_id, text in enumerate(_CARD_TEXT)}


# -- writing -------------------------------------------------------------------


def _cards(mask: int) -> list[str]:
    return [_CARD_TEXT[card.id] for card in CardSet(mask)]


def _hand_entry(
    seed: int,
    number: int,
    dealer: int,
    dealt: tuple[int, ...],
    bids: list[tuple[Seat, int]],
    plays: list[str],
    steps: tuple[PhaseStep, ...] = (),
) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    if tuple(dealt) != rng.deal_masks(seed, number, dealer):
        entry["deal"] = {SEATS[seat].letter: _cards(dealt[seat]) for seat in range(4)}
    blind = {step.seat for step in steps if type(step.action) is BlindNil}
    # A Blind Nil is a step, not a bid: the bidding skips the seat.
    entry["bids"] = [bid for seat, bid in bids if seat not in blind]
    entry["plays"] = plays
    if steps:
        entry["steps"] = [str(step.action) for step in steps]
    return entry


def to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` as plain JSON-ready data (what :func:`dumps` writes).

    A game of more hands than a record may hold (:data:`MAX_HANDS`, which a
    game without a ``max_hands`` can pass) raises :class:`RecordFormatError`
    with reason ``too_large``: no record is written that :func:`from_record`
    would refuse.
    """
    arguments.game(game, "to_record")
    count = len(game.hand_results) + (game.phase in _IN_HAND)
    if count > MAX_HANDS:
        _fail(
            f"the game has {count:,} hands; a record holds at most {MAX_HANDS:,}, so this "
            "game cannot be written as one",
            RecordReason.TOO_LARGE,
        )
    hands: list[dict[str, Any]] = []
    for result in game.hand_results:
        hands.append(
            _hand_entry(
                game.seed,
                result.number,
                result.dealer,
                tuple(cards.mask for cards in result.deal.values()),
                [(seat, result.bids[seat]) for seat in result.bidding_order],
                [_CARD_TEXT[card.id] for trick in result.played for card in trick.cards],
                result.steps,
            )
        )
    if game.phase in _IN_HAND:
        dealer = game.dealer
        made = game.bids
        order = [SEATS[(dealer + i) % 4] for i in (1, 2, 3, 4)]
        bids = [(seat, made[seat]) for seat in order if made[seat] is not None]
        plays = [_CARD_TEXT[card.id] for trick in game.tricks for card in trick.cards]
        plays += [_CARD_TEXT[card.id] for _, card in game.current_trick]
        hands.append(
            _hand_entry(
                game.seed,
                game.hand_number,
                dealer,
                tuple(game.dealt_hand(seat).mask for seat in SEATS),
                bids,  # type: ignore[arg-type]  # every bid listed is made
                plays,
                game.phase_steps,
            )
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": game.variant.id,
        "variant_version": game.variant.version,
        "options": game.rules.overrides_json(),
        "seed": game.seed,
        "first_dealer": game.first_dealer.letter,
        "hands": hands,
    }


def dumps(game: Game, *, indent: int | None = None) -> str:
    """The record of ``game`` as JSON text: one line (ready for JSON Lines)
    unless ``indent`` (0 to :data:`MAX_INDENT` spaces) is given.

    Works in every phase, mid-hand included; ``loads(dumps(game)) == game``.
    A plugin option whose value JSON cannot hold (an object, ``NaN``) raises
    :class:`RecordFormatError` with reason ``bad_option``; a game whose
    record :func:`loads` would refuse as too large (more than
    :data:`MAX_HANDS` hands, or a text longer than :data:`MAX_RECORD_SIZE`
    in UTF-8) raises it with reason ``too_large``.
    """
    arguments.game(game, "dumps")
    if indent is not None:
        checks.whole_number(indent, "dumps", "indent")
        if not 0 <= indent <= MAX_INDENT:
            raise RulesError(
                f"dumps: indent is a number of spaces from 0 to {MAX_INDENT}, or None; "
                f"got {brief(indent)}"
            )
    separators = (",", ":") if indent is None else (",", ": ")
    record = to_record(game)
    try:
        text = json.dumps(
            record,
            indent=indent,
            separators=separators,
            ensure_ascii=False,
            allow_nan=False,
        )
    except (TypeError, ValueError) as error:
        raise RecordFormatError(
            f"the game's options cannot be written as JSON: {error}", reason=RecordReason.BAD_OPTION
        ) from None
    # The limit loads() applies, in bytes of UTF-8, which are never fewer than characters.
    size = len(text) if text.isascii() else len(text.encode("utf-8"))
    if size > MAX_RECORD_SIZE:
        _too_large("the record (bytes of UTF-8)", size, MAX_RECORD_SIZE)
    return text


def dump_lines(games: Iterable[Game]) -> Iterator[str]:
    """One JSON Lines line (ending in ``"\\n"``) per game, produced lazily."""
    for game in games:
        yield dumps(game) + "\n"


# -- reading -------------------------------------------------------------------


def _fail(
    message: str,
    reason: RecordReason,
    hand: int | None = None,
    action: int | None = None,
    illegal_reason: IllegalReason | None = None,
) -> NoReturn:
    where = ""
    if hand is not None:
        # For people, hands and actions count from 1; the attributes stay indexes.
        where = f"hand {hand + 1}" + ("" if action is None else f", action {action + 1}") + ": "
    raise RecordFormatError(
        where + message, reason=reason, hand=hand, action=action, illegal_reason=illegal_reason
    )


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            _fail(f"the key {brief(key)} appears twice in one object", RecordReason.NOT_JSON)
        found[key] = value
    return found


def _reject_constant(name: str) -> NoReturn:
    _fail(f"{name} is not a JSON number", RecordReason.NOT_JSON)


def _too_large(what: str, size: int, limit: int) -> NoReturn:
    _fail(f"{what} is too large: {size:,} where at most {limit:,} are read", RecordReason.TOO_LARGE)


def read_json(text: object) -> object:
    """The JSON value of a record's text (``str`` or UTF-8 ``bytes``), read
    as :func:`loads` reads it: at most :data:`MAX_RECORD_SIZE` long, a leading
    byte order mark skipped, a key given twice or ``NaN`` refused. Raises
    :class:`RecordFormatError`; :func:`from_record` takes the value on."""
    if isinstance(text, bytes | bytearray | str) and len(text) > MAX_RECORD_SIZE:
        unit = "characters" if isinstance(text, str) else "bytes"
        _too_large(f"the record ({unit})", len(text), MAX_RECORD_SIZE)
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).removeprefix(b"\xef\xbb\xbf").decode("utf-8")
        except UnicodeDecodeError as error:
            _fail(
                f"a record is UTF-8 JSON text; these bytes are not UTF-8 ({error})",
                RecordReason.NOT_JSON,
            )
    if not isinstance(text, str):
        _fail(
            f"a record is JSON text (str or bytes); got {type(text).__name__}",
            RecordReason.WRONG_TYPE,
        )
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(
            text, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant
        )
    except RecordFormatError:
        raise
    except ValueError as error:
        # JSONDecodeError, and integers too long for Python to convert.
        _fail(f"not JSON this library reads: {error}", RecordReason.NOT_JSON)
    except RecursionError:
        _fail("not JSON this library reads: nested too deeply", RecordReason.NOT_JSON)


def _type_name(value: object) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string"}
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return names.get(type(value), type(value).__name__)


def _is_int(value: object) -> bool:
    # JSON true/false are Python bools, which are ints; a record never means them as numbers.
    return type(value) is int


def _check_fields(
    obj: Mapping[str, Any], allowed: frozenset[str], what: str, hand: int | None = None
) -> None:
    unknown = sorted(set(obj) - allowed, key=lambda key: brief(key))
    if unknown:
        _fail(
            f"{what} has unknown field(s) {', '.join(brief(key) for key in unknown[:5])}; "
            f"its fields are {', '.join(sorted(allowed))}",
            RecordReason.UNKNOWN_FIELD,
            hand,
        )


def _required(obj: Mapping[str, Any], name: str) -> Any:
    if name not in obj:
        _fail(f"the record has no {name!r} field", RecordReason.MISSING_FIELD)
    return obj[name]


def _read_variant(record: Mapping[str, Any], given: Variant | None) -> Variant:
    variant_id = _required(record, "variant")
    if not isinstance(variant_id, str):
        _fail(
            f"'variant' must be a variant id string; got {_type_name(variant_id)}",
            RecordReason.WRONG_TYPE,
        )
    if len(variant_id) > MAX_NAME_LENGTH:
        _too_large("'variant' (characters)", len(variant_id), MAX_NAME_LENGTH)
    version = _required(record, "variant_version")
    if not _is_int(version):
        _fail(
            f"'variant_version' must be a whole number; got {_type_name(version)}",
            RecordReason.WRONG_TYPE,
        )
    if given is not None:
        if given.id != variant_id:
            _fail(
                f"the record is a game of {brief(variant_id)}, not of the given variant "
                f"{brief(given.id)}",
                RecordReason.UNKNOWN_VARIANT,
            )
        variant = given
    else:
        try:
            variant = load_variant(variant_id)
        except VariantNotFoundError as error:
            raise RecordFormatError(
                f"unknown variant {brief(variant_id)}: {error}", reason=RecordReason.UNKNOWN_VARIANT
            ) from None
        except VariantError as error:
            raise RecordFormatError(
                f"variant {brief(variant_id)} cannot be used: {error}",
                reason=RecordReason.VARIANT_UNAVAILABLE,
            ) from error
    if version != variant.version:
        _fail(
            f"the record was made under version {brief(version)} of the {brief(variant_id)} "
            "rules; the "
            f"installed variant is version {variant.version}, whose rules may differ, so the "
            "record is not replayed",
            RecordReason.VARIANT_VERSION,
        )
    return variant


def _read_header(record: Mapping[str, Any]) -> None:
    form = _required(record, "format")
    if form != FORMAT:
        _fail(f"'format' must be {FORMAT!r}; got {brief(form)}", RecordReason.WRONG_FORMAT)
    version = _required(record, "version")
    if not _is_int(version):
        _fail(
            f"'version' must be a whole number; got {_type_name(version)}", RecordReason.WRONG_TYPE
        )
    if version != VERSION:
        _fail(
            f"record format version {brief(version)} is not supported; this library reads "
            f"version {VERSION}",
            RecordReason.UNSUPPORTED_VERSION,
        )


def _start(record: Mapping[str, Any], variant: Variant) -> Game:
    options = record.get("options", {})
    if not isinstance(options, dict):
        _fail(f"'options' must be an object; got {_type_name(options)}", RecordReason.WRONG_TYPE)
    checked = _read_options(options, variant)
    seed = record.get("seed")
    if seed is not None and (not _is_int(seed) or not 0 <= seed <= MAX_SEED):
        _fail(
            f"'seed' must be a whole number from 0 to 2**64-1; got {brief(seed)}",
            RecordReason.BAD_VALUE,
        )
    dealer_text = record.get("first_dealer")
    if dealer_text is None and seed is None:
        _fail("a record without a 'seed' must give 'first_dealer'", RecordReason.MISSING_FIELD)
    dealer: Seat | None = None
    if dealer_text is not None:
        if not isinstance(dealer_text, str) or dealer_text not in ("N", "E", "S", "W"):
            _fail(
                f"'first_dealer' must be one of N, E, S, W; got {brief(dealer_text)}",
                RecordReason.BAD_VALUE,
            )
        dealer = Seat.parse(dealer_text)
    try:
        return new_game(variant, seed=seed, dealer=dealer, **checked)
    except RulesError as error:
        raise RecordFormatError(f"options: {error}", reason=RecordReason.BAD_OPTION) from None


def _read_options(options: Mapping[object, object], variant: Variant) -> dict[str, object]:
    """The record's options, each name checked against the variant's options
    as data, so no name can reach a call as an unexpected keyword."""
    if len(options) > MAX_OPTIONS:
        _too_large("'options' (entries)", len(options), MAX_OPTIONS)
    supported = variant.option_specs
    checked: dict[str, object] = {}
    for name, value in options.items():
        if not isinstance(name, str):
            _fail(f"option names are strings; got {brief(name)}", RecordReason.BAD_OPTION)
        if len(name) > MAX_NAME_LENGTH:
            _too_large("an option name (characters)", len(name), MAX_NAME_LENGTH)
        # new_game's own keywords are never options, whatever a plugin declares.
        if name not in supported or name in ("seed", "dealer"):
            _fail(
                f"options: {brief(name)} is not an option of {brief(variant.id)}; its options "
                f"are {', '.join(sorted(supported))}",
                RecordReason.BAD_OPTION,
            )
        if type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
            _fail(
                f"options: {name} is {brief(value)}; numbers in a record are at most 2**64 in "
                "magnitude",
                RecordReason.TOO_LARGE,
            )
        checked[name] = value
    return checked


def _read_deal(entry: Mapping[str, Any], number: int, seeded: bool) -> dict[str, list[str]] | None:
    if "deal" not in entry:
        if not seeded:
            _fail(
                "the hand has no 'deal' and the record has no 'seed'",
                RecordReason.MISSING_DEAL,
                number,
            )
        return None
    deal = entry["deal"]
    if not isinstance(deal, dict):
        _fail(f"'deal' must be an object; got {_type_name(deal)}", RecordReason.WRONG_TYPE, number)
    for key, cards in deal.items():
        if key not in ("N", "E", "S", "W"):
            _fail(
                f"'deal' keys are N, E, S, W; got {brief(key)}", RecordReason.INVALID_DEAL, number
            )
        if isinstance(cards, list) and len(cards) > 13:
            _fail(
                f"the deal of {key} lists {len(cards)} cards; a hand has 13",
                RecordReason.INVALID_DEAL,
                number,
            )
        if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
            _fail(
                f"the deal of {key} must be a list of card strings; got {_type_name(cards)}",
                RecordReason.WRONG_TYPE,
                number,
            )
    return deal


def _read_actions(entry: Mapping[str, Any], number: int) -> list[Action]:
    bids = entry.get("bids")
    plays = entry.get("plays")
    for name, value in (("bids", bids), ("plays", plays)):
        if name not in entry:
            _fail(f"the hand has no {name!r} field", RecordReason.MISSING_FIELD, number)
        if not isinstance(value, list):
            _fail(
                f"{name!r} must be a list; got {_type_name(value)}", RecordReason.WRONG_TYPE, number
            )
    assert isinstance(bids, list)
    assert isinstance(plays, list)
    if len(bids) > 4:
        _fail(f"the hand has {len(bids)} bids; a hand has 4", RecordReason.TOO_MANY_BIDS, number, 4)
    if len(plays) > 52:
        _fail(
            f"the hand has {len(plays)} plays; a hand has 52",
            RecordReason.TOO_MANY_PLAYS,
            number,
            4 + 52,
        )
    actions: list[Action] = []
    for index, bid in enumerate(bids):
        if not _is_int(bid):
            _fail(
                f"a bid is a whole number (0 = Nil); got {_type_name(bid)}",
                RecordReason.WRONG_TYPE,
                number,
                index,
            )
        if not 0 <= bid <= 13:
            _fail(
                f"a bid is 0-13 (0 = Nil); got {brief(bid)}",
                RecordReason.ILLEGAL_ACTION,
                number,
                index,
                IllegalReason.BID_NOT_ALLOWED,
            )
        actions.append(BIDS[bid])
    for index, card in enumerate(plays, start=len(bids)):
        if not isinstance(card, str):
            _fail(
                f"a play is a card string like 'QH'; got {_type_name(card)}",
                RecordReason.WRONG_TYPE,
                number,
                index,
            )
        play = _PLAY_BY_TEXT.get(card)
        if play is None:
            try:
                play = PLAYS[Card.parse(card).id]
            except InvalidNotationError as error:
                _fail(str(error), RecordReason.BAD_CARD, number, index)
        actions.append(play)
    return actions


def _read_steps(entry: Mapping[str, Any], number: int) -> list[Action]:
    steps = entry.get("steps", [])
    if not isinstance(steps, list):
        _fail(f"'steps' must be a list; got {_type_name(steps)}", RecordReason.WRONG_TYPE, number)
    if len(steps) > MAX_STEPS:
        _too_large("a hand's steps", len(steps), MAX_STEPS)
    actions: list[Action] = []
    for text in steps:
        action: object = None
        if isinstance(text, str) and len(text) <= MAX_NAME_LENGTH:
            try:
                action = action_of(text)
            except IllegalActionError:
                action = None
        if type(action) not in PHASE_ACTION_TYPES:
            _fail(
                "a step is an action of a variant's phase written like 'blind', 'look' or "
                f"'pass QH'; got {brief(text)}",
                RecordReason.WRONG_TYPE,
                number,
            )
        actions.append(action)  # type: ignore[arg-type]
    return actions


def _describe(game: Game, action: Action) -> str:
    seat = game.to_act
    who = f" by {seat.name}" if seat is not None else ""
    if game.phase is Phase.PLAY and isinstance(action, Play):
        return f"{action}{who} (trick {len(game.tricks) + 1})"
    return f"{type(action).__name__.lower()} {action}{who}"


def _replay_hand(game: Game, entry: object, number: int, last: bool, seeded: bool) -> Game:
    if game.is_over:
        _fail(
            "the game was over after the previous hand; the record has more hands",
            RecordReason.AFTER_GAME_OVER,
            number,
        )
    if not isinstance(entry, dict):
        _fail(f"a hand is an object; got {_type_name(entry)}", RecordReason.WRONG_TYPE, number)
    _check_fields(entry, _HAND_FIELDS, "the hand", number)
    deal = _read_deal(entry, number, seeded)
    actions = _read_actions(entry, number)
    steps = _read_steps(entry, number)
    try:
        game = game.deal(deal)
    except IllegalActionError as error:
        _fail(f"deal: {error}", RecordReason.INVALID_DEAL, number)
    # The steps of a variant's phases are taken whenever the game is in one;
    # the bids and plays otherwise. The action index counts both in that order.
    steps.reverse()
    actions.reverse()
    total = len(actions) + len(steps)
    for index in range(total):
        source = steps if steps and (game.phase is Phase.VARIANT or not actions) else actions
        action = source.pop()
        try:
            game = game.apply(action)
        except IllegalActionError as error:
            _fail(
                f"{_describe(game, action)}: {error}",
                RecordReason.ILLEGAL_ACTION,
                number,
                index,
                error.reason,
            )
        except VariantError as error:
            # A plugin that fails while judging or scoring: not the record's
            # fault, but loads() still reports it in its one error type.
            raise RecordFormatError(
                f"hand {number + 1}, action {index + 1}: {error}",
                reason=RecordReason.VARIANT_UNAVAILABLE,
                hand=number,
                action=index,
            ) from error
    if not last and game.phase in _IN_HAND:
        _fail(
            f"the hand stops after {total} actions but another hand follows; "
            "only the last hand may be unfinished",
            RecordReason.INCOMPLETE_HAND,
            number,
            total,
        )
    return game


def from_record(record: object, *, variant: Variant | None = None) -> Game:
    """The game a record (parsed JSON data) describes, replayed through the engine.

    ``variant`` supplies the variant object for a record of a variant that is
    not installed (e.g. one made with :meth:`Variant.derive`); its id must
    match the record's. Raises :class:`RecordFormatError` for any bad record.
    """
    if variant is not None:
        checks.instance(variant, Variant, "from_record", "variant", "a Variant or None")
    if not isinstance(record, dict):
        _fail(f"a record is a JSON object; got {_type_name(record)}", RecordReason.NOT_AN_OBJECT)
    _check_fields(record, _RECORD_FIELDS, "the record")
    _read_header(record)
    chosen = _read_variant(record, variant)
    game = _start(record, chosen)
    hands = _required(record, "hands")
    if not isinstance(hands, list):
        _fail(f"'hands' must be a list; got {_type_name(hands)}", RecordReason.WRONG_TYPE)
    if len(hands) > MAX_HANDS:
        _too_large("'hands' (hands)", len(hands), MAX_HANDS)
    seeded = record.get("seed") is not None
    for number, entry in enumerate(hands):
        game = _replay_hand(game, entry, number, number == len(hands) - 1, seeded)
    return game


def loads(text: str | bytes, *, variant: Variant | None = None) -> Game:
    """The game a JSON record describes, replayed through the engine.

    Raises :class:`RecordFormatError` (with ``reason``, ``hand`` and
    ``action``) for anything wrong with the record; nothing else escapes but
    :class:`~spades_core.ArgumentTypeError` for a ``variant`` that is not a
    :class:`~spades_core.Variant`. See :func:`from_record` for ``variant``.
    """
    if variant is not None:
        checks.instance(variant, Variant, "loads", "variant", "a Variant or None")
    return from_record(read_json(text), variant=variant)


def load_lines(lines: Iterable[str | bytes], *, variant: Variant | None = None) -> Iterator[Game]:
    """The games of a JSON Lines stream, one per non-blank line, loaded lazily.

    A bad record raises :class:`RecordFormatError` whose message starts with
    its line number (from 1); the games before it have been yielded.
    """
    for line_number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield loads(line, variant=variant)
        except RecordFormatError as error:
            raise RecordFormatError(
                f"line {line_number}: {error}",
                reason=error.reason,
                hand=error.hand,
                action=error.action,
                illegal_reason=error.illegal_reason,
            ) from None


# The deprecated records.REASONS of release 0.1: the reasons as strings, among them copies of
# IllegalReason's values (a replayed illegal action now has reason
# ILLEGAL_ACTION, and the IllegalReason in illegal_reason).
_RECORD_REASONS: Final = frozenset(
    {
        "not_json",
        "not_an_object",
        "wrong_format",
        "unsupported_version",
        "missing_field",
        "unknown_field",
        "wrong_type",
        "bad_value",
        "unknown_variant",
        "variant_unavailable",
        "variant_version",
        "bad_option",
        "too_large",
        "missing_deal",
        "invalid_deal",
        "bad_card",
        "too_many_bids",
        "too_many_plays",
        "incomplete_hand",
        "after_game_over",
        "wrong_phase",
        "bid_not_allowed",
        "card_not_in_hand",
        "must_follow_suit",
        "spades_not_broken",
        "must_lead_two_of_clubs",
    }
)

__getattr__ = deprecation.OldNames(
    "spades_core.records",
    {
        "REASONS": (
            _RECORD_REASONS,
            "spades_core.RecordReason (RecordFormatError.reason is one of its members)",
        )
    },
).attribute
