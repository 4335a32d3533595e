"""OpenSpiel's IS-MCTS as a spades-core player (extra ``spades-core[openspiel]``)."""

from __future__ import annotations

import random
from typing import Any, Final, cast

import numpy as np
import pyspiel

from spades_core.bots import deal_sampler, playout_value
from spades_core.engine import arguments
from spades_core.engine.encoding import (
    action_from_id,
)
from spades_core.engine.game import Game
from spades_core.engine.sampling import HiddenCards, determinize
from spades_core.engine.views import View
from spades_core.envs._openspiel_parameters import GAME_NAME, game_parameters
from spades_core.envs._openspiel_state import SpadesCoreGame, SpadesCoreState, register
from spades_core.values import checks
from spades_core.values.actions import Action
from spades_core.values.errors import (
    ArgumentTypeError,
    IllegalActionError,
    IllegalReason,
    RulesError,
    brief,
)
from spades_core.values.options import Rules
from spades_core.values.seats import Team

__all__ = ["ROLLOUTS", "VALUE_SCALE", "ISMCTSPlayer", "NormalRollouts", "ismcts_player"]

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
