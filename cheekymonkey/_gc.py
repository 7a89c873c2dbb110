"""The garbage collector's pause that the searching bots of every game share."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["paused_gc"]


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for a search, and restore it as it was (used by the search bots).

    A search makes many short-lived tuples, which trigger collections that scan everything the program
    holds: pauses of tens of milliseconds in the middle of a decision. Paused, the collection waits until
    the decision is made. Reference counting still frees memory as usual; the search makes no cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
