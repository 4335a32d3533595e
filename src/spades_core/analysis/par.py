"""Par: the double-dummy tricks of each team for a whole deal, with each seat on lead.

What "with each seat on lead" means
-----------------------------------
Row ``leader`` of a :class:`Par` is the hand as it is played when seat
``leader`` is to make the first lead of the hand: no card played, spades not
broken, and the trick rules of the deal's :class:`~spades_core.Rules`
(``break_rule``, ``first_lead``) applied as the engine applies them. Under
``first_lead="left_of_dealer"`` the leader may lead any card but a spade
(unless it holds nothing but spades), and row ``leader`` is the hand dealt by
the seat on ``leader``'s right. Under ``first_lead="two_of_clubs"`` the holder
of the deuce of clubs leads it whoever dealt, so all four rows are that one
position: the row of the actual first leader is right whichever row is read.

Each row holds the tricks of North-South and of East-West, adding to 13.

>>> from spades_core.analysis import par
>>> hands = {"N": "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
...          "E": "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
...          "S": "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
...          "W": "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"}
>>> par(hands).tricks  # North ruffs every lead and draws the rest
((13, 0), (13, 0), (13, 0), (13, 0))
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final, final

import attrs

from spades_core.analysis._search import Search
from spades_core.engine.game import SEATS, Game, Phase
from spades_core.rules.legality import phase_refusal
from spades_core.rules.tricks import first_leader, rule_flags
from spades_core.values import checks
from spades_core.values.actions import Deal, deal_of
from spades_core.values.errors import ArgumentTypeError, IllegalActionError, IllegalReason, brief
from spades_core.values.options import Rules
from spades_core.values.seats import Seat, Team

__all__ = ["Par", "par", "par_batch"]

_HANDS: Final = 13
_DEFAULT_RULES: Final = Rules()


@final
@attrs.frozen
class Par:
    """The double-dummy tricks of a deal: ``tricks[leader]`` is ``(north_south,
    east_west)`` with seat number ``leader`` making the first lead (see the
    module's docstring for what that means under each ``first_lead``)."""

    tricks: tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]]

    def of(self, leader: Seat | str, team: Team) -> int:
        """The tricks ``team`` takes with ``leader`` on lead."""
        seat = checks.seat(leader, "Par.of", "leader")
        if not isinstance(team, Team):
            raise ArgumentTypeError(f"Par.of: team must be a Team; got {brief(team)}")
        return self.tricks[seat][team]


def _hands_of(position: object, call: str) -> tuple[tuple[int, int, int, int], Rules | None]:
    # The four dealt hands of a game in bidding or play, or of a deal, and the
    # game's rules (None for a deal).
    if isinstance(position, Game):
        if position.phase not in (Phase.BID, Phase.PLAY):
            to_act = position.to_act
            raise phase_refusal(
                position.phase, -1 if to_act is None else int(to_act), "work out the par"
            )
        masks = tuple(position.dealt_hand(seat).mask for seat in SEATS)
        return (masks[0], masks[1], masks[2], masks[3]), position.rules
    if isinstance(position, Deal):
        if position.hands is None:
            raise IllegalActionError(
                IllegalReason.INVALID_DEAL,
                f"{call}: a Deal from the seed holds no cards; pass the dealt game instead",
            )
        position = dict(zip(SEATS, position.hands, strict=True))
    if not isinstance(position, Mapping):
        raise ArgumentTypeError(
            f"{call}: takes a Game, a Deal or a mapping from the four seats to their "
            f"13 cards; got {checks.described(position)}"
        )
    dealt = deal_of(position).hands
    assert dealt is not None
    return (dealt[0].mask, dealt[1].mask, dealt[2].mask, dealt[3].mask), None


def _par_rows(
    hands: tuple[int, int, int, int], any_spade: bool, two_of_clubs: bool
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]]:
    # One search for the four rows: its table serves every leader.
    search = Search(list(hands), any_spade)
    rows: list[tuple[int, int]] = []
    for seat in range(4):
        # The first leader when the seat on this one's right deals: this seat,
        # or under two_of_clubs the deuce's holder, the same in every row.
        leader = first_leader((seat + 3) % 4, hands, two_of_clubs)
        north_south = search.value(leader, [], False, two_of_clubs, 0, _HANDS)
        rows.append((north_south, _HANDS - north_south))
    return rows[0], rows[1], rows[2], rows[3]


def _par_job(
    job: tuple[tuple[int, int, int, int], bool, bool],
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]]:
    # One deal's rows, in a worker process of par_batch.
    return _par_rows(*job)


def par(
    position: Game | Deal | Mapping[Seat, object] | Mapping[str, object],
    rules: Rules | None = None,
) -> Par:
    """The :class:`Par` of a deal: a :class:`~spades_core.Game` in bidding or
    play (its hand's dealt cards, under its rules), a
    :class:`~spades_core.Deal` of explicit hands, or a mapping from each seat
    to its 13 cards as :meth:`Game.deal <spades_core.Game.deal>` takes it.

    ``rules`` gives the trick options for a deal (default: the standard
    ones, ``break_rule="offsuit_spade"`` and ``first_lead="left_of_dealer"``;
    pass ``variant.rules(...)``); a game is played under its own, and takes
    none.

    Raises :class:`~spades_core.ArgumentTypeError` for anything else (rules
    given with a game among it), :class:`~spades_core.IllegalActionError`
    with ``INVALID_DEAL`` for a deal that is not four hands of 13 cards
    covering the deck, and with ``WRONG_PHASE`` for a game with no hand dealt.
    """
    hands, own = _hands_of(position, "par")
    any_spade, two_of_clubs = rule_flags(_rules(rules, own, "par"))
    return Par(_par_rows(hands, any_spade, two_of_clubs))


def _rules(rules: object, own: Rules | None, call: str) -> Rules:
    if own is not None:
        if rules is not None:
            raise ArgumentTypeError(
                f"{call}: a game is played under its own rules; pass rules only with a deal"
            )
        return own
    if rules is None:
        return _DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise ArgumentTypeError(
            f"{call}: rules must be a Rules (variant.rules(...)) or None; "
            f"got {checks.described(rules)}"
        )
    return rules


def par_batch(
    deals: Iterable[Game | Deal | Mapping[Seat, object] | Mapping[str, object]],
    rules: Rules | None = None,
    *,
    workers: int = 1,
) -> Any:
    """The par of many deals at once (each as :func:`par` takes it), solved
    in ``workers`` processes (default 1: in this one); the results do not
    depend on how many.

    With numpy installed (the ``batch`` extra) the result is an ``int8``
    array of shape ``(len(deals), 4, 2)``: ``result[i, leader, team]`` the
    tricks of ``team`` (0 North-South, 1 East-West) in deal ``i`` with seat
    ``leader`` on lead. Without numpy it is a tuple of :class:`Par`, one per
    deal. Raises as :func:`par` does, naming the deal, before solving any;
    a ``workers`` that is not a whole number of at least 1 raises
    :class:`~spades_core.ArgumentTypeError` or :class:`~spades_core.RulesError`.
    """
    workers = checks.count(workers, "par_batch", "workers", minimum=1)
    if isinstance(deals, (str, bytes, Mapping)) or not isinstance(deals, Iterable):
        raise ArgumentTypeError(
            f"par_batch: takes a sequence of deals; got {checks.described(deals)}"
        )
    jobs: list[tuple[tuple[int, int, int, int], bool, bool]] = []
    for index, deal in enumerate(deals):
        try:
            hands, own = _hands_of(deal, "par_batch")
            any_spade, two_of_clubs = rule_flags(_rules(rules, own, "par_batch"))
        except ArgumentTypeError as error:
            raise ArgumentTypeError(f"deal {index}: {error}") from None
        except IllegalActionError as error:
            raise IllegalActionError(error.reason, f"deal {index}: {error}") from None
        jobs.append((hands, any_spade, two_of_clubs))
    if workers == 1 or len(jobs) < 2:
        rows = [_par_job(job) for job in jobs]
    else:
        # Spawned, not forked: a fork of a process running threads may hang.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool:
            rows = list(pool.map(_par_job, jobs))
    tables = tuple(Par(row) for row in rows)
    try:
        import numpy
    except ImportError:
        return tables
    result = numpy.zeros((len(tables), 4, 2), dtype=numpy.int8)
    for index, table in enumerate(tables):
        result[index] = table.tricks
    return result
