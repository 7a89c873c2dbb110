"""Narration shared by the sub-commands: event lines, the table, the score sheet, and a console to print them."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from cheekymonkey.bots import bust_probability
from cheekymonkey.events import Busted, Claimed, Drew, Event, GameOver, HerdSecured, Stacked, Stopped, Swapped
from cheekymonkey.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.scoring import Decision, ScoreSheet
from cheekymonkey.state import GameState, Phase

__all__ = [
    "ANIMAL_STYLES",
    "a",
    "count",
    "describe_event",
    "format_sheet",
    "make_console",
    "sheet_table",
    "stdin_is_terminal",
    "table_of",
    "tokens",
    "winners_line",
]


def make_console() -> Console:
    """A console for the command's output: no markup or highlighting, so game text prints as written.

    It writes to whatever ``sys.stdout`` is when it prints (tests capture it), with colour only on a terminal.
    """
    terminal = sys.stdout.isatty() if hasattr(sys.stdout, "isatty") else False
    # Off a terminal rich assumes 80 columns, which squeezes the score sheet; pipes and logs can take more.
    return Console(markup=False, highlight=False, emoji=False, soft_wrap=True, width=None if terminal else 120)


ANIMAL_STYLES: dict[Animal, str] = {
    Animal.ELEPHANT: "grey62",
    Animal.SEAL: "blue",
    Animal.HIPPO: "magenta",
    Animal.GIRAFFE: "yellow",
    Animal.PANDA: "cyan",  # not white: it must show on light terminals too
    Animal.KANGAROO: "dark_orange",
    Animal.LION: "red",
    Animal.MONKEY: "green",
}
"""One colour per animal for the score sheet and the table; rich shows it at a terminal and drops it in a pipe."""


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


def _object(name: str) -> str:
    return "you" if name == _YOU else name


def _possessive(name: str) -> str:
    return "your" if name == _YOU else f"{name}'s"


def tokens(animals: Sequence[Animal]) -> str:
    """A list of tokens for people: ``"Seal, Lion"``, or ``"nothing"``."""
    return ", ".join(a.label for a in animals) or "nothing"


def describe_event(event: Event, names: Sequence[str]) -> str:
    """One line of narration for an event; ``names`` names the seats."""
    if isinstance(event, Drew):
        return f"{_subject(names[event.seat], 'draws')} {a(event.animal.label)}."
    if isinstance(event, Busted):
        back = len(event.returned)
        drew = _subject(names[event.seat], "draws")
        goes = "goes" if back == 1 else "go"
        return f"{drew} {a(event.animal.label)}: bust! {count(back, 'token')} {goes} back into the bag."
    if isinstance(event, Claimed):
        claims = _subject(names[event.seat], "claims")
        return f"{claims} {a(event.animal.label)} from {_object(names[event.from_seat])}."
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


def _styled(text: str, animal: Animal | None) -> Text:
    return Text(text, style=ANIMAL_STYLES[animal] if animal is not None else "")


def table_of(state: GameState, names: Sequence[str]) -> Table:
    """The table as a player sees it (R9): each stack's top and height, the front, the bag, the bust odds."""
    table = Table(title=f"Bag: {count(state.bag_size, 'token')}", title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("stack", justify="right")
    table.add_column("top")
    for seat, stack in enumerate(state.stacks):
        marker = "> " if seat == state.seat and state.phase is not Phase.OVER else ""
        top = stack[-1] if stack else None
        table.add_row(str(seat), marker + names[seat], str(len(stack)), _styled(top.label if top else "-", top))
    if state.phase is not Phase.OVER:
        caption = f"In front of {_object(names[state.seat])}: {tokens(state.front)}."
        if state.phase is Phase.DECIDE and state.bag_size:
            bust = bust_probability(state)
            caption += f" Drawing again busts with probability {bust:.0%}."
        table.caption = caption
        table.caption_justify = "left"
    return table


_LEGEND = "* took that animal's bonus tile (R16)"


def _sheet_columns(ruleset: Ruleset) -> tuple[list[Animal], list[str]]:
    # R19: without bonus tiles the score is the token count, so the bonus and tokens columns would only repeat it.
    animals = [a for a in ANIMALS if ruleset.counts[a]]
    return animals, (["tokens", "bonus", "total"] if ruleset.bonus_tiles else ["total"])


def _sheet_numbers(sheet: ScoreSheet, seat: int, columns: list[str]) -> list[str]:
    line = sheet.seats[seat]
    values = {"tokens": line.tokens, "bonus": line.bonus, "total": line.total}
    return [str(values[column]) for column in columns]


def format_sheet(sheet: ScoreSheet, ruleset: Ruleset, names: Sequence[str]) -> str:
    """The score sheet as a plain-text table (full animal names, a legend for ``*``), with the winners below."""
    animals, columns = _sheet_columns(ruleset)
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
        numbers = _sheet_numbers(sheet, line.seat, columns)
        cells += [f"{n:>{w}}" for n, w in zip(numbers, widths[len(animals) :], strict=True)]
        lines.append(f"{names[line.seat]:{width}}  " + "  ".join(cells))
    if ruleset.bonus_tiles:
        lines.append(_LEGEND)
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


def sheet_table(sheet: ScoreSheet, ruleset: Ruleset, names: Sequence[str]) -> Table:
    """The score sheet as a rich table: tokens per animal, in its colour (a star for a bonus tile), then the scores.

    Without bonus tiles (R19) there is no bonus column and no star; with them a legend explains the star.
    """
    animals, columns = _sheet_columns(ruleset)
    caption = winners_line(sheet, names)
    if ruleset.bonus_tiles:
        caption = f"{_LEGEND}\n{caption}"
    table = Table(title="Final scores", title_justify="left", caption=caption)
    table.caption_justify = "left"
    table.add_column("player")
    for animal in animals:
        table.add_column(_styled(animal.label, animal), justify="right")
    for column in columns:
        table.add_column(column, justify="right")
    for line in sheet.seats:
        cells = [_styled(f"{line.counts[a]}{'*' if sheet.tile_holders[a] == line.seat else ''}", a) for a in animals]
        table.add_row(names[line.seat], *cells, *_sheet_numbers(sheet, line.seat, columns))
    return table


def stdin_is_terminal() -> bool:
    """Whether standard input is a terminal (and not a pipe or a file)."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
