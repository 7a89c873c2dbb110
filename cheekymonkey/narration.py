"""Narration in plain words: events, lists of tokens and the score sheet, for every front end.

The command line prints these lines, and the web front end sends them, so every player reads the same words.
A seat's own name may be given as ``"You"`` (or a ``viewer`` named), and the verbs then agree: "You draw".
"""

from __future__ import annotations

from collections.abc import Sequence

from cheekymonkey.events import Busted, Claimed, Drew, Event, GameOver, HerdSecured, Stacked, Stopped, Swapped
from cheekymonkey.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.scoring import Decision, ScoreSheet

__all__ = [
    "LEGEND",
    "a",
    "count",
    "describe_event",
    "format_sheet",
    "object_name",
    "sheet_columns",
    "sheet_numbers",
    "tokens",
    "winners_line",
]


def a(word: str) -> str:
    """The word with its indefinite article: ``"a Seal"``, ``"an Elephant"``."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def count(n: int, singular: str, plural: str | None = None) -> str:
    """A count with its noun in the right number: ``"1 token"``, ``"3 tokens"``, ``"2 properties"``."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def _animal_count(n: int, animal: Animal) -> str:
    return f"{n} {animal.label if n == 1 else animal.plural}"


_YOU = "You"
_PLAIN_VERBS = {"draws": "draw", "claims": "claim", "swaps": "swap", "stops": "stop", "stacks": "stack"}


def _subject(name: str, verb: str) -> str:
    # The human player is "You": "You draw", not "You draws".
    if name == _YOU:
        return f"{name} {_PLAIN_VERBS.get(verb, verb.removesuffix('s'))}"
    return f"{name} {verb}"


def object_name(name: str) -> str:
    """A seat's name as the object of a sentence: ``"You"`` becomes ``"you"``."""
    return "you" if name == _YOU else name


def _possessive(name: str) -> str:
    return "your" if name == _YOU else f"{name}'s"


def tokens(animals: Sequence[Animal]) -> str:
    """A list of tokens for people: ``"Seal, Lion"``, or ``"nothing"``."""
    return ", ".join(a.label for a in animals) or "nothing"


def describe_event(event: Event, names: Sequence[str], viewer: int | None = None) -> str:
    """One line of narration for an event; ``names`` names the seats, and ``viewer``'s seat reads as "You"."""
    if viewer is not None:
        names = [_YOU if seat == viewer else name for seat, name in enumerate(names)]
    if isinstance(event, Drew):
        return f"{_subject(names[event.seat], 'draws')} {a(event.animal.label)}."
    if isinstance(event, Busted):
        back = len(event.returned)
        drew = _subject(names[event.seat], "draws")
        goes = "goes" if back == 1 else "go"
        return f"{drew} {a(event.animal.label)}: bust! {count(back, 'token')} {goes} back into the bag."
    if isinstance(event, Claimed):
        claims = _subject(names[event.seat], "claims")
        return f"{claims} {a(event.animal.label)} from {object_name(names[event.from_seat])}."
    if isinstance(event, Swapped):
        swaps = _subject(names[event.seat], "swaps")
        return f"{swaps} the monkey for {_possessive(names[event.with_seat])} {event.took.label}."
    if isinstance(event, Stopped):
        return f"{_subject(names[event.seat], 'stops')} with {tokens(event.tokens)}."
    if isinstance(event, Stacked):
        stacks = _subject(names[event.seat], "stacks")
        return f"{stacks} {tokens(event.animals)} (top: {event.animals[-1].label})."
    if isinstance(event, HerdSecured):
        herd = f"a herd of {_animal_count(len(event.animals), event.animals[0])}"
        return f"{_subject(names[event.seat], 'secures')} {herd} at the bottom of the stack."
    if isinstance(event, GameOver):
        return "The bag is empty and every token is stacked: the game is over."
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover


LEGEND = "* took that animal's bonus tile (R16)"
"""The score sheet's note on its star."""


def sheet_columns(ruleset: Ruleset) -> tuple[list[Animal], list[str]]:
    """The score sheet's columns: the animals in play, then the sums (the total alone without bonus tiles)."""
    # R19: without bonus tiles the score is the token count, so the bonus and tokens columns would only repeat it.
    animals = [a for a in ANIMALS if ruleset.counts[a]]
    return animals, (["tokens", "bonus", "total"] if ruleset.bonus_tiles else ["total"])


def sheet_numbers(sheet: ScoreSheet, seat: int, columns: list[str]) -> list[str]:
    """``seat``'s sums on the score sheet, one per column of :func:`sheet_columns`."""
    line = sheet.seats[seat]
    values = {"tokens": line.tokens, "bonus": line.bonus, "total": line.total}
    return [str(values[column]) for column in columns]


def format_sheet(sheet: ScoreSheet, ruleset: Ruleset, names: Sequence[str]) -> str:
    """The score sheet as a plain-text table (full animal names, a legend for ``*``), with the winners below."""
    animals, columns = sheet_columns(ruleset)
    width = max(len(n) for n in names)
    widths = [max(len(a.label), 3) for a in animals] + [max(len(c), 3) for c in columns]
    header = [f"{a.label:>{w}}" for a, w in zip(animals, widths, strict=False)]
    header += [f"{c:>{w}}" for c, w in zip(columns, widths[len(animals) :], strict=True)]
    lines = [f"{'':{width}}  " + "  ".join(header)]
    for line in sheet.seats:
        cells = [
            f"{str(line.counts[a]) + ('*' if sheet.tile_holders[a] == line.seat else ''):>{w}}"
            for a, w in zip(animals, widths, strict=False)
        ]
        numbers = sheet_numbers(sheet, line.seat, columns)
        cells += [f"{n:>{w}}" for n, w in zip(numbers, widths[len(animals) :], strict=True)]
        lines.append(f"{names[line.seat]:{width}}  " + "  ".join(cells))
    if ruleset.bonus_tiles:
        lines.append(LEGEND)
    lines.append(winners_line(sheet, names))
    return "\n".join(lines)


def winners_line(sheet: ScoreSheet, names: Sequence[str]) -> str:
    """Who won and how, in one sentence."""
    winners = " and ".join(names[w] for w in sheet.winners)
    if sheet.decided_by is Decision.SCORE:
        return f"Winner: {winners}."
    if sheet.decided_by is Decision.TIE_BREAK:
        return f"Winner: {winners}, on the tie-break (highest single bonus tile, R18)."
    return f"Shared win: {winners}."
