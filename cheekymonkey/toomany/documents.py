"""Too Many Monkeys' JSON documents: states, actions, rule sets, events, views, outcomes and game records.

Every document is a JSON object with a ``format`` (``"too-many-monkeys/1"``: the game's own format name,
which is how :func:`cheekymonkey.games.game_of_document` tells the games apart) and a ``kind`` beside the
value's own fields, written with sorted keys. Cards, phases and reasons are lowercase names (``"three"``,
``"do_not_disturb"``, ``"chosen_draw"``); a count per card (a deck, the cards never seen, a reshuffled pile)
is an object keyed by card name. A row position is a card's name when it is face up, ``{"card": name}`` when
it lies face down and known (turned down by a Do Not Disturb, TM15), and ``null`` when nobody has seen it
(TM19). Positions count from 1, seats from 0. For example, an action::

    {"format": "too-many-monkeys/1", "kind": "action", "position": 4, "type": "place_wild"}

Loading checks everything, as Cheeky Monkey's loaders do and with the same code
(:class:`~cheekymonkey.serialization.codec.DocumentCodec`): the size and nesting of the text, the JSON
itself (a repeated key, a huge number), the format and kind, every field's type, unknown fields, and then
the value's own invariants. A state goes through :class:`~cheekymonkey.toomany.GameState`'s validating
constructor, a view through :class:`~cheekymonkey.toomany.TableView`'s checks, a record is replayed, and an
event or an outcome must agree with itself. Any problem raises
:class:`~cheekymonkey.serialization.DocumentError`, naming it and where in the document it is.

This module needs the ``json`` extra (``pip install 'cheekymonkey[json]'``) for cattrs: without it, importing
it raises the :class:`ImportError` of :mod:`cheekymonkey.serialization`, which names the extra. The game's binding
gives it as :meth:`TOO_MANY_MONKEYS.documents() <cheekymonkey.Game.documents>`. The JSON
Schema of every kind ships in :mod:`cheekymonkey.schema` (``load_schema(kind, game="too-many-monkeys")``).

>>> from cheekymonkey.toomany import PlaceWild, new_game
>>> dumps(PlaceWild(4))
'{"format": "too-many-monkeys/1", "kind": "action", "position": 4, "type": "place_wild"}'
>>> loads(dumps(new_game(3)), "state") == new_game(3)
True
>>> loads('{"type": "place_wild", "position": 7}', "action")
Traceback (most recent call last):
    ...
cheekymonkey.serialization.DocumentError: invalid action document at $.position: the integer 7 is above 6: ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final, Literal, TypeAlias, cast, get_args, overload

import attrs

from cheekymonkey.outcome import Outcome
from cheekymonkey.serialization.codec import DocumentCodec, check_replay
from cheekymonkey.serialization.errors import DocumentError
from cheekymonkey.serialization.limits import LIMITS, Limits
from cheekymonkey.serialization.spec import DocumentFormat, Spelling, TaggedUnion
from cheekymonkey.toomany.actions import (
    Action,
    Decline,
    Draw,
    GiveSkip,
    PlaceWild,
    RaccoonTake,
    Reveal,
    TakeBonus,
    TakeDiscard,
    TurnDown,
)
from cheekymonkey.toomany.cards import CARDS, MAX_NUMBER, NUMBERS, Card, FaceDown
from cheekymonkey.toomany.events import (
    BonusTaken,
    Discarded,
    Drew,
    Event,
    GameWon,
    RaccoonTook,
    Reason,
    Reshuffled,
    RoundStarted,
    RoundWon,
    SkipGiven,
    Skipped,
    TookDiscard,
    TurnedDown,
    TurnedUp,
    Uncovered,
    WildPlaced,
)
from cheekymonkey.toomany.records import GameRecord
from cheekymonkey.toomany.rules import MAX_COUNT, MAX_PLAYERS, Ruleset
from cheekymonkey.toomany.state import GameState, Phase
from cheekymonkey.toomany.views import TableView

__all__ = [
    "CODEC",
    "DOCUMENT_FORMAT",
    "FORMAT",
    "KINDS",
    "LIMITS",
    "Document",
    "DocumentError",
    "Kind",
    "Limits",
    "dumps",
    "from_document",
    "loads",
    "to_document",
]

FORMAT_NAME: Final = "too-many-monkeys"
"""The name in the ``format`` field of every document: the game's name, as :func:`~cheekymonkey.games.game_named`
knows it."""
FORMAT_VERSION: Final = 1
"""The version in the ``format`` field that this library writes and reads."""
FORMAT: Final = f"{FORMAT_NAME}/{FORMAT_VERSION}"
"""The ``format`` field of every document this version writes and reads."""

Kind: TypeAlias = Literal["state", "action", "ruleset", "event", "view", "outcome", "record"]
"""The kinds of document."""

KINDS: Final[tuple[Kind, ...]] = get_args(Kind)
"""Every document kind, in a fixed order."""

Document: TypeAlias = GameState | Action | Ruleset | Event | TableView | Outcome | GameRecord
"""Any value that has a JSON document."""

CARD: Final = Spelling.of_names(Card, "a card", "cards", "A card, by its lowercase name (TM1).")
PHASE: Final = Spelling.of_names(Phase, "a phase", "phases", "What happens next: a decision, chance, or the end.")
REASON: Final = Spelling.of_names(Reason, "a reason", "reasons", "Why a card went onto the discard pile.")

ACTION_TAGS: Final[dict[type, str]] = {
    Draw: "draw",
    TakeDiscard: "take_discard",
    Reveal: "reveal",
    PlaceWild: "place_wild",
    TakeBonus: "take_bonus",
    RaccoonTake: "raccoon_take",
    TurnDown: "turn_down",
    GiveSkip: "give_skip",
    Decline: "decline",
}
"""The ``type`` field of each action class."""

EVENT_TAGS: Final[dict[type, str]] = {
    Drew: "drew",
    TookDiscard: "took_discard",
    TurnedUp: "turned_up",
    WildPlaced: "wild_placed",
    BonusTaken: "bonus_taken",
    Uncovered: "uncovered",
    RaccoonTook: "raccoon_took",
    TurnedDown: "turned_down",
    SkipGiven: "skip_given",
    Skipped: "skipped",
    Discarded: "discarded",
    Reshuffled: "reshuffled",
    RoundWon: "round_won",
    RoundStarted: "round_started",
    GameWon: "game_won",
}
"""The ``type`` field of each event class."""

DOCUMENT_TYPES: Final[dict[Kind, tuple[type, ...]]] = {
    "state": (GameState,),
    "action": tuple(ACTION_TAGS),
    "ruleset": (Ruleset,),
    "event": tuple(EVENT_TAGS),
    "view": (TableView,),
    "outcome": (Outcome,),
    "record": (GameRecord,),
}
"""The classes whose values each kind of document holds."""

_SEAT_FIELDS: Final = frozenset(
    {"seat", "target", "first_seat", "round_first", "viewer", "to_move", "first_player", "quit_by"}
)
_COUNTED_FROM_ONE: Final = {"position": 1, "row_size": 1, "round": 1, "players": 2, "min_players": 2, "max_players": 2}
_AT_MOST: Final = {"position": MAX_NUMBER, "row_size": MAX_NUMBER, "players": MAX_PLAYERS}


def _integer_fields() -> list[tuple[type, str]]:
    """Every field of a document's classes (and the classes they hold) that is one integer, or an integer or null."""
    found: list[tuple[type, str]] = []
    pending = [cls for classes in DOCUMENT_TYPES.values() for cls in classes]
    seen: set[type] = set()
    while pending:
        cls = pending.pop()
        if cls in seen or not attrs.has(cls):
            continue
        seen.add(cls)
        for field in attrs.fields(attrs.resolve_types(cls)):
            kinds = get_args(field.type) or (field.type,)
            if field.type is int or (int in kinds and type(None) in kinds and len(kinds) == 2):
                found.append((cls, field.name))
            pending.extend(kind for kind in kinds if isinstance(kind, type))
    return sorted(found, key=lambda owned: (owned[0].__name__, owned[1]))


_INTEGERS: Final = _integer_fields()

BOUNDS: Final[dict[tuple[type, str], int]] = {
    **{(cls, name): MAX_PLAYERS - 1 for cls, name in _INTEGERS if name in _SEAT_FIELDS},
    **{(cls, name): _AT_MOST[name] for cls, name in _INTEGERS if name in _AT_MOST},
    (Ruleset, "min_players"): MAX_PLAYERS,
    (Ruleset, "max_players"): MAX_PLAYERS,
    (RoundStarted, "row_sizes"): MAX_NUMBER,
    (Outcome, "winners"): MAX_PLAYERS - 1,
    (Outcome, "ranks"): MAX_PLAYERS,
}
"""Integer fields (and lists of them) with a tighter bound than :data:`~cheekymonkey.serialization.MAX_INTEGER`:
a seat is 0 to 5, a position or a row size 1 to 6, a seat count 2 to 6, a place 1 to 6 (TM2, TM3, TM24)."""

MINIMUMS: Final[dict[tuple[type, str], int]] = {
    **{(cls, name): _COUNTED_FROM_ONE[name] for cls, name in _INTEGERS if name in _COUNTED_FROM_ONE},
    (RoundStarted, "round"): 2,
    (RoundStarted, "row_sizes"): 1,
    (Reshuffled, "cards"): 1,
    (Outcome, "ranks"): 1,
}
"""Integer fields whose least value is above 0: positions and rounds count from 1, a game has 2 seats or more,
a round that starts follows one won, and a reshuffle makes a pile of one card at least."""

_SEATS: Final = (2, MAX_PLAYERS)
LENGTHS: Final[dict[tuple[type, str], tuple[tuple[int, int | None], ...]]] = {
    (GameState, "rows"): (_SEATS, (1, MAX_NUMBER)),
    (GameState, "skips"): (_SEATS,),
    (TableView, "rows"): (_SEATS, (1, MAX_NUMBER)),
    (TableView, "skips"): (_SEATS,),
    (RoundStarted, "row_sizes"): (_SEATS,),
    (Outcome, "winners"): ((1, 1),),
    (Outcome, "ranks"): (_SEATS,),
    (Outcome, "returns"): (_SEATS,),
    (GameRecord, "names"): ((0, MAX_PLAYERS),),
    (GameRecord, "bots"): ((0, MAX_PLAYERS),),
}
"""Lists with a least and a most number of items: a row per seat, 2 to 6 (TM2), of 1 to 6 cards (TM3, TM24),
one Skip flag, rank and return per seat, one winner (TM23), a name and a kind of player per seat (or none)."""

Refine: TypeAlias = Callable[[dict[str, Any]], dict[str, Any]]


def _only(cards: Iterable[Card], *, null: bool = False) -> Refine:
    """A card field (or a list of cards: each) that holds only ``cards`` (and null, if ``null``)."""
    words = [CARD.word(card) for card in cards]

    def refine(schema: dict[str, Any]) -> dict[str, Any]:
        if schema.get("type") == "array":
            return {**schema, "items": {"enum": words}}
        return {**schema, "anyOf": [{"enum": words}, {"type": "null"}]} if null else {**schema, "enum": words}

    return refine


def _rows(schema: dict[str, Any]) -> dict[str, Any]:
    # TM7, TM11, TM15: position p of a row holds the number p or a wild, face up or turned down, or a card
    # nobody has seen; nothing else, whatever the rest of the state.
    def position(number: int) -> dict[str, Any]:
        words = [CARD.word(NUMBERS[number - 1]), CARD.word(Card.WILD)]
        face_down = {"type": "object", "properties": {"card": {"enum": words}}, "required": ["card"]}
        return {"anyOf": [{"enum": words}, {**face_down, "additionalProperties": False}, {"type": "null"}]}

    row = {**schema["items"], "prefixItems": [position(number) for number in range(1, MAX_NUMBER + 1)]}
    del row["items"]
    return {**schema, "items": {**row, "items": False}}


def _no_wild(schema: dict[str, Any]) -> dict[str, Any]:
    # TM11, TM20: a reshuffled draw pile holds discarded cards, and a wild is never discarded.
    counts = schema["anyOf"][0]
    wild = CARD.word(Card.WILD)
    properties = {**counts["properties"], wild: {**counts["properties"][wild], "maximum": 0}}
    return {**schema, "anyOf": [{**counts, "properties": properties}, *schema["anyOf"][1:]]}


def _zero_or_one(schema: dict[str, Any]) -> dict[str, Any]:
    # TM23: the winner's return is 1, every other seat's 0.
    return {**schema, "items": {"enum": [0, 1]}}


def _no_scores(schema: dict[str, Any]) -> dict[str, Any]:
    # Too Many Monkeys counts no points: an outcome has no scores.
    return {key: value for key, value in schema.items() if key != "anyOf"} | {"type": "null"}


_NOT_WILD: Final = tuple(card for card in CARDS if card is not Card.WILD)
REFINE: Final[dict[tuple[type, str], Refine]] = {
    (FaceDown, "card"): _only((*NUMBERS, Card.WILD)),
    (GameState, "rows"): _rows,
    (TableView, "rows"): _rows,
    (GameState, "discard"): _only(_NOT_WILD),
    (TableView, "discard"): _only(_NOT_WILD),
    (GameState, "pile"): _no_wild,
    (TableView, "pile"): _no_wild,
    (RaccoonTake, "card"): _only(NUMBERS),
    (TurnedUp, "card"): _only(NUMBERS),
    (TookDiscard, "card"): _only(NUMBERS),
    (BonusTaken, "card"): _only(NUMBERS),
    (RaccoonTook, "card"): _only(NUMBERS, null=True),
    (TurnedDown, "card"): _only((*NUMBERS, Card.WILD)),
    (Discarded, "card"): _only(_NOT_WILD),
    (Outcome, "returns"): _zero_or_one,
    (Outcome, "scores"): _no_scores,
}
"""What the schemas say beyond the types, each of one field alone (the loader's checks refuse it already): a card
turned face down, or the cards a turned-up event or a bonus names, are numbers or a wild; each position of a row
its own number or a wild (TM7, TM11, TM15); a wild is never discarded (TM11); the raccoon takes numbers (TM14);
an outcome's returns are 0 or 1, and it has no scores (TM23)."""

_PER_CARD: Final = ((Ruleset, "counts"), (GameState, "unseen"), (GameState, "pile"), (TableView, "pile"))
"""The fields that hold a count per card: a deck's, and counts of its cards, so none above
:data:`~cheekymonkey.toomany.rules.MAX_COUNT` (TME4)."""

DOCUMENT_FORMAT: Final = DocumentFormat(
    name=FORMAT_NAME,
    version=FORMAT_VERSION,
    kinds=KINDS,
    types=DOCUMENT_TYPES,
    spellings=(CARD, PHASE, REASON),
    unions=(
        TaggedUnion(Action, ACTION_TAGS, "an action", "Action", "Any action: a player's decision or chance's outcome."),
        TaggedUnion(Event, EVENT_TAGS, "an event", "Event", "Any event: one thing an action did."),
    ),
    per_member=dict.fromkeys(_PER_CARD, (CARD, False)),
    member_bounds=dict.fromkeys(_PER_CARD, MAX_COUNT),
    signed=frozenset({(GameRecord, "seed")}),
    bounds=BOUNDS,
    minimums=MINIMUMS,
    lengths=LENGTHS,
    refine=REFINE,
)
"""Too Many Monkeys' documents, as the tables above say."""


# --- what a value says of itself --------------------------------------------------------------------

_PLAYED: Final = frozenset({Card.RACCOON, Card.DO_NOT_DISTURB})
_DECLINED: Final = frozenset({Card.DO_NOT_DISTURB, Card.SKIP})
_NO_TARGET: Final = frozenset({Card.DO_NOT_DISTURB, Card.SKIP})
_ENDS_TURN: Final = frozenset({Card.ELEPHANT, Card.GIRAFFE})


def _event_problems(event: Event) -> list[tuple[str, str]]:
    # An event stands alone, so only what it says of itself is checked: what the action it reports did.
    if isinstance(event, TurnedUp) and (not event.card.is_number or event.position != event.card):
        return [("$.position", "TM7: a number is put face up at the position of its own number")]
    if isinstance(event, TookDiscard | BonusTaken) and not event.card.is_number:
        rule = "TM6: only a number is taken from the discard pile" if isinstance(event, TookDiscard) else ""
        return [("$.card", rule or "TM12: the bonus puts a number in place of the wild")]
    if isinstance(event, RaccoonTook) and event.card is not None and not event.card.is_number:
        return [("$.card", "TM14: the raccoon takes only a number from the discard pile")]
    if isinstance(event, TurnedDown | SkipGiven) and event.target == event.seat:
        return [("$.target", "TM15, TM16: a Do Not Disturb or a Skip is played on an opponent, not on oneself")]
    if isinstance(event, TurnedDown) and not (
        event.card is Card.WILD or (event.card.is_number and event.card == event.position)
    ):
        return [("$.card", "TM15: a face-up card in a row is a wild, or a number at its own position")]
    if isinstance(event, Discarded):
        return _discard_problems(event)
    if isinstance(event, RoundStarted):
        sizes = event.row_sizes
        if not 2 <= len(sizes) <= MAX_PLAYERS or not all(1 <= size <= MAX_NUMBER for size in sizes):
            return [("$.row_sizes", "TM2, TM24: 2 to 6 seats, each with a row of 1 to 6 cards")]
        if event.first_seat >= len(sizes):
            return [("$.first_seat", f"seat {event.first_seat} is not one of the {len(sizes)} seats")]
    return []


def _discard_problems(event: Discarded) -> list[tuple[str, str]]:
    card, reason = event.card, event.reason
    if card is Card.WILD:
        return [("$.card", "TM11: a wild is always placed, never discarded")]
    expected = {
        Reason.DUPLICATE: (card.is_number, "TM9: only a number is discarded as a duplicate"),
        Reason.TOO_HIGH: (card.is_number, "TM9: only a number is discarded as too high for the row"),
        Reason.ENDS_TURN: (card in _ENDS_TURN, "TM13: only an elephant or a giraffe ends the turn so"),
        Reason.PLAYED: (card in _PLAYED, "TM14, TM15: only a raccoon or a Do Not Disturb is discarded as played"),
        Reason.DECLINED: (
            card.is_number or card in _DECLINED,
            "TM12, TM15, TM16: a declined card is a number (the bonus), a Do Not Disturb or a Skip",
        ),
        Reason.NO_TARGET: (card in _NO_TARGET, "TM15, TM16: only a Do Not Disturb or a Skip can lack a target"),
    }
    fits, rule = expected[reason]
    return [] if fits else [("$.reason", rule)]


def _outcome_problems(result: Outcome) -> list[tuple[str, str]]:
    # TM23 and the ruling on the outcome: one winner, ranked 1; the others by row size, competition ranks.
    players = len(result.ranks)
    if not 2 <= players <= MAX_PLAYERS:
        return [("$.ranks", f"{players} seats: a game has 2 to {MAX_PLAYERS} (TM2)")]
    if len(result.winners) != 1:
        return [("$.winners", "TM23: exactly one player wins the game")]
    (won,) = result.winners
    ranks = result.ranks
    if ranks[won] != 1 or sorted(ranks).count(1) != 1:
        return [("$.ranks", "TM23: the winner alone is ranked first")]
    if any(rank != 1 + sum(other < rank for other in ranks) for rank in ranks):
        return [("$.ranks", "seats that tie share a place and the next place skips as many (1, 2, 2, 4)")]
    if result.returns != tuple(1.0 if seat == won else 0.0 for seat in range(players)):
        return [("$.returns", "the winner's return is 1 and every other seat's 0")]
    if result.scores is not None:
        return [("$.scores", "Too Many Monkeys counts no points: an outcome has no scores")]
    return []


def check_value(kind: str, value: Any) -> None:
    """Check what a structured value says of itself, beyond each field's type and its constructor's checks.

    An event must agree with itself (a number turned up lies at its own position, a discard's reason fits
    its card), an outcome must be one of a finished game (one winner, competition ranks, returns of 1 and
    0), and a record must replay.

    Raises:
        DocumentError: Naming each problem and where in the document it is.
    """
    if isinstance(value, GameRecord):
        check_replay(value)
        return
    problems = _outcome_problems(value) if isinstance(value, Outcome) else []
    if kind == "event":
        problems = _event_problems(cast(Event, value))
    if problems:
        raise DocumentError(kind, problems)


CODEC: Final = DocumentCodec.of(DOCUMENT_FORMAT, check_value)
"""Too Many Monkeys' documents: the :class:`~cheekymonkey.documents.Documents` of
:data:`~cheekymonkey.toomany.TOO_MANY_MONKEYS`."""


def to_document(value: Document) -> dict[str, Any]:
    """The JSON document of ``value`` as plain dicts and lists, ready for ``json.dumps`` or a web framework.

    Args:
        value: A state, action, rule set, event, table view, outcome or game record.

    Returns:
        A dict with ``format``, ``kind`` and the value's fields.

    Raises:
        TypeError: If ``value`` is none of those.
        ValueError: If ``value`` is a record whose seed is beyond ``2**53 - 1``, which no document holds.

    >>> from cheekymonkey.toomany import GiveSkip
    >>> to_document(GiveSkip(2))
    {'format': 'too-many-monkeys/1', 'kind': 'action', 'seat': 2, 'type': 'give_skip'}
    """
    return CODEC.to_document(value)


def dumps(value: Document, *, indent: int | None = None) -> str:
    """The JSON text of ``value``'s document, keys sorted, so equal values give equal text.

    Args:
        value: A state, action, rule set, event, table view, outcome or game record.
        indent: Indent nested levels by this many spaces; None for one line.

    Raises:
        TypeError: If ``value`` has no document kind.
    """
    return CODEC.dumps(value, indent=indent)


@overload
def from_document(document: object, kind: Literal["state"], *, limits: Limits = ...) -> GameState: ...
@overload
def from_document(document: object, kind: Literal["action"], *, limits: Limits = ...) -> Action: ...
@overload
def from_document(document: object, kind: Literal["ruleset"], *, limits: Limits = ...) -> Ruleset: ...
@overload
def from_document(document: object, kind: Literal["event"], *, limits: Limits = ...) -> Event: ...
@overload
def from_document(document: object, kind: Literal["view"], *, limits: Limits = ...) -> TableView: ...
@overload
def from_document(document: object, kind: Literal["outcome"], *, limits: Limits = ...) -> Outcome: ...
@overload
def from_document(document: object, kind: Literal["record"], *, limits: Limits = ...) -> GameRecord: ...
@overload
def from_document(document: object, kind: Kind | None = None, *, limits: Limits = ...) -> Document: ...
def from_document(document: object, kind: Kind | None = None, *, limits: Limits = LIMITS) -> Document:
    """The value held by an already-parsed JSON document (plain dicts and lists), fully checked.

    Args:
        document: The parsed document.
        kind: The kind of document expected, or None to accept any kind. An ``action`` may come without
            its ``format`` and ``kind``, as a view lists them.
        limits: How deep the document may nest and how long a record may be (the size of text is
            checked by :func:`loads`).

    Returns:
        The value, of the type its kind says: a ``"state"`` is a :class:`~cheekymonkey.toomany.GameState`.

    Raises:
        DocumentError: If the document is malformed, of another kind or a newer format, holds a value
            that breaks an invariant, or is over a limit; it names the problem and its JSON path.
    """
    value: Document = CODEC.from_document(document, kind, limits=limits)
    return value


@overload
def loads(text: str | bytes, kind: Literal["state"], *, limits: Limits = ...) -> GameState: ...
@overload
def loads(text: str | bytes, kind: Literal["action"], *, limits: Limits = ...) -> Action: ...
@overload
def loads(text: str | bytes, kind: Literal["ruleset"], *, limits: Limits = ...) -> Ruleset: ...
@overload
def loads(text: str | bytes, kind: Literal["event"], *, limits: Limits = ...) -> Event: ...
@overload
def loads(text: str | bytes, kind: Literal["view"], *, limits: Limits = ...) -> TableView: ...
@overload
def loads(text: str | bytes, kind: Literal["outcome"], *, limits: Limits = ...) -> Outcome: ...
@overload
def loads(text: str | bytes, kind: Literal["record"], *, limits: Limits = ...) -> GameRecord: ...
@overload
def loads(text: str | bytes, kind: Kind | None = None, *, limits: Limits = ...) -> Document: ...
def loads(text: str | bytes, kind: Kind | None = None, *, limits: Limits = LIMITS) -> Document:
    """Parse JSON text into the value its document holds, fully checked.

    Args:
        text: The JSON text (bytes must be UTF-8).
        kind: The kind of document expected, or None to accept any kind.
        limits: The size, nesting and record length to refuse beyond; :data:`LIMITS` by default.

    Raises:
        DocumentError: As :func:`from_document`, and for text that is not JSON (truncated, say), that
            repeats a key or holds a huge number, or that is over the size limit.

    >>> loads('{"format": "too-many-monkeys/1", "kind": "action", "type": "give_skip", "seat": 0}')
    GiveSkip(0)
    """
    value: Document = CODEC.loads(text, kind, limits=limits)
    return value
