"""The front ends serve both games with the same code: every line that names a game is one the docs explain.

``docs/explanation/architecture.md`` ("One surface, two games") lists, per front end, how many lines name
each game and every such line with why it stays. These tests count again (:mod:`tests.game_naming`) and
hold the code to that list: a new special case for one game fails here until it is explained there (and
it should rather be fixed, in the protocol); a line taken away fails too, until the docs drop it.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from cheekymonkey.games import games
from tests import game_naming
from tests.game_naming import CHEEKY_MONKEY, FRONT_ENDS, TOO_MANY_MONKEYS, games_named, namings

DOC = Path(__file__).resolve().parent.parent / "docs" / "explanation" / "architecture.md"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## One surface, two games")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def _documented_lines() -> Counter[tuple[str, str]]:
    """The lines the docs explain, as (path, code) pairs, from the section's ``text`` blocks."""
    lines: Counter[tuple[str, str]] = Counter()
    for block in re.findall(r"```text\n(.*?)```", _section(), flags=re.DOTALL):
        for line in block.splitlines():
            path, _, code = line.partition(": ")
            lines[(path.strip(), code.strip())] += 1
    return lines


def _documented_counts() -> dict[str, tuple[int, int, int, int]]:
    """The counts table: per front end, lines of code and lines naming each game and either."""
    rows = {}
    for line in _section().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] in FRONT_ENDS:
            rows[cells[0]] = (int(cells[1].replace(",", "")), int(cells[2]), int(cells[3]), int(cells[4]))
    return rows


def test_every_line_that_names_a_game_is_one_the_docs_explain() -> None:
    """The lines found in the front ends are exactly the lines the architecture page lists and explains."""
    found = Counter((n.path, n.code) for front_end in FRONT_ENDS for n in namings(front_end))
    documented = _documented_lines()
    unexplained = sorted((found - documented).elements())
    gone = sorted((documented - found).elements())
    assert not unexplained, f"lines that name a game, not explained in {DOC.name}: {unexplained}"
    assert not gone, f"lines {DOC.name} explains that are no longer in the code: {gone}"


def test_the_counts_per_front_end_are_the_docs_counts() -> None:
    """Lines naming each game match the table exactly; the lines of code (for scale) within a tenth."""
    documented = _documented_counts()
    assert set(documented) == set(FRONT_ENDS)
    for front_end, (code, cheeky, too_many, either) in game_naming.counts().items():
        shown = documented[front_end]
        assert shown[1:] == (cheeky, too_many, either), front_end
        assert abs(shown[0] - code) <= code / 10, f"{front_end}: {code} lines of code, the docs say {shown[0]}"


def test_the_command_line_the_web_server_and_page_and_the_simulation_name_no_game() -> None:
    """Not one line of them names a game; the session's lines are all in the registry of games."""
    for front_end in ("CLI", "web server", "web page", "simulation"):
        assert namings(front_end) == [], front_end
    assert {n.path for n in namings("table/session")} == {"games/__init__.py"}


def test_the_count_knows_the_package_of_every_registered_game() -> None:
    """The games' own packages the count leaves out are exactly those of the registry's games inside this package.

    The count reads this package's sources, so a plug-in installed beside it (Pig) has no package there to leave out.
    """
    modules = {type(game).__module__: game.title for game in games()}
    packages = {
        module.rpartition(".")[0]: title for module, title in modules.items() if module.startswith("cheekymonkey.")
    }
    assert packages == game_naming.GAME_PACKAGES


def _found_in(tmp_path: Path, source: str, suffix: str = ".py") -> dict[int, tuple[str, ...]]:
    path = tmp_path / f"probe{suffix}"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return games_named(path)


def test_the_count_finds_names_titles_clauses_and_imports_of_either_game(tmp_path: Path) -> None:
    """Each way of naming a game is found, on its own line, and credited to the right game."""
    found = _found_in(
        tmp_path,
        """\
        from cheekymonkey import CHEEKY_MONKEY, Table
        from cheekymonkey.toomany import Card
        import cheekymonkey.cheeky.scoring
        from cheekymonkey.games import AnyGame, game_named
        name = "too-many-monkeys"
        title = "Cheeky Monkey"
        clause = "see R18"
        other = "TM12 says"
        class CheekyMonkeyThing: ...
        error = "CheekyMonkeyError is the library's own"
        both = ("cheeky_monkey", "TooManyMonkeys")
        """,
    )
    assert found == {
        1: (CHEEKY_MONKEY,),
        2: (TOO_MANY_MONKEYS,),
        3: (CHEEKY_MONKEY,),
        5: (TOO_MANY_MONKEYS,),
        6: (CHEEKY_MONKEY,),
        7: (CHEEKY_MONKEY,),
        8: (TOO_MANY_MONKEYS,),
        9: (CHEEKY_MONKEY,),
        11: (CHEEKY_MONKEY, TOO_MANY_MONKEYS),
    }


def test_the_count_leaves_out_docstrings_and_comments_and_counts_a_wrapped_statement_once(tmp_path: Path) -> None:
    """Prose is not code: docstrings (of modules, functions and attributes) and comments name nothing."""
    found = _found_in(
        tmp_path,
        '''\
        """Cheeky Monkey and Too Many Monkeys, in prose."""
        LIMIT = 3
        """The limit (R18)."""
        def f() -> str:
            """The cheeky-monkey way."""
            return "x"  # too-many-monkeys in a comment
        from cheekymonkey.toomany.cards import (
            CARDS,
            Card,
        )
        ''',
    )
    assert found == {7: (TOO_MANY_MONKEYS,)}


@pytest.mark.parametrize(("suffix", "comment"), [(".js", "// Cheeky Monkey"), (".html", "<!-- Cheeky Monkey -->")])
def test_the_count_reads_the_web_page_s_scripts_without_their_comments(
    tmp_path: Path, suffix: str, comment: str
) -> None:
    """In JavaScript and HTML, comments are prose too; a game's name in code is found."""
    source = f'{comment}\nconst url = "https://example.org/"; /* R18 */\nload("too-many-monkeys");\n'
    assert _found_in(tmp_path, source, suffix) == {3: (TOO_MANY_MONKEYS,)}
