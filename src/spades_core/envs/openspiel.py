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

The adapter is written by concern, in modules of its own: the game's
parameters, the game and its states, what a player observes, the safe reader
of serialized states, and the IS-MCTS player (:mod:`spades_core.envs.ismcts`,
registered as the ``ismcts`` player); this module gathers their public names.
"""

from __future__ import annotations

from spades_core.envs._openspiel_parameters import (
    FIRST_DEALER,
    GAME_NAME,
    INT_PLACEHOLDER,
    game_parameters,
)
from spades_core.envs._openspiel_reader import MAX_SERIALIZED_SIZE, deserialize_game_and_state
from spades_core.envs._openspiel_state import (
    SpadesCoreGame,
    SpadesCoreState,
    register,
)

# States serialized before the adapter was written by concern name the
# function that reads a position here; OpenSpiel's own reader looks it up.
from spades_core.envs._openspiel_state import (  # noqa: F401 - looked up by name, not used here
    position_from_record as _position_from_record,
)

# The IS-MCTS player had its home here before it had a module of its own.
from spades_core.envs.ismcts import ROLLOUTS as ROLLOUTS
from spades_core.envs.ismcts import VALUE_SCALE as VALUE_SCALE
from spades_core.envs.ismcts import ISMCTSPlayer as ISMCTSPlayer
from spades_core.envs.ismcts import NormalRollouts as NormalRollouts
from spades_core.envs.ismcts import ismcts_player as ismcts_player

__all__ = [
    "FIRST_DEALER",
    "GAME_NAME",
    "INT_PLACEHOLDER",
    "MAX_SERIALIZED_SIZE",
    "SpadesCoreGame",
    "SpadesCoreState",
    "deserialize_game_and_state",
    "game_parameters",
    "register",
]
