"""A game of Spades as an immutable value: :class:`Game`, its :class:`Phase`,
and :func:`new_game`, which starts one.

A :class:`Game` is a frozen value. Every transition (:meth:`Game.deal`,
:meth:`Game.bid`, :meth:`Game.play`, :meth:`Game.apply`) returns a new game
and leaves the old one untouched; a rejected action raises
:class:`~spades_core.IllegalActionError` and changes nothing.

Internally hands are 52-bit masks and seats are ints (fields starting with
``_``); the public properties wrap them in :class:`~spades_core.CardSet`,
:class:`~spades_core.Seat` and read-only mappings.

>>> import spades_core as sc
>>> game = sc.new_game("classic", seed=7, dealer=sc.Seat.WEST)
>>> game.phase
<Phase.DEAL: 'deal'>
>>> game = game.deal()
>>> game.phase, game.to_act
(<Phase.BID: 'bid'>, <Seat.NORTH: 0>)
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final, final

import attrs

from spades_core.engine import _compat as _deprecations
from spades_core.rules.registry import load_variant
from spades_core.rules.results import SEATS, HandResults, Trick, tricks_of_plays
from spades_core.rules.rng import first_dealer
from spades_core.rules.tricks import first_leader
from spades_core.rules.variant import Variant
from spades_core.values import _check
from spades_core.values._enums import CheckedLookup
from spades_core.values.actions import Action, Bid, Play, action_of
from spades_core.values.cards import ALL_CARDS, Card, CardSet
from spades_core.values.errors import IllegalActionError
from spades_core.values.options import FirstLead, Rules
from spades_core.values.seats import Seat, SeatMap, Team, TeamMap

if TYPE_CHECKING:
    from spades_core.engine.views import View

__all__ = ["NO_SEAT", "SEATS", "TEAMS", "Game", "GameSetup", "Phase", "new_game"]

TEAMS: Final = (Team.NS, Team.EW)
"""The teams by number: ``TEAMS[0]`` is North-South."""
NO_SEAT: Final = -1
"""``Game._to_act`` when no seat is to act (dealing, game over)."""


class Phase(enum.Enum, metaclass=CheckedLookup):
    """Where a game is: ``DEAL`` → ``BID`` → ``PLAY`` → (scored) → ``DEAL`` … ``GAME_OVER``."""

    @classmethod
    def _missing_(cls, value: object) -> Phase:
        raise _check.not_a_member(cls, value)

    DEAL = "deal"
    """Waiting for the next hand to be dealt."""
    BID = "bid"
    """Players bid in turn, starting left of the dealer."""
    PLAY = "play"
    """Thirteen tricks are played; the hand is scored after the last one."""
    GAME_OVER = "game_over"
    """A team has won; no action is legal."""


# Looking a member up on an enum class costs more than a global in CPython 3.11.
_BID: Final = Phase.BID
_PLAY: Final = Phase.PLAY


@final
@attrs.frozen
class GameSetup:
    """What stays fixed for a whole game: variant, rules, seed, first dealer."""

    variant: Variant
    rules: Rules
    seed: int
    first_dealer: Seat


@final
@attrs.frozen
class Standing:
    """What a game keeps from one hand to the next: the setup, the dealer of
    the hand in progress (or of the next), the running scores and bags, the
    finished hands and the winner. Every game within a hand shares one, so a
    transition copies one field for all six."""

    setup: GameSetup
    dealer: Seat
    scores: tuple[int, int]
    bags: tuple[int, int]
    results: HandResults
    winner: Team | None


@final
@attrs.frozen(repr=False)
class Game:
    """One game of Spades, from the first deal to the end, as an immutable value.

    Create games with :func:`spades_core.new_game`; do not call the
    constructor. Fields starting with ``_`` are the engine's representation
    and may change between releases.
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
    _legal: tuple[Action, ...] | None = attrs.field(default=None, eq=False, repr=False, hash=False)
    # The Trick records of _played, built when first read: a game played
    # without reading them (most simulations) never builds them; once built,
    # each game after the next card carries them on, and games made before
    # that hold the same _played find them in _RECORDS_BY_PLAYED.
    _trick_records: tuple[Trick, ...] | None = attrs.field(
        default=None, eq=False, repr=False, hash=False
    )

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
    def to_act(self) -> Seat | None:
        """The seat to bid or play, or ``None`` while dealing and after the game."""
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
        return _deprecations.bids_made_so_far(self._bids)

    @property
    def tricks_won(self) -> SeatMap[int]:
        """Tricks each seat has won this hand."""
        return SeatMap(self._won)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The tricks completed this hand."""
        records = self._trick_records
        if records is None:
            records = _shared_trick_records(self)
            _store_trick_records(self, records)
        return records

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
        return CardSet(self._held[_check.seat(seat, "Game.hand")])

    def dealt_hand(self, seat: Seat | str) -> CardSet:
        """The 13 cards ``seat`` was dealt this hand."""
        return CardSet(self._dealt[_check.seat(seat, "Game.dealt_hand")])

    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in _FIELDS}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in _deprecations.game_state(state).items():
            _SETTERS[name](self, value)
        _deprecations.upgrade_pickled_game(self, _SETTERS)

    def __repr__(self) -> str:
        where = f"hand {self.hand_number + 1}, {self.phase.name}"
        if self._to_act >= 0:
            where += f", {SEATS[self._to_act].name} to act"
        scores, winner = self._standing.scores, self._standing.winner
        return f"<Game {self.variant.id} {where}; NS {scores[0]}, EW {scores[1]}" + (
            f"; {winner.name} won>" if winner is not None else ">"
        )

    # -- legal actions -----------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the seat to act may take (in ``DEAL``: dealing from the seed;
        empty only when the game is over)."""
        legal = self._legal
        if legal is None:
            if self.phase is _PLAY:
                # Asked once per card: the play case without the call that
                # dispatches on the phase.
                mask = _legal_play_mask(self)
                legal = _plays_of_one_suit(mask) or _plays_of_slices(mask)
            else:
                legal = _legality.legal_actions(self)
            _store_legal(self, legal)
        return legal

    def legal_bids(self) -> tuple[int, ...]:
        """The bids open to the seat to act, as :meth:`bid` takes them: whole
        numbers, 0 for Nil (empty outside bidding)."""
        if self.phase is not Phase.BID:
            return ()
        return tuple(action.value for action in self.legal_actions())  # type: ignore[union-attr]

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
        if self.phase is not Phase.BID:
            return None
        return _legality.bid_explanation(self)

    def legal_cards(self) -> CardSet:
        """The cards the seat to act may play, as :meth:`play` takes them
        (empty outside play); index it in card-id order like a tuple."""
        if self.phase is not Phase.PLAY:
            return CardSet(0)
        return CardSet(_legality.legal_play_mask(self))

    def legal_mask(self) -> tuple[bool, ...]:
        """66 booleans, ``True`` at each legal action id (see :mod:`spades_core.encoding`)."""
        from spades_core.engine.encoding import legal_mask

        return legal_mask(self)

    def legal_plays(self) -> CardSet:
        """Deprecated name of :meth:`legal_cards` (removed in 0.3.0)."""
        _deprecations.deprecated("Game.legal_plays()", "Game.legal_cards()")
        return self.legal_cards()

    def why_illegal(
        self, action: object, *, seat: Seat | str | None = None
    ) -> IllegalActionError | None:
        """The error :meth:`apply` would raise for ``action`` (in any of the
        notations :meth:`apply` reads), or ``None`` if it is legal. A ``seat``
        that cannot be read raises :class:`~spades_core.InvalidNotationError`."""
        if seat is not None:
            seat = _check.seat(seat, "Game.why_illegal")
        try:
            _legality.check(self, action_of(action), seat)
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
        if seat is None:
            # A legal play or bid is applied here, a call or two sooner than
            # through transitions.apply, which does the rest.
            if type(action) is Play and self.phase is _PLAY:
                card = action.card.id
                legal = self._legal
                if legal is not None:
                    # A pre-built play found in the cached legal plays is
                    # legal: sooner than working the legal mask out again.
                    for candidate in legal:
                        if candidate is action:
                            return _play_unchecked(self, card)
                if _legal_play_mask(self) >> card & 1:
                    return _play_unchecked(self, card)
            elif type(action) is Bid and self.phase is _BID:
                legal = self._legal
                if legal is not None:
                    for candidate in legal:
                        if candidate is action:
                            return _bid_unchecked(self, action.value)
        return _transitions.apply(self, action, seat)

    def deal(self, hands: Mapping[Seat, object] | Mapping[str, object] | None = None) -> Game:
        """The game with the next hand dealt: from the seed, or the explicit
        ``hands`` (a mapping from each seat to its 13 cards)."""
        return _transitions.deal(self, hands)

    def bid(self, value: Bid | int | str, *, seat: Seat | str | None = None) -> Game:
        """The game after the seat to act bids ``value`` (0 or ``"nil"`` is Nil,
        ``3`` or ``"3"``, a :class:`~spades_core.Bid`)."""
        return _transitions.apply(self, Bid.of(value), seat)

    def play(self, card: Card | Play | str, *, seat: Seat | str | None = None) -> Game:
        """The game after the seat to act plays ``card`` (a Card, ``"QH"``, a
        :class:`~spades_core.Play`)."""
        return _transitions.apply(self, Play.of(card), seat)

    def view(self, seat: Seat | str) -> View:
        """What ``seat`` may see of the game (see :mod:`spades_core.views`)."""
        from spades_core.engine.views import view_for

        return view_for(self, _check.seat(seat, "Game.view"))

    def public_view(self) -> View:
        """What a spectator may see of the game."""
        from spades_core.engine.views import view_for

        return view_for(self, None)


# The cache slot is written past the frozen __setattr__ (it is not part of the value).
_store_legal: Callable[[Game, tuple[Action, ...]], None] = vars(Game)["_legal"].__set__
_store_trick_records: Callable[[Game, tuple[Trick, ...]], None] = vars(Game)[
    "_trick_records"
].__set__
_FIELDS: Final = tuple(field.name for field in attrs.fields(Game))
_SETTERS: Final[dict[str, Callable[[Game, object], None]]] = {
    name: vars(Game)[name].__set__ for name in _FIELDS
}


# The Trick records built for a tuple of card ids, by the tuple's identity:
# every game of a hand holds the same tuple from the end of one trick to the
# end of the next, and no two hands share one but the empty tuple (whose
# records are empty whoever leads). Each entry holds its tuple, so the id
# cannot be reused while the entry lasts.
_RECORDS_BY_PLAYED: Final[dict[int, tuple[tuple[int, ...], tuple[Trick, ...]]]] = {}
_MOST_RECORDS: Final = 1024


def _shared_trick_records(game: Game) -> tuple[Trick, ...]:
    # The records of game's completed tricks, built once for all the games
    # holding the same tuple of card ids (up to _MOST_RECORDS tuples, then
    # the table starts afresh).
    played = game._played
    found = _RECORDS_BY_PLAYED.get(id(played))
    if found is not None and found[0] is played:
        return found[1]
    records = tricks_of_plays(hand_first_leader(game), played)
    if len(_RECORDS_BY_PLAYED) >= _MOST_RECORDS:
        _RECORDS_BY_PLAYED.clear()
    _RECORDS_BY_PLAYED[id(played)] = (played, records)
    return records


def hand_first_leader(game: Game) -> int:
    """The seat number that leads (or led) the first trick of ``game``'s hand
    in progress, by :func:`~spades_core.tricks.first_leader`."""
    return first_leader(
        game._standing.dealer,
        game._dealt,
        game._standing.setup.rules.first_lead is FirstLead.TWO_OF_CLUBS,
    )


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
        _check.instance(variant, str, "new_game", "variant", "a variant id or a Variant")
        chosen = load_variant(variant)
    if seed is None:
        seed = secrets.randbits(64)
    else:
        _check.seed(seed, "new_game")
    rules = chosen.rules(**options)
    if dealer is None:
        first = SEATS[first_dealer(seed)]
    else:
        first = _check.seat(dealer, "new_game", "dealer")
    return _transitions.between_hands(
        GameSetup(chosen, rules, seed, first), first, (0, 0), (0, 0), HandResults(), None
    )


# Imported last: legality and transitions build and read Game objects, so they import this module.
from spades_core.engine import transitions as _transitions  # noqa: E402
from spades_core.engine.transitions import bid_unchecked as _bid_unchecked  # noqa: E402
from spades_core.engine.transitions import play_unchecked as _play_unchecked  # noqa: E402
from spades_core.rules import legality as _legality  # noqa: E402
from spades_core.rules.legality import PLAYS_BY_MASK as _PLAYS_BY_MASK  # noqa: E402
from spades_core.rules.legality import legal_play_mask as _legal_play_mask  # noqa: E402

_plays_of_one_suit: Final[Callable[[int], tuple[Play, ...] | None]] = _PLAYS_BY_MASK.one_suit.get
_plays_of_slices: Final[Callable[[int], tuple[Play, ...]]] = _PLAYS_BY_MASK.of_mask
