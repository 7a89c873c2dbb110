"""Every public exception survives pickling and copying with its attributes.

A worker of a process pool that raises one of them must hand it back to the caller as itself, not as a
``BrokenProcessPool``: so the test raises each one in a real :class:`ProcessPoolExecutor` worker.
"""

from __future__ import annotations

import copy
import pickle
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

import cheekymonkey
from cheekymonkey import (
    ActionTextError,
    CheekyMonkeyError,
    Draw,
    GameNotOverError,
    GameTooLongError,
    IllegalActionError,
    InvalidGameError,
    InvalidRulesetError,
    InvalidStateError,
    InvalidValueError,
    NotAChanceNodeError,
    NotYourDecisionError,
    ReplayError,
    new_game,
)
from cheekymonkey.errors import NotOfferedError
from cheekymonkey.serialization import DocumentError


def _examples() -> dict[type[BaseException], BaseException]:
    illegal = IllegalActionError(new_game(2), Draw(), "R5: a draw is being resolved: the next action is a Reveal")
    return {
        CheekyMonkeyError: CheekyMonkeyError("something went wrong"),
        InvalidRulesetError: InvalidRulesetError("no animals: at least one animal needs a count of 1 or more"),
        InvalidGameError: InvalidGameError("9 players: the standard rules allow 2 to 6 (R3)"),
        InvalidStateError: InvalidStateError("a draw is pending but the bag is empty"),
        IllegalActionError: illegal,
        NotYourDecisionError: NotYourDecisionError(new_game(2), "d", "chance acts now, not seat 1", 1),
        NotAChanceNodeError: NotAChanceNodeError("no draw is pending in phase DECIDE"),
        GameNotOverError: GameNotOverError("the game is not over: it is in phase CHANCE"),
        InvalidValueError: InvalidValueError("'x' is not an Animal"),
        ReplayError: ReplayError(3, illegal),
        GameTooLongError: GameTooLongError("the game passed 10 actions: does every bot stop? (R22)"),
        ActionTextError: ActionTextError("c 9", "there is no seat 9 in this game", ("d", "s", "c 1")),
        NotOfferedError: NotOfferedError("dice-race", "encodings for learning"),
        DocumentError: DocumentError("record", [(f"$.actions[{i}]", "type None is not an action") for i in range(40)]),
    }


EXAMPLES = _examples()


def _public_exceptions() -> set[type[BaseException]]:
    found: set[type[BaseException]] = {DocumentError, NotOfferedError}
    for name in cheekymonkey.__all__:
        value = getattr(cheekymonkey, name)
        if isinstance(value, type) and issubclass(value, BaseException):
            found.add(value)
    return found


def assert_same_error(original: BaseException, other: BaseException) -> None:
    """Same class, message, arguments and attributes (exceptions among them compared the same way)."""
    assert type(other) is type(original)
    assert str(other) == str(original)
    assert other.args == original.args
    assert vars(other).keys() == vars(original).keys()
    for name, value in vars(original).items():
        if isinstance(value, BaseException):
            assert_same_error(value, getattr(other, name))
        else:
            assert getattr(other, name) == value, name


def test_every_public_exception_has_an_example_here() -> None:
    """The examples below cover every exception the package exports, so a new one cannot slip by."""
    assert set(EXAMPLES) == _public_exceptions()


@pytest.mark.parametrize("error", list(EXAMPLES.values()), ids=[cls.__name__ for cls in EXAMPLES])
def test_an_exception_survives_pickle_and_copy_with_its_attributes(error: BaseException) -> None:
    """Pickle (every protocol), copy and deepcopy give back an equal exception."""
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert_same_error(error, pickle.loads(pickle.dumps(error, protocol)))
    assert_same_error(error, copy.copy(error))
    assert_same_error(error, copy.deepcopy(error))


def _raise(name: str) -> None:
    raise EXAMPLES[next(cls for cls in EXAMPLES if cls.__name__ == name)]


def test_an_exception_raised_in_a_process_pool_worker_reaches_the_caller_whole() -> None:
    """Each exception raised in a real worker process comes back as itself, attributes and all."""
    with ProcessPoolExecutor(max_workers=1) as pool:
        futures = {cls: pool.submit(_raise, cls.__name__) for cls in EXAMPLES}
        for cls, future in futures.items():
            error: Any = future.exception(timeout=60)
            assert_same_error(EXAMPLES[cls], error)
        # The pool still works afterwards: no BrokenProcessPool.
        assert pool.submit(sum, [1, 2]).result(timeout=60) == 3
