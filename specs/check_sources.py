"""Check every source that the specs cite against the seed texts and the rulings they cite.

Each clause of ``specs/rules.md`` (Cheeky Monkey) and ``specs/too-many-monkeys.md`` (Too Many Monkeys) cites
its sources in ``Source:`` paragraphs (the format is described at the top of each file). This script reads
the rule sources beside the repository, as CI has them: ``../shared/seeds/000_*.txt`` and
``../shared/rulings.md`` for the first game, ``../shared/seeds/001_*.txt`` and
``../shared/rulings-too-many-monkeys.md`` for the second; and checks that:

- every cited heading is a heading of the seed and the cited paragraph exists under it;
- the cited words (at most six) appear, exactly, in that paragraph;
- every cited ruling exists in the rulings file.

In a seed a heading is a line of its own that is not a list item (``-`` or ``•``) and does not end like a
sentence (with ``.``, ``:``, ``)``, ``!`` or ``?``); each line under a heading, up to the next heading, is one
paragraph, counted from 1.

Run ``python specs/check_sources.py`` from the repository (``--list 001`` prints a seed's headings and
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
SHARED = ROOT.parent / "shared"
MAX_WORDS = 6

_ANY_HEADING = re.compile(r"^#{1,6}\s")


class Spec(NamedTuple):
    """One game's spec: the file, the seed and rulings it cites, and how its clauses and sources are written."""

    game: str
    """The game's name, for messages."""
    path: Path
    """The spec file."""
    seed: str
    """The seed it cites, by number: ``000``."""
    rulings: str
    """The rulings file it cites, under ``shared/``."""
    clause: re.Pattern[str]
    """A clause heading; group 1 is its number."""
    seed_source: re.Pattern[str]
    """A source in the seed: groups ``heading``, ``paragraph``, ``words``, ``english``."""
    ruling_source: re.Pattern[str]
    """A source in the rulings: groups ``ruling`` and ``note``."""
    ruling_mark: re.Pattern[str]
    """A ruling in the rulings file; group 1 is its name."""


CHEEKY_MONKEY = Spec(
    "Cheeky Monkey",
    ROOT / "specs" / "rules.md",
    "000",
    "rulings.md",
    re.compile(r"^###\s+((?:R|E)\d+)\s"),
    re.compile(r'^Source: 000 § (?P<heading>.+?) ¶(?P<paragraph>\d+) "(?P<words>[^"]+)": (?P<english>\S.*)$'),
    re.compile(r"^Source: rulings\.md (?P<ruling>R\d+|intro): (?P<note>\S.*)$"),
    re.compile(r"\*\*(R\d+) "),
)
"""``specs/rules.md``: clauses R1-R22 and E1-..., citing ``000`` and ``rulings.md``."""

TOO_MANY_MONKEYS = Spec(
    "Too Many Monkeys",
    ROOT / "specs" / "too-many-monkeys.md",
    "001",
    "rulings-too-many-monkeys.md",
    re.compile(r"^###\s+(TME?\d+)\s"),
    re.compile(r'^Source: 001 § (?P<heading>.+?) ¶(?P<paragraph>\d+) "(?P<words>[^"]+)": (?P<english>\S.*)$'),
    re.compile(r"^Source: rulings-too-many-monkeys\.md (?P<ruling>TM\d+|Outcome|intro): (?P<note>\S.*)$"),
    re.compile(r"\*\*(TM\d+ |Outcome\.)"),
)
"""``specs/too-many-monkeys.md``: clauses TM1-TM26 and TME1-..., citing ``001`` and ``rulings-too-many-monkeys.md``."""

SPECS = (CHEEKY_MONKEY, TOO_MANY_MONKEYS)
"""Every spec, in the order they are checked."""

SEED_SOURCE = CHEEKY_MONKEY.seed_source
"""``Source: 000 § <heading> ¶<n> "<words>": <English rendering>``."""
RULING_SOURCE = CHEEKY_MONKEY.ruling_source
"""``Source: rulings.md R<n>: <what 000 leaves open and how the ruling decides it>`` (or ``intro``)."""


class Citation(NamedTuple):
    """One ``Source:`` paragraph of a clause, joined into one line."""

    clause: str
    line: int
    text: str


def citations(rules_text: str, spec: Spec = CHEEKY_MONKEY) -> list[Citation]:
    """Every ``Source:`` paragraph in a spec's text, with its clause and first line."""
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
            heading = spec.clause.match(line)
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
        if not line.startswith(("- ", "• ")) and not line.endswith((".", ":", ")", "!", "?")):
            current = sections.setdefault(line, [])
        elif current is not None:
            current.append(line)
    return sections


def check(rules_text: str, seed_text: str, rulings_text: str, spec: Spec = CHEEKY_MONKEY) -> list[str]:
    """Every problem with the citations in ``rules_text``, as ``specs/<file>:<line>: <clause>: <problem>``."""
    sections = seed_sections(seed_text)
    rulings = {mark.rstrip(" .") for mark in spec.ruling_mark.findall(rulings_text)}
    seed = spec.seed
    problems = []
    for citation in citations(rules_text, spec):
        where = f"specs/{spec.path.name}:{citation.line}: {citation.clause}"
        quoted = spec.seed_source.match(citation.text)
        ruling = spec.ruling_source.match(citation.text)
        if quoted:
            heading, words = quoted.group("heading"), quoted.group("words")
            paragraph = int(quoted.group("paragraph"))
            if heading not in sections:
                problems.append(f"{where}: {seed} has no heading {heading!r}")
            elif not 1 <= paragraph <= len(sections[heading]):
                count = len(sections[heading])
                problems.append(f"{where}: {seed}'s {heading!r} has {count} paragraphs, not {paragraph}")
            elif words not in sections[heading][paragraph - 1]:
                problems.append(f"{where}: {words!r} is not in {seed}'s {heading!r} paragraph {paragraph}")
            if len(words.split()) > MAX_WORDS:
                problems.append(f"{where}: cite at most {MAX_WORDS} words, not {len(words.split())}")
        elif ruling:
            name = ruling.group("ruling")
            if name != "intro" and name not in rulings:
                problems.append(f"{where}: {spec.rulings} has no ruling {name}")
        else:
            shown = citation.text[:60]
            problems.append(f"{where}: {shown!r}... is not a source in the format of specs/{spec.path.name}")
    return problems


def _seed_path(shared: Path, seed: str) -> Path:
    found = sorted((shared / "seeds").glob(f"{seed}_*.txt"))
    if not found:
        raise SystemExit(f"no seed {seed} in {shared / 'seeds'}")
    return found[0]


def main(argv: list[str] | None = None) -> int:
    """Check the citations of every spec; print the problems and return 1 if there are any."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared folder (default: ../shared)")
    parser.add_argument(
        "--list", nargs="?", const="000", metavar="SEED", help="print a seed's headings and numbered paragraphs"
    )
    args = parser.parse_args(argv)
    if args.list:
        for heading, paragraphs in seed_sections(_seed_path(args.shared, args.list).read_text("utf-8")).items():
            print(f"§ {heading}")
            for number, paragraph in enumerate(paragraphs, start=1):
                print(f"  ¶{number} {paragraph}")
        return 0
    failed = 0
    for spec in SPECS:
        seed_text = _seed_path(args.shared, spec.seed).read_text(encoding="utf-8")
        rulings_text = (args.shared / spec.rulings).read_text(encoding="utf-8")
        text = spec.path.read_text(encoding="utf-8")
        problems = check(text, seed_text, rulings_text, spec)
        count = len(citations(text, spec))
        if problems:
            print("\n".join(problems))
            print(f"{len(problems)} problems in {count} citations of specs/{spec.path.name}")
            failed += 1
        else:
            print(f"All {count} citations of specs/{spec.path.name} hold against {spec.seed} and {spec.rulings}.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
