"""Sphinx extension for the cheekymonkey docs: the rules page, its links to code and tests, and API checks.

What it does:

- **The rules pages.** One page per game, from its spec: ``rules/cheeky-monkey.md`` from ``specs/rules.md``,
  ``rules/too-many-monkeys.md`` from ``specs/too-many-monkeys.md``. Each is a stub; when Sphinx reads it,
  its text is replaced by the spec with a label on every clause (``rule-r7``, ``rule-tm14``), each
  ``tests/x.py::test_name`` turned into a link to that test's source, and a line under each clause linking
  the code that names the clause in a comment or docstring (``# R7: claims chain``, ``# TM14: ...``). Each
  game's code page and tests page (``rules/code.md`` and ``rules/tests.md``, ``rules/too-many-monkeys-code.md``
  and ``rules/too-many-monkeys-tests.md``) are generated the same way and show that code and those tests,
  each with links back to its clauses. ``rules/index.md`` lists every clause of both games beside its
  sources. A test named in the rules that does not exist is a warning, so ``-W`` fails the build.
- **Re-exported names.** Every name in ``cheekymonkey.__all__`` is documented at ``cheekymonkey.<name>``;
  a type hint that names its defining module (``cheekymonkey.cheeky.rules.Ruleset``) is resolved to that entry.
- **Coverage.** Every name in the ``__all__`` of every public module is documented and has a docstring,
  or the build warns.
- **Offline intersphinx.** :func:`fallback_inventories` writes small inventories of the Python and attrs
  names these docs use, used only when the published inventories cannot be fetched.
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib
import inspect
import io
import os
import pkgutil
import re
import tempfile
import tokenize
import zlib
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from docutils import nodes  # type: ignore[import-untyped]
from sphinx.application import Sphinx
from sphinx.domains.python import PythonDomain
from sphinx.environment import BuildEnvironment
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

LOGGER = logging.getLogger(__name__)

INDEX_DOC = "rules/index"


class Game:
    """One game's rules pages: the spec they are made from, and the documents they fill."""

    def __init__(self, title: str, spec: str, rules_doc: str, code_doc: str, tests_doc: str, prefixes: str) -> None:
        self.title = title
        self.spec = spec
        self.rules_doc = rules_doc
        self.code_doc = code_doc
        self.tests_doc = tests_doc
        self.prefixes = tuple(prefixes.split())

    @property
    def docs(self) -> tuple[str, str, str]:
        """The three documents: the rules, the code, the tests."""
        return self.rules_doc, self.code_doc, self.tests_doc

    def owns(self, clause: str) -> bool:
        """Whether ``clause`` (``R7``, ``TME3``) is one of this game's clauses.

        >>> GAMES[1].owns("TME3"), GAMES[1].owns("E3"), GAMES[0].owns("E3")
        (True, False, True)
        """
        return clause_key(clause)[0] in self.prefixes


GAMES = (
    Game("Cheeky Monkey", "rules.md", "rules/cheeky-monkey", "rules/code", "rules/tests", "R E"),
    Game(
        "Too Many Monkeys",
        "too-many-monkeys.md",
        "rules/too-many-monkeys",
        "rules/too-many-monkeys-code",
        "rules/too-many-monkeys-tests",
        "TM TME",
    ),
)
"""The games whose specs the docs render, each spec in the folder of ``cheekymonkey_rules``."""

# ---------------------------------------------------------------------------------------------------------
# Offline intersphinx fallback

# name, role, URI (``$`` stands for the name), per project. Only names these docs refer to.
_PYTHON_OBJECTS = """
int py:class library/functions.html#$
float py:class library/functions.html#$
bool py:class library/functions.html#$
str py:class library/stdtypes.html#$
bytes py:class library/stdtypes.html#$
tuple py:class library/stdtypes.html#$
list py:class library/stdtypes.html#$
dict py:class library/stdtypes.html#$
object py:class library/functions.html#$
type py:class library/functions.html#$
None py:data library/constants.html#$
True py:data library/constants.html#$
False py:data library/constants.html#$
Exception py:exception library/exceptions.html#$
ValueError py:exception library/exceptions.html#$
TypeError py:exception library/exceptions.html#$
KeyError py:exception library/exceptions.html#$
RuntimeError py:exception library/exceptions.html#$
fractions.Fraction py:class library/fractions.html#$
random.Random py:class library/random.html#$
collections.abc.Iterable py:class library/collections.abc.html#$
collections.abc.Iterator py:class library/collections.abc.html#$
collections.abc.Sequence py:class library/collections.abc.html#$
collections.abc.Hashable py:class library/collections.abc.html#$
collections.abc.Mapping py:class library/collections.abc.html#$
collections.abc.Callable py:class library/collections.abc.html#$
typing.Any py:data library/typing.html#$
typing.Protocol py:class library/typing.html#$
typing.TypeAlias py:data library/typing.html#$
typing.Final py:data library/typing.html#$
enum.Enum py:class library/enum.html#$
enum.IntEnum py:class library/enum.html#$
json py:module library/json.html#module-json
json.dumps py:function library/json.html#$
json.loads py:function library/json.html#$
pickle py:module library/pickle.html#module-pickle
argparse.ArgumentParser py:class library/argparse.html#$
argparse.Namespace py:class library/argparse.html#$
multiprocessing py:module library/multiprocessing.html#module-multiprocessing
pathlib.Path py:class library/pathlib.html#$
importlib.resources.abc.Traversable py:class library/importlib.resources.abc.html#$
importlib.metadata.EntryPoint py:class library/importlib.metadata.html#entry-points
logging py:module library/logging.html#module-logging
collections.Counter py:class library/collections.html#$
collections.abc.Awaitable py:class library/collections.abc.html#$
collections.abc.AsyncIterator py:class library/collections.abc.html#$
socket.socket py:class library/socket.html#$
concurrent.futures.Executor py:class library/concurrent.futures.html#$
concurrent.futures.Future py:class library/concurrent.futures.html#$
"""

_ATTRS_OBJECTS = """
attrs.frozen py:function api.html#$
attrs.define py:function api.html#$
attrs.field py:function api.html#$
attrs.evolve py:function api.html#$
attrs.asdict py:function api.html#$
"""


def _inventory(project: str, objects: str) -> bytes:
    lines = []
    for line in objects.strip().splitlines():
        name, role, uri = line.split()
        lines.append(f"{name} {role} 1 {uri} -\n")
    header = (
        "# Sphinx inventory version 2\n"
        f"# Project: {project}\n"
        "# Version: \n"
        "# The remainder of this file is compressed using zlib.\n"
    )
    return header.encode() + zlib.compress("".join(lines).encode())


def fallback_inventories() -> dict[str, str]:
    """Write the offline inventories to a temporary directory; return their paths by project."""
    folder = Path(tempfile.gettempdir()) / f"cheekymonkey-docs-inventories-{os.getuid()}"
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for project, objects in (("python", _PYTHON_OBJECTS), ("attrs", _ATTRS_OBJECTS)):
        path = folder / f"{project}.inv"
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(_inventory(project, objects))
        temporary.replace(path)  # atomic, so two builds at once never read half a file
        paths[project] = str(path)
    return paths


# ---------------------------------------------------------------------------------------------------------
# Clauses in code: which top-level unit of which module names which clause

_CLAUSE = re.compile(r"\b(TME|TM|R|E)(\d{1,2}(?:\.\d+)?)\b(?:\s*[-\u2013]\s*\1?(\d{1,2})\b)?")


def clauses_in(text: str) -> set[str]:
    """The clauses a comment or docstring names (``R7``, ``E3``, ``R7.1``, ``TM14``, ``TME3``), ranges expanded.

    >>> sorted(clauses_in("# R16-R18: scoring; see E3, R7.1 and R22 (not E501)"), key=clause_key)
    ['E3', 'R7.1', 'R16', 'R17', 'R18', 'R22']
    >>> sorted(clauses_in("# TM13-TM15 and TME3, not HTML5 or RUF005"), key=clause_key)
    ['TM13', 'TM14', 'TM15', 'TME3']
    """
    found: set[str] = set()
    for match in _CLAUSE.finditer(text):
        letter, first, last = match.group(1), match.group(2), match.group(3)
        found.add(letter + first)
        if last and "." not in first:
            found.update(f"{letter}{n}" for n in range(int(first) + 1, int(last) + 1))
    return found


def clause_key(clause: str) -> tuple[str, tuple[int, ...]]:
    """Sort clauses by letters, then number: R2 before R10, R7 before R7.1, TM9 before TM10 before TME1."""
    letters = clause.rstrip("0123456789.")
    return letters, tuple(int(part) for part in clause[len(letters) :].split("."))


def clause_label(clause: str) -> str:
    """The Sphinx label of a clause's heading on the rules page: ``rule-r7``, ``rule-r7-1``."""
    return "rule-" + clause.lower().replace(".", "-")


class Unit:
    """A piece of a source file shown on the code page: a function, a class's header, or a statement."""

    def __init__(self, path: str, name: str, first: int, last: int) -> None:
        self.path = path
        self.name = name
        self.first = first
        self.last = last
        self.clauses: set[str] = set()

    @property
    def label(self) -> str:
        """The Sphinx label of the unit's heading on the code page."""
        return "code-" + re.sub(r"[^a-z0-9]+", "-", f"{self.path}-{self.name}".lower()).strip("-")


def _units(tree: ast.Module, path: str) -> list[Unit]:
    """Every unit of a module: functions and methods whole, other statements with their docstrings."""
    units: list[Unit] = []

    def walk(body: list[ast.stmt], prefix: str) -> None:
        previous: Unit | None = None
        for index, node in enumerate(body):
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            last = node.end_lineno or node.lineno
            value = node.value if isinstance(node, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                if index == 0 and not prefix:
                    previous = None  # the module docstring
                    continue
                if previous is not None:
                    previous.last = last  # an attribute docstring belongs to the statement above it
                    continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                unit = Unit(path, prefix + node.name, first, last)
                units.append(unit)
                previous = None
                continue
            if isinstance(node, ast.ClassDef):
                header_end = node.body[0].lineno - 1
                head = node.body[0]
                if isinstance(head, ast.Expr) and isinstance(head.value, ast.Constant):
                    header_end = head.end_lineno or head.lineno
                units.append(Unit(path, prefix + node.name, first, header_end))
                walk(node.body[1:] if header_end >= node.body[0].lineno else node.body, f"{prefix}{node.name}.")
                previous = None
                continue
            names = [t.id for t in getattr(node, "targets", [getattr(node, "target", None)]) if isinstance(t, ast.Name)]
            unit = Unit(path, prefix + (names[0] if names else f"line {first}"), first, last)
            units.append(unit)
            previous = unit

    walk(tree.body, "")
    return units


def code_units(root: Path) -> list[Unit]:
    """Every unit of the package's source that names a clause, in file and line order."""
    found: list[Unit] = []
    for path in sorted((root / "cheekymonkey").rglob("*.py")):
        if path.name == "rule_words.py":
            continue  # the specs' own words, written from them (specs/make_rule_words.py): no code carries them out
        source = path.read_text(encoding="utf-8")
        relative = path.relative_to(root).as_posix()
        tree = ast.parse(source)
        units = _units(tree, relative)
        mentions: dict[int, set[str]] = defaultdict(set)
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.COMMENT, tokenize.STRING):
                for offset, text in enumerate(token.string.splitlines() or [""]):
                    mentions[token.start[0] + offset] |= clauses_in(text)
        for number, clauses in mentions.items():
            if not clauses:
                continue
            # The innermost unit holding the line: the one that starts last among those that contain it.
            holders = [u for u in units if u.first <= number <= u.last]
            if holders:
                max(holders, key=lambda u: u.first).clauses |= clauses
        found.extend(u for u in units if u.clauses)
    return found


# ---------------------------------------------------------------------------------------------------------
# Tests named in the rules


@functools.lru_cache(maxsize=256)
def _parse_cached(path: Path, mtime: float) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _parse(path: Path) -> ast.Module:
    """Parse a test file once per build (a file is named by many clauses)."""
    return _parse_cached(path, path.stat().st_mtime)


_TEST_REF = re.compile(r"`?(tests/[\w/]+\.py)((?:::\w+)+)`?")


class NamedTest:
    """A test named in the rules, ``tests/x.py::test_name`` or ``tests/x.py::TestClass::test_name``."""

    def __init__(self, path: str, names: tuple[str, ...]) -> None:
        self.path = path
        self.names = names
        self.clauses: set[str] = set()
        self.lines: tuple[int, int] | None = None

    @property
    def name(self) -> str:
        """The test's name, ``Class.method`` for a method."""
        return ".".join(self.names)

    @property
    def label(self) -> str:
        """The Sphinx label of the test's heading on the tests page."""
        return "test-" + re.sub(r"[^a-z0-9]+", "-", f"{self.path}-{self.name}".lower()).strip("-")

    def locate(self, root: Path) -> None:
        """Find the test's lines in its file; leave ``lines`` None if the file or test is not there."""
        path = root / self.path
        if not path.is_file():
            return
        body: list[ast.stmt] = _parse(path).body
        node: ast.stmt | None = None
        for name in self.names:
            node = next(
                (
                    n
                    for n in body
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name
                ),
                None,
            )
            if node is None:
                return
            body = node.body if isinstance(node, ast.ClassDef) else []
        if node is not None:
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            self.lines = (first, node.end_lineno or node.lineno)


# ---------------------------------------------------------------------------------------------------------
# The three generated pages

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_CLAUSE_HEADING = re.compile(r"^((?:TME|TM|R|E)\d+(?:\.\d+)?)\s")
_SOURCE = re.compile(r"^Source: (.*?)(?: \"[^\"]*\")?: ")


class SpecLine(NamedTuple):
    """A line of a spec, with where it stands: its number, whether it is fenced, its heading, its clause."""

    number: int
    """The line's number, from 1."""
    text: str
    """The line."""
    fence: bool
    """Whether it is inside a fenced block (or is a fence)."""
    heading: str | None
    """For a heading, its text after the ``#`` marks; None for any other line."""
    clause: str | None
    """The clause the line belongs to (for a clause heading, the clause it opens); None outside clauses."""


def spec_lines(text: str) -> Iterator[SpecLine]:
    r"""Each line of a spec with its place: a heading opens a clause, or closes the one before if it is none.

    >>> text = "\n".join(["## Turn", "### TM7 Place", "Text", "```", "### x", "```"])
    >>> [(line.heading, line.clause) for line in spec_lines(text)]
    [('Turn', None), ('TM7 Place', 'TM7'), (None, 'TM7'), (None, 'TM7'), (None, 'TM7'), (None, 'TM7')]
    """
    clause: str | None = None
    fence = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        heading = None if fence else _HEADING.match(line)
        if heading:
            opened = _CLAUSE_HEADING.match(heading.group(2) + " ")
            clause = opened.group(1) if opened else None
            yield SpecLine(number, line, False, heading.group(2), clause)
        else:
            yield SpecLine(number, line, fence, None, clause)


def _toctree(*docs: str) -> str:
    return "\n\n```{toctree}\n:hidden:\n\n" + "\n".join(doc.rpartition("/")[2] for doc in docs) + "\n```\n"


class RulesPages:
    """One game's rules page, code page and tests page, made from its spec and the sources."""

    def __init__(self, rules_path: Path, root: Path, game: Game = GAMES[0], units: list[Unit] | None = None) -> None:
        self.rules_path = rules_path
        self.root = root
        self.game = game
        self.text = rules_path.read_text(encoding="utf-8") if rules_path.is_file() else None
        self.units = [
            unit for unit in (code_units(root) if units is None else units) if any(map(game.owns, unit.clauses))
        ]
        self.tests: dict[tuple[str, tuple[str, ...]], NamedTest] = {}
        self.titles: dict[str, str] = {}
        if self.text is not None:
            self._scan()

    def _scan(self) -> None:
        assert self.text is not None
        for line in spec_lines(self.text):
            clause = line.clause
            if line.heading is not None:
                if clause is not None:
                    self.titles[clause] = line.heading
                continue
            if clause is None:
                continue
            for match in _TEST_REF.finditer(line.text):
                names = tuple(match.group(2).split("::")[1:])
                key = (match.group(1), names)
                if key not in self.tests:
                    self.tests[key] = NamedTest(match.group(1), names)
                    self.tests[key].locate(self.root)
                self.tests[key].clauses.add(clause)

    def _clause_links(self, clauses: set[str]) -> str:
        links = []
        for clause in sorted(filter(self.game.owns, clauses), key=clause_key):
            if clause in self.titles:
                links.append(f"{{ref}}`{clause} <{clause_label(clause)}>`")
            else:
                links.append(clause)
        return ", ".join(links)

    def rules(self, warn: Any) -> str:
        """The rules page: the spec with labels, test links and code links."""
        spec = f"specs/{self.rules_path.name}"
        toctree = _toctree(self.game.code_doc, self.game.tests_doc)
        if self.text is None:
            return f"# {self.game.title}\n\nThe rules are not written yet (`{spec}` is missing).\n" + toctree
        by_clause: dict[str, list[Unit]] = defaultdict(list)
        for unit in self.units:
            for named in filter(self.game.owns, unit.clauses):
                by_clause[named].append(unit)
        out: list[str] = []
        clause: str | None = None

        def close_clause() -> None:
            if clause is None:
                return
            units = sorted(by_clause.get(clause, []), key=_reading_order)
            if units:
                links = ", ".join(f"{{ref}}`{_short(u)} <{u.label}>`" for u in units)
                out.extend([f"*Code that names this clause:* {links}", ""])
            else:
                out.extend(["*Code that names this clause:* none (no comment or docstring cites it).", ""])

        for spec_line in spec_lines(self.text):
            line = spec_line.text
            if spec_line.heading is not None:
                close_clause()
                clause = spec_line.clause
                if clause is not None:
                    out.extend([f"({clause_label(clause)})=", line])
                else:
                    out.append(line)
                continue
            if not spec_line.fence and clause is not None:

                def link(match: re.Match[str], line_number: int = spec_line.number) -> str:
                    names = tuple(match.group(2).split("::")[1:])
                    test = self.tests[(match.group(1), names)]
                    if test.lines is None:
                        warn(f"{spec}:{line_number}: {match.group(0).strip('`')} names no test that exists")
                        return match.group(0)
                    return f"{{ref}}`{test.name} <{test.label}>`"

                line = _TEST_REF.sub(link, line)
                # Each clause's sources (the paragraph of 000, or the ruling) show beside it, labelled.
                if line.startswith("Source: "):
                    line = "**Source:** " + line.removeprefix("Source: ")
            out.append(line)
        close_clause()
        return "\n".join(out) + toctree

    def summary(self) -> list[str]:
        """A table of every clause, linked, beside its sources (the seed's heading and paragraph, or the ruling)."""
        if self.text is None:
            return [f"The rules of {self.game.title} are not written yet.", ""]
        out = ["| Clause | Sources |", "| --- | --- |"]
        clause: str | None = None
        sources: list[str] = []

        def row() -> None:
            if clause is not None:
                link = f"{{ref}}`{self.titles[clause]} <{clause_label(clause)}>`"
                out.append(f"| {link} | {'; '.join(sources) or 'none'} |")

        for line in spec_lines(self.text):
            if line.heading is not None:
                row()
                clause = line.clause
                sources = []
            elif clause is not None and not line.fence and (source := _SOURCE.match(line.text)):
                sources.append(source.group(1).replace("|", "\\|"))
        row()
        return [*out, ""]

    def code(self) -> str:
        """The code page: every unit that names a clause, with links back to the clauses."""
        example = "`# R7: claims chain`" if self.game is GAMES[0] else "`# TM14: the raccoon goes onto the pile`"
        rules = self.game.rules_doc.rpartition("/")[2]
        out = [
            f"# {self.game.title}: the rules in the code",
            "",
            "Every function, class or statement of the library whose comments or docstring name a clause of",
            f"{{doc}}`the rules <{rules}>` (as in {example}), with the clauses it names.",
            "",
        ]
        path = None
        for unit in self.units:
            if unit.path != path:
                path = unit.path
                out.extend([f"## `{path}`", ""])
            out.extend(
                [
                    f"({unit.label})=",
                    f"### `{unit.name}`",
                    "",
                    f"Names {self._clause_links(unit.clauses)}.",
                    "",
                    f"```{{literalinclude}} /../{unit.path}",
                    ":language: python",
                    f":lines: {unit.first}-{unit.last}",
                    ":lineno-match:",
                    "```",
                    "",
                ]
            )
        return "\n".join(out)

    def tests_page(self) -> str:
        """The tests page: every test the rules name, with its source and the clauses it checks."""
        rules = self.game.rules_doc.rpartition("/")[2]
        out = [
            f"# {self.game.title}: the rules' tests",
            "",
            f"Every test that {{doc}}`the rules <{rules}>` name, with the clauses that name it.",
            "",
        ]
        if not self.tests:
            out.extend(["The rules name no tests yet.", ""])
        path = None
        for test in sorted(self.tests.values(), key=lambda t: (t.path, t.lines or (0, 0))):
            if test.lines is None:
                continue
            if test.path != path:
                path = test.path
                out.extend([f"## `{path}`", ""])
            out.extend(
                [
                    f"({test.label})=",
                    f"### `{test.name}`",
                    "",
                    f"Checks {self._clause_links(test.clauses)}.",
                    "",
                    f"```{{literalinclude}} /../{test.path}",
                    ":language: python",
                    f":lines: {test.lines[0]}-{test.lines[1]}",
                    ":lineno-match:",
                    "```",
                    "",
                ]
            )
        return "\n".join(out)


# The engine core first, where the rules are carried out; then the modules built on it.
_MODULE_ORDER = ("engine", "state", "rules", "actions", "scoring", "events", "records", "play", "errors")


def _reading_order(unit: Unit) -> tuple[int, str, int]:
    module = _short(unit).rpartition(".")[0].rpartition(".")[2] or _short(unit).split(".")[0]
    rank = _MODULE_ORDER.index(module) if module in _MODULE_ORDER else len(_MODULE_ORDER)
    return rank, unit.path, unit.first


def _short(unit: Unit) -> str:
    module = unit.path.removeprefix("cheekymonkey/").removesuffix(".py").replace("/", ".")
    return f"{module}.{unit.name}"


EXPLANATION_DOC = "explanation/index"
PERFORMANCE_DOC = "explanation/performance"


def _list_performance(app: Sphinx, source: list[str]) -> None:
    """Add the performance page to the explanation toctree when it exists.

    The page is written with the benchmarks, by their author; listing it only when it is there keeps the
    build free of warnings either way (a missing page in a toctree, or a page in none).
    """
    if PERFORMANCE_DOC in app.env.found_docs:
        # The last entry of the page's toctree, just before its closing fence.
        source[0] = re.sub(r"(```\{toctree\}.*?\n)```", r"\1performance\n```", source[0], count=1, flags=re.DOTALL)


_PAGES: dict[str, RulesPages] = {}


def _clear_pages(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    _PAGES.clear()  # read the rules and the sources afresh in each build


def _pages(app: Sphinx) -> list[RulesPages]:
    """Each game's pages, made once per build: the specs sit in the folder of ``cheekymonkey_rules``."""
    if not _PAGES:
        root = Path(app.config.cheekymonkey_root)
        specs = Path(app.config.cheekymonkey_rules).parent
        units = code_units(root)
        for game in GAMES:
            _PAGES[game.rules_doc] = RulesPages(specs / game.spec, root, game, units)
    return list(_PAGES.values())


def index_page(pages: list[RulesPages]) -> str:
    """The rules' first page: each game's clauses in a table beside their sources, and the games' pages."""
    out = [
        "# The rules",
        "",
        "Each game's rules are written down as numbered clauses, each citing the passage of the published rules",
        "(in Spanish) it rests on, or the ruling that decides what they leave open, and naming the tests that",
        "would fail if it were broken. Each game's page gives the clauses in full, linked to the code that",
        "carries them out and to those tests.",
        "",
    ]
    for page in pages:
        rules = page.game.rules_doc.rpartition("/")[2]
        out += [f"## {page.game.title}", "", f"The clauses of {{doc}}`{page.game.title} <{rules}>`:", ""]
        out += page.summary()
    return "\n".join(out) + _toctree(*(page.game.rules_doc for page in pages))


def _source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    if docname == EXPLANATION_DOC:
        _list_performance(app, source)
        return
    every = _pages(app) if docname == INDEX_DOC or _game_doc(docname) else []
    if not every:
        return
    root = Path(app.config.cheekymonkey_root)
    # Rebuild these pages when the rules or any source they show changes.
    for pages in every:
        app.env.note_dependency(str(pages.rules_path))
        for unit in pages.units:
            app.env.note_dependency(str(root / unit.path))
        for test in pages.tests.values():
            if test.lines is not None:
                app.env.note_dependency(str(root / test.path))
    if docname == INDEX_DOC:
        source[0] = index_page(every)
        return
    pages = next(page for page in every if docname in page.game.docs)
    if docname == pages.game.rules_doc:
        source[0] = pages.rules(lambda message: LOGGER.warning(message, location=docname))
    elif docname == pages.game.code_doc:
        source[0] = pages.code()
    else:
        source[0] = pages.tests_page()


def _game_doc(docname: str) -> bool:
    return any(docname in game.docs for game in GAMES)


def _env_get_outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    # The generated pages depend on files Sphinx does not track as sources (tests, code), and the explanation
    # index on whether the performance page exists: always re-read them.
    generated = [INDEX_DOC, *(doc for game in GAMES for doc in game.docs), EXPLANATION_DOC]
    return [doc for doc in generated if doc in env.found_docs]


# ---------------------------------------------------------------------------------------------------------
# Re-exported names and API coverage


@functools.cache
def public_modules() -> list[str]:
    """The library's public modules: every module under ``cheekymonkey`` but the command line's."""
    package = importlib.import_module("cheekymonkey")
    names = ["cheekymonkey"]
    for info in pkgutil.walk_packages(package.__path__, "cheekymonkey."):
        parts = info.name.split(".")
        if any(part.startswith("_") for part in parts) or parts[1] == "cli":
            continue
        names.append(info.name)
    return names


@functools.cache
def canonical_names() -> dict[tuple[str, str], str]:
    """The documented name of every public name, by (module, name).

    A name re-exported by a package is documented once, under the shortest public module that exports
    it: ``cheekymonkey.apply``, not ``cheekymonkey.cheeky.engine.apply``; ``cheekymonkey.cheeky.verify.verify_ruleset``,
    not ``cheekymonkey.cheeky.verify.model.verify_ruleset``.
    """
    exported: list[tuple[str, str, object]] = []
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        exported.extend((module_name, name, getattr(module, name)) for name in getattr(module, "__all__", ()))
    shortest: dict[tuple[int, str], str] = {}
    # The fewest dots first; of modules as deep, the one that defines the name (cheekymonkey.outcome.ranks_by,
    # which cheekymonkey.game re-exports).
    for module_name, name, obj in sorted(
        exported, key=lambda e: (e[0].count("."), getattr(e[2], "__module__", None) != e[0])
    ):
        shortest.setdefault((id(obj), name), f"{module_name}.{name}")
    return {(module_name, name): shortest[(id(obj), name)] for module_name, name, obj in exported}


def _missing_reference(app: Sphinx, env: BuildEnvironment, node: Any, contnode: nodes.Element) -> Any:
    """Resolve a public name written under its defining module to the name it is documented under.

    Type hints name the defining module (``cheekymonkey.cheeky.rules.Ruleset``); docstrings of modules
    documented under their own name say ``IllegalActionError`` bare.
    """
    if node.get("refdomain") != "py":
        return None
    target: str = node.get("reftarget", "")
    if target.startswith("concurrent.futures._base."):
        # Type hints name the module these classes live in; Python documents them as concurrent.futures.X.
        from sphinx.ext import intersphinx

        node["reftarget"] = "concurrent.futures." + target.rpartition(".")[2]
        return intersphinx.missing_reference(app, env, node, contnode)
    module_name, _, name = target.rpartition(".")
    names = canonical_names()
    if module_name:
        canonical = names.get((module_name, name))
        if canonical is None and module_name.startswith("cheekymonkey"):
            # A private module's name that a public module exports (the same object).
            try:
                obj = getattr(importlib.import_module(module_name), name)
            except (ImportError, AttributeError):
                return None
            matches = {c for (m, n), c in names.items() if n == name and getattr(importlib.import_module(m), n) is obj}
            canonical = matches.pop() if len(matches) == 1 else None
    else:
        matches = _same_game({c for (_, n), c in names.items() if n == name}, node.get("py:module"))
        canonical = matches.pop() if len(matches) == 1 else None
    if canonical is None or canonical == target:
        return None
    return env.domains["py"].resolve_xref(
        env, node.get("refdoc", ""), app.builder, node["reftype"], canonical, node, contnode
    )


def _has_docstring(canonical: str) -> bool:
    """Whether the public name documented as ``canonical`` has a docstring to render."""
    module_name, _, name = canonical.rpartition(".")
    obj = getattr(importlib.import_module(module_name), name)
    if inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj):
        return bool(inspect.getdoc(obj))
    # Data and type aliases: the docstring under the assignment, in the module that defines it.
    return _defining_module_docs(canonical) is not None


def _check_coverage(app: Sphinx, env: BuildEnvironment) -> None:
    if app.builder.name not in ("html", "dirhtml", "singlehtml"):
        return
    documented = env.domains["py"].objects
    for canonical in sorted(set(canonical_names().values())):
        if canonical.rpartition(".")[2].startswith("__"):
            continue
        if canonical not in documented:
            LOGGER.warning("%s is public but not in the API reference", canonical)
        if not _has_docstring(canonical):
            LOGGER.warning("%s has no docstring", canonical)


_UNTOUCHED: dict[int, list[str]] = {}


def _keep_attribute_docstring(app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    """Before napoleon: remember an attribute's docstring, and give re-exported data its own docstring.

    napoleon reads an attribute docstring's first words up to a colon as its type (``"A name for people:
    the preset's name"`` would get the type ``A name for people``). Types here come from annotations, and
    attribute docstrings are plain sentences, so :func:`_restore_attribute_docstring` undoes napoleon's
    rewrite.
    """
    if what == "data":
        # Re-exported data (cheekymonkey.ANIMALS, cheekymonkey.Action): the docstring under the assignment
        # in the module that defines it, not the docstring of the value's type.
        docs = _defining_module_docs(name)
        if docs is not None:
            lines[:] = docs
    if what in ("attribute", "data", "property"):
        _UNTOUCHED[id(lines)] = list(lines)


def _restore_attribute_docstring(
    app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]
) -> None:
    """After napoleon: put an attribute's docstring back as it was written."""
    original = _UNTOUCHED.pop(id(lines), None)
    if original is not None:
        lines[:] = original


def _defining_module_docs(canonical: str) -> list[str] | None:
    for (module_name, name), documented_as in canonical_names().items():
        if documented_as == canonical:
            docs = ModuleAnalyzer.for_module(module_name).find_attr_docs().get(("", name))
            if docs:
                return list(docs)
    return None


class CliHelp(SphinxDirective):
    """``{cheekymonkey-cli}``: the ``--help`` text of the command and of each sub-command, from the parser."""

    def run(self) -> list[nodes.Node]:
        """Build the parser and render each help text as a literal block under a rubric."""
        cli = importlib.import_module("cheekymonkey.cli")
        parser = cli.build_parser()
        subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        result: list[nodes.Node] = []
        saved = os.environ.get("COLUMNS")
        os.environ["COLUMNS"] = "100"  # the same line breaks on every machine
        try:
            helps = [("cheekymonkey", parser.format_help())]
            for name, _ in cli.COMMANDS:
                helps.append((f"cheekymonkey {name}", subparsers.choices[name].format_help()))
        finally:
            if saved is None:
                del os.environ["COLUMNS"]
            else:
                os.environ["COLUMNS"] = saved
        for title, text in helps:
            result.append(nodes.rubric(text=title))
            block = nodes.literal_block(text, text)
            block["language"] = "text"
            result.append(block)
        return result


_SECOND_GAME = "cheekymonkey.toomany"


def _in_second_game(name: str | None) -> bool:
    return (name or "").startswith(_SECOND_GAME)


def _same_game(candidates: set[str], modname: str | None) -> set[str]:
    """Of names found in both games, those of the referring module's game (Cheeky Monkey's outside toomany)."""
    if len(candidates) < 2:
        return candidates
    same = {name for name in candidates if _in_second_game(name) == _in_second_game(modname)}
    return same or candidates


class _GamesPythonDomain(PythonDomain):
    """The Python domain, with one rule more for a short name that both games use (``Ruleset``, ``GameState``).

    A short reference (a type hint read from source, a name written bare) that finds objects of both games is
    resolved to the referring module's game: Too Many Monkeys' inside ``cheekymonkey.toomany``, Cheeky
    Monkey's everywhere else. A name that only one game has resolves as before.
    """

    def find_obj(
        self, env: BuildEnvironment, modname: str, classname: str, name: str, type: str | None, searchmode: int = 0
    ) -> list[Any]:
        """The matches Sphinx finds, narrowed to the referring module's game when they span both games."""
        matches = super().find_obj(env, modname, classname, name, type, searchmode)
        keep = _same_game({found for found, _ in matches}, modname)
        return [match for match in matches if match[0] in keep]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the configuration values and event handlers."""
    app.add_config_value("cheekymonkey_rules", "", "env", str)
    app.add_config_value("cheekymonkey_root", "", "env", str)
    app.add_directive("cheekymonkey-cli", CliHelp)
    app.add_domain(_GamesPythonDomain, override=True)
    app.connect("env-before-read-docs", _clear_pages)
    app.connect("source-read", _source_read)
    # Around napoleon (priority 500), which rewrites the docstring.
    app.connect("autodoc-process-docstring", _keep_attribute_docstring, priority=400)
    app.connect("autodoc-process-docstring", _restore_attribute_docstring, priority=600)
    app.connect("env-get-outdated", _env_get_outdated)
    app.connect("missing-reference", _missing_reference)
    app.connect("env-check-consistency", _check_coverage)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
