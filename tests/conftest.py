"""Shared test set-up: hypothesis profiles, chosen by the HYPOTHESIS_PROFILE environment variable.

- ``dev`` (the default): quick, for running the suite while working (about 10 seconds for the property and
  stateful tests).
- ``ci``: derandomized, so a CI run is repeatable, and thorough: 300 examples a test, and 300 whole-game runs
  of the state machine (about 20 seconds for the property and stateful tests on 2 cores); ``.ci/run``
  selects it. No example database, so a CI run neither reads nor leaves state behind.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile(
    "ci",
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
