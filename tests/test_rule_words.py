"""The rules a player can look up at the prompt (``? R7``) are the specs' own clauses, word for word.

``cheekymonkey/cheeky/rule_words.py`` and ``cheekymonkey/toomany/rule_words.py`` are written from ``specs/`` by
``specs/make_rule_words.py`` (an installed package has no ``specs/``); a clause changed in a spec and not in its
module fails here. Then: a message's rule number is followed by the rule's title.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from cheekymonkey.cheeky import rule_words as cheeky_rules
from cheekymonkey.toomany import rule_words as toomany_rules

ROOT = Path(__file__).resolve().parent.parent


def _maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_rule_words", ROOT / "specs" / "make_rule_words.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_rule_words"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("spec", ["specs/rules.md", "specs/too-many-monkeys.md"])
def test_each_module_is_its_spec_as_written_now(spec: str) -> None:
    """The module's text is what the maker writes from the spec today (run it after changing a clause)."""
    maker = _maker()
    target, _ = maker.TARGETS[spec]
    fresh = maker.clauses((ROOT / spec).read_text(encoding="utf-8"))
    module = cheeky_rules if "/cheeky/" in target else toomany_rules
    assert module.__file__ is not None
    assert Path(module.__file__).as_posix().endswith(target)  # the maker's target is the module imported
    written = Path(module.__file__).read_text(encoding="utf-8")
    assert fresh == module.RULES
    assert len(fresh) > 30
    assert "RULES" in written


def test_a_rule_number_gets_its_title_and_a_question_mark_its_text() -> None:
    """'(TM11)' reads '(rule TM11, Wild monkey)'; '? r7' gives R7's words; an unknown number gives None."""
    assert toomany_rules.in_words("placed first (TM11); TM14: too high") == (
        "placed first (rule TM11, Wild monkey); rule TM14, Raccoon: too high"
    )
    assert cheeky_rules.in_words("(R16)") == "(rule R16, Bonus tiles)"
    assert cheeky_rules.in_words("(R99) and ROUND1") == "(R99) and ROUND1"
    text = cheeky_rules.rule_text(" r7 ")
    assert text is not None
    assert text.startswith("R7 Claims: After a draw that does not bust")
    assert cheeky_rules.rule_text("R99") is None
