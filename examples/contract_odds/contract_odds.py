"""Contract odds from many deals, with spades_core.batch.

Mirror Spades forces every bid: a partnership's contract is the number of
spades it holds. How often does it make that contract? This plays
``--deals`` Mirror hands twice (easy players, random players), counts the
contracts made by the partnership's spade count, and draws the rates as a
chart. It then plays as many classic hands with easy and with random
players and prints how often each partnership contract (the two bids added
up) is made.

    pip install -r examples/contract_odds/requirements.txt
    python examples/contract_odds/contract_odds.py                  # 20,000 deals, seconds
    python examples/contract_odds/contract_odds.py --deals 1000000  # the docs' figures, a minute

Writes ``contract_odds.png`` and ``classic_contracts.md`` (a Markdown table
under its title) to ``--out`` (default ``build/contract_odds``, never the
repository's own files), and prints the chart's title and path, then the
table with its title.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no window

import matplotlib.pyplot as plt
import numpy as np
import numpy.typing as npt

from spades_core import batch
from spades_core.options import NilTricks, Rules

Counts = npt.NDArray[np.int64]
MIN_SAMPLE = 100
"""Spade counts held by fewer partnerships are left off the chart."""
DEFAULT_DEALS = 20_000
"""Enough for the chart's shape in seconds; the docs' figures use a million."""
DEFAULT_OUT = Path("build") / "contract_odds"
"""Where the files go unless ``--out`` says otherwise: the build directory,
so that a run never replaces the chart the documentation shows."""


def made_contracts(
    result: batch.BatchResult, rules: Rules
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
    """Each partnership's contract and whether it was made, ``(n, 2)`` each
    (teams NS, EW). Nil bids count 0; under ``bags_only`` a Nil bidder's
    tricks do not count toward the partner's contract."""
    bids = result.bids.astype(np.int64)
    tricks = result.tricks.astype(np.int64)
    if rules.nil_tricks is not NilTricks.COUNT_TOWARD_CONTRACT:
        tricks = np.where(bids == 0, 0, tricks)
    contract = bids[:, 0:2] + bids[:, 2:4]
    counted = tricks[:, 0:2] + tricks[:, 2:4]
    return contract.astype(np.int8), counted >= contract


def rates_by_contract(result: batch.BatchResult, rules: Rules) -> tuple[Counts, Counts]:
    """Partnerships with each contract 0-13, and how many of them made it."""
    contract, made = made_contracts(result, rules)
    seen = np.bincount(contract.reshape(-1), minlength=14).astype(np.int64)
    succeeded = np.bincount(contract.reshape(-1), weights=made.reshape(-1), minlength=14)
    return seen, succeeded.astype(np.int64)


def mirror_chart(deals: int, out: Path) -> Path:
    """Play ``deals`` Mirror hands per policy and draw made rates by team spade count."""
    rules = batch_rules("mirror")
    figure, rates_axis = plt.subplots(figsize=(8, 4.8), dpi=110)
    share_axis = rates_axis.twinx()
    counts = np.arange(14)
    seen = np.zeros(14, dtype=np.int64)
    for policy, colour in (("easy", "#1f5fa8"), ("random", "#d9822b")):
        result = batch.play_hands("mirror", range(deals), policy=policy, rng=1)
        seen, made = rates_by_contract(result, rules)
        # A rate from a handful of partnerships is noise, not a finding.
        shown = seen >= MIN_SAMPLE
        rates = np.divide(100 * made, seen, out=np.zeros(14), where=shown)
        rates_axis.plot(
            counts[shown], rates[shown], marker="o", color=colour, label=f"{policy} players"
        )
    share_axis.bar(counts, 100 * seen / seen.sum(), color="#bbbbbb", alpha=0.45, width=0.8)
    share_axis.set_ylabel("partnerships holding that many spades (%)", color="#777777")
    share_axis.tick_params(axis="y", colors="#777777")
    rates_axis.set_zorder(share_axis.get_zorder() + 1)
    rates_axis.patch.set_visible(False)
    rates_axis.set_xticks(counts)
    rates_axis.set_ylim(0, 105)
    rates_axis.set_xlabel(
        f"spades held by the partnership (= its forced contract); "
        f"counts seen under {MIN_SAMPLE} times not drawn"
    )
    rates_axis.set_ylabel("contracts made (%)")
    rates_axis.set_title(f"Mirror Spades: forced contracts made, {deals:,} deals")
    rates_axis.grid(alpha=0.3)
    rates_axis.legend(loc="lower left")
    figure.tight_layout()
    path = out / "contract_odds.png"
    figure.savefig(path)
    plt.close(figure)
    return path


def classic_table(deals: int) -> str:
    """Made-contract rates by partnership contract in classic, for easy and
    for random players, as a Markdown table under its title."""
    rules = batch_rules("classic")
    columns = [
        rates_by_contract(batch.play_hands("classic", range(deals), policy=policy, rng=2), rules)
        for policy in ("easy", "random")
    ]
    lines = [
        f"Classic Spades: partnership contracts (the two bids added up) made, {deals:,} deals "
        "with easy players and as many with random players",
        "",
        "| contract | easy: partnerships | easy: made | random: partnerships | random: made |",
        "|---:|---:|---:|---:|---:|",
    ]
    for contract in range(14):
        cells = [str(contract)]
        for seen, made in columns:
            if seen[contract]:
                cells += [f"{seen[contract]:,}", f"{100 * made[contract] / seen[contract]:.1f}%"]
            else:
                cells += ["0", "-"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def batch_rules(variant: str) -> Rules:
    """The default rules of a built-in variant."""
    from spades_core import load_variant

    return load_variant(variant).rules()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the study and write the chart and the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--deals",
        type=int,
        default=DEFAULT_DEALS,
        help=f"deals per study (default {DEFAULT_DEALS:,})",
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"output directory (default {DEFAULT_OUT})"
    )
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    args.out.mkdir(parents=True, exist_ok=True)
    chart = mirror_chart(args.deals, args.out)
    table = classic_table(args.deals)
    (args.out / "classic_contracts.md").write_text(table, encoding="utf-8")
    print(
        f"Mirror Spades: forced contracts made by the partnership's spade count, {args.deals:,} "
        f"deals with easy players and as many with random players, charted in {chart}"
    )
    print()
    print(table, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
