"""Values to plain data and back (cattrs): each field's type checked, the documents' own spellings.

Animals, phases and decisions are lowercase words; a count per animal is an object keyed by animal name;
actions and events carry their kind in a ``type`` field (cattrs' tagged-union strategy); every integer is
bounded. A value that does not fit raises, and :func:`problems` turns cattrs' errors into
``(path, reason)`` pairs.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import Any, Final, cast, get_args, get_type_hints

import attrs
import cattrs
from cattrs.cols import homogenous_tuple_structure_factory
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.strategies import configure_tagged_union
from cattrs.v import format_exception

from cheekymonkey.actions import Action
from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.events import Event
from cheekymonkey.rules import ANIMALS, Animal
from cheekymonkey.scoring import Decision
from cheekymonkey.serialization.errors import BadValue, describe
from cheekymonkey.serialization.format import (
    ACTION_TAGS,
    BOUNDS,
    EVENT_TAGS,
    MAX_INTEGER,
    PER_ANIMAL,
    SIGNED,
    TAG_FIELD,
)
from cheekymonkey.state import Phase

__all__ = ["CONVERTER", "problems"]

_ANIMAL_NAMES: Final = tuple(a.name.lower() for a in ANIMALS)
_ANIMAL_BY_NAME: Final = {a.name.lower(): a for a in ANIMALS}
_PHASE_BY_NAME: Final = {p.name.lower(): p for p in Phase}
_DECISION_BY_VALUE: Final = {d.value: d for d in Decision}


def _check_size(value: int, maximum: int = MAX_INTEGER, minimum: int = 0) -> int:
    if value > maximum or value < -MAX_INTEGER:
        what = "too large" if maximum == MAX_INTEGER else f"above {maximum}"
        raise BadValue(f"the integer {describe(value)} is {what}: documents hold integers up to {maximum}")
    if value < minimum:
        raise BadValue(f"expected an integer of {minimum} or more, got {describe(value)}")
    return value


def _structure_int(value: object, _: object) -> int:
    # Every integer in a document is a count, a seat or a score, so 0 or more, except those in SIGNED.
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadValue(f"expected an integer, got {describe(value)}")
    return _check_size(value)


def _structure_signed(value: object, _: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadValue(f"expected an integer or null, got {describe(value)}")
    return _check_size(value, minimum=-MAX_INTEGER)


def _bounded_hook(maximum: int, nullable: bool) -> Callable[[object, object], int | None]:
    def structure(value: object, _: object) -> int | None:
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadValue(f"expected an integer{' or null' if nullable else ''}, got {describe(value)}")
        return _check_size(value, maximum)

    return structure


def _structure_bool(value: object, _: object) -> bool:
    if not isinstance(value, bool):
        raise BadValue(f"expected true or false, got {describe(value)}")
    return value


def _structure_str(value: object, _: object) -> str:
    if not isinstance(value, str):
        raise BadValue(f"expected a string, got {describe(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        # JSON's \ud800 escapes can spell half a character; such a string cannot be written out again.
        raise BadValue(f"the string {describe(value)} holds a lone surrogate, which is not text") from None
    return value


def _structure_animal(value: object, _: object) -> Animal:
    animal = _ANIMAL_BY_NAME.get(value) if isinstance(value, str) else None
    if animal is None:
        raise BadValue(f"expected an animal ({', '.join(_ANIMAL_NAMES)}), got {describe(value)}")
    return animal


def _structure_phase(value: object, _: object) -> Phase:
    phase = _PHASE_BY_NAME.get(value) if isinstance(value, str) else None
    if phase is None:
        raise BadValue(f"expected a phase ({', '.join(_PHASE_BY_NAME)}), got {describe(value)}")
    return phase


def _structure_decision(value: object, _: object) -> Decision:
    decision = _DECISION_BY_VALUE.get(value) if isinstance(value, str) else None
    if decision is None:
        raise BadValue(f"expected a decision ({', '.join(_DECISION_BY_VALUE)}), got {describe(value)}")
    return decision


def _strict_tuple_factory(tp: Any, converter: cattrs.Converter) -> Callable[[object, object], tuple[object, ...]]:
    # cattrs would iterate any iterable (a string is a sequence of characters); a document holds lists.
    inner = homogenous_tuple_structure_factory(tp, converter)

    def structure(value: object, target: object) -> tuple[object, ...]:
        if not isinstance(value, list):
            raise BadValue(f"expected a list, got {describe(value)}")
        return cast(tuple[object, ...], inner(value, target))

    return structure


def _is_homogenous_tuple(tp: Any) -> bool:
    args = get_args(tp)
    return getattr(tp, "__origin__", None) is tuple and len(args) == 2 and args[1] is Ellipsis


def _per_animal_hooks(nullable: bool) -> tuple[Callable[[object, object], tuple[object, ...]], Callable[[Any], Any]]:
    def structure(value: object, _: object) -> tuple[object, ...]:
        if not isinstance(value, dict):
            raise BadValue(f"expected an object with a value per animal, got {describe(value)}")
        unknown = [describe(k) for k in itertools.islice((k for k in value if k not in _ANIMAL_BY_NAME), 5)]
        if unknown:
            raise BadValue(f"unknown animals {', '.join(unknown)}; the animals are {', '.join(_ANIMAL_NAMES)}")
        missing = [name for name in _ANIMAL_NAMES if name not in value]
        if missing:
            raise BadValue(f"no value for {', '.join(missing)}: every animal needs one (0 if not in play)")
        values: list[object] = []
        for name in _ANIMAL_NAMES:
            item = value[name]
            if item is None and nullable:
                values.append(None)
                continue
            if isinstance(item, bool) or not isinstance(item, int) or item < 0:
                expected = "a seat number or null" if nullable else "a count (an integer, 0 or more)"
                raise BadValue(f"the value for {name} must be {expected}, got {describe(item)}")
            values.append(_check_size(item))
        return tuple(values)

    def unstructure(values: tuple[object, ...]) -> dict[str, object]:
        return dict(zip(_ANIMAL_NAMES, values, strict=True))

    return structure, unstructure


def _tagged_union(converter: cattrs.Converter, union: Any, tags: Mapping[type, str], what: str) -> None:
    """Actions and events as objects with their kind in a ``type`` field (cattrs' tagged-union strategy).

    The strategy writes the tag and picks the class by it. It looks each member's hooks up now, so the
    members' own hooks are registered before this. A guard in front of it says clearly what is wrong with
    a value that is not an object or has no known tag, where the strategy would raise a bare ``KeyError``.
    """
    configure_tagged_union(union, converter, tag_generator=tags.__getitem__, tag_name=TAG_FIELD)
    dispatch = converter.get_structure_hook(union)
    known = tuple(tags.values())

    def structure(value: object, target: object) -> Any:
        if not isinstance(value, dict):
            raise BadValue(f"expected an {what} object, got {describe(value)}")
        tag = value.get(TAG_FIELD)
        if not isinstance(tag, str) or tag not in known:
            raise BadValue(f"{TAG_FIELD} {describe(tag)} is not an {what}; expected one of {', '.join(known)}")
        return dispatch(value, target)

    converter.register_structure_hook(union, structure)


def _mentions(tp: object, targets: tuple[object, ...]) -> bool:
    """Whether the type ``tp`` is one of ``targets`` or holds one (as ``tuple[Action, ...]`` holds Action)."""
    return tp in targets or any(_mentions(arg, targets) for arg in get_args(tp))


def _field_types(cls: type) -> dict[str, Any]:
    # The native classes (GameState, the actions) give attrs' field table real types, while their
    # annotations name types imported only for checking; attrs classes keep string annotations there.
    types: dict[str, Any] = {}
    for field in attrs.fields(cls):
        types[field.name] = get_type_hints(cls)[field.name] if isinstance(field.type, str) else field.type
    return types


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
    # Per-animal fields become objects keyed by animal name, both ways; a seed may be negative; seats and
    # seat counts have their bounds.
    classes: dict[type, dict[str, tuple[Any, Any]]] = {}
    for (cls, name), nullable in PER_ANIMAL.items():
        classes.setdefault(cls, {})[name] = _per_animal_hooks(nullable)
    for cls, name in SIGNED:
        classes.setdefault(cls, {})[name] = (_structure_signed, None)
    for (cls, name), maximum in BOUNDS.items():
        nullable = type(None) in get_args(_field_types(cls)[name])
        classes.setdefault(cls, {})[name] = (_bounded_hook(maximum, nullable), None)
    # A class's hooks are generated when registered, and look up the hooks of its fields' types then; the
    # unions look up their members' hooks when configured. So: the classes that hold no action or event
    # first (the members among them), then the unions, then the classes that hold actions (a view, a record).
    action_union: Any = Action
    event_union: Any = Event
    unions = (action_union, event_union)
    holding = [cls for cls in classes if any(_mentions(tp, unions) for tp in _field_types(cls).values())]
    for cls, hooks in classes.items():
        if cls not in holding:
            _register(converter, cls, hooks)
    _tagged_union(converter, action_union, ACTION_TAGS, "action")
    _tagged_union(converter, event_union, EVENT_TAGS, "event")
    for cls in holding:
        _register(converter, cls, classes[cls])
    return converter


def _register(converter: cattrs.Converter, cls: type, hooks: dict[str, tuple[Any, Any]]) -> None:
    structure_overrides: dict[str, Any] = {n: override(struct_hook=s) for n, (s, _) in hooks.items()}
    unstructure_overrides: dict[str, Any] = {
        n: override(unstruct_hook=u) for n, (_, u) in hooks.items() if u is not None
    }
    converter.register_structure_hook(cls, make_dict_structure_fn(cls, converter, **structure_overrides))
    converter.register_unstructure_hook(cls, make_dict_unstructure_fn(cls, converter, **unstructure_overrides))


CONVERTER: Final = _make_converter()
"""The converter every document goes through."""


# --- errors --------------------------------------------------------------------------------------


def _format_exception(exc: BaseException, tp: type | None) -> str:
    if isinstance(exc, BadValue | CheekyMonkeyError):
        return str(exc)
    if isinstance(exc, KeyError):
        return "this required field is missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        names = sorted(exc.extra_fields, key=len)[:5]
        more = f" and {len(exc.extra_fields) - len(names)} more" if len(exc.extra_fields) > len(names) else ""
        return f"unknown fields {', '.join(describe(k) for k in sorted(names))}{more}"
    return format_exception(exc, tp)


def problems(exc: BaseException) -> list[tuple[str, str]]:
    """The problems in what structuring raised, each as ``(path, reason)``, the path from ``$``."""
    problems = []
    for line in cattrs.transform_error(exc, path="$", format_exception=_format_exception):
        reason, _, path = line.rpartition(" @ ")
        problems.append((path, reason))
    return problems
