"""One Spades table as messages: seating, bots, what each seat is told, and
what a player may send. Plain Python on spades-core's public API, with no
networking, so that both front ends run this one implementation:

* ``examples/web_table/server.py`` runs it behind one WebSocket per player;
* the web app (``examples/web_app``) runs it in the page's Web Worker under
  Pyodide, with you at South and bots in the other seats.

A player sends JSON text:

* ``{"type": "bid", "value": 3}`` (0 is Nil);
* ``{"type": "play", "card": "QH"}`` (the library's card notation);
* ``{"type": "next"}`` once a hand is scored: ready for the next deal.

and is sent ``{"type": "state", ...}`` (:func:`state_message`: its seat's
view and the table's facts) after every change, or ``{"type": "error",
"message": ...}`` when its last message was refused, which changed nothing.

Opening a table takes the start page's settings (:func:`read_settings`),
chosen from :func:`catalogue`: every installed variant with its options
(named and explained for people, with their defaults and ranges as the
engine's option specs give them), the opponents' levels in the variant's own
words, and every bot level.

Numbers shown to people are written with the minus sign U+2212 (``−200``),
as the page writes them too.
"""

from __future__ import annotations

import enum
import json
import logging
import secrets
from collections.abc import Collection, Mapping
from typing import Any, Final

import spades_core as sc
from spades_core.errors import brief
from spades_core.options import OptionSpec
from spades_core.players import PlayerError, check_human_table
from spades_core.scoring import score_breakdown

__all__ = [
    "HOST_SEAT",
    "NEXT_HAND",
    "PERSON",
    "MessageError",
    "SettingsError",
    "TableSettings",
    "catalogue",
    "level_word",
    "make_bots",
    "next_hand_refusal",
    "number_text",
    "option_refusal",
    "read_message",
    "read_settings",
    "seat_players",
    "state_message",
    "waiting_for_next",
]

PERSON: Final = "person"
"""The player kind of a seat kept for a person (any other kind is a bot level)."""
YOU: Final = "you"
"""The player kind a seat is shown with in its own messages."""
HOST_SEAT: Final = sc.Seat.SOUTH
"""Where the person who opens a table sits."""
NEXT_HAND: Final = "next"
"""What :func:`read_message` returns for ``{"type": "next"}``."""

OPTION_LABELS: Final = {
    "target_score": "Points to win",
    "loss_floor": "A team loses at",
    "nil_value": "Nil is worth",
    "nil_tricks": "Tricks taken by a Nil bidder",
    "double_nil": "Both partners bid Nil",
    "bag_limit": "Bags before a penalty",
    "bag_penalty": "Bag penalty",
    "bag_overflow": "Bags past the limit",
    "break_rule": "Spades are broken by",
    "first_lead": "First lead of a hand",
    "max_team_bid": "Most a team may bid",
    "whiz_nil_needs_no_ace": "No Nil with the A♠",
    "max_hands": "Most hands in a game",
}
"""Names for people of the standard options; a plugin's own options are
shown by their name with spaces (:func:`option_label`)."""

CHOICE_LABELS: Final = {
    "count_toward_contract": "count toward the partner's contract",
    "bags_only": "count only as bags",
    "bags_with_points": "count as bags, a point each",
    "independent": "each Nil scored on its own",
    "all_or_nothing": "double if both make it, minus double if not",
    "no_loss": "double if both make it, nothing if not",
    "carry": "penalty per full limit, the rest carries",
    "reset": "one penalty, then back to zero",
    "offsuit_spade": "a spade on a trick led in another suit",
    "any_spade": "any spade played earlier",
    "left_of_dealer": "the dealer's left, any card",
    "two_of_clubs": "the holder of the 2♣, leading it",
}
"""Words for people for the standard options' choices."""

OPTION_EFFECTS: Final = {
    "target_score": "The first team to reach this score wins the game.",
    "loss_floor": "A team whose score falls this low loses the game at once.",
    "nil_value": "What a Nil bid wins when it is made, and loses when it is broken.",
    "nil_tricks": "What the tricks taken by a player who bid Nil count for.",
    "double_nil": "How a hand is scored when both partners bid Nil.",
    "bag_limit": "A team that has collected this many bags loses the bag penalty.",
    "bag_penalty": "The points a team loses when its bags reach the limit.",
    "bag_overflow": "What becomes of the bags past the limit.",
    "break_rule": "What has to happen before spades may be led.",
    "first_lead": "Who leads the first trick of each hand.",
    "max_team_bid": "The most two partners may bid between them.",
    "whiz_nil_needs_no_ace": "A player holding the ace of spades may not bid Nil.",
    "max_hands": "The game ends after this many hands; the higher score wins.",
}
"""What each standard option does, in a line for people; a plugin's own
option is explained by its spec's summary."""

NONE_WORDS: Final = {
    "loss_floor": "no floor",
    "bag_limit": "no bag penalty",
    "max_team_bid": "no cap",
    "max_hands": "no limit",
}
"""What leaving a standard option empty (``None``) means, in words."""

LEVEL_WORDS: Final = {
    "classic": (("Easy", "easy"), ("Medium", "normal"), ("Hard", "hard")),
    "mirror": (("Easy", "easy"), ("Normal", "normal")),
}
"""The opponents' levels each variant's description offers, in its words,
each with the registered bot level that plays it (Classic's *medium* is the
normal bot). A variant not listed offers its easy, normal and hard bots by
those names; every registered level stays one step away on the start page."""

TARGETS: Final = (250, 300, 500)
"""The winning scores the start page offers at a tap (with the variant's
default, when it is another); the house-rule sheet takes any other."""

SEAT_NAMES: Final = {sc.Seat.NORTH: "North", sc.Seat.EAST: "East", sc.Seat.WEST: "West"}
_log = logging.getLogger("web_table")


class SettingsError(ValueError):
    """A start-page request that cannot open a table; the message says why."""


class MessageError(ValueError):
    """A player's message that is not one of the protocol's; the message says
    what to send instead."""


# -- the start page ---------------------------------------------------------------


def option_label(name: str) -> str:
    """An option's name for people."""
    return OPTION_LABELS.get(name) or name.replace("_", " ").capitalize()


def _choice_label(value: str) -> str:
    return CHOICE_LABELS.get(value) or value.replace("_", " ")


def number_text(number: int) -> str:
    """A whole number for people: thousands separated, and the minus sign
    U+2212 (``−1,000``)."""
    return f"{number:,}".replace("-", "\N{MINUS SIGN}")


def _int_range(spec: OptionSpec[Any]) -> tuple[int, int, bool] | None:
    """The lowest and highest whole number ``spec`` accepts and whether it
    accepts ``None`` (``None`` for an option that is not a number)."""
    if spec.minimum is None or spec.maximum is None:
        return None
    return spec.minimum, spec.maximum, spec.allows_none


def _none_words(name: str) -> str:
    return NONE_WORDS.get(name, "none")


def _effect(name: str, summary: str) -> str:
    if name in OPTION_EFFECTS:
        return OPTION_EFFECTS[name]
    text = summary.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else ""


def _option_value_text(name: str, value: object) -> str:
    """An option's value in words: a number, yes or no, a choice's words, or
    what having none means."""
    if value is None:
        return _none_words(name)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, int):
        return number_text(value)
    if isinstance(value, str):
        return _choice_label(value)
    return json.dumps(value)


def _accepts_words(name: str, spec: OptionSpec[Any]) -> str:
    """What an option accepts, in words for people."""
    bounds = _int_range(spec)
    if bounds is not None:
        low, high, nullable = bounds
        words = f"a whole number from {number_text(low)} to {number_text(high)}"
        return words + (f" (or {_none_words(name)})" if nullable else "")
    if spec.values is not None and all(isinstance(value, str) for value in spec.values):
        quoted = [_quoted(_choice_label(str(value))) for value in spec.values]
        return "one of " + (", ".join(quoted[:-1]) + " or " if len(quoted) > 1 else "") + quoted[-1]
    if spec.values == (False, True):
        return "yes or no"
    return spec.accepts


def _quoted(text: str) -> str:
    return f"\N{LEFT DOUBLE QUOTATION MARK}{text}\N{RIGHT DOUBLE QUOTATION MARK}"


def option_refusal(variant: sc.Variant, name: str, value: object) -> str | None:
    """Why ``variant``'s option ``name`` refuses ``value``, in words for people
    (what it takes, and the value given); ``None`` when the option takes it."""
    spec = variant.option_specs[name]
    try:
        spec.check(value)
    except sc.SpadesError:
        shown = number_text(value) if type(value) is int else brief(value)
        if isinstance(value, str):
            shown = _quoted(value if len(value) <= 40 else value[:39] + "…")
        return f"{option_label(name)}: {_accepts_words(name, spec)}; {shown} is not one."
    return None


def _option_json(variant: sc.Variant, name: str) -> dict[str, Any]:
    """One option for the start page's form: its name and effect in words,
    how to edit it, its default and what it accepts, from the engine's spec."""
    spec = variant.option_specs[name]
    default = variant.defaults[name]
    entry: dict[str, Any] = {
        "name": name,
        "label": option_label(name),
        "accepts": spec.accepts,
        "accepts_words": _accepts_words(name, spec),
        "summary": spec.summary,
        "effect": _effect(name, spec.summary),
        "default_text": _option_value_text(name, default),
    }
    bounds = _int_range(spec)
    if isinstance(default, bool):
        entry.update(kind="bool", default=default)
    elif isinstance(default, enum.Enum):
        choices = [member.value for member in type(default)]
        entry.update(
            kind="choice",
            default=default.value,
            choices=choices,
            choice_labels={choice: _choice_label(choice) for choice in choices},
        )
    elif bounds is not None:
        low, high, nullable = bounds
        entry.update(kind="int", default=default, minimum=low, maximum=high, nullable=nullable)
        if nullable:
            entry["none_label"] = _none_words(name)
    else:
        entry.update(kind="json", default=default)
    return entry


def level_word(variant_id: str, level: str) -> str:
    """A bot level in ``variant_id``'s words (Classic calls its normal bot
    *Medium*), or the level's own name."""
    for word, kind in LEVEL_WORDS.get(variant_id, ()):
        if kind == level:
            return word
    return level.capitalize()


def _levels_json(variant_id: str) -> list[dict[str, str]]:
    """The levels offered at a tap for ``variant_id``: its words, and the bot each stands for."""
    offered = LEVEL_WORDS.get(
        variant_id, tuple((kind.capitalize(), kind) for kind in ("easy", "normal", "hard"))
    )
    return [{"word": word, "kind": kind} for word, kind in offered if kind in sc.bots.LEVELS]


def _targets(variant: sc.Variant) -> list[int]:
    """The winning scores offered at a tap: :data:`TARGETS` that the variant
    takes, and its default."""
    if "target_score" not in variant.option_specs:
        return []
    spec = variant.option_specs["target_score"]
    offered = {variant.defaults["target_score"]}
    for target in TARGETS:
        try:
            offered.add(spec.check(target))
        except sc.SpadesError:
            continue
    return sorted(value for value in offered if type(value) is int)


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def _sentences(text: str) -> list[str]:
    return [part if part.endswith(".") else part + "." for part in text.strip().split(". ") if part]


def _briefs(summaries: Mapping[str, str]) -> dict[str, str]:
    """Each variant's first sentence that no other variant's summary shares
    (a rule that sets it apart), or its first sentence."""
    seen: dict[str, int] = {}
    for summary in summaries.values():
        for sentence in set(_sentences(summary)):
            seen[sentence] = seen.get(sentence, 0) + 1
    briefs = {}
    for variant_id, summary in summaries.items():
        sentences = _sentences(summary)
        own = [sentence for sentence in sentences if seen[sentence] == 1]
        briefs[variant_id] = (own or sentences or [""])[0]
    return briefs


def catalogue(*, friends: bool, variant_ids: Collection[str] | None = None) -> dict[str, Any]:
    """Every installed variant (plugins too) with its options, and who may
    take a seat: the bot levels, and a friend by link when ``friends``.
    ``variant_ids`` limits the variants to those (a server leaves out the
    plugins that did not load in time)."""
    installed = []
    for variant_id in sc.available_variants() if variant_ids is None else variant_ids:
        try:
            installed.append(sc.load_variant(variant_id))
        except sc.SpadesError as error:  # a broken plugin is not offered; the others are
            _log.warning("variant %s not offered: %s", variant_id, error)
            continue
    briefs = _briefs({variant.id: variant.summary for variant in installed})
    variants = [
        {
            "id": variant.id,
            "title": variant.title,
            "brief": briefs[variant.id],
            "summary": variant.summary,
            "options": [_option_json(variant, name) for name in variant.option_specs],
            "levels": _levels_json(variant.id),
            "level_words": {level: level_word(variant.id, level) for level in sc.bots.LEVELS},
            "targets": _targets(variant),
        }
        for variant in installed
    ]
    players = [
        {
            "kind": level,
            "label": f"{level.capitalize()} bot",
            "summary": _first_line(type(sc.bots.make(level, seed=0)).__doc__),
        }
        for level in sc.bots.LEVELS
    ]
    if friends:
        players.append(
            {"kind": PERSON, "label": "A friend", "summary": "whoever opens the seat's link"}
        )
    default = "normal" if "normal" in sc.bots.LEVELS else sc.bots.LEVELS[0]
    return {
        "variants": variants,
        "levels": list(sc.bots.LEVELS),
        "players": players,
        "default_player": default,
        "seats": {seat.letter: name for seat, name in SEAT_NAMES.items()},
        "host_seat": HOST_SEAT.letter,
        "record_limit": sc.records.MAX_RECORD_SIZE,
    }


class TableSettings:
    """A checked start-page request: the new game, who plays each seat (a
    bot level or :data:`PERSON`), and whether the coach gives tips."""

    def __init__(self, game: sc.Game, players: Mapping[sc.Seat, str], coach: bool) -> None:
        self.game = game
        self.players = dict(players)
        self.coach = coach

    def seating_json(self) -> dict[str, Any]:
        """Who sits where and the coach setting, as JSON-ready data."""
        return {
            "players": {seat.letter: kind for seat, kind in self.players.items()},
            "coach": self.coach,
        }


def seat_players(players: object, *, friends: bool) -> dict[sc.Seat, str]:
    """Who plays each seat, checked: a bot level, or :data:`PERSON` (only
    when ``friends``). Every table seats its players here, so a kind of player
    a table must refuse is refused in this one place.

    ``players`` maps seat letters to kinds; a seat not given is the host's
    (South: a person) or a normal bot. A person may leave South to a bot and
    watch four bots play.
    """
    if not isinstance(players, Mapping):
        raise SettingsError(f"players must be a JSON object; got {brief(players)}")
    for key in players:
        if key not in {seat.letter for seat in sc.Seat}:
            raise SettingsError(f"players are given by seat letter (N, E, S, W); got {brief(key)}")
    allowed = [*sc.bots.LEVELS, PERSON] if friends else list(sc.bots.LEVELS)
    seated: dict[sc.Seat, str] = {}
    for seat in sc.Seat:
        kind = players.get(seat.letter, PERSON if seat == HOST_SEAT else "normal")
        if kind == PERSON and seat == HOST_SEAT:
            seated[seat] = kind
            continue
        if kind not in allowed:
            try:
                check_human_table(kind)  # a player for measurement only is refused as such
            except PlayerError as error:
                raise SettingsError(str(error)) from None
            raise SettingsError(
                f"seat {seat.letter} takes {' or '.join(repr(k) for k in allowed)}; "
                f"got {brief(kind)}"
            )
        seated[seat] = kind
    return seated


def make_bots(
    players: Mapping[sc.Seat, str], seeds: Mapping[sc.Seat, int] | None = None
) -> dict[sc.Seat, sc.bots.Bot]:
    """A bot for every seat :func:`seat_players` gave to a bot level, seeded
    from ``seeds`` (random where not given)."""
    chosen = seeds or {}
    return {
        seat: sc.bots.make(kind, seed=chosen.get(seat, secrets.randbits(32)))
        for seat, kind in players.items()
        if kind != PERSON
    }


def read_settings(body: object, *, friends: bool) -> TableSettings:
    """Check a start-page request and start its game.

    ``body`` is ``{"variant": id, "options": {...}, "players": {"N": level,
    ...}, "coach": true}``; anything wrong raises :class:`SettingsError`
    with the engine's own words where the engine refused it.
    """
    if not isinstance(body, Mapping):
        raise SettingsError("send the table's settings as a JSON object")
    variant_id = body.get("variant")
    if variant_id not in sc.available_variants():
        raise SettingsError(
            f"variant {brief(variant_id)} is not installed; "
            f"choose one of {', '.join(sc.available_variants())}"
        )
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise SettingsError(f"options must be a JSON object; got {brief(options)}")
    players = seat_players(body.get("players", {}), friends=friends)
    coach_on = body.get("coach", True)
    if type(coach_on) is not bool:
        raise SettingsError(f"coach must be true or false; got {brief(coach_on)}")
    try:
        variant = sc.load_variant(variant_id)
        for name, value in options.items():
            refusal = option_refusal(variant, name, value) if name in variant.option_specs else None
            if refusal is not None:
                raise SettingsError(refusal)
        variant.rules(**options)  # the engine names an unknown option or a refused combination
        game = sc.new_game(variant, **options)
    except sc.SpadesError as error:
        raise SettingsError(str(error)) from None
    return TableSettings(game, players, coach_on)


# -- what a player sends -----------------------------------------------------------


def read_message(text: str) -> sc.Action | str:
    """The action a player's message asks for, or :data:`NEXT_HAND`;
    :class:`MessageError` for anything else. Whether the action is legal is
    the engine's to say when it is applied."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise MessageError(
            'a message must be a JSON object such as {"type": "play", "card": "QH"}'
        ) from None
    if not isinstance(message, dict):
        raise MessageError(f"a message must be a JSON object; got {brief(message)}")
    kind = message.get("type")
    try:
        if kind == "bid":
            value = message.get("value")
            if type(value) is not int:
                raise MessageError(
                    f"a bid is a whole number from 0 (Nil) to 13; got {brief(value)}"
                )
            return sc.Bid.of(value)
        if kind == "play":
            card = message.get("card")
            if type(card) is not str:
                raise MessageError(f'a play names its card as text such as "QH"; got {brief(card)}')
            return sc.Play.of(card)
    except sc.SpadesError as error:
        raise MessageError(str(error)) from None
    if kind == NEXT_HAND:
        return NEXT_HAND
    raise MessageError(f'unknown message type {brief(kind)}; send "bid", "play" or "next"')


def next_hand_refusal(game: sc.Game) -> str | None:
    """Why asking for the next hand makes no sense now, or ``None`` when it does."""
    if game.is_over:
        return "the game is over; there is no next hand"
    if game.phase is not sc.Phase.DEAL:
        return "the hand is still being played; ask for the next one when it is scored"
    return None


def waiting_for_next(
    game: sc.Game, present: Collection[sc.Seat], asked: Collection[sc.Seat]
) -> list[sc.Seat]:
    """The seats whose players must still ask for the next hand before it is
    dealt: people ``present`` at the table who have not ``asked``, once a
    hand has been scored (the first hand is dealt at once)."""
    if game.phase is not sc.Phase.DEAL or not game.hand_results:
        return []
    return [seat for seat in sc.Seat if seat in present and seat not in asked]


# -- what a seat is told -------------------------------------------------------------


def _action_json(action: sc.Action) -> str | int:
    """An action as the protocol writes it: a card (``"QH"``) or a bid (0 = Nil)."""
    if isinstance(action, sc.Bid):
        return action.value
    return str(action.card) if isinstance(action, sc.Play) else "deal"


def _trick_json(trick: sc.Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader.letter,
        "cards": [str(card) for card in trick.cards],
        "winner": trick.winner.letter,
    }


def _last_trick(view: sc.views.View) -> dict[str, Any] | None:
    """The trick last won: of this hand, or, between hands, the final one of the
    hand just scored (all of whose cards are public)."""
    if view.tricks:
        return _trick_json(view.tricks[-1])
    if view.phase in (sc.Phase.DEAL, sc.Phase.GAME_OVER) and view.hand_results:
        return _trick_json(view.hand_results[-1].played[-1])
    return None


def _house_rules(view: sc.views.View) -> list[str]:
    """The options this game changed from its variant's defaults, for people."""
    return [
        f"{option_label(name)}: {_option_value_text(name, value)}"
        for name, value in view.rules.overrides_json().items()
    ]


def _hand_summary(view: sc.views.View) -> dict[str, Any] | None:
    """The hand just scored, between hands and at the end of the game: its
    bids, tricks and totals, each team's score itemised by the library (the
    variant's own items: contract made or set, overtricks, Nil results, bag
    penalty...), and its last trick."""
    if view.phase not in (sc.Phase.DEAL, sc.Phase.GAME_OVER) or not view.hand_results:
        return None
    result = view.hand_results[-1]
    return {
        "number": result.number,
        **result.summary(),
        "teams": score_breakdown(view).summary(),
        "last_trick": _trick_json(result.played[-1]),
    }


def state_message(
    game: sc.Game,
    seat: sc.Seat | None,
    *,
    players: Mapping[sc.Seat, str],
    online: Collection[sc.Seat] = (),
    coach_on: bool,
    waiting: Collection[sc.Seat] = (),
) -> dict[str, Any]:
    """The state message for ``seat`` (``None``: a spectator): its view of
    ``game`` (never a card it may not see, nor the seed) and the table's facts:
    who plays each seat and whether someone is ``online`` there, the coach's
    tip on its turn, why its bids are limited, the hand just scored, and the
    seats ``waiting`` to ask for the next hand."""
    view = game.public_view() if seat is None else game.view(seat)
    state = view.to_dict()
    state["type"] = "state"
    state["title"] = view.variant.title
    state["house_rules"] = _house_rules(view)
    state["last_trick"] = _last_trick(view)
    state["hand_summary"] = _hand_summary(view)
    state["waiting_for_next"] = [other.letter for other in sc.Seat if other in waiting]
    state["players"] = {
        other.letter: {
            "kind": YOU if other == seat else players[other],
            "online": other in online,
            "level": None
            if other == seat or players[other] == PERSON
            else level_word(view.variant.id, players[other]),
        }
        for other in sc.Seat
    }
    state["coach_on"] = coach_on
    # The variant's own sentence on what limits the bid (None: every bid is open).
    state["bid_note"] = view.explain_bids()
    state["coach"] = None
    if coach_on and view.is_my_turn:
        tip = sc.coach(view)
        state["coach"] = {"action": _action_json(tip.action), "reason": tip.reason}
    return state
