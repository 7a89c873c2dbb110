"""One kind of document each: ``dump_state`` and ``load_state``, and so on, each returning its own type."""

from __future__ import annotations

from typing import Literal, cast, overload

from cheekymonkey.actions import Action
from cheekymonkey.events import Event
from cheekymonkey.records import GameRecord
from cheekymonkey.rules import Ruleset
from cheekymonkey.scoring import ScoreSheet
from cheekymonkey.serialization.documents import dumps, loads
from cheekymonkey.serialization.format import Document, Kind
from cheekymonkey.serialization.limits import LIMITS, Limits
from cheekymonkey.state import GameState
from cheekymonkey.views import TableView

__all__ = [
    "dump_action",
    "dump_event",
    "dump_record",
    "dump_ruleset",
    "dump_score",
    "dump_state",
    "dump_view",
    "load_action",
    "load_event",
    "load_record",
    "load_ruleset",
    "load_score",
    "load_state",
    "load_view",
]


@overload
def _load(text: str | bytes, kind: Literal["state"], limits: Limits) -> GameState: ...
@overload
def _load(text: str | bytes, kind: Literal["ruleset"], limits: Limits) -> Ruleset: ...
@overload
def _load(text: str | bytes, kind: Literal["view"], limits: Limits) -> TableView: ...
@overload
def _load(text: str | bytes, kind: Literal["score"], limits: Limits) -> ScoreSheet: ...
@overload
def _load(text: str | bytes, kind: Literal["record"], limits: Limits) -> GameRecord: ...
@overload
def _load(text: str | bytes, kind: Kind, limits: Limits) -> Document: ...
def _load(text: str | bytes, kind: Kind, limits: Limits) -> Document:
    return loads(text, kind, limits=limits)


def dump_state(state: GameState, *, indent: int | None = None) -> str:
    """The JSON text of a game state (a ``state`` document)."""
    return dumps(state, indent=indent)


def load_state(text: str | bytes, *, limits: Limits = LIMITS) -> GameState:
    """Load a ``state`` document; every invariant of :class:`~cheekymonkey.GameState` is checked.

    Raises:
        DocumentError: If the text is not a valid state document.
    """
    return _load(text, "state", limits)


def dump_action(action: Action) -> str:
    """The JSON text of an action (an ``action`` document)."""
    return dumps(action)


def load_action(text: str | bytes, *, limits: Limits = LIMITS) -> Action:
    """Load an ``action`` document, with its ``format`` and ``kind`` or without them, as a view lists it.

    >>> load_action('{"type": "claim", "seat": 2}')
    Claim(2)

    Raises:
        DocumentError: If the text is not a valid action document.
    """
    return cast(Action, _load(text, "action", limits))


def dump_ruleset(ruleset: Ruleset, *, indent: int | None = None) -> str:
    """The JSON text of a rule set (a ``ruleset`` document).

    >>> import json
    >>> document = json.loads(dump_ruleset(Ruleset.little_children(without_kangaroo=True)))
    >>> document["kind"], document["counts"]["lion"], document["counts"]["monkey"], document["swap"]
    ('ruleset', 0, 10, False)
    """
    return dumps(ruleset, indent=indent)


def load_ruleset(text: str | bytes, *, limits: Limits = LIMITS) -> Ruleset:
    """Load a ``ruleset`` document; the rule set is checked as :class:`~cheekymonkey.Ruleset` checks it (R21).

    Raises:
        DocumentError: If the text is not a valid rule set document.
    """
    return _load(text, "ruleset", limits)


def dump_event(event: Event) -> str:
    """The JSON text of an event (an ``event`` document)."""
    return dumps(event)


def load_event(text: str | bytes, *, limits: Limits = LIMITS) -> Event:
    """Load an ``event`` document (a game-over event's score sheet must add up).

    Raises:
        DocumentError: If the text is not a valid event document.
    """
    return cast(Event, _load(text, "event", limits))


def dump_view(table: TableView, *, indent: int | None = None) -> str:
    """The JSON text of a table view (a ``view`` document): what a server sends one seat."""
    return dumps(table, indent=indent)


def load_view(text: str | bytes, *, limits: Limits = LIMITS) -> TableView:
    """Load a ``view`` document.

    Raises:
        DocumentError: If the text is not a valid view document.
    """
    return _load(text, "view", limits)


def dump_score(sheet: ScoreSheet, *, indent: int | None = None) -> str:
    """The JSON text of a score sheet (a ``score`` document)."""
    return dumps(sheet, indent=indent)


def load_score(text: str | bytes, *, limits: Limits = LIMITS) -> ScoreSheet:
    """Load a ``score`` document; the sheet must agree with itself (totals, tile holders, winners).

    Raises:
        DocumentError: If the text is not a valid score document.
    """
    return _load(text, "score", limits)


def dump_record(record: GameRecord, *, indent: int | None = None) -> str:
    """The JSON text of a game record (a ``record`` document)."""
    return dumps(record, indent=indent)


def load_record(text: str | bytes, *, limits: Limits = LIMITS) -> GameRecord:
    """Load a ``record`` document and replay it: a step that is illegal where it falls is rejected.

    Raises:
        DocumentError: If the text is not a valid record document, or the record does not replay (the
            path names the first failing step, ``$.actions[i]``).
    """
    return _load(text, "record", limits)
