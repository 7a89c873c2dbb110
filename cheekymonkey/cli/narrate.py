"""Narration shared by the sub-commands: event lines, the table, the score sheet, and a console to print them."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from cheekymonkey.bots import bust_probability
from cheekymonkey.events import Busted, Claimed, Drew, Event, GameOver, HerdSecured, Stacked, Stopped, Swapped
from cheekymonkey.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.scoring import Decision, ScoreSheet
from cheekymonkey.state import GameState, Phase

__all__ = [
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
        return f"{_subject(names[event.seat], 'draws')} a {event.animal.label}."
    if isinstance(event, Busted):
        back = len(event.returned)
        drew = _subject(names[event.seat], "draws")
        return f"{drew} a {event.animal.label}: bust! {back} tokens go back into the bag."
    if isinstance(event, Claimed):
        claims = _subject(names[event.seat], "claims")
        return f"{claims} a {event.animal.label} from {_object(names[event.from_seat])}."
    if isinstance(event, Swapped):
        swaps = _subject(names[event.seat], "swaps")
        return f"{swaps} the monkey for {_possessive(names[event.with_seat])} {event.took.label}."
    if isinstance(event, Stopped):
        return f"{_subject(names[event.seat], 'stops')} with {tokens(event.tokens)}."
    if isinstance(event, Stacked):
        stacks = _subject(names[event.seat], "stacks")
        return f"{stacks} {tokens(event.animals)} (top: {event.animals[-1].label})."
    if isinstance(event, HerdSecured):
        herd = f"a herd of {len(event.animals)} {event.animals[0].label}"
        return f"{_subject(names[event.seat], 'secures')} {herd} at the bottom of the stack."
    if isinstance(event, GameOver):
        return "The bag is empty and every token is stacked: the game is over."
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover


def table_of(state: GameState, names: Sequence[str]) -> Table:
    """The table as a player sees it (R9): each stack's top and height, the front, the bag, the bust odds."""
    table = Table(title=f"Bag: {state.bag_size} tokens", title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("stack", justify="right")
    table.add_column("top")
    for seat, stack in enumerate(state.stacks):
        marker = "> " if seat == state.seat and state.phase is not Phase.OVER else ""
        top = stack[-1].label if stack else "-"
        table.add_row(str(seat), marker + names[seat], str(len(stack)), top)
    if state.phase is not Phase.OVER:
        caption = f"In front of {names[state.seat]}: {tokens(state.front)}."
        if state.phase is Phase.DECIDE and state.bag_size:
            bust = bust_probability(state)
            caption += f" Drawing again busts with probability {bust:.0%}."
        table.caption = caption
        table.caption_justify = "left"
    return table


def format_sheet(sheet: ScoreSheet, ruleset: Ruleset, names: Sequence[str]) -> str:
    """The score sheet as a plain-text table, with the winners below."""
    animals = [a for a in ANIMALS if ruleset.counts[a]]
    width = max(len(n) for n in names)
    header = f"{'':{width}}  " + " ".join(f"{a.label[:4]:>4}" for a in animals) + "  tokens  bonus  total"
    lines = [header]
    for line in sheet.seats:
        cells = " ".join(f"{line.counts[a]:>3}{'*' if sheet.tile_holders[a] == line.seat else ' '}" for a in animals)
        lines.append(f"{names[line.seat]:{width}}  {cells}  {line.tokens:>6}  {line.bonus:>5}  {line.total:>5}")
    if ruleset.bonus_tiles:
        lines.append("(* = took that animal's bonus tile)")
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
    """The score sheet as a rich table: tokens per animal (a star for a bonus tile), bonus and total."""
    animals = [a for a in ANIMALS if ruleset.counts[a]]
    table = Table(title="Final scores", title_justify="left", caption=winners_line(sheet, names))
    table.caption_justify = "left"
    table.add_column("player")
    for animal in animals:
        table.add_column(animal.label[:4], justify="right")
    table.add_column("tokens", justify="right")
    table.add_column("bonus", justify="right")
    table.add_column("total", justify="right")
    for line in sheet.seats:
        cells = [f"{line.counts[a]}{'*' if sheet.tile_holders[a] == line.seat else ''}" for a in animals]
        table.add_row(names[line.seat], *cells, str(line.tokens), str(line.bonus), str(line.total))
    return table


def stdin_is_terminal() -> bool:
    """Whether standard input is a terminal (and not a pipe or a file)."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
