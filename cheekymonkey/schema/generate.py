"""Generate the JSON Schema of every document kind of every game from the value types and their format.

The schema follows the same description the converter in :mod:`cheekymonkey.serialization` is built from
(a game's :class:`~cheekymonkey.serialization.spec.DocumentFormat`: which fields are per-member objects, how
enums are spelled, the ``type`` tags of actions and events, the bounds of integers), and each attrs class's
fields and their types, so the two cannot drift apart unnoticed: a test compares the shipped files with
:func:`generate_schemas`.
"""

from __future__ import annotations

import ast
import enum
import inspect
import itertools
import json
import sys
import textwrap
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, get_args, get_origin

import attrs

from cheekymonkey.games import DEFAULT_GAME, game_named
from cheekymonkey.names import FREE_TEXT_PATTERN, MAX_LABEL_LENGTH, MAX_TEXT_LENGTH
from cheekymonkey.schema import schema_filename, schema_folder
from cheekymonkey.serialization.spec import MAX_INTEGER, DocumentFormat, Spelling

__all__ = ["document_format", "generate_schema", "generate_schemas", "schema_text", "write_schemas"]

DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect the files use."""

_LABELS: Final = frozenset({"names", "bots"})
"""The fields of seat labels, a record's: texts of up to :data:`~cheekymonkey.names.MAX_LABEL_LENGTH` characters."""


def document_format(game: str = DEFAULT_GAME) -> DocumentFormat:
    """The description of ``game``'s documents: the format its documents' codec is built from.

    Raises:
        ValueError: If there is no game of that name, or its documents are not described by a
            :class:`~cheekymonkey.serialization.spec.DocumentFormat` (they have no schemas to generate).
    """
    documents = game_named(game).documents()
    fmt = getattr(documents, "spec", None)
    if not isinstance(fmt, DocumentFormat):
        raise ValueError(f"the documents of {game!r} are not described by a DocumentFormat: no schemas to generate")
    return fmt


def _first_line(doc: str | None) -> str:
    return inspect.cleandoc(doc or "").split("\n\n")[0].replace("\n", " ")


def _class_node(cls: type) -> ast.ClassDef:
    # The class's definition in its source, where its field docstrings are.
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        nodes = tree.body
    except (OSError, TypeError):
        # A class compiled by mypyc has no source for inspect; its module's .py ships beside the extension.
        module = sys.modules[cls.__module__]
        source = Path(str(module.__file__)).with_name(cls.__module__.rpartition(".")[2] + ".py").read_text()
        nodes = ast.parse(source).body
    return next(n for n in nodes if isinstance(n, ast.ClassDef) and n.name == cls.__name__)


def _description(cls: type) -> str:
    # A compiled class keeps no docstring at run time; its source still has it.
    return _first_line(cls.__doc__ or ast.get_docstring(_class_node(cls)))


def _field_docs(cls: type) -> dict[str, str]:
    # A field's docstring is the string right under it in the class body; Python keeps none at run time.
    # A field the class inherits (a game's record, from BaseRecord) has it in the base that declares it.
    docs: dict[str, str] = {}
    for owner in reversed([klass for klass in cls.__mro__ if attrs.has(klass)]):
        for node, following in itertools.pairwise(_class_node(owner).body):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                docs[node.target.id] = _first_line(following.value.value)
    return docs


class _Builder:
    """Collects the ``$defs`` one document's schema refers to."""

    def __init__(self, fmt: DocumentFormat) -> None:
        self.fmt = fmt
        self.defs: dict[str, Any] = {}
        self.spellings = {spelling.enum_type: spelling for spelling in fmt.spellings}
        self.tags = {cls: tag for union in fmt.unions for cls, tag in union.tags.items()}

    def ref(self, name: str) -> dict[str, Any]:
        return {"$ref": f"#/$defs/{name}"}

    def per_member(self, spelling: Spelling, nullable: bool, optional: bool, maximum: int) -> dict[str, Any]:
        value: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": maximum}
        if nullable:
            value = {"anyOf": [value, {"type": "null"}]}
        schema: dict[str, Any] = {
            "type": "object",
            "properties": dict.fromkeys(spelling.words, value),
            "required": list(spelling.words),
            "additionalProperties": False,
        }
        return {"anyOf": [schema, {"type": "null"}]} if optional else schema

    def type_schema(
        self, tp: Any, owner: type, name: str, levels: tuple[tuple[int, int | None], ...] | None = None
    ) -> dict[str, Any]:
        """The schema of a value of type ``tp`` in the field ``name`` of ``owner``.

        ``levels`` are the numbers of items a list (and each list in it) may hold; None: the field's own.
        """
        fmt = self.fmt
        if (owner, name) in fmt.per_member:
            spelling, nullable = fmt.per_member[owner, name]
            maximum = fmt.member_bounds.get((owner, name), MAX_INTEGER)
            return self.per_member(spelling, nullable, type(None) in get_args(tp), maximum)
        if tp is bool:
            return {"type": "boolean"}
        if tp is int:
            if (owner, name) in fmt.signed:
                return {"type": "integer", "minimum": -MAX_INTEGER, "maximum": MAX_INTEGER}
            least = fmt.minimums.get((owner, name), 0)
            return {"type": "integer", "minimum": least, "maximum": fmt.bounds.get((owner, name), MAX_INTEGER)}
        if tp is float:
            return {"type": "number"}
        if tp is str:
            # Free text (cheekymonkey.names.check_text): no control or bidi character; a record's seat labels
            # (names, bots) 256 characters at most, any other text (a rule set's name) 64.
            longest = MAX_LABEL_LENGTH if name in _LABELS else MAX_TEXT_LENGTH
            return {"type": "string", "minLength": 1, "maxLength": longest, "pattern": FREE_TEXT_PATTERN}
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            spelling = self.spellings[tp]
            self.defs[spelling.key] = {"enum": list(spelling.words), "description": spelling.description}
            return self.ref(spelling.key)
        origin = get_origin(tp)
        args = get_args(tp)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            levels = fmt.lengths.get((owner, name), ()) if levels is None else levels
            items = self.type_schema(args[0], owner, name, levels[1:])
            if not levels:
                return {"type": "array", "items": items}
            least, most = levels[0]
            counted = {"minItems": least} if most is None else {"minItems": least, "maxItems": most}
            return {"type": "array", "items": items, **counted}
        if origin is types.UnionType or origin is typing.Union:
            members = [a for a in args if a is not type(None)]
            if len(members) < len(args):
                inner = members[0] if len(members) == 1 else typing.Union[tuple(members)]  # noqa: UP007
                return {"anyOf": [self.type_schema(inner, owner, name), {"type": "null"}]}
            for union in fmt.unions:
                if set(members) == set(union.tags):
                    return self.union(union.key, union.tags, union.description)
            # A union told apart by the JSON type of its value (a row position: a card or an object).
            return {"anyOf": [self.type_schema(member, owner, name) for member in members]}
        if attrs.has(tp):
            if tp.__name__ not in self.defs:
                self.defs[tp.__name__] = {}  # a placeholder while the class is built
                self.defs[tp.__name__] = self.class_schema(tp)
            return self.ref(tp.__name__)
        raise TypeError(f"no JSON Schema for the type {tp!r} of {owner.__name__}.{name}")

    def union(self, key: str, tags: Mapping[type, str], description: str) -> dict[str, Any]:
        if key not in self.defs:
            self.defs[key] = {}
            self.defs[key] = {"oneOf": [self.type_schema(cls, cls, "") for cls in tags], "description": description}
        return self.ref(key)

    def class_schema(self, cls: type) -> dict[str, Any]:
        # attrs' resolved field types: GameState and the actions are plain classes that carry them
        # (cheekymonkey._values.attrs_view), with no annotations to evaluate once compiled.
        hints = {field.name: field.type for field in attrs.fields(attrs.resolve_types(cls))}
        docs = _field_docs(cls)
        properties: dict[str, Any] = {}
        required: list[str] = []
        tag = self.tags.get(cls)
        if tag is not None:
            properties[self.fmt.tag_field] = {"const": tag, "description": "Which kind of value this is."}
            required.append(self.fmt.tag_field)
        for field in attrs.fields(cls):
            schema = self.type_schema(hints[field.name], cls, field.name)
            refine = self.fmt.refine.get((cls, field.name))
            if refine is not None:
                schema = refine(schema)
            if field.name in docs:
                schema = {**schema, "description": docs[field.name]}
            properties[field.name] = schema
            if field.default is attrs.NOTHING:
                required.append(field.name)
        whole = {
            "type": "object",
            "description": _description(cls),
            "properties": properties,
            "required": sorted(required),
            "additionalProperties": False,
        }
        refine = self.fmt.refine.get((cls, ""))
        return whole if refine is None else refine(whole)


def _as_document(schema: dict[str, Any], kind: str, fmt: DocumentFormat) -> dict[str, Any]:
    properties = {
        "format": {"const": fmt.text, "description": "The document format and its version."},
        "kind": {"const": kind, "description": "What the document holds."},
        **schema["properties"],
    }
    if kind == fmt.headerless:
        # An action is the same with or without the header (a view lists them without): both or neither.
        header = {"dependentRequired": {"format": ["kind"], "kind": ["format"]}}
        return {**schema, "properties": properties, **header}
    return {**schema, "properties": properties, "required": sorted([*schema["required"], "format", "kind"])}


def generate_schema(kind: str, game: str = DEFAULT_GAME) -> dict[str, Any]:
    """The JSON Schema of ``game``'s ``kind`` documents, built from the types.

    Raises:
        ValueError: If there is no such game, or ``kind`` is not one of its document kinds.
    """
    fmt = document_format(game)
    if kind not in fmt.kinds:
        raise ValueError(f"no schema for kind {kind!r}; the kinds are {', '.join(fmt.kinds)}")
    builder = _Builder(fmt)
    variants = []
    for cls in fmt.types[kind]:
        builder.type_schema(cls, cls, "")
        variants.append(_as_document(builder.defs[cls.__name__], kind, fmt))
    top: dict[str, Any] = variants[0] if len(variants) == 1 else {"oneOf": variants}
    return {
        "$schema": DIALECT,
        "title": f"{fmt.text} {kind} document",
        **top,
        "$defs": dict(sorted(builder.defs.items())),
    }


def generate_schemas(game: str = DEFAULT_GAME) -> dict[str, dict[str, Any]]:
    """The JSON Schema of every document kind of ``game``, by kind."""
    return {kind: generate_schema(kind, game) for kind in document_format(game).kinds}


def schema_text(schema: dict[str, Any]) -> str:
    """A schema as the text of its shipped file: indented, keys sorted, a final newline."""
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write_schemas(directory: Path | None = None, game: str = DEFAULT_GAME) -> list[Path]:
    """Write every kind's schema file of ``game`` into ``directory`` (by default, the game's schema folder).

    Returns:
        The paths written.

    Raises:
        ValueError: If no ``directory`` is given and the game ships no schemas, or its folder is not one on
            disk (an installed package zipped, say).
    """
    if directory is None:
        folder = schema_folder(game_named(game))
        if not isinstance(folder, Path):
            raise ValueError(f"the game {game!r} has no schema folder on disk to write into: give a directory")
        directory = folder
    written = []
    for kind, schema in generate_schemas(game).items():
        path = directory / schema_filename(kind, game)
        path.parent.mkdir(exist_ok=True)
        path.write_text(schema_text(schema), encoding="utf-8")
        written.append(path)
    return written
