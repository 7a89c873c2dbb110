"""Shared test set-up: hypothesis profiles, chosen by the HYPOTHESIS_PROFILE environment variable.

- ``dev`` (the default): quick, for running the suite while working.
- ``ci``: derandomized and thorough; ``.ci/run`` selects it.
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
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
