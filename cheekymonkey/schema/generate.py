"""Generate the JSON Schema of every document kind from the value types and the serialization tables.

The schema follows the same tables the converter in :mod:`cheekymonkey.serialization` uses (which
fields are per-animal objects, the ``type`` tags of actions and events), and each attrs class's
fields and their types, so the two cannot drift apart unnoticed: a test compares the shipped files
with :func:`generate_schemas`.
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
from pathlib import Path
from typing import Any, Final, get_args, get_origin

import attrs

from cheekymonkey.rules import ANIMALS, Animal
from cheekymonkey.schema import SCHEMA_KINDS, schema_filename
from cheekymonkey.scoring import Decision
from cheekymonkey.serialization import (
    ACTION_TAGS,
    BOUNDS,
    DOCUMENT_TYPES,
    EVENT_TAGS,
    FORMAT,
    MAX_INTEGER,
    PER_ANIMAL,
    SIGNED,
    TAG_FIELD,
)
from cheekymonkey.state import Phase

__all__ = ["generate_schema", "generate_schemas", "schema_text", "write_schemas"]

DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect the files use."""

_ENUMS: Final[dict[type, tuple[str, list[str], str]]] = {
    Animal: ("animal", [a.name.lower() for a in ANIMALS], "An animal, by its lowercase name (R1)."),
    Phase: ("phase", [p.name.lower() for p in Phase], "Where in a turn the game is."),
    Decision: ("decision", [d.value for d in Decision], "How the winners were decided (R18, R19)."),
}
_TAGS: Final = {**ACTION_TAGS, **EVENT_TAGS}


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
    body = _class_node(cls).body
    docs: dict[str, str] = {}
    for node, following in itertools.pairwise(body):
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

    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}

    def ref(self, name: str) -> dict[str, Any]:
        return {"$ref": f"#/$defs/{name}"}

    def per_animal(self, nullable: bool) -> dict[str, Any]:
        value: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": MAX_INTEGER}
        if nullable:
            value = {"anyOf": [value, {"type": "null"}]}
        return {
            "type": "object",
            "properties": {a.name.lower(): value for a in ANIMALS},
            "required": [a.name.lower() for a in ANIMALS],
            "additionalProperties": False,
        }

    def type_schema(self, tp: Any, owner: type, name: str) -> dict[str, Any]:
        if (owner, name) in PER_ANIMAL:
            return self.per_animal(PER_ANIMAL[owner, name])
        if tp is bool:
            return {"type": "boolean"}
        if tp is int:
            if (owner, name) in SIGNED:
                return {"type": "integer", "minimum": -MAX_INTEGER, "maximum": MAX_INTEGER}
            return {"type": "integer", "minimum": 0, "maximum": BOUNDS.get((owner, name), MAX_INTEGER)}
        if tp is str:
            return {"type": "string", "minLength": 1}
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            key, values, description = _ENUMS[tp]
            self.defs[key] = {"enum": values, "description": description}
            return self.ref(key)
        origin = get_origin(tp)
        args = get_args(tp)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": self.type_schema(args[0], owner, name)}
        if origin is types.UnionType or origin is typing.Union:
            members = [a for a in args if a is not type(None)]
            if len(members) < len(args):
                inner = members[0] if len(members) == 1 else typing.Union[tuple(members)]  # noqa: UP007
                return {"anyOf": [self.type_schema(inner, owner, name), {"type": "null"}]}
            if set(members) == set(ACTION_TAGS):
                return self.union("Action", ACTION_TAGS, "Any action: a player's move or a chance outcome.")
            if set(members) == set(EVENT_TAGS):
                return self.union("Event", EVENT_TAGS, "Any event: what an action did.")
        if attrs.has(tp):
            if tp.__name__ not in self.defs:
                self.defs[tp.__name__] = {}  # a placeholder while the class is built
                self.defs[tp.__name__] = self.class_schema(tp)
            return self.ref(tp.__name__)
        raise TypeError(f"no JSON Schema for the type {tp!r} of {owner.__name__}.{name}")

    def union(self, key: str, tags: dict[type, str], description: str) -> dict[str, Any]:
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
        tag = _TAGS.get(cls)
        if tag is not None:
            properties[TAG_FIELD] = {"const": tag, "description": "Which kind of value this is."}
            required.append(TAG_FIELD)
        for field in attrs.fields(cls):
            schema = self.type_schema(hints[field.name], cls, field.name)
            if field.name in docs:
                schema = {**schema, "description": docs[field.name]}
            properties[field.name] = schema
            if field.default is attrs.NOTHING:
                required.append(field.name)
        return {
            "type": "object",
            "description": _description(cls),
            "properties": properties,
            "required": sorted(required),
            "additionalProperties": False,
        }


def _as_document(schema: dict[str, Any], kind: str) -> dict[str, Any]:
    properties = {
        "format": {"const": FORMAT, "description": "The document format and its version."},
        "kind": {"const": kind, "description": "What the document holds."},
        **schema["properties"],
    }
    if kind == "action":
        # An action is the same with or without the header (a view lists them without): both or neither.
        header = {"dependentRequired": {"format": ["kind"], "kind": ["format"]}}
        return {**schema, "properties": properties, **header}
    return {**schema, "properties": properties, "required": sorted([*schema["required"], "format", "kind"])}


def generate_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of ``kind`` documents, built from the types.

    Raises:
        ValueError: If ``kind`` is not a document kind.
    """
    if kind not in SCHEMA_KINDS:
        raise ValueError(f"no schema for kind {kind!r}; the kinds are {', '.join(SCHEMA_KINDS)}")
    builder = _Builder()
    variants = []
    for cls in DOCUMENT_TYPES[kind]:  # type: ignore[index]
        builder.type_schema(cls, cls, "")
        variants.append(_as_document(builder.defs[cls.__name__], kind))
    top: dict[str, Any] = variants[0] if len(variants) == 1 else {"oneOf": variants}
    return {
        "$schema": DIALECT,
        "title": f"{FORMAT} {kind} document",
        **top,
        "$defs": dict(sorted(builder.defs.items())),
    }


def generate_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of every document kind, by kind."""
    return {kind: generate_schema(kind) for kind in SCHEMA_KINDS}


def schema_text(schema: dict[str, Any]) -> str:
    """A schema as the text of its shipped file: indented, keys sorted, a final newline."""
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write_schemas(directory: Path | None = None) -> list[Path]:
    """Write every kind's schema file into ``directory`` (the package's schema folder by default).

    Returns:
        The paths written.
    """
    target = Path(__file__).parent if directory is None else directory
    written = []
    for kind, schema in generate_schemas().items():
        path = target / schema_filename(kind)
        path.write_text(schema_text(schema), encoding="utf-8")
        written.append(path)
    return written
