"""bench/opcode_counts.py counts what a checked hand runs, by function."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "opcode_counts.py"


def test_it_counts_a_call_of_the_play_transition_for_each_card_of_a_hand() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--hands", "3", "--warm-up", "0", "--top", "60"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    lines = done.stdout.splitlines()
    total = re.fullmatch(r"bytecodes a hand: ([\d,]+); calls a hand: ([\d,.]+)", lines[0])
    assert total is not None, lines[0]
    rows = {}
    for line in lines[2:]:
        count, calls, function = line.split(maxsplit=2)
        rows[function] = (int(count.replace(",", "")), float(calls))
    # Every hand plays 52 cards, each through the play transition once.
    assert rows["game.py: play_unchecked"][1] == 52.0
    assert rows["game.py: play_unchecked"][0] > 0
    assert sum(count for count, _ in rows.values()) <= int(total[1].replace(",", "")) + 60
