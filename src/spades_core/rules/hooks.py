"""The variant's hooks called for the engine, checked: each refuses a
malformed answer with a :class:`~spades_core.VariantLoadError` naming the
variant and the hook (a plugin's bug stops at its own hook), and returns the
answer as the engine keeps it.

The engine calls :func:`~spades_core.variant.checked_legal_bids` (beside the
contract, whose default :meth:`~spades_core.Variant.explain_bids` asks it),
:func:`checked_score_hand`, :func:`checked_game_end`,
:func:`checked_revealed_spade_counts` and :func:`checked_explain_bids`;
:func:`score_breakdown` itemises a finished hand through
:func:`checked_score_items`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import islice
from types import MappingProxyType
from typing import Final

from spades_core.rules.phases import HandPhase, PhaseStep
from spades_core.rules.results import HandResults
from spades_core.rules.scoring import (
    ScoreBreakdown,
    ScoreItem,
    ScoreKind,
    game_outcome,
    score_hand,
)
from spades_core.rules.variant import (
    HAND_SCORE_LIMIT,
    NUMBER_OF_BIDS,
    Variant,
    checked_legal_bids,
    describe_bids,
    hook_failure,
)
from spades_core.values import checks
from spades_core.values.cards import SUIT_MASKS, CardSet, Suit
from spades_core.values.errors import (
    ArgumentTypeError,
    RulesError,
    SpadesError,
    VariantLoadError,
    brief,
)
from spades_core.values.options import Rules
from spades_core.values.seats import Seat, SeatMap, Team, TeamMap

__all__ = [
    "MOST_PHASES",
    "checked_explain_bids",
    "checked_game_end",
    "checked_game_outcome",
    "checked_phases",
    "checked_revealed_spade_counts",
    "checked_score_hand",
    "checked_score_items",
    "score_breakdown",
]

_SEATS: Final = tuple(Seat)
_SPADES: Final = SUIT_MASKS[Suit.SPADES]
_LONGEST_EXPLANATION: Final = 400


def checked_revealed_spade_counts(
    variant: Variant,
    rules: Rules,
    bids: tuple[int | None, ...],
    *,
    dealt: tuple[int, ...] | None = None,
) -> tuple[int | None, ...]:
    """The dealt spade counts the bids made so far reveal, by seat number
    (``None``: not revealed), by the variant's
    :meth:`~Variant.revealed_spade_counts` for ``bids`` by seat number
    (``None`` for a seat that has not bid).

    Raises :class:`~spades_core.VariantLoadError` naming the variant when the
    hook fails or answers anything but a mapping of seats to counts 0-13;
    and, given ``dealt`` (the four dealt hands' card masks), when it reveals
    a count that is not the number of spades the seat was dealt: a count the
    deal does not have would make every view of the hand one that no deal
    can produce.
    """
    if type(variant).revealed_spade_counts is Variant.revealed_spade_counts:
        return (None, None, None, None)
    made = MappingProxyType({_SEATS[i]: bid for i, bid in enumerate(bids) if bid is not None})
    try:
        counts = variant.revealed_spade_counts(rules, made)
        found = tuple(counts.get(seat) for seat in _SEATS)
    except SpadesError:
        raise
    except (Exception, SystemExit) as error:
        raise hook_failure(variant, "revealed_spade_counts", error) from error
    if not all(count is None or (type(count) is int and 0 <= count <= 13) for count in found):
        raise VariantLoadError(
            f"variant {variant.id!r}: revealed_spade_counts must map seats to spade counts "
            f"0-13; it returned {brief(counts)}"
        )
    if dealt is not None:
        for seat, count in zip(_SEATS, found, strict=True):
            if count is not None and count != (dealt[seat] & _SPADES).bit_count():
                # The message does not say what the seat holds: a player may read it.
                raise VariantLoadError(
                    f"variant {variant.id!r}: revealed_spade_counts reveals {count} spades for "
                    f"{seat.name.title()}, which {seat.name.title()} was not dealt; a revealed "
                    "count must be what the bids prove about the deal"
                )
    return found


def _team_numbers(value: object, lowest: int) -> tuple[int, int] | None:
    """The two whole numbers a hook's ``TeamMap`` holds, if they lie within
    ``lowest`` and :data:`HAND_SCORE_LIMIT`; ``None`` for anything else."""
    if type(value) is not TeamMap:
        return None
    numbers = value.values_
    if type(numbers) is not tuple or len(numbers) != 2:
        return None
    first, second = numbers
    if type(first) is not int or type(second) is not int:
        return None
    if not (lowest <= first <= HAND_SCORE_LIMIT and lowest <= second <= HAND_SCORE_LIMIT):
        return None
    return first, second


def checked_score_hand(
    variant: Variant,
    rules: Rules,
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    bags_before: tuple[int, int],
    steps: tuple[PhaseStep, ...] | None = None,
) -> tuple[tuple[int, int], tuple[int, int]]:
    """``((points NS, points EW), (bags NS, bags EW))`` by the variant's
    :meth:`~Variant.score_hand` for bids and tricks by seat number (with
    ``steps``, a hand of a variant with phases: by
    :meth:`~Variant.score_phased_hand`).

    Raises :class:`~spades_core.VariantLoadError` naming the variant when the
    hook fails or answers anything but two ``TeamMap`` objects of whole
    numbers, points within ±:data:`HAND_SCORE_LIMIT` and bags from 0.
    """
    hook = "score_hand" if steps is None else "score_phased_hand"
    if steps is None and type(variant).score_hand is Variant.score_hand:
        return score_hand(rules, bids, tricks, bags_before)  # type: ignore[arg-type]
    try:
        if steps is None:
            result: object = variant.score_hand(
                rules, SeatMap(bids), SeatMap(tricks), TeamMap(bags_before)
            )
        else:
            result = variant.score_phased_hand(
                rules, SeatMap(bids), SeatMap(tricks), TeamMap(bags_before), steps
            )
    except SpadesError:
        raise
    except (Exception, SystemExit) as error:
        raise hook_failure(variant, hook, error) from error
    points = bags = None
    if type(result) is tuple and len(result) == 2:
        points = _team_numbers(result[0], -HAND_SCORE_LIMIT)
        bags = _team_numbers(result[1], 0)
    if points is None or bags is None:
        raise VariantLoadError(
            f"variant {variant.id!r}: {hook} must return (points, bags after) as two "
            f"TeamMap objects of whole numbers, points within ±{HAND_SCORE_LIMIT:,} and "
            f"bags from 0 to {HAND_SCORE_LIMIT:,}; it returned {brief(result, 120)}"
        )
    return points, bags


MOST_PHASES: Final = 8
"""The most phases a variant may add to a hand."""


def checked_phases(variant: Variant, rules: Rules) -> tuple[HandPhase, ...]:
    """The variant's :meth:`~Variant.phases` under ``rules`` as a tuple.

    Raises :class:`~spades_core.VariantLoadError` naming the variant when the
    hook fails or answers anything but at most :data:`MOST_PHASES`
    :class:`~spades_core.rules.phases.HandPhase` objects of distinct names.
    """
    try:
        answer: object = variant.phases(rules)
        phases = tuple(islice(answer, MOST_PHASES + 1))  # type: ignore[call-overload]
    except SpadesError:
        raise
    except (Exception, SystemExit) as error:
        raise hook_failure(variant, "phases", error) from error
    names = [phase.name for phase in phases if isinstance(phase, HandPhase)]
    if len(names) != len(phases) or len(set(names)) != len(names) or len(phases) > MOST_PHASES:
        raise VariantLoadError(
            f"variant {variant.id!r}: phases must give at most {MOST_PHASES} HandPhase "
            f"objects of distinct names; it gave {brief(phases, 120)}"
        )
    return phases


def checked_game_outcome(variant: Variant, rules: Rules, scores: tuple[int, int]) -> Team | None:
    """The variant's :meth:`~Variant.game_outcome` for running ``scores`` (NS, EW).

    Raises :class:`~spades_core.VariantLoadError` naming the variant when the
    hook fails or answers anything but ``Team.NS``, ``Team.EW`` or ``None``.
    """
    if type(variant).game_outcome is Variant.game_outcome:
        return game_outcome(rules, scores)
    try:
        outcome: object = variant.game_outcome(rules, TeamMap(scores))
    except SpadesError:
        raise
    except (Exception, SystemExit) as error:
        raise hook_failure(variant, "game_outcome", error) from error
    if outcome is not None and type(outcome) is not Team:
        raise VariantLoadError(
            f"variant {variant.id!r}: game_outcome must return Team.NS, Team.EW or None; "
            f"it returned {brief(outcome)}"
        )
    return outcome


def checked_game_end(
    variant: Variant, rules: Rules, scores: tuple[int, int], hands: int
) -> tuple[bool, Team | None]:
    """Whether the game is over after its ``hands``-th hand left ``scores``
    (NS, EW), and the winner (``None``: none yet, or a draw).

    The variant's :meth:`~Variant.game_outcome` decides first. When it plays
    on and ``rules.max_hands`` hands have been played, the game ends anyway:
    the higher score wins, and equal scores are a draw.
    """
    winner = checked_game_outcome(variant, rules, scores)
    if winner is not None:
        return True, winner
    limit = rules.max_hands
    if limit is None or hands < limit:
        return False, None
    ns, ew = scores
    return True, None if ns == ew else (Team.NS if ns > ew else Team.EW)


# -- itemising a hand's score, checked ------------------------------------------

_MOST_SCORE_ITEMS: Final = 100


def checked_score_items(
    variant: Variant,
    rules: Rules,
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    bags_before: tuple[int, int],
    steps: tuple[PhaseStep, ...] | None = None,
) -> ScoreBreakdown:
    """The :class:`~spades_core.scoring.ScoreBreakdown` of a hand by the
    variant's :meth:`~Variant.score_items`, for bids and tricks by seat number
    (with ``steps``, a hand of a variant with phases: by
    :meth:`~Variant.score_phased_items`, adding up to
    :meth:`~Variant.score_phased_hand`).

    A variant that overrides its scoring hook but not the matching items
    hook gets one ``VARIANT`` item per team carrying the points and bags its
    scoring gave. Raises :class:`~spades_core.VariantLoadError` naming the
    variant when the hook fails, answers anything but
    :class:`~spades_core.scoring.ScoreItem` objects, or items that do not add
    up to the points and bags of the hand's score.
    """
    points, bags = checked_score_hand(variant, rules, bids, tricks, bags_before, steps)
    if _scored_without_items(type(variant), phased=steps is not None):
        items: tuple[ScoreItem, ...] = tuple(
            ScoreItem(
                ScoreKind.VARIANT,
                team,
                points[team],
                bags[team] - bags_before[team],
                f"scored by the {variant.title} rules",
            )
            for team in Team
        )
    else:
        items = _asked_score_items(variant, rules, bids, tricks, bags_before, steps)
    hook = "score_items" if steps is None else "score_phased_items"
    scoring = "score_hand" if steps is None else "score_phased_hand"
    for team in Team:
        mine = [item for item in items if item.team is team]
        if (
            sum(item.points for item in mine) != points[team]
            or bags_before[team] + sum(item.bags for item in mine) != bags[team]
        ):
            raise VariantLoadError(
                f"variant {variant.id!r}: {hook} must add up to what {scoring} gives "
                f"each team; {team.name}'s items give {sum(item.points for item in mine)} "
                f"points and {sum(item.bags for item in mine):+} bags, {scoring} "
                f"{points[team]} points and {bags[team] - bags_before[team]:+} bags"
            )
    ordered = tuple(item for team in Team for item in items if item.team is team)
    return ScoreBreakdown(ordered, TeamMap(points), TeamMap(bags_before), TeamMap(bags))


def _scored_without_items(kind: type[Variant], *, phased: bool) -> bool:
    """Whether a variant class scores a hand its own way without itemising it:
    its scoring hook for the hand is overridden and the matching items hook is
    not (for a hand with phases, ``score_phased_hand`` and
    ``score_phased_items``; where those are the defaults, the plain pair)."""
    if phased and kind.score_phased_items is not Variant.score_phased_items:
        return False
    if phased and kind.score_phased_hand is not Variant.score_phased_hand:
        return True
    return kind.score_items is Variant.score_items and kind.score_hand is not Variant.score_hand


def _asked_score_items(
    variant: Variant,
    rules: Rules,
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    bags_before: tuple[int, int],
    steps: tuple[PhaseStep, ...] | None,
) -> tuple[ScoreItem, ...]:
    hook = "score_items" if steps is None else "score_phased_items"
    try:
        if steps is None:
            answer: object = variant.score_items(
                rules, SeatMap(bids), SeatMap(tricks), TeamMap(bags_before)
            )
        else:
            answer = variant.score_phased_items(
                rules, SeatMap(bids), SeatMap(tricks), TeamMap(bags_before), steps
            )
        items = (
            tuple(islice(answer, _MOST_SCORE_ITEMS + 1))
            if isinstance(answer, Iterable) and not isinstance(answer, str | bytes | Mapping)
            else None
        )
    except SpadesError:
        raise
    except (Exception, SystemExit) as error:
        raise hook_failure(variant, hook, error) from error
    if (
        items is None
        or len(items) > _MOST_SCORE_ITEMS
        or not all(
            type(item) is ScoreItem
            and type(item.kind) is ScoreKind
            and type(item.team) is Team
            and (item.seat is None or type(item.seat) is Seat)
            and type(item.label) is str
            and type(item.points) is int
            and type(item.bags) is int
            and abs(item.points) <= HAND_SCORE_LIMIT
            and abs(item.bags) <= HAND_SCORE_LIMIT
            for item in items
        )
    ):
        raise VariantLoadError(
            f"variant {variant.id!r}: {hook} must return at most {_MOST_SCORE_ITEMS} "
            "ScoreItem objects, each with a ScoreKind, a Team, whole numbers of points and "
            f"bags and a str label; it returned {brief(answer, 120)}"
        )
    return items


def checked_explain_bids(
    variant: Variant, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
) -> str | None:
    """The variant's :meth:`~Variant.explain_bids`, checked: one sentence, or
    ``None`` when every bid from Nil to 13 is open.

    Raises :class:`~spades_core.VariantLoadError` naming the variant and the
    hook when the hook fails, answers anything but ``None`` or one sentence
    (text on one line, at most 400 characters, ending with ".", "!" or "?"),
    or answers ``None`` while :meth:`~Variant.legal_bids` limits the bids.
    """
    try:
        text: object = variant.explain_bids(rules, seat, hand, bids)
    except SpadesError:
        raise
    except (Exception, SystemExit) as error:
        raise hook_failure(variant, "explain_bids", error) from error
    if text is None:
        legal = checked_legal_bids(variant, rules, seat, hand, bids)
        if len(legal) != NUMBER_OF_BIDS:
            raise VariantLoadError(
                f"variant {variant.id!r}: explain_bids returned None, but legal_bids allows "
                f"only {describe_bids(legal)}; return one sentence saying what limits the bid"
            )
        return None
    sentence = text.strip() if type(text) is str else ""
    if not (
        sentence
        and len(sentence) <= _LONGEST_EXPLANATION
        and sentence.isprintable()
        and sentence[-1] in ".!?"
    ):
        raise VariantLoadError(
            f"variant {variant.id!r}: explain_bids must return None or one sentence (text on "
            f"one line of at most {_LONGEST_EXPLANATION} characters, ending with '.', '!' or "
            f"'?'); it returned {brief(text, 120)}"
        )
    return sentence


def score_breakdown(game: object, hand: int = -1) -> ScoreBreakdown:
    """The itemised score of a finished hand of ``game`` (a
    :class:`~spades_core.Game` or a :class:`~spades_core.views.View` of one):
    by default the last, else the hand numbered ``hand`` (0-based; negative
    counts from the end, as in ``game.hand_results[hand]``).

    The items are the variant's own (see
    :meth:`~spades_core.Variant.score_items`): the standard scoring's steps
    for a variant that scores the standard way, and for one that scores its
    own way without itemising, one :attr:`ScoreKind.VARIANT` item per team
    carrying its points. Either way each team's items add up to the hand's
    points. Computed when asked for: playing a hand never builds it.

    >>> import random
    >>> import spades_core as sc
    >>> from spades_core.playouts import playout
    >>> game = playout(sc.new_game("classic", seed=4), random.Random(4))
    >>> breakdown = score_breakdown(game)
    >>> sum(item.points for item in breakdown.team_items(sc.Team.NS)) == game.scores[sc.Team.NS]
    True

    Raises :class:`~spades_core.ArgumentTypeError` for something other than a
    game or view, or a ``hand`` that is not a whole number, and
    :class:`~spades_core.RulesError` for a hand that has not been finished.
    """
    variant = getattr(game, "variant", None)
    rules = getattr(game, "rules", None)
    results = getattr(game, "hand_results", None)
    if (
        not isinstance(variant, Variant)
        or not isinstance(rules, Rules)
        or not isinstance(results, HandResults)
    ):
        raise ArgumentTypeError(
            f"score_breakdown: game must be a Game or a View; got {checks.described(game)}"
        )
    hand = checks.whole_number(hand, "score_breakdown", "hand")
    count = len(results)
    number = hand + count if hand < 0 else hand
    if not 0 <= number < count:
        raise RulesError(
            f"score_breakdown: hand {hand} is not a finished hand of this game "
            f"({count} hand{'' if count == 1 else 's'} finished)"
        )
    result = results[number]
    before = results[number - 1].bags.values_ if number else (0, 0)
    return checked_score_items(
        variant,
        rules,
        result.bids.values_,
        result.tricks.values_,
        (before[0], before[1]),
        result.steps if checked_phases(variant, rules) else None,
    )
