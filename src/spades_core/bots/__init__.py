"""Computer players at four levels, and a helper that plays a game to the end.

A player is anything with ``choose(view) -> action`` (the :class:`Player`
protocol): it is handed the :class:`~spades_core.views.View` of its own seat
when it is to act, and returns one of ``view.legal_actions()``. Bots see only
that view, never the game, so they cannot peek at hidden cards; an embedding
game can seat humans (any object with ``choose``) beside them.

Levels (:func:`make`):

* ``"random"`` — a uniformly random legal action.
* ``"easy"`` — wins a trick as cheaply as it can or throws its lowest card;
  bids its sure winners; in Whiz bids Nil with a plainly weak hand.
* ``"normal"`` (alias ``"medium"``) — counts the cards played and the spades
  left (with Mirror's and Whiz's public spade counts), lets a partner's
  winning card stand, cashes side-suit winners before they can be trumped,
  protects its partner's Nil and attacks an opponent's, ducks to avoid bags
  once its contract is safe (weighing the team's bag count), and bids from an
  estimate of its tricks.
* ``"hard"`` — the normal player plus search: it samples the hidden cards
  (:func:`~spades_core.sampling.determinize`) and tries each candidate move in play-outs
  of the hand by the normal policy, scoring them with the real scoring rules
  and the match situation (near the target or the loss floor a team bids and
  plays for the game). Its budget is a number of simulated card plays per decision, so
  its choices are reproducible.

Every bot is deterministic for a given ``seed``: the same seed and the same
sequence of views give the same choices.

>>> import spades_core as sc
>>> game = sc.new_game("mirror", seed=5, target_score=150)
>>> players = [sc.bots.make("normal", seed=i) for i in range(4)]
>>> finished = sc.bots.play_game(game, players)
>>> finished.is_over
True
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from itertools import islice
from typing import Any, Final, Protocol, runtime_checkable

from spades_core import _check
from spades_core import _compat as _deprecations
from spades_core.actions import BIDS, PLAYS, Action
from spades_core.bots._play import easy_play, normal_play
from spades_core.bots._search import Budget, search_bid, search_play
from spades_core.bots.bidding import easy_bid, normal_bid
from spades_core.bots.table import Table, table_from_view
from spades_core.bots.why import Why
from spades_core.errors import (
    ArgumentTypeError,
    IllegalActionError,
    IllegalReason,
    RulesError,
    brief,
)
from spades_core.game import SEATS, Game, Phase
from spades_core.seats import Seat
from spades_core.views import View

__all__ = [
    "DEFAULT_BUDGET",
    "LEVELS",
    "Bot",
    "EasyBot",
    "HardBot",
    "NormalBot",
    "Player",
    "RandomBot",
    "Why",
    "make",
    "play_game",
]

LEVELS: Final = ("random", "easy", "normal", "hard")
"""The bot levels, weakest first (``"medium"`` is another name for ``"normal"``)."""

_ALIASES: Final = {"medium": "normal"}

DEFAULT_BUDGET: Final = Budget()
"""The hard bot's default search budget."""


@runtime_checkable
class Player(Protocol):
    """Anything that can take a seat: given its seat's view when it is to act,
    returns one of ``view.legal_actions()``."""

    def choose(self, view: View) -> Action:
        """The action to take in the position ``view`` shows."""
        ...


class Bot:
    """Base class of the built-in bots: checks the view, then decides.

    :meth:`decide` returns the action and a :class:`Why` code naming the
    idea behind it (what the coach explains).
    """

    level: str = ""
    """The level name (``"easy"``, …)."""

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = secrets.randbits(64)
        else:
            _check.whole_number(seed, type(self).__name__, "seed")
        self.seed = seed
        """The seed the bot's random choices come from."""
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"

    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions()``, chosen by this bot's policy."""
        return self.decide(view)[0]

    def decide(self, view: View) -> tuple[Action, Why]:
        """The action and the idea behind it (used by the coach)."""
        legal = _legal_actions(view, self)
        if len(legal) == 1:
            return legal[0], Why.ONLY_CHOICE
        table = table_from_view(view)
        if view.phase is Phase.BID:
            bid, why = self._bid(view, table)
            return BIDS[bid], why
        card, why = self._play(view, table)
        return PLAYS[card], why

    def _bid(self, view: View, table: Table) -> tuple[int, Why]:
        raise NotImplementedError

    def _play(self, view: View, table: Table) -> tuple[int, Why]:
        raise NotImplementedError


def _legal_actions(view: View, bot: Bot) -> tuple[Action, ...]:
    _check.view(view, f"{type(bot).__name__}.choose")
    legal = view.legal_actions()
    if not legal or view.phase not in (Phase.BID, Phase.PLAY):
        who = "a spectator" if view.seat is None else view.seat.name
        raise IllegalActionError(
            IllegalReason.NOT_YOUR_TURN,
            f"{who} has nothing to choose: the view shows "
            + (f"{view.to_act.name} to act" if view.to_act is not None else view.phase.name),
        )
    return legal


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    level = "random"

    def decide(self, view: View) -> tuple[Action, Why]:
        """A uniformly random legal action."""
        legal = _legal_actions(view, self)
        return legal[self._rng.randrange(len(legal))], Why.ONLY_CHOICE


class EasyBot(Bot):
    """Wins cheaply or throws its lowest card; bids its sure winners."""

    level = "easy"

    def _bid(self, view: View, table: Table) -> tuple[int, Why]:
        return easy_bid(table)

    def _play(self, view: View, table: Table) -> tuple[int, Why]:
        return easy_play(table)


class NormalBot(Bot):
    """Counts cards, plays with its partner, handles Nils and bags."""

    level = "normal"

    def _bid(self, view: View, table: Table) -> tuple[int, Why]:
        return normal_bid(table)

    def _play(self, view: View, table: Table) -> tuple[int, Why]:
        return normal_play(table)


class HardBot(Bot):
    """The normal policy improved by determinized play-outs.

    The budget is deterministic, so a seed gives reproducible play:
    ``steps`` simulated card plays per card decision (split over samples of
    the hidden cards × candidate cards), ``bid_steps`` per bid,
    ``min_samples``/``max_samples`` bound the samples, ``draws`` is how many
    deals are drawn per sample to find one that explains the other seats'
    bids, and ``confidence`` is how many standard errors better than the
    normal policy's own choice a move must look to be played instead. Larger
    budgets play better and slower.
    """

    level = "hard"

    def __init__(
        self,
        seed: int | None = None,
        *,
        steps: int = DEFAULT_BUDGET.steps,
        bid_steps: int = DEFAULT_BUDGET.bid_steps,
        min_samples: int = DEFAULT_BUDGET.min_samples,
        max_samples: int = DEFAULT_BUDGET.max_samples,
        confidence: float = DEFAULT_BUDGET.confidence,
        draws: int = DEFAULT_BUDGET.draws,
    ) -> None:
        super().__init__(seed)
        for option, value in (
            ("steps", steps),
            ("bid_steps", bid_steps),
            ("min_samples", min_samples),
            ("max_samples", max_samples),
            ("draws", draws),
        ):
            _check.count(value, "hard bot", option, minimum=1)
        if type(confidence) not in (int, float):
            raise ArgumentTypeError(
                f"hard bot: confidence must be a number; got {_check.described(confidence)}"
            )
        if not 0 <= confidence < 100:
            raise RulesError(
                f"hard bot: confidence must be from 0 to below 100; got {brief(confidence)}"
            )
        if max_samples < min_samples:
            raise RulesError(
                f"hard bot: max_samples ({max_samples}) is below min_samples ({min_samples})"
            )
        self.budget = Budget(steps, bid_steps, min_samples, max_samples, float(confidence), draws)
        """The search budget."""

    def __repr__(self) -> str:
        b = self.budget
        return (
            f"<HardBot seed={self.seed} steps={b.steps} bid_steps={b.bid_steps} "
            f"samples={b.min_samples}-{b.max_samples} draws={b.draws} "
            f"confidence={b.confidence}>"
        )

    def _bid(self, view: View, table: Table) -> tuple[int, Why]:
        return search_bid(view, table, self._rng, self.budget)

    def _play(self, view: View, table: Table) -> tuple[int, Why]:
        return search_play(view, table, self._rng, self.budget)


_CLASSES: Final[dict[str, type[Bot]]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
}


def make(level: str, *, seed: int | None = None, **options: Any) -> Bot:
    """A bot of ``level`` (``"random"``, ``"easy"``, ``"normal"`` or ``"medium"``,
    ``"hard"``), seeded with ``seed`` (random when ``None``).

    The hard bot takes budget options: ``steps``, ``bid_steps``,
    ``min_samples``, ``max_samples``, ``draws`` and ``confidence`` (see
    :class:`HardBot`).
    An unknown level or option raises :class:`~spades_core.RulesError`.

    >>> make("hard", seed=1, steps=2000)
    <HardBot seed=1 steps=2000 bid_steps=6000 samples=6-100 draws=6 confidence=1.0>
    """
    _check.instance(level, str, "bots.make", "level", "a level name like 'normal'")
    name = _ALIASES.get(level, level)
    cls = _CLASSES.get(name)
    if cls is None:
        raise RulesError(
            f"unknown bot level {brief(level)}; the levels are {', '.join(LEVELS)} (or medium)"
        )
    if options and cls is not HardBot:
        raise RulesError(
            f"the {name} bot takes no options (got {', '.join(sorted(options))}); "
            "only the hard bot has a budget"
        )
    if cls is HardBot:
        allowed = {"steps", "bid_steps", "min_samples", "max_samples", "confidence", "draws"}
        unknown = sorted(set(options) - allowed)
        if unknown:
            raise RulesError(
                f"unknown hard bot option {', '.join(unknown)}; "
                f"its options are {', '.join(sorted(allowed))}"
            )
        return HardBot(seed, **options)
    return cls(seed)


def play_game(
    game: Game,
    players: Mapping[Seat, Player] | Sequence[Player],
    *,
    hands: int | None = None,
    max_hands: int | None = None,
) -> Game:
    """Play ``game`` on with ``players`` (a mapping from each seat, or four
    players in seat order N, E, S, W) until it is over, or until ``hands``
    more hands have been completed (as :func:`~spades_core.playouts.playout` counts
    them). Hands are dealt from the game's seed.

    Each player is asked only when its seat is to act, with that seat's view.
    An illegal answer raises :class:`~spades_core.IllegalActionError`.
    ``max_hands`` is the deprecated name of ``hands`` (removed in 0.3.0;
    ``max_hands`` is the house rule that ends a game after that many hands
    in all).
    """
    _check.instance(game, Game, "play_game", "game", "a Game")
    seated = _seat_players(players)
    hands = _deprecations.renamed_keyword("bots.play_game", "max_hands", max_hands, "hands", hands)
    if hands is not None:
        _check.count(hands, "play_game", "hands", minimum=0)
    stop_at = None if hands is None else len(game.hand_results) + hands
    while not game.is_over:
        if stop_at is not None and len(game.hand_results) >= stop_at:
            break
        if game.phase is Phase.DEAL:
            game = game.deal()
            continue
        seat = game.to_act
        if seat is None:  # pragma: no cover - only DEAL and GAME_OVER have no seat to act
            break
        action = seated[seat].choose(game.view(seat))
        game = game.apply(action, seat=seat)
    return game


def _seat_players(players: Mapping[Seat, Player] | Sequence[Player]) -> tuple[Player, ...]:
    if isinstance(players, Mapping):
        missing = [seat.name for seat in SEATS if seat not in players]
        if missing:
            raise RulesError(f"play_game needs a player for every seat; missing {missing}")
        seated = tuple(players[seat] for seat in SEATS)
    else:
        seated = ()
        if isinstance(players, Sequence) and not isinstance(players, str):
            # Five at most are read: a sequence may be endless or too long for len().
            seated = tuple(islice(players, 5))
        if len(seated) != 4:
            raise RulesError(
                "play_game needs four players: a mapping from each Seat, or a sequence in "
                "seat order N, E, S, W"
            )
    for player in seated:
        if not callable(getattr(player, "choose", None)):
            raise ArgumentTypeError(
                f"play_game: {_check.described(player)} is not a player: it has no choose(view) "
                "method"
            )
    return seated
