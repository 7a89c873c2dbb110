"""The library's exceptions: one root, and subclasses that carry what went wrong."""

from __future__ import annotations

import re
from typing import Any, Final

__all__ = [
    "ActionTextError",
    "CheekyMonkeyError",
    "GameNotOverError",
    "GameTooLongError",
    "IllegalActionError",
    "InvalidGameError",
    "InvalidRulesetError",
    "InvalidStateError",
    "InvalidValueError",
    "NotAChanceNodeError",
    "NotOfferedError",
    "NotYourDecisionError",
    "ReplayError",
]


class CheekyMonkeyError(Exception):
    """The root of every error this library raises on purpose."""


class InvalidRulesetError(CheekyMonkeyError, ValueError):
    """A rule set that cannot be played (R21), raised when it is built.

    Attributes:
        reason: What is wrong with it, in words.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidGameError(CheekyMonkeyError, ValueError):
    """A game that cannot be set up: a seat count or first player out of range.

    Attributes:
        reason: What is wrong, in words.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidStateError(CheekyMonkeyError, ValueError):
    """A game state that breaks an invariant (tokens not conserved, an impossible phase, ...).

    Raised when a :class:`~cheekymonkey.GameState` is built through its public constructor, and so
    when a saved game is loaded.

    Attributes:
        reason: Which invariant is broken, in words.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IllegalActionError(CheekyMonkeyError, ValueError):
    """An action that the rules do not allow in the given state.

    Nothing is changed: states are values, and the state passed in is still valid.

    Attributes:
        action: The action that was refused (whatever object was passed).
        state: The state it was applied to (a :class:`~cheekymonkey.GameState` in Cheeky Monkey; every game's
            engine raises this error with its own states).
        reason: Why, naming the rule, for example ``"R8: the bag is empty, so you cannot draw"``.
    """

    def __init__(self, state: Any, action: object, reason: str) -> None:
        super().__init__(f"illegal action {action!r}: {reason}")
        self.state: Any = state
        self.action = action
        self.reason = reason

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from its own arguments, so it survives pickling (a process pool sends it back) and copy.
        return (self.__class__, (self.state, self.action, self.reason))


class NotYourDecisionError(IllegalActionError):
    """A move offered for a seat that is not that seat's own decision now, refused whole.

    :meth:`~cheekymonkey.Table.play_as` and :meth:`~cheekymonkey.Table.play_text_as` raise it when another seat
    or chance acts now, when the game is finished, or when a text goes on past the end of the seat's own
    decisions: into a draw (a chance outcome, which comes from the table's random stream, never from a
    player), another seat's turn, or the end of the game. Nothing is changed. It is an
    :class:`IllegalActionError`, so a front end that catches that one catches this too.

    Attributes:
        seat: The seat the move was offered for.
    """

    def __init__(self, state: Any, action: object, reason: str, seat: int) -> None:
        super().__init__(state, action, reason)
        self.seat = seat

    def __reduce__(self) -> tuple[object, ...]:
        return (self.__class__, (self.state, self.action, self.reason, self.seat))


class NotAChanceNodeError(CheekyMonkeyError, ValueError):
    """Chance outcomes were asked of a state that is not a chance node."""


class GameNotOverError(CheekyMonkeyError, ValueError):
    """A final score was asked of a game that has not ended (R15)."""


class InvalidValueError(CheekyMonkeyError, ValueError):
    """A value that is not what it should be: an action built with something not an animal or a seat."""


class NotOfferedError(InvalidValueError):
    """A game asked for a capability it does not offer (encodings for learning, say), naming both.

    A game declares a capability absent by leaving the :class:`~cheekymonkey.base.BaseGame` default in place;
    a front end that cannot do without it (the RL adapters without encodings) refuses the game with this.

    Attributes:
        game: The game's name.
        capability: What it does not offer, in words (``"encodings for learning"``).
    """

    def __init__(self, game: str, capability: str) -> None:
        super().__init__(f"the game {game!r} offers no {capability}")
        self.game = game
        self.capability = capability

    def __reduce__(self) -> tuple[object, ...]:
        return (self.__class__, (self.game, self.capability))


class ReplayError(CheekyMonkeyError, ValueError):
    """A game record whose actions do not replay: the step at ``step`` is illegal.

    Attributes:
        step: The index of the first action that fails.
        cause: The :class:`IllegalActionError` it raised.
    """

    def __init__(self, step: int, cause: IllegalActionError) -> None:
        super().__init__(f"the record does not replay: step {step}: {cause}")
        self.step = step
        self.cause = cause

    def __reduce__(self) -> tuple[object, ...]:
        # As IllegalActionError: pickling and copy rebuild it from its arguments.
        return (self.__class__, (self.step, self.cause))


class GameTooLongError(CheekyMonkeyError, RuntimeError):
    """A driven game passed its action limit: a bot that never stops breaks R22."""


class ActionTextError(CheekyMonkeyError, ValueError):
    """Text that does not name an action allowed now: unreadable, illegal in the state, or ambiguous.

    Every game's notation raises it (Cheeky Monkey's :func:`~cheekymonkey.parse_action`, Too Many Monkeys'
    :func:`~cheekymonkey.toomany.parse_action`), so a front end catches one class whatever the game.

    Attributes:
        text: The text given.
        reason: Why it names no action, in words, for the person who typed it. When the text names one action
            the rules refuse now, it is the engine's own reason (its rule last, in brackets).
        valid: The short texts of every action allowed now (empty at a finished game).
        action: The one action the text names, when it names one that the rules refuse now; else None.
    """

    def __init__(self, text: str, reason: str, valid: tuple[str, ...], action: object = None) -> None:
        shown = f" (valid now: {', '.join(valid)})" if valid else ""
        super().__init__(f"{text!r}: {reason}{shown}")
        self.text = text
        self.reason = reason
        self.valid = valid
        self.action = action

    @classmethod
    def refused(
        cls, text: str, action: object, reason: str, valid: tuple[str, ...], instead: str = ""
    ) -> ActionTextError:
        """The error for ``text``, which names ``action``, refused by the engine for ``reason``.

        The reason reads in the player's words, its rule moved to the end in brackets, then ``instead`` (what
        may be chosen instead), if given.

        >>> reason = "TM17: seat 1 already has a Skip waiting"
        >>> ActionTextError.refused("s 1", "GiveSkip(1)", reason, ("s 2", "n"), "the Skip can go to seat 2").reason
        'seat 1 already has a Skip waiting (TM17); the Skip can go to seat 2'
        """
        match = _RULE_FIRST.fullmatch(reason)
        words = f"{match.group(2)} ({match.group(1)})" if match else reason
        return cls(text, f"{words}; {instead}" if instead else words, valid, action)

    def __reduce__(self) -> tuple[type[ActionTextError], tuple[str, str, tuple[str, ...], object]]:
        # Errors cross process boundaries (worker pools, servers); rebuild from the fields, not the message.
        return type(self), (self.text, self.reason, self.valid, self.action)


_RULE_FIRST: Final = re.compile(r"([A-Z]+\d+(?:, [A-Z]+\d+)*): (.+)", re.DOTALL)
"""An engine's reason: the names of its rules (capitals and a number, several joined by commas), a colon, the words."""
