"""The README's Python passes ``mypy --strict``: a newcomer who copies it into
a typed project meets no error (``tests/test_docs.py`` runs it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Final

from test_docs import code_blocks

ROOT: Final = Path(__file__).resolve().parent.parent
README: Final = ROOT / "README.md"


def readme_python() -> str:
    """The README's ``python`` blocks, in order, as one program."""
    text = README.read_text(encoding="utf-8")
    return "".join(code for _, language, code in code_blocks(text) if language == "python")


def test_the_readme_has_python_to_check() -> None:
    assert "import spades_core as sc" in readme_python()


def test_the_readme_python_passes_mypy_strict(tmp_path: Path) -> None:
    program = tmp_path / "readme_example.py"
    program.write_text(readme_python(), encoding="utf-8")
    # From the checkout, so that mypy reads the project's configuration and cache.
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", str(program)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
