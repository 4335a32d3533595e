"""Progress of a running simulation: what a backend reports, and the printer
``spades simulate`` and ``spades tournament`` draw on standard error."""

from __future__ import annotations

import math
import time
from typing import Final, TextIO

import attrs

__all__ = ["MEASURED_SECONDS", "Progress", "ProgressPrinter", "format_duration"]


MEASURED_SECONDS: Final = 1.0
"""How long after the first item ends the work must have run before
:attr:`Progress.seconds_left` gives an estimate."""


@attrs.frozen
class Progress:
    """How far a run is: ``done`` of ``total`` items (deals or games) finished,
    ``hands`` played in them, ``elapsed`` seconds since the start, and
    ``retried`` tasks run again after a failure or a lost worker.

    ``first_ended`` is when (in seconds from the start) the first items
    ended, ``first_items`` how many ended then (``nan`` and 0 before): the
    first items also pay for starting the workers and the players, which
    no later item does, so the time left is worked out from the work after
    them."""

    done: int
    total: int
    hands: int
    elapsed: float
    retried: int = 0
    first_ended: float = math.nan
    first_items: int = 0

    @property
    def rate(self) -> float:
        """Hands per second so far (``nan`` before the first hand is played)."""
        return self.hands / self.elapsed if self.hands and self.elapsed > 0 else math.nan

    @property
    def seconds_left(self) -> float:
        """The time left at the rate the items after the first ones ended at:
        ``nan`` (not known yet) until more items have ended and at least
        :data:`MEASURED_SECONDS` have passed since the first ones; 0 when
        every item is done.

        >>> Progress(1, 100, 2, elapsed=1.9, first_ended=1.9, first_items=1).seconds_left
        nan
        >>> Progress(21, 100, 42, elapsed=3.9, first_ended=1.9, first_items=1).seconds_left
        7.9
        """
        if self.done >= self.total:
            return 0.0
        measured = self.elapsed - self.first_ended
        later = self.done - self.first_items
        if later <= 0 or not measured >= MEASURED_SECONDS:
            return math.nan
        return measured * (self.total - self.done) / later


def format_duration(seconds: float) -> str:
    """A short human duration.

    >>> format_duration(42.4), format_duration(125), format_duration(7300)
    ('42 s', '2 min 5 s', '2 h 1 min')
    """
    if math.isnan(seconds):
        return "unknown"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


class ProgressPrinter:
    """Draws :class:`Progress` on ``stream``: redrawn in place on a terminal (at
    most every ``redraw`` seconds), otherwise one line every ``every`` seconds,
    so that a log shows the run is alive. The first report with a rate is
    drawn at once, whenever it comes. ``unit`` names the items."""

    def __init__(
        self,
        stream: TextIO,
        unit: str,
        *,
        terminal: bool | None = None,
        every: float = 5.0,
        redraw: float = 0.2,
    ) -> None:
        self.stream = stream
        self.unit = unit
        self.terminal = stream.isatty() if terminal is None else terminal
        self.every = every if not self.terminal else redraw
        self._last = -math.inf
        self._drawn = False
        self._rated = False

    def line(self, progress: Progress) -> str:
        """The text shown for ``progress``."""
        percent = 100 * progress.done / progress.total if progress.total else 100.0
        rate = progress.rate
        text = (
            f"{progress.done}/{progress.total} {self.unit} ({percent:.0f}%), "
            f"{progress.hands} hand{'s' * (progress.hands != 1)}, "
            + ("" if math.isnan(rate) else f"{rate:.1f} hands/s, ")
            + self._left(progress)
        )
        if progress.retried:
            text += f", {progress.retried} task(s) retried"
        return text

    @staticmethod
    def _left(progress: Progress) -> str:
        if progress.done == progress.total:
            return "done"
        if math.isnan(progress.seconds_left):
            return "time left not known yet"
        return f"about {format_duration(progress.seconds_left)} left"

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        final = progress.done == progress.total
        first_rate = not self._rated and not math.isnan(progress.rate)
        if not final and not first_rate and now - self._last < self.every:
            return
        self._last = now
        self._rated = self._rated or first_rate
        if self.terminal:
            self.stream.write("\r\x1b[K" + self.line(progress))
            self._drawn = True
            if final:
                self.stream.write("\n")
                self._drawn = False
        else:
            self.stream.write(self.line(progress) + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End a line left open on a terminal (after an interruption)."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False
