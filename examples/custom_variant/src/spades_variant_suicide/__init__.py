"""Suicide Spades, a variant plugin for spades-core (docs/rules.md, Suicide Spades).

Each partnership must contain exactly one Nil: the first partner to bid
chooses Nil or a bid of at least 4; if they chose Nil the second must bid at
least 4, otherwise the second must bid Nil. Hands are scored as in classic
Spades, except that a Nil bidder's tricks never help the partner's contract
and count as bags (``nil_tricks = "bags_only"``).

The package registers :data:`SUICIDE` under the ``spades_core.variants``
entry-point group, so once it is installed:

>>> import spades_core as sc
>>> "suicide" in sc.available_variants()
True
>>> game = sc.new_game("suicide", seed=1, dealer=sc.Seat.WEST).deal()
>>> game.legal_bids()
(0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
>>> game.bid(0).bid(5).legal_bids()  # North's partner, South, must now bid 4 or more
(4, 5, 6, 7, 8, 9, 10, 11, 12, 13)

Everything else — dealing, trick play, scoring, the end of the game — is the
engine's, configured by classic's options. The only code here is the bidding
rule, a check that the options leave a legal bid, and the bidding rule on
arrays for spades-core's batch engine (``_arrays``, imported only when the
batch engine asks for it, since it needs numpy).

Decision: the classic ``max_team_bid`` cap (default 13) still applies to the
partnership's one non-Nil bid, so with ``max_team_bid=9`` it ranges from 4 to
9. A cap below 4 would leave the non-Nil partner no legal bid; such games are
rejected with a :class:`~spades_core.RulesError`. ``double_nil`` is not an
option here: a partnership can never bid two Nils.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final

from spades_core import CardSet, Rules, RulesError, Seat, Variant, load_variant

if TYPE_CHECKING:
    from spades_core.batch import ArrayForms

__all__ = ["MINIMUM_BID", "SUICIDE", "SuicideVariant"]

__version__ = "1.0.0"

MINIMUM_BID: Final = 4
"""The smallest bid the non-Nil partner may make."""


class SuicideVariant(Variant):
    """Suicide Spades: exactly one Nil per partnership, the other partner bids 4 or more."""

    def legal_bids(
        self, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> Iterable[int]:
        """The first partner may bid Nil or 4 up to the team cap; the second
        must make the bid that leaves the partnership exactly one Nil."""
        highest = 13 if rules.max_team_bid is None else rules.max_team_bid
        partner_bid = bids.get(seat.partner)
        if partner_bid is None:
            return [0, *range(MINIMUM_BID, highest + 1)]
        if partner_bid == 0:
            return range(MINIMUM_BID, highest + 1)
        return [0]

    def check_rules(self, rules: Rules) -> None:
        """A team cap below 4 would leave the non-Nil partner no bid."""
        if rules.max_team_bid is not None and rules.max_team_bid < MINIMUM_BID:
            raise RulesError(
                f"option 'max_team_bid' must be at least {MINIMUM_BID} (or None) in "
                f"{self.id!r}: one partner of each team must bid {MINIMUM_BID} or more; "
                f"got {rules.max_team_bid}"
            )

    def array_forms(self) -> ArrayForms:
        """The bidding rule on arrays, for ``spades_core.batch`` (needs numpy)."""
        from spades_variant_suicide._arrays import SuicideArrays

        return SuicideArrays(self)


_SUMMARY: Final = (
    "Classic Spades where every partnership bids exactly one Nil: the first "
    "partner to bid chooses Nil or 4 or more; if they chose Nil the other must "
    "bid 4 or more, otherwise the other must bid Nil. A Nil bidder's tricks never "
    "help the partner's contract and count as bags. First to 500 wins; a team at "
    "or below -200 loses."
)


def _suicide() -> SuicideVariant:
    # Classic's options and defaults, without double_nil (a partnership never
    # bids two Nils) and with a Nil bidder's tricks counting only as bags.
    classic = load_variant("classic").derive(drop=["double_nil"], nil_tricks="bags_only")
    return SuicideVariant(
        id="suicide", title="Suicide Spades", summary=_SUMMARY, options=classic.defaults
    )


SUICIDE: Final = _suicide()
"""The Suicide Spades variant (entry point ``suicide``)."""
