"""The checks of every action at one state: the legal ones apply, every other
one (and junk input of any type) is rejected with a SpadesError, and nothing
changes the game."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, Final

from spades_core.engine.game import Game, Phase
from spades_core.testing._failure import ConformanceError, fail, guard, snapshot
from spades_core.testing._state_checks import check_scoring_hooks
from spades_core.values.actions import (
    BIDS,
    BLIND_NIL,
    DEAL_FROM_SEED,
    LOOK,
    MOST_CARDS_PASSED,
    PASSES,
    PLAYS,
    Action,
    Bid,
    Deal,
    Pass,
    Play,
)
from spades_core.values.cards import CardSet
from spades_core.values.errors import IllegalActionError, IllegalReason, SpadesError

__all__ = ["check_illegal_actions", "check_legal_actions_apply"]


def check_legal_actions_apply(game: Game) -> None:
    """Every legal action applies, :meth:`~spades_core.Game.why_illegal` accepts
    it, and ``game`` is left unchanged. Before the card that ends a hand, the
    variant's scoring hooks are called and their answers checked."""
    before = snapshot(game)
    if game.phase is Phase.PLAY and len(game.tricks) == 12 and len(game.current_trick) == 3:
        for action in game.legal_actions():
            if isinstance(action, Play):
                check_scoring_hooks(game, action)
    for action in game.legal_actions():
        guard("legal_actions", f"applying the legal {action!r}", partial(game.apply, action))
        verdict = guard("legal_actions", "why_illegal", partial(game.why_illegal, action))
        if verdict is not None:
            fail("legal_actions", f"why_illegal({action!r}) objects to a legal action: {verdict}")
    if snapshot(game) != before:
        fail("legal_actions", "applying an action changed the game it was applied to")


_JUNK_ACTIONS: Final[tuple[object, ...]] = (None, "ZZ", 99, True, 2.5, object(), Bid(99), Bid(-1))


def _junk_calls(game: Game) -> Iterator[tuple[str, Callable[[], object]]]:
    # Deliberately ill-typed input: what a caller without a type checker may pass.
    loose: Any = game
    for junk in _JUNK_ACTIONS:
        yield f"apply({junk!r})", partial(loose.apply, junk)
    for value in (-1, 14, "x", None, True, 2.0):
        yield f"bid({value!r})", partial(loose.bid, value)
    for card in ("ZZ", "", None, 52, "AS AS"):
        yield f"play({card!r})", partial(loose.play, card)
    yield "deal(bad hands)", partial(loose.deal, {"N": ["AS"]})
    yield "apply(Deal(bad hands))", partial(game.apply, Deal((CardSet(0),) * 4))
    for seat in (7, -1, "X", 1.5):
        yield f"view({seat!r})", partial(loose.view, seat)
        yield f"hand({seat!r})", partial(loose.hand, seat)
    if game.to_act is not None and game.legal_actions():
        other = game.to_act.next
        legal = game.legal_actions()[0]
        yield f"apply({legal!r}, seat={other.name})", partial(game.apply, legal, seat=other)


def check_illegal_actions(game: Game) -> None:
    """Every action that is not legal is rejected with
    :class:`~spades_core.IllegalActionError` (``why_illegal`` returns the same
    reason), junk input raises a :class:`~spades_core.SpadesError`, and
    nothing changes the game.

    >>> import spades_core as sc
    >>> check_illegal_actions(sc.new_game("whiz", seed=2).deal())
    """
    before = snapshot(game)
    legal = set(guard("legal_actions", "legal_actions()", game.legal_actions))
    candidates: tuple[Action, ...] = (DEAL_FROM_SEED, *BIDS, *PLAYS, BLIND_NIL, LOOK, *PASSES)
    seat = game.to_act
    if seat is not None and len(game.hand(seat)) >= MOST_CARDS_PASSED:
        # Several cards at once: refused unless the exchange asks for that many.
        held = tuple(game.hand(seat))
        candidates += (Pass(CardSet.of(held[:MOST_CARDS_PASSED])),)
    for action in candidates:
        if action in legal:
            continue
        verdict = guard(
            "illegal_actions", f"why_illegal({action!r})", partial(game.why_illegal, action)
        )
        if not isinstance(verdict, IllegalActionError):
            fail(
                "illegal_actions",
                f"why_illegal({action!r}) accepts an action not in legal_actions()",
            )
        try:
            game.apply(action)
        except IllegalActionError as error:
            if error.reason is not verdict.reason:
                fail(
                    "illegal_actions",
                    f"apply({action!r}) says {error.reason.name}; "
                    f"why_illegal says {verdict.reason.name}",
                )
        except SpadesError as error:
            fail(
                "illegal_actions",
                f"apply({action!r}) raised {type(error).__name__}, not IllegalActionError: {error}",
            )
        except Exception as error:
            raise ConformanceError(
                "only_spades_errors", f"apply({action!r}) raised {type(error).__name__}: {error}"
            ) from error
        else:
            fail("illegal_actions", f"{action!r} is not in legal_actions() but apply() accepted it")
    for what, call in _junk_calls(game):
        try:
            call()
        except SpadesError as error:
            if (
                what.startswith("apply(")
                and "seat=" in what
                and (
                    not isinstance(error, IllegalActionError)
                    or error.reason is not IllegalReason.NOT_YOUR_TURN
                )
            ):
                fail("illegal_actions", f"{what} raised {error!r}, not NOT_YOUR_TURN")
        except Exception as error:
            raise ConformanceError(
                "only_spades_errors",
                f"{what} raised {type(error).__name__} (not a SpadesError): {error}",
            ) from error
        else:
            fail("illegal_actions", f"{what} was accepted")
    if snapshot(game) != before:
        fail("illegal_actions", "a rejected action changed the game")
