"""JSON documents for states, actions, rule sets, events, views, score sheets and game records.

Every document is a JSON object with a ``format`` (``"cheekymonkey/1"``) and a ``kind`` beside the
value's own fields, written with sorted keys. Animals and phases are lowercase names; a count per
animal (the bag, a rule set's counts) is an object keyed by animal name. For example, an action::

    {"format": "cheekymonkey/1", "kind": "action", "seat": 2, "type": "claim"}

Loading checks everything: the JSON itself, the format version, the kind, every field's type, unknown
fields, and then the value's own invariants (a state goes through :class:`~cheekymonkey.GameState`'s
validating constructor; a record is replayed; a score sheet must add up). Any problem raises one error
type, :class:`DocumentError`, naming the problem and where in the document it is.

This module needs the ``json`` extra (``pip install 'cheekymonkey[json]'``) for cattrs. The JSON Schema of
every document kind ships in :mod:`cheekymonkey.schema`.

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

import itertools
import json
import re
import reprlib
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal, TypeAlias, cast, get_args, get_type_hints, overload

import attrs

try:
    import cattrs
    from cattrs.cols import homogenous_tuple_structure_factory
    from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
    from cattrs.v import format_exception
except ImportError as error:  # pragma: no cover - tested in a process without cattrs
    raise ImportError(
        "cheekymonkey.serialization needs cattrs, from the json extra: pip install 'cheekymonkey[json]'"
        " (or, in a clone of the repository: pip install '.[json]')",
        name=error.name,
    ) from error

from cheekymonkey.actions import Action, Claim, Draw, Herd, Place, Reveal, Stop, Swap
from cheekymonkey.errors import CheekyMonkeyError, ReplayError
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
from cheekymonkey.rules import ANIMALS, MAX_PLAYERS, Animal, Ruleset
from cheekymonkey.scoring import Decision, ScoreSheet, SeatScore, score_counts
from cheekymonkey.state import GameState, Phase
from cheekymonkey.views import TableView

__all__ = [
    "FORMAT",
    "KINDS",
    "LIMITS",
    "MAX_INTEGER",
    "Document",
    "DocumentError",
    "Kind",
    "Limits",
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
FORMAT_VERSION: Final = 1
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

_ANIMAL_NAMES: Final = tuple(a.name.lower() for a in ANIMALS)
_ANIMAL_BY_NAME: Final = {a.name.lower(): a for a in ANIMALS}
_PHASE_BY_NAME: Final = {p.name.lower(): p for p in Phase}
_DECISION_BY_VALUE: Final = {d.value: d for d in Decision}
# A version is a plain decimal number: no sign, no leading zero (as the schema's constant says for version 1).
_FORMAT_PATTERN: Final = re.compile(rf"{FORMAT_NAME}/(0|[1-9][0-9]{{0,8}})")
_HEADER: Final = ("format", "kind")


@attrs.frozen(slots=True)
class Limits:
    """How much a loader takes on before it refuses a document, checked before the work that it bounds.

    The defaults are far above anything play writes (a long game's record is about 200 actions and 10 kB)
    and keep a hostile document from costing much time or memory: pass larger limits to load more.

    >>> from cheekymonkey import new_game
    >>> load_state(dump_state(new_game(2)), limits=Limits(max_bytes=100))
    Traceback (most recent call last):
        ...
    cheekymonkey.serialization.DocumentError: invalid state document at $: the document is ... over the limit of 100
    """

    max_bytes: int = 16_000_000
    """The largest document, in bytes of UTF-8 (the text is measured before it is parsed)."""
    max_depth: int = 32
    """The deepest nesting of objects and lists (the documents this library writes nest 5 deep at most)."""
    max_actions: int = 100_000
    """The most actions a record may hold (checked before any action is read or replayed)."""


LIMITS: Final = Limits()
"""The default :class:`Limits`."""

_MAX_PROBLEMS: Final = 20
_PROBLEMS_SHOWN: Final = 3  # in the message; .problems keeps up to _MAX_PROBLEMS
_MAX_TEXT: Final = 200


class DocumentError(CheekyMonkeyError, ValueError):
    """A JSON document that cannot be loaded: malformed, truncated, tampered with, or from a newer version.

    Attributes:
        kind: The kind of document that was expected or declared, or None if not known.
        path: Where the (first) problem is, as a JSON path (``$`` is the whole document).
        reason: What is wrong there, in words.
        problems: The problems found (the first 20), each as ``(path, reason)``; the first is ``(path, reason)``.
            The message shows the first three, and how many more there are.
    """

    def __init__(self, kind: str | None, problems: list[tuple[str, str]]) -> None:
        # Every part is clipped: a hostile document must not come back as a message of megabytes.
        self.kind = None if kind is None else _clip(kind)
        self.problems = tuple((_clip(path), _clip(reason)) for path, reason in problems[:_MAX_PROBLEMS])
        self.path, self.reason = self.problems[0]
        what = f"invalid {self.kind} document" if self.kind else "invalid document"
        shown = self.problems[:_PROBLEMS_SHOWN]
        listed = "; ".join(f"at {path}: {reason}" for path, reason in shown)
        more = len(problems) - len(shown)
        super().__init__(f"{what} {listed}" + (f"; and {more} more problems" if more > 0 else ""))

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its own arguments, so it survives pickling (a process pool sends it back) and copy.
        # The message travels too: it counts problems beyond the first 20, which are not kept.
        return (self.__class__, (self.kind, list(self.problems)), {"args": self.args})


class _Bad(ValueError):
    """A value in a document that is not what its field needs; the message says what is wrong."""


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."


_REPR: Final = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlevel = 2


def _describe(value: object) -> str:
    # reprlib bounds the work as well as the text: a huge value is never turned into a string whole.
    try:
        text = _REPR.repr(value)
    except ValueError:  # an integer of more digits than Python turns into text
        return f"an integer of {value.bit_length()} bits" if isinstance(value, int) else "a huge value"
    return text if len(text) <= 60 else text[:57] + "..."


def _check_size(value: int, maximum: int = MAX_INTEGER, minimum: int = 0) -> int:
    if value > maximum or value < -MAX_INTEGER:
        what = "too large" if maximum == MAX_INTEGER else f"above {maximum}"
        raise _Bad(f"the integer {_describe(value)} is {what}: documents hold integers up to {maximum}")
    if value < minimum:
        raise _Bad(f"expected an integer of {minimum} or more, got {_describe(value)}")
    return value


# --- structuring and unstructuring hooks ---------------------------------------------------------


def _structure_int(value: object, _: object) -> int:
    # Every integer in a document is a count, a seat or a score, so 0 or more, except those in SIGNED.
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(f"expected an integer, got {_describe(value)}")
    return _check_size(value)


def _structure_signed(value: object, _: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(f"expected an integer or null, got {_describe(value)}")
    return _check_size(value, minimum=-MAX_INTEGER)


def _bounded_hook(maximum: int, nullable: bool) -> Callable[[object, object], int | None]:
    def structure(value: object, _: object) -> int | None:
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(f"expected an integer{' or null' if nullable else ''}, got {_describe(value)}")
        return _check_size(value, maximum)

    return structure


def _structure_bool(value: object, _: object) -> bool:
    if not isinstance(value, bool):
        raise _Bad(f"expected true or false, got {_describe(value)}")
    return value


def _structure_str(value: object, _: object) -> str:
    if not isinstance(value, str):
        raise _Bad(f"expected a string, got {_describe(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        # JSON's \ud800 escapes can spell half a character; such a string cannot be written out again.
        raise _Bad(f"the string {_describe(value)} holds a lone surrogate, which is not text") from None
    return value


def _structure_animal(value: object, _: object) -> Animal:
    animal = _ANIMAL_BY_NAME.get(value) if isinstance(value, str) else None
    if animal is None:
        raise _Bad(f"expected an animal ({', '.join(_ANIMAL_NAMES)}), got {_describe(value)}")
    return animal


def _structure_phase(value: object, _: object) -> Phase:
    phase = _PHASE_BY_NAME.get(value) if isinstance(value, str) else None
    if phase is None:
        raise _Bad(f"expected a phase ({', '.join(_PHASE_BY_NAME)}), got {_describe(value)}")
    return phase


def _structure_decision(value: object, _: object) -> Decision:
    decision = _DECISION_BY_VALUE.get(value) if isinstance(value, str) else None
    if decision is None:
        raise _Bad(f"expected a decision ({', '.join(_DECISION_BY_VALUE)}), got {_describe(value)}")
    return decision


def _strict_tuple_factory(tp: Any, converter: cattrs.Converter) -> Callable[[object, object], tuple[object, ...]]:
    # cattrs would iterate any iterable (a string is a sequence of characters); a document holds lists.
    inner = homogenous_tuple_structure_factory(tp, converter)

    def structure(value: object, target: object) -> tuple[object, ...]:
        if not isinstance(value, list):
            raise _Bad(f"expected a list, got {_describe(value)}")
        return cast(tuple[object, ...], inner(value, target))

    return structure


def _is_homogenous_tuple(tp: Any) -> bool:
    args = get_args(tp)
    return getattr(tp, "__origin__", None) is tuple and len(args) == 2 and args[1] is Ellipsis


def _per_animal_hooks(nullable: bool) -> tuple[Callable[[object, object], tuple[object, ...]], Callable[[Any], Any]]:
    def structure(value: object, _: object) -> tuple[object, ...]:
        if not isinstance(value, dict):
            raise _Bad(f"expected an object with a value per animal, got {_describe(value)}")
        unknown = [_describe(k) for k in itertools.islice((k for k in value if k not in _ANIMAL_BY_NAME), 5)]
        if unknown:
            raise _Bad(f"unknown animals {', '.join(unknown)}; the animals are {', '.join(_ANIMAL_NAMES)}")
        missing = [name for name in _ANIMAL_NAMES if name not in value]
        if missing:
            raise _Bad(f"no value for {', '.join(missing)}: every animal needs one (0 if not in play)")
        values: list[object] = []
        for name in _ANIMAL_NAMES:
            item = value[name]
            if item is None and nullable:
                values.append(None)
                continue
            if isinstance(item, bool) or not isinstance(item, int) or item < 0:
                expected = "a seat number or null" if nullable else "a count (an integer, 0 or more)"
                raise _Bad(f"the value for {name} must be {expected}, got {_describe(item)}")
            values.append(_check_size(item))
        return tuple(values)

    def unstructure(values: tuple[object, ...]) -> dict[str, object]:
        return dict(zip(_ANIMAL_NAMES, values, strict=True))

    return structure, unstructure


def _tagged_union(converter: cattrs.Converter, tags: Mapping[type, str], what: str) -> Callable[[object, object], Any]:
    by_tag = {tag: cls for cls, tag in tags.items()}

    def structure(value: object, _: object) -> Any:
        if not isinstance(value, dict):
            raise _Bad(f"expected an {what} object, got {_describe(value)}")
        tag = value.get(TAG_FIELD)
        cls = by_tag.get(tag) if isinstance(tag, str) else None
        if cls is None:
            raise _Bad(f"{TAG_FIELD} {_describe(tag)} is not an {what}; expected one of {', '.join(by_tag)}")
        fields = {k: v for k, v in value.items() if k != TAG_FIELD}
        return converter.structure(fields, cls)

    return structure


def _tagged_unstructure(converter: cattrs.Converter, tags: Mapping[type, str]) -> Callable[[Any], dict[str, Any]]:
    def unstructure(value: Any) -> dict[str, Any]:
        fields: dict[str, Any] = converter.unstructure(value, unstructure_as=value.__class__)
        fields[TAG_FIELD] = tags[value.__class__]
        return fields

    return unstructure


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    converter.register_structure_hook(int, _structure_int)
    converter.register_structure_hook(bool, _structure_bool)
    converter.register_structure_hook(str, _structure_str)
    converter.register_structure_hook(Animal, _structure_animal)
    converter.register_structure_hook(Phase, _structure_phase)
    converter.register_structure_hook(Decision, _structure_decision)
    converter.register_unstructure_hook(Animal, lambda a: a.name.lower())
    converter.register_unstructure_hook(Phase, lambda p: p.name.lower())
    converter.register_unstructure_hook(Decision, lambda d: d.value)
    converter.register_structure_hook_factory(_is_homogenous_tuple, _strict_tuple_factory)
    # The unions first: the class hooks below are generated now and look them up.
    action_union: Any = Action
    event_union: Any = Event
    converter.register_structure_hook(action_union, _tagged_union(converter, ACTION_TAGS, "action"))
    converter.register_structure_hook(event_union, _tagged_union(converter, EVENT_TAGS, "event"))
    converter.register_unstructure_hook(action_union, _tagged_unstructure(converter, ACTION_TAGS))
    converter.register_unstructure_hook(event_union, _tagged_unstructure(converter, EVENT_TAGS))
    # Per-animal fields become objects keyed by animal name, both ways; a seed may be negative.
    classes: dict[type, dict[str, tuple[Any, Any]]] = {}
    for (cls, name), nullable in PER_ANIMAL.items():
        classes.setdefault(cls, {})[name] = _per_animal_hooks(nullable)
    for cls, name in SIGNED:
        classes.setdefault(cls, {})[name] = (_structure_signed, None)
    for (cls, name), maximum in BOUNDS.items():
        # The native classes (GameState, the actions) give attrs' field table real types, while their
        # annotations name types imported only for checking; attrs classes keep string annotations there.
        field_type: object = attrs.fields_dict(cls)[name].type
        if isinstance(field_type, str):
            field_type = get_type_hints(cls)[name]
        nullable = type(None) in get_args(field_type)
        classes.setdefault(cls, {})[name] = (_bounded_hook(maximum, nullable), None)
    for cls, hooks in classes.items():
        structure_overrides: dict[str, Any] = {n: override(struct_hook=s) for n, (s, _) in hooks.items()}
        unstructure_overrides: dict[str, Any] = {
            n: override(unstruct_hook=u) for n, (_, u) in hooks.items() if u is not None
        }
        converter.register_structure_hook(cls, make_dict_structure_fn(cls, converter, **structure_overrides))
        converter.register_unstructure_hook(cls, make_dict_unstructure_fn(cls, converter, **unstructure_overrides))
    return converter


_CONVERTER: Final = _make_converter()


# --- errors --------------------------------------------------------------------------------------


def _format_exception(exc: BaseException, tp: type | None) -> str:
    if isinstance(exc, _Bad | CheekyMonkeyError):
        return str(exc)
    if isinstance(exc, KeyError):
        return "this required field is missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        names = sorted(exc.extra_fields, key=len)[:5]
        more = f" and {len(exc.extra_fields) - len(names)} more" if len(exc.extra_fields) > len(names) else ""
        return f"unknown fields {', '.join(_describe(k) for k in sorted(names))}{more}"
    return format_exception(exc, tp)


def _problems(exc: BaseException) -> list[tuple[str, str]]:
    problems = []
    for line in cattrs.transform_error(exc, path="$", format_exception=_format_exception):
        reason, _, path = line.rpartition(" @ ")
        problems.append((path, reason))
    return problems


# --- documents -----------------------------------------------------------------------------------


def _kind_of(value: object) -> Kind:
    for kind, types in DOCUMENT_TYPES.items():
        if isinstance(value, types):
            return kind
    raise TypeError(f"{_describe(value)} has no JSON document; documents hold {', '.join(KINDS)}")


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
    kind = _kind_of(value)
    if isinstance(value, GameRecord) and value.seed is not None and abs(value.seed) > MAX_INTEGER:
        # Refused here rather than written into a record that no loader would take back.
        raise ValueError(f"the record's seed {_describe(value.seed)} is too large for a document (2**53 - 1 at most)")
    if kind == "action":
        body: dict[str, Any] = _CONVERTER.unstructure(value, unstructure_as=Action)
    elif kind == "event":
        body = _CONVERTER.unstructure(value, unstructure_as=Event)
    else:
        body = _CONVERTER.unstructure(value, unstructure_as=value.__class__)
    return {"format": FORMAT, "kind": kind, **body}


def dumps(value: Document, *, indent: int | None = None) -> str:
    """The JSON text of ``value``'s document, keys sorted, so equal values give equal text.

    Args:
        value: A state, action, rule set, event, table view, score sheet or game record.
        indent: Indent nested levels by this many spaces; None for one line.

    Raises:
        TypeError: If ``value`` has no document kind.
    """
    return json.dumps(to_document(value), sort_keys=True, indent=indent, ensure_ascii=False)


def _check_header(document: object, kind: Kind | None) -> tuple[Kind, dict[str, Any]]:
    if not isinstance(document, dict):
        raise DocumentError(kind, [("$", f"a document must be a JSON object, got {_describe(document)}")])
    if kind == "action" and not any(key in document for key in _HEADER):
        # A view offers its legal actions without the header, and a client may post one back as it is:
        # an action is the same with or without the header (the action schema says so too).
        return "action", document
    declared = document.get("format")
    if "format" not in document:
        raise DocumentError(kind, [("$", f"no 'format' field: not a {FORMAT_NAME} document")])
    match = _FORMAT_PATTERN.fullmatch(declared) if isinstance(declared, str) else None
    if match is None:
        raise DocumentError(kind, [("$.format", f"format {_describe(declared)} is not {FORMAT!r}")])
    version = int(match.group(1))
    if version > FORMAT_VERSION:
        reason = f"format {declared!r} is newer than this library reads ({FORMAT!r}): upgrade cheekymonkey"
        raise DocumentError(kind, [("$.format", reason)])
    if version != FORMAT_VERSION:
        raise DocumentError(kind, [("$.format", f"format {declared!r} is not {FORMAT!r}")])
    declared_kind = document.get("kind")
    if declared_kind not in KINDS:
        raise DocumentError(kind, [("$.kind", f"kind {_describe(declared_kind)} is not one of {', '.join(KINDS)}")])
    if kind is not None and declared_kind != kind:
        raise DocumentError(kind, [("$.kind", f"expected a {kind} document, got a {declared_kind} document")])
    body = {k: v for k, v in document.items() if k not in _HEADER}
    return cast(Kind, declared_kind), body


def _check_sheet(sheet: ScoreSheet, ruleset: Ruleset | None, path: str) -> None:
    problems: list[tuple[str, str]] = []
    for i, line in enumerate(sheet.seats):
        where = f"{path}.seats[{i}]"
        if line.seat != i:
            problems.append((f"{where}.seat", f"line {i} is for seat {line.seat}"))
        if line.tokens != sum(line.counts):
            problems.append((f"{where}.tokens", f"{line.tokens} tokens, but the counts add up to {sum(line.counts)}"))
        if line.total != line.tokens + line.bonus:
            problems.append((f"{where}.total", f"total {line.total} is not tokens {line.tokens} + bonus {line.bonus}"))
    if problems:
        raise DocumentError(None, problems)
    if not sheet.seats:
        raise DocumentError(None, [(f"{path}.seats", "a score sheet needs at least one seat")])
    if ruleset is not None:
        expected = score_counts([line.counts for line in sheet.seats], ruleset)
        if expected != sheet:
            raise DocumentError(None, [(path, "the score sheet does not follow from its counts under the rule set")])
        return
    # Without the rule set, check what the sheet says of itself (R16-R18).
    for animal, holder in zip(ANIMALS, sheet.tile_holders, strict=True):
        name = animal.name.lower()
        if holder is not None:
            if holder >= len(sheet.seats):
                problems.append((f"{path}.tile_holders.{name}", f"seat {holder} is not on the sheet"))
                continue
            held = sheet.seats[holder].counts[animal]
            if any(line.counts[animal] >= held for line in sheet.seats if line.seat != holder):
                problems.append((f"{path}.tile_holders.{name}", f"seat {holder} does not hold the most {name} (R16)"))
    for i, line in enumerate(sheet.seats):
        tiles = tuple(a for a in ANIMALS if sheet.tile_holders[a] == i)
        if line.tiles != tiles:
            problems.append((f"{path}.seats[{i}].tiles", "the tiles do not match the tile holders"))
        if (line.best_tile is None) != (not tiles):
            problems.append((f"{path}.seats[{i}].best_tile", "a best tile needs a tile, and a tile a best tile"))
    top = max(line.total for line in sheet.seats)
    tied = {line.seat for line in sheet.seats if line.total == top}
    if not sheet.winners or not set(sheet.winners) <= tied or list(sheet.winners) != sorted(set(sheet.winners)):
        problems.append((f"{path}.winners", f"the winners must be among the top scorers {sorted(tied)}, in order"))
    elif (sheet.decided_by is Decision.SCORE) != (len(tied) == 1) or (
        sheet.decided_by is Decision.SHARED and len(sheet.winners) < 2
    ):
        problems.append((f"{path}.decided_by", f"{sheet.decided_by.value!r} does not fit {len(tied)} top scorers"))
    if problems:
        raise DocumentError(None, problems)
    _check_sheet_follows(sheet, path)


def _tile_values(line: SeatScore, where: str) -> list[int]:
    # Values for the seat's tiles that give its bonus and its best tile, if any exist: the first tile is
    # worth the best, the others share the rest, each worth 1 to the best.
    tiles, bonus, best = len(line.tiles), line.bonus, line.best_tile
    if best is None or best < 1:
        reason = f"a seat with tiles needs a best tile of 1 or more, not {best}"
        raise DocumentError(None, [(f"{where}.best_tile", reason)])
    rest, others = bonus - best, tiles - 1
    if not others <= rest <= others * best:
        reason = f"a bonus of {bonus} is not {tiles} tiles each worth 1 to {best}, one of them {best}"
        raise DocumentError(None, [(f"{where}.bonus", reason)])
    values = [best]
    for left in range(others, 0, -1):
        value = min(best, rest - (left - 1))
        values.append(value)
        rest -= value
    return values


def _check_sheet_follows(sheet: ScoreSheet, path: str) -> None:
    """Check that scoring the sheet's own counts gives the sheet, under rules that fit its tiles (R16-R18).

    A sheet carries no rule set, so this builds one from the sheet: every animal in play, tiles on if
    anybody took one, and tile values that give each seat its bonus and best tile. Any such rule set
    scores the counts alike, so the sheet must equal what :func:`score_counts` gives under it.
    """
    values = [1] * len(ANIMALS)
    for i, line in enumerate(sheet.seats):
        if line.tiles:
            for animal, value in zip(line.tiles, _tile_values(line, f"{path}.seats[{i}]"), strict=True):
                values[animal] = value
    tiles_on = any(holder is not None for holder in sheet.tile_holders)
    rules = Ruleset((1,) * len(ANIMALS), tuple(values), bonus_tiles=tiles_on, swap=False, name="sheet")
    expected = score_counts([line.counts for line in sheet.seats], rules)
    if expected == sheet:
        return
    for i, (want, got) in enumerate(zip(expected.seats, sheet.seats, strict=True)):
        for field in ("tiles", "bonus", "total", "best_tile"):
            if getattr(want, field) != getattr(got, field):
                reason = f"scoring the counts gives {getattr(want, field)!r}, not {_describe(getattr(got, field))}"
                raise DocumentError(None, [(f"{path}.seats[{i}].{field}", f"R16-R18: {reason}")])
    for field in ("tile_holders", "winners", "decided_by"):
        want_value, got_value = getattr(expected, field), getattr(sheet, field)
        if want_value != got_value:
            reason = f"R16-R18: scoring the counts gives {want_value!r}, not {_describe(got_value)}"
            raise DocumentError(None, [(f"{path}.{field}", reason)])
    raise AssertionError("unreachable: the sheets differ in some field")  # pragma: no cover


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
    elif isinstance(event, HerdSecured) and (not event.animals or len(set(event.animals)) != 1):
        problems.append(("$.animals", "R10: a herd is one token or more, all of one animal"))
    if problems:
        raise DocumentError(None, problems)


def _structure(kind: Kind, body: dict[str, Any]) -> Document:
    target: Any
    if kind == "action":
        target = Action
    elif kind == "event":
        target = Event
    else:
        (target,) = DOCUMENT_TYPES[kind]
    try:
        value: Document = _CONVERTER.structure(body, target)
    except (cattrs.BaseValidationError, _Bad, CheekyMonkeyError, KeyError, TypeError, ValueError) as error:
        raise DocumentError(kind, _problems(error)) from error
    _refuse_reversed_standard_values(kind, value)
    try:
        if isinstance(value, ScoreSheet):
            _check_sheet(value, None, "$")
        elif isinstance(value, GameOver):
            _check_sheet(value.sheet, None, "$.sheet")
        elif isinstance(value, GameRecord):
            _check_record(value)
        elif isinstance(value, TableView) and value.sheet is not None:
            _check_sheet(value.sheet, value.ruleset, "$.sheet")  # the sheet must follow from its counts
        elif kind == "event":
            _check_event(cast(Event, value))
    except DocumentError as error:
        raise DocumentError(kind, list(error.problems)) from error
    return value


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


def _check_record(record: GameRecord) -> None:
    try:
        record.start()
    except CheekyMonkeyError as error:
        raise DocumentError(None, [("$", str(error))]) from error
    try:
        record.states()
    except ReplayError as error:
        reason = f"step {error.step} does not replay: {error.cause}"
        raise DocumentError(None, [(f"$.actions[{error.step}]", reason)]) from error


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            # A repeated key would silently let the last copy win: a sign of tampering or a bad writer.
            raise _Bad(f"the key {_describe(key)} appears twice in one object")
        result[key] = value
    return result


def _reject_constant(name: str) -> None:
    raise _Bad(f"{name} is not a JSON number")


def _parse_int(digits: str) -> int:
    # Checked before int() turns the digits into a number, which takes time quadratic in their count.
    if len(digits.lstrip("-")) > len(str(MAX_INTEGER)):
        raise _Bad(f"the integer {digits[:20]}... ({len(digits)} digits) is too large: the limit is {MAX_INTEGER}")
    return int(digits)


_STRING: Final = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")


def _text_depth(text: str) -> int:
    """How deep the objects and lists in ``text`` nest, found before parsing: strings are skipped."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    steps = (1 if bracket in "[{" else -1 for bracket in brackets)
    return max(itertools.accumulate(steps, initial=0))


def _value_depth(value: object, limit: int) -> int:
    """How deep an already-parsed value nests, up to ``limit + 1`` (so a cycle or a huge depth stops early)."""
    deepest = 0
    pending: list[tuple[object, int]] = [(value, 0)]
    while pending:
        node, depth = pending.pop()
        if isinstance(node, dict | list | tuple):
            depth += 1
            if depth > limit:
                return depth
            deepest = max(deepest, depth)
            pending.extend((child, depth) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def _too_deep(kind: Kind | None, limits: Limits) -> DocumentError:
    return DocumentError(kind, [("$", f"the document nests deeper than the limit of {limits.max_depth} levels")])


def _parse(text: str | bytes, kind: Kind | None, limits: Limits) -> object:
    if not isinstance(text, str | bytes):
        raise DocumentError(kind, [("$", f"expected JSON text (str or bytes), got {_describe(text)}")])
    # The size first, so that a huge document costs nothing more; a character is at most 4 bytes of UTF-8.
    size = len(text) if isinstance(text, bytes) or len(text) * 4 <= limits.max_bytes else None
    if size is None and len(text) <= limits.max_bytes:
        size = len(cast(str, text).encode("utf-8", "surrogatepass"))
    if size is None or size > limits.max_bytes:
        reason = f"the document is {size or len(text)} bytes or more, over the limit of {limits.max_bytes}"
        raise DocumentError(kind, [("$", reason)])
    if isinstance(text, bytes):
        # JSON is UTF-8 (RFC 8259); bytes are decoded as such, so they load exactly as the same text does.
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DocumentError(kind, [("$", f"not valid JSON: the bytes are not UTF-8 ({error.reason})")]) from None
    if text.startswith("\ufeff"):
        raise DocumentError(kind, [("$", "not valid JSON: it starts with a byte-order mark, which JSON text has not")])
    if _text_depth(text) > limits.max_depth:
        raise _too_deep(kind, limits)
    try:
        return json.loads(
            text, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant, parse_int=_parse_int
        )
    except json.JSONDecodeError as error:
        reason = f"not valid JSON (truncated or corrupt?): {error.msg} at line {error.lineno} column {error.colno}"
        raise DocumentError(kind, [("$", reason)]) from None
    except (_Bad, RecursionError, ValueError) as error:
        raise DocumentError(kind, [("$", f"not valid JSON: {error}")]) from None


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
    if _value_depth(document, limits.max_depth) > limits.max_depth:
        raise _too_deep(kind, limits)
    declared, body = _check_header(document, kind)
    actions = body.get("actions") if declared == "record" else None
    if isinstance(actions, list) and len(actions) > limits.max_actions:
        reason = f"{len(actions)} actions, over the limit of {limits.max_actions} a record may hold"
        raise DocumentError(declared, [("$.actions", reason)])
    return _structure(declared, body)


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
    return from_document(_parse(text, kind, limits), kind, limits=limits)


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
