"""Seeded, platform-independent randomness for deals.

Python's ``random.shuffle`` may change between versions, so deals use this
module instead. Everything here is integer arithmetic on 64-bit words and
gives the same results on every platform and Python version:

* The generator is SplitMix64 (Steele, Lea and Flood, 2014): the state
  advances by ``0x9E3779B97F4A7C15`` and each output is the state passed
  through :func:`mix64`.
* A stream is keyed by ``(seed, purpose, index)``: its starting state is
  ``mix64(mix64(seed) ^ (purpose * 2**32 + index))``. Purpose 1 draws the
  first dealer, purpose 2 shuffles the deck of hand ``index`` (0-based).
* A bounded draw ``below(n)`` takes outputs until one is under the largest
  multiple of ``n`` that fits in 64 bits and returns it modulo ``n`` (no bias).
* The shuffle is Fisher-Yates from the top: for ``i`` from 51 down to 1 swap
  position ``i`` with position ``below(i + 1)``, starting from the deck in
  card-id order.
* The deck is dealt one card at a time clockwise starting left of the dealer.

>>> deal_masks(7, hand_index=0, dealer=3) == deal_masks(7, hand_index=0, dealer=3)
True
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Iterable, Sequence
from typing import Final

from spades_core.rules.tricks import LEFT_OF
from spades_core.values.checks import MAX_SEED

__all__ = [
    "MAX_SEED",
    "SeedStream",
    "deal_masks",
    "first_dealer",
    "hands_of_deck",
    "mix64",
    "shuffled_deck",
]

_MASK64: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_PURPOSE_DEALER: Final = 1
_PURPOSE_DECK: Final = 2


def mix64(value: int) -> int:
    """SplitMix64's output function: a bijective scramble of a 64-bit word."""
    z = value & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class SeedStream:
    """A SplitMix64 generator keyed by a seed, a purpose and an index."""

    __slots__ = ("_state",)

    def __init__(self, seed: int, purpose: int = 0, index: int = 0) -> None:
        self._state = mix64(mix64(seed) ^ ((purpose << 32) + index))

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + _GAMMA) & _MASK64
        return mix64(self._state)

    def below(self, bound: int) -> int:
        """A uniform integer in ``range(bound)``."""
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = self.next64()
            if value < limit:
                return value % bound


def shuffled_deck(seed: int, hand_index: int) -> list[int]:
    """The 52 card ids in the order hand ``hand_index`` of a game seeded
    with ``seed`` deals them."""
    stream = SeedStream(seed, _PURPOSE_DECK, hand_index)
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# Dealing is the costliest step of a simulated hand, so deal_masks computes
# the same shuffle as shuffled_deck in bulk. The 51 draws of a shuffle are
# SplitMix64 outputs of the states s + G, s + 2G, ..., s + 51G, independent of
# one another unless a draw is rejected. They are computed together on one
# big int holding the 51 states in 128-bit lanes: the upper 64 bits of each
# lane leave room for a 64x64-bit product, and masking with _LANES after each
# step keeps the lanes apart. A rejection (probability below 2**-50 per deal)
# falls back to the sequential SeedStream.
_DRAWS: Final = 51
_LANES: Final = sum(_MASK64 << (128 * k) for k in range(_DRAWS))
_ONE_PER_LANE: Final = sum(1 << (128 * k) for k in range(_DRAWS))
_LANE_STEPS: Final = sum((((k + 1) * _GAMMA) & _MASK64) << (128 * k) for k in range(_DRAWS))
_DRAW_BOUNDS: Final = tuple(range(52, 1, -1))
"""The bound of each draw: Fisher-Yates swaps position i with ``below(i + 1)``, i = 51..1."""
_DRAW_LIMITS: Final = tuple((1 << 64) - (1 << 64) % bound for bound in _DRAW_BOUNDS)
# Every limit is at least the smallest one, so no draw can be rejected unless
# adding 2**64 minus that limit to each lane carries into the lane's bit 64.
_NEAR_LIMIT: Final = sum(((1 << 64) - min(_DRAW_LIMITS)) << (128 * k) for k in range(_DRAWS))
_LANE_CARRIES: Final = sum(1 << (128 * k + 64) for k in range(_DRAWS))
# The low 64 bits of each 128-bit lane, little-endian.
_UNPACK_OUTPUTS: Final = struct.Struct("<" + "Q8x" * _DRAWS).unpack
_BITS: Final = tuple(1 << card for card in range(52))


def _shuffle_draws(seed: int, hand_index: int) -> Iterable[int]:
    """The positions ``below(52), below(51), ..., below(2)`` that shuffle hand
    ``hand_index`` draws, computed in bulk (see above)."""
    state = mix64(mix64(seed) ^ ((_PURPOSE_DECK << 32) + hand_index))
    z = (state * _ONE_PER_LANE + _LANE_STEPS) & _LANES
    z = ((z ^ (z >> 30)) & _LANES) * 0xBF58476D1CE4E5B9 & _LANES
    z = ((z ^ (z >> 27)) & _LANES) * 0x94D049BB133111EB & _LANES
    z = (z ^ (z >> 31)) & _LANES
    outputs = _UNPACK_OUTPUTS(z.to_bytes(16 * _DRAWS, "little"))
    if (z + _NEAR_LIMIT) & _LANE_CARRIES and any(map(operator.ge, outputs, _DRAW_LIMITS)):
        stream = SeedStream(seed, _PURPOSE_DECK, hand_index)
        return [stream.below(bound) for bound in _DRAW_BOUNDS]
    return map(operator.mod, outputs, _DRAW_BOUNDS)


def deal_masks(seed: int, hand_index: int, dealer: int) -> tuple[int, int, int, int]:
    """The four hands (as masks, by seat number) of a seeded deal: the deck of
    :func:`shuffled_deck` dealt one card at a time clockwise from the dealer's left."""
    # The deck holds each card's bit rather than its id, so a hand's mask is a plain sum.
    deck = list(_BITS)
    i = 51
    for j in _shuffle_draws(seed, hand_index):
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1
    return hands_of_deck(deck, dealer)


def hands_of_deck(deck: Sequence[int], dealer: int) -> tuple[int, int, int, int]:
    """The four hands (as masks, by seat number) dealt from ``deck``, the
    bits (``1 << id``) of the 52 cards in dealing order, one card at a time
    clockwise from the left of seat number ``dealer``."""
    # Position p goes to seat (left of dealer + p) % 4: every fourth card to one seat.
    first = LEFT_OF[dealer]
    return (
        sum(deck[-first % 4 :: 4]),
        sum(deck[(1 - first) % 4 :: 4]),
        sum(deck[(2 - first) % 4 :: 4]),
        sum(deck[(3 - first) % 4 :: 4]),
    )


def first_dealer(seed: int) -> int:
    """The seat number of the first dealer drawn from ``seed``: the first
    ``below(4)`` of its dealer stream."""
    # Written out, as every new game draws it: 4 divides 2**64, so no output
    # is rejected; the three mix64 steps are spelled out in place of three calls.
    z = seed & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z = (z ^ (z >> 31)) ^ (_PURPOSE_DEALER << 32)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z = ((z ^ (z >> 31)) + _GAMMA) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (z ^ (z >> 31)) % 4
