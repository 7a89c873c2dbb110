"""Every action's constructor is typed for mypy: each class declares its fields as parameters, by name.

The work is the base's (:class:`~cheekymonkey._values.BaseAction`): compiled, the declared constructor runs and
passes its parameters on; in pure Python a constructor written for the class's fields replaces it. So mypy
catches a wrong call (``Claim()``, ``Reveal(1, 2)``, ``Claim(sear=1)``) before it runs, and the parameters are
typed ``object``, as the fields' checks take them (``Reveal("seal")`` is a Seal).
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, get_args

import pytest
from mypy import api

from cheekymonkey._compiled import COMPILED
from cheekymonkey._values import ActionField, BaseAction
from cheekymonkey.cheeky import actions as cheeky
from cheekymonkey.toomany import actions as toomany

CLASSES: list[tuple[str, Any]] = [
    *(("cheeky", cls) for cls in get_args(cheeky.Action)),
    *(("toomany", cls) for cls in get_args(toomany.Action)),
]

# A value each field's check takes, by field name (a Card's number, an Animal's name, a seat, a position).
GOOD: dict[tuple[str, str], object] = {
    ("cheeky", "animal"): "seal",
    ("cheeky", "seat"): 1,
    ("toomany", "card"): 5,
    ("toomany", "seat"): 1,
    ("toomany", "position"): 4,
}


def _snippet() -> tuple[str, set[int], set[int]]:
    """A module of action calls, the lines mypy must refuse and the lines it must take."""
    lines = [
        "from cheekymonkey.cheeky import actions as cheeky",
        "from cheekymonkey.toomany import actions as toomany",
    ]
    wrong: set[int] = set()
    right: set[int] = set()

    def add(call: str, *, refused: bool) -> None:
        lines.append(call)
        (wrong if refused else right).add(len(lines))

    add("cheeky.Claim()", refused=True)
    add("cheeky.Reveal(1, 2)", refused=True)
    add("cheeky.Claim(sear=1)", refused=True)
    add("cheeky.Claim(1)", refused=False)
    add('cheeky.Reveal("seal")', refused=False)
    for game, cls in CLASSES:
        name = f"{game}.{cls.__name__}"
        fields: tuple[str, ...] = cls.__match_args__
        values = [repr(GOOD[game, field]) for field in fields]
        # Every parameter typed object, as the checks take it; by position and by name.
        add(f"{name}({', '.join('object()' for _ in fields)})", refused=False)
        add(
            f"{name}({', '.join(f'{field}={value}' for field, value in zip(fields, values, strict=True))})",
            refused=False,
        )
        add(f"{name}({', '.join([*values, '0'])})", refused=True)
        add(f"{name}({', '.join([*values, 'nothing=0'])})", refused=True)
        if fields:
            add(f"{name}({', '.join(values[:-1])})", refused=True)
            add(f"{name}({', '.join([*values[:-1], f'{fields[-1]}_=0'])})", refused=True)
    return "\n".join(lines) + "\n", wrong, right


def test_mypy_refuses_every_wrong_action_call_and_takes_every_right_one(tmp_path: Path) -> None:
    """One mypy run over a small module: each wrong call of each class is reported, on its line, and no other."""
    source, wrong, right = _snippet()
    module = tmp_path / "calls.py"
    module.write_text(source, encoding="utf-8")
    report, errors, status = api.run(
        [
            "--strict",
            "--no-error-summary",
            "--show-error-codes",
            "--cache-dir",
            str(tmp_path / "cache"),
            str(module),
        ]
    )
    assert errors == ""
    reported: dict[int, list[str]] = {}
    for line in report.splitlines():
        path, number, kind, message = line.split(":", 3)
        assert Path(path).name == "calls.py", line
        if kind.strip() == "error":  # a note points at where the class is defined
            reported.setdefault(int(number), []).append(message)
    assert set(reported) == wrong, report
    assert not set(reported) & right
    # Each refusal is about the call's arguments, not a type mypy could not find.
    assert all("[call-arg]" in message for messages in reported.values() for message in messages), report
    assert status == 1


@pytest.mark.parametrize(("game", "cls"), CLASSES, ids=lambda value: getattr(value, "__name__", value))
def test_each_class_declares_its_fields_as_its_constructor_s_parameters(game: str, cls: Any) -> None:
    """The declared constructor builds what the class's runs, by position and by name, the fields in order.

    In pure Python the written constructor replaces the declared one, kept as its ``__wrapped__``: that one is
    run here on a blank value, as the compiled build runs it. Compiled, the class's constructor is the
    declared one.
    """
    fields: tuple[str, ...] = cls.__match_args__
    values = [GOOD[game, field] for field in fields]
    by_name = dict(zip(fields, values, strict=True))
    expected = cls(*values)
    assert expected == cls(**by_name)
    if COMPILED:
        assert not hasattr(cls.__init__, "__wrapped__")
        return
    declared = cls.__init__.__wrapped__
    assert declared.__qualname__ == f"{cls.__name__}.__init__"
    assert list(inspect.signature(cls).parameters) == list(fields)
    assert {parameter.annotation for parameter in inspect.signature(cls).parameters.values()} <= {"object"}
    for args, kwargs in ((values, {}), ((), by_name)):
        built = object.__new__(cls)
        declared(built, *args, **kwargs)
        assert built == expected
        assert [getattr(built, field) for field in fields] == [getattr(expected, field) for field in fields]


def _number(value: object) -> int:
    return int(str(value))


def test_a_declared_constructor_that_names_other_parameters_is_refused() -> None:
    """In pure Python the written constructor replaces the declared one: only if they take the same names.

    Compiled, mypy has checked the declared constructor, and an interpreted class gets no value anyway.
    """

    def declare(init: Any) -> type[BaseAction]:
        return type(
            "Pair",
            (BaseAction,),
            {
                "__slots__": ("first", "second"),
                "__match_args__": ("first", "second"),
                "_fields": (ActionField(int, _number), ActionField(int, _number)),
                "__init__": init,
            },
        )

    def swapped(self: Any, second: object, first: object) -> None:
        BaseAction.__init__(self, first, second)

    def defaulted(self: Any, first: object, second: object = 0) -> None:
        BaseAction.__init__(self, first, second)

    def keyword_only(self: Any, first: object, *, second: object) -> None:
        BaseAction.__init__(self, first, second)

    def fitting(self: Any, first: object, second: object) -> None:
        BaseAction.__init__(self, first, second)

    if COMPILED:
        pair = declare(swapped)
        with pytest.raises(TypeError, match="interpreted classes cannot inherit from compiled"):
            pair(1, 2)
        return
    for init in (swapped, defaulted, keyword_only):
        with pytest.raises(TypeError, match=r"Pair: its __init__ must take \(self, first, second\), in that order"):
            declare(init)
    pair = declare(fitting)
    assert vars(pair)["__init__"].__wrapped__ is fitting
    assert repr(pair("1", 2)) == "Pair(1, 2)"
