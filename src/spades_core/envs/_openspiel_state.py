"""The OpenSpiel game and its states over the engine (see :mod:`spades_core.envs.openspiel`)."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping
from typing import Any, Final, NoReturn, cast

import attrs
import numpy as np
import pyspiel

from spades_core.engine import arguments
from spades_core.engine.encoding import (
    NUM_ACTIONS,
    action_from_id,
    after_legal_id,
    ids_of_bits,
    legal_id_bits,
)
from spades_core.engine.game import SEATS, Game, Phase, new_game
from spades_core.engine.records import dumps, loads
from spades_core.engine.sampling import determinize
from spades_core.engine.transitions import deal_unchecked
from spades_core.engine.views import View
from spades_core.envs import _episode
from spades_core.envs._openspiel_observer import (
    Observer,
    action_text,
    chance_outcome,
    public_text,
)
from spades_core.envs._openspiel_parameters import (
    FIRST_DEALER,
    GAME_NAME,
    OPTIONS,
    OWN_PARAMETERS,
    RETURNS,
    installed_variants,
    option_parameters,
    rules_from,
    same_rules,
    seat_of,
)
from spades_core.rules.registry import load_variant
from spades_core.rules.rng import hands_of_deck
from spades_core.values import checks
from spades_core.values.cards import ALL_CARDS
from spades_core.values.errors import (
    ArgumentTypeError,
    IllegalActionError,
    IllegalReason,
    RecordFormatError,
    RecordReason,
    RulesError,
    brief,
)

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
_CARDS: Final = _episode.CARDS
_DECK: Final = tuple(range(_CARDS))
_CARD_BITS: Final = tuple(1 << card for card in _DECK)
# The chance outcome of each card when ``n`` cards are left to deal:
# ``_OUTCOMES[n][card]``, built once rather than at every chance node.
_OUTCOMES: Final = tuple(
    tuple((card, 1.0 / left) if left else (card, 0.0) for card in _DECK)
    for left in range(_episode.CARDS + 1)
)


HANDOVER: Final = threading.local()
"""The position :func:`deserialize_game_and_state` has read and checked, with
its record's text, for OpenSpiel's own reader to take (once) instead of
reading the record a second time."""


# -- the game --------------------------------------------------------------------------


def _game_type(utility: pyspiel.GameType.Utility) -> pyspiel.GameType:
    specification: dict[str, object] = dict(OWN_PARAMETERS)
    specification.update({name: parameter.default for name, parameter in OPTIONS.items()})
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
        variant_id = given.get("variant", OWN_PARAMETERS["variant"])
        if not isinstance(variant_id, str):
            raise RulesError(f"variant must be a variant's id; got {brief(variant_id)}")
        self.variant = load_variant(variant_id)
        """The variant being played."""
        self.hands = _episode.check_hands(given.get("hands", OWN_PARAMETERS["hands"]))
        """Hands per episode (0: whole games)."""
        returns = given.get("returns", OWN_PARAMETERS["returns"])
        if returns not in RETURNS:
            raise RulesError(f"returns must be 'points' or 'win'; got {brief(returns)}")
        self.returns_kind = cast(str, returns)
        """``"points"`` or ``"win"``."""
        unknown = sorted(set(given) - set(OWN_PARAMETERS) - set(OPTIONS))
        if unknown:
            raise RulesError(
                f"no parameter named {unknown[0]!r}; call register() again after installing "
                "a variant plugin"
            )
        self.rules, resolved = rules_from(self.variant, given)
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
        self._initial = Position(start, [], 0, (0, 0), list(_DECK), shared=True)
        """The position every episode starts from, shared by every new state."""

    def new_initial_state(self) -> SpadesCoreState:
        """The start of an episode: the first hand about to be dealt."""
        return SpadesCoreState(self, self._initial)

    def state_from_game(self, game: Game) -> SpadesCoreState:
        """A state at ``game`` (of this game's variant and rules), starting an
        episode at its current hand (its points count from the current scores)."""
        arguments.game(game, "state_from_game")
        if game.variant.id != self.variant.id or not same_rules(
            game.variant, game.rules, self.rules
        ):
            raise RulesError(
                f"the game plays {game.variant.id!r} under other options than this "
                f"OpenSpiel game ({self})"
            )
        scores = game.scores.values_
        start = Position(game, [], game.hand_number, (scores[0], scores[1]), list(_DECK))
        return SpadesCoreState(self, start)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: object = None
    ) -> Observer:
        """OpenSpiel's observer: the information state for perfect-recall types
        (and by default), the observation otherwise."""
        if params:
            raise RulesError(f"the observer takes no parameters; got {brief(params)}")
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        public_only = (
            iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        )
        return Observer(perfect_recall=perfect_recall, public_only=public_only)


@attrs.define
class Position:
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

    def moved(self, game: Game, dealing: tuple[int, ...]) -> Position:
        """A new position of the same episode at another game and deal."""
        return Position(game, list(dealing), self.start_hand, self.start_scores, _undealt(dealing))

    def copy(self) -> Position:
        """A new position equal to this one, not shared, for a state to change."""
        return Position(
            self.game, self.dealing.copy(), self.start_hand, self.start_scores, self.left.copy()
        )

    def __deepcopy__(self, memo: object) -> Position:
        # OpenSpiel's clone() deep-copies the state's __dict__. The clone and
        # the original share this position until either steps, which copies
        # it: cloning stays as cheap as handing over one object.
        self.shared = True
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel pickles a state's __dict__, which holds this position alone:
        # it travels as its game record, read back through the record reader.
        return (
            position_from_record,
            (dumps(self.game), tuple(self.dealing), self.start_hand, self.start_scores),
        )


def _undealt(dealing: tuple[int, ...]) -> list[int]:
    dealt = set(dealing)
    return [card for card in _DECK if card not in dealt]


def position_from_record(
    record: object, dealing: object, start_hand: object, start_scores: object
) -> Position:
    """The position a serialized state names, every part checked; the game
    is read with :func:`~spades_core.records.loads` (unless
    :func:`deserialize_game_and_state` has just read this very position and
    hands it over, so that its record is read once)."""
    handed: tuple[str, Position] | None = getattr(HANDOVER, "position", None)
    if handed is not None:
        HANDOVER.position = None
        known_record, known = handed
        if (record, dealing, start_hand, start_scores) == (
            known_record,
            tuple(known.dealing),
            known.start_hand,
            known.start_scores,
        ):
            return known
    if type(dealing) is not tuple or not all(type(card) is int for card in dealing):
        refuse(f"the cards being dealt must be a tuple of card ids; got {brief(dealing)}")
    if len(dealing) >= _episode.CARDS or len(set(dealing)) != len(dealing):
        refuse(f"the cards being dealt are not distinct cards of one deal: {brief(dealing)}")
    if not all(0 <= card < _episode.CARDS for card in dealing):
        refuse(f"a card id is 0-51; the cards being dealt are {brief(dealing)}")
    if type(start_hand) is not int or start_hand < 0:
        refuse(f"the episode's first hand must be a whole number; got {brief(start_hand)}")
    if (
        type(start_scores) is not tuple
        or len(start_scores) != 2
        or not all(type(score) is int for score in start_scores)
    ):
        refuse(
            f"the episode's starting scores must be two whole numbers; got {brief(start_scores)}"
        )
    if not isinstance(record, str):
        refuse(f"the game must be a record's text; got {brief(record)}")
    game = loads(record)
    if dealing and game.phase is not Phase.DEAL:
        refuse(f"cards are being dealt, but the game's hand is in {game.phase.name}")
    if start_hand > game.hand_number:
        refuse(
            f"the episode starts at hand {start_hand + 1}, after the game's hand "
            f"{game.hand_number + 1}"
        )
    scores = game.hand_results[start_hand - 1].scores.values_ if start_hand else (0, 0)
    if start_scores != scores:
        refuse(
            f"the episode's starting scores {brief(start_scores)} are not the game's "
            f"scores before hand {start_hand + 1}, {scores}"
        )
    return Position(
        game, list(dealing), start_hand, (start_scores[0], start_scores[1]), _undealt(dealing)
    )


WRONG_FORMAT: Final = RecordReason.WRONG_FORMAT
"""Why a state's text that is not one this module writes is refused."""


def refusal(message: str, reason: RecordReason = RecordReason.BAD_VALUE) -> RecordFormatError:
    """The error refusing a text that is not a state spades-core wrote."""
    return RecordFormatError(f"not a spades_core state: {message}", reason=reason)


def refuse(message: str, reason: RecordReason = RecordReason.BAD_VALUE) -> NoReturn:
    raise refusal(message, reason)


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

    def __init__(self, game: SpadesCoreGame, position: Position | None = None) -> None:
        # The state changes ``position`` in place unless it is shared (see Position).
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

    def _player_at(self, position: Position) -> int:
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
                chance_outcome(action)  # raises the error naming what chance deals
            left = position.left
            try:
                left.remove(action)
            except ValueError:
                # Not a card left to deal: no card at all, or one dealt already.
                chance_outcome(action)
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
            return f"deal {ALL_CARDS[chance_outcome(action)]}"
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(
                IllegalReason.NOT_AN_ACTION,
                f"not an action id: {brief(action)}; ids are whole numbers 0-{NUM_ACTIONS - 1}",
            )
        return action_text(action)

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
        return game.public_view() if player is None else game.view(seat_of(player))

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
            view = position.game.view(seat_of(player_id))
            sample = position.moved(determinize(view, rng), ())
        return SpadesCoreState(self.get_game(), sample)

    def __str__(self) -> str:
        game = self._position.game
        lines = [public_text(game.public_view())]
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


# -- registration -----------------------------------------------------------------------------


def register() -> None:
    """Register :data:`GAME_NAME` with OpenSpiel, with a parameter for every
    option of every installed variant. Call it again after installing a
    variant plugin to add the plugin's options."""
    variants = installed_variants()
    OPTIONS.clear()
    OPTIONS.update(option_parameters(variants))
    pyspiel.register_game(_game_type(pyspiel.GameType.Utility.GENERAL_SUM), SpadesCoreGame)
