"""Starting a game: :func:`new_game`."""

from __future__ import annotations

import secrets

from spades_core import _check
from spades_core.errors import InvalidNotationError, RulesError, brief
from spades_core.registry import load_variant
from spades_core.rng import first_dealer
from spades_core.seats import Seat
from spades_core.state import SEATS, Game, GameSetup
from spades_core.transitions import between_hands
from spades_core.variant import Variant

__all__ = ["new_game"]

_MAX_SEED = (1 << 64) - 1


def new_game(
    variant: str | Variant,
    /,
    *,
    seed: int | None = None,
    dealer: Seat | str | None = None,
    **options: object,
) -> Game:
    """A new game of ``variant`` (an installed variant's id, or a
    :class:`Variant`), waiting for its first deal.

    ``seed`` (0 to 2**64-1) decides every seeded deal and, when ``dealer`` is
    not given, the first dealer; without it a random seed is drawn and kept.
    Options are the variant's house rules as keywords (docs/rules.md, Options).

    >>> game = new_game("classic", seed=7, dealer=Seat.WEST, target_score=300)
    >>> game.rules.target_score, game.dealer
    (300, <Seat.WEST: 3>)
    """
    chosen = variant if isinstance(variant, Variant) else load_variant(variant)
    if seed is None:
        seed = secrets.randbits(64)
    elif type(seed) is not int or not 0 <= seed <= _MAX_SEED:
        raise RulesError(f"seed must be a whole number from 0 to 2**64-1; got {brief(seed)}")
    rules = chosen.rules(**options)
    if dealer is None:
        first = SEATS[first_dealer(seed)]
    else:
        try:
            first = _check.seat(dealer, "new_game", "dealer")
        except InvalidNotationError as error:
            raise RulesError(str(error)) from None
    return between_hands(GameSetup(chosen, rules, seed, first), first, (0, 0), (0, 0), (), None)
