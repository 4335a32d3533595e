"""Every installed variant as an OpenSpiel game (extra ``spades-core[openspiel]``).

>>> import pyspiel
>>> from spades_core.envs import openspiel
>>> openspiel.register()
>>> game = pyspiel.load_game("spades_core", {"variant": "mirror", "target_score": 300})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

:func:`register` adds the game short name ``"spades_core"`` to OpenSpiel. Its
parameters are

* ``variant`` — an installed variant's id (``"classic"`` by default);
* ``hands`` — hands per episode: 1 (the default), up to 200, or 0 for whole
  games (which stop unfinished after 200 hands, far beyond real games);
* ``returns`` — ``"points"`` (the default): each player's return is its
  team's score change over the episode (general-sum); or ``"win"``: +1 to
  the winning team and -1 to the other when the game is over, 0 to everyone
  when the episode ends first or the game ends undecided (zero-sum);
* every option of every installed variant, by name. A string option left at
  ``""``, and an integer option left at the placeholder shown by
  ``pyspiel.registered_games()``, take the variant's own default; an integer
  option that may be ``None`` (``loss_floor``, ``bag_limit``,
  ``max_team_bid``, ``max_hands``) is ``None`` when given 0, which is outside
  its range otherwise.
  The variant checks every value (a bad one raises a
  :class:`~spades_core.RulesError`), and an option the variant does not
  have is an error too.

The loaded game's parameters are the resolved ones, so its string names the
rules exactly. Players 0-3 are North, East, South and West; North and South
are partners. Each hand starts with 52 chance moves: the k-th moves the card
with that id to the seat k places left of the dealer's left (the first hand's
dealer is West, so North gets the first card, bids first and leads first, as
in OpenSpiel's own ``spades``). Player action ids are
:mod:`spades_core.encoding`'s: 0-51 play a card, 52-65 bid (52 is Nil).
Rewards are terminal only. Observations (strings and tensors, see
:mod:`spades_core.envs.features`) are built from the seat's
:class:`~spades_core.views.View` alone; the information state is the
observation plus the seat's dealt hand and the order of play.
``resample_from_infostate`` draws the hidden cards with
:func:`~spades_core.sampling.determinize`, so OpenSpiel's IS-MCTS plays every variant;
:class:`ISMCTSPlayer` seats such a bot at a spades-core table. A state
serializes as its game record (:mod:`spades_core.records`) plus the cards
dealt so far of a hand being dealt. OpenSpiel pickles those attributes, and
``pyspiel.deserialize_game_and_state`` unpickles them, running whatever a
crafted text asks for: read text you did not write with
:func:`deserialize_game_and_state`, which runs nothing of it.
"""

from __future__ import annotations

import base64
import binascii
import enum
import io
import json
import pickle
import pickletools
import random
import re
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Final, NoReturn, cast

import attrs
import numpy as np
import pyspiel

from spades_core.bots import deal_sampler, playout_value
from spades_core.engine import arguments
from spades_core.engine.encoding import (
    BID_ID_BASE,
    NUM_ACTIONS,
    action_from_id,
    after_legal_id,
    ids_of_bits,
    legal_id_bits,
)
from spades_core.engine.game import SEATS, Game, Phase, new_game
from spades_core.engine.records import dumps, loads
from spades_core.engine.sampling import HiddenCards, determinize
from spades_core.engine.transitions import deal_unchecked
from spades_core.engine.views import View
from spades_core.envs import _episode, features
from spades_core.rules.registry import available_variants, load_variant
from spades_core.rules.rng import hands_of_deck
from spades_core.rules.variant import Variant
from spades_core.values import checks
from spades_core.values.actions import Action
from spades_core.values.cards import ALL_CARDS
from spades_core.values.errors import (
    ArgumentTypeError,
    IllegalActionError,
    IllegalReason,
    RecordFormatError,
    RecordReason,
    RulesError,
    SpadesError,
    brief,
)
from spades_core.values.options import OptionSpec, Rules
from spades_core.values.seats import Seat, Team

__all__ = [
    "FIRST_DEALER",
    "GAME_NAME",
    "INT_PLACEHOLDER",
    "MAX_SERIALIZED_SIZE",
    "ROLLOUTS",
    "VALUE_SCALE",
    "ISMCTSPlayer",
    "NormalRollouts",
    "SpadesCoreGame",
    "SpadesCoreState",
    "deserialize_game_and_state",
    "game_parameters",
    "ismcts_player",
    "register",
]

GAME_NAME: Final = "spades_core"
"""The short name :func:`register` gives the game."""
FIRST_DEALER: Final = Seat.WEST
"""The dealer of every episode's first hand."""
INT_PLACEHOLDER: Final = -(2**31)
"""An integer option left at this value takes the variant's default."""
_RETURNS: Final = ("points", "win")
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
# What a state's current_player() is, for each player to move: the player's
# number's own __index__, a built-in that returns the number. OpenSpiel's C++
# asks current_player() before every action it applies, and a built-in answers
# without starting a Python frame.
_ANSWERS: Final[dict[int, Callable[[], int]]] = {
    player: player.__index__ for player in (0, 1, 2, 3, _CHANCE, _TERMINAL)
}
_CHANCE_ANSWER: Final = _ANSWERS[_CHANCE]
_TERMINAL_ANSWER: Final = _ANSWERS[_TERMINAL]
_OWN_PARAMETERS: Final[dict[str, object]] = {"variant": "classic", "hands": 1, "returns": "points"}
_CARDS: Final = _episode.CARDS
_DECK: Final = tuple(range(_CARDS))
_CARD_BITS: Final = tuple(1 << card for card in _DECK)
# The chance outcome of each card when ``n`` cards are left to deal:
# ``_OUTCOMES[n][card]``, built once rather than at every chance node.
_OUTCOMES: Final = tuple(
    tuple((card, 1.0 / left) if left else (card, 0.0) for card in _DECK)
    for left in range(_episode.CARDS + 1)
)


# -- parameters ----------------------------------------------------------------------


@attrs.frozen
class _OptionParameter:
    """How one option travels as an OpenSpiel parameter."""

    name: str
    default: int | bool | str
    """The registered default."""
    means_variant_default: bool
    """Whether the registered default stands for each variant's own default."""

    def left_unset(self, value: object) -> bool:
        """Whether ``value`` is the registered default."""
        return type(value) is type(self.default) and value == self.default


def _accepts(spec: OptionSpec[Any], value: object) -> bool:
    try:
        spec.check(value)
    except SpadesError:
        return False
    return True


def _kind(variants: list[Variant], name: str) -> type:
    for variant in variants:
        value = variant.defaults.get(name)
        if isinstance(value, enum.Enum | str):
            return str
        if isinstance(value, bool):
            return bool
        if isinstance(value, int):
            return int
    spec = next(v.option_specs[name] for v in variants if name in v.option_specs)
    return int if _accepts(spec, 1) else bool if _accepts(spec, True) else str


def _option_parameters(variants: list[Variant]) -> dict[str, _OptionParameter]:
    names = sorted({name for variant in variants for name in variant.option_specs})
    parameters = {}
    for name in names:
        having = [variant for variant in variants if name in variant.option_specs]
        kind = _kind(having, name)
        defaults = {_as_parameter(variant.defaults.get(name), kind) for variant in having}
        if kind is str:
            parameters[name] = _OptionParameter(name, "", True)
        elif len(defaults) == 1 and None not in defaults:
            parameters[name] = _OptionParameter(name, cast(Any, defaults.pop()), False)
        elif kind is int:
            parameters[name] = _OptionParameter(name, INT_PLACEHOLDER, True)
        else:
            # Variants disagree on a yes/no option: False stands for the variant's default.
            parameters[name] = _OptionParameter(name, False, True)
    return parameters


def _as_parameter(value: object, kind: type) -> int | bool | str | None:
    """An option value as OpenSpiel holds it (``None`` when it cannot)."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if value is None:
        return 0 if kind is int else None
    return cast(int | bool | str, value)


_OPTIONS: dict[str, _OptionParameter] = {}


def _installed_variants() -> list[Variant]:
    return [load_variant(variant_id) for variant_id in available_variants()]


def game_parameters(
    variant: Variant | str, rules: Rules | None = None, **own: object
) -> dict[str, Any]:
    """The OpenSpiel parameters of ``variant`` under ``rules`` (the variant's
    defaults when ``None``), plus ``hands`` / ``returns`` given in ``own``:
    what ``pyspiel.load_game(GAME_NAME, ...)`` takes to play those rules."""
    chosen = variant if isinstance(variant, Variant) else load_variant(variant)
    if rules is None:
        rules = chosen.rules()
    else:
        checks.instance(rules, Rules, "game_parameters", "rules", "a Rules (from Variant.rules)")
    parameters: dict[str, Any] = {"variant": chosen.id, **own}
    for name, value in rules.overrides:
        parameter = _OPTIONS.get(name)
        kind = type(parameter.default) if parameter is not None else type(value)
        held = _as_parameter(value, kind)
        if held is None:
            raise RulesError(f"option {name!r} = {brief(value)} has no OpenSpiel form")
        parameters[name] = held
    return parameters


def _rules_from(variant: Variant, given: Mapping[str, object]) -> tuple[Rules, dict[str, Any]]:
    """The variant's rules for OpenSpiel parameters, and the parameters that name them."""
    overrides: dict[str, object] = {}
    for name, value in given.items():
        if name in _OWN_PARAMETERS:
            continue
        parameter = _OPTIONS.get(name)
        spec = variant.option_specs.get(name)
        if (
            parameter is not None
            and parameter.left_unset(value)
            and (spec is None or parameter.means_variant_default)
        ):
            continue
        if spec is None:
            # The variant reports the unknown option in its own words.
            variant.rules(**{name: value})
            raise RulesError(f"variant {variant.id!r} has no option {name!r}")  # pragma: no cover
        if type(value) is int and value == 0 and not _accepts(spec, 0) and _accepts(spec, None):
            value = None
        if spec.check(value) != variant.defaults.get(name):
            overrides[name] = value
    rules = variant.rules(**overrides)
    resolved: dict[str, Any] = {}
    for name, parameter in _OPTIONS.items():
        if name in variant.option_specs:
            held = _as_parameter(rules.get(name), type(parameter.default))
            resolved[name] = parameter.default if held is None else held
    return rules, resolved


def _seat(player: object) -> Seat:
    if type(player) is not int or not 0 <= player < 4:
        raise RulesError(
            f"players are numbered 0-3 (North, East, South, West); got {brief(player)}"
        )
    return SEATS[player]


def _same_rules(variant: Variant, first: Rules, second: Rules) -> bool:
    return all(first.get(name) == second.get(name) for name in variant.option_specs)


# -- the game --------------------------------------------------------------------------


def _game_type(utility: pyspiel.GameType.Utility) -> pyspiel.GameType:
    specification: dict[str, object] = dict(_OWN_PARAMETERS)
    specification.update({name: parameter.default for name, parameter in _OPTIONS.items()})
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="spades-core partnership Spades",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=specification,
    )


class SpadesCoreGame(pyspiel.Game):  # type: ignore[misc]
    """One variant under one set of options, as an OpenSpiel game (see the module docs)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        if params is not None and not isinstance(params, Mapping):
            raise ArgumentTypeError(
                "SpadesCoreGame: params must be a mapping of names to values; "
                f"got {checks.described(params)}"
            )
        given = dict(params or {})
        variant_id = given.get("variant", _OWN_PARAMETERS["variant"])
        if not isinstance(variant_id, str):
            raise RulesError(f"variant must be a variant's id; got {brief(variant_id)}")
        self.variant = load_variant(variant_id)
        """The variant being played."""
        self.hands = _episode.check_hands(given.get("hands", _OWN_PARAMETERS["hands"]))
        """Hands per episode (0: whole games)."""
        returns = given.get("returns", _OWN_PARAMETERS["returns"])
        if returns not in _RETURNS:
            raise RulesError(f"returns must be 'points' or 'win'; got {brief(returns)}")
        self.returns_kind = cast(str, returns)
        """``"points"`` or ``"win"``."""
        unknown = sorted(set(given) - set(_OWN_PARAMETERS) - set(_OPTIONS))
        if unknown:
            raise RulesError(
                f"no parameter named {unknown[0]!r}; call register() again after installing "
                "a variant plugin"
            )
        self.rules, resolved = _rules_from(self.variant, given)
        """The resolved options."""
        limit = _episode.hand_limit(self.hands)
        if self.returns_kind == "win":
            utility = pyspiel.GameType.Utility.ZERO_SUM
            low, high, total = -1.0, 1.0, 0.0
        else:
            utility = pyspiel.GameType.Utility.GENERAL_SUM
            bound = float(_episode.hand_points_bound(self.rules) * limit)
            low, high, total = -bound, bound, None
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=_episode.CARDS,
            num_players=4,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=_episode.DECISIONS_PER_HAND * limit,
        )
        parameters = {
            "variant": self.variant.id,
            "hands": self.hands,
            "returns": self.returns_kind,
            **resolved,
        }
        super().__init__(_game_type(utility), info, parameters)
        start = new_game(self.variant, seed=0, dealer=FIRST_DEALER, **dict(self.rules.overrides))
        self._initial = _Position(start, [], 0, (0, 0), list(_DECK), shared=True)
        """The position every episode starts from, shared by every new state."""

    def new_initial_state(self) -> SpadesCoreState:
        """The start of an episode: the first hand about to be dealt."""
        return SpadesCoreState(self, self._initial)

    def state_from_game(self, game: Game) -> SpadesCoreState:
        """A state at ``game`` (of this game's variant and rules), starting an
        episode at its current hand (its points count from the current scores)."""
        arguments.game(game, "state_from_game")
        if game.variant.id != self.variant.id or not _same_rules(
            game.variant, game.rules, self.rules
        ):
            raise RulesError(
                f"the game plays {game.variant.id!r} under other options than this "
                f"OpenSpiel game ({self})"
            )
        scores = game.scores.values_
        start = _Position(game, [], game.hand_number, (scores[0], scores[1]), list(_DECK))
        return SpadesCoreState(self, start)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: object = None
    ) -> _Observer:
        """OpenSpiel's observer: the information state for perfect-recall types
        (and by default), the observation otherwise."""
        if params:
            raise RulesError(f"the observer takes no parameters; got {brief(params)}")
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        public_only = (
            iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        )
        return _Observer(perfect_recall=perfect_recall, public_only=public_only)


@attrs.define
class _Position:
    """Everything a state is.

    A step updates the state's position in place, unless the position is
    ``shared``: then the state takes a copy of its own first. A position
    becomes shared when it is handed to another state without a copy, as
    OpenSpiel's ``clone()`` does (through ``__deepcopy__``), and stays so.
    """

    game: Game
    dealing: list[int]
    """Card ids dealt so far to the hand being dealt."""
    start_hand: int
    start_scores: tuple[int, int]
    left: list[int] = attrs.field(eq=False, repr=False)
    """The card ids not in ``dealing``, ascending (kept so that a chance node
    does not work them out again)."""
    shared: bool = attrs.field(default=False, eq=False, repr=False)
    """Whether more than one state may hold this position: none may change it."""

    def moved(self, game: Game, dealing: tuple[int, ...]) -> _Position:
        """A new position of the same episode at another game and deal."""
        return _Position(game, list(dealing), self.start_hand, self.start_scores, _undealt(dealing))

    def copy(self) -> _Position:
        """A new position equal to this one, not shared, for a state to change."""
        return _Position(
            self.game, self.dealing.copy(), self.start_hand, self.start_scores, self.left.copy()
        )

    def __deepcopy__(self, memo: object) -> _Position:
        # OpenSpiel's clone() deep-copies the state's __dict__. The clone and
        # the original share this position until either steps, which copies
        # it: cloning stays as cheap as handing over one object.
        self.shared = True
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel pickles a state's __dict__, which holds this position alone:
        # it travels as its game record, read back through the record reader.
        return (
            _position_from_record,
            (dumps(self.game), tuple(self.dealing), self.start_hand, self.start_scores),
        )


def _undealt(dealing: tuple[int, ...]) -> list[int]:
    dealt = set(dealing)
    return [card for card in _DECK if card not in dealt]


def _position_from_record(
    record: object, dealing: object, start_hand: object, start_scores: object
) -> _Position:
    """The position a serialized state names, every part checked; the game
    is read with :func:`~spades_core.records.loads` (unless
    :func:`deserialize_game_and_state` has just read this very position and
    hands it over, so that its record is read once)."""
    handed: tuple[str, _Position] | None = getattr(_HANDOVER, "position", None)
    if handed is not None:
        _HANDOVER.position = None
        known_record, known = handed
        if (record, dealing, start_hand, start_scores) == (
            known_record,
            tuple(known.dealing),
            known.start_hand,
            known.start_scores,
        ):
            return known
    if type(dealing) is not tuple or not all(type(card) is int for card in dealing):
        _refuse(f"the cards being dealt must be a tuple of card ids; got {brief(dealing)}")
    if len(dealing) >= _episode.CARDS or len(set(dealing)) != len(dealing):
        _refuse(f"the cards being dealt are not distinct cards of one deal: {brief(dealing)}")
    if not all(0 <= card < _episode.CARDS for card in dealing):
        _refuse(f"a card id is 0-51; the cards being dealt are {brief(dealing)}")
    if type(start_hand) is not int or start_hand < 0:
        _refuse(f"the episode's first hand must be a whole number; got {brief(start_hand)}")
    if (
        type(start_scores) is not tuple
        or len(start_scores) != 2
        or not all(type(score) is int for score in start_scores)
    ):
        _refuse(
            f"the episode's starting scores must be two whole numbers; got {brief(start_scores)}"
        )
    if not isinstance(record, str):
        _refuse(f"the game must be a record's text; got {brief(record)}")
    game = loads(record)
    if dealing and game.phase is not Phase.DEAL:
        _refuse(f"cards are being dealt, but the game's hand is in {game.phase.name}")
    if start_hand > game.hand_number:
        _refuse(
            f"the episode starts at hand {start_hand + 1}, after the game's hand "
            f"{game.hand_number + 1}"
        )
    scores = game.hand_results[start_hand - 1].scores.values_ if start_hand else (0, 0)
    if start_scores != scores:
        _refuse(
            f"the episode's starting scores {brief(start_scores)} are not the game's "
            f"scores before hand {start_hand + 1}, {scores}"
        )
    return _Position(
        game, list(dealing), start_hand, (start_scores[0], start_scores[1]), _undealt(dealing)
    )


_FORMAT: Final = RecordReason.WRONG_FORMAT
"""Why a state's text that is not one this module writes is refused."""


def _refuse(message: str, reason: RecordReason = RecordReason.BAD_VALUE) -> NoReturn:
    raise RecordFormatError(f"not a spades_core state: {message}", reason=reason)


class SpadesCoreState(pyspiel.State):  # type: ignore[misc]
    """A position of an episode; :attr:`game` is the engine's game."""

    # OpenSpiel serializes (pickles) and clones a state through its __dict__:
    # the position alone is kept there, and the rest follows from it and the
    # game. current_player is a slot that holds the answer (see _ANSWERS).
    __slots__ = {
        "__dict__": None,
        "_hands": None,
        "_legal_bits": None,
        "_win_returns": None,
        "current_player": "current_player() is the seat number to act, or OpenSpiel's chance "
        "or terminal id.",
    }

    def __init__(self, game: SpadesCoreGame, position: _Position | None = None) -> None:
        # The state changes ``position`` in place unless it is shared (see _Position).
        super().__init__(game)
        if position is None:
            position = game._initial
        self._hands = game.hands
        self._win_returns = game.returns_kind == "win"
        self._position = position

    def __setstate__(self, state: Any) -> None:
        # pickle and copy.deepcopy rebuild a state from its serialized text
        # without __init__: the position comes back, the rest is its game's.
        super().__setstate__(state)
        game = self.get_game()
        self._hands = game.hands
        self._win_returns = game.returns_kind == "win"
        _set_answer(self, _ANSWERS[self._player_at(self._position)])
        self._legal_bits = -1

    def __setattr__(self, name: str, value: Any) -> None:
        # OpenSpiel's clone() and deserialization set the position as an
        # attribute: whose move it is is worked out again whenever it is set.
        super().__setattr__(name, value)
        if name == "_position":
            _set_answer(self, _ANSWERS[self._player_at(value)])
            _set_legal_bits(self, -1)  # not worked out yet

    def _player_at(self, position: _Position) -> int:
        # Asked for at every node of a search: worked out once per position.
        game = position.game
        if _episode.episode_over(game, position.start_hand, self._hands):
            return _TERMINAL
        to_act = game.to_act
        return _CHANCE if to_act is None else int(to_act)

    @property
    def game(self) -> Game:
        """The engine's game at this state (in ``DEAL`` while chance deals)."""
        return self._position.game

    @property
    def dealing(self) -> tuple[int, ...]:
        """Card ids dealt so far to the hand being dealt."""
        return tuple(self._position.dealing)

    # -- whose move ----------------------------------------------------------------

    def _legal_id_bits(self) -> int:
        # Asked by legal_actions and again by apply_action: worked out once per position.
        bits = self._legal_bits
        if bits < 0:
            bits = legal_id_bits(self._position.game)
            _set_legal_bits(self, bits)
        return bits

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player() or player < 0:
            return []
        return list(ids_of_bits(self._legal_id_bits()))

    # Called from Python, the two queries below answer as OpenSpiel's C++ State
    # does (for any other player, they ask it), without the round trip through
    # C++ and back into this class for every step of a Python loop.

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids of ``player`` (by default the player to move):
        at a chance node, the cards left to deal."""
        current = self.current_player()
        if player is None or player == current:
            if current >= 0:
                bits = self._legal_bits
                if bits < 0:
                    bits = legal_id_bits(self._position.game)
                    _set_legal_bits(self, bits)
                return list(ids_of_bits(bits))
            return list(self._position.left) if current == _CHANCE else []
        return cast(list[int], pyspiel.State.legal_actions(self, player))

    def is_chance_node(self) -> bool:
        """Whether chance is to move (a card is being dealt)."""
        return self.current_player is _CHANCE_ANSWER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, each with equal probability."""
        if self.current_player is not _CHANCE_ANSWER:
            return []
        left = self._position.left
        outcomes = _OUTCOMES[len(left)]
        # A comprehension indexes the prebuilt pairs faster than map() calls __getitem__.
        return [outcomes[card] for card in left]

    def _apply_action(self, action: int) -> None:
        # OpenSpiel calls this about 108 times a hand (52 deals, 56 decisions).
        # A step updates the state's position in place, a copy if it is shared.
        position = self._position
        if position.shared:
            # Stored past __setattr__: an equal copy leaves the player to move
            # and the legal ids as they are, so nothing is worked out again.
            position = self.__dict__["_position"] = position.copy()
        game = position.game
        if self.current_player is _CHANCE_ANSWER:
            if type(action) is not int:
                _chance_outcome(action)  # raises the error naming what chance deals
            left = position.left
            try:
                left.remove(action)
            except ValueError:
                # Not a card left to deal: no card at all, or one dealt already.
                _chance_outcome(action)
                raise IllegalActionError(
                    IllegalReason.INVALID_DEAL, f"{ALL_CARDS[action]} has been dealt already"
                ) from None
            dealing = position.dealing
            dealing.append(action)
            if left:
                # Still dealing: chance stays to move, and no legal ids are kept
                # while it does (they are worked out for a player's move only).
                return
            masks = hands_of_deck(list(map(_CARD_BITS.__getitem__, dealing)), game._standing.dealer)
            # Fifty-two distinct cards, thirteen a seat: a deal the engine need not check.
            dealt = deal_unchecked(game, masks)
            position.game = dealt
            position.dealing = []
            position.left = list(_DECK)
            # The first bidder is to act: a hand about to be bid ends no episode.
            _set_answer(self, _ANSWERS[dealt._to_act])
            _set_legal_bits(self, -1)
            return
        bits = self._legal_bits
        if bits < 0:
            bits = legal_id_bits(game)
        # The legal bits end below NUM_ACTIONS: a larger id finds no bit set.
        if type(action) is int and action >= 0 and bits >> action & 1:
            after = after_legal_id(game, action)
            position.game = after
            # Within a hand every step keeps the results object and the seat to
            # act moves next; a new results object means a scored hand, after
            # which the episode may be over or chance deals next.
            if after._standing.results is game._standing.results:
                _set_answer(self, _ANSWERS[after._to_act])
            else:
                _set_answer(self, _ANSWERS[self._player_at(position)])
            _set_legal_bits(self, -1)
            return
        # Not legal here: the engine's error, with its reason.
        action_from_id(game, action)
        raise AssertionError(f"action {action!r} is legal but was not found")  # pragma: no cover

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {ALL_CARDS[_chance_outcome(action)]}"
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(
                IllegalReason.NOT_AN_ACTION,
                f"not an action id: {brief(action)}; ids are whole numbers 0-{NUM_ACTIONS - 1}",
            )
        return _action_text(action)

    # -- the end ---------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """Whether the episode is over."""
        return self.current_player is _TERMINAL_ANSWER

    def returns(self) -> list[float]:
        """Each player's return: 0 before the end, then points or ±1 (see the module docs)."""
        if not self.is_terminal():
            return [0.0] * 4
        game = self._position.game
        if self._win_returns:
            winner = game.winner
            if winner is None:
                return [0.0] * 4
            return [1.0 if seat.team is winner else -1.0 for seat in SEATS]
        start = self._position.start_scores
        scores = game.scores.values_
        points = (float(scores[0] - start[0]), float(scores[1] - start[1]))
        return [points[seat.team] for seat in SEATS]

    # -- hidden information ------------------------------------------------------------

    def view(self, player: int | None) -> View:
        """What ``player`` (a seat number, or ``None`` for a spectator) may see."""
        game = self._position.game
        return game.public_view() if player is None else game.view(_seat(player))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpadesCoreState:
        """A state ``player_id`` cannot tell from this one, hidden cards drawn
        with :func:`~spades_core.sampling.determinize` (seeded by ``probability_sampler()``)."""
        if not callable(probability_sampler):
            raise ArgumentTypeError(
                "resample_from_infostate: probability_sampler must be a function returning "
                f"a number from 0 to 1; got {brief(probability_sampler)}"
            )
        drawn = probability_sampler()
        number = isinstance(drawn, float | int | np.floating | np.integer)
        if not number or isinstance(drawn, bool) or not 0 <= drawn <= 1:
            raise RulesError(
                "resample_from_infostate: probability_sampler must return a number from 0 to 1; "
                f"it returned {brief(drawn)}"
            )
        rng = random.Random(int(float(drawn) * 2**53))
        position = self._position
        if position.dealing:
            # Nobody has seen the cards being dealt yet.
            deck = list(range(_episode.CARDS))
            rng.shuffle(deck)
            sample = position.moved(position.game, tuple(deck[: len(position.dealing)]))
        else:
            view = position.game.view(_seat(player_id))
            sample = position.moved(determinize(view, rng), ())
        return SpadesCoreState(self.get_game(), sample)

    def __str__(self) -> str:
        game = self._position.game
        lines = [_public_text(game.public_view())]
        if game.phase in (Phase.BID, Phase.PLAY):
            lines.append(
                "hands: " + " | ".join(f"{seat.letter} {game.hand(seat)}" for seat in SEATS)
            )
        if self._position.dealing:
            lines.append(
                "dealt so far: " + " ".join(str(ALL_CARDS[c]) for c in self._position.dealing)
            )
        return "\n".join(lines)


_set_answer: Final[Callable[[SpadesCoreState, Callable[[], int]], None]] = vars(SpadesCoreState)[
    "current_player"
].__set__
_set_legal_bits: Final[Callable[[SpadesCoreState, int], None]] = vars(SpadesCoreState)[
    "_legal_bits"
].__set__


# -- observations -------------------------------------------------------------------------


class _Observer:
    """OpenSpiel's observer protocol: a tensor and a string per player."""

    def __init__(self, *, perfect_recall: bool, public_only: bool) -> None:
        self._perfect_recall = perfect_recall
        self._public_only = public_only
        size = features.INFORMATION_STATE_SIZE if perfect_recall else features.OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        sections = features.OBSERVATION_SECTIONS + (
            features.HISTORY_SECTIONS if perfect_recall else ()
        )
        self.dict = {name: features.section(self.tensor, name) for name, _ in sections}

    def _view(self, state: SpadesCoreState, player: int) -> View:
        return state.view(None if self._public_only else player)

    def set_from(self, state: SpadesCoreState, player: int) -> None:
        """Fill :attr:`tensor` from ``player``'s view of ``state``."""
        view = self._view(state, player)
        if self._perfect_recall:
            features.information_state(view, out=self.tensor)
        else:
            features.observation(view, out=self.tensor)

    def string_from(self, state: SpadesCoreState, player: int) -> str:
        """``player``'s view of ``state`` as text."""
        view = self._view(state, player)
        return _information_text(view) if self._perfect_recall else _observation_text(view)


def _chance_outcome(action: object) -> int:
    """``action`` as the card id a chance move deals, checked."""
    if type(action) is not int or not 0 <= action < _episode.CARDS:
        raise IllegalActionError(
            IllegalReason.NOT_AN_ACTION,
            f"not a chance outcome: {brief(action)}; chance moves deal card ids 0-51",
        )
    return action


def _action_text(action_id: int) -> str:
    if action_id >= BID_ID_BASE:
        bid = action_id - BID_ID_BASE
        return "bid Nil" if bid == 0 else f"bid {bid}"
    return str(ALL_CARDS[action_id])


def _seat_text(seat: Seat | None) -> str:
    return "-" if seat is None else seat.letter


def _public_text(view: View) -> str:
    bids = " ".join(
        f"{seat.letter}:{'-' if bid is None else 'Nil' if bid == 0 else bid}"
        for seat, bid in view.bids.items()
    )
    trick = " ".join(f"{seat.letter}:{card}" for seat, card in view.current_trick)
    won = " ".join(f"{seat.letter}:{count}" for seat, count in view.tricks_won.items())
    return (
        f"{view.variant.id} hand {view.hand_number + 1} {view.phase.name} "
        f"dealer {view.dealer.letter} to act {_seat_text(view.to_act)}; "
        f"bids {bids}; trick [{trick}]; won {won}; "
        f"scores NS {view.scores.values_[0]} EW {view.scores.values_[1]}; "
        f"bags NS {view.bags.values_[0]} EW {view.bags.values_[1]}"
        + ("; spades broken" if view.spades_broken else "")
    )


def _observation_text(view: View) -> str:
    out = " ".join(
        f"{seat.letter}:{''.join(sorted(suit.letter for suit in suits))}"
        for seat, suits in view.shown_out.items()
        if suits
    )
    counts = " ".join(
        f"{seat.letter}:{count}" for seat, count in view.spade_counts.items() if count is not None
    )
    return (
        f"seat {_seat_text(view.seat)}; hand {view.hand()}; played {view.played}; "
        + _public_text(view)
        + (f"; shown out {out}" if out else "")
        + (f"; spades dealt {counts}" if counts else "")
    )


def _information_text(view: View) -> str:
    tricks = " / ".join(
        f"{trick.leader.letter}: {' '.join(str(card) for card in trick.cards)}"
        for trick in view.tricks
    )
    earlier = " / ".join(
        json.dumps(result.summary(), sort_keys=True) for result in view.hand_results
    )
    return (
        f"seat {_seat_text(view.seat)}; dealt {view.dealt_hand()}; hand {view.hand()}; "
        + _public_text(view)
        + f"; tricks [{tricks}]"
        + (f"; earlier hands {earlier}" if earlier else "")
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
_HANDOVER: Final = threading.local()
"""The position :func:`deserialize_game_and_state` has read and checked, with
its record's text, for OpenSpiel's own reader to take (once) instead of
reading the record a second time."""


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
        _refuse(
            f"its pickle cannot be read: {type(error).__name__}: {brief(str(error), 200)}",
            _FORMAT,
        )
    if unexpected is not None:
        _refuse(f"its pickle holds {unexpected}, which a state's never does", _FORMAT)
    if calls["GLOBAL"] + calls["STACK_GLOBAL"] > 1 or calls["REDUCE"] > 1:
        _refuse(_MORE_THAN_ONE, _FORMAT)


def _check_named(named: str) -> None:
    """Refuse a name a pickle asks for that is not the function reading a position."""
    if named != f"{__name__}.{_position_from_record.__name__}":
        _refuse(
            f"its pickle asks for {brief(named, 80)}; a state written by "
            "spades-core holds only its game record, so nothing of it is run",
            _FORMAT,
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
        self.read: tuple[str, _Position] | None = None
        """The record's text and the position read from it, once read."""

    def find_class(self, module: str, name: str) -> Any:
        _check_named(f"{module}.{name}")
        return self._read_once

    def _read_once(self, *parts: object) -> _Position:
        # A pickle may call what it names again and again on one memoized
        # record, each call reading the whole record: only the first is read.
        if self.read is not None or len(parts) != 4:
            _refuse(_MORE_THAN_ONE if self.read is not None else "its position is malformed")
        position = _position_from_record(*parts)
        self.read = (cast(str, parts[0]), position)
        return position

    def persistent_load(self, pid: object) -> NoReturn:
        _refuse("its pickle refers to outside objects", _FORMAT)


class _ReadPosition:
    """A position read back and checked, pickled again as the record text it
    was read from (not written out a second time)."""

    def __init__(self, record: str, position: _Position) -> None:
        self.record = record
        self.position = position

    def __reduce__(self) -> tuple[Any, ...]:
        position = self.position
        return (
            _position_from_record,
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
                    _refuse(f"the section {brief(line)} appears twice", _FORMAT)
                current = sections[line] = []
            elif current is not None:
                if line:
                    current.append(line)
            elif line:
                _refuse(f"text before the first section: {brief(line)}", _FORMAT)
        if end == len(text):
            return sections
        start = end + 1
    _refuse(f"it has more than {_MAX_LINES} lines, which a state's text never does", _FORMAT)


def _history(line: str) -> list[tuple[int, int]]:
    entries = line.removeprefix("history=")
    if not entries:
        return []
    if entries.count(",") >= _MAX_HISTORY:  # counted before anything is built from it
        _refuse(f"its history is longer than any episode's {_MAX_HISTORY:,} moves", _TOO_LARGE)
    history = []
    for entry in entries.split(","):
        found = _HISTORY_ENTRY.fullmatch(entry)
        if found is None:
            _refuse(f"not a move of the history: {brief(entry)}", _FORMAT)
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
        _refuse(
            f"the text is too large: {len(text):,} characters where at most "
            f"{MAX_SERIALIZED_SIZE:,} are read",
            RecordReason.TOO_LARGE,
        )
    sections = _sections(text)
    if sections.get("[Meta]") != ["Version: 1"]:
        _refuse("it has no [Meta] section of version 1", _FORMAT)
    game_lines = sections.get("[Game]", [])
    state_lines = sections.get("[State]", [])
    if len(game_lines) != 1 or not game_lines[0].startswith(GAME_NAME + "("):
        _refuse(f"its [Game] is not a {GAME_NAME} game", _FORMAT)
    if len(game_lines[0]) > _MAX_GAME_LINE:
        _refuse(f"its [Game] is longer than {_MAX_GAME_LINE:,} characters", _TOO_LARGE)
    if (
        len(state_lines) != 3
        or not state_lines[0].startswith("history=")
        or not state_lines[1].startswith("move_number=")
        or not state_lines[2].startswith("__dict__=")
    ):
        _refuse("its [State] is not history=, move_number= and __dict__= lines", _FORMAT)
    history = _history(state_lines[0])
    if state_lines[1] != f"move_number={len(history)}":
        _refuse(f"{brief(state_lines[1])} does not count the history's moves", _FORMAT)
    if GAME_NAME not in pyspiel.registered_names():
        register()
    try:
        game = pyspiel.load_game(game_lines[0])
    except Exception as error:  # the game's own RulesError, or OpenSpiel's parsing error
        _refuse(f"its [Game] cannot be loaded: {brief(str(error), 200)}", RecordReason.BAD_OPTION)
    try:
        # binascii reads the ASCII text in place: no copies but the pickle's bytes.
        pickled = binascii.a2b_base64(state_lines.pop()[len("__dict__=") :], strict_mode=True)
    except ValueError:
        _refuse("its __dict__= is not base64 text", _FORMAT)
    del sections, state_lines  # the longest line, no longer needed
    _scan_pickle(pickled)
    reader = _PositionUnpickler(io.BytesIO(pickled))
    try:
        attributes = reader.load()
    except RecordFormatError:
        raise
    except RecursionError:
        _refuse("its pickle is nested too deeply", _FORMAT)
    except Exception as error:  # whatever a damaged pickle makes the unpickler raise
        _refuse(
            f"its pickle cannot be read: {type(error).__name__}: {brief(str(error), 200)}",
            _FORMAT,
        )
    if not isinstance(game, SpadesCoreGame):  # pragma: no cover - the name was checked
        _refuse(f"its [Game] is not a {GAME_NAME} game", _FORMAT)
    if type(attributes) is not dict or list(attributes) != ["_position"]:
        _refuse("its __dict__ holds more or less than the position", _FORMAT)
    position = attributes["_position"]
    if not isinstance(position, _Position) or reader.read is None:
        _refuse(f"its position is not a game record; got {brief(position)}", _FORMAT)
    if position.game.variant.id != game.variant.id or not _same_rules(
        game.variant, position.game.rules, game.rules
    ):
        _refuse(f"its game record plays other rules than its [Game] ({game})")
    longest = (_episode.DECISIONS_PER_HAND + _episode.CARDS) * _episode.hand_limit(game.hands)
    if len(history) > longest:
        _refuse(f"its history is longer than an episode of {game}", RecordReason.TOO_LARGE)
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
    _HANDOVER.position = (reader.read[0], position)
    try:
        game_again, state = pyspiel.deserialize_game_and_state(checked)
    finally:
        _HANDOVER.position = None
    return cast(SpadesCoreGame, game_again), cast(SpadesCoreState, state)


# -- registration -----------------------------------------------------------------------------


def register() -> None:
    """Register :data:`GAME_NAME` with OpenSpiel, with a parameter for every
    option of every installed variant. Call it again after installing a
    variant plugin to add the plugin's options."""
    variants = _installed_variants()
    _OPTIONS.clear()
    _OPTIONS.update(_option_parameters(variants))
    pyspiel.register_game(_game_type(pyspiel.GameType.Utility.GENERAL_SUM), SpadesCoreGame)


# -- playing at a spades-core table ----------------------------------------------------------------


class ISMCTSPlayer:
    """An OpenSpiel bot (such as ``ISMCTSBot``) in a spades-core seat: a
    :class:`~spades_core.bots.Player` whose ``choose(view)`` asks the bot.

    ``make_bot(game)`` builds the bot for an OpenSpiel game; it is called once
    per variant and rules the player meets (``hands=1``: the bot plans to the
    end of the hand). A bot that takes a resampler (``set_resampler``, as
    IS-MCTS does) draws its samples from the player's ``seed``, so a seeded
    bot and a seeded player choose reproducibly. The bot sees a state rebuilt from the view by
    :func:`~spades_core.sampling.determinize`; since it reads only the information
    state and draws its own samples, that state tells it nothing more than
    the view.
    """

    def __init__(self, make_bot: Any, *, seed: int = 0) -> None:
        if not callable(make_bot):
            raise ArgumentTypeError(
                "ISMCTSPlayer: make_bot must build a bot from a game; "
                f"got {checks.described(make_bot)}"
            )
        self._make_bot = make_bot
        self._rng = random.Random(seed)
        self._games: dict[tuple[str, Rules], tuple[SpadesCoreGame, Any]] = {}
        self._label = f"seed={seed}"
        self._guided = False
        """Whether the bot's deals come from the hard bot's reading of the hand."""
        self._deals: _GuidedDeals | None = None

    def __repr__(self) -> str:
        return f"<ISMCTSPlayer {self._label}>"

    def _resample(self, state: SpadesCoreState, player: int) -> SpadesCoreState:
        deals = self._deals
        if deals is not None and not state.dealing and deals.seat == player:
            return SpadesCoreState(state.get_game(), state._position.moved(deals.game(), ()))
        return state.resample_from_infostate(player, self._rng.random)

    @classmethod
    def random_rollouts(
        cls, simulations: int = 50, *, seed: int = 0, uct_c: float = 2.0
    ) -> ISMCTSPlayer:
        """OpenSpiel's ``ISMCTSBot`` with ``simulations`` per decision, each
        leaf valued by one random roll-out to the end of the hand; ``seed``
        (0 to 2**32-1) makes its choices reproducible."""
        _check_search(simulations, seed, uct_c, "ISMCTSPlayer.random_rollouts")
        uct_c = float(uct_c)
        from open_spiel.python.algorithms import ismcts, mcts

        def make_bot(game: SpadesCoreGame) -> Any:
            random_state = np.random.RandomState(seed)
            evaluator = mcts.RandomRolloutEvaluator(1, random_state)
            return ismcts.ISMCTSBot(
                game, evaluator, uct_c, max_simulations=simulations, random_state=random_state
            )

        player = cls(make_bot, seed=seed)
        player._label = f"simulations={simulations} uct_c={uct_c} seed={seed}"
        return player

    @classmethod
    def normal_rollouts(
        cls, simulations: int = 50, *, seed: int = 0, uct_c: float = 2.0
    ) -> ISMCTSPlayer:
        """OpenSpiel's ``ISMCTSBot`` guided by the library's knowledge: each
        leaf is valued by playing the hand out with the normal policy for all
        four seats (the hard bot's play-out, :class:`NormalRollouts`), and the
        deals it searches are drawn as the hard bot draws its own, preferring
        those that explain the bids (and the plays, when the hard bot reads
        them). Values are the hard bot's, in hundreds of points, so ``uct_c``
        weighs exploration against them. Otherwise as
        :meth:`random_rollouts`."""
        _check_search(simulations, seed, uct_c, "ISMCTSPlayer.normal_rollouts")
        uct_c = float(uct_c)
        from open_spiel.python.algorithms import ismcts

        class ValuedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
            """IS-MCTS that values a hand finished inside its tree as its roll-outs do."""

            def run_simulation(self, state: SpadesCoreState) -> Any:
                if state.is_terminal():
                    # OpenSpiel would take the raw points; the roll-outs' value prices bags.
                    return self._evaluator.evaluate(state)
                return super().run_simulation(state)

        def make_bot(game: SpadesCoreGame) -> Any:
            return ValuedISMCTSBot(
                game,
                NormalRollouts(),
                uct_c,
                max_simulations=simulations,
                random_state=np.random.RandomState(seed),
            )

        player = cls(make_bot, seed=seed)
        player._guided = True
        player._label = f"rollout=normal simulations={simulations} uct_c={uct_c} seed={seed}"
        return player

    def choose(self, view: View) -> Action:
        """The bot's action for ``view`` (one of ``view.legal_actions()``)."""
        arguments.view(view, "ISMCTSPlayer.choose")
        if not view.is_my_turn:
            raise IllegalActionError(
                IllegalReason.NOT_YOUR_TURN, f"the view's seat ({view.seat}) is not to act"
            )
        if len(view.legal_actions()) == 1:
            return view.legal_actions()[0]
        key = (view.variant.id, view.rules)
        if key not in self._games:
            if GAME_NAME not in pyspiel.registered_names():
                register()
            game = pyspiel.load_game(GAME_NAME, game_parameters(view.variant, view.rules, hands=1))
            bot = self._make_bot(game)
            if hasattr(bot, "set_resampler"):
                # OpenSpiel's default sampler is seeded from the clock: draw from ours instead.
                bot.set_resampler(self._resample)
            self._games[key] = (game, bot)
        game, bot = self._games[key]
        state = game.state_from_game(determinize(view, self._rng))
        if self._guided:
            self._deals = _GuidedDeals(view, self._rng)
        try:
            chosen = int(bot.step(state))
        finally:
            self._deals = None
        return cast(Action, action_from_id(state.game, chosen))


_MAX_SIMULATIONS: Final = 10_000
"""The most simulations per decision an IS-MCTS player takes (each a few
milliseconds: at the limit a decision takes about half a minute)."""
_MAX_UCT_C: Final = 1_000.0
"""The largest exploration constant ``uct_c`` an IS-MCTS player takes."""


def _check_search(simulations: object, seed: object, uct_c: object, call: str) -> None:
    if checks.count(simulations, call, "simulations", minimum=1) > _MAX_SIMULATIONS:
        raise RulesError(
            f"{call}: simulations must be a whole number from 1 to {_MAX_SIMULATIONS:,}; "
            f"got {brief(simulations)}"
        )
    checks.seed(seed, call, maximum=2**32 - 1)
    if type(uct_c) not in (int, float):
        raise ArgumentTypeError(
            f"{call}: uct_c must be a positive number; got {checks.described(uct_c)}"
        )
    if not 0 < uct_c <= _MAX_UCT_C:  # type: ignore[operator]
        raise RulesError(
            f"{call}: uct_c must be a number above 0 and at most {_MAX_UCT_C:g}; got {brief(uct_c)}"
        )


VALUE_SCALE: Final = 100.0
"""Points per unit of :class:`NormalRollouts`' values."""


class NormalRollouts:
    """An OpenSpiel evaluator (for ``ISMCTSBot``) that plays the rest of a
    state's hand out with the normal policy for all four seats, each using
    only what it could see, on the state's cards, and values the finished
    hand as the hard bot does (:func:`spades_core.bots.playout_value`:
    points minus the opponents', bags at their cost, the game's end), in units of
    :data:`VALUE_SCALE` points: ``v`` for North and South, ``-v`` for East
    and West. A finished hand is valued the same way without a play-out.
    Every legal action has the same prior."""

    def evaluate(self, state: SpadesCoreState) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Each player's value of ``state`` (a state of a ``hands=1`` episode)."""
        checks.instance(
            state, SpadesCoreState, "NormalRollouts.evaluate", "state", "a SpadesCoreState"
        )
        value = playout_value(state.game, Team.NS) / VALUE_SCALE
        return np.array([value, -value, value, -value])

    def prior(self, state: SpadesCoreState) -> list[tuple[int, float]]:
        """Equal probabilities over the legal actions."""
        checks.instance(
            state, SpadesCoreState, "NormalRollouts.prior", "state", "a SpadesCoreState"
        )
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class _GuidedDeals:
    """The deals a guided search draws for one decision: the hard bot's
    (:func:`spades_core.bots.deal_sampler`), each replayed into a real game
    by the engine."""

    def __init__(self, view: View, rng: random.Random) -> None:
        self.seat = int(view.seat) if view.seat is not None else -1
        self._rng = rng
        self._hidden = HiddenCards(view)
        self._deals = deal_sampler(view, rng)

    def game(self) -> Game:
        """A game the view's seat cannot tell from the real one."""
        seed = self._rng.getrandbits(64)
        return self._hidden.game(self._deals(), seed)


ROLLOUTS: Final = ("random", "normal")
"""The ``rollout`` choices of the ``ismcts`` player."""


def ismcts_player(
    *, seed: int, simulations: int = 50, uct_c: float = 2.0, rollout: str = "random"
) -> ISMCTSPlayer:
    """The ``ismcts`` player of simulations and tournaments
    (``--ns ismcts:simulations=200``, ``--ns ismcts:rollout=normal``):
    :meth:`ISMCTSPlayer.random_rollouts`, or with ``rollout="normal"``
    :meth:`ISMCTSPlayer.normal_rollouts`, with ``simulations`` per decision
    and exploration constant ``uct_c``. Any int ``seed`` is accepted;
    OpenSpiel's generator takes its low 32 bits."""
    if type(seed) is not int:
        raise RulesError(f"seed must be a whole number; got {brief(seed)}")
    if rollout not in ROLLOUTS:
        raise RulesError(f"rollout must be {' or '.join(ROLLOUTS)}; got {brief(rollout)}")
    build = ISMCTSPlayer.normal_rollouts if rollout == "normal" else ISMCTSPlayer.random_rollouts
    return build(simulations, seed=seed % 2**32, uct_c=uct_c)
