"""The version is said once: the package, its installed metadata and the changelog's newest release agree."""

from __future__ import annotations

import re
from datetime import date
from importlib.metadata import version
from pathlib import Path

import cheekymonkey

ROOT = Path(__file__).resolve().parents[1]


def _sections() -> list[str]:
    return re.findall(r"^## (.+)$", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), flags=re.MULTILINE)


def test_the_package_its_metadata_and_the_changelogs_newest_release_give_one_version() -> None:
    """__version__ equals the installed distribution's version and the newest dated section of CHANGELOG.md."""
    releases = [heading for heading in _sections() if heading != "Unreleased"]
    assert releases, "the changelog has no released version"
    match = re.fullmatch(r"(\d+\.\d+\.\d+) - (\d{4}-\d{2}-\d{2})", releases[0])
    assert match, f"the newest release's heading {releases[0]!r} is not 'X.Y.Z - YYYY-MM-DD'"
    assert match.group(1) == cheekymonkey.__version__ == version("cheekymonkey")
    date.fromisoformat(match.group(2))


def test_unreleased_changes_if_any_come_first_and_releases_are_newest_first() -> None:
    """Only the top section may be Unreleased; the dated sections run from the newest version down."""
    sections = _sections()
    assert "Unreleased" not in sections[1:]
    releases = [
        tuple(int(part) for part in heading.split(" - ")[0].split("."))
        for heading in sections
        if heading != "Unreleased"
    ]
    assert releases == sorted(releases, reverse=True)
    assert len(set(releases)) == len(releases)
