"""The mutable table the hard bot plays its play-outs on: a
:class:`~spades_core.bots.table.Table` of ints that also knows the variant's
rules, so it can bid, play and score a sampled hand to its end without
building a game or a view at any step.
"""

from __future__ import annotations

import math
import random
from typing import Protocol

from spades_core.bots._play import normal_play
from spades_core.bots.bidding import estimate_tricks, nil_risk, normal_bid
from spades_core.bots.phases import helper_pass, nil_pass
from spades_core.bots.table import NO_BID, Table, after_bidding_phases
from spades_core.engine.game import Phase
from spades_core.engine.sampling import HiddenCards
from spades_core.engine.views import View
from spades_core.rules.hooks import (
    checked_revealed_spade_counts,
)
from spades_core.rules.phase_turns import next_turn, step_effect, table_of
from spades_core.rules.phases import HandPhase, PhaseStep, Where
from spades_core.rules.results import SEATS
from spades_core.rules.tricks import (
    FIRST_SPADE,
    LEFT_OF,
    NO_SUIT,
    RANKS,
    breaks_spades,
    first_leader,
    legal_card_mask,
    rule_flags,
    shown_out,
    trick_winner,
)
from spades_core.rules.variant import Variant, checked_legal_bids
from spades_core.values.actions import PASSES, Pass, PhaseAction
from spades_core.values.cards import CardSet

__all__ = ["BidReader", "Held", "PlayFit", "Sim"]

Held = tuple[int, int, int, int]
"""The four hands as masks, by seat."""


class PlayFit(Protocol):
    """What :meth:`Sim.sample` asks of a reading of the other seats' plays
    (:class:`~spades_core.bots.inference.PlayReading` is one)."""

    def unchecked_misfit(self, held: Held, limit: float) -> float:
        """How badly the hands ``held`` explain the plays, stopping past ``limit``."""
        ...


class Sim(Table):
    """A table that knows every hand, for play-outs. ``hands`` are held masks."""

    __slots__ = (
        "any_spade",
        "dealer",
        "exchange",
        "hand_number",
        "hands",
        "steps",
        "to_act",
        "two_of_clubs",
        "variant",
    )

    def __init__(self, view: View, base: Table, hands: tuple[int, ...]) -> None:
        base.copy_into(self)
        rules = view.rules
        self.rules = rules
        self.variant = view.variant
        self.hand_number = view.hand_number
        self.dealer = int(view.dealer)
        self.any_spade, self.two_of_clubs = rule_flags(rules)
        self.hands = list(hands)
        self.to_act = base.seat
        phased = type(self.variant).phases is not Variant.phases
        self.exchange: tuple[HandPhase, ...] = (
            after_bidding_phases(view) if phased and view.phase is Phase.BID else ()
        )
        """The variant's phases after the bidding, run by :meth:`bid_out`."""
        self.steps: tuple[PhaseStep, ...] | None = view.phase_steps if phased else None
        """The steps of the hand's phases the seat saw (``None``: the
        variant has none), for the variant's scoring."""

    def clone(self) -> Sim:
        """An independent copy."""
        other = Sim.__new__(Sim)
        self.copy_into(other)
        other.variant = self.variant
        other.hand_number = self.hand_number
        other.dealer = self.dealer
        other.any_spade = self.any_spade
        other.two_of_clubs = self.two_of_clubs
        other.hands = list(self.hands)
        other.to_act = self.to_act
        other.exchange = self.exchange
        other.steps = self.steps
        return other

    def legal_card_mask(self) -> int:
        """The legal plays of the seat to act (the engine's rules, on ints)."""
        trick = self.trick
        return legal_card_mask(
            self.hands[self.to_act],
            trick[0] // RANKS if trick else NO_SUIT,
            self.broken,
            self.two_of_clubs and self.tricks_done == 0,
        )

    def play(self, card: int) -> None:
        """The seat to act plays ``card`` (assumed legal)."""
        seat = self.to_act
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played |= bit
        trick = self.trick
        led = trick[0] // RANKS if trick else NO_SUIT
        broken = self.broken
        out = shown_out(card, led, broken)
        if out:
            self.voids[seat] |= out
        if card >= FIRST_SPADE:
            spades_left = self.spades_left
            if spades_left[seat] > 0:
                spades_left[seat] -= 1
            if not broken:
                self.broken = breaks_spades(card, led, self.any_spade)
        trick.append(card)
        if len(trick) < 4:
            self.to_act = (seat + 1) & 3
            return
        winner = (self.leader + trick_winner(trick)) & 3
        self.won[winner] += 1
        self.tricks_done += 1
        self.trick = []
        self.leader = winner
        self.to_act = winner

    def play_out(self) -> None:
        """Play the rest of the hand with the normal policy for every seat.

        The steps of :meth:`play`, written out in one loop with the hand's
        state in local variables (this loop runs for every simulated card)."""
        hands = self.hands
        voids = self.voids
        spades_left = self.spades_left
        won = self.won
        any_spade = self.any_spade
        two_of_clubs = self.two_of_clubs
        trick = self.trick
        seat = self.to_act
        tricks_done = self.tricks_done
        played = self.played
        broken = self.broken
        leader = self.leader
        while tricks_done < 13:
            hand = hands[seat]
            led = trick[0] // RANKS if trick else NO_SUIT
            legal = legal_card_mask(hand, led, broken, two_of_clubs and tricks_done == 0)
            if legal & (legal - 1):
                self.seat = seat
                self.hand = hand
                self.legal = legal
                self.played = played
                self.broken = broken
                card = normal_play(self)[0]
            else:
                # One legal card: the policy could only play it.
                card = legal.bit_length() - 1
            bit = 1 << card
            hands[seat] = hand ^ bit
            played |= bit
            out = shown_out(card, led, broken)
            if out:
                voids[seat] |= out
            if card >= FIRST_SPADE:
                if spades_left[seat] > 0:
                    spades_left[seat] -= 1
                if not broken:
                    broken = breaks_spades(card, led, any_spade)
            trick.append(card)
            if len(trick) < 4:
                seat = (seat + 1) & 3
                continue
            seat = (leader + trick_winner(trick)) & 3
            won[seat] += 1
            tricks_done += 1
            self.tricks_done = tricks_done
            trick.clear()
            leader = seat
            self.leader = seat
        self.seat = seat
        self.hand = hands[seat]
        self.played = played
        self.broken = broken
        self.to_act = seat

    def bid_out(self) -> None:
        """Complete the bidding with the normal policy, then set up the first lead."""
        variant = self.variant
        rules = self.rules
        first = LEFT_OF[self.dealer]
        for i in range(4):
            seat = (first + i) % 4
            if self.bids[seat] != NO_BID:
                continue
            made = {SEATS[s]: b for s, b in enumerate(self.bids) if b != NO_BID}
            self.seat = seat
            self.hand = self.hands[seat]
            self.legal_bids = checked_legal_bids(
                variant, rules, SEATS[seat], CardSet(self.hand), made
            )
            self.bids[seat] = normal_bid(self)[0]
        # Nothing is played yet: the hands are the dealt hands.
        revealed = checked_revealed_spade_counts(
            variant, rules, tuple(self.bids), dealt=tuple(self.hands)
        )
        if self.exchange:
            self._exchange()
        for seat, count in enumerate(revealed):
            if count is not None:
                self.spades_left[seat] = count
        leader = first_leader(self.dealer, self.hands, self.two_of_clubs)
        self.leader = leader
        self.to_act = leader

    def _exchange(self) -> None:
        """Run the variant's phases after the bidding, every seat passing as
        the bots do (:func:`~spades_core.bots.phases.nil_pass`,
        :func:`~spades_core.bots.phases.helper_pass`), one card at a time."""
        held = tuple(self.hands)
        bids: tuple[int | None, ...] = tuple(self.bids)
        steps = self.steps or ()
        scores = self.scores
        while True:
            table = table_of(self.hand_number, self.dealer, scores, held, bids, steps)
            found = next_turn(
                self.exchange, self.rules, self.variant.id, table, Where.AFTER_BIDDING
            )
            if found is None:
                break
            phase, turn = found
            offered = 0
            for action in turn.actions:
                if type(action) is Pass:
                    offered |= action.cards.mask
            seat = int(turn.seat)
            if not offered:
                action_taken: PhaseAction = turn.actions[0]
            elif bids[seat] == 0:
                action_taken = PASSES[nil_pass(held[seat], offered)]
            else:
                action_taken = PASSES[helper_pass(held[seat], offered)]
            held, bids, taken = step_effect(phase, turn, action_taken, held, bids)
            steps = steps + taken
        self.hands = list(held)
        self.steps = steps


class BidReader:
    """Prefers samples in which the other seats' bids make sense.

    A bid says something about the bidder's hand: a Nil a safe hand, a bid
    of 5 about five tricks. Of ``draws`` consistent deals, :meth:`sample`
    keeps the one whose hidden hands the normal bidder's estimate finds
    closest to the bids actually made. Forced bids (one legal choice) say
    nothing beyond what the view already enforces.
    """

    __slots__ = ("_draws",)

    def __init__(self, draws: int) -> None:
        self._draws = draws

    def sample(self, hidden: HiddenCards, rng: random.Random, plays: PlayFit | None = None) -> Held:
        """The best of ``draws`` samples of the hidden cards: the one whose
        hands best explain the bids, and with ``plays`` the plays too."""
        if (plays is None and not hidden.hidden_bids) or self._draws <= 1:
            return hidden.sample(rng)
        best = hidden.sample(rng)
        best_misfit = self.misfit(hidden.dealt(best), hidden)
        if plays is not None:
            best_misfit += plays.unchecked_misfit(best, math.inf)
        for _ in range(self._draws - 1):
            if best_misfit == 0.0:
                break
            held = hidden.sample(rng)
            misfit = self.misfit(hidden.dealt(held), hidden, best_misfit)
            if plays is not None and misfit < best_misfit:
                # Reading the plays stops once this deal can no longer win.
                misfit += plays.unchecked_misfit(held, best_misfit - misfit)
            if misfit < best_misfit:
                best, best_misfit = held, misfit
        return best

    def misfit(
        self, dealt: tuple[int, int, int, int], hidden: HiddenCards, limit: float = math.inf
    ) -> float:
        """How badly the dealt hands explain the bids (0: perfectly); ``hidden``
        is the view's, which knows the bids and each bidder's legal bids.

        Once the misfit reaches ``limit`` it is returned as it stands: the
        rest can only add to it, and a deal that bad is not kept anyway."""
        total = 0.0
        for seat, bid in hidden.hidden_bids:
            if total >= limit:
                break
            hand = dealt[seat]
            legal = hidden.legal_bids(seat, hand)
            if len(legal) < 2:
                continue
            if bid == 0:
                total += max(0.0, nil_risk(hand) - 3.0) / 3.0
                total += max(0.0, estimate_tricks(hand) - 1.5)
            elif 0 in legal and len(legal) == 2:
                # Nil or the count (Whiz): passing up Nil hints at a hand unsafe for it.
                total += max(0.0, 2.0 - nil_risk(hand)) / 2.0
            else:
                total += max(0.0, abs(estimate_tricks(hand) - bid) - 0.5)
        return total
