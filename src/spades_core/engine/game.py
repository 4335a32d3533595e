"""A game of Spades as an immutable value: :class:`Game`, its :class:`Phase`,
and :func:`new_game`, which starts one.

Every transition (:meth:`Game.deal`, :meth:`Game.bid`, :meth:`Game.play`,
:meth:`Game.apply`) returns a new game and leaves the old one untouched; a
rejected action raises :class:`~spades_core.IllegalActionError` and changes nothing.

Inside, hands are 52-bit masks and seats ints (the ``_`` fields); the public properties wrap them
in :class:`~spades_core.CardSet`, :class:`~spades_core.Seat` and read-only mappings.

>>> import spades_core as sc
>>> game = sc.new_game("classic", seed=7, dealer=sc.Seat.WEST)
>>> game.phase
<Phase.DEAL: 'deal'>
>>> game = game.deal()
>>> game.phase, game.to_act
(<Phase.BID: 'bid'>, <Seat.NORTH: 0>)
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Final, final

import attrs

from spades_core.engine import pickles
from spades_core.engine.standing import GameSetup, Standing
from spades_core.engine.views import View, view_of
from spades_core.rules import legality, phase_turns, rng
from spades_core.rules.hooks import checked_game_end, checked_phases, checked_score_hand
from spades_core.rules.legality import bid_refusal, card_refusal, phase_refusal, plays_of_mask
from spades_core.rules.phases import HandPhase, PhaseStep, Turn, Where, hands_after_passes
from spades_core.rules.registry import load_variant
from spades_core.rules.results import SEATS, HandResult, HandResults, Trick, tricks_of_plays
from spades_core.rules.tricks import (
    FIRST_SPADE,
    LEFT_OF,
    NO_SUIT,
    RANKS,
    breaks_spades,
    first_leader,
    legal_card_mask,
    trick_winner,
)
from spades_core.rules.variant import Variant
from spades_core.values import actions, checks, deprecation
from spades_core.values.action_ids import mask_of, phase_mask_of
from spades_core.values.actions import DEAL_FROM_SEED, Action, Bid, Deal, Play, action_of, deal_of
from spades_core.values.cards import ALL_CARDS, Card, CardSet
from spades_core.values.errors import IllegalActionError, IllegalReason, brief
from spades_core.values.lazy import lazy
from spades_core.values.options import BreakRule, FirstLead, Rules
from spades_core.values.phase import Phase
from spades_core.values.seats import Seat, SeatMap, Team, TeamMap

__all__ = [
    "NO_SEAT",
    "SEATS",
    "TEAMS",
    "Game",
    "GameSetup",
    "Phase",
    "Standing",
    "apply",
    "between_hands",
    "bid_unchecked",
    "check",
    "deal",
    "deal_unchecked",
    "finish_hand",
    "hand_first_leader",
    "legal_play_mask",
    "new_game",
    "phase_step_unchecked",
    "play_unchecked",
]

TEAMS: Final = (Team.NS, Team.EW)
"""The teams by number: ``TEAMS[0]`` is North-South."""
NO_SEAT: Final = -1
"""``Game._to_act`` when no seat is to act (dealing, game over)."""

# Looking a member up on an enum class costs more than a global in CPython 3.11.
_DEAL: Final = Phase.DEAL
_BID: Final = Phase.BID
_PLAY: Final = Phase.PLAY
_GAME_OVER: Final = Phase.GAME_OVER
_VARIANT: Final = Phase.VARIANT
_BEFORE: Final = Where.BEFORE_BIDDING
_AFTER: Final = Where.AFTER_BIDDING
_ANY_SPADE: Final = BreakRule.ANY_SPADE
_TWO_OF_CLUBS_FIRST: Final = FirstLead.TWO_OF_CLUBS
_NO_CARDS: Final = (0, 0, 0, 0)
_NO_BIDS: Final[tuple[int | None, ...]] = (None, None, None, None)
_NO_TRICKS: Final = (0, 0, 0, 0)
_BITS: Final = tuple(1 << card for card in range(52))


@final
@attrs.frozen(repr=False, slots=False, getstate_setstate=False)
class Game:
    """One game of Spades, from the first deal to the end, as an immutable value.

    Create games with :func:`spades_core.new_game`; do not call the
    constructor. Fields starting with ``_`` are the engine's representation
    (hands as 52-bit masks, seats as numbers) and may change between
    releases. What is derived from them (the legal actions, the completed
    tricks' records) is worked out when first asked and kept.
    """

    _standing: Standing
    phase: Phase
    """The current phase (a plain attribute: every loop over a game reads it)."""
    _dealt: tuple[int, ...]
    _held: tuple[int, ...]
    _bids: tuple[int | None, ...]
    _to_act: int
    _leader: int
    _trick: tuple[int, ...]
    _won: tuple[int, ...]
    _played: tuple[int, ...]
    _broken: bool

    # -- what everyone can see ------------------------------------------------

    @property
    def variant(self) -> Variant:
        """The variant being played."""
        return self._standing.setup.variant

    @property
    def rules(self) -> Rules:
        """The resolved options."""
        return self._standing.setup.rules

    @property
    def seed(self) -> int:
        """The seed the game's deals and first dealer come from."""
        return self._standing.setup.seed

    @property
    def first_dealer(self) -> Seat:
        """The dealer of the first hand."""
        return self._standing.setup.first_dealer

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.GAME_OVER

    @property
    def dealer(self) -> Seat:
        """The dealer of the current hand (in ``DEAL``: of the hand about to be dealt)."""
        return self._standing.dealer

    @property
    def phase_name(self) -> str:
        """The phase in progress: in ``VARIANT`` the variant's own name for it
        (``"exchange"``), otherwise the value of :attr:`phase` (``"bid"``)."""
        found = self._turn
        return self.phase.value if found is None else found[0].name

    @property
    def phase_title(self) -> str | None:
        """The title of the variant's phase in progress (``"Passing cards"``), else ``None``."""
        return None if (found := self._turn) is None else found[0].title

    @property
    def phase_steps(self) -> tuple[PhaseStep, ...]:
        """Every action taken in the variant's phases this hand, in order (a
        pass of several cards is one step per card). Hidden information, as
        :meth:`hand` is: give players views."""
        return self._standing.steps

    @property
    def to_act(self) -> Seat | None:
        """The seat to act (bid, play, or act in a variant's phase), or
        ``None`` while dealing and after the game."""
        return SEATS[self._to_act] if self._to_act >= 0 else None

    @property
    def hand_number(self) -> int:
        """0-based index of the current hand (in ``DEAL``: of the next hand)."""
        return len(self._standing.results)

    @property
    def scores(self) -> TeamMap[int]:
        """Running score per team."""
        return TeamMap(self._standing.scores)

    @property
    def bags(self) -> TeamMap[int]:
        """Bags carried per team."""
        return TeamMap(self._standing.bags)

    @property
    def hand_results(self) -> HandResults:
        """Every finished hand, in order (a read-only sequence, like a tuple)."""
        return self._standing.results

    @property
    def winner(self) -> Team | None:
        """The winning team once the game is over."""
        return self._standing.winner

    @property
    def bids(self) -> SeatMap[int | None]:
        """Every seat's bid this hand (0 is Nil), ``None`` for a seat that has
        not bid yet, as in :attr:`View.bids <spades_core.engine.views.View.bids>`."""
        return SeatMap(self._bids)

    @property
    def tricks_won(self) -> SeatMap[int]:
        """Tricks each seat has won this hand."""
        return SeatMap(self._won)

    @lazy
    def tricks(self) -> tuple[Trick, ...]:
        """The tricks completed this hand."""
        return tricks_of_plays(hand_first_leader(self), self._played)

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        """``(seat, card)`` for each card played to the trick in progress."""
        return tuple(
            (SEATS[(self._leader + i) % 4], ALL_CARDS[card]) for i, card in enumerate(self._trick)
        )

    @property
    def leader(self) -> Seat | None:
        """The seat that led (or is to lead) the current trick, during play."""
        return SEATS[self._leader] if self.phase is Phase.PLAY else None

    @property
    def spades_broken(self) -> bool:
        """Whether spades may be led (ignoring the only-spades exception)."""
        return self._broken

    def hand(self, seat: Seat | str) -> CardSet:
        """The cards ``seat`` holds now. Hidden information: give players views."""
        return CardSet(self._held[checks.seat(seat, "Game.hand")])

    def dealt_hand(self, seat: Seat | str) -> CardSet:
        """The 13 cards ``seat`` was dealt this hand."""
        return CardSet(self._dealt[checks.seat(seat, "Game.dealt_hand")])

    def __getstate__(self) -> dict[str, object]:
        return {field.name: getattr(self, field.name) for field in attrs.fields(Game)}

    def __setstate__(self, state: dict[str, object]) -> None:
        # Unpickling makes a bare instance; it is initialised by the
        # constructor from the state, brought up to date first.
        fields = pickles.game_fields(state, Standing)
        Game.__init__(self, **{name.lstrip("_"): value for name, value in fields.items()})

    def __repr__(self) -> str:
        where = f"hand {self.hand_number + 1}, {self.phase.name}"
        if self._to_act >= 0:
            where += f", {SEATS[self._to_act].name} to act"
        scores, winner = self._standing.scores, self._standing.winner
        return f"<Game {self.variant.id} {where}; NS {scores[0]}, EW {scores[1]}" + (
            f"; {winner.name} won>" if winner is not None else ">"
        )

    # -- legal actions -----------------------------------------------------------

    @lazy
    def _legal(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase is _PLAY:
            return plays_of_mask(legal_play_mask(self))
        if phase is _BID:
            return legality.bid_actions(_bid_values(self))
        if phase is _DEAL:
            return (DEAL_FROM_SEED,)
        if phase is _VARIANT:
            found = self._turn
            return () if found is None else found[1].actions
        return ()

    @lazy
    def _turn(self) -> tuple[HandPhase, Turn] | None:
        # The phase in progress and its turn, asked of the variant's phases.
        if self.phase is not _VARIANT:
            return None
        where = _AFTER if None not in self._bids else _BEFORE
        return self._standing.next_turn(self._held, self._bids, where)

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the seat to act may take (in ``DEAL``: dealing from the seed;
        empty only when the game is over)."""
        return self._legal

    def legal_bids(self) -> tuple[int, ...]:
        """The bids open to the seat to act, as :meth:`bid` takes them: whole
        numbers, 0 for Nil (empty outside bidding)."""
        if self.phase is not _BID:
            return ()
        return tuple(action.value for action in self._legal)  # type: ignore[union-attr]

    def explain_bids(self) -> str | None:
        """Why the seat to act may make only the bids it may: one sentence from
        the variant (:meth:`Variant.explain_bids <spades_core.Variant.explain_bids>`)
        naming what limits the bid and what that leaves. ``None`` when every bid
        from Nil to 13 is open, and outside bidding.

        >>> import spades_core as sc
        >>> game = sc.new_game("classic", seed=4, dealer=sc.Seat.WEST).deal()
        >>> print(game.explain_bids())
        None
        >>> print(game.bid(4).bid(3).explain_bids())  # South, after North's 4
        ... # doctest: +NORMALIZE_WHITESPACE
        In Classic Spades a partnership's bids may total at most 13, and your
        partner bid 4, so you may bid Nil or 1-9.
        """
        if self.phase is not _BID:
            return None
        setup = self._standing.setup
        seat = self._to_act
        return legality.bid_explanation(
            setup.variant, setup.rules, seat, self._held[seat], self._bids
        )

    def legal_cards(self) -> CardSet:
        """The cards the seat to act may play, as :meth:`play` takes them
        (empty outside play); index it in card-id order like a tuple."""
        if self.phase is not _PLAY:
            return CardSet(0)
        return CardSet(legal_play_mask(self))

    def legal_mask(self) -> tuple[bool, ...]:
        """66 booleans, ``True`` at each legal action id (see :mod:`spades_core.encoding`);
        120 for a variant with phases, the ids of their actions included."""
        if self._standing.setup.phases:
            return phase_mask_of(self._legal)
        return mask_of(self._legal)

    def legal_plays(self) -> CardSet:
        """Deprecated name of :meth:`legal_cards` (removed in 0.3.0)."""
        deprecation.deprecated("Game.legal_plays()", "Game.legal_cards()")
        return self.legal_cards()

    def why_illegal(
        self, action: object, *, seat: Seat | str | None = None
    ) -> IllegalActionError | None:
        """The error :meth:`apply` would raise for ``action`` (in any of the
        notations :meth:`apply` reads), or ``None`` if it is legal. A ``seat``
        that cannot be read raises :class:`~spades_core.InvalidNotationError`."""
        if seat is not None:
            seat = checks.seat(seat, "Game.why_illegal")
        try:
            check(self, action_of(action), seat)
        except IllegalActionError as error:
            return error
        return None

    # -- transitions -------------------------------------------------------------

    def apply(self, action: Action | Card | int | str, *, seat: Seat | str | None = None) -> Game:
        """The game after the seat to act takes ``action``: an action, a
        :class:`~spades_core.Card` (playing it), a whole number (bidding it) or
        text for either (``"QH"``, ``"nil"``), as
        :func:`~spades_core.actions.action_of` reads it.

        With ``seat``, also checks that it is that seat's turn. Raises
        :class:`~spades_core.IllegalActionError` for anything not legal.
        """
        return apply(self, action, seat)

    def deal(self, hands: Mapping[Seat, object] | Mapping[str, object] | None = None) -> Game:
        """The game with the next hand dealt: from the seed, or the explicit
        ``hands`` (a mapping from each seat to its 13 cards)."""
        return deal(self, hands)

    def bid(self, value: Bid | int | str, *, seat: Seat | str | None = None) -> Game:
        """The game after the seat to act bids ``value`` (0 or ``"nil"`` is Nil,
        ``3`` or ``"3"``, a :class:`~spades_core.Bid`)."""
        return apply(self, Bid.of(value), seat)

    def play(self, card: Card | Play | str, *, seat: Seat | str | None = None) -> Game:
        """The game after the seat to act plays ``card`` (a Card, ``"QH"``, a
        :class:`~spades_core.Play`)."""
        return apply(self, Play.of(card), seat)

    def view(self, seat: Seat | str) -> View:
        """What ``seat`` may see of the game (see :mod:`spades_core.views`)."""
        return _view(self, checks.seat(seat, "Game.view"))

    def public_view(self) -> View:
        """What a spectator may see of the game."""
        return _view(self, None)


def new_game(
    variant: str | Variant,
    /,
    *,
    seed: int | None = None,
    dealer: Seat | str | None = None,
    **options: object,
) -> Game:
    """A new game of ``variant`` (an installed variant's id, or a
    :class:`Variant`), waiting for its first deal.

    ``seed`` (0 to 2**64-1) decides every seeded deal and, when ``dealer`` is
    not given, the first dealer; without it a random seed is drawn and kept.
    Options are the variant's house rules as keywords (docs/rules.md, Options).

    >>> game = new_game("classic", seed=7, dealer=Seat.WEST, target_score=300)
    >>> game.rules.target_score, game.dealer
    (300, <Seat.WEST: 3>)
    """
    if isinstance(variant, Variant):
        chosen = variant
    else:
        checks.instance(variant, str, "new_game", "variant", "a variant id or a Variant")
        chosen = load_variant(variant)
    if seed is None:
        seed = secrets.randbits(64)
    else:
        checks.seed(seed, "new_game")
    rules = chosen.rules(**options)
    if dealer is None:
        first = SEATS[rng.first_dealer(seed)]
    else:
        first = checks.seat(dealer, "new_game", "dealer")
    phases = () if type(chosen).phases is Variant.phases else checked_phases(chosen, rules)
    return between_hands(
        GameSetup(chosen, rules, seed, first, phases), first, (0, 0), (0, 0), HandResults(), None
    )


# -- what is legal -----------------------------------------------------------------


def hand_first_leader(game: Game) -> int:
    """The seat number that leads (or led) the first trick of ``game``'s hand
    in progress, by :func:`~spades_core.tricks.first_leader`."""
    standing = game._standing
    start = game._dealt
    if standing.steps:
        start = hands_after_passes(start, standing.steps)
    return first_leader(
        standing.dealer, start, standing.setup.rules.first_lead is _TWO_OF_CLUBS_FIRST
    )


def legal_play_mask(game: Game) -> int:
    """The mask of cards the seat to act may play (the game must be in ``PLAY``)."""
    trick = game._trick
    held = game._held[game._to_act]
    if trick:
        return legal_card_mask(held, trick[0] // RANKS, game._broken, False)
    return legal_card_mask(held, NO_SUIT, game._broken, _leads_two_of_clubs(game))


def _leads_two_of_clubs(game: Game) -> bool:
    # Whether a card leading now is the forced first lead of the hand.
    return not game._played and game._standing.setup.rules.first_lead is _TWO_OF_CLUBS_FIRST


def _bid_values(game: Game) -> tuple[int, ...]:
    setup = game._standing.setup
    seat = game._to_act
    return legality.bid_values(setup.variant, setup.rules, seat, game._held[seat], game._bids)


def check(game: Game, action: object, seat: object = None) -> None:
    """Raise the :class:`IllegalActionError` that applying ``action`` (by
    ``seat``, if given: a :class:`Seat` or its name) would raise; return ``None``
    if it is legal."""
    if seat is not None and type(seat) is not Seat:
        seat = checks.seat(seat, "Game.apply")
    phase = game.phase
    to_act = game._to_act
    if seat is not None and (to_act == NO_SEAT or seat != to_act):
        raise legality.turn_refusal(phase, to_act, seat)
    refusal: IllegalActionError | None
    if isinstance(action, Deal):
        if phase is not _DEAL:
            raise phase_refusal(phase, to_act, "deal")
        given = legality.explicit_hands(action)
        if given is not None:
            deal_of(given)
        return
    if isinstance(action, Bid):
        if phase is not _BID:
            raise phase_refusal(phase, to_act, "bid")
        setup = game._standing.setup
        refusal = bid_refusal(
            setup.variant, setup.rules, to_act, game._held[to_act], game._bids, action.value
        )
    elif isinstance(action, Play):
        if phase is not _PLAY:
            raise phase_refusal(phase, to_act, "play a card")
        refusal = card_refusal(
            to_act,
            game._held[to_act],
            game._trick,
            game._broken,
            _leads_two_of_clubs(game),
            action.card.id,
        )
    elif type(action) in actions.PHASE_ACTION_TYPES:
        found = game._turn
        turn = None if found is None else found[1]
        now = phase_turns.waiting_for(phase, to_act, game._legal)
        refusal = phase_turns.action_refusal(turn, action, now)  # type: ignore[arg-type]
    else:
        refusal = IllegalActionError(
            IllegalReason.NOT_AN_ACTION,
            f"not an action: {brief(action)}; use one of game.legal_actions(), a Bid or a Play",
        )
    if refusal is not None:
        raise refusal


# -- the step ------------------------------------------------------------------------


def apply(game: Game, action: object, seat: object = None) -> Game:
    """The game after ``action``; raises :class:`IllegalActionError` if it is not legal.

    The one path from an action to the next game: :meth:`Game.apply`,
    :meth:`Game.bid`, :meth:`Game.play` and :mod:`spades_core.transitions`
    all take it.
    """
    # Only a real Seat takes the fast path: True or 1.0 would equal a seat number.
    if seat is None or (type(seat) is Seat and seat == game._to_act):
        kind = type(action)
        if kind is Play:
            if game.phase is _PLAY:
                card = action.card.id  # type: ignore[attr-defined]
                # A loop that asked for legal_actions() holds one of them: found
                # by identity in the kept tuple, sooner than by the mask. A
                # loop by ids never built the tuple and gets the mask.
                legal = game.__dict__.get("_legal")
                if legal is not None:
                    for candidate in legal:
                        if candidate is action:
                            return play_unchecked(game, card)
                if legal_play_mask(game) >> card & 1:
                    return play_unchecked(game, card)
        elif kind is Bid:
            if game.phase is _BID and action in game._legal:
                return bid_unchecked(game, action.value)  # type: ignore[union-attr]
        elif kind is Deal and game.phase is _DEAL:
            return deal(game, action)
    kind = type(action)
    if kind in actions.PHASE_ACTION_TYPES:
        check(game, action, seat)
        return phase_step_unchecked(game, action)  # type: ignore[arg-type]
    if kind is not Play and kind is not Bid and kind is not Deal:
        # A card, a number or text: read once, then the paths above.
        return apply(game, action_of(action), seat)
    check(game, action, seat)
    if seat is not None:
        # check() accepted a seat given by name ("N"): it is the seat to act.
        return apply(game, action, None)
    raise AssertionError(f"check() accepted an action apply() rejected: {brief(action)}")


def deal(game: Game, hands: object = None) -> Game:
    """The game with its next hand dealt, from the seed (``hands=None``), a
    :class:`Deal`, or a mapping from each seat to its 13 cards."""
    if game.phase is not _DEAL:
        raise phase_refusal(game.phase, game._to_act, "deal")
    if hands is DEAL_FROM_SEED:
        # The deal legal_actions() offers, every hand of a simulation: from the seed.
        hands = None
    elif isinstance(hands, Deal):
        hands = legality.explicit_hands(hands)
    if hands is None:
        standing = game._standing
        masks = rng.deal_masks(standing.setup.seed, len(standing.results), standing.dealer)
    else:
        masks = tuple(cardset.mask for cardset in deal_of(hands).hands or ())  # type: ignore[assignment]
    return deal_unchecked(game, masks)


def deal_unchecked(game: Game, masks: tuple[int, ...]) -> Game:
    """The game (in ``DEAL``) with the hands ``masks`` dealt (by seat number:
    four disjoint 13-card masks), without checking them."""
    standing = game._standing
    leader = LEFT_OF[standing.dealer]
    if standing.setup.phases:
        return _phased(standing, masks, masks, _NO_BIDS, _BEFORE)
    return Game(standing, _BID, masks, masks, _NO_BIDS, leader, leader, (), _NO_TRICKS, (), False)


def bid_unchecked(game: Game, value: int) -> Game:
    """The game after the seat to act bids ``value``, without checking it."""
    seat = game._to_act
    bids = list(game._bids)
    bids[seat] = value
    standing = game._standing
    if standing.setup.phases:
        return _phased(standing, game._dealt, game._held, tuple(bids), _BEFORE, seat)
    to_act = (seat + 1) % 4
    phase = _BID
    if to_act == LEFT_OF[standing.dealer]:
        phase = _PLAY
        to_act = first_leader(
            standing.dealer, game._held, standing.setup.rules.first_lead is _TWO_OF_CLUBS_FIRST
        )
    dealt = game._dealt
    return Game(
        standing, phase, dealt, dealt, tuple(bids), to_act, to_act, (), _NO_TRICKS, (), False
    )


def play_unchecked(game: Game, card: int) -> Game:
    """The game after the seat to act plays card id ``card``, without checking it."""
    seat = game._to_act
    bit = _BITS[card]
    # The four hands unpacked and packed again: sooner than a list and back.
    north, east, south, west = game._held
    if seat == 0:
        north ^= bit
    elif seat == 1:
        east ^= bit
    elif seat == 2:
        south ^= bit
    else:
        west ^= bit
    held = (north, east, south, west)
    trick = game._trick
    broken = game._broken
    standing = game._standing
    if not broken and card >= FIRST_SPADE:
        broken = breaks_spades(
            card,
            trick[0] // RANKS if trick else NO_SUIT,
            standing.setup.rules.break_rule is _ANY_SPADE,
        )
    # Concatenation builds the one tuple; unpacking would build a list first.
    trick += (card,)
    leader = game._leader
    if len(trick) < 4:
        return Game(
            standing,
            _PLAY,
            game._dealt,
            held,
            game._bids,
            LEFT_OF[seat],
            leader,
            trick,
            game._won,
            game._played,
            broken,
        )
    winner = (leader + trick_winner(trick)) % 4
    north, east, south, west = game._won
    if winner == 0:
        north += 1
    elif winner == 1:
        east += 1
    elif winner == 2:
        south += 1
    else:
        west += 1
    won = (north, east, south, west)
    played = game._played + trick
    if len(played) == 52:
        bids: tuple[int, ...] = game._bids  # type: ignore[assignment]  # all made by now
        return finish_hand(game, game._dealt, bids, won, hand_first_leader(game), played)
    return Game(
        standing, _PLAY, game._dealt, held, game._bids, winner, winner, (), won, played, broken
    )


def finish_hand(
    game: Game,
    dealt: tuple[int, ...],
    bids: tuple[int, ...],
    won: tuple[int, ...],
    first_leader: int,
    plays: tuple[int, ...],
) -> Game:
    """The game after a hand of ``game`` is scored: the result recorded, scores
    and bags updated, and either the next hand awaited (dealer rotated) or the
    game over.

    ``game`` gives the setup, dealer, running totals and earlier results; the
    hand itself is ``dealt`` (masks by seat), ``bids`` and ``won`` (by seat),
    and ``plays``, its 52 card ids in play order, the first trick led by
    ``first_leader``.
    """
    standing = game._standing
    setup = standing.setup
    variant = setup.variant
    rules = setup.rules
    steps = standing.steps if setup.phases else None
    points, bags = checked_score_hand(variant, rules, bids, won, standing.bags, steps)
    scores = (standing.scores[0] + points[0], standing.scores[1] + points[1])
    results = standing.results
    over, winner = checked_game_end(variant, rules, scores, len(results) + 1)
    dealer = standing.dealer
    result = HandResult(
        len(results),
        dealer,
        dealt,
        bids,
        won,
        points,
        bags,
        scores,
        first_leader,
        plays,
        steps or (),
    )
    return between_hands(
        setup,
        dealer if over else SEATS[LEFT_OF[dealer]],
        scores,
        bags,
        results.appended(result),
        winner,
        over=over,
    )


def between_hands(
    setup: GameSetup,
    dealer: Seat,
    scores: tuple[int, int],
    bags: tuple[int, int],
    results: Sequence[HandResult],
    winner: Team | None,
    *,
    over: bool = False,
) -> Game:
    """A game with no hand in progress after ``results``: waiting for
    ``dealer`` to deal, or over when ``winner`` is set or ``over`` (a draw)."""
    history = results if isinstance(results, HandResults) else HandResults(results)
    standing = Standing(setup, dealer, scores, bags, history, winner)
    phase = _GAME_OVER if over or winner is not None else _DEAL
    return Game(
        standing, phase, _NO_CARDS, _NO_CARDS, _NO_BIDS, NO_SEAT, NO_SEAT, (), _NO_TRICKS, (), False
    )


# -- views ---------------------------------------------------------------------------


def _view(game: Game, seat: Seat | None) -> View:
    standing = game._standing
    setup = standing.setup
    return view_of(
        seat,
        setup.variant,
        setup.rules,
        game.phase,
        dealer=standing.dealer,
        scores=standing.scores,
        bags=standing.bags,
        results=standing.results,
        winner=standing.winner,
        dealt=game._dealt,
        held=game._held,
        bids=game._bids,
        to_act=game._to_act,
        leader=game._leader,
        trick=game._trick,
        won=game._won,
        played=game._played,
        broken=game._broken,
        tricks=game.tricks,
        legal=game._legal if seat is not None and seat == game._to_act else (),
        steps=standing.steps,
        hidden=seat is not None
        and game._turn is not None
        and seat in standing.hidden(game._turn[0], game._held, game._bids),
    )


def _phased(
    standing: Standing,
    dealt: tuple[int, ...],
    held: tuple[int, ...],
    bids: tuple[int | None, ...],
    where: Where,
    bid_by: int = -1,
) -> Game:
    # A hand of a variant with phases goes on at `where` (after `bid_by` bid).
    phase, seat = standing.position(held, bids, where, bid_by)
    return Game(standing, phase, dealt, held, bids, seat, seat, (), _NO_TRICKS, (), False)


def phase_step_unchecked(game: Game, action: actions.PhaseAction) -> Game:
    """The game after the seat to act takes ``action`` in the variant's phase
    in progress, without checking it."""
    found = game._turn
    assert found is not None, "phase_step_unchecked outside a variant's phase"
    held, bids, steps = phase_turns.step_effect(*found, action, game._held, game._bids)
    standing = attrs.evolve(game._standing, steps=game._standing.steps + steps)
    return _phased(standing, game._dealt, held, bids, found[0].where)
