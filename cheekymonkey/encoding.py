"""Encodings for learning: the protocol every game's encodings follow, and the layout of an observation.

A game offers its encodings through :meth:`Game.encoding() <cheekymonkey.Game.encoding>`, one
:class:`Encoding` per seat count, rule set and observation kind; the RL adapters (:mod:`cheekymonkey.rl`) are
written against it. An observation is laid out as named fields (:class:`ObservationField`, :func:`lay_out`).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Protocol, TypeVar

import attrs

from cheekymonkey.errors import InvalidValueError

__all__ = ["Encoding", "ObservationField", "as_index", "lay_out"]

A = TypeVar("A")
S_contra = TypeVar("S_contra", contravariant=True)


@attrs.frozen(slots=True)
class ObservationField:
    """One named part of an observation vector (see :attr:`cheekymonkey.encoding.Encoding.observation_fields`)."""

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


def lay_out(specs: Iterable[tuple[str, tuple[int, ...], int, str]]) -> tuple[ObservationField, ...]:
    """Fields one after another, from each one's name, shape, bound and meaning: their offsets follow.

    >>> [(field.name, field.offset) for field in lay_out([("a", (2, 3), 1, ""), ("b", (1,), 9, "")])]
    [('a', 0), ('b', 6)]
    """
    fields = []
    offset = 0
    for name, shape, bound, meaning in specs:
        field = ObservationField(name, offset, shape, bound, meaning)
        fields.append(field)
        offset += field.size
    return tuple(fields)


def as_index(value: object) -> int:
    """``value`` as an action or outcome index: an int, or an integer of another type (numpy's ``int64``).

    Encodings and the adapters read indices with it; whether the index is in range is theirs to check.

    Raises:
        InvalidValueError: If ``value`` is a bool, a float, a string or anything else that is not an integer.

    >>> as_index(3)
    3
    >>> as_index(True)
    Traceback (most recent call last):
    ...
    cheekymonkey.errors.InvalidValueError: an index must be an integer, got True
    """
    try:
        if isinstance(value, bool):
            raise TypeError(value)
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidValueError(f"an index must be an integer, got {value!r}") from None


class Encoding(Protocol[S_contra, A]):
    """A game's fixed-size encodings for learning, for one seat count, rule set and observation kind.

    Everything here is **seen from one seat**, so that one policy can play every seat:

    - Player actions are numbered ``0 .. num_actions - 1`` *as the player to move plays them*: an action
      that names a seat names it by its place after the mover, so the same index means the same move from
      every seat. Chance outcomes are numbered ``0 .. num_outcomes - 1`` (as in OpenSpiel).
    - An observation is a vector of ``observation_size`` whole numbers from 0 to their bound, in which the
      viewer is seat 0 and the other seats follow in turn order. A spectator's (seat None) starts at seat 0.
    - An observation's text shows what its vector shows, no more and no less: equal texts, equal vectors.
      It is a key for tabular learners, and does not grow with the length of the game.
    """

    @property
    def num_actions(self) -> int:
        """How many player action indices there are."""
        ...

    @property
    def num_outcomes(self) -> int:
        """How many chance outcome indices there are."""
        ...

    @property
    def observation_size(self) -> int:
        """How many entries an observation has."""
        ...

    @property
    def observation_bounds(self) -> tuple[int, ...]:
        """The largest value of each entry of an observation (the smallest is 0)."""
        ...

    @property
    def observation_fields(self) -> tuple[ObservationField, ...]:
        """The named parts of an observation, in vector order."""
        ...

    def encode(self, action: A, state: S_contra) -> int:
        """The index of ``action`` in ``state``: an outcome's at a chance node, else as the mover plays it.

        Raises:
            InvalidValueError: If ``action`` has no index in this encoding.
        """
        ...

    def decode(self, index: int, state: S_contra) -> A:
        """The action with ``index`` in ``state``: a chance outcome at a chance node, else the mover's action.

        Raises:
            InvalidValueError: If ``index`` is not an index of its space.
        """
        ...

    def legal_indices(self, state: S_contra) -> tuple[int, ...]:
        """The indices of the legal actions in ``state``, ascending: outcome indices at a chance node."""
        ...

    def action_mask(self, state: S_contra) -> tuple[bool, ...]:
        """One bool per action index: which are legal for the player to move (all False at chance and the end)."""
        ...

    def outcome_mask(self, state: S_contra) -> tuple[bool, ...]:
        """One bool per outcome index: which chance can give now (all False unless at a chance node)."""
        ...

    def action_name(self, index: int, *, chance: bool = False) -> str:
        """A short name of an action index (of an outcome index with ``chance``), the same from every seat."""
        ...

    def observe(self, state: S_contra, seat: int | None) -> tuple[int, ...]:
        """What ``seat`` (None: a spectator) observes of ``state``, as whole numbers, from its own seat."""
        ...

    def observation_text(self, state: S_contra, seat: int | None) -> str:
        """What the observation of ``seat`` shows, as text: no more and no less than its vector."""
        ...

    def points(self, state: S_contra) -> tuple[float, ...]:
        """Each seat's points as the position stands, in seat order, the game's own measure of a lead.

        Reward shaping uses it (a point margin); in a finished game they are the final scores. A game
        without points gives the keys it ranks seats by (higher is better).
        """
        ...
