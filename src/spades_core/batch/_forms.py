"""A variant's rules on arrays: the :class:`ArrayForms` contract, the
:class:`BaseArrayForms` every variant can build on, and how the batch engine
reaches a variant's forms (:func:`array_forms_of`) and checks their answers
(:class:`CheckedForms`).

Each method of :class:`ArrayForms` is the declared array twin of one of the
variant's hooks: it must answer, row by row, what the hook answers (the
testing kit's :func:`~spades_core.testing.check_array_forms` holds it to
that). A variant provides its forms through
:meth:`spades_core.Variant.array_forms`, the built-in variants included; a
variant without forms gets :class:`BaseArrayForms`, which calls its hooks
row by row.
"""

from __future__ import annotations

from typing import Any, Final

import attrs
import numpy as np

from spades_core.rules import tricks
from spades_core.rules.array_forms import ArrayForms
from spades_core.rules.hooks import (
    checked_game_outcome,
    checked_revealed_spade_counts,
    checked_score_hand,
)
from spades_core.rules.variant import Variant, checked_legal_bids
from spades_core.values import checks
from spades_core.values.cards import CardSet
from spades_core.values.errors import ArgumentTypeError, SpadesError, VariantLoadError, brief
from spades_core.values.options import BreakRule, FirstLead, Rules
from spades_core.values.seats import Seat

from . import _arguments as arguments
from ._rules import NO_BID, _score_hands, _suit_counts, game_ends, game_outcomes
from ._types import I8, I32, I64, U64, Bools, Ints

__all__ = [
    "ArrayForms",
    "BaseArrayForms",
    "BatchRules",
    "CheckedForms",
    "array_forms_of",
    "batch_rules",
]

_SEATS: Final = tuple(Seat)
_ALL_BIDS: Final = (1 << 14) - 1
_BID_BITS: Final = tuple(1 << bid for bid in range(14))


class BaseArrayForms:
    """Array forms made from a variant's hooks, to subclass.

    For each hook the variant keeps as :class:`~spades_core.Variant`
    defines it (standard scoring, the target and loss floor, no revealed
    counts), the method is the engine's own vectorised twin of the standard
    rule. For each hook the variant overrides, the method calls the hook
    itself, checked, row by row: always right, but slow. Override the
    methods you can compute on arrays; every variant overrides
    ``legal_bids``::

        class SuicideArrays(BaseArrayForms):
            def legal_bids(self, rules, hands, seats, bids): ...

    and returns ``SuicideArrays(self)`` from its ``array_forms`` method.
    """

    def __init__(self, variant: Variant) -> None:
        checks.instance(variant, Variant, "BaseArrayForms", "variant", "a Variant")
        self.variant = variant
        """The variant whose hooks these forms stand for."""

    def legal_bids(self, rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
        """The variant's checked ``legal_bids`` hook, row by row."""
        rules, hands, seats, bids = bidders("legal_bids", rules, hands, seats, bids)
        variant = self.variant
        masks = np.zeros(len(hands), dtype=np.int32)
        for row in range(len(hands)):
            made = {_SEATS[s]: int(b) for s, b in enumerate(bids[row]) if b != NO_BID}
            legal = checked_legal_bids(
                variant, rules, _SEATS[int(seats[row])], CardSet(int(hands[row])), made
            )
            masks[row] = sum(_BID_BITS[bid] for bid in legal)
        return masks

    def revealed_spade_counts(self, rules: Rules, bids: I8) -> I8:
        """None with the default hook; else the variant's checked hook, row by row."""
        arguments.rules(rules, "revealed_spade_counts")
        bids = arguments.bids(bids, "revealed_spade_counts", None, lowest=NO_BID)
        counts = np.full(bids.shape, NO_BID, dtype=np.int8)
        if type(self.variant).revealed_spade_counts is Variant.revealed_spade_counts:
            return counts
        for row in range(len(bids)):
            made = tuple(None if b == NO_BID else int(b) for b in bids[row])
            found = checked_revealed_spade_counts(self.variant, rules, made)
            counts[row] = [NO_BID if count is None else count for count in found]
        return counts

    def score_hands(self, rules: Rules, bids: I8, tricks: I8, bags_before: I64) -> tuple[I64, I64]:
        """The standard scoring's twin with the default hook; else the
        variant's checked ``score_hand``, row by row."""
        rules, bids, tricks, bags_before = arguments.hands_scored(
            rules, bids, tricks, bags_before, "score_hands"
        )
        if type(self.variant).score_hand is Variant.score_hand:
            return _score_hands(rules, bids, tricks, bags_before)
        points = np.zeros(bags_before.shape, dtype=np.int64)
        bags = np.zeros(bags_before.shape, dtype=np.int64)
        for row in range(len(bids)):
            points[row], bags[row] = checked_score_hand(
                self.variant,
                rules,
                tuple(int(b) for b in bids[row]),
                tuple(int(t) for t in tricks[row]),
                (int(bags_before[row, 0]), int(bags_before[row, 1])),
            )
        return points, bags

    def game_outcomes(self, rules: Rules, scores: I64) -> I8:
        """The standard game end's twin with the default hook; else the
        variant's checked ``game_outcome``, row by row."""
        arguments.rules(rules, "game_outcomes")
        scores = arguments.scores(scores, "game_outcomes", None)
        if type(self.variant).game_outcome is Variant.game_outcome:
            return game_outcomes(rules, scores)
        outcomes = np.full(len(scores), -1, dtype=np.int8)
        for row in range(len(scores)):
            winner = checked_game_outcome(
                self.variant, rules, (int(scores[row, 0]), int(scores[row, 1]))
            )
            if winner is not None:
                outcomes[row] = int(winner)
        return outcomes


def array_forms_of(variant: Variant) -> ArrayForms:
    """The array forms the batch engine plays ``variant`` with: what its
    :meth:`~spades_core.Variant.array_forms` returns, or :class:`BaseArrayForms`
    when it returns ``None``.

    Raises :class:`~spades_core.VariantLoadError` naming the variant when the
    hook fails or returns something that is not :class:`ArrayForms`, and
    :class:`~spades_core.ArgumentTypeError` when ``variant`` is no variant.
    """
    checks.instance(variant, Variant, "array_forms_of", "variant", "a Variant")
    try:
        forms: object = variant.array_forms()
    except SpadesError:
        raise
    except (Exception, SystemExit) as error:
        raise VariantLoadError(
            f"variant {variant.id!r} failed in array_forms: {brief(error, 200)}"
        ) from error
    if forms is None:
        return BaseArrayForms(variant)
    if not isinstance(forms, ArrayForms):
        raise VariantLoadError(
            f"variant {variant.id!r}: array_forms must return None or an object with the "
            f"ArrayForms methods (legal_bids, revealed_spade_counts, score_hands, "
            f"game_outcomes), such as a BaseArrayForms subclass; it returned {brief(forms)}"
        )
    return forms


class CheckedForms:
    """A variant's array forms with every answer checked: the shape, the
    type and the range the contract promises, or a
    :class:`~spades_core.VariantLoadError` naming the variant and the form."""

    def __init__(self, variant: Variant, forms: ArrayForms) -> None:
        checks.instance(variant, Variant, "CheckedForms", "variant", "a Variant")
        if not isinstance(forms, ArrayForms):
            raise ArgumentTypeError(
                f"CheckedForms: forms must be array forms (ArrayForms); "
                f"got {checks.described(forms)}"
            )
        self.variant = variant
        """The variant the forms are of."""
        self.forms = forms
        """The forms whose answers are checked."""

    def _refuse(self, form: str, promise: str, answer: object) -> VariantLoadError:
        shown = (
            f"{answer.dtype} {answer.shape}" if isinstance(answer, np.ndarray) else brief(answer)
        )
        return VariantLoadError(
            f"variant {self.variant.id!r}: the array form {form} must return {promise}; "
            f"it returned {shown}"
        )

    def _failed(self, form: str, error: BaseException) -> VariantLoadError:
        return VariantLoadError(
            f"variant {self.variant.id!r} failed in the array form {form}: {brief(error, 200)}"
        )

    def legal_bids(self, rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
        """The forms' legal bid masks, checked: one per row, each of 1 to 14 bits."""
        return self._answer_legal_bids(*bidders("legal_bids", rules, hands, seats, bids))

    def _answer_legal_bids(self, rules: Rules, hands: U64, seats: I8, bids: I8) -> I32:
        """:meth:`legal_bids` for arrays known to be right (the engine's own)."""
        try:
            answer: Any = self.forms.legal_bids(rules, hands, seats, bids)
        except SpadesError:
            raise
        except (Exception, SystemExit) as error:
            raise self._failed("legal_bids", error) from error
        if (
            not isinstance(answer, np.ndarray)
            or answer.shape != (len(hands),)
            or answer.dtype.kind not in "iu"
            or (len(answer) and (answer.min() <= 0 or answer.max() > _ALL_BIDS))
        ):
            raise self._refuse(
                "legal_bids",
                f"an integer array of shape ({len(hands)},) of 14-bit bid masks, "
                "each with at least one bid",
                answer,
            )
        masks: I32 = answer.astype(np.int32, copy=False)
        return masks

    def revealed_spade_counts(self, rules: Rules, bids: I8) -> I8:
        """The forms' revealed counts, checked: ``(n, 4)``, each -1 or 0-13."""
        arguments.rules(rules, "revealed_spade_counts")
        made = arguments.bids(bids, "revealed_spade_counts", None, lowest=NO_BID)
        return self._answer_revealed_spade_counts(rules, made)

    def _answer_revealed_spade_counts(self, rules: Rules, bids: I8) -> I8:
        """:meth:`revealed_spade_counts` for arrays known to be right (the engine's own)."""
        try:
            answer: Any = self.forms.revealed_spade_counts(rules, bids)
        except SpadesError:
            raise
        except (Exception, SystemExit) as error:
            raise self._failed("revealed_spade_counts", error) from error
        if (
            not isinstance(answer, np.ndarray)
            or answer.shape != bids.shape
            or answer.dtype.kind not in "iu"
            or (answer.size and (answer.min() < NO_BID or answer.max() > 13))
        ):
            raise self._refuse(
                "revealed_spade_counts",
                f"an integer array of shape {bids.shape} of counts 0-13, or -1",
                answer,
            )
        counts: I8 = answer.astype(np.int8, copy=False)
        return counts

    def check_revealed_against_deal(self, rules: Rules, bids: I8, dealt: U64) -> None:
        """Refuse revealed counts that are not the spades each seat was dealt.

        ``bids`` and ``dealt`` are ``(n, 4)``: the bids so far and the hands as
        dealt. As :func:`~spades_core.variant.checked_revealed_spade_counts`
        does for one game: a count the deal does not have would make every
        observation of the table one that no deal can produce.
        """
        call = "check_revealed_against_deal"
        arguments.rules(rules, call)
        made = arguments.bids(bids, call, None, lowest=NO_BID)
        arguments.rows(arguments.card_masks(dealt, call, "dealt"), 4, call, "dealt", len(made))
        self._answer_revealed_against_deal(rules, made, dealt)

    def _answer_revealed_against_deal(self, rules: Rules, bids: I8, dealt: U64) -> None:
        """:meth:`check_revealed_against_deal` for arrays known to be right (the engine's own)."""
        counts = self._answer_revealed_spade_counts(rules, bids)
        held = _suit_counts(dealt.astype(np.uint64, copy=False), tricks.SPADES)
        wrong = np.argwhere((counts != NO_BID) & (counts != held))
        if len(wrong):
            seat = _SEATS[int(wrong[0][1])].name.title()
            # The message does not say what the seat holds: a player may read it.
            raise VariantLoadError(
                f"variant {self.variant.id!r}: the array form revealed_spade_counts reveals "
                f"{int(counts[tuple(wrong[0])])} spades for {seat}, which {seat} was not "
                "dealt; a revealed count must be what the bids prove about the deal"
            )

    def score_hands(self, rules: Rules, bids: I8, tricks: I8, bags_before: I64) -> tuple[I64, I64]:
        """The forms' points and bags, checked: two ``(n, 2)`` integer
        arrays, bags from 0."""
        return self._answer_score_hands(
            *arguments.hands_scored(rules, bids, tricks, bags_before, "score_hands")
        )

    def _answer_score_hands(
        self, rules: Rules, bids: I8, tricks: I8, bags_before: I64
    ) -> tuple[I64, I64]:
        """:meth:`score_hands` for arrays known to be right (the engine's own)."""
        try:
            answer: Any = self.forms.score_hands(rules, bids, tricks, bags_before)
        except SpadesError:
            raise
        except (Exception, SystemExit) as error:
            raise self._failed("score_hands", error) from error
        shape = bags_before.shape
        if (
            not isinstance(answer, tuple)
            or len(answer) != 2
            or not all(
                isinstance(part, np.ndarray) and part.shape == shape and part.dtype.kind in "iu"
                for part in answer
            )
            or (answer[1].size and answer[1].min() < 0)
        ):
            raise self._refuse(
                "score_hands",
                f"(points, bags after), two integer arrays of shape {shape}, bags from 0",
                answer,
            )
        points: I64 = answer[0].astype(np.int64, copy=False)
        bags: I64 = answer[1].astype(np.int64, copy=False)
        return points, bags

    def game_outcomes(self, rules: Rules, scores: I64) -> I8:
        """The forms' winners, checked: ``(n,)``, each 0, 1 or -1."""
        arguments.rules(rules, "game_outcomes")
        return self._answer_game_outcomes(rules, arguments.scores(scores, "game_outcomes", None))

    def _answer_game_outcomes(self, rules: Rules, scores: I64) -> I8:
        """:meth:`game_outcomes` for arrays known to be right (the engine's own)."""
        try:
            answer: Any = self.forms.game_outcomes(rules, scores)
        except SpadesError:
            raise
        except (Exception, SystemExit) as error:
            raise self._failed("game_outcomes", error) from error
        if (
            not isinstance(answer, np.ndarray)
            or answer.shape != (len(scores),)
            or answer.dtype.kind not in "iu"
            or (len(answer) and (answer.min() < -1 or answer.max() > 1))
        ):
            raise self._refuse(
                "game_outcomes",
                f"an integer array of shape ({len(scores)},) of 0 (NS), 1 (EW) or -1",
                answer,
            )
        outcomes: I8 = answer.astype(np.int8, copy=False)
        return outcomes


def bidders(
    call: str, rules: object, hands: object, seats: object, bids: object
) -> tuple[Rules, U64, I8, I8]:
    """The arguments of a ``legal_bids`` form, checked: ``rules``, the
    bidders' hands ``(n,)``, their seats ``(n,)`` and the bids so far ``(n, 4)``."""
    checked = arguments.rules(rules, call)
    masks = arguments.card_masks(hands, call, count=None)
    return (
        checked,
        masks,
        arguments.seats(seats, call, len(masks)),
        arguments.bids(bids, call, len(masks), lowest=NO_BID),
    )


@attrs.frozen
class BatchRules:
    """What the batch engine plays: the variant, its resolved rules, its
    array forms (checked), and the trick-rule options as flags."""

    variant: Variant
    rules: Rules
    forms: CheckedForms
    any_spade_breaks: bool
    two_of_clubs_leads: bool

    def legal_bids(self, hands: U64, seats: I8, bids: I8) -> I32:
        """The legal bid masks of the bidders (see :meth:`ArrayForms.legal_bids`)."""
        return self.forms._answer_legal_bids(self.rules, hands, seats, bids)

    def revealed_spade_counts(self, bids: I8) -> I8:
        """The spade counts the bids reveal (see :meth:`ArrayForms.revealed_spade_counts`)."""
        return self.forms._answer_revealed_spade_counts(self.rules, bids)

    def check_revealed_against_deal(self, bids: I8, dealt: U64) -> None:
        """Refuse revealed counts that are not the dealt spade counts (see
        :meth:`CheckedForms.check_revealed_against_deal`)."""
        self.forms._answer_revealed_against_deal(self.rules, bids, dealt)

    def score_hands(self, bids: I8, tricks: I8, bags_before: I64) -> tuple[I64, I64]:
        """Points and bags after (see :meth:`ArrayForms.score_hands`)."""
        return self.forms._answer_score_hands(self.rules, bids, tricks, bags_before)

    def game_ends(self, scores: I64, hands: Ints) -> tuple[Bools, I8]:
        """Whether each game is over after its ``hands``-th hand left
        ``scores``, and the winner (-1: none yet, or a draw): the variant's
        outcome first, then the hand limit (:func:`~._rules.game_ends`)."""
        outcomes = self.forms._answer_game_outcomes(self.rules, scores)
        return game_ends(self.rules, outcomes, scores, hands)


def batch_rules(variant: Variant, options: dict[str, Any]) -> BatchRules:
    """The batch form of ``variant`` under ``options`` (checked as
    :func:`spades_core.new_game` checks them)."""
    rules = variant.rules(**options)
    return BatchRules(
        variant=variant,
        rules=rules,
        forms=CheckedForms(variant, array_forms_of(variant)),
        any_spade_breaks=rules.break_rule is BreakRule.ANY_SPADE,
        two_of_clubs_leads=rules.first_lead is FirstLead.TWO_OF_CLUBS,
    )
