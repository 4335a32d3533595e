"""Classic Spades (docs/rules.md, Classic): free bids 0-13, a team cap of 13, a −200 loss floor."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final

from spades_core import CardSet, Rules, Seat, Variant
from spades_core.variant import describe_bids

if TYPE_CHECKING:
    from spades_core.batch import ArrayForms

__all__ = ["CLASSIC", "ClassicVariant"]


class ClassicVariant(Variant):
    """Classic Spades: each player bids any number of tricks 0-13 (0 is Nil),
    a partnership's two bids capped by ``max_team_bid``."""

    def legal_bids(
        self, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> Iterable[int]:
        """Every bid from Nil up to what the team cap leaves after the partner's bid."""
        cap = rules.max_team_bid
        highest = 13 if cap is None else min(13, cap - bids.get(seat.partner, 0))
        return range(highest + 1)

    def explain_bids(
        self, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> str | None:
        """The team cap, when it holds the seat below 13: the cap, the
        partner's bid (or that the partner has not bid), and the bids left."""
        legal = tuple(sorted(self.legal_bids(rules, seat, hand, bids)))
        cap = rules.max_team_bid
        partner = bids.get(seat.partner)
        if cap is None or legal != tuple(range(min(13, cap - (partner or 0)) + 1)):
            # Bids limited otherwise (a subclass's own rule): say what they are.
            return super().explain_bids(rules, seat, hand, bids)
        if max(legal) >= 13:
            return None
        said = "has not bid yet" if partner is None else f"bid {'Nil' if partner == 0 else partner}"
        left = "Nil is your only bid" if legal == (0,) else f"you may bid {describe_bids(legal)}"
        return (
            f"In {self.title} a partnership's bids may total at most {cap}, "
            f"and your partner {said}, so {left}."
        )

    def array_forms(self) -> ArrayForms:
        """This variant's rules on arrays (:class:`spades_variants._arrays.ClassicArrays`),
        imported only when the batch engine asks: it needs numpy."""
        from spades_variants._arrays import ClassicArrays

        return ClassicArrays(self)


CLASSIC: Final = ClassicVariant(
    id="classic",
    title="Classic Spades",
    version=1,
    summary=(
        "Four players in two partnerships; spades are always trump. Each player bids "
        "the tricks they expect to win, 0 (Nil) to 13; a team's two bids are its "
        "contract and may not exceed 13 together. Spades cannot be led until one has "
        "been played to a trick led in another suit, unless the leader holds only "
        "spades. A made contract scores 10 per trick bid plus 1 per overtrick (a bag); "
        "a set loses 10 per trick bid; every 10 bags cost 100. Nil wins or loses 100, "
        "and a failed Nil's tricks count toward the partner's contract. First to 500 "
        "wins; a team at or below -200 loses."
    ),
    options={
        "target_score": 500,
        "loss_floor": -200,
        "nil_value": 100,
        "nil_tricks": "count_toward_contract",
        "double_nil": "independent",
        "bag_limit": 10,
        "bag_penalty": 100,
        "bag_overflow": "carry",
        "break_rule": "offsuit_spade",
        "first_lead": "left_of_dealer",
        "max_team_bid": 13,
    },
)
"""The classic Spades variant."""
