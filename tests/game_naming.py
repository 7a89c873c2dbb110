"""Which lines of each front end name one game or the other: the measure of "one surface, two games".

A front end serves every game with the same code when no line of it names a game. This module finds the
lines that do, in the code a program runs (docstrings and comments are prose, and left out):

- a game's name or title in any spelling (``cheeky-monkey``, ``Cheeky Monkey``, ``CHEEKY_MONKEY``,
  ``TooManyMonkeys``, the ``toomany`` package), or a clause of its rules (``R18``, ``TM12``);
- an import from one game's own package (:data:`GAME_PACKAGES`: ``cheekymonkey.cheeky``,
  ``cheekymonkey.toomany``); everything else in the package is shared. A name imported from ``cheekymonkey``
  itself belongs where it is defined.

A statement or a string written over several lines counts once, on its first line, however it is wrapped.

Run ``python -m tests.game_naming`` for the table per front end and every line found;
``tests/test_game_naming.py`` holds the lines to those explained in ``docs/explanation/architecture.md``.
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import sys
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import Final, NamedTuple


def _package() -> Path:
    """The package's sources: the checkout's, or those of the installed package (the compiled build's tests)."""
    checkout = Path(__file__).resolve().parent.parent / "cheekymonkey"
    if checkout.is_dir():
        return checkout
    return Path(str(importlib.import_module("cheekymonkey").__file__)).resolve().parent


PACKAGE: Final = _package()
ROOT: Final = PACKAGE.parent
"""The folder that holds the package: the checkout, or the site-packages folder it was installed into."""

CHEEKY_MONKEY: Final = "Cheeky Monkey"
TOO_MANY_MONKEYS: Final = "Too Many Monkeys"

FRONT_ENDS: Final[dict[str, tuple[str, ...]]] = {
    "CLI": ("cli/*.py",),
    "web server": ("web/*.py",),
    "web page": ("web/static/*.js", "web/static/*.html"),
    "simulation": ("simulation/*.py",),
    "RL adapters": (
        "rl/__init__.py",
        "rl/_arrays.py",
        "rl/episodes.py",
        "rl/gymnasium_env.py",
        "rl/openspiel_game.py",
        "rl/pettingzoo_env.py",
    ),
    "table/session": (
        "game.py",
        "base.py",
        "table.py",
        "play.py",
        "games/__init__.py",
        "outcome.py",
        "record.py",
        "names.py",
        "text_table.py",
        "encoding.py",
        "documents.py",
    ),
}
"""Each front end's files, as globs under ``cheekymonkey/``; the web page's scripts are counted apart from the
server's Python code. A game's own package is no front end: each game's page drawing, encodings and bots are
its own, reached through its binding."""

GAME_PACKAGES: Final = {"cheekymonkey.cheeky": CHEEKY_MONKEY, "cheekymonkey.toomany": TOO_MANY_MONKEYS}
"""Each game's own package, and the game it is."""

_TEXT: Final = {
    CHEEKY_MONKEY: (re.compile(r"cheeky[\s_-]monkey", re.IGNORECASE), re.compile(r"CheekyMonkey(?!Error)")),
    TOO_MANY_MONKEYS: (re.compile(r"too[\s_-]?many[\s_-]?monkeys|toomany", re.IGNORECASE),),
}
_CLAUSES: Final = {
    CHEEKY_MONKEY: re.compile(r"\bR(?:[1-9]|1\d|2[0-2])\b"),
    TOO_MANY_MONKEYS: re.compile(r"\bTME?\d+\b"),
}


class Naming(NamedTuple):
    """One line that names a game."""

    front_end: str
    path: str
    """The file, relative to ``cheekymonkey/``."""
    line: int
    code: str
    """The line's code, stripped."""
    games: tuple[str, ...]
    """The games it names, in order."""


def module_game(module: str) -> str | None:
    """The game whose own module ``module`` is, or None for a generic layer or anything outside the package."""
    for package, game in GAME_PACKAGES.items():
        if module == package or module.startswith(package + "."):
            return game
    return None


def _is_module(name: str) -> bool:
    # cheekymonkey.a.b is a module if cheekymonkey/a/b.py or the package cheekymonkey/a/b/ exists.
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _top_level_game(name: str) -> str | None:
    # A name imported from the package itself belongs to the module that defines it.
    if name.startswith("__"):
        return None  # __version__, __all__
    value = getattr(importlib.import_module("cheekymonkey"), name)
    module = getattr(value, "__name__", None) if isinstance(value, type(sys)) else None
    module = module or getattr(value, "__module__", None) or type(value).__module__
    return module_game(module) if module.startswith("cheekymonkey") else CHEEKY_MONKEY


def _import_lines(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                game = module_game(alias.name)
                if game:
                    yield node.lineno, game
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "cheekymonkey":
                games = {_top_level_game(alias.name) for alias in node.names} - {None}
            else:
                games = {module_game(node.module)} - {None}
                submodules = [f"{node.module}.{alias.name}" for alias in node.names]
                games |= {module_game(name) for name in submodules if _is_module(name)} - {None}
            for game in games:
                assert game is not None
                yield node.lineno, game


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        # A module's, class's or function's docstring, and an attribute's (the string after an assignment).
        for index, statement in enumerate(body):
            is_string = (
                isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            )
            documents = index == 0 or isinstance(body[index - 1], ast.Assign | ast.AnnAssign)
            if is_string and documents:
                lines.update(range(statement.lineno, (statement.end_lineno or statement.lineno) + 1))
    return lines


def _python_namings(source: str) -> dict[int, set[str]]:
    tree = ast.parse(source)
    prose = _docstring_lines(tree)
    found: dict[int, set[str]] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE) or token.start[0] in prose:
            continue
        for game in _games_in(token.string):
            found.setdefault(token.start[0], set()).add(game)
    for line, game in _import_lines(tree):
        found.setdefault(line, set()).add(game)
    return found


def _script_namings(source: str) -> dict[int, set[str]]:
    # JavaScript and HTML: comments (// ..., /* ... */, <!-- ... -->) are prose.
    found: dict[int, set[str]] = {}
    in_comment = False
    for number, line in enumerate(source.splitlines(), start=1):
        code = ""
        rest = line
        while rest:
            if in_comment:
                end = min((i for i in (rest.find("*/"), rest.find("-->")) if i >= 0), default=-1)
                if end < 0:
                    rest = ""
                    continue
                rest = rest[end + (2 if rest.startswith("*/", end) else 3) :]
                in_comment = False
            else:
                starts = [i for i in (rest.find("/*"), rest.find("<!--")) if i >= 0]
                line_comment = rest.find("//")
                start = min(starts, default=-1)
                if line_comment >= 0 and (start < 0 or line_comment < start) and not rest[:line_comment].endswith(":"):
                    code += rest[:line_comment]
                    rest = ""
                elif start >= 0:
                    code += rest[:start]
                    rest = rest[start:]
                    in_comment = True
                else:
                    code += rest
                    rest = ""
        games = set(_games_in(code))
        if games:
            found[number] = games
    return found


def _games_in(text: str) -> Iterator[str]:
    for game, patterns in _TEXT.items():
        if any(pattern.search(text) for pattern in patterns) or _CLAUSES[game].search(text):
            yield game


def front_end_files(front_end: str) -> list[Path]:
    """The files of ``front_end`` (one of :data:`FRONT_ENDS`), in order."""
    return sorted({path for pattern in FRONT_ENDS[front_end] for path in PACKAGE.glob(pattern)})


def games_named(path: Path) -> dict[int, tuple[str, ...]]:
    """The lines of the file ``path`` (Python, JavaScript or HTML) that name a game, with the games they name."""
    source = path.read_text(encoding="utf-8")
    by_line = _python_namings(source) if path.suffix == ".py" else _script_namings(source)
    order = (CHEEKY_MONKEY, TOO_MANY_MONKEYS)
    return {number: tuple(game for game in order if game in by_line[number]) for number in sorted(by_line)}


def namings(front_end: str) -> list[Naming]:
    """Every line of ``front_end`` that names a game, in file and line order."""
    found = []
    for path in front_end_files(front_end):
        lines = path.read_text(encoding="utf-8").splitlines()
        relative = path.relative_to(PACKAGE).as_posix()
        for number, games in games_named(path).items():
            found.append(Naming(front_end, relative, number, lines[number - 1].strip(), games))
    return found


def counts() -> dict[str, tuple[int, int, int, int]]:
    """Per front end: lines of code, lines naming Cheeky Monkey, naming Too Many Monkeys, naming either."""
    table = {}
    for front_end in FRONT_ENDS:
        found = namings(front_end)
        code = sum(_code_lines(path) for path in front_end_files(front_end))
        table[front_end] = (
            code,
            sum(CHEEKY_MONKEY in n.games for n in found),
            sum(TOO_MANY_MONKEYS in n.games for n in found),
            len(found),
        )
    return table


def _code_lines(path: Path) -> int:
    """The lines of ``path`` that hold code: not blank, not only a comment, not a docstring."""
    source = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return sum(1 for line in source.splitlines() if line.strip() and not line.strip().startswith(("//", "*")))
    prose = _docstring_lines(ast.parse(source))
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        kind = token.type
        if kind in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            continue
        if kind == tokenize.ENDMARKER or token.start[0] in prose:
            continue
        lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines)


def main() -> None:
    """Print the counts per front end, then every line found."""
    print(f"{'front end':<13} {'code lines':>10} {'name CM':>8} {'name TMM':>8} {'either':>6}")
    for front_end, (code, cheeky, too_many, either) in counts().items():
        print(f"{front_end:<13} {code:>10} {cheeky:>8} {too_many:>8} {either:>6}")
    for front_end in FRONT_ENDS:
        for naming in namings(front_end):
            games = " and ".join(naming.games)
            print(f"{front_end}: {naming.path}:{naming.line} ({games}): {naming.code}")


if __name__ == "__main__":
    main()
