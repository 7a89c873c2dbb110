"""What every RL adapter shares: which game, the one truncation rule, and the reward options.

This module is pure Python; the adapters (:mod:`~cheekymonkey.rl.gymnasium_env`,
:mod:`~cheekymonkey.rl.pettingzoo_env`, :mod:`~cheekymonkey.rl.openspiel_game`) take its arguments the
same way and mean the same by them.

**Which game.** Every adapter takes ``game``: a name from :data:`cheekymonkey.games.GAME_NAMES`
(``"cheeky-monkey"``, the default) or a :class:`~cheekymonkey.game.Game`. It talks to the game only
through that protocol and its :meth:`~cheekymonkey.Game.encoding`, so any game of the library plays
in every adapter. A ``ruleset`` is the game's rule set, or the name of one of its presets.

**Truncation: one rule, one meaning.** Neither game's rules bound its length. In *Cheeky Monkey* a policy
that never stops can bust forever (R22); in *Too Many Monkeys* seats that keep taking from the discard pile
a number too high for their rows pass it round for ever (TM6, TM9, TM26). So every adapter cuts a game off
by the :class:`~cheekymonkey.table.Table`'s limits (:func:`~cheekymonkey.table.past_limits`): ``max_turns`` (a
turn past this many would begin; None, the default, is no limit) and ``max_steps`` (this many actions
have been played, chance outcomes and every seat's moves included; :data:`DEFAULT_MAX_STEPS` by default,
None for no limit where the framework allows it). A game cut off is *truncated*: it stopped, and it has
**no result**. Nobody won or lost it, so it pays nobody anything:

- Gymnasium and PettingZoo: the step that reaches the limit returns ``truncated=True`` (for every agent in
  PettingZoo), ``terminated=False``, and no outcome reward (only the shaping term below, if asked for). A
  learner that bootstraps should bootstrap from that observation, as for any truncation.
- OpenSpiel has no truncation flag: a game cut off is a terminal state whose returns are all 0, where a
  game that ended by its rules has returns adding up to 1. So the game is declared general-sum
  (``GameType.Utility.GENERAL_SUM``), with utilities from 0 to 1 (``utility_sum`` is not defined), and
  :attr:`~cheekymonkey.rl.openspiel_game.SpielState.truncated` tells the two kinds of end apart. OpenSpiel
  needs a bound on a game's length, so ``max_steps`` must be set there; it is the ``max_game_length``.

One default serves every game, so the limit is declared once: of 200 seeded games between random bots,
the longest takes fewer than 300 steps in *Cheeky Monkey* (2 or 6 seats) and fewer than 1,500 in *Too Many
Monkeys* (6 seats, the standard rules; 2 seats take fewer than 500), and the default is several times
that. It only stops a game that would never end; to cut such games off sooner, pass ``max_turns`` or a
smaller ``max_steps``.

**A game that ends before the first decision.** The game dealt is the game played: an adapter never skips
it or deals another, so a seed always plays the game a :class:`~cheekymonkey.table.Table` seeded the same way
plays. A tiny limit (``max_steps=1`` cuts every game off in its first draw) or a tiny rule set can end a game
before the agent has a decision (the learner's in Gymnasium, where bots play the other seats; anybody's in
PettingZoo). Such an episode has **no decision**, and is reported in two beats:

1. ``reset`` reports a start, as every reset does (PettingZoo's own checks require it, and Gymnasium's
   ``reset`` has no flags to say otherwise): terminated and truncated False, no reward, the observation of
   the game's last state, an **all-0 action mask**, and ``info["no_decision"] = True`` (:data:`NO_DECISION`;
   False in every other episode).
2. The next ``step`` plays nothing, whatever action it is given (any index in range; PettingZoo also takes
   None), and reports the end as any end is reported: terminated with the outcome's returns if the rules
   ended the game, truncated with no outcome reward if a limit cut it off; its info says ``no_decision``
   too. Then ``reset`` as after any end.

OpenSpiel has no reset (chance is a player there), so its state is simply terminal after the chance outcome
that ends the game, truncated or not. The batched engines keep the same two beats: the step that deals such
a game reports a start with an all-False mask, and the step after reports its end.

**Scaled observations.** Observations are whole numbers from 0 to each entry's declared bound
(:attr:`~cheekymonkey.encoding.Encoding.observation_bounds`). With ``scaled=True`` every adapter gives each entry
divided by its bound instead, as float32 in [0, 1] (:func:`scaled_observation`; a bound of 0 counts as 1),
the same numbers in every adapter, bit for bit.

**Rewards.** By default a seat's reward is 0 until the game ends by its rules, then its return
(:attr:`~cheekymonkey.Outcome.returns`): 1 for a sole win, ``1/k`` for a win shared by ``k``, 0 for a
loss. With ``margin=c`` (Gymnasium and PettingZoo), each step also pays ``c`` times the change in the
seat's *lead* since its last reward (the first reward: since the game began), the lead being its points
minus the most points of any other seat (:meth:`~cheekymonkey.encoding.Encoding.points`: in *Cheeky Monkey*
the score of the stacks as they stand, R16-R17; in *Too Many Monkeys*, which counts no points, minus the
cards a seat still has to turn up to win the game, see :mod:`cheekymonkey.toomany.encoding`). It is a
potential-based shaping term, so it leaves the best policy unchanged (Ng, Harada and Russell, ICML 1999),
and over a whole game it adds up to ``c`` times the final lead (in both games every lead is 0 when a game
begins). ``margin=0.01`` is a small push toward points that leaves winning the main goal.

>>> lead((30.0, 41.0, 12.0), 0), lead((30.0, 41.0, 12.0), 1)
(-11.0, 11.0)
>>> scaled((0, 3, 52), (1, 4, 52))
(0.0, 0.75, 1.0)
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Final

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidValueError, NotOfferedError
from cheekymonkey.game import Game
from cheekymonkey.games import AnyGame, game_named
from cheekymonkey.observations import observation_divisors, scaled, scaled_observation

__all__ = [
    "DEFAULT_MAX_STEPS",
    "NO_DECISION",
    "PREFERRED_OPPONENT",
    "check_limits",
    "check_margin",
    "check_scaled",
    "default_opponent",
    "game_of",
    "lead",
    "learnable_game",
    "observation_divisors",
    "ruleset_of",
    "scaled",
    "scaled_observation",
]

DEFAULT_MAX_STEPS: Final = 10_000
"""The step limit of every adapter unless told otherwise (actions, chance outcomes included)."""

NO_DECISION: Final = "no_decision"
"""The info key that says an episode has no decision: its game ended before the agent's first one."""


def game_of(game: str | AnyGame) -> AnyGame:
    """The game named ``game``, or ``game`` itself if it is a :class:`~cheekymonkey.game.Game`.

    Raises:
        InvalidValueError: If there is no game of that name, or ``game`` is neither a name nor a game.
    """
    if isinstance(game, str):
        return game_named(game)
    if not isinstance(game, Game):
        raise InvalidValueError(f"game must be a game's name or a Game, got {game!r}")
    return game


def learnable_game(game: str | AnyGame) -> AnyGame:
    """:func:`game_of`, refused if the game offers no encodings for learning: what every RL adapter plays.

    Raises:
        NotOfferedError: If the game has no observation kinds (no :meth:`~cheekymonkey.Game.encoding`), naming it.
        InvalidValueError: As :func:`game_of`.
    """
    found = game_of(game)
    if not found.observation_kinds():
        raise NotOfferedError(found.name, "encodings for learning (the RL adapters need them)")
    return found


PREFERRED_OPPONENT: Final = "heuristic"
"""The bot an environment seats against a learner unless told otherwise, if the game has one of that name."""


def default_opponent(game: AnyGame, available: Sequence[str] | None = None) -> str:
    """The name of the bot an environment seats against a learner unless told otherwise.

    The game's :data:`PREFERRED_OPPONENT` (``"heuristic"``): a bot that plays sensibly, without search, so
    episodes stay fast. A game with no bot of that name is played against its first bot
    (:meth:`~cheekymonkey.Game.bot_names`), so that every game has a default and no adapter names one.
    ``available``: the bots the environment can seat (a vector environment's, those with a batched form; None:
    every bot of the game); the same rule picks among them, so ``gymnasium.make`` and ``gymnasium.make_vec``
    seat the same bot wherever both can.

    >>> from cheekymonkey.games import game_named
    >>> default_opponent(game_named("cheeky-monkey"))
    'heuristic'
    """
    names = tuple(game.bot_names() if available is None else available)
    return PREFERRED_OPPONENT if PREFERRED_OPPONENT in names else names[0]


def ruleset_of(game: AnyGame, ruleset: object) -> Any:
    """``ruleset`` for ``game``: None (the standard rules), a preset's name, or a rule set of the game's own.

    Raises:
        InvalidRulesetError: If ``game`` has no preset of that name.
    """
    if isinstance(ruleset, str):
        return game.ruleset(ruleset)
    return ruleset


def check_limits(max_turns: object, max_steps: object, max_decisions: object = None) -> tuple[int | None, int | None]:
    """The limits ``(max_turns, max_steps)``, checked; ``max_decisions`` is the old name of ``max_turns``.

    Raises:
        InvalidValueError: If a limit is not a positive integer or None.
    """
    if max_decisions is not None:
        warnings.warn(
            "max_decisions is deprecated: the adapters share the Table's limits, max_turns and max_steps; "
            "max_decisions=N now means max_turns=N",
            DeprecationWarning,
            stacklevel=3,
        )
        if max_turns is None:
            max_turns = max_decisions
    for name, limit in (("max_turns", max_turns), ("max_steps", max_steps)):
        if limit is not None and (not is_whole_number(limit) or limit < 1):
            raise InvalidValueError(f"{name} must be a positive integer or None, got {limit!r}")
    return max_turns, max_steps  # type: ignore[return-value]  # checked just above


def check_margin(margin: object) -> float:
    """The shaping coefficient ``margin``, checked: a finite number, 0 (the default) for none.

    Raises:
        InvalidValueError: If ``margin`` is not a finite number.
    """
    if (
        isinstance(margin, bool)
        or not isinstance(margin, int | float)
        or margin != margin
        or abs(margin) == float("inf")
    ):
        raise InvalidValueError(f"margin must be a finite number, got {margin!r}")
    return float(margin)


def lead(points: Sequence[float], seat: int) -> float:
    """``seat``'s points minus the most points of any other seat: its lead (negative when behind)."""
    return points[seat] - max(p for other, p in enumerate(points) if other != seat)


def check_scaled(value: object) -> bool:
    """The ``scaled`` option, checked: True or False.

    Raises:
        InvalidValueError: If ``value`` is not a bool.
    """
    if not isinstance(value, bool):
        raise InvalidValueError(f"scaled must be True or False, got {value!r}")
    return value
