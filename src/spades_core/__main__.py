"""``python -m spades_core``: the ``spades`` command line."""

from __future__ import annotations

import sys

from spades_core.cli import main

if __name__ == "__main__":
    sys.exit(main())
