"""Cheeky Monkey's JSON documents: states, actions, rule sets, events, views, score sheets and game records.

Every document is a JSON object with a ``format`` (``"cheekymonkey/1"``) and a ``kind`` beside the
value's own fields, written with sorted keys. Animals and phases are lowercase names; a count per
animal (the bag, a rule set's counts) is an object keyed by animal name. For example, an action::

    {"format": "cheekymonkey/1", "kind": "action", "seat": 2, "type": "claim"}

Loading checks everything: the JSON itself, the format version, the kind, every field's type, unknown
fields, and then the value's own invariants (a state goes through :class:`~cheekymonkey.GameState`'s
validating constructor; a record is replayed; a score sheet must add up). Any problem raises one error
type, :class:`~cheekymonkey.serialization.DocumentError`, naming the problem and where in the document it is.

In this one module, as in every game's: what a document is (its format tag, its kinds, and how each field
is written: :data:`DOCUMENT_FORMAT`, from which the converter, the loaders and the JSON Schemas are built
the same way as every game's, :mod:`cheekymonkey.serialization.spec`); what a loader checks beyond each
field's type (:func:`check_value`); the codec made of the two (:data:`CODEC`), and its typed face, one
function for each way in and out and one pair for each kind (``dump_state`` and ``load_state``, ...).

This module needs the ``json`` extra (``pip install 'cheekymonkey[json]'``) for cattrs. The JSON Schema of
every document kind ships in this package's ``schemas`` folder (:func:`cheekymonkey.schema.load_schema`).

>>> from cheekymonkey import new_game
>>> text = dumps(new_game(2))
>>> loads(text, "state") == new_game(2)
True
>>> loads('{"format": "cheekymonkey/9", "kind": "state"}')
Traceback (most recent call last):
    ...
cheekymonkey.serialization.DocumentError: invalid document at $.format: format 'cheekymonkey/9' is newer than ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal, TypeAlias, cast, overload

from cheekymonkey.cheeky.actions import Action, Claim, Draw, Herd, Place, Reveal, Stop, Swap
from cheekymonkey.cheeky.events import (
    Busted,
    Claimed,
    Drew,
    Event,
    GameOver,
    HerdSecured,
    Stacked,
    Stopped,
    Swapped,
)
from cheekymonkey.cheeky.records import GameRecord
from cheekymonkey.cheeky.rules import MAX_COUNT, MAX_PLAYERS, Animal, Ruleset
from cheekymonkey.cheeky.scoring import Decision, ScoreSheet, SeatScore, sheet_problems
from cheekymonkey.cheeky.state import GameState, Phase, all_one_animal
from cheekymonkey.cheeky.views import TableView
from cheekymonkey.serialization.codec import DocumentCodec, check_replay
from cheekymonkey.serialization.errors import DocumentError
from cheekymonkey.serialization.limits import LIMITS, Limits
from cheekymonkey.serialization.spec import MAX_INTEGER, DocumentFormat, Spelling, TaggedUnion

__all__ = [
    "CODEC",
    "DOCUMENT_FORMAT",
    "FORMAT",
    "KINDS",
    "MAX_INTEGER",
    "Document",
    "Kind",
    "check_value",
    "dump_action",
    "dump_event",
    "dump_record",
    "dump_ruleset",
    "dump_score",
    "dump_state",
    "dump_view",
    "dumps",
    "from_document",
    "load_action",
    "load_event",
    "load_record",
    "load_ruleset",
    "load_score",
    "load_state",
    "load_view",
    "loads",
    "to_document",
]

FORMAT_NAME: Final = "cheekymonkey"
"""The name in the ``format`` field of every document."""
FORMAT_VERSION: Final = 1
"""The version in the ``format`` field that this library writes and reads."""
FORMAT: Final = f"{FORMAT_NAME}/{FORMAT_VERSION}"
"""The ``format`` field of every document this version writes and reads."""

Kind: TypeAlias = Literal["state", "action", "ruleset", "event", "view", "score", "record"]
"""The kinds of document."""

KINDS: Final[tuple[Kind, ...]] = ("state", "action", "ruleset", "event", "view", "score", "record")
"""Every document kind, in a fixed order."""

Document: TypeAlias = GameState | Action | Ruleset | Event | TableView | ScoreSheet | GameRecord
"""Any value that has a JSON document."""

ACTION_TAGS: Final[dict[type, str]] = {
    Draw: "draw",
    Reveal: "reveal",
    Claim: "claim",
    Swap: "swap",
    Stop: "stop",
    Place: "place",
    Herd: "herd",
}
"""The ``type`` field of each action class."""

EVENT_TAGS: Final[dict[type, str]] = {
    Drew: "drew",
    Busted: "busted",
    Claimed: "claimed",
    Swapped: "swapped",
    Stopped: "stopped",
    Stacked: "stacked",
    HerdSecured: "herd_secured",
    GameOver: "game_over",
}
"""The ``type`` field of each event class."""

TAG_FIELD: Final = "type"
"""The field that says which action or event a JSON object is."""

PER_ANIMAL: Final[dict[tuple[type, str], bool]] = {
    (Ruleset, "counts"): False,
    (Ruleset, "bonus_values"): False,
    (GameState, "bag"): False,
    (SeatScore, "counts"): False,
    (ScoreSheet, "tile_holders"): True,
}
"""Fields that hold one value per animal, written as an object keyed by animal name; True if a value may be null."""

PER_ANIMAL_BOUNDS: Final[dict[tuple[type, str], int]] = {
    **{field: MAX_COUNT for field, nullable in PER_ANIMAL.items() if not nullable},
    (ScoreSheet, "tile_holders"): MAX_PLAYERS - 1,
}
"""The largest value of each per-animal field: a count or a bonus value is at most the rule set's
:data:`~cheekymonkey.cheeky.rules.MAX_COUNT` (E7), a tile's holder is a seat."""

SIGNED: Final[frozenset[tuple[type, str]]] = frozenset({(GameRecord, "seed")})
"""Integer fields that may be negative; every other integer in a document is 0 or more."""

_SEAT_FIELDS: Final = (
    (Claim, "seat"),
    (Swap, "seat"),
    (Drew, "seat"),
    (Busted, "seat"),
    (Claimed, "seat"),
    (Claimed, "from_seat"),
    (Swapped, "seat"),
    (Swapped, "with_seat"),
    (Stopped, "seat"),
    (Stacked, "seat"),
    (HerdSecured, "seat"),
    (GameState, "seat"),
    (TableView, "viewer"),
    (TableView, "to_move"),
    (GameRecord, "first_player"),
    (GameRecord, "quit_by"),
)
BOUNDS: Final[dict[tuple[type, str], int]] = {
    **dict.fromkeys(_SEAT_FIELDS, MAX_PLAYERS - 1),
    (GameRecord, "players"): MAX_PLAYERS,
    (Ruleset, "min_players"): MAX_PLAYERS,
    (Ruleset, "max_players"): MAX_PLAYERS,
}
"""Integer fields with a tighter bound than :data:`MAX_INTEGER`: seats (0 to 15) and seat counts (up to 16)."""

MINIMUMS: Final[dict[tuple[type, str], int]] = {
    (Ruleset, "min_players"): 2,
    (Ruleset, "max_players"): 2,
    (GameRecord, "players"): 2,
}
"""Integer fields whose least value is above 0: a game has 2 seats or more (R3)."""

_SEATS: Final = (2, MAX_PLAYERS)
LENGTHS: Final[dict[tuple[type, str], tuple[tuple[int, int | None], ...]]] = {
    (GameState, "stacks"): (_SEATS,),
    (TableView, "stack_heights"): (_SEATS,),
    (TableView, "stack_tops"): (_SEATS,),
    (GameRecord, "names"): ((0, MAX_PLAYERS),),
    (GameRecord, "bots"): ((0, MAX_PLAYERS),),
    (ScoreSheet, "seats"): ((1, None),),
    (ScoreSheet, "winners"): ((1, None),),
    (SeatScore, "tiles"): ((0, len(Animal)),),
    (Busted, "returned"): ((2, None),),
    (Stopped, "tokens"): ((1, None),),
    (Stacked, "animals"): ((1, None),),
    (HerdSecured, "animals"): ((1, None),),
}
"""Lists with a least and a most number of items: a stack per seat, 2 to 16 (R3); a name and a kind of player per
seat, or none; a score sheet of one seat or more, with one winner or more (R18), each holding at most one tile of
each animal (R16); a bust returns two tokens or more (R6); a stop, a stacking or a herd moves one or more (R9, R10)."""


def _no_monkey(schema: dict[str, Any]) -> dict[str, Any]:
    # R12: a swap takes an opponent's top that is not a monkey.
    return {**schema, "enum": [animal.name.lower() for animal in Animal if animal is not Animal.MONKEY]}


REFINE: Final[dict[tuple[type, str], Callable[[dict[str, Any]], dict[str, Any]]]] = {(Swapped, "took"): _no_monkey}
"""What the schemas say beyond the types (the loader's checks refuse it already): a swap never takes a monkey."""

DOCUMENT_TYPES: Final[dict[Kind, tuple[type, ...]]] = {
    "state": (GameState,),
    "action": tuple(ACTION_TAGS),
    "ruleset": (Ruleset,),
    "event": tuple(EVENT_TAGS),
    "view": (TableView,),
    "score": (ScoreSheet,),
    "record": (GameRecord,),
}
"""The classes whose values each kind of document holds."""

ANIMAL: Final = Spelling.of_names(Animal, "an animal", "animals", "An animal, by its lowercase name (R1).")
PHASE: Final = Spelling.of_names(Phase, "a phase", "phases", "Where in a turn the game is.")
DECISION: Final = Spelling.of_values(Decision, "a decision", "decisions", "How the winners were decided (R18, R19).")

DOCUMENT_FORMAT: Final = DocumentFormat(
    name=FORMAT_NAME,
    version=FORMAT_VERSION,
    kinds=KINDS,
    types=DOCUMENT_TYPES,
    spellings=(ANIMAL, PHASE, DECISION),
    unions=(
        TaggedUnion(Action, ACTION_TAGS, "an action", "Action", "Any action: a player's move or a chance outcome."),
        TaggedUnion(Event, EVENT_TAGS, "an event", "Event", "Any event: what an action did."),
    ),
    per_member={field: (ANIMAL, nullable) for field, nullable in PER_ANIMAL.items()},
    member_bounds=PER_ANIMAL_BOUNDS,
    signed=SIGNED,
    bounds=BOUNDS,
    minimums=MINIMUMS,
    lengths=LENGTHS,
    refine=REFINE,
    tag_field=TAG_FIELD,
)
"""Cheeky Monkey's documents, as the tables above say."""


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


CODEC: Final = DocumentCodec.of(DOCUMENT_FORMAT, cast(Any, check_value))
"""Cheeky Monkey's documents, made as every game's are: the :class:`~cheekymonkey.documents.Documents` of
:data:`~cheekymonkey.CHEEKY_MONKEY`. The functions of this package are its typed face."""


def to_document(value: Document) -> dict[str, Any]:
    """The JSON document of ``value`` as plain dicts and lists, ready for ``json.dumps`` or a web framework.

    Args:
        value: A state, action, rule set, event, table view, score sheet or game record.

    Returns:
        A dict with ``format``, ``kind`` and the value's fields.

    Raises:
        TypeError: If ``value`` is none of those.
        ValueError: If ``value`` is a record whose seed is beyond :data:`MAX_INTEGER`, which no document holds.
    """
    return CODEC.to_document(value)


def dumps(value: Document, *, indent: int | None = None) -> str:
    """The JSON text of ``value``'s document, keys sorted, so equal values give equal text.

    Args:
        value: A state, action, rule set, event, table view, score sheet or game record.
        indent: Indent nested levels by this many spaces; None for one line.

    Raises:
        TypeError: If ``value`` has no document kind.
    """
    return CODEC.dumps(value, indent=indent)


def from_document(document: object, kind: Kind | None = None, *, limits: Limits = LIMITS) -> Document:
    """The value held by an already-parsed JSON document (plain dicts and lists), fully checked.

    Args:
        document: The parsed document.
        kind: The kind of document expected, or None to accept any kind. An ``action`` may come without
            its ``format`` and ``kind``, as a view lists them.
        limits: How deep the document may nest and how long a record may be (the size of text is
            checked by :func:`loads`).

    Returns:
        The state, action, rule set, event, view, score sheet or record the document holds.

    Raises:
        DocumentError: If the document is malformed, of another kind or a newer format, holds a value
            that breaks an invariant, or is over a limit; it names the problem and its JSON path.
    """
    value: Document = CODEC.from_document(document, kind, limits=limits)
    return value


def loads(text: str | bytes, kind: Kind | None = None, *, limits: Limits = LIMITS) -> Document:
    """Parse JSON text into the value its document holds, fully checked.

    Args:
        text: The JSON text (bytes must be UTF-8).
        kind: The kind of document expected, or None to accept any kind.
        limits: The size, nesting and record length to refuse beyond; :data:`LIMITS` by default.

    Raises:
        DocumentError: As :func:`from_document`, and for text that is not JSON (truncated, say) or over
            the size limit.
    """
    value: Document = CODEC.loads(text, kind, limits=limits)
    return value


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
