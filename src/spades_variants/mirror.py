"""Mirror Spades (docs/rules.md, Mirror): every bid is the bidder's spade count."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final

from spades_core import CardSet, Rules, Seat, Suit, Variant
from spades_core.variant import describe_bids
from spades_variants import MIRROR_FAMILY_OPTIONS

if TYPE_CHECKING:
    from spades_core.batch import ArrayForms

__all__ = ["MIRROR", "MirrorVariant"]

_SPADES: Final = Suit.SPADES


class MirrorVariant(Variant):
    """Mirror Spades: the only legal bid is the number of spades held (Nil with none)."""

    def legal_bids(
        self, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> Iterable[int]:
        """The single bid equal to the spades in ``hand``."""
        return (hand.count(_SPADES),)

    def explain_bids(
        self, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> str | None:
        """The one bid there is, and the spade count it comes from."""
        legal = tuple(self.legal_bids(rules, seat, hand, bids))
        count = hand.count(_SPADES)
        if legal != (count,):
            # Bids limited otherwise (a subclass's own rule): say what they are.
            return super().explain_bids(rules, seat, hand, bids)
        held = "no spades" if count == 0 else f"{count} spade{'s' if count != 1 else ''}"
        return (
            f"In {self.title} your bid is your spade count, and you hold {held}, "
            f"so you must bid {describe_bids(legal)}."
        )

    def revealed_spade_counts(self, rules: Rules, bids: Mapping[Seat, int]) -> dict[Seat, int]:
        """Every bid is the bidder's spade count."""
        return dict(bids)

    def array_forms(self) -> ArrayForms:
        """This variant's rules on arrays (:class:`spades_variants._arrays.MirrorArrays`),
        imported only when the batch engine asks: it needs numpy."""
        from spades_variants._arrays import MirrorArrays

        return MirrorArrays(self)


MIRROR: Final = MirrorVariant(
    id="mirror",
    title="Mirror Spades",
    version=1,
    summary=(
        "Four players in two partnerships; spades are always trump. Your bid is the "
        "number of spades you hold, and with no spades you must bid Nil, so the bids "
        "show how the 13 trumps are divided. Nobody may lead a spade until one has been "
        "played on an earlier trick, unless they hold only spades. A made contract "
        "scores 10 per trick bid plus 1 per extra trick (a bag); a missed one loses 10 "
        "per trick bid; every 10 bags cost 100. Nil wins or loses 100, and a Nil "
        "player's tricks never help the partner but count as bags. First to 500 wins; "
        "a tie at the top plays another hand."
    ),
    options=MIRROR_FAMILY_OPTIONS,
)
"""The Mirror Spades variant."""
