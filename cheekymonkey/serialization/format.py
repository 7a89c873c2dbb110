"""What a document is: its format tag, its kinds, and how each field is written (the schema reads these too)."""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

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
from cheekymonkey.rules import MAX_PLAYERS, Ruleset
from cheekymonkey.scoring import ScoreSheet, SeatScore
from cheekymonkey.state import GameState
from cheekymonkey.views import TableView

__all__ = ["FORMAT", "KINDS", "MAX_INTEGER", "Document", "Kind"]

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

SIGNED: Final[frozenset[tuple[type, str]]] = frozenset({(GameRecord, "seed")})
"""Integer fields that may be negative; every other integer in a document is 0 or more."""

MAX_INTEGER: Final = 2**53 - 1
"""The largest integer (in size) a document may hold: the range every JSON reader keeps exact (RFC 7493)."""

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
