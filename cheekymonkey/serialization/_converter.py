"""Values to plain data and back (cattrs), for any game: each field's type checked, the documents' own spellings.

:func:`make_converter` builds the converter of one :class:`~cheekymonkey.serialization.spec.DocumentFormat`:
enums are words; a count per member of an enum is an object keyed by the members' words; the classes of a
tagged union (actions, events) carry their tag in a ``type`` field (cattrs' tagged-union strategy); a union
of an enum, a class and null (a row position) is told apart by the JSON type; every integer is bounded. A
value that does not fit raises, and :func:`problems` turns cattrs' errors into ``(path, reason)`` pairs.
"""

from __future__ import annotations

import itertools
import math
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any, cast, get_args, get_type_hints

import attrs
import cattrs
from cattrs.cols import homogenous_tuple_structure_factory
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.strategies import configure_tagged_union
from cattrs.v import format_exception

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.serialization.errors import BadValue, describe
from cheekymonkey.serialization.spec import MAX_INTEGER, DocumentFormat, Spelling, TaggedUnion

__all__ = ["check_lengths", "make_converter", "problems"]

Hook = Callable[[object, object], Any]


def _check_size(value: int, maximum: int = MAX_INTEGER, minimum: int = 0) -> int:
    if value > MAX_INTEGER or value < -MAX_INTEGER:
        raise BadValue(f"the integer {describe(value)} is too large: documents hold integers up to {MAX_INTEGER}")
    if value > maximum:
        raise BadValue(f"the integer {describe(value)} is above {maximum}: this field holds at most {maximum}")
    if value < minimum:
        raise BadValue(f"expected an integer of {minimum} or more, got {describe(value)}")
    return value


def _structure_int(value: object, _: object) -> int:
    # Every integer in a document is a count, a seat, a position or a score, so 0 or more, except the signed.
    if not is_whole_number(value):
        raise BadValue(f"expected an integer, got {describe(value)}")
    return _check_size(value)


def _bounded_hook(maximum: int, minimum: int, nullable: bool) -> Hook:
    def structure(value: object, _: object) -> int | None:
        if value is None and nullable:
            return None
        if not is_whole_number(value):
            raise BadValue(f"expected an integer{' or null' if nullable else ''}, got {describe(value)}")
        return _check_size(value, maximum, minimum)

    return structure


def _bounded_list_hook(maximum: int, minimum: int) -> Hook:
    # A list of integers, each within its bounds (a list of row sizes, of ranks).
    item = _bounded_hook(maximum, minimum, False)

    def structure(value: object, _: object) -> tuple[int | None, ...]:
        if not isinstance(value, list):
            raise BadValue(f"expected a list, got {describe(value)}")
        return tuple(item(number, int) for number in value)

    return structure


def check_lengths(value: object, levels: tuple[tuple[int, int | None], ...], where: str = "") -> None:
    """Count the items of a list, and of the lists in it level by level, before any is read.

    Raises:
        BadValue: If a list holds more or fewer items than its level allows (a value that is not a list is
            left to the field's own hook).
    """
    if not levels or not isinstance(value, list):
        return  # not a list: the field's own hook says what is wrong with it
    least, most = levels[0]
    if len(value) < least or (most is not None and len(value) > most):
        count = f"{least} or more" if most is None else f"{least}" if least == most else f"{least} to {most}"
        raise BadValue(f"{where}{len(value)} items, where {count} belong")
    for index, item in enumerate(value):
        check_lengths(item, levels[1:], f"{where}item {index}: ")


def _counted_hook(inner: Hook, levels: tuple[tuple[int, int | None], ...]) -> Hook:
    def structure(value: object, target: object) -> Any:
        check_lengths(value, levels)
        return inner(value, target)

    return structure


def _structure_float(value: object, _: object) -> float:
    # A whole number is a number too (JSON has one number type); NaN and infinities are not numbers.
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadValue(f"expected a number, got {describe(value)}")
    if isinstance(value, int):
        _check_size(value, minimum=-MAX_INTEGER)
    elif not math.isfinite(value):
        raise BadValue(f"expected a finite number, got {describe(value)}")
    return float(value)


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


def _enum_hooks(spelling: Spelling) -> tuple[Hook, Callable[[Any], str]]:
    by_word = spelling.by_word()
    word_of = dict(zip(spelling.members, spelling.words, strict=True))
    listed = ", ".join(spelling.words)

    def structure(value: object, _: object) -> Any:
        member = by_word.get(value) if isinstance(value, str) else None
        if member is None:
            raise BadValue(f"expected {spelling.noun} ({listed}), got {describe(value)}")
        return member

    return structure, word_of.__getitem__


def _strict_tuple_factory(tp: Any, converter: cattrs.Converter) -> Hook:
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


def _is_union(tp: Any) -> bool:
    return typing.get_origin(tp) in (types.UnionType, typing.Union)


def _untagged_union_factory(spellings: dict[type, Spelling]) -> Callable[[Any, cattrs.Converter], Hook]:
    """Structure a union of one enum, one class and null (a row position) by the JSON type of the value."""

    def factory(tp: Any, converter: cattrs.Converter) -> Hook:
        members = [arg for arg in get_args(tp) if arg is not type(None)]
        nullable = len(members) < len(get_args(tp))
        enum = next(member for member in members if member in spellings)
        cls = next(member for member in members if attrs.has(member))
        enum_hook = converter.get_structure_hook(enum)
        class_hook = converter.get_structure_hook(cls)
        expected = f"{spellings[enum].noun} ({', '.join(spellings[enum].words)}), a {cls.__name__} object"
        expected += ", or null" if nullable else ""

        def structure(value: object, _: object) -> Any:
            if value is None and nullable:
                return None
            if isinstance(value, str):
                return enum_hook(value, enum)
            if isinstance(value, dict):
                return class_hook(value, cls)
            raise BadValue(f"expected {expected}, got {describe(value)}")

        return structure

    return factory


def _is_untagged_union(spellings: dict[type, Spelling]) -> Callable[[Any], bool]:
    def predicate(tp: Any) -> bool:
        if not _is_union(tp):
            return False
        members = [arg for arg in get_args(tp) if arg is not type(None)]
        enums = [member for member in members if member in spellings]
        classes = [member for member in members if isinstance(member, type) and attrs.has(member)]
        return len(members) == 2 and len(enums) == 1 and len(classes) == 1

    return predicate


def _per_member_hooks(
    spelling: Spelling, nullable: bool, optional: bool, maximum: int = MAX_INTEGER
) -> tuple[Hook, Callable[[Any], Any]]:
    names = spelling.words
    known = set(names)
    noun = spelling.key

    def structure(value: object, _: object) -> tuple[object, ...] | None:
        if value is None and optional:
            return None
        if not isinstance(value, dict):
            raise BadValue(f"expected an object with a value per {noun}, got {describe(value)}")
        unknown = [describe(k) for k in itertools.islice((k for k in value if k not in known), 5)]
        if unknown:
            plural = spelling.plural
            raise BadValue(f"unknown {plural} {', '.join(unknown)}; the {plural} are {', '.join(names)}")
        missing = [name for name in names if name not in value]
        if missing:
            raise BadValue(f"no value for {', '.join(missing)}: every {noun} needs one (0 if not in play)")
        values: list[object] = []
        for name in names:
            item = value[name]
            if item is None and nullable:
                values.append(None)
                continue
            if not is_whole_number(item) or item < 0:
                expected = "a seat number or null" if nullable else "a count (an integer, 0 or more)"
                raise BadValue(f"the value for {name} must be {expected}, got {describe(item)}")
            values.append(_check_size(item, maximum))
        return tuple(values)

    def unstructure(values: tuple[object, ...] | None) -> dict[str, object] | None:
        return None if values is None else dict(zip(names, values, strict=True))

    return structure, unstructure


def _tagged_union(converter: cattrs.Converter, union: TaggedUnion, tag_field: str) -> None:
    """Objects with their class in a ``type`` field (cattrs' tagged-union strategy).

    The strategy writes the tag and picks the class by it. It looks each member's hooks up now, so the
    members' own hooks are registered before this. A guard in front of it says clearly what is wrong with
    a value that is not an object or has no known tag, where the strategy would raise a bare ``KeyError``.
    """
    configure_tagged_union(union.union, converter, tag_generator=union.tags.__getitem__, tag_name=tag_field)
    dispatch = converter.get_structure_hook(union.union)
    known = tuple(union.tags.values())

    def structure(value: object, target: object) -> Any:
        if not isinstance(value, dict):
            raise BadValue(f"expected {union.noun} object, got {describe(value)}")
        tag = value.get(tag_field)
        if not isinstance(tag, str) or tag not in known:
            raise BadValue(f"{tag_field} {describe(tag)} is not {union.noun}; expected one of {', '.join(known)}")
        return dispatch(value, target)

    converter.register_structure_hook(union.union, structure)


def _field_types(cls: type) -> dict[str, Any]:
    # The native classes (GameState, the actions) give attrs' field table real types, while their
    # annotations name types imported only for checking; attrs classes keep string annotations there.
    types: dict[str, Any] = {}
    for field in attrs.fields(cls):
        types[field.name] = get_type_hints(cls)[field.name] if isinstance(field.type, str) else field.type
    return types


def _reaches(tp: object, targets: Iterable[object], seen: set[object] | None = None) -> bool:
    """Whether the type ``tp`` is one of ``targets`` or holds one, in its arguments or its classes' fields."""
    targets = tuple(targets)
    seen = set() if seen is None else seen
    if tp in targets:
        return True
    if tp in seen:
        return False
    seen.add(tp)
    if any(_reaches(arg, targets, seen) for arg in get_args(tp)):
        return True
    return isinstance(tp, type) and attrs.has(tp) and any(_reaches(f, targets, seen) for f in _field_types(tp).values())


def _in_order(classes: list[type]) -> list[type]:
    """``classes`` with each after every other one it holds: a class's hooks look up its fields' hooks."""
    ordered: list[type] = []
    pending = list(classes)
    while pending:
        ready = next(
            (cls for cls in pending if not any(_reaches_fields(cls, other) for other in pending if other is not cls)),
            pending[0],  # a cycle (none in any document): keep the given order
        )
        pending.remove(ready)
        ordered.append(ready)
    return ordered


def _reaches_fields(cls: type, other: type) -> bool:
    return any(_reaches(tp, (other,)) for tp in _field_types(cls).values())


def make_converter(fmt: DocumentFormat) -> cattrs.Converter:
    """The converter every document of ``fmt`` goes through, both ways."""
    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    converter.register_structure_hook(int, _structure_int)
    converter.register_structure_hook(float, _structure_float)
    converter.register_structure_hook(bool, _structure_bool)
    converter.register_structure_hook(str, _structure_str)
    spellings = {spelling.enum_type: spelling for spelling in fmt.spellings}
    for spelling in fmt.spellings:
        structure, unstructure = _enum_hooks(spelling)
        converter.register_structure_hook(spelling.enum_type, structure)
        converter.register_unstructure_hook(spelling.enum_type, unstructure)
    converter.register_structure_hook_factory(_is_homogenous_tuple, _strict_tuple_factory)
    converter.register_structure_hook_factory(_is_untagged_union(spellings), _untagged_union_factory(spellings))
    # Per-member fields become objects keyed by the members' words, both ways; signed, bounded and
    # counted-from-1 integers have their hooks.
    classes: dict[type, dict[str, tuple[Any, Any]]] = {}

    def optional(cls: type, name: str) -> bool:
        return type(None) in get_args(_field_types(cls)[name])

    for (cls, name), (spelling, nullable) in fmt.per_member.items():
        maximum = fmt.member_bounds.get((cls, name), MAX_INTEGER)
        classes.setdefault(cls, {})[name] = _per_member_hooks(spelling, nullable, optional(cls, name), maximum)
    for cls, name in fmt.signed:
        hook = _bounded_hook(MAX_INTEGER, -MAX_INTEGER, optional(cls, name))
        classes.setdefault(cls, {})[name] = (hook, None)
    for cls, name in {**fmt.bounds, **fmt.minimums}:
        maximum = fmt.bounds.get((cls, name), MAX_INTEGER)
        minimum = fmt.minimums.get((cls, name), 0)
        if _is_homogenous_tuple(_field_types(cls)[name]):
            hook = _bounded_list_hook(maximum, minimum)
        else:
            hook = _bounded_hook(maximum, minimum, optional(cls, name))
        classes.setdefault(cls, {})[name] = (hook, None)
    for cls, name in fmt.lengths:
        # Wrapped when the class is registered (_register), around its own hook or its type's.
        own, unstructure = classes.setdefault(cls, {}).get(name, (None, None))
        classes[cls][name] = (_Counted(fmt.lengths[cls, name], own), unstructure)
    # A class's hooks are generated when registered, and look up the hooks of its fields' types then; the
    # unions look up their members' hooks when configured. So: the classes that hold no union first (the
    # members among them), each after those it holds, then the unions, then the classes that hold a union
    # (a view, a record).
    unions = tuple(union.union for union in fmt.unions)
    holding = [cls for cls in classes if any(_reaches(tp, unions) for tp in _field_types(cls).values())]
    for cls in _in_order([cls for cls in classes if cls not in holding]):
        _register(converter, cls, classes[cls])
    for union in fmt.unions:
        _tagged_union(converter, union, fmt.tag_field)
    for cls in _in_order(holding):
        _register(converter, cls, classes[cls])
    return converter


@attrs.frozen
class _Counted:
    """A list field whose items are counted first: its own hook, or None for its type's (looked up when registered)."""

    levels: tuple[tuple[int, int | None], ...]
    own: Hook | None


def _register(converter: cattrs.Converter, cls: type, hooks: dict[str, tuple[Any, Any]]) -> None:
    for name, (hook, unstructure) in list(hooks.items()):
        if isinstance(hook, _Counted):
            inner = hook.own or converter.get_structure_hook(_field_types(cls)[name])
            hooks[name] = (_counted_hook(inner, hook.levels), unstructure)
    structure_overrides: dict[str, Any] = {n: override(struct_hook=s) for n, (s, _) in hooks.items()}
    unstructure_overrides: dict[str, Any] = {
        n: override(unstruct_hook=u) for n, (_, u) in hooks.items() if u is not None
    }
    converter.register_structure_hook(cls, make_dict_structure_fn(cls, converter, **structure_overrides))
    converter.register_unstructure_hook(cls, make_dict_unstructure_fn(cls, converter, **unstructure_overrides))


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
