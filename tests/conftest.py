"""Shared test set-up: hypothesis profiles, chosen by the HYPOTHESIS_PROFILE environment variable, and the browser.

- ``dev`` (the default): quick, for running the suite while working (about 10 seconds for the property and
  stateful tests).
- ``ci``: derandomized, so a CI run is repeatable, and thorough: 300 examples a test, and 300 whole-game runs
  of the state machine (about 20 seconds for the property and stateful tests on 2 cores); ``.ci/run``
  selects it. No example database, so a CI run neither reads nor leaves state behind.

The web front end's browser tests share two fixtures: ``browser``, the machine's Chromium (one per test
module), and ``pages``, which opens pages on it for one test and fails the test on any script error.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.web_support import Pages

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


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    from tests.web_support import chromium  # the web extra, imported only by the tests that need it

    with chromium() as launched:  # without Chromium: fails, saying how to install it
        yield launched


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    from tests.web_support import open_pages

    with open_pages(browser) as opened:
        yield opened


def _secret_games_registered() -> bool:
    from cheekymonkey.games import GAME_NAMES, game_named

    return any(game_named(name).private_information for name in GAME_NAMES)


# The terminal's tests of a registered game with secrets need one installed (CI's Leduc step installs Leduc poker);
# without one the file is not collected at all, rather than collected empty.
collect_ignore = [] if _secret_games_registered() else ["test_cli_secrets_registered.py"]
