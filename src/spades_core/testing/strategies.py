"""Hypothesis strategies for spades-core objects and games.

* :func:`cards`, :func:`card_sets`, :func:`deals` — cards, sets of cards and
  complete deals (four disjoint hands of 13 covering the deck);
* :func:`option_sets` — keyword options valid for a variant, derived from its
  :attr:`~spades_core.Variant.option_specs` and defaults;
* :func:`games` — games of a variant reached by legal play from random deals,
  optionally in a given :class:`~spades_core.Phase`;
* :func:`action_sequences` — sequences of actions each legal in turn from a game.

>>> from hypothesis import given
>>> @given(games("whiz", phase=Phase.PLAY))
... def test_someone_is_to_play(game):
...     assert game.to_act is not None and game.legal_cards()
>>> test_someone_is_to_play()
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, Final

from hypothesis import reject
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from spades_core.engine.game import SEATS, Game, Phase, new_game
from spades_core.rules.registry import load_variant
from spades_core.rules.rng import MAX_SEED
from spades_core.rules.variant import Variant
from spades_core.values.actions import Action, Deal
from spades_core.values.cards import ALL_CARDS, Card, CardSet
from spades_core.values.errors import RulesError
from spades_core.values.options import STANDARD_OPTIONS, OptionSpec
from spades_core.values.seats import SeatMap

__all__ = [
    "accepts_options",
    "action_sequences",
    "card_sets",
    "cards",
    "deals",
    "games",
    "option_sets",
    "option_values",
    "pick_option_value",
    "play_randomly",
    "random_deal",
    "seeds",
]


# Values worth trying for each standard whole-number option: the edges and
# the values people play with, then a range to explore. Options whose values
# can be listed (flags and choices) list them in their spec.
_NUMBERS: Final[Mapping[str, tuple[tuple[int | None, ...], int, int]]] = {
    "target_score": ((1, 50, 100, 250, 300, 500), 1, 1000),
    "loss_floor": ((None, -1, -100, -200), -1000, -1),
    "nil_value": ((0, 50, 100, 200), 0, 400),
    "bag_limit": ((None, 1, 3, 10), 1, 30),
    "bag_penalty": ((0, 50, 100), 0, 300),
    "max_team_bid": ((None, 1, 7, 12, 13), 1, 13),
    "max_hands": ((None, 1, 2), 1, 4),
}


def _as_variant(variant: Variant | str) -> Variant:
    return variant if isinstance(variant, Variant) else load_variant(variant)


def _is_standard(name: str, spec: OptionSpec[Any]) -> bool:
    return STANDARD_OPTIONS.get(name) is spec


def option_values(
    variant: Variant | str, extra: Mapping[str, Sequence[object]] | None = None
) -> dict[str, tuple[object, ...]]:
    """The finite values tried for each of ``variant``'s options whose values
    can be listed (an :class:`~spades_core.options.OptionSpec` with
    ``values``: the strings of a choice, ``False`` and ``True`` for a flag,
    a variant's own options included), and the sequences given in ``extra``
    for options of the variant's own. The conformance suite plays every
    combination of them."""
    chosen = _as_variant(variant)
    values: dict[str, tuple[object, ...]] = {}
    for name, spec in chosen.option_specs.items():
        tried = _values_tried(name, spec, extra)
        if tried is not None and tried[1] is None:
            values[name] = tried[0]
    return values


def _values_tried(
    name: str, spec: OptionSpec[Any], extra: Mapping[str, Sequence[object]] | None
) -> tuple[tuple[object, ...], tuple[int, int] | None] | None:
    """The values tried for option ``name``: a list of values and, for whole
    numbers, the range they may also come from (else ``None``); ``None`` for an
    option whose values cannot be guessed."""
    if extra is not None and name in extra:
        return tuple(extra[name]), None
    if spec.values is not None:
        return spec.values, None
    if _is_standard(name, spec) and name in _NUMBERS:
        special, low, high = _NUMBERS[name]
        return special, (low, high)
    return None


def _value_strategy(
    name: str, spec: OptionSpec[Any], extra: Mapping[str, Sequence[object]] | None
) -> st.SearchStrategy[object] | None:
    tried = _values_tried(name, spec, extra)
    if tried is None:
        return None
    listed, span = tried
    if span is None:
        return st.sampled_from(listed)
    return st.one_of(st.sampled_from(listed), st.integers(*span))


def pick_option_value(
    name: str,
    spec: OptionSpec[Any],
    rnd: random.Random,
    extra: Mapping[str, Sequence[object]] | None = None,
) -> tuple[bool, object]:
    """``(True, value)`` with a value for option ``name`` chosen with ``rnd``
    (from the values :func:`option_sets` draws), or ``(False, None)`` for an
    option whose values cannot be guessed. For choices made without
    Hypothesis that must be reproducible from one seed, as the scenarios of
    :func:`~spades_core.testing.check_variant` are."""
    tried = _values_tried(name, spec, extra)
    if tried is None:
        return False, None
    listed, span = tried
    if span is None or rnd.random() < 0.6:
        return True, rnd.choice(listed)
    return True, rnd.randint(*span)


def seeds() -> st.SearchStrategy[int]:
    """Game seeds: whole numbers from 0 to 2**64-1."""
    return st.integers(0, MAX_SEED)


def cards() -> st.SearchStrategy[Card]:
    """Any of the 52 cards."""
    return st.sampled_from(ALL_CARDS)


def card_sets(*, min_size: int = 0, max_size: int = 52) -> st.SearchStrategy[CardSet]:
    """Sets of ``min_size`` to ``max_size`` distinct cards."""
    if not 0 <= min_size <= max_size <= 52:
        raise InvalidArgument(f"need 0 <= min_size <= max_size <= 52; got {min_size}, {max_size}")
    return st.lists(cards(), min_size=min_size, max_size=max_size, unique=True).map(CardSet.of)


def deals() -> st.SearchStrategy[SeatMap[CardSet]]:
    """Complete deals: four disjoint hands of 13 cards covering the deck, by
    seat (pass one to :meth:`Game.deal <spades_core.Game.deal>`)."""
    return st.permutations(ALL_CARDS).map(
        lambda deck: SeatMap(tuple(CardSet.of(deck[13 * i : 13 * i + 13]) for i in range(4)))
    )


def option_sets(
    variant: Variant | str, *, extra: Mapping[str, Sequence[object]] | None = None
) -> st.SearchStrategy[dict[str, object]]:
    """Keyword options valid for ``variant``: each option it supports is left
    at its default or set to a value drawn for it, shrinking towards the defaults.

    Values are derived from the variant's option specs: an option whose
    values can be listed (a flag or a choice, standard or the variant's own)
    takes any of them; the standard whole-number options (docs/rules.md,
    Options) get their edges, common values and ranges; a variant's own
    whole-number options keep their defaults unless ``extra`` lists values
    to try for them. Combinations the variant rejects (see
    :meth:`~spades_core.Variant.check_rules`) are never drawn.
    """
    chosen = _as_variant(variant)
    optional: dict[str, st.SearchStrategy[object]] = {}
    for name, spec in chosen.option_specs.items():
        strategy = _value_strategy(name, spec, extra)
        if strategy is not None:
            optional[name] = strategy
    return st.fixed_dictionaries({}, optional=optional).filter(partial(accepts_options, chosen))


def accepts_options(variant: Variant, options: Mapping[str, object]) -> bool:
    """Whether ``variant`` plays with these keyword options (a rejected value or
    combination, see :meth:`~spades_core.Variant.check_rules`, is ``False``)."""
    try:
        variant.rules(**options)
    except RulesError:
        return False
    return True


def random_deal(rnd: random.Random) -> Deal:
    """A complete deal shuffled with ``rnd`` (for play without Hypothesis)."""
    deck = list(range(52))
    rnd.shuffle(deck)
    return Deal(
        (
            CardSet.of(ALL_CARDS[c] for c in deck[0:13]),
            CardSet.of(ALL_CARDS[c] for c in deck[13:26]),
            CardSet.of(ALL_CARDS[c] for c in deck[26:39]),
            CardSet.of(ALL_CARDS[c] for c in deck[39:52]),
        )
    )


def play_randomly(
    game: Game, rnd: random.Random, *, steps: int | None = None, explicit_deals: bool = False
) -> Game:
    """``game`` after ``steps`` legal actions chosen uniformly with ``rnd``
    (default: to the end of the current hand, or of the game). Deals come from the seed, or
    are random explicit deals when ``explicit_deals``."""
    hand = game.hand_number
    taken = 0
    while not game.is_over and (steps is None or taken < steps):
        if steps is None and game.hand_number != hand:
            break
        if game.phase is Phase.DEAL and explicit_deals:
            game = game.apply(random_deal(rnd))
        else:
            legal = game.legal_actions()
            game = game.apply(legal[rnd.randrange(len(legal))])
        taken += 1
    return game


_HAND_STEPS: Final = {
    Phase.DEAL: (0, 0),
    Phase.BID: (1, 4),
    Phase.PLAY: (5, 56),
    Phase.VARIANT: (1, 12),
}
"""How many actions into a hand a game is in each phase (the deal is one
action), without a variant's phases (which only add actions)."""
_STOPS: Final = (Phase.DEAL, Phase.BID, Phase.PLAY)
_MOST_EXTRA_STEPS: Final = 600
"""The most actions played on to reach the phase asked for, past the drawn count."""


def _until(game: Game, rnd: random.Random, phase: Phase) -> Game:
    """``game`` played on at random within its hand until it is in ``phase``
    (a variant's phases shift how many actions that takes)."""
    hand = game.hand_number
    for _ in range(_MOST_EXTRA_STEPS):
        if game.phase is phase or game.is_over or game.hand_number != hand:
            break
        legal = game.legal_actions()
        game = game.apply(legal[rnd.randrange(len(legal))])
    return game


@st.composite
def _games(
    draw: st.DrawFn,
    variant: Variant,
    options: st.SearchStrategy[Mapping[str, object]] | None,
    phase: Phase | None,
    max_hands: int,
) -> Game:
    chosen = dict(draw(options if options is not None else option_sets(variant), label="options"))
    if phase is Phase.GAME_OVER and options is None and "target_score" in variant.option_specs:
        # Random play wanders; a low target ends the game within a few hands.
        chosen["target_score"] = draw(st.integers(1, 120), label="target_score")
    seed = draw(seeds(), label="seed")
    dealer = draw(st.sampled_from(SEATS), label="dealer")
    game = new_game(variant, seed=seed, dealer=dealer, **chosen)
    rnd = random.Random(draw(st.integers(0, 2**32 - 1), label="play seed"))
    explicit = draw(st.booleans(), label="explicit deals")
    if phase is Phase.GAME_OVER:
        for _ in range(max(max_hands, 60)):
            game = play_randomly(game, rnd, explicit_deals=explicit)
            if game.is_over:
                return game
        reject()
    for _ in range(draw(st.integers(0, max_hands - 1), label="hands played")):
        after = play_randomly(game, rnd, explicit_deals=explicit)
        if after.is_over and phase is not None:
            break
        game = after
        if game.is_over:
            return game
    # Without a phase, the phase to stop in is drawn first: a number of steps drawn
    # over the whole hand would seldom stop in the four bids or before the deal.
    stops = _STOPS + ((Phase.VARIANT,) if _phased(game) else ())
    stop = phase if phase is not None else draw(st.sampled_from(stops), label="phase to stop in")
    low, high = _HAND_STEPS[stop]
    steps = draw(st.integers(low, high), label="steps into the hand")
    if steps and explicit:
        game = game.deal(draw(deals(), label="deal"))
        steps -= 1
    game = play_randomly(game, rnd, steps=steps)
    if phase is not None and game.phase is not phase:
        game = _until(game, rnd, phase)
        if game.phase is not phase:
            reject()
    return game


def _phased(game: Game) -> bool:
    """Whether ``game``'s variant adds phases to its hands."""
    return type(game.variant).phases is not Variant.phases


def games(
    variant: Variant | str,
    *,
    options: st.SearchStrategy[Mapping[str, object]] | None = None,
    phase: Phase | None = None,
    max_hands: int = 2,
) -> st.SearchStrategy[Game]:
    """Games of ``variant`` reached by legal play from random deals.

    Each game starts from a drawn seed, dealer and option set (``options``,
    default :func:`option_sets`), plays up to ``max_hands - 1`` whole hands and
    then a drawn number of actions into the next one; without ``phase`` it stops
    before the deal, in the bidding or in the play about equally often (or
    returns a game that ended). With ``phase`` the game
    returned is in that phase: ``DEAL``, ``BID``, ``PLAY``, ``VARIANT`` (a
    phase the variant adds; for a variant with phases, stopping in one is
    also drawn), or ``GAME_OVER``
    (played to the end; without ``options`` a low target score is drawn so
    that random play finishes).
    """
    if max_hands < 1:
        raise InvalidArgument(f"max_hands must be at least 1; got {max_hands}")
    return _games(_as_variant(variant), options, phase, max_hands)


@st.composite
def _action_sequences(
    draw: st.DrawFn, start: Game, min_size: int, max_size: int
) -> tuple[Action, ...]:
    wanted = draw(st.integers(min_size, max_size), label="length")
    game = start
    taken: list[Action] = []
    while len(taken) < wanted:
        legal = game.legal_actions()
        if not legal:
            break
        action = draw(st.sampled_from(legal))
        taken.append(action)
        game = game.apply(action)
    return tuple(taken)


def action_sequences(
    start: Game, *, min_size: int = 0, max_size: int = 60
) -> st.SearchStrategy[tuple[Action, ...]]:
    """Sequences of actions that are legal one after another from ``start``
    (shorter than ``min_size`` only when the game ends first).

    >>> from hypothesis import given
    >>> start = new_game("classic", seed=1)
    >>> @given(action_sequences(start, max_size=10))
    ... def test_applies(actions):
    ...     game = start
    ...     for action in actions:
    ...         game = game.apply(action)
    >>> test_applies()
    """
    if not 0 <= min_size <= max_size:
        raise InvalidArgument(f"need 0 <= min_size <= max_size; got {min_size}, {max_size}")
    return _action_sequences(start, min_size, max_size)
