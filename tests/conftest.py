"""Shared test configuration: Hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` (what ``make test`` sets) is derandomized and
bounded so the whole suite stays within its time budget. ``random`` is as
bounded but draws new examples from the seed given with ``--hypothesis-seed``
(``make test`` runs the property tests once more with it and prints the seed,
so a failure can be reproduced); ``dev`` explores more. A plain ``pytest``
uses ``local``: Hypothesis's defaults without the per-example deadline, which
a busy machine would trip without anything being wrong. ``quick`` (what
``make quick`` sets) is ``ci`` on fewer examples.
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
settings.register_profile(
    "random",
    derandomize=False,
    max_examples=40,
    deadline=None,
    print_blob=True,
    # Examples saved by earlier runs would make a run depend on more than its seed.
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=200, deadline=None)
# make quick: the same checks on fewer examples.
settings.register_profile(
    "quick",
    derandomize=True,
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("local", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "local"))
