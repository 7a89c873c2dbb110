"""Proofs of a game's rules, found through the game: what ``cheekymonkey verify`` runs.

A game that offers proofs declares them (``capabilities.proofs``, :class:`~cheekymonkey.game.Capabilities`)
and its ``proofs()`` returns them (:class:`Proofs`: the function that proves a rule set and prints the
report); the proofs usually need z3 (the ``verify`` extra: ``pip install 'cheekymonkey[verify]'``), which no
game's binding may import, so ``proofs()`` imports them when called. A game that declares none offers
none, and ``cheekymonkey verify`` says so. Cheeky Monkey's prove its
scoring rules (:mod:`cheekymonkey.cheeky.verify`), Too Many Monkeys' its deck and turn
(:mod:`cheekymonkey.toomany.verify`).

>>> from cheekymonkey.games import game_named
>>> proofs_of(game_named("cheeky-monkey")).__module__
'cheekymonkey.cheeky.verify.command'
"""

from __future__ import annotations

from typing import Any

from cheekymonkey.game import Game, Proofs

__all__ = ["Proofs", "proofs_of"]


def proofs_of(game: Game[Any, Any, Any, Any, Any]) -> Proofs | None:
    """The proofs ``game`` offers (its :meth:`~cheekymonkey.Game.proofs`), or None if it declares none.

    Raises:
        ImportError: If the proofs need a module that is not installed (z3, from the ``verify`` extra).
    """
    return game.proofs() if game.capabilities.proofs else None
