"""What a Cheeky Monkey document is: its format tag, its kinds, and how each field is written.

The tables here make :data:`DOCUMENT_FORMAT`, from which the converter, the loaders and the JSON Schemas are
built the same way as every game's (:mod:`cheekymonkey.serialization.spec`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal, TypeAlias

from cheekymonkey.actions import Action, Claim, Draw, Herd, Place, Reveal, Stop, Swap
from cheekymonkey.events import (
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
from cheekymonkey.records import GameRecord
from cheekymonkey.rules import MAX_COUNT, MAX_PLAYERS, Animal, Ruleset
from cheekymonkey.scoring import Decision, ScoreSheet, SeatScore
from cheekymonkey.serialization.spec import MAX_INTEGER, DocumentFormat, Spelling, TaggedUnion
from cheekymonkey.state import GameState, Phase
from cheekymonkey.views import TableView

__all__ = ["DOCUMENT_FORMAT", "FORMAT", "KINDS", "MAX_INTEGER", "Document", "Kind"]

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
:data:`~cheekymonkey.rules.MAX_COUNT` (E7), a tile's holder is a seat."""

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
