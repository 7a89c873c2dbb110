"""A refused move told to a player, for every front end: each rule number it cites followed by the rule's title.

The library's reasons cite rules by number (``"... (R7)"``, ``"... (TM11)"``), which a player cannot look up.
:func:`refusal_text` gives such a reason the words a player reads, the same at the terminal and on the page:
each number followed by its rule's title (``"rule R7, Claims"``). The titles are the game's own, in the
``rule_words`` module of the package its binding lives in (:func:`rules_of`); a game without one (a plug-in)
has its reasons shown as they are.

>>> from cheekymonkey.games import game_named
>>> print(refusal_text(game_named("cheeky-monkey"), "you can claim only the animal just drawn (R7)"))
you can claim only the animal just drawn (rule R7, Claims)
"""

from __future__ import annotations

import importlib
from typing import Protocol, cast

from cheekymonkey.games import AnyGame

__all__ = ["RuleWords", "refusal_text", "rules_of"]


class RuleWords(Protocol):
    """A game's rules in words: what its ``rule_words`` module offers."""

    RULES: dict[str, tuple[str, str]]
    """Each rule's title and text, by its number (``"R7"``)."""

    def in_words(self, text: str) -> str:
        """``text`` with each rule number it cites followed by the rule's title."""
        ...

    def rule_text(self, number: str) -> str | None:
        """A rule's number, title and text on one line; None for no such rule."""
        ...


def rules_of(game: AnyGame) -> RuleWords | None:
    """The game's rules in words (the ``rule_words`` module beside its binding), or None for a game without one.

    >>> from cheekymonkey.games import game_named
    >>> rules_of(game_named("too-many-monkeys")).RULES["TM11"][0]
    'Wild monkey'
    """
    package = type(game).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.rule_words")
    except ImportError:
        return None
    return cast(RuleWords, module)


def refusal_text(game: AnyGame, text: str) -> str:
    """A message for a player with each rule number it cites followed by the rule's title (``rule R7, Claims``)."""
    rules = rules_of(game)
    return text if rules is None else str(rules.in_words(text))
