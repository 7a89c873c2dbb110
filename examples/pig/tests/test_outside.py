"""Pig is a plug-in: the library's package never names it, and finds it only through the entry point."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

LIBRARY = Path(__file__).resolve().parents[3] / "cheekymonkey"


def files_naming(folder: Path, word: str) -> list[Path]:
    """Every file under ``folder`` whose bytes hold ``word`` in any case (binary files too)."""
    needle = word.lower().encode()
    return sorted(path for path in folder.rglob("*") if path.is_file() and needle in path.read_bytes().lower())


def test_no_file_of_the_library_names_pig() -> None:
    assert (LIBRARY / "game.py").is_file()  # the folder searched is the library's own
    assert files_naming(LIBRARY, "pig") == []


def test_the_search_finds_a_name_in_any_case(tmp_path: Path) -> None:
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "binding.py").write_text("GAME = 'PiG'\n")
    (tmp_path / "other.py").write_text("GAME = 'dice'\n")
    assert files_naming(tmp_path, "pig") == [tmp_path / "deep" / "binding.py"]


def test_pig_registers_only_through_the_entry_point() -> None:
    entries = [entry for entry in importlib.metadata.entry_points(group="cheekymonkey.games") if entry.name == "pig"]
    assert [(entry.value, entry.dist and entry.dist.name) for entry in entries] == [
        ("cheekymonkey_pig.game:PIG", "cheekymonkey-pig")
    ]
