"""What every training recipe shares: its options, checkpoints, a progress line, and the weights file.

A run is a sequence of units of work (a collection of examples, an epoch of the fit); after every
``checkpoint_every`` of them, and after the last of each stage, the run writes a checkpoint (PyTorch's file,
``checkpoint-NNNNN.pt``) holding everything the rest of the run depends on: the network, the optimiser and
its schedule, the random generator, and which unit comes next. Collected examples are written once, beside
them, as ``.npz`` files. A resumed run starts from the latest checkpoint and gives the same bytes as a run
never stopped, because nothing it does after a checkpoint depends on anything the checkpoint does not hold.
"""

from __future__ import annotations

import os
import pathlib
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import numpy.typing as npt
from attrs import frozen

from cheekymonkey.errors import CheekyMonkeyError, InvalidValueError

__all__ = ["Progress", "Run", "TrainingOptions", "TrainingStoppedError", "write_npz"]

_CHECKPOINT = "checkpoint-{:05d}.pt"
_KEEP = 2
"""Checkpoints kept in the folder: the latest and the one before it (the rest are removed)."""


class TrainingStoppedError(CheekyMonkeyError):
    """The run stopped after the checkpoint ``stop_after`` asked for; ``--resume`` goes on from it."""


@frozen
class TrainingOptions:
    """One training run: what it learns, how much work it does, and where it keeps its checkpoints.

    Attributes:
        game: The game's registered name.
        seed: Seeds every game, draw and initialisation of the run: the same seed gives the same weights.
        budget: The share of the recipe's work (examples and updates; epochs stay): 1 is the recipe that made
            the shipped weights, 0.01 a hundredth of it.
        checkpoint_dir: Where checkpoints go (None: no checkpoints).
        checkpoint_every: Epochs between two checkpoints within a fit.
        resume: Go on from the latest checkpoint in ``checkpoint_dir``.
        stop_after: Stop after writing this many checkpoints (None: run to the end).
    """

    game: str
    seed: int
    budget: float = 1.0
    checkpoint_dir: pathlib.Path | None = None
    checkpoint_every: int = 1
    resume: bool = False
    stop_after: int | None = None

    def scaled(self, count: int, least: int = 1) -> int:
        """``count`` units of the full recipe's work, scaled by the budget (at least ``least``)."""
        return max(least, round(count * self.budget))

    def identity(self) -> dict[str, Any]:
        """What a checkpoint must have been made with to be resumed by this run."""
        return {"game": self.game, "seed": self.seed, "budget": self.budget}


class Progress:
    """A progress bar on ``stream`` (standard error): redrawn in place at a terminal, plain lines elsewhere.

    Elsewhere (a pipe, a log file) a line is written at each tenth of a stage and at its end, so a log
    says how far a run went without a line per update.
    """

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self.width = width
        self.name = ""
        self.total = 1
        self.done = 0
        self._tenth = -1
        self._drawn = 0.0
        self._length = 0

    def stage(self, name: str, total: int) -> None:
        """Start a stage of ``total`` units of work."""
        self.finish()
        self.name, self.total, self.done, self._tenth = name, max(total, 1), 0, -1
        self._draw(force=True)

    def advance(self, units: int = 1) -> None:
        """Record ``units`` more units of the stage done."""
        self.done = min(self.total, self.done + units)
        self._draw(force=self.done == self.total)

    def note(self, message: str) -> None:
        """A line of its own between bars (what a stage found)."""
        self.finish()
        self.stream.write(message + "\n")
        self.stream.flush()

    def finish(self) -> None:
        """End the current bar's line at a terminal."""
        if self.terminal and self._length:
            self.stream.write("\n")
            self.stream.flush()
            self._length = 0

    def _text(self) -> str:
        share = self.done / self.total
        filled = int(share * self.width)
        return f"[{'#' * filled}{'.' * (self.width - filled)}] {share:4.0%} {self.name}: {self.done:,}/{self.total:,}"

    def _draw(self, force: bool) -> None:
        if self.terminal:
            now = time.monotonic()
            if not force and now - self._drawn < 0.2:
                return
            self._drawn = now
            text = self._text()
            self.stream.write("\r" + text.ljust(self._length))
            self._length = len(text)
        else:
            tenth = self.done * 10 // self.total
            if tenth == self._tenth:
                return
            self._tenth = tenth
            self.stream.write(self._text() + "\n")
        self.stream.flush()


def write_npz(path: Path, arrays: Mapping[str, npt.NDArray[Any]], *, compressed: bool) -> None:
    """Write ``arrays`` to ``path`` as numpy's ``.npz``, whole or not at all (a temporary file renamed).

    numpy dates every member of the archive 1 January 1980, so the same arrays give the same bytes.
    """
    folder = path.resolve().parent
    handle, name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".npz")
    try:
        with os.fdopen(handle, "wb") as file:
            save: Callable[..., None] = np.savez_compressed if compressed else np.savez
            save(file, **arrays)
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


class Run:
    """A run's checkpoints and progress: where it stands, and what to write after each unit of work.

    Raises:
        InvalidValueError: If the folder holds checkpoints but ``resume`` is not set, if ``resume`` is set
            without a folder, or if its latest checkpoint was made by another game, seed or budget.
    """

    def __init__(self, options: TrainingOptions, progress: Progress) -> None:
        self.options = options
        self.progress = progress
        self.folder = options.checkpoint_dir
        self.written = 0
        self.latest: dict[str, Any] | None = None
        if self.folder is None:
            if options.resume:
                raise InvalidValueError("--resume needs --checkpoint-dir: the folder to resume from")
            return
        if self.folder.exists() and not self.folder.is_dir():
            raise InvalidValueError(f"the checkpoint folder {self.folder} is a file")
        self.folder.mkdir(parents=True, exist_ok=True)
        found = self._checkpoints()
        if found and not options.resume:
            raise InvalidValueError(
                f"{self.folder} already holds checkpoints: pass --resume to go on from the latest, or name an "
                "empty folder"
            )
        if options.resume and found:
            self.latest = self._load(found[-1])
            made = self.latest.get("identity")
            if made != options.identity():
                raise InvalidValueError(
                    f"the latest checkpoint in {self.folder} was made by another run ({made}), not {options.identity()}"
                )
            self.written = int(self.latest["serial"])

    def _checkpoints(self) -> list[Path]:
        assert self.folder is not None
        return sorted(self.folder.glob("checkpoint-*.pt"))

    @staticmethod
    def _load(path: Path) -> dict[str, Any]:
        import torch

        try:
            payload: dict[str, Any] = torch.load(path, weights_only=True)
        except Exception as error:  # any unreadable file: a clear error, not a traceback
            raise InvalidValueError(f"cannot read the checkpoint {path}: {error}") from None
        return payload

    def data_path(self, name: str) -> Path | None:
        """Where a stage's examples are kept (None without a checkpoint folder)."""
        return None if self.folder is None else self.folder / f"{name}.npz"

    def save_data(self, name: str, arrays: Mapping[str, npt.NDArray[Any]]) -> None:
        """Keep a stage's examples beside the checkpoints (nothing without a folder)."""
        path = self.data_path(name)
        if path is not None:
            write_npz(path, arrays, compressed=False)

    def load_data(self, name: str) -> dict[str, npt.NDArray[Any]]:
        """A stage's examples, as :meth:`save_data` kept them."""
        path = self.data_path(name)
        if path is None or not path.is_file():
            raise InvalidValueError(f"the checkpoint folder lacks {name}.npz, which its latest checkpoint needs")
        with np.load(path, allow_pickle=False) as archive:
            return {key: archive[key] for key in archive.files}

    def checkpoint(self, payload: dict[str, Any]) -> None:
        """Write a checkpoint (nothing without a folder); stop the run if it is the last one asked for."""
        if self.folder is None:
            return
        import torch

        self.written += 1
        payload = {**payload, "identity": self.options.identity(), "serial": self.written}
        path = self.folder / _CHECKPOINT.format(self.written)
        handle, name = tempfile.mkstemp(dir=self.folder, prefix=".checkpoint.", suffix=".pt")
        os.close(handle)
        torch.save(payload, name)
        os.replace(name, path)
        for old in self._checkpoints()[:-_KEEP]:
            old.unlink()
        if self.options.stop_after is not None and self.written >= self.options.stop_after:
            raise TrainingStoppedError(
                f"stopped after checkpoint {self.written} ({path}); run again with --resume to go on"
            )
