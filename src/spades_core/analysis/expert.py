"""The ``expert`` player: the hard bot, with its card play from double-dummy results.

:class:`ExpertBot` plays a card by solving sampled deals double dummy. At each
card decision with at most ``depth`` tricks left (the one in progress
included), it draws ``samples`` deals of the cards hidden from it with the
hard bot's sampler (:func:`spades_core.bots.deal_sampler`, which prefers the
deals that explain the other seats' bids), values every legal card on each
deal with the solver (:meth:`Position.card_values
<spades_core.analysis.solve.Position.card_values>`), turns each value into the
points the hand would then be worth to its team against the other team
(the variant's score, each bag at its cost, as the hard bot values a hand) and plays the card
worth most on average.

Everything else it leaves to the hard bot it holds (``steps`` and
``bid_steps`` are that bot's budget): the bids, the cards played with more
than ``depth`` tricks left (where a solve takes longest) and the whole play of
a team with a live nil bid, whose value is the nil seat's own tricks, not the
team's that the solver counts.

>>> import spades_core as sc
>>> game = sc.new_game("classic", seed=4)
>>> players = [ExpertBot(seed=1, samples=4, depth=4, steps=300, bid_steps=300)] * 4
>>> sc.bots.play_game(game, players, hands=1).hand_number
1
"""

from __future__ import annotations

import random
from typing import Final

from spades_core.analysis.solve import position_seen
from spades_core.bots import Bot, Budget, HardBot, deal_sampler
from spades_core.bots.why import Why
from spades_core.engine.game import SEATS, Phase
from spades_core.engine.views import View
from spades_core.rules.hooks import checked_score_hand
from spades_core.rules.scoring import bag_cost
from spades_core.rules.variant import Variant
from spades_core.values import checks
from spades_core.values.actions import PLAYS, Action
from spades_core.values.errors import RulesError, brief
from spades_core.values.seats import Team

__all__ = ["EXPERT", "EXPERT_LIMITS", "ExpertBot"]

EXPERT: Final = "expert"
"""The player's name in the ``spades_core.players`` entry-point group."""

EXPERT_LIMITS: Final = {"samples": (1, 1_000), "depth": (1, 13)}
"""The range of each of the expert's own whole-number options."""


class ExpertBot(Bot):
    """The hard bot with double-dummy card play over sampled deals (see the module docs).

    ``samples`` (1 to 1,000, default 20) is how many deals it solves per card,
    ``depth`` (1 to 13, default 7) the most tricks left at which it solves;
    ``steps`` and ``bid_steps`` are the budget of the hard bot it bids with and
    plays with before then. A value outside its range raises
    :class:`~spades_core.RulesError`, a value of another type
    :class:`~spades_core.ArgumentTypeError`, as the hard bot's budget does.
    """

    level = EXPERT

    def __init__(
        self,
        seed: int | None = None,
        /,
        *,
        samples: int = 20,
        depth: int = 7,
        steps: int = Budget().steps,
        bid_steps: int = Budget().bid_steps,
        **unknown: object,
    ) -> None:
        if "seed" in unknown:
            if seed is not None:
                raise RulesError("ExpertBot: the seed is given twice (by position and by name)")
            seed = checks.whole_number(unknown.pop("seed"), "expert bot", "seed")
        if unknown:
            raise RulesError(
                f"unknown expert bot option {', '.join(_shown(name) for name in sorted(unknown))}; "
                f"its options are {', '.join(_OPTIONS)}"
            )
        super().__init__(seed)
        self.samples = _in_range("samples", samples)
        """Deals solved per card decision."""
        self.depth = _in_range("depth", depth)
        """The most tricks left at which it solves."""
        self.hard = HardBot(self.seed, steps=steps, bid_steps=bid_steps)
        """The hard bot it bids with and plays the rest of the cards with."""
        # The solver's deals come from a generator of their own, so that the
        # hard bot's choices are the same whatever the expert samples.
        self._deal_rng = random.Random(self.seed ^ 0x5EED)

    def __repr__(self) -> str:
        budget = self.hard.budget
        return (
            f"<ExpertBot seed={self.seed} samples={self.samples} depth={self.depth} "
            f"steps={budget.steps} bid_steps={budget.bid_steps}>"
        )

    def decide(self, view: View) -> tuple[Action, Why]:
        """The card worth most over the solved deals when the expert solves
        (see the module docs); otherwise the hard bot's action and idea."""
        if (
            isinstance(view, View)
            and view.phase is Phase.PLAY
            and view.is_my_turn
            and len(view.hand()) <= self.depth
            and len(view.legal_actions()) > 1
            and not _live_nil(view)
        ):
            return PLAYS[self._solved(view)], Why.SEARCH
        return self.hard.decide(view)

    def _solved(self, view: View) -> int:
        # The legal card id of the highest average worth over the samples.
        deals = deal_sampler(view, self._deal_rng)
        totals: dict[int, float] = {}
        worths: dict[int, float] = {}
        for _ in range(self.samples):
            position = position_seen(view, deals())
            for card, tricks in position.card_values(position.search()).items():
                if tricks not in worths:
                    worths[tricks] = _worth(view, tricks)
                totals[card] = totals.get(card, 0.0) + worths[tricks]
        # Of equals, the lowest card: a steady choice.
        return max(sorted(totals), key=lambda card: totals[card])


_OPTIONS: Final = ("samples", "depth", "steps", "bid_steps")


def _shown(name: str) -> str:
    # An option name for a message (a keyword may be any text).
    return name if name.isidentifier() and len(name) <= 40 else brief(name)


def _in_range(option: str, value: object) -> int:
    lowest, highest = EXPERT_LIMITS[option]
    number = checks.whole_number(value, "expert bot", option)
    if not lowest <= number <= highest:
        raise RulesError(
            f"expert bot: {option} must be a whole number ≥ {lowest:,} and ≤ {highest:,}; "
            f"got {brief(number)}"
        )
    return number


def _live_nil(view: View) -> bool:
    # A nil bid of the viewer's team that no trick has broken yet.
    seat = view.to_act
    assert seat is not None
    return any(
        view.bids[partner] == 0 and view.tricks_won[partner] == 0
        for partner in (seat, SEATS[(int(seat) + 2) % 4])
    )


def _worth(view: View, tricks: int) -> float:
    # What the hand is worth to the team to act when it takes ``tricks`` of
    # the tricks left and the other team the rest, as the hard bot values a
    # finished hand: the variant's score of it for the team minus the other
    # team's, each bag taken at its cost. A team's tricks go to a seat of it
    # with no nil bid still unbroken, so that the solver's team tricks break
    # no nil the cards did not break.
    seat = view.to_act
    assert seat is not None
    rules = view.rules
    left = len(view.hand())
    bids = tuple(view.bids[member] or 0 for member in SEATS)
    won = [view.tricks_won[member] for member in SEATS]
    for member, taken in ((int(seat), tricks), ((int(seat) + 1) % 4, left - tricks)):
        if bids[member] == 0 and won[member] == 0:
            member = (member + 2) % 4
        won[member] += taken
    before = (view.bags[Team.NS], view.bags[Team.EW])
    # A variant with phases scores its hands with their steps (a Blind Nil's value).
    steps = None if type(view.variant).phases is Variant.phases else view.phase_steps
    points, bags = checked_score_hand(view.variant, rules, bids, tuple(won), before, steps)
    team = int(seat) & 1
    value = float(points[team] - points[1 - team])
    if rules.bag_limit is not None:
        gained = (bags[team] - before[team]) - (bags[1 - team] - before[1 - team])
        value -= bag_cost(rules.bag_limit, rules.bag_penalty) * gained
    return value
