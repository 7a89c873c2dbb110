"""A game's documents described as data: the format, the kinds, and how each field is written.

Every game's JSON documents are made the same way from one :class:`DocumentFormat`: the converter that
turns values into plain data and back (``make_converter``), the header check, the limits and the document
functions (:class:`~cheekymonkey.serialization.codec.DocumentCodec`), and the JSON Schemas
(:mod:`cheekymonkey.schema.generate`). Nothing here names a game: Cheeky Monkey's description is
:data:`cheekymonkey.cheeky.documents.DOCUMENT_FORMAT`, Too Many Monkeys' is
:data:`cheekymonkey.toomany.documents.DOCUMENT_FORMAT`.

>>> import enum
>>> class Colour(enum.Enum):
...     RED = 1
...     BLUE = 2
>>> colour = Spelling.of_names(Colour, "a colour", "colours", "A colour, by its lowercase name.")
>>> colour.key, colour.words, colour.member("blue")
('colour', ('red', 'blue'), <Colour.BLUE: 2>)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

__all__ = ["MAX_INTEGER", "DocumentFormat", "Spelling", "TaggedUnion"]

MAX_INTEGER: Final = 2**53 - 1
"""The largest integer (in size) a document may hold: the range every JSON reader keeps exact (RFC 7493)."""


@attrs.frozen(slots=True)
class Spelling:
    """How the members of one enum are written in documents: a word each, and what messages call them.

    Build one with :meth:`of_names` (each member's lowercase name) or :meth:`of_values` (each member's value).
    """

    enum_type: type[enum.Enum]
    """The enum."""
    words: tuple[str, ...]
    """Each member's word, in the enum's order."""
    noun: str
    """The member with its article, as a message says it: ``"an animal"``."""
    plural: str
    """The plural, as a message says it: ``"animals"``."""
    description: str
    """The schema's description of a member."""

    @property
    def key(self) -> str:
        """The noun alone (``"animal"``): the name of its definition in a schema."""
        return self.noun.split(" ", 1)[1]

    @property
    def members(self) -> tuple[enum.Enum, ...]:
        """The members, in the enum's order."""
        return tuple(self.enum_type)

    def word(self, member: Any) -> str:
        """The word of ``member``."""
        return self.words[self.members.index(member)]

    def member(self, word: object) -> Any:
        """The member written ``word``, or None if no member is."""
        return self.by_word().get(word) if isinstance(word, str) else None

    def by_word(self) -> dict[str, Any]:
        """Each member by its word."""
        return dict(zip(self.words, self.members, strict=True))

    @classmethod
    def of_names(cls, kind: type[enum.Enum], noun: str, plural: str, description: str) -> Spelling:
        """Members written as their lowercase names (``Animal.SEAL`` as ``"seal"``)."""
        return cls(kind, tuple(member.name.lower() for member in kind), noun, plural, description)

    @classmethod
    def of_values(cls, kind: type[enum.Enum], noun: str, plural: str, description: str) -> Spelling:
        """Members written as their values, which are strings (``Decision.SCORE`` as ``"score"``)."""
        return cls(kind, tuple(str(member.value) for member in kind), noun, plural, description)


@attrs.frozen(slots=True)
class TaggedUnion:
    """A union of classes written as objects that say which class they are in their tag field (``"type"``)."""

    union: Any
    """The union type (``Action``)."""
    tags: Mapping[type, str]
    """Each member class's tag."""
    noun: str
    """A member with its article, as a message says it: ``"an action"``."""
    key: str
    """The name of its definition in a schema (``"Action"``)."""
    description: str
    """The schema's description."""


@attrs.frozen(slots=True)
class DocumentFormat:
    """Everything that differs between two games' documents, as tables: the rest is written once.

    A document is a JSON object with a ``format`` (``"<name>/<version>"``) and a ``kind`` beside the value's
    own fields, keys sorted. Enums are words (:class:`Spelling`); a count per member of an enum (a bag, a
    deck) is an object keyed by the members' words; the classes of a :class:`TaggedUnion` carry their tag;
    every integer is 0 or more (unless :attr:`signed`) and at most :data:`MAX_INTEGER` (or its bound).
    """

    name: str
    """The format's name, the part of ``format`` before the slash (``"cheekymonkey"``)."""
    version: int
    """The version this library writes and reads."""
    kinds: tuple[str, ...]
    """The kinds of document, in a fixed order."""
    types: Mapping[Any, tuple[type, ...]]
    """The classes whose values each kind holds (a kind of several classes is one of :attr:`unions`)."""
    spellings: tuple[Spelling, ...] = ()
    """How each enum in a document is written."""
    unions: tuple[TaggedUnion, ...] = ()
    """The tagged unions (actions, events)."""
    per_member: Mapping[tuple[type, str], tuple[Spelling, bool]] = attrs.field(factory=dict)
    """Fields holding one value per member of an enum, written as an object keyed by the members' words:
    ``(class, field)`` to the enum's spelling and whether a value may be null."""
    member_bounds: Mapping[tuple[type, str], int] = attrs.field(factory=dict)
    """Fields of :attr:`per_member` whose values have a tighter upper bound than :data:`MAX_INTEGER` (a count
    bounded by the rule set's, a seat)."""
    signed: frozenset[tuple[type, str]] = frozenset()
    """Integer fields that may be negative."""
    bounds: Mapping[tuple[type, str], int] = attrs.field(factory=dict)
    """Integer fields (or lists of integers: each item) with a tighter upper bound than :data:`MAX_INTEGER`."""
    minimums: Mapping[tuple[type, str], int] = attrs.field(factory=dict)
    """Integer fields (or lists of integers: each item) whose least value is above 0 (a position counts from 1)."""
    lengths: Mapping[tuple[type, str], tuple[tuple[int, int | None], ...]] = attrs.field(factory=dict)
    """List fields with a least and a most number of items (None: no most), one pair per level of nesting (the
    rows, then each row). The loader counts the items before it reads any of them, so a list far too long costs
    nothing; the schema says ``minItems`` and ``maxItems``."""
    refine: Mapping[tuple[type, str], Callable[[dict[str, Any]], dict[str, Any]]] = attrs.field(factory=dict)
    """What a schema says beyond the types, for the rules a value's own checks enforce (its constructor, the
    game's checks): ``(class, field)`` to a function of the field's generated schema giving the one to ship (a
    face-down card is a number or a wild; each position of a row holds its own number), and ``(class, "")``
    to one of the class's schema (relations between its fields, as an ``if``/``then`` on constant values). The
    loader is not changed by them: they say in the schema what it refuses already."""
    headerless: str | None = "action"
    """A kind that may come without its ``format`` and ``kind`` (a view lists its legal actions so), or None."""
    tag_field: str = "type"
    """The field that says which member of a tagged union an object is."""

    @property
    def text(self) -> str:
        """The ``format`` field of every document this version writes (``"cheekymonkey/1"``)."""
        return f"{self.name}/{self.version}"

    def union_of(self, kind: str) -> TaggedUnion | None:
        """The tagged union whose members a ``kind`` document holds, or None for a kind of one class."""
        classes = set(self.types[kind])
        return next((union for union in self.unions if set(union.tags) == classes), None)

    def kind_of(self, value: object) -> str | None:
        """The kind of document that holds ``value``, or None if none does."""
        return next((kind for kind, classes in self.types.items() if isinstance(value, classes)), None)
