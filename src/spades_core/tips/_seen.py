"""What the seat to act knows in play, for the coach's words: its cards, the
trick so far, and who may hold what, asked of the one owner of what a seat
knows (:func:`~spades_core.sampling.knowledge_of`, exact by counting)."""

from __future__ import annotations

from spades_core.engine.sampling import knowledge_of
from spades_core.engine.views import View
from spades_core.rules.tricks import NO_SUIT, RANKS, SPADE_MASK, SPADES, trick_winner
from spades_core.tips._words import name, seat_name
from spades_core.values.actions import Play
from spades_core.values.cards import SUIT_MASKS, ids_of_mask

__all__ = ["Seen"]


class Seen:
    """What the seat to act knows in play, as card ids and masks: its hand and
    legal cards, the trick so far, the cards it has not seen, the suits each
    seat has shown out of, and who may hold which cards."""

    def __init__(self, view: View) -> None:
        assert view.seat is not None  # a view with legal actions has a seat
        self.view = view
        self.seat = int(view.seat)
        self.partner = self.seat ^ 2
        self.hand = view.hand().mask
        legal = 0
        for action in view.legal_actions():
            if isinstance(action, Play):
                legal |= action.card.mask
        self.legal = legal
        self.unseen = view.unseen.mask
        plays = [(int(seat), card.id) for seat, card in view.current_trick]
        self.trick = [card for _, card in plays]
        self.position = len(plays)
        """How many cards were played to the trick before this seat's."""
        self.after = tuple((self.seat + k) % 4 for k in range(1, 4 - self.position))
        """The seats still to play to the trick after this one, in order."""
        self.led = self.trick[0] // RANKS if plays else NO_SUIT
        self.winner = -1
        self.best = -1
        if plays:
            padded = (*self.trick, *(self.trick[0],) * (4 - len(self.trick)))
            place = trick_winner(padded)
            self.winner, self.best = plays[place]
        self.shown_out = tuple(sum(1 << suit for suit in suits) for suits in view.shown_out.values_)
        """Per seat, the 4-bit set of the suits it has shown out of."""
        self.knowledge = knowledge_of(view)
        """Who may hold what, exactly (the owner's answer for this view)."""

    # -- facts ---------------------------------------------------------------

    @staticmethod
    def beats(card: int, best: int) -> bool:
        """Whether ``card`` played to a trick that ``best`` is winning would win it."""
        return trick_winner((best, card, best, best)) == 1

    def may_hold(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` may hold a card of ``suit``: some deal of the cards
        the seat to act has not seen, consistent with everything it knows,
        gives it one."""
        return bool(self.knowledge.may_hold[seat] & SUIT_MASKS[suit])

    def could_beat(self, seat: int, card: int) -> tuple[bool, bool]:
        """Whether ``seat``, still to play, could beat ``card`` winning the trick
        (with a higher card of the suit led, by trumping): whether some
        consistent deal gives it a card of the suit led that beats it, or one
        with no card of the suit led and a spade that beats it."""
        led = self.led if self.led != NO_SUIT else card // RANKS
        # Only a card of the suit led or a spade can beat anything.
        higher = 0
        for other in ids_of_mask(self.unseen & (SUIT_MASKS[led] | SPADE_MASK)):
            if self.beats(other, card):
                higher |= 1 << other
        knowledge = self.knowledge
        by_rank = knowledge.could_hold(seat, higher & SUIT_MASKS[led])
        by_trump = led != SPADES and knowledge.could_hold(seat, higher & SPADE_MASK, 1 << led)
        return by_rank, by_trump

    def threat(self, card: int) -> str:
        """Who still to play could beat ``card``, as a clause."""
        shown = name(card)
        found = [(seat, *self.could_beat(seat, card)) for seat in self.after]
        threats = [(seat, rank, trump) for seat, rank, trump in found if rank or trump]
        opponents = [(seat, rank) for seat, rank, _ in threats if seat != self.partner]
        if not threats:
            return f"nobody still to play can beat the {shown}"
        if not opponents:
            return f"no opponent still to play can beat the {shown}"
        if not any(rank for _, rank in opponents):
            return f"no opponent still to play can beat the {shown} except by trumping"
        who = " or ".join(seat_name(seat) for seat, _ in opponents)
        return f"{who} could still beat the {shown}"

    def nobody_beats(self, card: int) -> bool:
        """Whether no seat still to play could beat ``card``."""
        return not any(any(self.could_beat(seat, card)) for seat in self.after)

    def nil_alive(self, seat: int) -> bool:
        """Whether ``seat`` bid Nil and has taken no trick this hand."""
        view = self.view
        return view.bids.values_[seat] == 0 and view.tricks_won.values_[seat] == 0

    def lowest_of_suit(self, card: int) -> bool:
        """Whether ``card`` is the lowest card of its suit in the hand."""
        mine = self.hand & SUIT_MASKS[card // RANKS]
        return mine & -mine == 1 << card

    def highest_left(self, card: int) -> bool:
        """Whether no card of ``card``'s suit above it is left unplayed, in
        this hand or another."""
        suit = SUIT_MASKS[card // RANKS]
        return not any(other > card for other in ids_of_mask((self.unseen | self.hand) & suit))

    def higher_out(self, card: int) -> int:
        """How many cards of ``card``'s suit above it are still out."""
        return sum(other > card for other in ids_of_mask(self.unseen & SUIT_MASKS[card // RANKS]))

    def opponents_may_trump(self) -> bool:
        """Whether an opponent may still hold a spade."""
        return self.may_hold(self.seat ^ 1, SPADES) or self.may_hold(self.seat ^ 3, SPADES)
