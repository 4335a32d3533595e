"""Shared test configuration: Hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` (what ``make test`` sets) is derandomized and
bounded so the whole suite stays within its time budget; ``dev`` explores
more; ``default`` is Hypothesis's own.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=40,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=200, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
