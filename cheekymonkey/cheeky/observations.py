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
``viewer``            ``[n]``         1            one-hot of the seat observing: entry 0 (all 0 for a spectator)
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

**Seats are counted from the viewer**: every field with a row per seat (``to_move``, ``stack_heights``,
``stack_tops``, ``stack_counts``, ``stacks``) lists the viewer's own seat first, then the seats after it in
turn order (clockwise, R3), as the action indices of :class:`~cheekymonkey.rl.ActionCodec` count them. The
viewer is seat 0 of its own observation, so a position looks the same from every seat, up to that
rotation, and one policy can play every seat. A spectator (seat None) sits nowhere: its ``viewer`` field
is all 0 and its rows start at seat 0. The order of the tokens in front is left out: it never matters to
the rules (the monkey open to a swap is always the last one, and ``swap_open`` says so).

Each observation has a text of its own (:meth:`~cheekymonkey.rl.ObservationLayout.text`), written from
the vector alone: it shows what the vector shows, no more and no less, so two observations have the same
text exactly when they are the same vector, and the text serves as a key for tabular methods.

>>> from cheekymonkey import new_game
>>> layout = observation_layout("table", 3)
>>> layout.size, [f.name for f in layout.fields][:3]
(55, ['viewer', 'to_move', 'phase'])
>>> observation_layout("full", 3).size
1335
>>> print(observation_text(new_game(2), 1, "table"))
viewer: a player, counted as +0, the others clockwise from there
to move: +1
phase: chance
bag: 52 tokens
stack +0: empty
stack +1: empty
front: nothing
claimable: nothing
swap open: no
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final, Literal, TypeAlias

import attrs

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import ObservationField, lay_out
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
    "observation_text",
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
        # The rule set is usually the very object the layout was made for: compare fields only if not.
        if state.players != self.players or (state.ruleset is not self.ruleset and state.ruleset != self.ruleset):
            raise InvalidValueError(
                f"a {state.players}-seat {state.ruleset.name} game does not fit a layout for {self.players} seats "
                f"under the {self.ruleset.name} rules"
            )
        if self.kind == "full":
            return full_observation(state, seat)
        from cheekymonkey.views import view

        return table_observation(view(state, seat))

    def text(self, observation: Sequence[int]) -> str:
        """What ``observation`` (a vector of this layout) shows, in words: every field, nothing else.

        Written from the vector alone, so equal vectors give equal texts and different vectors different
        texts. Seats are named by their place after the viewer (``+0`` is the viewer), or by their number
        for a spectator; a stack of the full observation is listed from its top down.

        Raises:
            InvalidValueError: If ``observation`` is not a vector of this layout's size.
        """
        values = [int(v) for v in observation]
        if len(values) != self.size:
            raise InvalidValueError(f"a {self.kind} observation has {self.size} entries, got {len(values)}")

        def part(name: str) -> list[int]:
            field = self.field(name)
            return values[field.offset : field.offset + field.size]

        n = self.players
        viewer = part("viewer")
        seated = any(viewer)

        def seat_name(row: int) -> str:
            return f"+{row}" if seated else f"seat {row}"

        def animals(counts: Sequence[int]) -> str:
            named = [Animal(a).label + (f" x{c}" if c > 1 else "") for a, c in enumerate(counts) if c]
            return ", ".join(named) or "nothing"

        def one_hot(row: Sequence[int]) -> int | None:
            return row.index(1) if 1 in row else None

        if seated:
            lines = ["viewer: a player, counted as +0, the others clockwise from there"]
        else:
            lines = ["viewer: a spectator, seats counted from seat 0"]
        mover = one_hot(part("to_move"))
        lines.append(f"to move: {'nobody' if mover is None else seat_name(mover)}")
        phase = one_hot(part("phase"))
        lines.append(f"phase: {'none' if phase is None else Phase(phase).name.lower()}")
        lines.append(f"bag: {part('bag_size')[0]} tokens")
        heights, tops = part("stack_heights"), part("stack_tops")
        for row in range(n):
            top = one_hot(tops[row * _A : (row + 1) * _A])
            shown = "empty" if not heights[row] else f"{heights[row]} tokens"
            if top is not None:
                shown += f", top {Animal(top).label}"
            lines.append(f"stack {seat_name(row)}: {shown}")
        lines.append(f"front: {animals(part('front'))}")
        claim = one_hot(part("claimable"))
        lines.append(f"claimable: {'nothing' if claim is None else Animal(claim).label}")
        lines.append(f"swap open: {'yes' if part('swap_open')[0] else 'no'}")
        if self.kind == "full":
            lines.append(f"bag holds: {animals(part('bag'))}")
            counts, tokens = part("stack_counts"), part("stacks")
            depth = self.ruleset.total_tokens
            for row in range(n):
                lines.append(f"stack {seat_name(row)} holds: {animals(counts[row * _A : (row + 1) * _A])}")
                block = tokens[row * depth * _A : (row + 1) * depth * _A]
                order = [Animal(a).label for d in range(depth) for a in range(_A) if block[d * _A + a]]
                lines.append(f"stack {seat_name(row)} from the top: {', '.join(order) or 'nothing'}")
        return "\n".join(lines)


def _fields(kind: ObservationKind, players: int, ruleset: Ruleset) -> tuple[ObservationField, ...]:
    n, total, most = players, ruleset.total_tokens, max(ruleset.counts)
    specs: list[tuple[str, tuple[int, ...], int, str]] = [
        ("viewer", (n,), 1, "one-hot of the seat observing, always entry 0 (all 0 for a spectator)"),
        ("to_move", (n,), 1, "one-hot of the seat whose turn it is, counted from the viewer"),
        ("phase", (len(Phase),), 1, "one-hot of the phase: chance, decide, placing, over"),
        ("bag_size", (1,), total, "tokens in the bag"),
        ("stack_heights", (n,), total, "tokens in each seat's stack, the viewer's first"),
        ("stack_tops", (n, _A), 1, "one-hot of each stack's top animal (0 for an empty stack), the viewer's first"),
        ("front", (_A,), most, "tokens of each animal in front of the player to move"),
        ("claimable", (_A,), 1, "one-hot of the animal that may be claimed now (R7)"),
        ("swap_open", (1,), 1, "1 while a drawn monkey may be swapped (R11)"),
    ]
    if kind == "full":
        specs += [
            ("bag", (_A,), most, "tokens of each animal in the bag"),
            ("stack_counts", (n, _A), most, "tokens of each animal in each seat's stack, the viewer's first"),
            ("stacks", (n, total, _A), 1, "each stack token by token from the top down, one-hot, the viewer's first"),
        ]
    return lay_out(specs)


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
    # Rows per seat start at the viewer's own (a spectator's at seat 0).
    n = len(stacks_heights)
    first = 0 if viewer is None else viewer
    one_hot = [0] * n
    if viewer is not None:
        one_hot[0] = 1
    out += one_hot
    one_hot = [0] * n
    one_hot[(to_move - first) % n] = 1
    out += one_hot
    phases = [0, 0, 0, 0]
    phases[phase] = 1
    out += phases
    out.append(bag_size)
    out += stacks_heights[first:]
    out += stacks_heights[:first]
    top_rows = [0] * (n * _A)
    for seat, top in enumerate(tops):
        if top is not None:
            top_rows[(seat - first) % n * _A + top] = 1
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

    Seats are counted from the view's own (the viewer is entry 0 of every row per seat).

    Raises:
        InvalidValueError: If ``table`` is not a TableView.

    >>> from cheekymonkey import new_game, view
    >>> observation = table_observation(view(new_game(2), 1))
    >>> len(observation), observation[:8]
    (44, (1, 0, 0, 1, 1, 0, 0, 0))
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

    Its first part equals ``table_observation(view(state, seat))``; seats are counted from ``seat``'s own.

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
    first = 0 if seat is None else seat
    parts = [_stack_parts(stack, total) for stack in stacks[first:] + stacks[:first]]
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


def observation_text(state: GameState, seat: int | None, kind: str = DEFAULT_OBSERVATION) -> str:
    """The text of the ``kind`` observation of ``state`` by ``seat``: :meth:`ObservationLayout.text` of it.

    Raises:
        InvalidValueError: If ``kind`` is unknown or ``seat`` is not one of the state's seats.
    """
    layout = observation_layout(kind, state.players, state.ruleset)
    return layout.text(layout.encode(state, seat))
