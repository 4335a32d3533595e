"""The engine's seeded deals, many at once.

:mod:`spades_core.rng` defines a deal: SplitMix64 streams keyed by
``(seed, purpose, index)``, a Fisher-Yates shuffle from the top with
rejection-free bounded draws, and one card at a time clockwise from the
dealer's left. This module computes exactly the same thing on arrays of
seeds: the 51 draws of a shuffle are outputs of independent states
``s + G, s + 2G, ... s + 51G``, so all of them are one array expression, and
the swaps run column by column over every deal at once. A draw that the
bounded draw would reject (probability below 2**-50 per deal) sends that one
deal to the sequential :func:`spades_core.rng.shuffled_deck`.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from spades_core.rules import rng as _seeded
from spades_core.rules.tricks import LEFT_OF

from ._types import U64

__all__ = ["deal_hands", "first_dealers", "mix64"]


_GAMMA: Final = np.uint64(0x9E3779B97F4A7C15)
_M1: Final = np.uint64(0xBF58476D1CE4E5B9)
_M2: Final = np.uint64(0x94D049BB133111EB)
_S30: Final = np.uint64(30)
_S27: Final = np.uint64(27)
_S31: Final = np.uint64(31)
_PURPOSE_DEALER: Final = np.uint64(1 << 32)
_PURPOSE_DECK: Final = 2 << 32
_DRAW_STEPS: Final = (np.arange(1, 52, dtype=np.uint64) * _GAMMA).astype(np.uint64)
_DRAW_BOUNDS: Final = np.arange(52, 1, -1, dtype=np.uint64)
"""Fisher-Yates swaps position ``i`` (51 down to 1) with ``below(i + 1)``."""
_DRAW_HIGHEST: Final = np.array(
    [(1 << 64) - (1 << 64) % int(bound) - 1 for bound in _DRAW_BOUNDS], dtype=np.uint64
)
"""The highest output each bounded draw accepts (a power-of-two bound accepts all)."""
CARD_BITS: Final = np.left_shift(np.uint64(1), np.arange(52, dtype=np.uint64))
"""The mask bit of each card id."""


def mix64(values: U64) -> U64:
    """SplitMix64's output function on every element (a new array): the
    array twin of :func:`spades_core.rng.mix64`, held to it by the tests."""
    z = values ^ (values >> _S30)
    z *= _M1
    z ^= z >> _S27
    z *= _M2
    z ^= z >> _S31
    return z


def first_dealers(seeds: U64) -> npt.NDArray[np.int8]:
    """The first dealer (seat number) of a game with each seed, as
    :func:`spades_core.rng.first_dealer` draws it."""
    state = mix64(mix64(seeds) ^ _PURPOSE_DEALER)
    state += _GAMMA
    return (mix64(state) & np.uint64(3)).astype(np.int8)


def _shuffle_draws(
    seeds: U64, hand_index: U64
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
    """The 51 swap positions of each deal's shuffle as a ``(51, n)`` array, and
    which deals had a rejected draw (their positions are not valid)."""
    state = mix64(mix64(seeds) ^ (hand_index + np.uint64(_PURPOSE_DECK)))
    outputs = mix64(_DRAW_STEPS[:, None] + state[None, :])
    rejected = np.asarray((outputs > _DRAW_HIGHEST[:, None]).any(axis=0))
    return (outputs % _DRAW_BOUNDS[:, None]).astype(np.intp), rejected


def shuffled_decks(seeds: U64, hand_index: U64) -> npt.NDArray[np.int8]:
    """Each deal's 52 card ids in dealing order, as
    :func:`spades_core.rng.shuffled_deck` gives them, as a ``(52, n)`` array
    (position first, so that each swap moves contiguous rows)."""
    count = len(seeds)
    draws, rejected = _shuffle_draws(seeds, hand_index)
    deck = np.empty((52, count), dtype=np.int8)
    deck[:] = np.arange(52, dtype=np.int8)[:, None]
    flat = deck.reshape(-1)
    columns = np.arange(count, dtype=np.intp)
    for draw in range(51):
        position = 51 - draw
        swap_with = draws[draw] * count + columns
        moving = deck[position].copy()
        deck[position] = flat[swap_with]
        flat[swap_with] = moving
    for column in np.flatnonzero(rejected):
        deck[:, column] = _seeded.shuffled_deck(int(seeds[column]), int(hand_index[column]))
    return deck


# Deck position p goes to seat (left of dealer + p) % 4. Sorting the keys
# seat * 64 + card groups a deck's cards by seat, each group ascending.
_SEAT_KEYS: Final = np.array(
    [[(LEFT_OF[dealer] + position) % 4 * 64 for position in range(52)] for dealer in range(4)],
    dtype=np.int16,
)


def deal_hands(
    seeds: U64, hand_index: U64, dealers: npt.NDArray[np.int8]
) -> tuple[U64, npt.NDArray[np.int8]]:
    """Each deal's four hands by seat number: as masks ``(n, 4)`` and as
    ascending card ids ``(n, 4, 13)``.

    The same cards as :func:`spades_core.rng.deal_masks` for every
    ``(seed, hand_index, dealer)``.
    """
    count = len(seeds)
    deck = shuffled_decks(seeds, hand_index)
    keys = _SEAT_KEYS[dealers] + deck.T
    keys.sort(axis=1, kind="stable")
    hands = (keys & 63).astype(np.int8).reshape(count, 4, 13)
    masks = np.bitwise_or.reduce(CARD_BITS[hands], axis=2)
    return masks, hands


def mask_cards(masks: U64) -> npt.NDArray[np.int8]:
    """The card ids of 13-card masks ``(..., )`` as ascending ids ``(..., 13)``."""
    bits = np.unpackbits(masks[..., None].view(np.uint8), axis=-1, bitorder="little")
    ids = np.nonzero(bits)[-1].astype(np.int8)
    return ids.reshape(*masks.shape, 13)
