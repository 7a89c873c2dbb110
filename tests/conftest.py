"""Shared test set-up: hypothesis profiles, chosen by the HYPOTHESIS_PROFILE environment variable.

- ``dev`` (the default): quick, for running the suite while working (about 10 seconds for the property and
  stateful tests).
- ``ci``: derandomized, so a CI run is repeatable, and thorough: 300 examples a test, and 300 whole-game runs
  of the state machine (about 20 seconds for the property and stateful tests on 2 cores); ``.ci/run``
  selects it. No example database, so a CI run neither reads nor leaves state behind.
"""

from __future__ import annotations

import os

import pytest
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


def pytest_configure(config: pytest.Config) -> None:
    """Let hypothesis report a failure cleanly under the suite's ``filterwarnings = error``.

    On a failing example hypothesis imports libcst to suggest a patch, and that import warns
    (``mypy_extensions.TypedDict is deprecated``); as an error, the warning turns the failure into a
    pytest INTERNALERROR that hides which test failed and why.
    """
    config.addinivalue_line("filterwarnings", "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning")
