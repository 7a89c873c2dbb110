"""Observations: fixed-length vectors of integers saying what a seat knows, laid out field by field.

Two kinds, for a game of ``n`` seats under a rule set of ``T`` tokens:

- **table** is built from a :class:`~cheekymonkey.TableView` alone: what anybody sitting at the table sees
  at this moment (stack heights and tops, the front, the bag's size, whose turn it is). A player who
  remembers nothing knows this much.
- **full** is the table observation followed by what the view leaves out: the bag's contents and every
  stack, token by token from the top down. It is the whole state.

**Agents get the full observation by default** (:data:`DEFAULT_OBSERVATION`). Every draw, claim, swap and
stack in *Cheeky Monkey* happens face up, so a player with perfect recall knows the whole state: the full
observation is exactly what such a player knows, and it makes the game one of perfect information (a
Markov state), which is what search and most learning algorithms assume. The table observation is for
agents meant to play like a forgetful person, or to be compared with one.

The fields, in order (``[n, 8]`` is n rows of 8, row-major; every entry is an integer from 0 to its
field's bound):

====================  ==============  ===========  ==============================================================
field                 shape           bound        meaning
====================  ==============  ===========  ==============================================================
``viewer``            ``[n]``         1            one-hot of the seat observing (all 0 for a spectator)
``to_move``           ``[n]``         1            one-hot of the seat whose turn it is
``phase``             ``[4]``         1            one-hot of the :class:`~cheekymonkey.Phase` (chance to over)
``bag_size``          ``[1]``         T            tokens in the bag
``stack_heights``     ``[n]``         T            tokens in each seat's stack
``stack_tops``        ``[n, 8]``      1            one-hot of each stack's top animal (a row of 0 for an empty stack)
``front``             ``[8]``         max count    tokens of each animal in front of the player to move
``claimable``         ``[8]``         1            one-hot of the animal that may be claimed now (R7), or all 0
``swap_open``         ``[1]``         1            1 while a drawn monkey may be swapped (R11)
====================  ==============  ===========  ==============================================================

The full observation goes on with:

====================  ==============  ===========  ==============================================================
``bag``               ``[8]``         max count    tokens of each animal in the bag
``stack_counts``      ``[n, 8]``      max count    tokens of each animal in each seat's stack
``stacks``            ``[n, T, 8]``   1            each stack from the top down, one-hot; 0 past the bottom
====================  ==============  ===========  ==============================================================

Seats are in absolute order (seat 0 first), the same order as the action indices of
:class:`~cheekymonkey.rl.ActionCodec`. The order of the tokens in front is left out: it never matters
to the rules (the monkey open to a swap is always the last one, and ``swap_open`` says so).

>>> from cheekymonkey import new_game
>>> layout = observation_layout("table", 3)
>>> layout.size, [f.name for f in layout.fields][:3]
(55, ['viewer', 'to_move', 'phase'])
>>> observation_layout("full", 3).size
1335
"""

from __future__ import annotations

import functools
from typing import Final, Literal, TypeAlias

import attrs

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.state import GameState, Phase
from cheekymonkey.views import TableView

__all__ = [
    "DEFAULT_OBSERVATION",
    "OBSERVATION_KINDS",
    "ObservationField",
    "ObservationKind",
    "ObservationLayout",
    "full_observation",
    "observation_layout",
    "observe",
    "table_observation",
]

ObservationKind: TypeAlias = Literal["full", "table"]
"""The kinds of observation: ``"full"`` (the whole state) or ``"table"`` (a :class:`~cheekymonkey.TableView`)."""

OBSERVATION_KINDS: Final[tuple[ObservationKind, ...]] = ("full", "table")
"""Every kind of observation."""

DEFAULT_OBSERVATION: Final[ObservationKind] = "full"
"""What agents observe unless told otherwise: the full state, which a player with perfect recall knows."""

_A: Final = len(ANIMALS)
_STANDARD: Final = Ruleset.standard()


@attrs.frozen(slots=True)
class ObservationField:
    """One named part of an observation vector."""

    name: str
    """The field's name."""
    offset: int
    """Where the field starts in the vector."""
    shape: tuple[int, ...]
    """The field's shape; its entries lie in the vector row-major."""
    bound: int
    """The largest value an entry can take (the smallest is 0)."""
    meaning: str
    """What the field says, in words."""

    @property
    def size(self) -> int:
        """How many entries the field has."""
        size = 1
        for dimension in self.shape:
            size *= dimension
        return size


@attrs.frozen(slots=True)
class ObservationLayout:
    """The layout of one kind of observation for a seat count and rule set: its fields, size and bounds.

    Build one with :func:`observation_layout`.
    """

    kind: ObservationKind
    """``"full"`` or ``"table"``."""
    players: int
    """The number of seats."""
    ruleset: Ruleset
    """The rules (they set the bounds and, through the token count, the full observation's size)."""
    fields: tuple[ObservationField, ...]
    """The fields, in vector order."""

    @property
    def size(self) -> int:
        """How many entries the vector has."""
        last = self.fields[-1]
        return last.offset + last.size

    @property
    def bounds(self) -> tuple[int, ...]:
        """The largest value of each entry, in vector order (the smallest is always 0)."""
        out: list[int] = []
        for field in self.fields:
            out.extend([field.bound] * field.size)
        return tuple(out)

    def field(self, name: str) -> ObservationField:
        """The field called ``name``.

        Raises:
            InvalidValueError: If the layout has no such field.
        """
        for field in self.fields:
            if field.name == name:
                return field
        raise InvalidValueError(f"no field {name!r} in the {self.kind} observation")

    def encode(self, state: GameState, seat: int | None) -> tuple[int, ...]:
        """The observation of ``state`` by ``seat`` (None: a spectator), of this layout's kind.

        Raises:
            InvalidValueError: If the state does not fit the layout, or ``seat`` is not one of its seats.
        """
        if state.players != self.players or state.ruleset != self.ruleset:
            raise InvalidValueError(
                f"a {state.players}-seat {state.ruleset.name} game does not fit a layout for {self.players} seats "
                f"under the {self.ruleset.name} rules"
            )
        if self.kind == "full":
            return full_observation(state, seat)
        from cheekymonkey.views import view

        return table_observation(view(state, seat))


def _fields(kind: ObservationKind, players: int, ruleset: Ruleset) -> tuple[ObservationField, ...]:
    n, total, most = players, ruleset.total_tokens, max(ruleset.counts)
    specs: list[tuple[str, tuple[int, ...], int, str]] = [
        ("viewer", (n,), 1, "one-hot of the seat observing (all 0 for a spectator)"),
        ("to_move", (n,), 1, "one-hot of the seat whose turn it is"),
        ("phase", (len(Phase),), 1, "one-hot of the phase: chance, decide, placing, over"),
        ("bag_size", (1,), total, "tokens in the bag"),
        ("stack_heights", (n,), total, "tokens in each seat's stack"),
        ("stack_tops", (n, _A), 1, "one-hot of each stack's top animal (0 for an empty stack)"),
        ("front", (_A,), most, "tokens of each animal in front of the player to move"),
        ("claimable", (_A,), 1, "one-hot of the animal that may be claimed now (R7)"),
        ("swap_open", (1,), 1, "1 while a drawn monkey may be swapped (R11)"),
    ]
    if kind == "full":
        specs += [
            ("bag", (_A,), most, "tokens of each animal in the bag"),
            ("stack_counts", (n, _A), most, "tokens of each animal in each seat's stack"),
            ("stacks", (n, total, _A), 1, "each stack token by token from the top down, one-hot"),
        ]
    fields = []
    offset = 0
    for name, shape, bound, meaning in specs:
        field = ObservationField(name, offset, shape, bound, meaning)
        fields.append(field)
        offset += field.size
    return tuple(fields)


@functools.lru_cache(maxsize=64)
def _layout(kind: ObservationKind, players: int, ruleset: Ruleset) -> ObservationLayout:
    return ObservationLayout(kind, players, ruleset, _fields(kind, players, ruleset))


def observation_layout(kind: str, players: int, ruleset: Ruleset | None = None) -> ObservationLayout:
    """The layout of the ``kind`` observation for ``players`` seats under ``ruleset`` (standard if omitted).

    Raises:
        InvalidValueError: If ``kind`` is not one of :data:`OBSERVATION_KINDS`, ``players`` is outside the
            rule set's range, or ``ruleset`` is not a :class:`~cheekymonkey.Ruleset`.
    """
    if kind not in OBSERVATION_KINDS:
        raise InvalidValueError(f"no observation kind {kind!r}; the kinds are {', '.join(OBSERVATION_KINDS)}")
    if ruleset is None:
        ruleset = _STANDARD
    elif not isinstance(ruleset, Ruleset):
        raise InvalidValueError(f"ruleset must be a Ruleset, got {ruleset!r}")
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidValueError(f"players must be an integer, got {players!r}")
    if not ruleset.allows_players(players):
        raise InvalidValueError(
            f"{players} seats: the {ruleset.name} rules allow {ruleset.min_players} to {ruleset.max_players}"
        )
    return _layout("full" if kind == "full" else "table", players, ruleset)


def _table_part(
    out: list[int],
    viewer: int | None,
    to_move: int,
    phase: Phase,
    bag_size: int,
    stacks_heights: tuple[int, ...],
    tops: tuple[int | None, ...],
    front: tuple[int, ...],
    claimable: int | None,
    swap_open: bool,
) -> None:
    n = len(stacks_heights)
    one_hot = [0] * n
    if viewer is not None:
        one_hot[viewer] = 1
    out += one_hot
    one_hot = [0] * n
    one_hot[to_move] = 1
    out += one_hot
    phases = [0, 0, 0, 0]
    phases[phase] = 1
    out += phases
    out.append(bag_size)
    out += stacks_heights
    top_rows = [0] * (n * _A)
    for seat, top in enumerate(tops):
        if top is not None:
            top_rows[seat * _A + top] = 1
    out += top_rows
    counts = [0] * _A
    for token in front:
        counts[token] += 1
    out += counts
    claim = [0] * _A
    if claimable is not None:
        claim[claimable] = 1
    out += claim
    out.append(1 if swap_open else 0)


def table_observation(table: TableView) -> tuple[int, ...]:
    """The table observation of a :class:`~cheekymonkey.TableView`: what the view's seat sees, and nothing more.

    Raises:
        InvalidValueError: If ``table`` is not a TableView.

    >>> from cheekymonkey import new_game, view
    >>> observation = table_observation(view(new_game(2), 0))
    >>> len(observation), observation[:8]
    (44, (1, 0, 1, 0, 1, 0, 0, 0))
    """
    if not isinstance(table, TableView):
        raise InvalidValueError(f"expected a TableView, got {table!r}")
    out: list[int] = []
    _table_part(
        out,
        table.viewer,
        table.to_move,
        table.phase,
        table.bag_size,
        table.stack_heights,
        table.stack_tops,
        table.front,
        table.claimable,
        table.swap_open,
    )
    return tuple(out)


# Stacks change only when a turn ends or a token is claimed or swapped, and a new state shares the
# unchanged stack tuples with the one before, so their encodings are kept by the tuple's identity. An entry
# holds its stack, so the id cannot be reused while the entry lives; the size bound keeps memory small.
_STACK_CACHE: Final[dict[tuple[int, int], tuple[tuple[Animal, ...], tuple[int, ...], tuple[int, ...]]]] = {}
_STACK_CACHE_SIZE: Final = 4096


def _stack_parts(stack: tuple[Animal, ...], total: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A stack's ``stack_counts`` row and its ``stacks`` block (top down, one-hot, ``total`` rows)."""
    key = (id(stack), total)
    hit = _STACK_CACHE.get(key)
    if hit is not None and hit[0] is stack:
        return hit[1], hit[2]
    counts = [0] * _A
    tokens = [0] * (total * _A)
    for depth, token in enumerate(reversed(stack)):
        counts[token] += 1
        tokens[depth * _A + token] = 1
    if len(_STACK_CACHE) >= _STACK_CACHE_SIZE:
        _STACK_CACHE.clear()
    parts = (tuple(counts), tuple(tokens))
    _STACK_CACHE[key] = (stack, *parts)
    return parts


def full_observation(state: GameState, seat: int | None) -> tuple[int, ...]:
    """The full observation of ``state`` by ``seat`` (None: a spectator): the table fields, then the whole state.

    Its first part equals ``table_observation(view(state, seat))``.

    Raises:
        InvalidValueError: If ``state`` is not a GameState or ``seat`` is not one of its seats (or None).
    """
    if not isinstance(state, GameState):
        raise InvalidValueError(f"expected a GameState, got {state!r}")
    stacks = state.stacks
    n = len(stacks)
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
        raise InvalidValueError(f"seat {seat!r} is not one of the {n} seats")
    out: list[int] = []
    _table_part(
        out,
        seat,
        state.seat,
        state.phase,
        sum(state.bag),
        tuple([len(stack) for stack in stacks]),
        tuple([stack[-1] if stack else None for stack in stacks]),
        state.front,
        state.claimable,
        state.swap_open,
    )
    out += state.bag
    total = state.ruleset.total_tokens
    parts = [_stack_parts(stack, total) for stack in stacks]
    for counts, _ in parts:
        out += counts
    for _, tokens in parts:
        out += tokens
    return tuple(out)


def observe(state: GameState, seat: int | None, kind: str = DEFAULT_OBSERVATION) -> tuple[int, ...]:
    """The ``kind`` observation of ``state`` by ``seat``: :func:`full_observation`, or the table one of its view.

    Raises:
        InvalidValueError: If ``kind`` is unknown or ``seat`` is not one of the state's seats.

    >>> from cheekymonkey import new_game
    >>> state = new_game(2)
    >>> observe(state, 1, "table") == observe(state, 1)[: observation_layout("table", 2).size]
    True
    """
    if kind == "full":
        return full_observation(state, seat)
    if kind == "table":
        from cheekymonkey.views import view

        return table_observation(view(state, seat))
    raise InvalidValueError(f"no observation kind {kind!r}; the kinds are {', '.join(OBSERVATION_KINDS)}")
