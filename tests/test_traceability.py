"""Traceability: every ruling is a clause of its game's spec, each clause cites its sources, and names tests.

Two specs: ``specs/rules.md`` (Cheeky Monkey, rulings R1-R22) and ``specs/too-many-monkeys.md`` (Too Many
Monkeys, rulings TM1-TM26 and the note on the outcome). The format (described at the top of each): a clause
is a heading ``### R7 Claims`` (``### E3 ...`` for the engine's own rulings; ``### TM14 ...`` and
``### TME3 ...`` in the second spec), and its ``Tests:`` paragraph lists ``tests/<file>.py::<test>`` entries
(``tests/<file>.py::<Class>::<test>`` for a method), separated by commas.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import attrs
import pytest

from specs.check_sources import (
    CHEEKY_MONKEY,
    MAX_WORDS,
    TOO_MANY_MONKEYS,
    Citation,
    Spec,
    check,
    citations,
    seed_sections,
)

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "specs" / "rules.md"
RULINGS = tuple(f"R{n}" for n in range(1, 23))
"""The rulings of shared/rulings.md, each of which must be a clause."""

_CLAUSE = re.compile(r"^###\s+((?:TME|TM|R|E)\d+(?:\.\d+)?)\s+(\S.*)$")
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


@attrs.frozen
class SpecFile:
    """One game's spec as this test reads it: its clauses, its sources, and the rulings it must restate."""

    spec: Spec
    """How the spec cites its sources (from specs/check_sources.py)."""
    rulings: tuple[str, ...]
    """The numbered rulings, each of which must be a clause of its own."""
    letters: tuple[str, ...]
    """The clause numbers' prefixes: a ruling's, then the engine's own rulings'."""
    rule_tests: str
    """The rule test files (a glob under tests/), each of whose tests some clause must name."""
    notes: tuple[str, ...] = ()
    """Rulings without a number that some clause must cite (``Outcome``)."""

    @property
    def path(self) -> Path:
        """The spec file."""
        return self.spec.path

    @property
    def name(self) -> str:
        """The file's name, for messages and test ids."""
        return self.spec.path.name

    @functools.cached_property
    def clauses(self) -> list[Clause]:
        """The clauses, in order (none if the file is missing)."""
        return parse_rules(self.path.read_text(encoding="utf-8")) if self.path.is_file() else []

    @functools.cached_property
    def citations(self) -> list[Citation]:
        """The Source paragraphs, in order."""
        return citations(self.path.read_text(encoding="utf-8"), self.spec) if self.path.is_file() else []


SPEC_FILES = (
    SpecFile(CHEEKY_MONKEY, RULINGS, ("R", "E"), "test_rules_*.py"),
    SpecFile(
        TOO_MANY_MONKEYS,
        tuple(f"TM{n}" for n in range(1, 27)),
        ("TM", "TME"),
        "toomany/test_rules_*.py",
        notes=("Outcome",),
    ),
)
"""Both games' specs."""

CLAUSES = SPEC_FILES[0].clauses
"""The clauses of specs/rules.md."""
_ALL_CLAUSES = [(spec_file, clause) for spec_file in SPEC_FILES for clause in spec_file.clauses]
_ALL_CITATIONS = [(spec_file, citation) for spec_file in SPEC_FILES for citation in spec_file.citations]


def _prefix(number: str) -> str:
    return re.sub(r"[\d.]+$", "", number)


@pytest.mark.parametrize("spec_file", SPEC_FILES, ids=[f.name for f in SPEC_FILES])
def test_rules_file_exists(spec_file: SpecFile) -> None:
    """Each game's rules are written down in its spec file, as clauses."""
    assert spec_file.path.is_file(), f"{spec_file.path} is missing"
    assert spec_file.clauses, f"specs/{spec_file.name} has no clause headings like '### {spec_file.rulings[6]} ...'"


@pytest.mark.parametrize(
    ("spec_file", "ruling"),
    [(spec_file, ruling) for spec_file in SPEC_FILES for ruling in spec_file.rulings],
    ids=[ruling for spec_file in SPEC_FILES for ruling in spec_file.rulings],
)
def test_every_ruling_is_a_clause(spec_file: SpecFile, ruling: str) -> None:
    """Each ruling (R1-R22, TM1-TM26) is a clause heading of its own in its game's spec."""
    numbers = [c.number for c in spec_file.clauses]
    assert ruling in numbers, f"specs/{spec_file.name} has no clause for ruling {ruling}: add '### {ruling} <title>'"


@pytest.mark.parametrize("spec_file", SPEC_FILES, ids=[f.name for f in SPEC_FILES])
def test_clause_numbers_are_unique_and_every_r_clause_is_a_ruling(spec_file: SpecFile) -> None:
    """No clause number appears twice, each has its spec's prefix, and no ruling clause names a ruling that is not."""
    numbers = [c.number for c in spec_file.clauses]
    duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
    assert not duplicates, f"specs/{spec_file.name} repeats clause numbers {duplicates}"
    ruling, engine = spec_file.letters
    foreign = [n for n in numbers if _prefix(n) not in spec_file.letters]
    assert not foreign, f"specs/{spec_file.name} has clauses {foreign} of another game (its are {ruling}, {engine})"
    unknown = [n for n in numbers if _prefix(n) == ruling and n.split(".")[0] not in spec_file.rulings]
    assert not unknown, f"specs/{spec_file.name} has clauses {unknown} for rulings that do not exist"


@pytest.mark.parametrize(("spec_file", "clause"), _ALL_CLAUSES, ids=[c.number for _, c in _ALL_CLAUSES])
def test_every_clause_names_tests_that_exist(spec_file: SpecFile, clause: Clause) -> None:
    """Each clause has one well-formed Tests paragraph naming at least one test, and every test named exists."""
    where = f"specs/{spec_file.name}:{clause.line}: clause {clause.number} ({clause.title})"
    assert not clause.problems, f"{where}: " + "; ".join(clause.problems)
    assert clause.tests, f"{where} names no test"
    missing = [f"{entry}: {why}" for entry in clause.tests if (why := find_test(entry)) is not None]
    assert not missing, f"{where} names tests that do not exist:\n" + "\n".join(missing)


@pytest.mark.parametrize("spec_file", SPEC_FILES, ids=[f.name for f in SPEC_FILES])
def test_every_rule_test_is_named_by_a_clause(spec_file: SpecFile) -> None:
    """Every test in the game's rule test files is named by some clause, so no rule test goes untraced."""
    named = {entry for clause in spec_file.clauses for entry in clause.tests}
    files = sorted((ROOT / "tests").glob(spec_file.rule_tests))
    assert files, f"no rule tests match tests/{spec_file.rule_tests}"
    orphans = []
    for file in files:
        path = file.relative_to(ROOT).as_posix()
        tests = [n.name for n in ast.parse(file.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef)]
        orphans += [f"{path}::{name}" for name in tests if name.startswith("test_") and f"{path}::{name}" not in named]
    assert not orphans, f"tests no clause of specs/{spec_file.name} names:\n" + "\n".join(orphans)


# --- sources: each clause says what in the rules it rests on ----------------------------------------

CITATIONS = SPEC_FILES[0].citations
"""The Source paragraphs of specs/rules.md."""


@pytest.mark.parametrize(("spec_file", "clause"), _ALL_CLAUSES, ids=[c.number for _, c in _ALL_CLAUSES])
def test_every_clause_cites_a_source(spec_file: SpecFile, clause: Clause) -> None:
    """Each clause has at least one Source paragraph: a paragraph of the seed or, where it is silent, a ruling."""
    cited = [c for c in spec_file.citations if c.clause == clause.number]
    assert cited, f"specs/{spec_file.name}:{clause.line}: clause {clause.number} cites no source (add a 'Source:')"


@pytest.mark.parametrize(
    ("spec_file", "citation"), _ALL_CITATIONS, ids=[f"{c.clause}-line{c.line}" for _, c in _ALL_CITATIONS]
)
def test_every_source_is_well_formed(spec_file: SpecFile, citation: Citation) -> None:
    """Each Source paragraph cites the seed (heading, paragraph, at most six words, English) or a ruling.

    Whether the cited words are really in the seed is checked by specs/check_sources.py, which CI runs with
    the seeds beside the clone; this test needs nothing outside the repository.
    """
    text, where = citation.text, f"specs/{spec_file.name}:{citation.line}"
    seed, ruling = spec_file.spec.seed_source.match(text), spec_file.spec.ruling_source.match(text)
    assert seed or ruling, f"{where}: {text[:70]!r} is in neither source format of specs/{spec_file.name}"
    if seed:
        assert 1 <= len(seed.group("words").split()) <= MAX_WORDS, f"{where}: quote 1 to {MAX_WORDS} words"
        assert int(seed.group("paragraph")) >= 1, f"{where}: paragraphs count from 1"
        assert len(seed.group("english").split()) >= 3, f"{where}: give an English rendering of the paragraph"
    else:
        assert ruling is not None
        known = (*spec_file.rulings, *spec_file.notes, "intro")
        assert ruling.group("ruling") in known, f"{where}: no ruling {ruling.group('ruling')}"


@pytest.mark.parametrize("spec_file", SPEC_FILES, ids=[f.name for f in SPEC_FILES])
def test_every_ruling_clause_rests_on_000_or_names_its_ruling(spec_file: SpecFile) -> None:
    """Ruling clauses restate rulings: each cites its seed or, where the seed says nothing of it, its own ruling."""
    for clause in (c for c in spec_file.clauses if _prefix(c.number) == spec_file.letters[0]):
        texts = [c.text for c in spec_file.citations if c.clause == clause.number]
        from_seed = any(spec_file.spec.seed_source.match(t) for t in texts)
        own = any((m := spec_file.spec.ruling_source.match(t)) and m.group("ruling") == clause.number for t in texts)
        assert from_seed or own, f"{clause.number} cites neither {spec_file.spec.seed} nor its ruling"


@pytest.mark.parametrize("spec_file", SPEC_FILES, ids=[f.name for f in SPEC_FILES])
def test_every_unnumbered_ruling_is_cited_by_a_clause(spec_file: SpecFile) -> None:
    """A ruling without a number (Too Many Monkeys' note on the outcome) is restated by a clause that cites it."""
    for note in spec_file.notes:
        cited = [
            c for c in spec_file.citations if (m := spec_file.spec.ruling_source.match(c.text)) and m["ruling"] == note
        ]
        assert cited, f"no clause of specs/{spec_file.name} cites the rulings' {note!r}"


def test_the_one_place_the_engine_follows_001_over_a_ruling_says_so() -> None:
    """TM6: where the engine reads 001 differently from the rulings, the clause says so, and no other clause does."""
    text = TOO_MANY_MONKEYS.path.read_text(encoding="utf-8")
    saying = [c.number for c in SPEC_FILES[1].clauses if "follows `001` over the ruling" in _clause_text(text, c)]
    assert saying == ["TM6"]


def _clause_text(text: str, clause: Clause) -> str:
    lines = text.splitlines()[clause.line :]
    end = next((i for i, line in enumerate(lines) if line.startswith("#")), len(lines))
    return "\n".join(lines[:end])


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


_SEED_001 = """\
Reglas
Componentes
• 10 cartas
Mapache
¡Solo monos! Si roba un mapache, busque.
Nota: ¡ Solo puedes elegir números!
"""

_RULINGS_001 = "- **TM1 Deck.** Ten cards.\n- **Outcome.** One winner.\n"

_CITING_001 = """\
### TM1 Deck

Source: 001 § Componentes ¶1 "10 cartas": ten cards.

Source: 001 § Mapache ¶2 "Solo puedes elegir números": only numbers.

Source: 001 § Nota: ¡ Solo puedes elegir números! ¶1 "x": not a heading.

Source: rulings-too-many-monkeys.md Outcome: one winner.

Source: rulings-too-many-monkeys.md TM2: no such ruling.

Source: rulings.md R1: the other game, its rulings.

Tests: `tests/test_x.py::test_y`
"""


def test_the_second_seed_reads_bullets_and_exclamations_as_paragraphs() -> None:
    """In 001 a line starting with a bullet, or ending with ``!`` or ``?``, is a paragraph, not a heading."""
    assert seed_sections(_SEED_001) == {
        "Reglas": [],
        "Componentes": ["• 10 cartas"],
        "Mapache": ["¡Solo monos! Si roba un mapache, busque.", "Nota: ¡ Solo puedes elegir números!"],
    }


def test_source_checker_checks_the_second_spec_against_001_and_its_rulings() -> None:
    """check_sources reads TM clauses, accepts true citations of 001 and its rulings, and reports the wrong ones."""
    problems = check(_CITING_001, _SEED_001, _RULINGS_001, TOO_MANY_MONKEYS)
    assert [c.clause for c in citations(_CITING_001, TOO_MANY_MONKEYS)] == ["TM1"] * 6
    assert problems == [
        "specs/too-many-monkeys.md:7: TM1: 001 has no heading 'Nota: ¡ Solo puedes elegir números!'",
        "specs/too-many-monkeys.md:11: TM1: rulings-too-many-monkeys.md has no ruling TM2",
        "specs/too-many-monkeys.md:13: TM1: 'Source: rulings.md R1: the other game, its rulings.'... is not a source "
        "in the format of specs/too-many-monkeys.md",
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
