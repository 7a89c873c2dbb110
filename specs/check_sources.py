"""Check every source that specs/rules.md cites against the seed text and the rulings it cites.

Each clause of ``specs/rules.md`` cites its sources in ``Source:`` paragraphs (the format is described at
the top of that file). This script reads the rule source ``000`` (``../shared/seeds/000_*.txt``, Spanish)
and ``../shared/rulings.md`` beside the repository, as CI has them, and checks that:

- every cited heading is a heading of ``000`` and the cited paragraph exists under it;
- the cited words (at most six) appear, exactly, in that paragraph;
- every cited ruling exists in ``rulings.md``.

In ``000`` a heading is a line of its own that is not a list item and does not end like a sentence (with
``.``, ``:`` or ``)``); each line under a heading, up to the next heading, is one paragraph, counted from 1.

Run ``python specs/check_sources.py`` from the repository (``--list`` prints the seed's headings and
numbered paragraphs); it exits 1 and lists the problems if any citation does not hold. The repository's own
tests (``tests/test_traceability.py``) check only that every clause cites a well-formed source, so that a
user's test run needs nothing outside the repository.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "specs" / "rules.md"
SHARED = ROOT.parent / "shared"
MAX_WORDS = 6

_CLAUSE = re.compile(r"^###\s+((?:R|E)\d+)\s")
_ANY_HEADING = re.compile(r"^#{1,6}\s")
SEED_SOURCE = re.compile(r'^Source: 000 § (?P<heading>.+?) ¶(?P<paragraph>\d+) "(?P<words>[^"]+)": (?P<english>\S.*)$')
"""``Source: 000 § <heading> ¶<n> "<words>": <English rendering>``."""
RULING_SOURCE = re.compile(r"^Source: rulings\.md (?P<ruling>R\d+|intro): (?P<note>\S.*)$")
"""``Source: rulings.md R<n>: <what 000 leaves open and how the ruling decides it>`` (or ``intro``)."""


class Citation(NamedTuple):
    """One ``Source:`` paragraph of a clause, joined into one line."""

    clause: str
    line: int
    text: str


def citations(rules_text: str) -> list[Citation]:
    """Every ``Source:`` paragraph in the rules, with its clause and first line."""
    found: list[Citation] = []
    clause: str | None = None
    current: list[str] | None = None
    start = 0
    fence = False
    for number, line in enumerate([*rules_text.splitlines(), ""], start=1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if fence:
            continue
        if current is not None and line.strip() and not _ANY_HEADING.match(line):
            current.append(line.strip())
            continue
        if current is not None and clause is not None:
            found.append(Citation(clause, start, " ".join(current)))
        current = None
        if _ANY_HEADING.match(line):
            heading = _CLAUSE.match(line)
            clause = heading.group(1) if heading else None
        elif line.startswith("Source:") and clause is not None:
            current, start = [line.strip()], number
    return found


def seed_sections(seed_text: str) -> dict[str, list[str]]:
    """The seed's headings, each with its paragraphs (the lines under it, up to the next heading)."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for raw in seed_text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if not line.startswith("- ") and not line.endswith((".", ":", ")")):
            current = sections.setdefault(line, [])
        elif current is not None:
            current.append(line)
    return sections


def check(rules_text: str, seed_text: str, rulings_text: str) -> list[str]:
    """Every problem with the citations in ``rules_text``, as ``specs/rules.md:<line>: <clause>: <problem>``."""
    sections = seed_sections(seed_text)
    rulings = set(re.findall(r"\*\*(R\d+) ", rulings_text))
    problems = []
    for citation in citations(rules_text):
        where = f"specs/rules.md:{citation.line}: {citation.clause}"
        seed = SEED_SOURCE.match(citation.text)
        ruling = RULING_SOURCE.match(citation.text)
        if seed:
            heading, words = seed.group("heading"), seed.group("words")
            paragraph = int(seed.group("paragraph"))
            if heading not in sections:
                problems.append(f"{where}: 000 has no heading {heading!r}")
            elif not 1 <= paragraph <= len(sections[heading]):
                problems.append(f"{where}: 000's {heading!r} has {len(sections[heading])} paragraphs, not {paragraph}")
            elif words not in sections[heading][paragraph - 1]:
                problems.append(f"{where}: {words!r} is not in 000's {heading!r} paragraph {paragraph}")
            if len(words.split()) > MAX_WORDS:
                problems.append(f"{where}: cite at most {MAX_WORDS} words, not {len(words.split())}")
        elif ruling:
            name = ruling.group("ruling")
            if name != "intro" and name not in rulings:
                problems.append(f"{where}: rulings.md has no ruling {name}")
        else:
            problems.append(f"{where}: {citation.text[:60]!r}... is not a source in the format of specs/rules.md")
    return problems


def _seed_path(shared: Path) -> Path:
    found = sorted((shared / "seeds").glob("000_*.txt"))
    if not found:
        raise SystemExit(f"no seed 000 in {shared / 'seeds'}")
    return found[0]


def main(argv: list[str] | None = None) -> int:
    """Check the citations; print the problems and return 1 if there are any."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared folder (default: ../shared)")
    parser.add_argument("--list", action="store_true", help="print the seed's headings and numbered paragraphs")
    args = parser.parse_args(argv)
    seed_text = _seed_path(args.shared).read_text(encoding="utf-8")
    if args.list:
        for heading, paragraphs in seed_sections(seed_text).items():
            print(f"§ {heading}")
            for number, paragraph in enumerate(paragraphs, start=1):
                print(f"  ¶{number} {paragraph}")
        return 0
    rulings_text = (args.shared / "rulings.md").read_text(encoding="utf-8")
    problems = check(RULES.read_text(encoding="utf-8"), seed_text, rulings_text)
    count = len(citations(RULES.read_text(encoding="utf-8")))
    if problems:
        print("\n".join(problems))
        print(f"{len(problems)} problems in {count} citations")
        return 1
    print(f"All {count} citations of specs/rules.md hold against 000 and rulings.md.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
