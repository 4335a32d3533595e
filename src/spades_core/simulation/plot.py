"""A picture of a tournament: the ratings with their intervals and the matrix
of pairwise margins. Needs matplotlib (extra ``spades-core[plot]``), imported
only when a picture is drawn."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Final

from spades_core.simulation.backends import SimulationError
from spades_core.simulation.roundrobin import TournamentResult
from spades_core.values.errors import RulesError

__all__ = ["PLOT_FORMATS", "PlotError", "check_plot_path", "plot_tournament"]

PLOT_FORMATS: Final = (".svg", ".png")
"""The picture formats, by file suffix."""


class PlotError(SimulationError):
    """A picture cannot be drawn: matplotlib is missing or the file cannot be written."""


def check_plot_path(path: str | Path) -> Path:
    """``path`` as a :class:`~pathlib.Path` after checking, before any work,
    its suffix (:class:`~spades_core.RulesError`) and that matplotlib is
    installed (:class:`PlotError`), so that a long run is not played for a
    picture that cannot be drawn."""
    target = Path(path)
    if target.suffix.lower() not in PLOT_FORMATS:
        raise RulesError(f"a plot is saved as {' or '.join(PLOT_FORMATS)}; got {str(path)!r}")
    _pyplot()
    return target


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise PlotError(
            "drawing a plot needs matplotlib: pip install 'spades-core[plot]'"
        ) from error
    return plt


def plot_tournament(result: TournamentResult, path: str | Path) -> Path:
    """Draw ``result`` to ``path`` (``.svg`` or ``.png``) and return the path.

    On the left each player's rating (bag-adjusted margin per hand against the
    field) with its 95% interval; on the right the pairwise matrix, row player
    minus column player, bag-adjusted points per hand.
    """
    target = check_plot_path(path)
    plt = _pyplot()  # imported already: check_plot_path drew it in
    names = list(result.players)
    n = len(names)
    order = sorted(range(n), key=lambda i: _sortable(result.ratings[i].value))
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(5 + 1.6 * n, 1.2 + 0.8 * n), gridspec_kw={"width_ratios": [1, 1.3]}
    )
    values = [result.ratings[i].value for i in order]
    errors = [
        [_half(result.ratings[i].value - result.ratings[i].low) for i in order],
        [_half(result.ratings[i].high - result.ratings[i].value) for i in order],
    ]
    left.errorbar(values, range(n), xerr=errors, fmt="o", color="#3f51b5", capsize=4)
    left.axvline(0, color="#999999", linewidth=0.8)
    left.set_yticks(range(n), [names[i] for i in order])
    left.set_xlabel("bag-adjusted points per hand vs the field")
    left.set_title("Rating (95% interval)")
    matrix = [
        [math.nan if i == j else result.margin(i, j).value for j in range(n)] for i in range(n)
    ]
    finite = [abs(v) for row in matrix for v in row if not math.isnan(v)]
    limit = max(finite, default=1.0) or 1.0
    image = right.imshow(matrix, cmap="RdBu", vmin=-limit, vmax=limit)
    for i in range(n):
        for j in range(n):
            if i != j:
                strong = abs(matrix[i][j]) > 0.6 * limit
                right.text(
                    j,
                    i,
                    f"{matrix[i][j]:+.1f}",
                    ha="center",
                    va="center",
                    fontsize=9,
                    color="white" if strong else "black",
                )
    right.set_xticks(range(n), names, rotation=30, ha="right")
    right.set_yticks(range(n), names)
    right.set_title("Row minus column, points per hand")
    figure.colorbar(image, ax=right, shrink=0.8)
    mode = "duplicate deals" if result.duplicate else "deals"
    if result.mode == "games":
        mode = "games"
    figure.suptitle(
        f"{result.variant}: {result.count} {mode} per pairing, seed {result.seed}", fontsize=11
    )
    figure.tight_layout()
    # No date in the file: the same result draws the same picture.
    metadata = {"Date": None} if target.suffix.lower() == ".svg" else {}
    try:
        figure.savefig(target, metadata=metadata)
    except OSError as error:
        raise PlotError(f"cannot write the plot to {str(target)!r}: {error}") from error
    finally:
        plt.close(figure)
    return target


def _half(value: float) -> float:
    return 0.0 if math.isnan(value) else value


def _sortable(value: float) -> float:
    return -math.inf if math.isnan(value) else value
