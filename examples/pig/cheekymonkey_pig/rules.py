"""Pig's rule set: the target score, the die, and the horizon, checked when a rule set is made.

The parameters are OpenSpiel's ``pig``'s (``open_spiel/games/pig/pig.cc``), with its defaults; the seat count
is given to :func:`~cheekymonkey_pig.new_game`, as every game of the library takes it.

>>> Rules.preset("short"), Rules.preset("short").name
(Rules(winscore=20, diceoutcomes=6, horizon=1000), 'short')
>>> Rules(winscore=0)
Traceback (most recent call last):
...
cheekymonkey.errors.InvalidRulesetError: winscore must be a whole number of at least 1, got 0
"""

from __future__ import annotations

from typing import Final

import attrs
from cheekymonkey.checks import whole_number_validator
from cheekymonkey.errors import InvalidRulesetError

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "PRESETS", "Rules"]

MIN_PLAYERS: Final = 2
"""P1: the fewest seats."""
MAX_PLAYERS: Final = 6
"""P1: the most seats (OpenSpiel allows 10; a table of more than six waits too long for its turn)."""


@attrs.frozen
class Rules:
    """A rule set of Pig: how far to play, how many faces the die has, and when a game stops undecided."""

    winscore: int = attrs.field(default=100, validator=whole_number_validator(low=1, error=InvalidRulesetError))
    """P6: the score that wins."""
    diceoutcomes: int = attrs.field(default=6, validator=whole_number_validator(low=2, error=InvalidRulesetError))
    """P3: the die's faces, 1 to ``diceoutcomes``, each as likely."""
    horizon: int = attrs.field(default=1000, validator=whole_number_validator(low=1, error=InvalidRulesetError))
    """P6: the most decisions (rolls and holds) a game lasts; a game still undecided then ends with no winner."""

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
        """The preset's name if the rule set is one, else its figures (``"to 50, d8, horizon 1000"``)."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return f"to {self.winscore}, d{self.diceoutcomes}, horizon {self.horizon}"


PRESETS: Final = {
    "standard": Rules(),
    # A game of a few minutes at a terminal: to 20 points.
    "short": Rules(20),
}
"""The preset rule sets by name, the standard game (OpenSpiel's defaults) first."""
