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

import numbers
import random
import secrets
from collections.abc import Callable, Collection, Mapping, Sequence
from itertools import islice
from typing import Any, Final, Protocol, cast, runtime_checkable

from spades_core.bots._play import easy_play, normal_play
from spades_core.bots._search import Budget, sampled_deals, search_bid, search_play
from spades_core.bots._search import playout_value as _playout_value
from spades_core.bots.bidding import easy_bid, normal_bid
from spades_core.bots.phases import phase_decision
from spades_core.bots.table import Table, table_from_view
from spades_core.bots.why import Why
from spades_core.engine import arguments
from spades_core.engine.game import SEATS, Game, Phase
from spades_core.engine.views import View
from spades_core.values import checks, deprecation
from spades_core.values.actions import BIDS, PLAYS, Action
from spades_core.values.cards import CardSet
from spades_core.values.errors import (
    ArgumentTypeError,
    IllegalActionError,
    IllegalReason,
    RulesError,
    brief,
)
from spades_core.values.seats import Seat, SeatMap, Team

__all__ = [
    "BUDGET_LIMITS",
    "DEFAULT_BUDGET",
    "LEVELS",
    "Bot",
    "Budget",
    "EasyBot",
    "HardBot",
    "NormalBot",
    "Player",
    "RandomBot",
    "SeesAllHands",
    "Why",
    "ask",
    "deal_sampler",
    "make",
    "play_game",
    "playout_value",
]

LEVELS: Final = ("random", "easy", "normal", "hard")
"""The bot levels, weakest first (``"medium"`` is another name for ``"normal"``)."""

_ALIASES: Final = {"medium": "normal"}

DEFAULT_BUDGET: Final = Budget()
"""The hard bot's default search budget."""

BUDGET_LIMITS: Final[Mapping[str, tuple[int, int]]] = {
    "steps": (1, 10_000_000),
    "bid_steps": (1, 10_000_000),
    "min_samples": (1, 1_000),
    "max_samples": (1, 1_000),
    "draws": (1, 100),
}
"""The lowest and highest value (both allowed) of each whole-number option
of the hard bot's budget. A decision plays at most ``max_samples`` samples
of every candidate, each drawn from ``draws`` deals, whatever ``steps`` say,
so these bound the work of one decision: at the top of every range, with
``prune`` off, the first card of a hand takes seconds (docs/bots.md has the
numbers), never unbounded time. ``confidence`` is a number from 0 to below 100."""


@runtime_checkable
class Player(Protocol):
    """Anything that can take a seat: given its seat's view when it is to act,
    returns one of ``view.legal_actions()``."""

    def choose(self, view: View) -> Action:
        """The action to take in the position ``view`` shows."""
        ...


@runtime_checkable
class SeesAllHands(Protocol):
    """A player for measurement only, handed every seat's cards: a player
    whose ``sees_all_hands`` is true. Runners that know the whole game
    (:func:`play_game`, :func:`spades_core.simulate`, through :func:`ask`)
    call :meth:`choose_seeing` instead of ``choose``; every other player
    gets its seat's view alone. Such a player sets ``for_human_tables =
    False`` too, so tables where a person plays refuse it
    (:func:`spades_core.players.check_human_table`)."""

    sees_all_hands: bool
    """True: the player needs every seat's hand."""

    def choose_seeing(self, view: View, hands: SeatMap[CardSet]) -> Action:
        """The action to take in the position ``view`` shows, knowing ``hands``
        (the cards each seat holds now)."""
        ...


def ask(player: Player, game: Game, seat: Seat) -> Action:
    """The action ``player`` takes for ``seat`` in ``game``: what
    ``player.choose(game.view(seat))`` returns, or for a player that sees all
    hands (:class:`SeesAllHands`) what it chooses knowing every seat's cards.
    Only such a player is given more than the seat's view."""
    arguments.game(game, "ask")
    seat = checks.seat(seat, "ask")
    _check_player(player, "ask")
    view = game.view(seat)
    if getattr(player, "sees_all_hands", False) is True:
        hands = SeatMap(tuple(game.hand(other) for other in SEATS))
        return cast(SeesAllHands, player).choose_seeing(view, hands)
    return player.choose(view)


def _check_player(player: object, call: str) -> None:
    """Refuse what is not a player: an object without ``choose(view)``, or a
    value (a number, text, an array: numpy's scalars and arrays have a
    ``choose`` method of their own, which is not a player's)."""
    value = isinstance(player, numbers.Number | str | bytes) or hasattr(type(player), "__array__")
    if value or not callable(getattr(player, "choose", None)):
        raise ArgumentTypeError(
            f"{call}: {checks.described(player)} is not a player: it has no choose(view) method"
        )


def deal_sampler(
    view: View, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> Callable[[], tuple[int, int, int, int]]:
    """The hard bot's deals for a decision at ``view``: each call places the
    cards hidden from the view's seat anew and returns the four hands as held
    now (52-bit masks by seat number), the best of ``budget.draws`` deals at
    explaining the other seats' bids (and, with ``budget.inference``, their
    plays). ``HiddenCards(view).game(hands, seed)`` makes one a game."""
    arguments.view(view, "deal_sampler")
    rng = checks.random_generator(rng, "deal_sampler")
    checks.instance(budget, Budget, "deal_sampler", "budget", "a Budget")
    return sampled_deals(view, table_from_view(view), rng, budget)


def playout_value(game: Game, team: Team) -> float:
    """What the hard bot's search would score the current hand of ``game`` for
    ``team``: the hand played out by the normal policy for every seat (each
    using only what it could see) on the game's cards, then valued as the
    search values a finished hand (points minus the opponents', bags at their
    cost, and ±:data:`~spades_core.bots._search.GAME_VALUE` when the hand ends
    the game). A hand just finished (the game between hands, or over) is
    valued as it ended."""
    arguments.game(game, "playout_value")
    checks.instance(team, Team, "playout_value", "team", "a Team")
    if game.phase not in (Phase.BID, Phase.PLAY) and not game.hand_results:
        raise RulesError("playout_value: the game has no hand in progress or finished to value")
    return _playout_value(game, int(team))


class Bot:
    """Base class of the built-in bots: checks the view, then decides.

    :meth:`decide` returns the action and a :class:`Why` code naming the
    idea behind it (what the coach explains). A bot is made with its
    ``seed`` (by position or as ``seed=``; ``None``, the default, draws a
    random one); a keyword it does not take raises
    :class:`~spades_core.RulesError`, as an unknown option does everywhere.
    """

    level: str = ""
    """The level name (``"easy"``, …)."""

    def __init__(self, seed: int | None = None, /, **options: object) -> None:
        seed = _seed_given(type(self), seed, options)
        _refuse_unknown(type(self), options, ())
        if seed is None:
            seed = secrets.randbits(64)
        else:
            checks.whole_number(seed, type(self).__name__, "seed")
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
        if view.phase is Phase.VARIANT:
            return phase_decision(view)
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


def _seed_given(cls: type, seed: object, options: dict[str, object]) -> Any:
    """The seed, given by position or as the keyword ``seed`` (taken out of
    ``options``, where the keywords a bot does not name arrive)."""
    if "seed" not in options:
        return seed
    if seed is not None:
        raise RulesError(f"{cls.__name__}: the seed is given twice (by position and by name)")
    return options.pop("seed")


def _refuse_unknown(cls: type, given: Mapping[str, object], known: Sequence[str]) -> None:
    """Refuse keywords a bot does not take, as an unknown option is refused
    everywhere (:class:`~spades_core.RulesError`)."""
    if not given:
        return
    takes = f"its options are {', '.join(known)}" if known else "it takes only a seed"
    raise RulesError(f"{cls.__name__} has no option {_names(given)}; {takes}")


def _names(names: Collection[str]) -> str:
    """Option names for a message: a few, each cut short (a keyword may be any text)."""
    shown = sorted(names)
    more = f" and {len(shown) - 5} more" if len(shown) > 5 else ""
    return ", ".join(_name(name) for name in shown[:5]) + more


def _name(name: str) -> str:
    return name if name.isidentifier() and len(name) <= 40 else brief(name)


def _legal_actions(view: View, bot: Bot) -> tuple[Action, ...]:
    arguments.view(view, f"{type(bot).__name__}.choose")
    legal = view.legal_actions()
    if not legal or view.phase not in (Phase.BID, Phase.PLAY, Phase.VARIANT):
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
    normal policy's own choice a move must look to be played instead. With
    ``prune`` (on by default) a candidate is dropped as soon as the samples
    so far make that unlikely, and the search stops when none is left; off,
    every candidate is played out on every sample. Larger budgets play
    better and slower.

    Each whole-number option has a range (:data:`BUDGET_LIMITS`: ``steps``
    and ``bid_steps`` 1 to 10,000,000, ``min_samples`` and ``max_samples``
    1 to 1,000, ``draws`` 1 to 100), so no budget stands for unbounded
    work; a value outside it raises :class:`~spades_core.RulesError` naming
    the range, a value of another type :class:`~spades_core.ArgumentTypeError`,
    and an option the bot does not have :class:`~spades_core.RulesError`.
    """

    level = "hard"

    def __init__(
        self,
        seed: int | None = None,
        /,
        *,
        steps: int = DEFAULT_BUDGET.steps,
        bid_steps: int = DEFAULT_BUDGET.bid_steps,
        min_samples: int = DEFAULT_BUDGET.min_samples,
        max_samples: int = DEFAULT_BUDGET.max_samples,
        confidence: float = DEFAULT_BUDGET.confidence,
        draws: int = DEFAULT_BUDGET.draws,
        inference: bool | str = DEFAULT_BUDGET.inference,
        prune: bool | str = DEFAULT_BUDGET.prune,
        **unknown: object,
    ) -> None:
        seed = _seed_given(type(self), seed, unknown)
        _refuse_unknown(type(self), unknown, _HARD_OPTIONS)
        super().__init__(seed)
        for option, value in (
            ("steps", steps),
            ("bid_steps", bid_steps),
            ("min_samples", min_samples),
            ("max_samples", max_samples),
            ("draws", draws),
        ):
            _check_budget(option, value)
        if type(confidence) not in (int, float):
            raise ArgumentTypeError(
                f"hard bot: confidence must be a number; got {checks.described(confidence)}"
            )
        if not 0 <= confidence < 100:
            raise RulesError(
                f"hard bot: confidence must be from 0 to below 100; got {brief(confidence)}"
            )
        if max_samples < min_samples:
            raise RulesError(
                f"hard bot: max_samples ({max_samples}) is below min_samples ({min_samples})"
            )
        self.budget = Budget(
            steps,
            bid_steps,
            min_samples,
            max_samples,
            float(confidence),
            draws,
            _switch("inference", inference),
            _switch("prune", prune),
        )
        """The search budget."""

    def __repr__(self) -> str:
        b = self.budget
        return (
            f"<HardBot seed={self.seed} steps={b.steps} bid_steps={b.bid_steps} "
            f"samples={b.min_samples}-{b.max_samples} draws={b.draws} "
            f"confidence={b.confidence} inference={'on' if b.inference else 'off'} "
            f"prune={'on' if b.prune else 'off'}>"
        )

    def _bid(self, view: View, table: Table) -> tuple[int, Why]:
        return search_bid(view, table, self._rng, self.budget)

    def _play(self, view: View, table: Table) -> tuple[int, Why]:
        return search_play(view, table, self._rng, self.budget)


_HARD_OPTIONS: Final = (
    "steps",
    "bid_steps",
    "min_samples",
    "max_samples",
    "confidence",
    "draws",
    "inference",
    "prune",
)


def _check_budget(option: str, value: object) -> int:
    """A whole-number budget option within its range (:data:`BUDGET_LIMITS`)."""
    lowest, highest = BUDGET_LIMITS[option]
    number = checks.whole_number(value, "hard bot", option)
    if not lowest <= number <= highest:
        raise RulesError(
            f"hard bot: {option} must be a whole number ≥ {lowest:,} and ≤ {highest:,}; "
            f"got {brief(number)}"
        )
    return number


def _switch(option: str, value: object) -> bool:
    """An on/off option: ``True``/``False`` or the words ``on``/``off``
    (``hard:inference=off`` in a player spec)."""
    if type(value) is bool:
        return value
    if isinstance(value, str) and value.strip().lower() in ("on", "off"):
        return value.strip().lower() == "on"
    raise RulesError(f"hard bot: {option} must be on or off (or True/False); got {brief(value)}")


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
    ``min_samples``, ``max_samples``, ``draws``, ``confidence``, ``inference``
    and ``prune`` (see :class:`HardBot`).
    An unknown level or option raises :class:`~spades_core.RulesError`.

    >>> make("hard", seed=1, steps=2000)  # doctest: +NORMALIZE_WHITESPACE
    <HardBot seed=1 steps=2000 bid_steps=6000 samples=6-100 draws=6 confidence=1.0
     inference=off prune=on>
    """
    checks.instance(level, str, "bots.make", "level", "a level name like 'normal'")
    name = _ALIASES.get(level, level)
    cls = _CLASSES.get(name)
    if cls is None:
        raise RulesError(
            f"unknown bot level {brief(level)}; the levels are {', '.join(LEVELS)} (or medium)"
        )
    if options and cls is not HardBot:
        raise RulesError(
            f"the {name} bot takes no options (got {_names(options)}); "
            "only the hard bot has a budget"
        )
    if cls is HardBot:
        allowed = set(_HARD_OPTIONS)
        unknown = sorted(set(options) - allowed)
        if unknown:
            raise RulesError(
                f"unknown hard bot option {_names(unknown)}; "
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

    Each player is asked only when its seat is to act, with that seat's view
    (see :func:`ask`). An illegal answer raises :class:`~spades_core.IllegalActionError`.
    ``max_hands`` is the deprecated name of ``hands`` (removed in 0.3.0;
    ``max_hands`` is the house rule that ends a game after that many hands
    in all).
    """
    checks.instance(game, Game, "play_game", "game", "a Game")
    seated = _seat_players(players)
    hands = deprecation.renamed_keyword("bots.play_game", "max_hands", max_hands, "hands", hands)
    if hands is not None:
        checks.count(hands, "play_game", "hands", minimum=0)
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
        game = game.apply(ask(seated[seat], game, seat), seat=seat)
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
        _check_player(player, "play_game")
    return seated
