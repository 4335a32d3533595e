"""Tournament Spades, a variant plugin for spades-core (docs/variants/tournament.md).

Classic Spades with the rules tournament tables play: Blind Nil for a team
trailing by ``blind_nil_margin`` (worth ±``blind_nil_value``), a card
exchange between a Nil (or Blind Nil) bidder and the partner
(``pass_count`` cards each way), Boston (all 13 tricks score
``boston_bonus`` more), 10-for-200 (a made team bid of 10 or more scores
200), a minimum team bid (``min_team_bid``) and Nil only with at most
``nil_max_spades`` spades. The two phases are :class:`BlindNilPhase` and
:class:`ExchangePhase`; the engine drives them.

>>> import spades_core as sc
>>> game = sc.new_game("tournament", seed=3, dealer=sc.Seat.WEST).deal()
>>> game.phase_name, game.to_act.name  # nobody trails: straight to the bidding
('bid', 'NORTH')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from spades_core import (
    BLIND_NIL,
    LOOK,
    PASSES,
    BlindNil,
    CardSet,
    HandPhase,
    PhaseStep,
    PhaseTable,
    Rules,
    RulesError,
    Seat,
    SeatMap,
    Suit,
    Team,
    TeamMap,
    Turn,
    Variant,
    Where,
    load_variant,
)
from spades_core.options import bool_option, int_option

__all__ = ["TOURNAMENT", "BlindNilPhase", "ExchangePhase", "TournamentVariant"]

__version__ = "1.0.0"

MARGIN: Final = int_option(
    "blind_nil_margin", "how far a team must trail to go Blind Nil", minimum=0
)
BLIND_VALUE: Final = int_option("blind_nil_value", "what a Blind Nil wins or loses", minimum=0)
PASS_COUNT: Final = int_option(
    "pass_count", "cards each partner passes after a Nil", minimum=1, maximum=3
)
BOSTON: Final = int_option("boston_bonus", "bonus for taking all 13 tricks", minimum=0)
TEN_FOR_200: Final = bool_option("ten_for_two_hundred", "a made team bid of 10+ scores 200")
MIN_TEAM_BID: Final = int_option("min_team_bid", "the least a team may bid", minimum=0, maximum=13)
NIL_SPADES: Final = int_option(
    "nil_max_spades", "most spades a Nil bidder may hold", minimum=0, maximum=13
)


def _order(table: PhaseTable) -> tuple[Seat, ...]:
    return table.bidding_order()


class BlindNilPhase(HandPhase):
    """Before the bidding: each seat of a team trailing by the margin, in
    bidding order, declares Blind Nil or looks (one Blind Nil per team)."""

    def _waiting(self, rules: Rules, table: PhaseTable) -> list[Seat]:
        decided = {step.seat for step in table.steps_of(self.name)}
        blind = table.blind()
        margin = rules.get(MARGIN)
        return [
            seat
            for seat in _order(table)
            if table.scores[seat.team.opponent] - table.scores[seat.team] >= margin
            and seat not in decided
            and seat.partner not in blind
        ]

    def turn(self, rules: Rules, table: PhaseTable) -> Turn | None:
        """The first undecided seat of a trailing team chooses blind or look."""
        waiting = self._waiting(rules, table)
        return Turn(waiting[0], (BLIND_NIL, LOOK)) if waiting else None

    def hidden(self, rules: Rules, table: PhaseTable) -> frozenset[Seat]:
        """Seats still to decide have not seen their cards."""
        return frozenset(self._waiting(rules, table))


class ExchangePhase(HandPhase):
    """After the bidding: for each team with a Nil, the first Nil bidder (in
    bidding order) passes ``pass_count`` cards to the partner, who then
    passes as many back, never a card just received."""

    def turn(self, rules: Rules, table: PhaseTable) -> Turn | None:
        """The next seat still owing cards, offered the cards it was dealt."""
        count = rules.get(PASS_COUNT)
        pairs: list[Seat] = []
        for seat in _order(table):
            if table.bids[seat] == 0 and seat not in pairs and seat.partner not in pairs:
                pairs += [seat, seat.partner]
        for seat in pairs:
            passed = len(table.steps_of(self.name, seat))
            if passed < count:
                own = table.hands[seat] - table.received(self.name, seat)
                offers = tuple(PASSES[card.id] for card in own)
                return Turn(seat, offers, receiver=seat.partner, count=count - passed)
        return None


class TournamentVariant(Variant):
    """Tournament Spades: classic scoring and trick play, with the phases
    and bidding rules above."""

    def phases(self, rules: Rules) -> Iterable[HandPhase]:
        """Blind Nil decisions before the bidding, the exchange after it."""
        return (
            BlindNilPhase("blind_nil", Where.BEFORE_BIDDING, "Blind Nil"),
            ExchangePhase("exchange", Where.AFTER_BIDDING, "Passing cards"),
        )

    def check_rules(self, rules: Rules) -> None:
        """The team cap must leave room for the minimum team bid."""
        cap = rules.max_team_bid
        if cap is not None and cap < rules.get(MIN_TEAM_BID):
            raise RulesError(
                f"option 'max_team_bid' ({cap}) must be at least 'min_team_bid' "
                f"({rules.get(MIN_TEAM_BID)}) in {self.id!r}, or no team could bid"
            )

    def legal_bids(
        self, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> Iterable[int]:
        """Within the team cap; the second partner brings the team to the
        minimum; Nil only with few spades (unless Nil is the only bid left)."""
        cap = 13 if rules.max_team_bid is None else rules.max_team_bid
        partner = bids.get(seat.partner)
        high = min(13, cap - (partner or 0))
        low = 0 if partner is None else max(0, rules.get(MIN_TEAM_BID) - partner)
        nil_ok = high == 0 or hand.count(Suit.SPADES) <= rules.get(NIL_SPADES)
        return [bid for bid in range(low, high + 1) if bid or nil_ok]

    def score_hand(
        self, rules: Rules, bids: SeatMap[int], tricks: SeatMap[int], bags_before: TeamMap[int]
    ) -> tuple[TeamMap[int], TeamMap[int]]:
        """Classic scoring, plus Boston and 10-for-200."""
        points, bags = super().score_hand(rules, bids, tricks, bags_before)
        extra = []
        for team in Team:
            seats = team.seats
            contract = sum(bids[seat] for seat in seats)
            counted = sum(tricks[seat] for seat in seats if bids[seat] or _nil_counts(rules))
            bonus = rules.get(BOSTON) if sum(tricks[seat] for seat in seats) == 13 else 0
            if rules.get(TEN_FOR_200) and contract >= 10 and counted >= contract:
                bonus += 200 - 10 * contract
            extra.append(points[team] + bonus)
        return TeamMap(tuple(extra)), bags

    def score_phased_hand(
        self,
        rules: Rules,
        bids: SeatMap[int],
        tricks: SeatMap[int],
        bags_before: TeamMap[int],
        steps: tuple[PhaseStep, ...],
    ) -> tuple[TeamMap[int], TeamMap[int]]:
        """:meth:`score_hand`, with each Blind Nil worth ``blind_nil_value``
        instead of a Nil's ``nil_value``."""
        points, bags = self.score_hand(rules, bids, tricks, bags_before)
        change = rules.get(BLIND_VALUE) - rules.nil_value
        totals = list(points.values())
        for step in steps:
            if type(step.action) is BlindNil:
                totals[step.seat.team] += change if tricks[step.seat] == 0 else -change
        return TeamMap(tuple(totals)), bags


def _nil_counts(rules: Rules) -> bool:
    return rules.nil_tricks.value == "count_toward_contract"


_SUMMARY: Final = (
    "Classic Spades with tournament rules: a team trailing by 100 may go Blind Nil "
    "(±200) before seeing its cards; after a Nil or Blind Nil the bidder and partner "
    "pass each other 2 cards; all 13 tricks score a 200 bonus; a made team bid of 10 "
    "or more scores 200; a team bids at least 4; Nil only with at most 3 spades."
)


def _tournament() -> TournamentVariant:
    classic = load_variant("classic").derive(drop=["double_nil"])
    options: dict[object, object] = dict(classic.defaults.items())
    options.update(
        {
            MARGIN: 100,
            BLIND_VALUE: 200,
            PASS_COUNT: 2,
            BOSTON: 200,
            TEN_FOR_200: True,
            MIN_TEAM_BID: 4,
            NIL_SPADES: 3,
        }
    )
    return TournamentVariant(
        id="tournament", title="Tournament Spades", summary=_SUMMARY, options=options
    )


TOURNAMENT: Final = _tournament()
"""The Tournament Spades variant (entry point ``tournament``)."""
