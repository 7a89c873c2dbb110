"""Leduc poker's rule set and its cards: the ante, the raise of each round, the raises a round allows.

The figures are OpenSpiel's ``leduc_poker`` (``open_spiel/games/leduc_poker``). The deck has two suits of
``players + 1`` ranks, J, Q, K (then A and on at more seats); a card is its index, rank ``index // 2`` and
suit ``index % 2``, as OpenSpiel numbers its chance outcomes.

>>> Rules(), card_text(5), [card_text(card) for card in deck(2)]
(Rules(ante=1, raises=(2, 4), max_raises=2), 'Kh', ['Js', 'Jh', 'Qs', 'Qh', 'Ks', 'Kh'])
>>> Rules(raises=(2,))
Traceback (most recent call last):
...
cheekymonkey.errors.InvalidRulesetError: raises must be two positive integers, one per betting round, got (2,)
"""

from __future__ import annotations

from typing import Final

import attrs
from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidRulesetError

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "PRESETS", "Rules", "card_text", "deck", "rank_of"]

MIN_PLAYERS: Final = 2
"""L1: the fewest seats."""
MAX_PLAYERS: Final = 10
"""L1: the most seats, as OpenSpiel allows."""

_RANKS: Final = ("J", "Q", "K", "A", "5", "6", "7", "8", "9", "10", "11")
_SUITS: Final = ("s", "h")


def deck(players: int) -> range:
    """L1: the cards of a game of ``players`` seats, by index: two suits of ``players + 1`` ranks."""
    return range(2 * (players + 1))


def rank_of(card: int) -> int:
    """A card's rank, 0 for the lowest (a J)."""
    return card // 2


def card_text(card: int | None) -> str:
    """A card as a person reads it: its rank and suit (``"Kh"``); ``"-"`` for no card."""
    if card is None:
        return "-"
    return _RANKS[card // 2] + _SUITS[card % 2]


def _positive(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if not is_whole_number(value) or value < 1:
        raise InvalidRulesetError(f"{attribute.name} must be a positive integer, got {value!r}")


def _raises(instance: object, attribute: attrs.Attribute[tuple[int, int]], value: object) -> None:
    if not isinstance(value, tuple) or len(value) != 2 or any(not is_whole_number(v) or v < 1 for v in value):
        raise InvalidRulesetError(f"raises must be two positive integers, one per betting round, got {value!r}")


@attrs.frozen
class Rules:
    """A rule set of Leduc poker: what each seat antes, what a raise adds in each round, how many raises a round."""

    ante: int = attrs.field(default=1, validator=_positive)
    """L2: the chips each seat puts in before the deal."""
    raises: tuple[int, int] = attrs.field(default=(2, 4), validator=_raises)
    """L4: what a raise adds to the bet in the first and in the second round."""
    max_raises: int = attrs.field(default=2, validator=_positive)
    """L4: the most raises one round allows."""

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The preset rule set called ``name``: one of :data:`PRESETS`.

        Raises:
            InvalidRulesetError: If there is no preset of that name.
        """
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise InvalidRulesetError(f"no preset rule set {name!r}: the presets are {', '.join(PRESETS)}") from None

    @property
    def name(self) -> str:
        """The preset's name if the rule set is one, else its figures."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return f"ante {self.ante}, raises {self.raises[0]} and {self.raises[1]}, at most {self.max_raises}"

    def most_in(self) -> int:
        """The most chips one seat can put in a game: the ante and every raise of both rounds."""
        return self.ante + self.max_raises * sum(self.raises)


PRESETS: Final = {"standard": Rules()}
"""The preset rule sets by name: OpenSpiel's game."""
