"""Per-seat views: what one seat (or a spectator) may know of a game.

A :class:`View` is built from a game but holds no reference to it, to any
card the seat cannot see, or to the seed (which would reveal every hand).
Two games that differ only in cards hidden from a seat give that seat equal
views: equal, with the same hash, repr and :meth:`View.to_dict`.

Besides the seat's own cards and the public record of the hand, a view
carries what follows publicly from the rules:

* ``shown_out`` — suits each seat is known to be out of this hand: it failed
  to follow one, or it led a spade before spades were broken (the rules only
  allow that holding nothing but spades);
* ``spade_counts`` — each seat's dealt spade count where its bid reveals it
  (every bid in Mirror, every non-Nil bid in Whiz; see
  :meth:`spades_core.Variant.revealed_spade_counts`).

A view answers like the game wherever they share a concept: the same
``legal_…`` methods, ``hand(seat)`` and ``dealt_hand(seat)`` (for its own
seat, the default), and the same properties for the public state.

>>> import spades_core as sc
>>> game = sc.new_game("mirror", seed=3).deal()
>>> view = game.view(game.to_act)
>>> view.legal_actions() == game.legal_actions(), view.legal_bids() == game.legal_bids()
(True, True)
>>> view.hand() == game.hand(game.to_act), view.seat == game.to_act
(True, True)
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, final

import attrs

from spades_core.rules.hooks import checked_explain_bids, checked_revealed_spade_counts
from spades_core.rules.knowledge import UNKNOWN, revealed_spades_left
from spades_core.rules.phases import PhaseStep, hands_after_passes
from spades_core.rules.results import HandResults, Trick
from spades_core.rules.tricks import (
    NO_SUIT,
    RANKS,
    breaks_spades,
    first_leader,
    rule_flags,
    shown_out,
    trick_winner,
)
from spades_core.values import checks
from spades_core.values.action_ids import mask_of
from spades_core.values.actions import Action, Bid, Deal, Pass, Play
from spades_core.values.cards import ALL_CARDS, Card, CardSet, Suit
from spades_core.values.errors import RulesError
from spades_core.values.options import Rules
from spades_core.values.phase import Phase
from spades_core.values.seats import Seat, SeatMap, Team, TeamMap

if TYPE_CHECKING:
    from spades_core.rules.variant import Variant

__all__ = ["View", "view_of"]


@final
@attrs.frozen(repr=False)
class View:
    """What ``seat`` may know of a game (``seat`` is ``None`` for a spectator)."""

    seat: Seat | None
    variant: Variant
    rules: Rules
    phase: Phase
    hand_number: int
    """0-based index of the current hand (in ``DEAL``: of the next hand)."""
    dealer: Seat
    to_act: Seat | None
    _hand: CardSet
    bids: SeatMap[int | None]
    """Bids made this hand; ``None`` for a seat that has not bid yet."""
    tricks: tuple[Trick, ...]
    """Tricks completed this hand."""
    current_trick: tuple[tuple[Seat, Card], ...]
    leader: Seat | None
    tricks_won: SeatMap[int]
    spades_broken: bool
    scores: TeamMap[int]
    bags: TeamMap[int]
    hand_results: HandResults
    """Finished hands (all their cards have been played, so nothing is hidden)."""
    winner: Team | None
    _legal_actions: tuple[Action, ...]
    shown_out: SeatMap[frozenset[Suit]]
    spade_counts: SeatMap[int | None]
    """Dealt spade counts that the bids reveal; ``None`` where unknown."""
    cards_left: SeatMap[int]
    """How many cards each seat still holds."""
    phase_steps: tuple[PhaseStep, ...] = ()
    """The steps of the variant's phases this hand that the viewer may see:
    every seat's Blind Nil or look, and the passes it made or received (the
    cards other seats pass each other are face down; :attr:`cards_passed`
    counts them)."""
    cards_passed: SeatMap[int] = attrs.field(default=SeatMap((0, 0, 0, 0)))
    """How many cards each seat has passed this hand, seen or not."""

    # -- what the viewer may do: as on Game ----------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The viewer's legal actions when it is to act, as
        :meth:`Game.legal_actions() <spades_core.Game.legal_actions>` gives
        them; empty otherwise."""
        return self._legal_actions

    def legal_bids(self) -> tuple[int, ...]:
        """The bids open to the viewer when it is to bid (whole numbers, 0 for
        Nil); empty otherwise."""
        return tuple(action.value for action in self._legal_actions if type(action) is Bid)

    def legal_cards(self) -> CardSet:
        """The cards the viewer may play when it is to play; empty otherwise."""
        mask = 0
        for action in self._legal_actions:
            if type(action) is Play:
                mask |= action.card.mask
        return CardSet(mask)

    def legal_mask(self) -> tuple[bool, ...]:
        """66 booleans, ``True`` at each of the viewer's legal action ids (see
        :mod:`spades_core.encoding`); all ``False`` when it is not to act."""
        return mask_of(self._legal_actions)

    # -- cards: as on Game, for the viewer's own seat -------------------------------

    def hand(self, seat: Seat | str | None = None) -> CardSet:
        """The cards ``seat`` holds now, as :meth:`Game.hand()
        <spades_core.Game.hand>` gives them. A view shows its own seat's only:
        ``seat`` defaults to it, and another seat raises
        :class:`~spades_core.RulesError` (a spectator's view shows none, and
        its ``hand()`` is empty)."""
        self._own_seat(seat, "View.hand")
        return self._hand

    def dealt_hand(self, seat: Seat | str | None = None) -> CardSet:
        """The 13 cards ``seat`` was dealt this hand, as :meth:`Game.dealt_hand()
        <spades_core.Game.dealt_hand>` gives them, for the viewer's own seat
        (the default; another seat raises :class:`~spades_core.RulesError`).
        Empty for a spectator and outside a hand."""
        self._own_seat(seat, "View.dealt_hand")
        if self.seat is None or self.phase not in _IN_HAND:
            return CardSet(0)
        mask = self._hand.mask
        if mask == 0 and self.phase is Phase.VARIANT:
            return CardSet(0)  # hidden from the seat by a variant's phase
        for step in self.phase_steps:
            if type(step.action) is Pass:
                if step.seat is self.seat:
                    mask |= step.action.cards.mask
                elif step.receiver is self.seat:
                    mask &= ~step.action.cards.mask
        for trick in self.tricks:
            for who, card in trick.plays:
                if who == self.seat:
                    mask |= card.mask
        for who, card in self.current_trick:
            if who == self.seat:
                mask |= card.mask
        return CardSet(mask)

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _VIEW_FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Unpickling makes a bare instance; it is initialised by the
        # constructor from the state (a view pickled by release 0.1 names
        # hand and legal_actions without the underscore).
        fields = {name.lstrip("_"): value for name, value in state.items()}
        View.__init__(self, **fields)

    def _own_seat(self, seat: object, call: str) -> None:
        if seat is None:
            return
        asked = checks.seat(seat, call)
        if asked is not self.seat:
            whose = "a spectator's view" if self.seat is None else f"{self.seat}'s view"
            raise RulesError(f"{call}: {whose} does not show {asked}'s cards")

    # -- derived from the public record ------------------------------------------

    @property
    def team(self) -> Team | None:
        """The viewer's partnership."""
        return None if self.seat is None else self.seat.team

    @property
    def is_my_turn(self) -> bool:
        """Whether the viewer is the seat to act."""
        return self.seat is not None and self.seat == self.to_act

    @property
    def played(self) -> CardSet:
        """Every card played so far this hand, by anyone."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= card.mask
        for _, card in self.current_trick:
            mask |= card.mask
        return CardSet(mask)

    @property
    def unseen(self) -> CardSet:
        """Cards the viewer has not seen: in other seats' hands, unplayed."""
        if self.phase not in _IN_HAND:
            return CardSet(0)
        return CardSet.full_deck() - self.played - self._hand

    def spades_left(self, seat: Seat | str) -> int | None:
        """Spades ``seat`` still holds, when its bid revealed its count (the
        revealed count less the spades it has played, as
        :func:`~spades_core.rules.knowledge.revealed_spades_left` counts them;
        :func:`~spades_core.sampling.knowledge_of` also counts what follows
        from the other hands)."""
        asked = checks.seat(seat, "View.spades_left")
        count = self.spade_counts[asked]
        if count is None:
            return None
        played = 0
        for trick in self.tricks:
            for who, card in trick.plays:
                if who == asked:
                    played |= card.mask
        for who, card in self.current_trick:
            if who == asked:
                played |= card.mask
        counts = [UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN]
        counts[asked] = count
        mine = [0, 0, 0, 0]
        mine[asked] = played
        return revealed_spades_left(counts, mine)[asked]

    def explain_bids(self) -> str | None:
        """Why the viewer may make only the bids it may, when it is to bid: one
        sentence from the variant (:meth:`Variant.explain_bids
        <spades_core.Variant.explain_bids>`), as :meth:`Game.explain_bids
        <spades_core.Game.explain_bids>` gives it. ``None`` when every bid from
        Nil to 13 is open, and when it is not the viewer's turn to bid."""
        seat = self.seat
        if seat is None or self.phase is not Phase.BID or self.to_act != seat:
            return None
        made = MappingProxyType({who: bid for who, bid in self.bids.items() if bid is not None})
        return checked_explain_bids(self.variant, self.rules, seat, self._hand, made)

    def to_dict(self) -> dict[str, Any]:
        """The view as plain JSON-ready data (no objects of this library)."""

        def seat_name(seat: Seat | None) -> str | None:
            return None if seat is None else seat.letter

        return {
            "seat": seat_name(self.seat),
            "variant": self.variant.id,
            "options": self.rules.overrides_json(),
            "phase": self.phase.name,
            "hand_number": self.hand_number,
            "dealer": self.dealer.letter,
            "to_act": seat_name(self.to_act),
            "hand": [str(card) for card in self._hand],
            "bids": {seat.letter: bid for seat, bid in self.bids.items()},
            "tricks": [
                {
                    "leader": trick.leader.letter,
                    "cards": [str(card) for card in trick.cards],
                    "winner": trick.winner.letter,
                }
                for trick in self.tricks
            ],
            "current_trick": [[seat.letter, str(card)] for seat, card in self.current_trick],
            "leader": seat_name(self.leader),
            "tricks_won": {seat.letter: n for seat, n in self.tricks_won.items()},
            "spades_broken": self.spades_broken,
            "scores": {team.name: n for team, n in self.scores.items()},
            "bags": {team.name: n for team, n in self.bags.items()},
            "hand_results": [
                {"number": result.number, **result.summary()} for result in self.hand_results
            ],
            "winner": None if self.winner is None else self.winner.name,
            "legal_actions": [_action_text(action) for action in self._legal_actions],
            "shown_out": {
                seat.letter: sorted(suit.letter for suit in suits)
                for seat, suits in self.shown_out.items()
            },
            "spade_counts": {seat.letter: n for seat, n in self.spade_counts.items()},
            "cards_left": {seat.letter: n for seat, n in self.cards_left.items()},
        } | (
            {
                "phase_steps": [
                    [step.phase, step.seat.letter, str(step.action), seat_name(step.receiver)]
                    for step in self.phase_steps
                ],
                "cards_passed": {seat.letter: n for seat, n in self.cards_passed.items()},
            }
            if self.phase_steps or any(self.cards_passed.values())
            else {}
        )

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else self.seat.name
        return (
            f"<View {who} of {self.variant.id} hand {self.hand_number + 1}, {self.phase.name}; "
            f"hand {self._hand}; bids { ({s.letter: b for s, b in self.bids.items()}) }; "
            f"trick {[f'{s.letter}:{c}' for s, c in self.current_trick]}; "
            f"won {list(self.tricks_won.values())}; scores {list(self.scores.values())}>"
        )


_VIEW_FIELDS: tuple[str, ...] = tuple(field.name for field in attrs.fields(View))


def _action_text(action: Action) -> str | int:
    if isinstance(action, Bid):
        return action.value
    if isinstance(action, Play):
        return str(action.card)
    if isinstance(action, Deal):
        return "deal"
    return str(action)


# Suits shown out, per seat, as 4-bit masks (bit = suit number) while counting;
# each mask stands for one shared frozenset.
_SUIT_SETS: tuple[frozenset[Suit], ...] = tuple(
    frozenset(suit for suit in Suit if mask >> suit & 1) for mask in range(16)
)
_NO_SUITS = _SUIT_SETS[0]
_NO_PASSES: Final = SeatMap((0, 0, 0, 0))
_IN_HAND: Final = (Phase.BID, Phase.PLAY, Phase.VARIANT)
_SEATS: Final = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
# The seats in play order when each seat leads.
_PLAY_ORDER: Final = tuple(tuple((leader + i) % 4 for i in range(4)) for leader in range(4))


def _shown_out(
    any_spade: bool,
    first_leader: int,
    played: tuple[int, ...],
    leader: int,
    trick: tuple[int, ...],
) -> SeatMap[frozenset[Suit]]:
    """What every card played this hand proves, replayed with the trick rules:
    ``played`` are the card ids of the completed tricks in play order, the
    first led by seat number ``first_leader``; ``trick`` the cards of the trick
    in progress, led by ``leader``."""
    out = [0, 0, 0, 0]
    broken = False
    lead = first_leader
    tricks = [played[start : start + 4] for start in range(0, len(played), 4)]
    if trick:
        tricks.append(trick)
    for number, cards in enumerate(tricks):
        if number == len(played) // 4:
            lead = leader
        led = NO_SUIT
        suit = cards[0] // RANKS
        # The trick in progress may have fewer cards than seats.
        for seat, card in zip(_PLAY_ORDER[lead], cards, strict=False):
            out[seat] |= shown_out(card, led, broken)
            if not broken:
                broken = breaks_spades(card, led, any_spade)
            led = suit
        if len(cards) == 4:
            lead = (lead + trick_winner(cards)) % 4
    return SeatMap(tuple(_SUIT_SETS[mask] for mask in out))


def view_of(
    seat: Seat | None,
    variant: Variant,
    rules: Rules,
    phase: Phase,
    *,
    dealer: Seat,
    scores: tuple[int, int],
    bags: tuple[int, int],
    results: HandResults,
    winner: Team | None,
    dealt: tuple[int, ...],
    held: tuple[int, ...],
    bids: tuple[int | None, ...],
    to_act: int,
    leader: int,
    trick: tuple[int, ...],
    won: tuple[int, ...],
    played: tuple[int, ...],
    broken: bool,
    tricks: tuple[Trick, ...],
    legal: tuple[Action, ...],
    steps: tuple[PhaseStep, ...] = (),
    hidden: bool = False,
) -> View:
    """The view for ``seat`` (``None``: a spectator) of a game given by its
    parts, as :meth:`Game.view <spades_core.Game.view>` passes them: hands as
    masks and seats as numbers by seat (``to_act`` -1 for none), the card ids
    of the completed tricks (``played``) and of the one in progress
    (``trick``, led by ``leader``), and the legal actions of the viewer; for
    a variant with phases, the ``steps`` taken in them this hand, and whether
    the viewer's own cards are ``hidden`` from it."""
    in_hand = phase is Phase.BID or phase is Phase.PLAY or phase is Phase.VARIANT
    viewer = None if seat is None else Seat(seat)
    seen: tuple[PhaseStep, ...] = ()
    passed = _NO_PASSES
    if steps:
        seen = tuple(
            step
            for step in steps
            if type(step.action) is not Pass or viewer in (step.seat, step.receiver)
        )
        counts = [0, 0, 0, 0]
        for step in steps:
            if type(step.action) is Pass:
                counts[step.seat] += len(step.action.cards)
        passed = SeatMap(tuple(counts))
    if in_hand:
        spade_counts: SeatMap[int | None] = SeatMap(
            checked_revealed_spade_counts(variant, rules, bids, dealt=dealt)
        )
        any_spade, two_of_clubs = rule_flags(rules)
        first = first_leader(dealer, hands_after_passes(dealt, steps), two_of_clubs)
        shown = _shown_out(any_spade, first, played, leader, trick)
        cards_left = SeatMap(tuple(mask.bit_count() for mask in held))
    else:
        spade_counts = SeatMap((None, None, None, None))
        shown = SeatMap((_NO_SUITS,) * 4)
        cards_left = SeatMap((0, 0, 0, 0))
    return View(
        seat=viewer,
        variant=variant,
        rules=rules,
        phase=phase,
        hand_number=len(results),
        dealer=dealer,
        to_act=_SEATS[to_act] if to_act >= 0 else None,
        hand=(
            CardSet(held[viewer]) if viewer is not None and in_hand and not hidden else CardSet(0)
        ),
        bids=SeatMap(bids),
        tricks=tricks,
        current_trick=tuple(
            (_SEATS[(leader + i) % 4], ALL_CARDS[card]) for i, card in enumerate(trick)
        ),
        leader=_SEATS[leader] if phase is Phase.PLAY else None,
        tricks_won=SeatMap(won),
        spades_broken=broken,
        scores=TeamMap(scores),
        bags=TeamMap(bags),
        hand_results=results,
        winner=winner,
        legal_actions=legal,
        shown_out=shown,
        spade_counts=spade_counts,
        cards_left=cards_left,
        phase_steps=seen,
        cards_passed=passed,
    )
