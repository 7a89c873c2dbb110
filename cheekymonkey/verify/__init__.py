"""Proofs of a game's rules, found through the game: what ``cheekymonkey verify`` runs.

A game that offers proofs has a ``proofs()`` method returning them (:class:`Proofs`: the function that
proves a rule set and prints the report); the proofs usually need z3 (the ``verify`` extra: ``pip install
'cheekymonkey[verify]'``), which no game's binding may import, so ``proofs()`` imports them when called.
A game without that method offers none, and ``cheekymonkey verify`` says so. Cheeky Monkey's prove its
scoring rules (:mod:`cheekymonkey.cheeky.verify`), Too Many Monkeys' its deck and turn
(:mod:`cheekymonkey.toomany.verify`).

>>> from cheekymonkey.games import game_named
>>> proofs_of(game_named("cheeky-monkey")).__module__
'cheekymonkey.cheeky.verify.command'

The names Cheeky Monkey's proofs had here first (``from cheekymonkey.verify import verify_ruleset``) still
import, with a :class:`DeprecationWarning` naming their new home.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from cheekymonkey import _moved

__all__ = ["Proofs", "proofs_of"]


class Proofs(Protocol):
    """A game's proofs, as ``cheekymonkey verify`` runs them: a function of the command's arguments."""

    def __call__(
        self, preset: str, document: Path | None, players: Sequence[int] | None, fail: Callable[[str], int], /
    ) -> int:
        """Prove the rule set and print the report; the exit status (0 proved, 1 refuted, 2 ``fail``'s).

        Args:
            preset: The name of one of the game's preset rule sets, used when ``document`` is None.
            document: A file holding a ``ruleset`` document of the game, or None.
            players: The seat counts to prove, or None for the game's own choice.
            fail: Prints a one-line error and returns 2; for input that cannot be used.
        """
        ...


def proofs_of(game: Any) -> Proofs | None:
    """The proofs ``game`` offers, or None if it offers none.

    Raises:
        ImportError: If the proofs need a module that is not installed (z3, from the ``verify`` extra).
    """
    offer: Callable[[], Proofs] | None = getattr(game, "proofs", None)
    return None if offer is None else offer()


def __getattr__(name: str) -> object:
    # Cheeky Monkey's proofs, where they were first: now in cheekymonkey.cheeky.verify.
    return _moved.moved_attribute(__name__, name)
