"""What every game's record holds, and its replay: the record protocol and the checks every record makes.

A record is a game as data: the rules, the seats and every action, chance's outcomes included, enough to
replay the game exactly. :class:`BaseRecord` is the one record class the built-in games share: each game's
record class (Cheeky Monkey's :class:`~cheekymonkey.GameRecord`, :class:`cheekymonkey.toomany.GameRecord`)
is it with the game's rules, actions and states as its type arguments, and names the game's ``new_game`` and
``apply``. :class:`Record` is the record of any other game, which replays through the game it holds. Both
have the fields and methods of :class:`RecordLike`, check their seats with :func:`check_record_seats` and
replay with :func:`replay_states`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast, get_args, get_origin, get_type_hints

import attrs

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import IllegalActionError, InvalidGameError, ReplayError
from cheekymonkey.names import MAX_LABEL_LENGTH, check_text

__all__ = ["BaseRecord", "Record", "RecordLike", "Replays", "check_record_seats", "replay_states"]

S = TypeVar("S")
A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)
R_co = TypeVar("R_co", covariant=True)
R = TypeVar("R")


class RecordLike(Protocol[R_co, A_co]):
    """What every game's record holds: enough to replay the game, and who played it.

    :class:`~cheekymonkey.GameRecord` is Cheeky Monkey's.
    """

    @property
    def ruleset(self) -> R_co:
        """The rules played."""
        ...

    @property
    def players(self) -> int:
        """The number of seats."""
        ...

    @property
    def first_player(self) -> int:
        """The seat that started."""
        ...

    @property
    def actions(self) -> tuple[A_co, ...]:
        """Every action in order, chance outcomes included."""
        ...

    @property
    def seed(self) -> int | None:
        """The seed the game was played with, if known; for information only."""
        ...

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in seat order, or empty."""
        ...

    @property
    def bots(self) -> tuple[str, ...]:
        """What played each seat (a bot's name, or ``"human"``), in seat order, or empty."""
        ...

    @property
    def quit_by(self) -> int | None:
        """The seat whose player quit the game where the record ends, or None."""
        ...

    def start(self) -> Any:
        """The state before the first action (a state of the record's game).

        Raises:
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        ...

    def states(self) -> tuple[Any, ...]:
        """Every state of the game, from the start to the last: one more than there are actions.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        ...

    def final_state(self) -> Any:
        """The state after the last action.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
        """
        ...


class Replays(Protocol):
    """What :class:`Record` needs of its game to replay: the start of a game, and the rules' ``apply``."""

    def new_game(self, players: int, ruleset: Any = None, *, first_player: int = 0) -> Any:
        """The state before the first action."""
        ...

    def apply(self, state: Any, action: Any) -> Any:
        """The state after ``action``."""
        ...


@attrs.frozen(slots=True)
class BaseRecord(Generic[R, A, S]):
    """A whole game as data: replaying its actions from its start reproduces every state.

    The base of a game's own record class, which gives its rule set, action and state types as the type
    arguments and names its game in three class variables: ``_new_game``, the game's
    ``new_game(players, *, ruleset, first_player)``; ``_apply``, its ``apply(state, action)``; and
    ``_ruleset_type``, the class every record's ``ruleset`` must be. Cheeky Monkey's record class is all
    of that::

        class GameRecord(BaseRecord[Ruleset, Action, GameState]):
            __slots__ = ()
            _new_game = new_game
            _apply = apply
            _ruleset_type = Ruleset

    The subclass's fields are these, in attrs' view with the type arguments put in (``actions`` is a
    ``tuple[Action, ...]``), so that cattrs, the document codecs and the schemas read real types.

    Raises:
        InvalidGameError: On building, if the rule set is not the game's, the actions are not a tuple, the
            seat count is not an integer, or the names, kinds or ``quit_by`` do not fit the seats
            (:func:`check_record_seats`).
    """

    ruleset: R
    """The rules played."""
    players: int
    """The number of seats."""
    first_player: int = 0
    """The seat that started."""
    actions: tuple[A, ...] = ()
    """Every action in order, chance's outcomes included."""
    seed: int | None = None
    """The seed the game was played with, if it was given as an integer; for information only."""
    names: tuple[str, ...] = ()
    """The players' names in seat order, or empty if not recorded; for information only."""
    bots: tuple[str, ...] = ()
    """What played each seat, in seat order (a bot kind such as ``"heuristic"``, or ``"human"``), or empty."""
    quit_by: int | None = None
    """The seat whose player quit the game where the record ends, or None; for information only.

    A record that ends before the game does was given up there if this is a seat, and was cut short (a program
    killed, a record saved while the game went on) if it is None.
    """

    _new_game: ClassVar[Callable[..., Any]]
    _apply: ClassVar[Callable[[Any, Any], Any]]
    _ruleset_type: ClassVar[type] = object

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _resolve_field_types(cls)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.ruleset, self._ruleset_type):
            raise InvalidGameError(f"ruleset must be a {self._ruleset_type.__name__}, got {self.ruleset!r}")
        if not isinstance(self.actions, tuple):
            raise InvalidGameError(f"actions must be a tuple of actions, got {self.actions!r}")
        if not is_whole_number(self.players):
            raise InvalidGameError(f"players must be an integer, got {self.players!r}")
        check_record_seats(self.names, self.bots, self.players, self.quit_by)

    def start(self) -> S:
        """The state before the first action.

        Raises:
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        new_game = type(self)._new_game
        return cast(S, new_game(self.players, ruleset=self.ruleset, first_player=self.first_player))

    def states(self) -> tuple[S, ...]:
        """Every state of the game, from the start to the last: one more than there are actions.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        return replay_states(self.start(), self.actions, type(self)._apply)

    def final_state(self) -> S:
        """The state after the last action.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        return self.states()[-1]


def _resolve_field_types(cls: type[BaseRecord[Any, Any, Any]]) -> None:
    """Give ``cls`` attrs' view of its fields with its type arguments in place of :class:`BaseRecord`'s."""
    arguments: dict[object, object] = {}
    for base in getattr(cls, "__orig_bases__", ()):
        origin = get_origin(base)
        if isinstance(origin, type) and issubclass(origin, BaseRecord):
            arguments.update(zip(getattr(origin, "__parameters__", ()), get_args(base), strict=True))
    hints = get_type_hints(cls)
    # The fields so far: BaseRecord's, or those attrs gives a subclass that adds its own (Record's game).
    fields = attrs.fields(cls)
    view = type(fields)([field.evolve(type=_put_in(hints.get(field.name, field.type), arguments)) for field in fields])
    described: Any = cls  # attrs' own class attributes, which mypy does not know
    described.__attrs_attrs__ = view
    described.__attrs_types_resolved__ = cls


def _put_in(tp: Any, arguments: dict[object, object]) -> Any:
    # A type with the type variables ``arguments`` names put in: ``R`` itself, or ``tuple[A, ...]``.
    if isinstance(tp, TypeVar):
        return arguments.get(tp, tp)
    parameters = getattr(tp, "__parameters__", ())
    return tp[tuple(arguments.get(p, p) for p in parameters)] if parameters else tp


@attrs.frozen(slots=True, init=False)
class Record(BaseRecord[R, A, Any]):
    """The record of any game: the game, its rules, its seats and every action, replayed through the game.

    It is what :meth:`BaseGame.record() <cheekymonkey.base.BaseGame.record>` gives a game that keeps no record
    class of its own: a :class:`BaseRecord` that holds its game, given first, where a game's own record
    class names it once for all its records. The rule set is not checked; the game checks it on replay.

    >>> from cheekymonkey.games import game_named
    >>> game = game_named("too-many-monkeys")
    >>> state = game.new_game(2)
    >>> first = game.legal_actions(state)[0]
    >>> record = Record(game, game.ruleset(), 2, actions=(first,))
    >>> record.final_state() == game.apply(state, first), len(record.states())
    (True, 2)
    """

    game: Replays = attrs.field(repr=False, kw_only=True)
    """The game played: its ``new_game`` and ``apply`` replay the record."""

    def __init__(
        self,
        game: Replays,
        ruleset: R,
        players: int,
        first_player: int = 0,
        actions: tuple[A, ...] = (),
        seed: int | None = None,
        names: tuple[str, ...] = (),
        bots: tuple[str, ...] = (),
        quit_by: int | None = None,
    ) -> None:
        self.__attrs_init__(ruleset, players, first_player, actions, seed, names, bots, quit_by, game=game)

    def start(self) -> Any:  # noqa: D102 (BaseRecord's)
        return self.game.new_game(self.players, self.ruleset, first_player=self.first_player)

    def states(self) -> tuple[Any, ...]:  # noqa: D102 (BaseRecord's)
        return replay_states(self.start(), self.actions, self.game.apply)


def check_record_seats(names: object, bots: object, players: int, quit_by: object = None) -> None:
    """Check a record's seats: ``names`` and ``bots``, and ``quit_by``, the seat that quit the game, if any.

    ``names`` and ``bots`` are optional, but when given, one string per seat, each free text that
    :func:`cheekymonkey.names.check_text` accepts (no control or bidirectional character, 256 at most);
    ``quit_by`` is None or one of the seats. Every game's record checks them here, so a replay can show them.

    Raises:
        InvalidGameError: Naming the field and what is wrong with it.

    >>> check_record_seats(("Ann", "Bob"), (), 2)
    >>> check_record_seats(("Ann",), (), 2)
    Traceback (most recent call last):
    ...
    cheekymonkey.errors.InvalidGameError: 1 names for 2 seats: give one per seat, or none
    """
    for field, values in (("names", names), ("bots", bots)):
        if not isinstance(values, tuple) or not all(isinstance(v, str) and v.strip() for v in values):
            raise InvalidGameError(f"{field} must be a tuple of non-empty strings, got {values!r}")
        if values and len(values) != players:
            raise InvalidGameError(f"{len(values)} {field} for {players} seats: give one per seat, or none")
        for seat, value in enumerate(values):
            # A replay shows them to people, at their terminals too: no control or bidirectional character.
            check_text(value, f"the {field}[{seat}] of a record", limit=MAX_LABEL_LENGTH, error=InvalidGameError)
    if quit_by is not None and (not is_whole_number(quit_by) or not 0 <= quit_by < players):
        raise InvalidGameError(f"quit_by must be None or one of the {players} seats, got {quit_by!r}")


def replay_states(start: S, actions: Sequence[A], apply: Callable[[S, A], S]) -> tuple[S, ...]:
    """Every state of a recorded game: ``start``, then one after each action, applied by the game's ``apply``.

    Raises:
        ReplayError: At the first action that is illegal where it falls, naming its step.
    """
    state = start
    states = [state]
    for step, action in enumerate(actions):
        try:
            state = apply(state, action)
        except IllegalActionError as error:
            raise ReplayError(step, error) from error
        states.append(state)
    return tuple(states)
