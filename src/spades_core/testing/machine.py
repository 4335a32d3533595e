"""A Hypothesis state machine that plays a variant and checks every invariant
after every step: :class:`VariantMachine`.

Subclass it, name the variant, and let pytest collect its ``TestCase``::

    class SuicideMachine(VariantMachine):
        variant = "suicide"

    TestSuicideMachine = SuicideMachine.TestCase
    TestSuicideMachine.settings = settings(max_examples=20, stateful_step_count=40)

Add rules and invariants of your own with Hypothesis's ``@rule`` and
``@invariant`` decorators; ``self.game`` is the game being played and
``self.apply(action)`` the checked way to move it on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import ClassVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from spades_core.engine.game import SEATS, Game, Phase, new_game
from spades_core.rules.registry import load_variant
from spades_core.rules.variant import Variant
from spades_core.testing._action_checks import check_illegal_actions, check_legal_actions_apply
from spades_core.testing._failure import ConformanceError, fail, guard, snapshot
from spades_core.testing._state_checks import check_game, check_record
from spades_core.testing._view_checks import check_views
from spades_core.testing.strategies import deals, option_sets, seeds
from spades_core.values.actions import Action, Deal
from spades_core.values.cards import CardSet
from spades_core.values.seats import Seat, SeatMap

__all__ = ["VariantMachine"]


class VariantMachine(RuleBasedStateMachine):
    """Plays games of :attr:`variant` with actions Hypothesis chooses, checking
    the conformance invariants (:func:`~spades_core.testing.check_game`, the
    legal actions, the views) after every step and, as rules of their own,
    illegal actions, records and replays.

    Class attributes to set in a subclass:

    * ``variant`` — a :class:`~spades_core.Variant` or an installed variant's id;
    * ``options`` — fixed keyword options, or ``None`` to draw them from
      :func:`~spades_core.testing.strategies.option_sets`;
    * ``extra_option_values`` — values to draw for the variant's own options.
    """

    variant: ClassVar[Variant | str] = "classic"
    options: ClassVar[Mapping[str, object] | None] = None
    extra_option_values: ClassVar[Mapping[str, Sequence[object]] | None] = None

    game: Game
    """The game being played."""
    start: Game
    """The game as created, before any action."""
    actions: list[Action]
    """Every action applied to :attr:`start` so far."""

    @classmethod
    def resolved_variant(cls) -> Variant:
        """:attr:`variant` as a :class:`~spades_core.Variant` object."""
        return cls.variant if isinstance(cls.variant, Variant) else load_variant(cls.variant)

    def _checked(self, check: Callable[[Game], None]) -> None:
        try:
            check(self.game)
        except ConformanceError as error:
            where = f"hand {self.game.hand_number}, {self.game.phase.name}, "
            where += f"after {len(self.actions)} actions"
            raise error.located(
                variant_id=self.game.variant.id, seed=None, where=where
            ) from error.__cause__

    def apply(self, action: Action) -> None:
        """Apply ``action`` to :attr:`game`, failing the ``legal_actions`` check
        if it is rejected and the check of immutability if the old game changed."""
        before = snapshot(self.game)
        after = guard("legal_actions", f"applying {action!r}", partial(self.game.apply, action))
        if snapshot(self.game) != before:
            fail("legal_actions", f"applying {action!r} changed the game it was applied to")
        self.game = after
        self.actions.append(action)

    @initialize(data=st.data())
    def start_a_game(self, data: st.DataObject) -> None:
        """Create a game with a drawn seed, dealer and options."""
        variant = self.resolved_variant()
        if self.options is not None:
            options = dict(self.options)
        else:
            options = data.draw(option_sets(variant, extra=self.extra_option_values), "options")
        seed = data.draw(seeds(), label="seed")
        dealer = data.draw(st.sampled_from(SEATS), label="dealer")
        self.game = new_game(variant, seed=seed, dealer=dealer, **options)
        self.start = self.game
        self.actions = []

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def take_a_legal_action(self, data: st.DataObject) -> None:
        """Take one of the legal actions."""
        self.apply(data.draw(st.sampled_from(self.game.legal_actions()), label="action"))

    @precondition(lambda self: self.game.phase is Phase.DEAL)
    @rule(hands=deals())
    def deal_given_hands(self, hands: SeatMap[CardSet]) -> None:
        """Deal explicit hands instead of the seed's."""
        north, east, south, west = (hands[seat] for seat in SEATS)
        self.apply(Deal((north, east, south, west)))

    @precondition(lambda self: self.game.phase in (Phase.BID, Phase.PLAY))
    @rule(choice_seed=st.integers(0, 2**32 - 1))
    def play_out_the_hand(self, choice_seed: int) -> None:
        """Finish the hand with random legal actions (checking every state),
        so that runs reach scoring and later hands."""
        choices = random.Random(choice_seed)
        hand = self.game.hand_number
        while not self.game.is_over and self.game.hand_number == hand:
            legal = self.game.legal_actions()
            self.apply(legal[choices.randrange(len(legal))])
            self._checked(check_game)

    @rule()
    def try_every_illegal_action(self) -> None:
        """Every action not legal now is rejected and changes nothing."""
        self._checked(check_illegal_actions)

    @rule()
    def save_and_load(self) -> None:
        """The game survives a record round trip."""
        self._checked(check_record)

    @precondition(lambda self: bool(self.actions))
    @rule()
    def replay_from_the_seed(self) -> None:
        """The same actions from the same start give the same game."""
        replay = self.start
        for action in self.actions:
            replay = replay.apply(action)
        if replay != self.game:
            self._checked(lambda _: fail("same_seed", "replaying the actions gives another game"))

    @invariant()
    def game_is_consistent(self) -> None:
        """Cards, tricks, turn order, scores and game end hold, and every legal action applies."""
        self._checked(check_game)
        self._checked(check_legal_actions_apply)

    @invariant()
    def views_hide_what_they_must(self) -> None:
        """Every seat's view shows its own cards and nothing hidden from it."""
        self._checked(check_views)

    def seat_to_act(self) -> Seat | None:
        """The seat to act in :attr:`game` (a convenience for subclasses' rules)."""
        return self.game.to_act
