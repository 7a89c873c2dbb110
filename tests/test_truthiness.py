"""No value the game uses is mistaken for "nothing": animals and phases are never false; seats are not truth-tested.

``Animal.ELEPHANT`` and ``Phase.CHANCE`` are the number 0 and seat 0 is a seat, so ``if top:`` or ``seat or
default`` silently skips them. The enums make the first kind harmless (they are always true); seats are plain
integers, so a lint over the package's source refuses truth tests on them, and a property test draws every
animal on top of seat 0's stack through every text front end.
"""

from __future__ import annotations

import ast
import enum
import importlib
from pathlib import Path

import pytest

import cheekymonkey
from cheekymonkey import ANIMALS, CHEEKY_MONKEY, Animal, Phase, Reveal, Stop, apply_all, board_text, new_game, view

PACKAGE = Path(cheekymonkey.__file__).resolve().parent
"""The package imported (the sources, or an installed build: its modules compiled to .so files have no source)."""

SEAT_NAMES = frozenset(
    {
        "seat",
        "viewer",
        "to_move",
        "first_player",
        "from_seat",
        "with_seat",
        "winner",
        "mover",
        "learner",
        "human",
        "current_player",
        "me",
    }
)
"""Names that hold a seat number (or None) wherever they appear in the package."""


def _int_enums() -> list[type[enum.IntEnum]]:
    found: list[type[enum.IntEnum]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            # An IntEnum, or a subclass of the games' shared base (itself an IntEnum, so found too).
            if isinstance(node, ast.ClassDef) and any(
                name in ast.unparse(base) for base in node.bases for name in ("IntEnum", "ValueEnum")
            ):
                module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
                found.append(getattr(importlib.import_module(module), node.name))
    return found


def test_every_member_of_every_integer_enum_in_the_package_is_true() -> None:
    """Animal, Phase and any IntEnum added later: each member is true, the one numbered 0 included."""
    enums = _int_enums()
    assert Animal in enums
    assert Phase in enums
    for kind in enums:
        for member in kind:
            assert bool(member) is True, member
            assert (member or None) is member


def _truth_tests(tree: ast.AST) -> list[ast.expr]:
    tests: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            tests.append(node.test)
        elif isinstance(node, ast.BoolOp):
            tests.extend(node.values)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            tests.append(node.operand)
        elif isinstance(node, ast.comprehension):
            tests.extend(node.ifs)
    return tests


def _seat_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name) and node.id in SEAT_NAMES:
        return node.id
    if isinstance(node, ast.Attribute) and node.attr in SEAT_NAMES:
        return node.attr
    return None


def seat_truth_tests(source: str) -> list[str]:
    """Every place ``source`` tests a seat-holding name for truth (``if seat:``, ``viewer or 0``, ``not me``)."""
    tree = ast.parse(source)
    return [f"line {test.lineno}: {ast.unparse(test)}" for test in _truth_tests(tree) if _seat_name(test)]


def test_the_seat_lint_finds_the_mistakes_it_is_for() -> None:
    """The lint catches ``if seat``, ``viewer or 0``, ``not state.to_move`` and a ternary; it passes ``is None``."""
    bad = "if seat: pass\nx = viewer or 0\ny = not state.to_move\nz = 1 if current_player(s) else 2\n"
    assert len(seat_truth_tests(bad)) == 4
    assert seat_truth_tests("if seat is None or seat == 0: pass\nif seats: pass\n") == []


def test_no_code_in_the_package_tests_a_seat_number_for_truth() -> None:
    """Seat 0 is a seat: the package compares seats with None, never tests them for truth."""
    sources = sorted(PACKAGE.rglob("*.py"))
    assert len(sources) > 20
    found = {
        str(path.relative_to(PACKAGE.parent)): hits
        for path in sources
        if (hits := seat_truth_tests(path.read_text(encoding="utf-8")))
    }
    assert found == {}


@pytest.mark.parametrize("animal", ANIMALS)
def test_every_animal_on_top_of_seat_0_shows_on_every_board(animal: Animal) -> None:
    """Whatever seat 0 stacked, every text front end shows it as the top, to every viewer."""
    state = apply_all(new_game(2), [Reveal(animal), Stop()])
    assert state.stacks[0] == (animal,)
    assert f"0      1  {animal.label}" in board_text(state)
    for seat in (None, 0, 1):
        assert f"0      1  {animal.label}" in board_text(view(state, seat))
    assert f"0      1  {animal.label}" in CHEEKY_MONKEY.board_text(state)
