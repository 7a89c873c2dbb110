"""Traceability: every ruling R1-R22 is a clause of specs/rules.md, each clause cites its sources, and names tests.

The format (described at the top of ``specs/rules.md``): a clause is a heading ``### R7 Claims`` (or
``### E3 ...`` for the engine's own rulings), and its ``Tests:`` paragraph lists ``tests/<file>.py::<test>``
entries (``tests/<file>.py::<Class>::<test>`` for a method), separated by commas.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import attrs
import pytest

from specs.check_sources import MAX_WORDS, RULING_SOURCE, SEED_SOURCE, Citation, check, citations, seed_sections

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "specs" / "rules.md"
RULINGS = tuple(f"R{n}" for n in range(1, 23))
"""The rulings of shared/rulings.md, each of which must be a clause."""

_CLAUSE = re.compile(r"^###\s+((?:R|E)\d+(?:\.\d+)?)\s+(\S.*)$")
_ANY_HEADING = re.compile(r"^#{1,6}\s")
_ENTRY = re.compile(r"^`?(tests/[\w/]+\.py)((?:::\w+)+)`?$")


@attrs.frozen
class Clause:
    """One clause of the rules: its number, title, where it starts, and the tests it names."""

    number: str
    """``R7``, ``E3``, ..."""
    title: str
    """The heading's text after the number."""
    line: int
    """The heading's line number in the file, from 1."""
    tests: tuple[str, ...]
    """The ``path::name`` entries of its ``Tests:`` paragraph, in order."""
    problems: tuple[str, ...]
    """What is malformed in the clause (no Tests paragraph, two of them, an entry that is not a test path)."""


@attrs.define
class _Reading:
    """A clause being read: its heading and the lines of each Tests paragraph found so far."""

    number: str
    title: str
    line: int
    paragraphs: list[list[str]] = attrs.Factory(list)

    def clause(self) -> Clause:
        entries: list[str] = []
        problems: list[str] = []
        if not self.paragraphs:
            problems.append("it has no 'Tests:' paragraph")
        if len(self.paragraphs) > 1:
            problems.append(f"it has {len(self.paragraphs)} 'Tests:' paragraphs; give one")
        for paragraph in self.paragraphs:
            body = " ".join(paragraph).removeprefix("Tests:").strip()
            for raw in (part.strip() for part in body.split(",")):
                match = _ENTRY.match(raw)
                if match is None:
                    problems.append(f"{raw!r} is not an entry like `tests/test_x.py::test_name`")
                else:
                    entries.append(match.group(1) + match.group(2))
        return Clause(self.number, self.title, self.line, tuple(entries), tuple(problems))


def parse_rules(text: str) -> list[Clause]:
    """Split the rules text into clauses and read each clause's ``Tests:`` paragraph."""
    clauses: list[Clause] = []
    reading: _Reading | None = None
    paragraph: list[str] | None = None  # the Tests paragraph being read, if any
    fence = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if fence:
            continue
        if _ANY_HEADING.match(line):
            # Any heading ends the clause before it; only an R or E heading starts a new one.
            if reading is not None:
                clauses.append(reading.clause())
            heading = _CLAUSE.match(line)
            reading = _Reading(heading.group(1), heading.group(2), number) if heading else None
            paragraph = None
            continue
        if reading is None:
            continue
        if paragraph is not None and line.strip():
            paragraph.append(line.strip())
            continue
        paragraph = None
        if line.startswith("Tests:"):
            paragraph = [line.strip()]
            reading.paragraphs.append(paragraph)
    if reading is not None:
        clauses.append(reading.clause())
    return clauses


@functools.cache
def _top_level(file: Path) -> list[ast.stmt]:
    return ast.parse(file.read_text(encoding="utf-8"), filename=str(file)).body


def find_test(entry: str, root: Path = ROOT) -> str | None:
    """Check that ``entry`` (``tests/x.py::test_y`` or ``tests/x.py::TestC::test_y``) is a collected test.

    Returns:
        None if it is, else what is wrong.
    """
    path, *names = entry.split("::")
    file = root / path
    if not file.is_file():
        return f"{path} does not exist"
    if not Path(path).name.startswith("test_"):
        return f"{path} is not a test file pytest collects (its name must start with 'test_')"
    body = _top_level(file)
    *classes, function = names
    for depth, name in enumerate(classes):
        cls = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == name), None)
        if cls is None:
            where = f"{path}::{'::'.join(classes[:depth])}" if depth else path
            return f"{where} has no {'top-level ' if not depth else ''}class named {name!r}"
        if not name.startswith("Test"):
            return f"{entry}: pytest collects only classes named 'Test*'"
        body = cls.body
    found = any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == function for n in body)
    if not found:
        where = f"{path}::{'::'.join(classes)}" if classes else path
        return f"{where} has no {'' if classes else 'top-level '}function named {function!r}"
    if not function.startswith("test_"):
        return f"{entry}: pytest collects only functions named 'test_*'"
    return None


CLAUSES = parse_rules(RULES.read_text(encoding="utf-8")) if RULES.is_file() else []


def test_rules_file_exists() -> None:
    """The rules are written down in specs/rules.md."""
    assert RULES.is_file(), f"{RULES} is missing"
    assert CLAUSES, "specs/rules.md has no clause headings like '### R7 Claims'"


@pytest.mark.parametrize("ruling", RULINGS)
def test_every_ruling_is_a_clause(ruling: str) -> None:
    """Each ruling R1-R22 is a clause heading of its own in specs/rules.md."""
    numbers = [c.number for c in CLAUSES]
    assert ruling in numbers, f"specs/rules.md has no clause for ruling {ruling}: add a heading '### {ruling} <title>'"


def test_clause_numbers_are_unique_and_every_r_clause_is_a_ruling() -> None:
    """No clause number appears twice, and no R clause claims a ruling number rulings.md does not have."""
    numbers = [c.number for c in CLAUSES]
    duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
    assert not duplicates, f"specs/rules.md repeats clause numbers {duplicates}"
    unknown = [n for n in numbers if n.startswith("R") and n.split(".")[0] not in RULINGS]
    assert not unknown, f"specs/rules.md has clauses {unknown} for rulings that do not exist (R1-R22)"


@pytest.mark.parametrize("clause", CLAUSES, ids=[c.number for c in CLAUSES])
def test_every_clause_names_tests_that_exist(clause: Clause) -> None:
    """Each clause has one well-formed Tests paragraph naming at least one test, and every test named exists."""
    where = f"specs/rules.md:{clause.line}: clause {clause.number} ({clause.title})"
    assert not clause.problems, f"{where}: " + "; ".join(clause.problems)
    assert clause.tests, f"{where} names no test"
    missing = [f"{entry}: {why}" for entry in clause.tests if (why := find_test(entry)) is not None]
    assert not missing, f"{where} names tests that do not exist:\n" + "\n".join(missing)


def test_every_rule_test_is_named_by_a_clause() -> None:
    """Every test in tests/test_rules_*.py is named by some clause, so no rule test goes untraced."""
    named = {entry for clause in CLAUSES for entry in clause.tests}
    orphans = []
    for file in sorted((ROOT / "tests").glob("test_rules_*.py")):
        path = file.relative_to(ROOT).as_posix()
        tests = [n.name for n in ast.parse(file.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef)]
        orphans += [f"{path}::{name}" for name in tests if name.startswith("test_") and f"{path}::{name}" not in named]
    assert not orphans, "tests no clause of specs/rules.md names:\n" + "\n".join(orphans)


# --- sources: each clause says what in the rules it rests on ----------------------------------------

CITATIONS = citations(RULES.read_text(encoding="utf-8")) if RULES.is_file() else []


@pytest.mark.parametrize("clause", CLAUSES, ids=[c.number for c in CLAUSES])
def test_every_clause_cites_a_source(clause: Clause) -> None:
    """Each clause has at least one Source paragraph: a paragraph of 000 or, where 000 is silent, a ruling."""
    cited = [c for c in CITATIONS if c.clause == clause.number]
    assert cited, f"specs/rules.md:{clause.line}: clause {clause.number} cites no source (add a 'Source:' paragraph)"


@pytest.mark.parametrize("citation", CITATIONS, ids=[f"{c.clause}-line{c.line}" for c in CITATIONS])
def test_every_source_is_well_formed(citation: Citation) -> None:
    """Each Source paragraph cites 000 (heading, paragraph, at most six words, English) or a ruling R1-R22.

    Whether the cited words are really in 000 is checked by specs/check_sources.py, which CI runs with the
    seeds beside the clone; this test needs nothing outside the repository.
    """
    text, where = citation.text, f"specs/rules.md:{citation.line}"
    seed, ruling = SEED_SOURCE.match(text), RULING_SOURCE.match(text)
    assert seed or ruling, f"{where}: {text[:70]!r} is in neither source format"
    if seed:
        assert 1 <= len(seed.group("words").split()) <= MAX_WORDS, f"{where}: quote 1 to {MAX_WORDS} words"
        assert int(seed.group("paragraph")) >= 1, f"{where}: paragraphs count from 1"
        assert len(seed.group("english").split()) >= 3, f"{where}: give an English rendering of the paragraph"
    else:
        assert ruling is not None
        assert ruling.group("ruling") in (*RULINGS, "intro"), f"{where}: no ruling {ruling.group('ruling')}"


def test_every_ruling_clause_rests_on_000_or_names_its_ruling() -> None:
    """R clauses restate rulings: each cites 000 or, where 000 says nothing of it, its own ruling."""
    for clause in (c for c in CLAUSES if c.number.startswith("R")):
        texts = [c.text for c in CITATIONS if c.clause == clause.number]
        from_000 = any(SEED_SOURCE.match(t) for t in texts)
        own = any((m := RULING_SOURCE.match(t)) and m.group("ruling") == clause.number for t in texts)
        assert from_000 or own, f"{clause.number} cites neither 000 nor rulings.md {clause.number}"


_SEED = """\
Title of the rules
Setup
- 10 tokens (of two kinds)
Put every token in the bag. Then draw one.
Scoring
The tallest stack wins: count the tokens.
"""

_RULINGS = "- **R1 Tokens.** Ten tokens.\n- **R2 Bag.** A bag.\n"

_CITING = """\
### R1 Tokens

Source: 000 § Setup ¶1 "10 tokens": ten tokens of two kinds.

Source: 000 § Setup ¶2 "Put every token in the bag.": put them all in the bag, then draw one.

Source: 000 § Scoring ¶1 "the shortest stack": the tallest stack wins.

Source: 000 § Ending ¶1 "wins": nothing.

Source: 000 § Setup ¶5 "draw": nothing.

Source: 000 § Setup ¶2 "Put every token in the bag. Then": too long a quote.

Source: rulings.md R2: the bag.

Source: rulings.md R9: no such ruling.

Source: the box.

Tests: `tests/test_x.py::test_y`
"""


def test_seed_sections_split_headings_and_paragraphs() -> None:
    """A heading is a line that is no list item and does not end like a sentence; the lines under it are paragraphs."""
    assert seed_sections(_SEED) == {
        "Title of the rules": [],
        "Setup": ["- 10 tokens (of two kinds)", "Put every token in the bag. Then draw one."],
        "Scoring": ["The tallest stack wins: count the tokens."],
    }


def test_source_checker_finds_every_kind_of_wrong_citation() -> None:
    """check_sources accepts true citations and reports each wrong heading, paragraph, quote, length and ruling."""
    problems = check(_CITING, _SEED, _RULINGS)
    assert [c.text[:20] for c in citations(_CITING)][:2] == ["Source: 000 § Setup ", "Source: 000 § Setup "]
    assert problems == [
        "specs/rules.md:7: R1: 'the shortest stack' is not in 000's 'Scoring' paragraph 1",
        "specs/rules.md:9: R1: 000 has no heading 'Ending'",
        "specs/rules.md:11: R1: 000's 'Setup' has 2 paragraphs, not 5",
        "specs/rules.md:13: R1: cite at most 6 words, not 7",
        "specs/rules.md:17: R1: rulings.md has no ruling R9",
        "specs/rules.md:19: R1: 'Source: the box.'... is not a source in the format of specs/rules.md",
    ]


# --- the checker itself must catch what it is for ----------------------------------------------------

_SAMPLE = """\
# Title

Intro naming `tests/test_traceability.py::test_rules_file_exists` outside any clause.

## Group

### R1 Tokens

Text.

Tests: `tests/test_traceability.py::test_rules_file_exists`,
`tests/test_traceability.py::test_every_ruling_is_a_clause`

### R2 Tiles

No tests here.

### E1 Engine ruling

Tests: tests/test_traceability.py::test_rules_file_exists, not a path

```
### R3 Inside a fence is not a clause
```
"""


def test_parser_reads_clauses_entries_and_problems() -> None:
    """The parser finds each clause, joins a Tests paragraph over lines, and reports malformed clauses."""
    clauses = parse_rules(_SAMPLE)
    assert [(c.number, c.title) for c in clauses] == [("R1", "Tokens"), ("R2", "Tiles"), ("E1", "Engine ruling")]
    assert clauses[0].tests == (
        "tests/test_traceability.py::test_rules_file_exists",
        "tests/test_traceability.py::test_every_ruling_is_a_clause",
    )
    assert clauses[0].problems == ()
    assert clauses[0].line == 7
    assert clauses[1].problems == ("it has no 'Tests:' paragraph",)
    assert clauses[2].tests == ("tests/test_traceability.py::test_rules_file_exists",)
    assert clauses[2].problems == ("'not a path' is not an entry like `tests/test_x.py::test_name`",)


def test_parser_reports_two_tests_paragraphs() -> None:
    """A clause with two Tests paragraphs is malformed: the format asks for one."""
    text = "### R4 Start\n\nTests: `tests/a.py::test_a`\n\nTests: `tests/a.py::test_b`\n"
    (clause,) = parse_rules(text)
    assert clause.tests == ("tests/a.py::test_a", "tests/a.py::test_b")
    assert clause.problems == ("it has 2 'Tests:' paragraphs; give one",)


def test_find_test_accepts_real_tests_and_explains_missing_ones(tmp_path: Path) -> None:
    """find_test accepts a collected test and says why anything else is not one."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "def test_a():\n    pass\n\n"
        "def helper():\n    pass\n\n"
        "class TestC:\n    def test_m(self):\n        pass\n\n"
        "class Other:\n    def test_m(self):\n        pass\n\n"
        "def outer():\n    def test_inner():\n        pass\n",
        encoding="utf-8",
    )
    (tmp_path / "tests" / "x_helpers.py").write_text("def test_a():\n    pass\n", encoding="utf-8")
    assert find_test("tests/test_x.py::test_a", tmp_path) is None
    assert find_test("tests/test_x.py::TestC::test_m", tmp_path) is None
    assert find_test("tests/test_x.py::test_b", tmp_path) == "tests/test_x.py has no top-level function named 'test_b'"
    assert (
        find_test("tests/test_x.py::helper", tmp_path)
        == "tests/test_x.py::helper: pytest collects only functions named 'test_*'"
    )
    assert (
        find_test("tests/test_x.py::test_inner", tmp_path)
        == "tests/test_x.py has no top-level function named 'test_inner'"
    )
    assert find_test("tests/test_x.py::Other::test_m", tmp_path) == (
        "tests/test_x.py::Other::test_m: pytest collects only classes named 'Test*'"
    )
    assert (
        find_test("tests/test_x.py::TestC::test_z", tmp_path) == "tests/test_x.py::TestC has no function named 'test_z'"
    )
    assert find_test("tests/test_y.py::test_a", tmp_path) == "tests/test_y.py does not exist"
    assert find_test("tests/x_helpers.py::test_a", tmp_path) == (
        "tests/x_helpers.py is not a test file pytest collects (its name must start with 'test_')"
    )
