"""The checks written once (:mod:`cheekymonkey.checks`): whole numbers, a bot's memory, a bot itself."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import attrs
import pytest

import cheekymonkey
from cheekymonkey import CHEEKY_MONKEY, RandomBot
from cheekymonkey.checks import check_bot, check_memory, is_whole_number, whole_number, whole_number_validator
from cheekymonkey.errors import InvalidGameError, InvalidRulesetError, InvalidValueError
from cheekymonkey.toomany import TOO_MANY_MONKEYS
from tests.minimal_game import RACE

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("value", "whole"), [(0, True), (-3, True), (True, False), (2.0, False), ("2", False)])
def test_a_whole_number_is_an_int_and_not_a_bool(value: object, whole: bool) -> None:
    assert is_whole_number(value) is whole


@pytest.mark.parametrize(
    ("value", "low", "high", "message"),
    [
        (True, None, None, "seats must be a whole number, got True"),
        (1, 2, None, "seats must be a whole number of at least 2, got 1"),
        (9, None, 6, "seats must be a whole number of at most 6, got 9"),
        (7, 2, 6, "seats must be a whole number from 2 to 6, got 7"),
        ("3", 2, 6, "seats must be a whole number from 2 to 6, got '3'"),
    ],
)
def test_whole_number_refuses_with_one_message_naming_the_bounds(
    value: object, low: int | None, high: int | None, message: str
) -> None:
    with pytest.raises(InvalidValueError, match=f"^{re.escape(message)}$"):
        whole_number(value, "seats", low=low, high=high)
    assert whole_number(4, "seats", low=2, high=6) == 4


def test_the_validator_names_the_field_and_raises_the_error_it_is_given() -> None:
    @attrs.frozen
    class Rules:
        target: int = attrs.field(validator=whole_number_validator(low=1, error=InvalidRulesetError))

    assert Rules(5).target == 5
    with pytest.raises(InvalidRulesetError, match="target must be a whole number of at least 1, got 0"):
        Rules(0)


@pytest.mark.parametrize("memory", [0, -1, True, 1.5, "10"])
def test_every_game_refuses_a_bad_memory_with_the_one_message(memory: Any) -> None:
    """The base class's bots, Cheeky Monkey's and Too Many Monkeys' alike."""
    message = f"memory must be a positive whole number of cache entries or None, got {memory!r}"
    for make in (
        lambda: RACE.bot_named("random", memory=memory),
        lambda: CHEEKY_MONKEY.bot_named("expectimax", memory=memory),
        lambda: TOO_MANY_MONKEYS.bot_named("expectimax", memory=memory),
        lambda: check_memory(memory),
    ):
        with pytest.raises(InvalidValueError, match=f"^{re.escape(message)}$"):
            make()
    assert check_memory(None) is None
    assert check_memory(3) == 3


def test_a_bot_is_an_instance_with_a_choose_method() -> None:
    check_bot(RandomBot())
    with pytest.raises(InvalidGameError, match=r"seat 1's bot is the class RandomBot, not a bot: pass an instance"):
        check_bot(RandomBot, "seat 1's bot")
    with pytest.raises(InvalidGameError, match=r"the bot 'x' has no choose\(state, rng\) method"):
        check_bot("x")


def test_the_tree_writes_the_whole_number_check_once() -> None:
    """No module spells ``isinstance(x, bool) or not isinstance(x, int)`` (or its mirror) but the check itself."""
    pattern = re.compile(
        r"isinstance\([\w.\[\]]+, bool\) or not isinstance\([\w.\[\]]+, int\)"
        r"|isinstance\([\w.\[\]]+, int\) and not isinstance\([\w.\[\]]+, bool\)"
    )
    # The package as imported (the checkout's, or an installed build's: a compiled module keeps no source to
    # scan, and the pure run scans every one), beside the checkout's tests and examples.
    package = Path(cheekymonkey.__file__).resolve().parent
    files = [(path, package.parent) for path in package.rglob("*.py")]
    files += [(path, ROOT) for top in ("tests", "examples") for path in (ROOT / top).rglob("*.py")]
    found = {
        path.relative_to(base).as_posix() for path, base in files if pattern.search(path.read_text(encoding="utf-8"))
    }
    assert found == {"cheekymonkey/checks.py", "tests/test_checks.py"}  # the check, and this docstring
