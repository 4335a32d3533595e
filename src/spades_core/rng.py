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

from typing import Final

__all__ = ["SeedStream", "deal_masks", "first_dealer", "mix64", "shuffled_deck"]

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


def deal_masks(seed: int, hand_index: int, dealer: int) -> tuple[int, int, int, int]:
    """The four hands (as masks, by seat number) of a seeded deal."""
    masks = [0, 0, 0, 0]
    for position, card in enumerate(shuffled_deck(seed, hand_index)):
        masks[(dealer + 1 + position) % 4] |= 1 << card
    return (masks[0], masks[1], masks[2], masks[3])


def first_dealer(seed: int) -> int:
    """The seat number of the first dealer drawn from ``seed``."""
    return SeedStream(seed, _PURPOSE_DEALER, 0).below(4)
