"""*Leduc poker* as a game of :mod:`cheekymonkey` in a distribution of its own: a game with private cards.

Each seat antes a chip and is dealt one private card from a deck of J, Q, K in two suits (at two seats);
a round of betting, a public card, a second round; a card paired with the public card beats any other,
else the higher card wins. The rules are L1-L8 (:mod:`cheekymonkey_leduc.game`), equal to OpenSpiel's
``leduc_poker``.

The library finds the game only through this distribution's entry point in the group ``cheekymonkey.games``
(``examples/leduc/pyproject.toml``), as ``game_named("leduc")``; nothing in ``cheekymonkey`` names it.

>>> state = LEDUC.apply(LEDUC.apply(LEDUC.new_game(2), Deal(4)), Deal(1))
>>> LEDUC.view(state, 0).hands, LEDUC.view(state, None).hands
(('Ks', '?'), ('?', '?'))
"""

from __future__ import annotations

from cheekymonkey_leduc.actions import CALL, FOLD, RAISE, Action, Bet, Call, Deal, Fold, Raise
from cheekymonkey_leduc.game import LEDUC, Leduc
from cheekymonkey_leduc.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Rules
from cheekymonkey_leduc.state import Dealt, LeducState, LeducView, Paid, Placed, Showdown

__all__ = [
    "CALL",
    "FOLD",
    "LEDUC",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PRESETS",
    "RAISE",
    "Action",
    "Bet",
    "Call",
    "Deal",
    "Dealt",
    "Fold",
    "Leduc",
    "LeducState",
    "LeducView",
    "Paid",
    "Placed",
    "Raise",
    "Rules",
    "Showdown",
]
