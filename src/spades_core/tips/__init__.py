"""Coach tips: a good move for the seat to act, and why, in plain English.

:func:`coach` asks the normal bot (which decides in well under a millisecond)
for its move and turns the idea behind it into plain English that names the
cards, for bids, for plays and for the choices of a variant's phases (Blind Nil,
the cards to pass), in every variant. The hard bot searches with
the normal policy, so its moves are usually the same; the coach prefers the
normal player's answer because it can always say *why*.

Every fact a tip states is computed from the position the view shows, never
assumed from the idea behind the move: which suit is longest and whether it
may be led, which card is the highest of its suit still out, which Nil bidder
plays after you, and what the rules allow you to bid (in the variant's own
words, :meth:`Variant.explain_bids <spades_core.Variant.explain_bids>`).
Who *may* hold a card, and so who *could* beat one, is what counting does
not rule out (:func:`~spades_core.sampling.knowledge_of`, the one owner of
what a seat knows): a seat could beat a card when some deal of the cards you
have not seen, consistent with the hand sizes, the suits each seat has shown
out of and the spade counts the bids revealed, gives it a higher card of the
suit led, or none of the suit led and a spade that beats it. "Nobody still to
play can beat it" is said only when no seat still to play, your partner
included, could.

The words live in private modules by concern: cards and seats in words
(``_words``), bids (``_bids``), what the seat knows in play (``_seen``),
leads (``_leads``), following (``_follows``), the choice between them
with the words for ducking (``_plays``), a variant's phases: Blind Nil and
the exchange (``_phases``), and after a hand (``_review``):
:func:`after_hand` says what the double-dummy review of a finished hand
(:func:`spades_core.analysis.review`, handed in) found in your side's cards.

>>> import spades_core as sc
>>> game = sc.new_game("mirror", seed=2).deal()
>>> tip = sc.coach(game.view(game.to_act))
>>> tip.action in game.legal_actions()
True
>>> tip.reason.startswith("In Mirror Spades your bid is your spade count")
True
"""

from __future__ import annotations

from typing import Final, final

import attrs

from spades_core.bots import NormalBot
from spades_core.engine import arguments
from spades_core.engine.views import View
from spades_core.tips._bids import bid_reason
from spades_core.tips._phases import phase_reason
from spades_core.tips._plays import play_reason
from spades_core.tips._review import ReviewedCard, after_hand
from spades_core.tips._seen import Seen
from spades_core.tips._words import name as name  # spades_core.tips.name stays importable
from spades_core.values import deprecation
from spades_core.values.actions import Action, Bid, Play

__all__ = ["ReviewedCard", "Tip", "after_hand", "coach"]


@final
@attrs.frozen
class Tip:
    """A suggested action and the reason for it."""

    action: Action
    """One of the view's legal actions."""
    reason: str
    """Plain English naming the cards and the idea: one sentence, after the
    variant's own sentence on what limits the bid when that decides it."""
    idea: str
    """A short machine-readable name of the idea (``"cash_winner"``, ``"protect_cover"``…)."""


def coach(view: View) -> Tip:
    """The normal player's move for the seat of ``view`` and why.

    The view must be of the seat to act (its ``legal_actions()`` not empty);
    otherwise :class:`~spades_core.IllegalActionError` is raised. Anything
    but a view raises :class:`~spades_core.ArgumentTypeError`.
    """
    arguments.view(view, "coach")
    action, why = _COACH_BOT.decide(view)
    if isinstance(action, Bid):
        reason = bid_reason(view, action.value, why)
    elif isinstance(action, Play):
        reason = play_reason(Seen(view), action.card.id, why)
    else:
        reason = phase_reason(view, action, why)
    return Tip(action=action, reason=reason, idea=why.name.lower())


_COACH_BOT: Final = NormalBot(seed=0)


def _bid_rule(view: View) -> str:
    """``spades_core.tips.bid_rule`` of release 0.1: the variant's sentence on
    what limits the bid, or one saying every bid is open."""
    return view.explain_bids() or "Every bid from Nil to 13 is open to you."


__getattr__ = deprecation.OldNames(
    "spades_core.tips",
    {
        "bid_rule": (
            _bid_rule,
            "View.explain_bids(), the variant's own sentence (None when every bid is open)",
        )
    },
).attribute
