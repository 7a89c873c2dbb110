"""Leduc poker is a plug-in: the library's package never names it, and finds it only through the entry point."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

LIBRARY = Path(__file__).resolve().parents[3] / "cheekymonkey"


def files_naming(folder: Path, word: str) -> list[Path]:
    """Every text file under ``folder`` that holds ``word`` in any case.

    Binary files (the learned bot's weights, numba's caches) say nothing, and ``__pycache__`` is made, not
    written: a run of bytes that happens to spell the word there names nothing.
    """
    found = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if word.lower() in text.lower():
            found.append(path)
    return found


def test_no_file_of_the_library_names_leduc() -> None:
    assert (LIBRARY / "game.py").is_file()  # the folder searched is the library's own
    assert files_naming(LIBRARY, "leduc") == []


def test_the_search_finds_the_name_in_any_case_in_written_text_files_only(tmp_path: Path) -> None:
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "binding.py").write_text("GAME = 'LeDuC'\n")
    (tmp_path / "deep" / "notes.md").write_text("a game of leduc\n")
    (tmp_path / "other.py").write_text("GAME = 'dice'\n")
    (tmp_path / "weights.npz").write_bytes(b"\xff\xfeleduc")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "binding.pyc").write_bytes(b"leduc")
    assert files_naming(tmp_path, "leduc") == [tmp_path / "deep" / "binding.py", tmp_path / "deep" / "notes.md"]


def test_leduc_registers_only_through_the_entry_point() -> None:
    entries = [entry for entry in importlib.metadata.entry_points(group="cheekymonkey.games") if entry.name == "leduc"]
    assert [(entry.value, entry.dist and entry.dist.name) for entry in entries] == [
        ("cheekymonkey_leduc.game:LEDUC", "cheekymonkey-leduc")
    ]
