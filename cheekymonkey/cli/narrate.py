"""Plain-text narration of events and score sheets, shared by the sub-commands."""

from __future__ import annotations

from collections.abc import Sequence

from cheekymonkey.events import Busted, Claimed, Drew, Event, GameOver, HerdSecured, Stacked, Stopped, Swapped
from cheekymonkey.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.scoring import Decision, ScoreSheet

__all__ = ["describe_event", "format_sheet", "tokens"]


def tokens(animals: Sequence[Animal]) -> str:
    """A list of tokens for people: ``"Seal, Lion"``, or ``"nothing"``."""
    return ", ".join(a.label for a in animals) or "nothing"


def describe_event(event: Event, names: Sequence[str]) -> str:
    """One line of narration for an event; ``names`` names the seats."""
    if isinstance(event, Drew):
        return f"{names[event.seat]} draws a {event.animal.label}."
    if isinstance(event, Busted):
        back = len(event.returned)
        return f"{names[event.seat]} draws a {event.animal.label}: bust! {back} tokens go back into the bag."
    if isinstance(event, Claimed):
        return f"{names[event.seat]} claims a {event.animal.label} from {names[event.from_seat]}."
    if isinstance(event, Swapped):
        return f"{names[event.seat]} swaps the monkey with {names[event.with_seat]}'s {event.took.label}."
    if isinstance(event, Stopped):
        return f"{names[event.seat]} stops with {tokens(event.tokens)}."
    if isinstance(event, Stacked):
        return f"{names[event.seat]} stacks {tokens(event.animals)} (top: {event.animals[-1].label})."
    if isinstance(event, HerdSecured):
        return f"{names[event.seat]} secures a herd of {len(event.animals)} {event.animals[0].label} at the bottom."
    if isinstance(event, GameOver):
        return "The bag is empty and every token is stacked: the game is over."
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover


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
    winners = " and ".join(names[w] for w in sheet.winners)
    if sheet.decided_by is Decision.SCORE:
        lines.append(f"Winner: {winners}.")
    elif sheet.decided_by is Decision.TIE_BREAK:
        lines.append(f"Winner: {winners}, on the tie-break (highest single bonus tile, R18).")
    else:
        lines.append(f"Shared win: {winners}.")
    return "\n".join(lines)
