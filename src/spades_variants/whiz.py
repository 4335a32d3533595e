"""Whiz Spades (docs/rules.md, Whiz): bid your spade count or Nil."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final

from spades_core import Card, CardSet, Rules, Seat, Suit, Variant
from spades_core.options import bool_option
from spades_core.variant import describe_bids
from spades_variants import MIRROR_FAMILY_OPTIONS

if TYPE_CHECKING:
    from spades_core.batch import ArrayForms

__all__ = ["WHIZ", "WHIZ_NIL_NEEDS_NO_ACE", "WhizVariant"]

WHIZ_NIL_NEEDS_NO_ACE: Final = bool_option(
    "whiz_nil_needs_no_ace", "a player holding the A♠ may not bid Nil"
)
"""Whiz's own house rule (off by default): a player holding the A♠ may not bid Nil."""

_ACE_OF_SPADES: Final = Card.parse("AS")
_SPADES: Final = Suit.SPADES


class WhizVariant(Variant):
    """Whiz Spades: bid Nil or exactly the number of spades held."""

    def legal_bids(
        self, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> Iterable[int]:
        """Nil and the spade count; only the count when ``whiz_nil_needs_no_ace``
        is on and the hand holds the A♠; only Nil with no spades."""
        spades = hand.count(_SPADES)
        # The house rule is looked up only for a hand holding the A♠.
        if spades and hand.mask >> _ACE_OF_SPADES.id & 1 and rules.get(WHIZ_NIL_NEEDS_NO_ACE):
            return (spades,)
        return (0, spades) if spades else (0,)

    def explain_bids(
        self, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> str | None:
        """The choice of Nil or the spade count, the spades held, and, when
        the house rule rules out Nil for the holder of the A♠, that rule."""
        legal = tuple(sorted(self.legal_bids(rules, seat, hand, bids)))
        count = hand.count(_SPADES)
        spades = f"{count} spade{'s' if count != 1 else ''}"
        rule = f"In {self.title} you bid Nil or your spade count"
        if legal == (0,) and not count:
            return f"{rule}, and you hold no spades, so Nil is your only bid."
        if legal == (0, count):
            return f"{rule}, and you hold {spades}, so you may bid {describe_bids(legal)}."
        if legal == (count,) and _ACE_OF_SPADES in hand and rules.get(WHIZ_NIL_NEEDS_NO_ACE):
            return (
                f"{rule}, but you hold the A♠ and the house rule whiz_nil_needs_no_ace "
                f"rules out Nil for its holder, so you must bid your {spades}."
            )
        # Bids limited otherwise (a subclass's own rule): say what they are.
        return super().explain_bids(rules, seat, hand, bids)

    def revealed_spade_counts(self, rules: Rules, bids: Mapping[Seat, int]) -> dict[Seat, int]:
        """A non-Nil bid is the bidder's spade count; Nil reveals nothing."""
        return {seat: bid for seat, bid in bids.items() if bid != 0}

    def array_forms(self) -> ArrayForms:
        """This variant's rules on arrays (:class:`spades_variants._arrays.WhizArrays`),
        imported only when the batch engine asks: it needs numpy."""
        from spades_variants._arrays import WhizArrays

        return WhizArrays(self, WHIZ_NIL_NEEDS_NO_ACE)


WHIZ: Final = WhizVariant(
    id="whiz",
    title="Whiz Spades",
    version=1,
    summary=(
        "Mirror Spades with one choice: each player bids either Nil or exactly the "
        "number of spades they hold (only Nil with no spades). Everything else follows "
        "Mirror: spades are broken by any earlier spade, a Nil player's tricks count "
        "only as bags, first to 500 wins, no loss floor, and a tie at the top plays "
        "another hand. Optional house rule, off by default (whiz_nil_needs_no_ace=true): "
        "a player holding the ace of spades may not bid Nil."
    ),
    options={**MIRROR_FAMILY_OPTIONS, WHIZ_NIL_NEEDS_NO_ACE: False},
)
"""The Whiz Spades variant."""
