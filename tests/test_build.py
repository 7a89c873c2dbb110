"""The two builds, pure and compiled: one list of compiled modules, one flag, and the same typed errors (both games)."""

from __future__ import annotations

import importlib
import inspect
import tomllib
import typing
from pathlib import Path

import pytest

import cheekymonkey
import cheekymonkey.toomany
from cheekymonkey import Animal, Draw, IllegalActionError, InvalidGameError, new_game
from cheekymonkey._compiled import COMPILED
from cheekymonkey.errors import InvalidStateError, InvalidValueError

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _compiled_modules() -> list[str]:
    with PYPROJECT.open("rb") as file:
        listed = tomllib.load(file)["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]["include"]
    return [path.removesuffix(".py").replace("/", ".") for path in listed]


def test_every_module_on_the_compiled_list_is_compiled_exactly_when_the_flag_says_so() -> None:
    """pyproject.toml's mypyc list and cheekymonkey._compiled.COMPILED agree, module by module, in either build."""
    names = _compiled_modules()
    assert "cheekymonkey._compiled" in names
    assert "cheekymonkey.cheeky.engine" in names
    assert "cheekymonkey.toomany.engine" in names
    assert "cheekymonkey.toomany.state" in names
    for name in names:
        module = importlib.import_module(name)
        assert (not str(module.__file__).endswith((".py", ".pyc"))) is COMPILED, name


@pytest.mark.parametrize(
    ("function", "parameters"),
    [
        (cheekymonkey.cheeky.engine.apply, {"state": "GameState", "action": "Action"}),
        (cheekymonkey.cheeky.engine.claim_all, {"state": "GameState"}),
        (cheekymonkey.cheeky.engine.stop_in_order, {"state": "GameState", "order": "Iterable[Animal]"}),
        (cheekymonkey.cheeky.state.new_game, {"players": "int", "ruleset": "Ruleset | None", "first_player": "int"}),
        (cheekymonkey.toomany.state.new_game, {"players": "int", "ruleset": "Ruleset | None", "first_player": "int"}),
        (cheekymonkey.toomany.engine.apply_all, {"state": "GameState", "actions": "Iterable[Action]"}),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_public_signatures_name_the_library_s_types(function: typing.Any, parameters: dict[str, str]) -> None:
    """The signatures readers and mypy see say GameState and Action (pure Python; compiled, callers get a twin)."""
    if COMPILED:
        # Compiled, callers from Python get the twin typed object, which checks the types itself.
        assert function.__name__.endswith("_checked")
        return
    signature = inspect.signature(function)
    assert {name: signature.parameters[name].annotation for name in parameters} == parameters


# The library as an untyped caller sees it: mypy refuses these calls, which is the point of the signatures.
untyped: typing.Any = cheekymonkey
too_many: typing.Any = cheekymonkey.toomany


def _tmm_state(**changes: object) -> object:
    """A Too Many Monkeys state built through the checking constructor, from a new game's fields changed."""
    start = cheekymonkey.toomany.new_game(2)
    fields = {name: getattr(start, name) for name in cheekymonkey.toomany.state.FIELDS}
    return cheekymonkey.toomany.GameState(**{**fields, **changes})


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: untyped.apply("state", Draw()), IllegalActionError, "E9: 'state' is not a GameState"),
        (lambda: untyped.apply(new_game(2), "draw"), IllegalActionError, "E9: 'draw' is not an action"),
        (lambda: untyped.claim_all(None), IllegalActionError, "E9: None is not a GameState"),
        (lambda: untyped.stop_in_order(3, [Animal.SEAL]), IllegalActionError, "E9: 3 is not a GameState"),
        (lambda: untyped.new_game("2"), InvalidGameError, "players must be an integer, got '2'"),
        (lambda: untyped.new_game(True), InvalidGameError, "players must be an integer, got True"),
        (lambda: untyped.new_game(2, first_player=1.0), InvalidGameError, "first_player 1.0 is not one of seats"),
        (lambda: untyped.new_game(2, ruleset="x"), InvalidGameError, "ruleset must be a Ruleset, got 'x'"),
        # Too Many Monkeys: its engine, its state and its bots, compiled too.
        (lambda: too_many.apply("state", too_many.Draw()), IllegalActionError, "'state' is not a Too Many Monkeys"),
        (lambda: too_many.apply(too_many.new_game(2), "draw"), IllegalActionError, "'draw' is not an action"),
        (lambda: too_many.apply_all(None, [too_many.Draw()]), IllegalActionError, "None is not a Too Many Monkeys"),
        (lambda: too_many.new_game("2"), InvalidGameError, "players must be an integer, got '2'"),
        (lambda: too_many.new_game(2, first_player=1.0), InvalidGameError, "first_player 1.0 is not one of seats"),
        (lambda: too_many.new_game(2, ruleset="x"), InvalidGameError, "ruleset must be a Ruleset, got 'x'"),
        (lambda: _tmm_state(phase=1), InvalidStateError, "phase must be a Phase, got 1"),
        (lambda: _tmm_state(hand="3"), InvalidStateError, "hand must be a Card or None, got '3'"),
        (lambda: _tmm_state(round=True), InvalidStateError, "round must be an integer, got True"),
        (lambda: too_many.FaceDown("x"), InvalidValueError, "'x' is not a card"),
        (lambda: too_many.PlaceWild("2"), InvalidValueError, "'2' is not a position"),
        (lambda: too_many.ExpectimaxBot(depth="2"), InvalidValueError, "depth must be an integer of at least 1"),
    ],
)
def test_a_wrong_type_raises_the_library_s_error_in_either_build(
    call: typing.Callable[[], object], error: type[Exception], words: str
) -> None:
    """E9: a wrong type gets the typed error, never the bare TypeError a compiled signature would raise."""
    with pytest.raises(error) as caught:
        call()
    assert words in str(caught.value)
