"""The game surface: what every game offers the layers above its engine, as one small typed protocol.

A *game* here is an object that binds one rules engine's functions together: :data:`~cheekymonkey.CHEEKY_MONKEY`
binds Cheeky Monkey's, and :func:`~cheekymonkey.games.game_named` finds any game by name. Everything written
once for every game (the :class:`~cheekymonkey.Table` session, the command line, the web rooms, the RL
adapters, the simulation) asks a game for what it needs through :class:`Game` and never imports an engine
itself. The engines' own functions stay as they are; the hot path (bots, search, benchmarks) calls them
directly and never pays for the surface.

The protocol is generic in the game's own types, so code written against it keeps them under
``mypy --strict``:

- ``S``: the state (for Cheeky Monkey, :class:`~cheekymonkey.GameState`);
- ``A``: the actions, chance outcomes included (:data:`~cheekymonkey.actions.Action`);
- ``R``: the rule set (:class:`~cheekymonkey.Ruleset`);
- ``V``: a seat's view (:class:`~cheekymonkey.TableView`);
- ``E``: the events (:data:`~cheekymonkey.events.Event`).

>>> from cheekymonkey import CHEEKY_MONKEY as game
>>> state = game.new_game(2)
>>> game.to_move(state), game.is_chance_node(state), game.legal_actions(state)[:2]
(None, True, (Reveal(Animal.ELEPHANT), Reveal(Animal.SEAL)))
"""

from __future__ import annotations

import operator
import random
import textwrap
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

import attrs

from cheekymonkey._confusables import skeleton
from cheekymonkey.errors import IllegalActionError, InvalidGameError, InvalidValueError, ReplayError

__all__ = [
    "Cell",
    "Column",
    "Documents",
    "Encoding",
    "Game",
    "GameBot",
    "ObservationField",
    "Outcome",
    "RecordLike",
    "TextTable",
    "as_index",
    "check_names",
    "check_record_seats",
    "lay_out",
    "name_key",
    "ranks_by",
    "replay_states",
]

S = TypeVar("S")
A = TypeVar("A")
R = TypeVar("R")
V_co = TypeVar("V_co", covariant=True)
E = TypeVar("E")
S_contra = TypeVar("S_contra", contravariant=True)
A_co = TypeVar("A_co", covariant=True)
A_contra = TypeVar("A_contra", contravariant=True)
R_co = TypeVar("R_co", covariant=True)


@runtime_checkable
class GameBot(Protocol[S_contra, A_co]):
    """Anything that picks an action for the player to move in one game's states.

    :class:`cheekymonkey.Bot` is this protocol for Cheeky Monkey's types.
    """

    def choose(self, state: S_contra, rng: random.Random) -> A_co:
        """Return one of the game's legal actions in ``state``; ``state`` is never a chance node."""
        ...


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


def check_record_seats(names: object, bots: object, players: int, quit_by: object = None) -> None:
    """Check a record's seats: ``names`` and ``bots``, and ``quit_by``, the seat that quit the game, if any.

    ``names`` and ``bots`` are optional, but when given, one non-empty string per seat; ``quit_by`` is None or
    one of the seats. Every game's record checks them here, so a replay can show them.

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
    if quit_by is not None and (
        not isinstance(quit_by, int) or isinstance(quit_by, bool) or not 0 <= quit_by < players
    ):
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


def ranks_by(keys: Sequence[float], winners: Sequence[int]) -> tuple[int, ...]:
    """Competition ranks (1, 2, 2, 4): the winners first, then the others by ``keys``, higher is better.

    Seats with equal keys share a rank, and the next rank skips as many places as shared it.

    >>> ranks_by([10, 30, 20, 20], [1])
    (4, 1, 2, 2)
    """
    won = set(winners)

    def standing(seat: int) -> tuple[bool, float]:
        return (seat in won, keys[seat])

    return tuple(1 + sum(standing(other) > standing(seat) for other in range(len(keys))) for seat in range(len(keys)))


@attrs.frozen(slots=True)
class Outcome:
    """How a finished game came out, the same shape for every game.

    A game cut off by a turn or step limit has no outcome: it is *truncated*
    (:attr:`cheekymonkey.Table.truncated`), never a result.

    >>> Outcome(winners=(1,), ranks=(2, 1, 3), returns=(0.0, 1.0, 0.0))
    Outcome(winners=(1,), ranks=(2, 1, 3), returns=(0.0, 1.0, 0.0), scores=None)
    """

    winners: tuple[int, ...]
    """The seats that won, ascending (more than one when a win is shared)."""
    ranks: tuple[int, ...]
    """Each seat's place, 1 for the winners; seats that tie share a place."""
    returns: tuple[float, ...]
    """Each seat's return for learning: ``1/k`` for each of ``k`` winners, 0 for the others (they add up to 1)."""
    scores: tuple[int, ...] | None = None
    """Each seat's final score, for a game that counts points (Cheeky Monkey's totals); None for one that does not."""

    def __attrs_post_init__(self) -> None:
        n = len(self.ranks)
        if len(self.returns) != n or not self.winners or any(not 0 <= w < n for w in self.winners):
            raise InvalidValueError(f"an outcome needs one rank and one return per seat and a winner: {self!r}")
        if self.scores is not None and len(self.scores) != n:
            raise InvalidValueError(f"an outcome's scores, if any, are one per seat: {self!r}")

    @classmethod
    def of_winners(cls, winners: Sequence[int], keys: Sequence[float], scores: Sequence[int] | None = None) -> Outcome:
        """The outcome where ``winners`` share the win and the others are ranked by ``keys`` (higher is better).

        ``scores``, for a game that counts points, are each seat's final score.
        """
        share = 1.0 / len(winners)
        won = set(winners)
        returns = tuple(share if seat in won else 0.0 for seat in range(len(keys)))
        return cls(tuple(sorted(won)), ranks_by(keys, winners), returns, None if scores is None else tuple(scores))


# Letters that look like others (Cyrillic and Greek look-alikes of Latin letters, digits like letters) are
# read as the letter they look like when names are compared; so are runs that read as one letter.
_LOOK_ALIKES: Final = str.maketrans(
    # Cyrillic and Greek letters that look like Latin ones (written as escapes: they look alike here too).
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u0501\u04bb\u04cf"
    "\u04af\u051b\u051d\u0261\u03bf\u03b1\u03b5\u03b9\u03ba\u03bd\u03c1\u03c4\u03c5\u03c7"
    "01i|5$@",
    "aeopcyxljsdhlyqwgoaelkvptuxolllssa",
)
_RUNS: Final = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_YOU: Final = frozenset({"you", "your", "yours"})


def name_key(name: str) -> str:
    r"""What a name looks like, to tell names apart: case, width, spacing, punctuation and look-alikes folded.

    Two seat names with the same key would be mistaken for each other, so :func:`check_names` refuses them.

    >>> name_key("  ANN ") == name_key("ann") == name_key("\uff21\uff4e\uff4e")  # wide letters
    True
    >>> name_key("\u0410nn") == name_key("Ann")  # a Cyrillic A first
    True
    >>> name_key("Y0U!") == name_key("you")
    True
    >>> name_key("\u028f\u1d0f\u1d1c") == name_key("you")  # small capitals, listed among Unicode's confusables
    True
    """
    # Unicode's confusables (UTS #39) before and after case folding (a Greek capital Beta, a Cyrillic small a).
    folded = skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())
    folded = unicodedata.normalize("NFKC", folded).casefold().translate(_LOOK_ALIKES)
    kept = "".join(ch for ch in folded if unicodedata.category(ch)[0] in "LN")
    for run, letter in _RUNS:
        kept = kept.replace(run, letter)
    return kept


def check_names(names: Sequence[str]) -> None:
    """Refuse seat names people could not tell apart or would misread.

    A name must be text with a letter or a digit and no control, format or unassigned characters; it must
    not read as "you" (every reader's own seat is "you"); and no two names may look alike (:func:`name_key`:
    case, spacing, punctuation and look-alike letters do not tell names apart). Every front end checks its
    seats' names here.

    Raises:
        InvalidValueError: Naming the name and the problem.

    >>> check_names(["Ann", "Bea"])
    >>> check_names(["Ann", "ANN"])
    Traceback (most recent call last):
    ...
    cheekymonkey.errors.InvalidValueError: the names 'Ann' and 'ANN' look alike: give each seat a name of its own
    """
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str):
            raise InvalidValueError(f"a seat's name must be text, got {type(name).__name__}")
        if any(unicodedata.category(ch).startswith("C") for ch in name):
            raise InvalidValueError(
                f"the name {name!r} has a control, format or unassigned character (a line break, a tab...)"
            )
        key = name_key(name)
        if not key:
            raise InvalidValueError(f"a seat's name needs a letter or a digit, got {name!r}")
        if key in _YOU:
            raise InvalidValueError(f"{name!r} cannot be a seat's name: every player reads their own seat as 'you'")
        if key in seen:
            raise InvalidValueError(
                f"the names {seen[key]!r} and {name!r} look alike: give each seat a name of its own"
            )
        seen[key] = name


@attrs.frozen(slots=True)
class Cell:
    """One cell of a :class:`TextTable`: its text, and a colour a front end may show it in.

    >>> Cell("Lion", "red")
    Cell(text='Lion', colour='red')
    """

    text: str
    """What the cell says."""
    colour: str | None = None
    """A colour name (``"red"``, ``"blue"``, ``"grey62"``: the names a terminal library such as rich knows), or None."""


@attrs.frozen(slots=True)
class Column:
    """One column of a :class:`TextTable`: its header, an abbreviation for narrow screens, its alignment."""

    header: Cell
    """The header, in full."""
    short: str | None = None
    """A shorter header used when the table must be narrowed (``"Ele"`` for ``"Elephant"``), or None."""
    right: bool = False
    """Whether the column is aligned right (numbers)."""


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "\u2026"


@attrs.frozen(slots=True)
class TextTable:
    """A small table a game draws for people (the board, the score sheet), for any front end to show.

    A terminal draws it with colours (the command line uses rich), a log or a chat as plain text with
    :meth:`text`; :meth:`fit` narrows it to a width first, the same way for both.

    >>> table = TextTable(
    ...     (Column(Cell("player")), Column(Cell("Elephant", "grey62"), "Ele", right=True)),
    ...     ((Cell("Ann"), Cell("3")), (Cell("Bob"), Cell("0"))),
    ...     title="Final scores",
    ...     notes=("Winner: Ann.",),
    ... )
    >>> print(table.text())
    Final scores
    player  Elephant
    Ann            3
    Bob            0
    Winner: Ann.
    >>> print(table.text(width=12))
    Final scores
    player  Ele
    Ann       3
    Bob       0
    Winner: Ann.
    """

    columns: tuple[Column, ...]
    """The columns, left to right."""
    rows: tuple[tuple[Cell, ...], ...]
    """The rows, one cell per column each."""
    title: str = ""
    """A line above the table, or empty."""
    notes: tuple[str, ...] = ()
    """Lines below the table (a legend, the winners, the odds of a bust)."""

    GAP = 2
    """Spaces between two columns."""

    def widths(self) -> list[int]:
        """Each column's width: its widest cell or header."""
        return [
            max([len(column.header.text), *(len(row[index].text) for row in self.rows)])
            for index, column in enumerate(self.columns)
        ]

    def width(self) -> int:
        """How many characters the widest line of :meth:`text` has (the title and notes wrap to fit)."""
        return sum(self.widths()) + self.GAP * (len(self.columns) - 1)

    def fit(self, width: int = 80) -> TextTable:
        """This table at most ``width`` characters wide, if it can be: short headers, then long texts clipped.

        Columns aligned left (names) are clipped with an ellipsis, the widest first, to no fewer than 4
        characters; numbers are never clipped.
        """
        table = self
        if table.width() > width:
            short = tuple(
                attrs.evolve(c, header=attrs.evolve(c.header, text=c.short or c.header.text)) for c in table.columns
            )
            table = attrs.evolve(table, columns=short)
        while table.width() > width:
            widths = table.widths()
            clippable = [i for i, c in enumerate(table.columns) if not c.right and widths[i] > 4]
            if not clippable:
                break
            widest = max(clippable, key=lambda i: widths[i])
            limit = max(4, widths[widest] - (table.width() - width))
            column = table.columns[widest]
            header = attrs.evolve(column.header, text=_clip(column.header.text, limit))
            columns = (*table.columns[:widest], attrs.evolve(column, header=header), *table.columns[widest + 1 :])
            rows = tuple(
                (*row[:widest], attrs.evolve(row[widest], text=_clip(row[widest].text, limit)), *row[widest + 1 :])
                for row in table.rows
            )
            table = attrs.evolve(table, columns=columns, rows=rows)
        return table

    def text(self, width: int = 80) -> str:
        """The table as plain text, fitted to ``width`` columns (:meth:`fit`), the title and notes wrapped to it."""
        table = self.fit(width)
        widths = table.widths()

        def line(cells: Sequence[str]) -> str:
            parts = [
                f"{text:>{w}}" if column.right else f"{text:<{w}}"
                for text, w, column in zip(cells, widths, table.columns, strict=True)
            ]
            return (" " * self.GAP).join(parts).rstrip()

        lines = textwrap.wrap(table.title, width) if table.title else []
        lines.append(line([column.header.text for column in table.columns]))
        lines += [line([cell.text for cell in row]) for row in table.rows]
        for note in table.notes:
            lines += textwrap.wrap(note, width) or [""]
        return "\n".join(lines)


@attrs.frozen(slots=True)
class ObservationField:
    """One named part of an observation vector (see :attr:`cheekymonkey.game.Encoding.observation_fields`)."""

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


class Documents(Protocol):
    """A game's JSON documents: each kind of value as a dictionary with a format header, and back."""

    @property
    def format(self) -> str:
        """The format tag written into every document (``"cheekymonkey/1"``)."""
        ...

    @property
    def kinds(self) -> tuple[str, ...]:
        """The document kinds (``"state"``, ``"action"``, ``"record"``, ...)."""
        ...

    def to_document(self, value: Any) -> dict[str, Any]:
        """``value`` as a JSON-ready dictionary with its header."""
        ...

    def from_document(self, document: object, kind: str | None = None) -> Any:
        """The value of a document, checked; a problem raises :class:`~cheekymonkey.errors.CheekyMonkeyError`."""
        ...

    def dumps(self, value: Any, *, indent: int | None = None) -> str:
        """``value`` as JSON text."""
        ...

    def loads(self, text: str | bytes, kind: str | None = None) -> Any:
        """The value of a JSON document, checked."""
        ...


@runtime_checkable
class Game(Protocol[S, A, R, V_co, E]):
    """What a game offers every layer above its engine.

    One object per game implements it by calling the engine's own functions (see
    :class:`cheekymonkey.games.cheeky_monkey.CheekyMonkey`). Every method is pure: states, actions, views and events are
    values. Methods that take a state assume one of this game's states.
    """

    # -- who the game is ------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The game's short name, as the command line and documents spell it (``"cheeky-monkey"``)."""
        ...

    @property
    def title(self) -> str:
        """The game's title for people (``"Cheeky Monkey"``)."""
        ...

    @property
    def summary(self) -> str:
        """What the game is about and how it is won, in a few sentences for a new player.

        The command line prints it as a game begins.
        """
        ...

    @property
    def results_note(self) -> str:
        """What a reader of the bots' win rates should know: how much of a result is luck, and where it is measured.

        ``cheekymonkey simulate`` prints it under its table.
        """
        ...

    # -- rules and set-up ------------------------------------------------------------------------------

    def ruleset(self, name: str | None = None) -> R:
        """The preset rule set called ``name`` (None: the standard game).

        Raises:
            InvalidRulesetError: If there is no preset of that name.
        """
        ...

    def preset_names(self) -> tuple[str, ...]:
        """The names :meth:`ruleset` knows, the standard game first."""
        ...

    def ruleset_name(self, ruleset: R) -> str:
        """A rule set's name for people and summaries: its preset's name, or what it is called."""
        ...

    def seat_range(self, ruleset: R | None = None) -> tuple[int, int]:
        """The fewest and most seats ``ruleset`` (None: the standard game) can be played with."""
        ...

    def new_game(self, players: int, ruleset: R | None = None, *, first_player: int = 0) -> S:
        """The state before the first action.

        Raises:
            InvalidGameError: If the seat count or first seat does not fit the rule set.
        """
        ...

    def ruleset_of(self, state: S) -> R:
        """The rule set ``state`` is played under."""
        ...

    def players(self, state: S) -> int:
        """How many seats ``state`` has."""
        ...

    # -- playing ---------------------------------------------------------------------------------------

    def legal_actions(self, state: S) -> Sequence[A]:
        """The legal actions, complete and in a fixed order: at a chance node, the outcomes; at the end, none."""
        ...

    def apply(self, state: S, action: A) -> S:
        """The state after ``action``.

        Raises:
            IllegalActionError: If the rules forbid ``action`` in ``state``; nothing changes.
        """
        ...

    def apply_with_events(self, state: S, action: A) -> tuple[S, tuple[E, ...]]:
        """The state after ``action`` and what happened, for front ends to show."""
        ...

    def is_chance_node(self, state: S) -> bool:
        """Whether chance acts next."""
        ...

    def chance_outcomes(self, state: S) -> Sequence[tuple[A, Fraction]]:
        """Every outcome chance can give now, with its exact probability.

        Raises:
            NotAChanceNodeError: If ``state`` is not a chance node.
        """
        ...

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """One outcome drawn with the probabilities of :meth:`chance_outcomes`."""
        ...

    def to_move(self, state: S) -> int | None:
        """The seat that decides next, or None at a chance node and at the end."""
        ...

    def is_terminal(self, state: S) -> bool:
        """Whether the game has ended by its rules."""
        ...

    def turn_of(self, state: S) -> int | None:
        """The seat whose turn it is, at a chance node too (a draw in its turn), or None once the game has ended."""
        ...

    def round_of(self, state: S) -> int:
        """The round ``state`` is in, counted from 1: a game played in one round is always in round 1.

        ``cheekymonkey replay --to round:N`` jumps to a round by it.
        """
        ...

    def begins_turn(self, state: S) -> bool:
        """Whether ``state`` is the first state of a seat's turn (the state :meth:`new_game` makes is one).

        The :class:`~cheekymonkey.Table` counts turns with it, for its turn limit.
        """
        ...

    def outcome(self, state: S) -> Outcome:
        """The winners, ranks and returns of a finished game.

        Raises:
            GameNotOverError: If the game has not ended.
        """
        ...

    def view(self, state: S, seat: int | None) -> V_co:
        """What ``seat`` (None: a spectator) may see of ``state``, as a type of its own."""
        ...

    def facts(self, state: S, seat: int | None) -> dict[str, Any]:
        """Figures ``seat`` could work out from what it has seen, for a front end to show beside the view.

        JSON-ready, and never more than the view reveals: Cheeky Monkey gives ``{"bust_odds": p}`` while a
        player decides (the bag's contents follow from every token seen face up), and ``{}`` otherwise.
        """
        ...

    def number_bound(self, ruleset: R) -> int:
        """An upper bound on every whole number a game under ``ruleset`` can put in its documents.

        Sizes, counts and scores all stay at or below it, so a front end whose numbers are doubles
        (JavaScript's are exact up to ``2**53 - 1``) can tell from the rules alone whether it can show the game.
        """
        ...

    # -- bots ------------------------------------------------------------------------------------------

    def bot_names(self) -> tuple[str, ...]:
        """The names of the game's bots, as :meth:`bot_named` knows them."""
        ...

    def bot_named(self, name: str, *, memory: int | None = None) -> GameBot[S, A]:
        """A fresh bot of the kind called ``name``.

        Args:
            name: One of :meth:`bot_names`.
            memory: The most entries the bot may keep in its caches from one move to the next (None: the
                bot's own bound). A server with many bots sets it, so that their memory stays bounded.

        Raises:
            InvalidValueError: If the game has no bot of that name, or ``memory`` is not a positive integer.
        """
        ...

    # -- text ------------------------------------------------------------------------------------------

    def action_text(self, action: A, state: S) -> str:
        """The short text of a legal ``action``, which :meth:`parse_actions` reads back."""
        ...

    def action_words(self, action: A, state: S, names: Sequence[str]) -> str:
        """A legal ``action`` in words for a person choosing it, seats called by ``names``."""
        ...

    def choice_notes(self, state: S, names: Sequence[str]) -> tuple[str, ...]:
        """Why choices a player may look for are not offered in ``state``, one sentence each (often none).

        A seat left out of a choice of seats is named with the rule's reason (Too Many Monkeys' Skip skips a
        seat with one waiting already); a front end shows them beside the choices.
        """
        ...

    def parse_actions(self, text: str, state: S) -> tuple[A, ...]:
        """The actions a player typed, in order; they are legal one after the other.

        Raises:
            ActionTextError: If the text names no legal action.
        """
        ...

    def board_text(self, state: S) -> str:
        """The table as plain text, for a terminal or a log."""
        ...

    def event_text(self, event: E, names: Sequence[str], viewer: int | None = None) -> str:
        """One line of narration for an event, as ``viewer`` reads it (their own seat is "you")."""
        ...

    def result_text(self, state: S, names: Sequence[str]) -> str:
        """The final result of a finished game as plain text, at most 80 columns wide."""
        ...

    def board_table(self, state: S, names: Sequence[str], viewer: int | None = None) -> TextTable:
        """The table as ``viewer`` (None: a spectator) sees it, as cells a front end may colour."""
        ...

    def result_table(self, state: S, names: Sequence[str]) -> TextTable:
        """The final result of a finished game as cells a front end may colour; ``.text()`` fits 80 columns."""
        ...

    def action_help(self) -> str:
        """How a player types actions (the notation :meth:`parse_actions` reads), as a few lines for a help screen."""
        ...

    def bot_title(self, name: str) -> str:
        """A bot kind's name for people, as a seat's default name begins (``"Heuristic"``, ``"MCTS"``).

        A kind the game does not know (a bot of the caller's own) gets its name capitalised.
        """
        ...

    def mid_move(self, state: S) -> bool:
        """Whether ``state`` is inside one move made of several actions (tokens stacked one at a time).

        A front end that narrates holds the events of such a move until it is complete, then narrates them
        through :meth:`merge_events`.
        """
        ...

    def merge_events(self, events: Sequence[E]) -> tuple[E, ...]:
        """The events as one narrates them together: parts of one move (tokens stacked one at a time) joined."""
        ...

    # -- records and documents -------------------------------------------------------------------------

    def record(
        self,
        ruleset: R,
        players: int,
        first_player: int,
        actions: Sequence[A],
        *,
        seed: int | None = None,
        names: Sequence[str] = (),
        bots: Sequence[str] = (),
        quit_by: int | None = None,
    ) -> RecordLike[R, A]:
        """A replayable record of a game; ``quit_by``: the seat whose player quit it where its actions end."""
        ...

    def documents(self) -> Documents:
        """The game's JSON documents (which may need an optional extra).

        Raises:
            ImportError: If the extra the documents need is not installed; the message names it.
        """
        ...

    # -- learning --------------------------------------------------------------------------------------

    def observation_kinds(self) -> tuple[str, ...]:
        """The kinds of observation :meth:`encoding` offers, the default first."""
        ...

    def encoding(self, players: int, ruleset: R | None = None, observation: str | None = None) -> Encoding[S, A]:
        """The action indices and observations for ``players`` seats under ``ruleset``.

        Raises:
            InvalidValueError: If the seat count, rule set or observation kind does not fit.
        """
        ...
