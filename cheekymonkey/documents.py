"""JSON documents: the protocol every game's documents follow.

A built-in game's documents are made with :mod:`cheekymonkey.serialization` (a format described as data, JSON
Schemas beside it); :class:`~cheekymonkey.serialization.generic.GenericDocuments` are what a game gets that
describes none.
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["Documents"]


class Documents(Protocol):
    """A game's JSON documents: each kind of value as a dictionary with a format header, and back."""

    @property
    def format(self) -> str:
        """The format tag written into every document (``"cheekymonkey/1"``)."""
        ...

    @property
    def kinds(self) -> tuple[str, ...]:
        """The document kinds (``"state"``, ``"action"``, ``"record"``, ...)."""
        ...

    def to_document(self, value: Any) -> dict[str, Any]:
        """``value`` as a JSON-ready dictionary with its header."""
        ...

    def from_document(self, document: object, kind: str | None = None) -> Any:
        """The value of a document, checked; a problem raises :class:`~cheekymonkey.errors.CheekyMonkeyError`."""
        ...

    def dumps(self, value: Any, *, indent: int | None = None) -> str:
        """``value`` as JSON text."""
        ...

    def loads(self, text: str | bytes, kind: str | None = None) -> Any:
        """The value of a JSON document, checked."""
        ...
