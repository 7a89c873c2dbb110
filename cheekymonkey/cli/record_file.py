"""Saving a game record as the game goes, so that no game is lost (``cheekymonkey play --record``).

The file is claimed before the first move: a path that cannot be written, or an existing file (unless
overwriting was asked for), is refused at once, before anybody plays. Every save writes the whole record
to a temporary file beside the target and renames it over the target, so the file always holds either
the previous record or the new one, never a mixture, whatever happens while saving. The game saves after
every move, so a killed process loses at most the move in progress.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import tempfile
from pathlib import Path
from typing import Any

from cheekymonkey.cli.options import OptionError, check_output_file
from cheekymonkey.documents import Documents

__all__ = ["RecordFile", "RecordFileError", "default_record_path"]


class RecordFileError(Exception):
    """A record file that cannot be claimed or written; the message says which file and why."""


def default_record_path(directory: Path | None = None) -> Path:
    """A new file name in ``directory`` (the current one by default), from the time: never an existing file."""
    stamp = datetime.datetime.now(tz=datetime.UTC).strftime("%Y%m%d-%H%M%S")
    base = (directory or Path()) / f"cheekymonkey-{stamp}"
    path = base.with_suffix(".json")
    number = 1
    while path.exists():
        number += 1
        path = Path(f"{base}-{number}.json")
    return path


class RecordFile:
    """A game record's file, claimed before the game and saved atomically after every move.

    Args:
        path: Where to save.
        overwrite: Whether an existing file there may be replaced.
        documents: The game's documents, which write its records (default: the default game's).

    Raises:
        RecordFileError: If the file exists (and ``overwrite`` is false), or cannot be written.
        ImportError: If the documents need an extra that is not installed.
    """

    def __init__(self, path: Path, *, overwrite: bool = False, documents: Documents | None = None) -> None:
        if documents is None:
            from cheekymonkey.games import DEFAULT_GAME, game_named

            documents = game_named(DEFAULT_GAME).documents()
        self.documents = documents
        self.path = path
        self.saves = 0
        try:
            check_output_file(path)  # the check every output file of every command gets
        except OptionError as error:
            raise RecordFileError(f"cannot save the record: {error}") from None
        if not overwrite:
            try:
                # Claim the name at once (O_EXCL: only if no file has it), so a record is never overwritten.
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                raise RecordFileError(
                    f"{str(path)!r} already exists: choose another file, or add --overwrite to replace it"
                ) from None
            except OSError as error:
                raise RecordFileError(f"cannot save the record to {str(path)!r}: {error.strerror}") from None
            os.close(descriptor)
        else:
            # Check that the directory takes a new file, the way every save will write one.
            self._write_temporary("").unlink()

    def _write_temporary(self, text: str) -> Path:
        try:
            descriptor, name = tempfile.mkstemp(
                prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent if str(self.path.parent) else "."
            )
        except OSError as error:
            raise RecordFileError(f"cannot save the record to {str(self.path)!r}: {error.strerror}") from None
        temporary = Path(name)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                file.write(text)
        except OSError as error:
            temporary.unlink(missing_ok=True)
            raise RecordFileError(f"cannot save the record to {str(self.path)!r}: {error.strerror}") from None
        return temporary

    def save(self, record: Any) -> None:
        """Write ``record`` over the file, atomically: a temporary file beside it, then a rename.

        Raises:
            RecordFileError: If it cannot be written; the file then still holds the last record saved.
        """
        temporary = self._write_temporary(self.documents.dumps(record, indent=2) + "\n")
        try:
            os.replace(temporary, self.path)
        except OSError as error:
            with contextlib.suppress(OSError):
                temporary.unlink()
            raise RecordFileError(f"cannot save the record to {str(self.path)!r}: {error.strerror}") from None
        self.saves += 1
