"""The one error a loader raises, :class:`DocumentError`, and how it quotes what it was given."""

from __future__ import annotations

import reprlib
from typing import Any, Final

from cheekymonkey.errors import CheekyMonkeyError

__all__ = ["DocumentError"]

_MAX_PROBLEMS: Final = 20
_PROBLEMS_SHOWN: Final = 3  # in the message; .problems keeps up to _MAX_PROBLEMS
_MAX_TEXT: Final = 200


class DocumentError(CheekyMonkeyError, ValueError):
    """A JSON document that cannot be loaded: malformed, truncated, tampered with, or from a newer version.

    Attributes:
        kind: The kind of document that was expected or declared, or None if not known.
        path: Where the (first) problem is, as a JSON path (``$`` is the whole document).
        reason: What is wrong there, in words.
        problems: The problems found (the first 20), each as ``(path, reason)``; the first is ``(path, reason)``.
            The message shows the first three, and how many more there are.
    """

    def __init__(self, kind: str | None, problems: list[tuple[str, str]]) -> None:
        # Every part is clipped: a hostile document must not come back as a message of megabytes.
        self.kind = None if kind is None else _clip(kind)
        self.problems = tuple((_clip(path), _clip(reason)) for path, reason in problems[:_MAX_PROBLEMS])
        self.path, self.reason = self.problems[0]
        what = f"invalid {self.kind} document" if self.kind else "invalid document"
        shown = self.problems[:_PROBLEMS_SHOWN]
        listed = "; ".join(f"at {path}: {reason}" for path, reason in shown)
        more = len(problems) - len(shown)
        super().__init__(f"{what} {listed}" + (f"; and {more} more problems" if more > 0 else ""))

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its own arguments, so it survives pickling (a process pool sends it back) and copy.
        # The message travels too: it counts problems beyond the first 20, which are not kept.
        return (self.__class__, (self.kind, list(self.problems)), {"args": self.args})


class BadValue(ValueError):
    """A value in a document that is not what its field needs; the message says what is wrong."""


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."


_REPR: Final = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlevel = 2


def describe(value: object) -> str:
    """``value`` quoted for an error message: at most 60 characters, however large the value."""
    # reprlib bounds the work as well as the text: a huge value is never turned into a string whole.
    try:
        text = _REPR.repr(value)
    except ValueError:  # an integer of more digits than Python turns into text
        return f"an integer of {value.bit_length()} bits" if isinstance(value, int) else "a huge value"
    return text if len(text) <= 60 else text[:57] + "..."


# The class's public home: tracebacks and pickles name it cheekymonkey.serialization.DocumentError.
DocumentError.__module__ = "cheekymonkey.serialization"
