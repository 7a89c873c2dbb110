"""What a loader checks beyond each field's type: what a value says of itself, and a record's replay."""

from __future__ import annotations

from typing import Final, cast

from cheekymonkey.events import Busted, Claimed, Event, GameOver, HerdSecured, Stacked, Stopped, Swapped
from cheekymonkey.records import GameRecord
from cheekymonkey.rules import Animal, Ruleset
from cheekymonkey.scoring import ScoreSheet, sheet_problems
from cheekymonkey.serialization.codec import check_replay
from cheekymonkey.serialization.errors import DocumentError
from cheekymonkey.serialization.format import Document, Kind
from cheekymonkey.state import all_one_animal
from cheekymonkey.views import TableView

__all__ = ["check_value"]


def _check_event(event: Event) -> None:
    # An event stands alone, so only what it says of itself is checked: what the action it reports did.
    problems: list[tuple[str, str]] = []
    if isinstance(event, Busted):
        if len(event.returned) < 2 or event.returned[-1] is not event.animal or event.animal not in event.returned[:-1]:
            reason = "R6: a bust returns the tokens in front, one of them like the one drawn, which comes last"
            problems.append(("$.returned", reason))
    elif isinstance(event, Claimed) and event.from_seat == event.seat:
        problems.append(("$.from_seat", "R7: a player never claims from their own stack"))
    elif isinstance(event, Swapped):
        if event.with_seat == event.seat:
            problems.append(("$.with_seat", "R12: a player never swaps with their own stack"))
        if event.took is Animal.MONKEY:
            problems.append(("$.took", "R12: swapping for a monkey is no swap"))
    elif isinstance(event, Stopped) and not event.tokens:
        problems.append(("$.tokens", "R9: a player stops with one token or more in front"))
    elif isinstance(event, Stacked) and not event.animals:
        problems.append(("$.animals", "R9: a stacking puts one token or more on the stack"))
    elif isinstance(event, HerdSecured) and (not event.animals or not all_one_animal(event.animals)):
        problems.append(("$.animals", "R10: a herd is one token or more, all of one animal"))
    if problems:
        raise DocumentError(None, problems)


_REVERSED_STANDARD_VALUES: Final = (10, 9, 8, 7, 6, 5, 4, 3)
"""The standard tile values that versions before the R2 fix saved by mistake (Elephant 10 ... Monkey 3)."""


def _refuse_reversed_standard_values(kind: Kind, value: Document) -> None:
    # R2: a standard game saved with the reversed values would load and score wrongly; refuse it and say
    # how to load it (docs/reference/serialization.md). Tile-less presets and custom sets load as saved.
    ruleset = value if isinstance(value, Ruleset) else getattr(value, "ruleset", None)
    if (
        isinstance(ruleset, Ruleset)
        and ruleset.name == "standard"
        and ruleset.bonus_tiles
        and ruleset.bonus_values == _REVERSED_STANDARD_VALUES
    ):
        path = "$.bonus_values" if ruleset is value else "$.ruleset.bonus_values"
        # Within the 200 characters a DocumentError keeps of a reason (_MAX_TEXT).
        reason = (
            "R2: tiles are worth their counts, and these are the reversed values of old versions; set "
            "bonus_values to the counts to load it under the rules, or give the rule set another name"
        )
        raise DocumentError(kind, [(path, reason)])


def _check_sheet(sheet: ScoreSheet, ruleset: Ruleset | None, path: str) -> None:
    # The sheet's own consistency check lives beside scoring; a document names where each problem is.
    found = sheet_problems(sheet, ruleset)
    if found:
        raise DocumentError(None, [(path + where, reason) for where, reason in found])


def check_value(kind: Kind, value: Document) -> None:
    """Check what a structured value says of itself, beyond each field's type (the caller checked those).

    A standard rule set must not carry the reversed tile values of old versions (R2); a score sheet, alone,
    in a game-over event or in a view, must be one scoring gives (R16-R18); an event must agree with
    itself; a record must replay.

    Raises:
        DocumentError: For the first check that fails, naming where in the document the problem is.
    """
    _refuse_reversed_standard_values(kind, value)
    try:
        if isinstance(value, ScoreSheet):
            _check_sheet(value, None, "$")
        elif isinstance(value, GameOver):
            _check_sheet(value.sheet, None, "$.sheet")
        elif isinstance(value, GameRecord):
            check_replay(value)
        elif isinstance(value, TableView) and value.sheet is not None:
            _check_sheet(value.sheet, value.ruleset, "$.sheet")  # the sheet must follow from its counts
        elif kind == "event":
            _check_event(cast(Event, value))
    except DocumentError as error:
        raise DocumentError(kind, list(error.problems)) from error
