"""How a conformance check fails: the check names, :class:`ConformanceError`,
and the guard that turns an error from a public call into a failed check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NoReturn, TypeVar

import attrs

from spades_core.engine.game import Game
from spades_core.values.errors import SpadesError
from spades_core.values.seats import Seat

__all__ = ["CHECKS", "ConformanceError", "fail", "guard", "seat_text", "snapshot"]

CHECKS: Final = (
    "definition",
    "cards_conserved",
    "thirteen_tricks",
    "turn_order",
    "legal_actions",
    "illegal_actions",
    "only_spades_errors",
    "scores",
    "game_end",
    "records",
    "views",
    "same_seed",
    "array_forms",
)
"""The names of the conformance checks, as :attr:`ConformanceError.check` reports them."""

T = TypeVar("T")


class ConformanceError(AssertionError):
    """A variant failed a conformance check.

    ``check`` is one of :data:`CHECKS`; ``seed`` (when not ``None``) replays the
    failing scenario with ``check_variant(variant, seed=seed)`` (or, for the
    ``array_forms`` check, ``check_array_forms(variant, seed=seed)``).
    """

    def __init__(
        self,
        check: str,
        detail: str,
        *,
        variant_id: str | None = None,
        seed: int | None = None,
        where: str = "",
        replay: str = "check_variant",
    ) -> None:
        self.check = check
        self.detail = detail
        self.variant_id = variant_id
        self.seed = seed
        self.where = where
        self.replay = replay
        who = f"variant {variant_id!r}" if variant_id is not None else "the game"
        message = f"{who} fails the {check!r} check: {detail}"
        if where:
            message += f"\n  at: {where}"
        if seed is not None:
            message += f"\n  reproduce with: {replay}(variant, seed={seed})"
        super().__init__(message)

    def located(self, *, variant_id: str, seed: int | None, where: str) -> ConformanceError:
        """This failure with the scenario that produced it filled in."""
        located = ConformanceError(
            self.check,
            self.detail,
            variant_id=variant_id,
            seed=seed,
            where=self.where or where,
            replay=self.replay,
        )
        located.__cause__ = self.__cause__
        return located


def fail(check: str, detail: str) -> NoReturn:
    """Fail ``check`` with ``detail`` (raise :class:`ConformanceError`)."""
    raise ConformanceError(check, detail)


def guard(check: str, what: str, call: Callable[[], T]) -> T:
    """``call()``; an error from it fails ``check`` (any SpadesError) or
    ``only_spades_errors`` (anything else)."""
    try:
        return call()
    except ConformanceError:
        raise
    except SpadesError as error:
        raise ConformanceError(check, f"{what} raised {type(error).__name__}: {error}") from error
    except Exception as error:
        raise ConformanceError(
            "only_spades_errors",
            f"{what} raised {type(error).__name__} (not a SpadesError): {error}",
        ) from error


def snapshot(game: Game) -> tuple[object, ...]:
    """Every compared field of ``game``, to show that a call left it unchanged."""
    return tuple(getattr(game, field.name) for field in attrs.fields(Game) if field.eq)


def seat_text(seat: Seat | None) -> str:
    """A seat's name for a message, ``"nobody"`` for ``None``."""
    return "nobody" if seat is None else seat.name
