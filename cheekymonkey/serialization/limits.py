"""How much a loader takes on before it refuses a document."""

from __future__ import annotations

from typing import Final

import attrs

__all__ = ["LIMITS", "Limits"]


@attrs.frozen(slots=True)
class Limits:
    """How much a loader takes on before it refuses a document, checked before the work that it bounds.

    The defaults are far above anything play writes (a long game's record is about 200 actions and 10 kB)
    and keep a hostile document from costing much time or memory: pass larger limits to load more.

    >>> from cheekymonkey import new_game
    >>> from cheekymonkey.cheeky.documents import dump_state, load_state
    >>> load_state(dump_state(new_game(2)), limits=Limits(max_bytes=100))
    Traceback (most recent call last):
        ...
    cheekymonkey.serialization.DocumentError: invalid state document at $: the document is ... over the limit of 100
    """

    max_bytes: int = 16_000_000
    """The largest document, in bytes of UTF-8 (the text is measured before it is parsed)."""
    max_depth: int = 32
    """The deepest nesting of objects and lists (the documents this library writes nest 5 deep at most)."""
    max_actions: int = 100_000
    """The most actions a record may hold (checked before any action is read or replayed)."""


LIMITS: Final = Limits()
"""The default :class:`Limits`."""
