"""What every batched engine shares (the ``batched`` extra: ``pip install 'cheekymonkey[batched]'``).

A batched engine plays B games of one kind at once. The games are numpy arrays, one array per field with the
batch first, and compiled loops (numba) step every game in one call, chance resolved inside. Each game has its
engine beside its scalar engine (:mod:`cheekymonkey.cheeky.batched` for *Cheeky Monkey*); this module holds
what they have in common:

- :class:`BatchedGame`, the base class of the engines, which gives them one API in the shape of Pgx's
  (``init``, ``step``, ``observation``) and checks everything a caller passes;
- :class:`BatchState`, the arrays every game has besides its own: its random stream, its counters of steps
  and turns, the seat to move, the legal-action mask, the rewards, the end flags and the chance outcomes
  drawn at the last step;
- the random streams (:func:`seed_streams`, :func:`splitmix`, :func:`draw_below`, and their forms on arrays
  :func:`next_word`, :func:`below`, :func:`draw_from_counts`): one splitmix64 stream per game, and integers
  drawn by rejection, so that every outcome of a chance node has exactly the scalar engine's probability;
- :func:`past_limits`, the :class:`~cheekymonkey.table.Table`'s truncation rule, compiled;
- :func:`random_legal_actions`, a uniformly random legal action for every game, compiled;
- :func:`jit`, numba's compiler with its on-disk cache where it can write one.

The compiled functions here are plain numba functions: a game's own kernels call them, and numba compiles
the calls into its loops. A kernel's loop over the games is best one function whose helpers take scalars
only: numba counts references to every array passed to a compiled function, which costs some 10 ns per array
per call, more than a game's whole step in this engine's kernels.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any, ClassVar, Final, Generic, Self, TypeVar, cast, overload

try:
    import numba
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # pragma: no cover - the batched extra is installed wherever the tests run
    raise ImportError(
        "cheekymonkey's batched engines need numpy and numba: pip install 'cheekymonkey[batched]'"
    ) from error

from cheekymonkey.base import bot_aliases
from cheekymonkey.checks import is_whole_number
from cheekymonkey.encoding import Encoding, as_index
from cheekymonkey.errors import IllegalActionError, InvalidValueError
from cheekymonkey.game import Game

__all__ = [
    "BATCHED_BOTS",
    "ENTRY_POINT_GROUP",
    "NO_LIMIT",
    "BatchState",
    "BatchedGame",
    "below",
    "caching",
    "draw_below",
    "draw_choice",
    "draw_from_counts",
    "engine_class",
    "jit",
    "next_word",
    "past_limits",
    "pick_from_counts",
    "random_legal_actions",
    "seed_streams",
    "splitmix",
    "stream_before",
]

F = TypeVar("F", bound=Callable[..., Any])

_CACHE: list[bool] = []


@overload
def jit(function: F, *, inline: bool = False) -> F: ...


@overload
def jit(function: None = None, *, inline: bool = False) -> Callable[[F], F]: ...


def jit(function: F | None = None, *, inline: bool = False) -> F | Callable[[F], F]:
    """``function`` compiled by numba in nopython mode, cached on disk where a cache can be written.

    numba keeps compiled code in the ``__pycache__`` folder beside the module, or else in a folder of the
    user's (``NUMBA_CACHE_DIR`` chooses another). Where neither can be written, numba refuses to cache, and the
    function is compiled afresh in every process instead (:func:`caching` says which), as is a function of a
    module imported under a name outside the package (whose cache entries the package could not load).
    ``@jit(inline=True)`` has numba inline the function into every compiled caller; the references to the
    arrays it is passed are still counted (see the module's description), so it saves little on a helper
    that takes arrays.
    """
    if function is None:
        return lambda given: jit(given, inline=inline)
    options: dict[str, Any] = {"nogil": True, "inline": "always" if inline else "never"}
    if not function.__module__.startswith("cheekymonkey."):
        # The cache is keyed by the source file, but what it holds names the module it was compiled in: a
        # module imported under another name (a test runner importing a file of a folder without an
        # __init__.py by its bare name) would leave entries that no process importing the package can load.
        return cast(F, numba.njit(**options)(function))
    try:
        compiled = numba.njit(cache=True, **options)(function)
    except RuntimeError:  # numba found no folder it may write its cache into
        _CACHE[:] = [False]
        compiled = numba.njit(**options)(function)
    else:
        _CACHE[:] = _CACHE or [True]
    return cast(F, compiled)


def caching() -> bool:
    """Whether the batched engines' compiled code is cached on disk (else it is compiled in every process)."""
    return all(_CACHE)


NO_LIMIT: Final = 0
"""A turn or step limit of none, as the compiled functions take it (a real limit is 1 or more)."""


@jit
def past_limits(turns: int, steps: int, max_turns: int, max_steps: int) -> bool:
    """Whether a game not yet over, with ``turns`` turns begun and ``steps`` actions played, is truncated.

    :func:`cheekymonkey.table.past_limits`, compiled, with :data:`NO_LIMIT` for None: a turn past
    ``max_turns`` has begun, or ``max_steps`` actions (chance outcomes included) have been played.
    """
    return (max_turns != NO_LIMIT and turns > max_turns) or (max_steps != NO_LIMIT and steps >= max_steps)


# --- the random streams -----------------------------------------------------------------------------------
# splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014): the state goes up
# by an odd constant per word, and a bijective mixer turns it into the word. One uint64 of state per game.

_GAMMA: Final = np.uint64(0x9E3779B97F4A7C15)
_MIX1: Final = np.uint64(0xBF58476D1CE4E5B9)
_MIX2: Final = np.uint64(0x94D049BB133111EB)
_S27: Final = np.uint64(27)
_S30: Final = np.uint64(30)
_S31: Final = np.uint64(31)
_WORD: Final = 1 << 64


@jit
def splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One step of a stream: ``(the next state, the word it gives)``. Scalars only, for kernels' inner loops."""
    state = state + _GAMMA
    z = (state ^ (state >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return state, z ^ (z >> _S31)


@jit
def draw_below(state: np.uint64, total: int) -> tuple[np.uint64, int]:
    """``(the stream's next state, an integer from 0 to total - 1)``, each integer exactly as likely.

    With ``k`` the fewest bits that can hold ``total - 1``, a candidate is the word's top ``k`` bits, each of
    the ``2**k`` values as likely as any other; a candidate of ``total`` or more is turned down and the next
    word tried (rejection), so each value below ``total`` is drawn with probability exactly ``1 / total``.
    More than half the candidates are kept. ``total`` must be 1 or more; 1 draws no word. Scalars only: a
    kernel reads a game's state from its array, draws, and stores the state back.
    """
    if total <= 1:
        return state, 0
    bits = 1
    while (1 << bits) < total:
        bits += 1
    shift = np.uint64(64 - bits)
    while True:
        state, word = splitmix(state)
        candidate = np.int64(word >> shift)
        if candidate < total:
            return state, int(candidate)


@jit
def next_word(streams: npt.NDArray[np.uint64], index: int) -> np.uint64:
    """The next 64-bit word of game ``index``'s stream (:func:`splitmix`); the stream moves on by one word."""
    state, word = splitmix(streams[index])
    streams[index] = state
    return word


@jit
def below(streams: npt.NDArray[np.uint64], index: int, total: int) -> int:
    """An integer from 0 to ``total - 1`` from game ``index``'s stream, as :func:`draw_below` draws it."""
    state, value = draw_below(streams[index], total)
    streams[index] = state
    return value


@jit
def pick_from_counts(pick: int, counts: npt.NDArray[Any]) -> int:
    """The kind that item number ``pick`` of a multiset falls on, counting ``counts[0]`` items first, and so on.

    Each kind is hit by as many picks as it has items: drawing ``pick`` uniformly below the total draws each
    item with equal probability (a token from a bag, a card from a pool). -1 if ``pick`` is past the end.
    """
    for kind, count in enumerate(counts):
        pick -= count
        if pick < 0:
            return kind
    return -1


@jit
def draw_from_counts(streams: npt.NDArray[np.uint64], index: int, counts: npt.NDArray[Any], total: int) -> int:
    """One item drawn uniformly from a multiset of ``total`` items, given by ``counts``: the kind it is.

    :func:`below` then :func:`pick_from_counts`: kind ``k`` comes up with probability ``counts[k] / total``.
    """
    return pick_from_counts(below(streams, index, total), counts)


@jit
def _fill_streams(out: npt.NDArray[np.uint64], base: np.uint64) -> None:
    # Game i starts its stream at word i of the stream seeded with ``base``: the same for every batch size.
    state = base
    for i in range(out.shape[0]):
        state, out[i] = splitmix(state)


def seed_streams(seed: int | None, count: int) -> npt.NDArray[np.uint64]:
    """The starting states of ``count`` games' random streams, from ``seed`` (None: fresh, unpredictable).

    Game ``i`` gets the same stream from the same seed whatever ``count`` is. The seed may be any integer:
    it is hashed to 64 bits.

    Raises:
        InvalidValueError: If ``seed`` is not an integer or None, or ``count`` is not a whole number.
    """
    if seed is None:
        base = secrets.randbits(64)
    elif not is_whole_number(seed):
        raise InvalidValueError(f"seed must be an integer or None, got {seed!r}")
    else:
        base = int.from_bytes(hashlib.blake2b(str(seed).encode(), digest_size=8).digest(), "little")
    if not is_whole_number(count) or count < 0:
        raise InvalidValueError(f"count must be a whole number, got {count!r}")
    out = np.zeros(count, np.uint64)
    _fill_streams(out, np.uint64(base))
    return out


def _unshift(value: int, shift: int) -> int:
    # The inverse of x ^ (x >> shift) on 64 bits: each pass fixes ``shift`` more of the top bits.
    result = value
    for _ in range(64 // shift + 1):
        result = value ^ (result >> shift)
    return result


def stream_before(word: int) -> int:
    """The stream state whose next word (:func:`splitmix`) is ``word``: the mixer is a bijection.

    For tests: setting a game's stream to ``stream_before(w)`` makes its next chance node draw from the word
    ``w``, so a test can drive a chance node through every value of :func:`below`'s candidate.

    Raises:
        InvalidValueError: If ``word`` is not an integer from 0 to ``2**64 - 1``.
    """
    if not is_whole_number(word) or not 0 <= word < _WORD:
        raise InvalidValueError(f"a word is an integer from 0 to 2**64 - 1, got {word!r}")
    z = _unshift(word, 31)
    z = z * pow(int(_MIX2), -1, _WORD) % _WORD
    z = _unshift(z, 27)
    z = z * pow(int(_MIX1), -1, _WORD) % _WORD
    state = _unshift(z, 30)
    return (state - int(_GAMMA)) % _WORD


@jit(inline=True)
def draw_choice(mask: npt.NDArray[np.bool_], streams: npt.NDArray[np.uint64], b: int) -> int:
    """Inside compiled code: one of the choices of row ``b`` of ``mask``, drawn uniformly from stream ``b``.

    The stream is advanced; a row with no choice gives 0 and draws no word. This is the one draw both
    :func:`random_legal_actions` and the vector environment's opponents make.
    """
    legal = 0
    for a in range(mask.shape[1]):
        legal += mask[b, a]
    if legal == 0:
        return 0
    streams[b], pick = draw_below(streams[b], legal)
    for a in range(mask.shape[1]):
        if mask[b, a]:
            if pick == 0:
                return a
            pick -= 1
    return 0


@jit
def _random_legal(mask: npt.NDArray[np.bool_], streams: npt.NDArray[np.uint64], out: npt.NDArray[np.int64]) -> None:
    for b in range(mask.shape[0]):
        out[b] = draw_choice(mask, streams, b)


def random_legal_actions(
    mask: npt.NDArray[np.bool_], streams: npt.NDArray[np.uint64], out: npt.NDArray[np.int64] | None = None
) -> npt.NDArray[np.int64]:
    """For each game, one of its legal actions drawn uniformly from its own stream in ``streams``; 0 if none.

    Args:
        mask: The legal-action mask, B x num_actions bools (:attr:`BatchState.legal_action_mask`).
        streams: One stream per game (:func:`seed_streams`), the player's own: not the games' chance streams.
        out: Where to write the actions (B int64), or None for a new array.

    Raises:
        InvalidValueError: If the shapes or types do not fit.
    """
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.ndim != 2:
        raise InvalidValueError("mask must be a B x num_actions array of bools")
    batch = mask.shape[0]
    if not isinstance(streams, np.ndarray) or streams.dtype != np.uint64 or streams.shape != (batch,):
        raise InvalidValueError(f"streams must be {batch} uint64 stream states (seed_streams)")
    if out is None:
        out = np.zeros(batch, np.int64)
    elif not isinstance(out, np.ndarray) or out.dtype != np.int64 or out.shape != (batch,):
        raise InvalidValueError(f"out must be an array of {batch} int64")
    _random_legal(mask, streams, out)
    return out


# --- the arrays and the API -------------------------------------------------------------------------------


class BatchState:
    """B games as arrays, one per field, the batch first; :meth:`BatchedGame.step` changes them in place.

    These arrays are every game's; a game's own state adds its fields (:attr:`FIELDS` lists them all). Arrays
    are numpy's, so a learner reads them without a copy (``torch.from_numpy``). :meth:`copy` keeps a snapshot.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "rng",
        "steps",
        "turns",
        "current_player",
        "legal_action_mask",
        "rewards",
        "terminated",
        "truncated",
        "started",
        "outcomes",
        "outcome_count",
        "no_decision",
    )
    """The names of the arrays, the game's own after these."""

    rng: npt.NDArray[np.uint64]
    """Each game's random stream (chance draws from it; a new game goes on with it)."""
    steps: npt.NDArray[np.int64]
    """Actions played in each game so far, chance outcomes included (the Table's step count)."""
    turns: npt.NDArray[np.int64]
    """Turns begun in each game so far (the Table's turn count)."""
    current_player: npt.NDArray[np.int32]
    """The seat to decide in each game, or -1 where nobody does (the game has just ended)."""
    legal_action_mask: npt.NDArray[np.bool_]
    """B x num_actions: which action indices the seat to move may play (all False where nobody decides)."""
    rewards: npt.NDArray[np.float32]
    """B x players: each seat's return (the game's :class:`~cheekymonkey.game.Outcome`) on the step that ends a
    game by its rules; 0 on every other step, and for a game cut off by a limit."""
    terminated: npt.NDArray[np.bool_]
    """Whether the last step ended the game by its rules."""
    truncated: npt.NDArray[np.bool_]
    """Whether the last step cut the game off at a turn or step limit (it has no outcome)."""
    started: npt.NDArray[np.bool_]
    """Whether the last step started a new game here (after a finished one: the action given was not played)."""
    outcomes: npt.NDArray[np.int32]
    """B x width: the chance outcomes (the game's outcome indices) drawn at the last step, in order. The width
    starts at the engine's ``max_outcomes``; an engine whose step has no bound on its draws may replace this
    array by a wider one (:meth:`widen_outcomes`), so read it after each step rather than keep it."""
    outcome_count: npt.NDArray[np.int32]
    """How many entries of each row of :attr:`outcomes` the last step drew."""
    no_decision: npt.NDArray[np.bool_]
    """Whether the game the last step dealt here ended before its first decision (a tiny limit cut it off, or
    its rules ended it): its end is reported at the next step (see :class:`BatchedGame`)."""

    def __init__(self, arrays: dict[str, npt.NDArray[Any]]) -> None:
        missing = set(self.FIELDS) ^ set(arrays)
        if missing:
            raise InvalidValueError(f"a {type(self).__name__} has the arrays {self.FIELDS}, not {tuple(arrays)}")
        for name in self.FIELDS:
            object.__setattr__(self, name, arrays[name])

    def __setattr__(self, name: str, value: object) -> None:
        # The arrays change in place; replacing one would leave the engine's kernels holding another.
        raise AttributeError(f"a batch state's arrays change in place; {name!r} cannot be replaced")

    def widen_outcomes(self, width: int) -> None:
        """Replace :attr:`outcomes` by an array ``width`` wide, the entries drawn so far kept (for an engine).

        The one array that may be replaced: a game whose step draws any number of chance outcomes (a turn that
        passes with no decision, then the next) starts at a width and doubles it when a row fills.

        Raises:
            InvalidValueError: If ``width`` is not an integer wider than the array is.
        """
        old = self.outcomes
        if not is_whole_number(width) or width <= old.shape[1]:
            raise InvalidValueError(f"outcomes is {old.shape[1]} wide; {width!r} is not wider")
        wider = np.zeros((old.shape[0], width), old.dtype)
        wider[:, : old.shape[1]] = old
        object.__setattr__(self, "outcomes", wider)

    @property
    def batch_size(self) -> int:
        """How many games the state holds."""
        return int(self.rng.shape[0])

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Every array by name, in :attr:`FIELDS` order (the arrays themselves, not copies)."""
        return {name: getattr(self, name) for name in self.FIELDS}

    def copy(self) -> Self:
        """A snapshot: a state of the same class with a copy of every array."""
        return type(self)({name: array.copy() for name, array in self.arrays().items()})

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.batch_size} games>"


StateT = TypeVar("StateT", bound=BatchState)
S = TypeVar("S")
A = TypeVar("A")


class BatchedGame(Generic[StateT, S, A]):
    """The base of every batched engine: B games of one game at once, with the API in Pgx's shape.

    A game's engine subclasses it and writes the kernels (``_allocate``, ``_start``, ``_advance``, ``_observe``)
    and :meth:`decode` and :meth:`outcome_action`; this class checks what callers pass and keeps the behaviour
    below the same for every game.

    - :meth:`init` deals B new games, each with a random stream of its own from the seed, and plays chance up
      to each game's first decision.
    - :meth:`step` plays one decision in every game (an action index of the game's encoding, seen from the
      mover), then resolves chance inside up to the next decision, from the game's own stream, with exactly
      the scalar engine's probabilities. The arrays change in place.
    - A game that ends by its rules reports ``terminated`` and the seats' returns in ``rewards`` on that step;
      one that passes ``max_turns`` or ``max_steps`` (the :class:`~cheekymonkey.table.Table`'s rule, a step
      limit counting chance outcomes too) reports ``truncated`` and zero rewards. Either way its mask is all
      False and ``current_player`` is -1, and the **next** step starts a new game in its place, from the same
      stream, whatever action it is given (``started`` says so): the autoreset Gymnasium calls ``NEXT_STEP``.
    - A game that ends before its first decision (a tiny limit: ``max_steps=1`` cuts every game off in its
      first draw) is reported in two beats, as the RL adapters report it (:mod:`cheekymonkey.rl.episodes`):
      the step that deals it (or :meth:`init`) reports a start, neither terminated nor truncated, with zero
      rewards, an all-False mask, ``current_player`` -1 and ``no_decision`` True; the next step, whatever
      action it is given, plays nothing and reports the end (truncated, or terminated with the returns if
      the rules ended the game). The step after that deals another game.
    - An action that is not legal in a game that awaits one raises
      :class:`~cheekymonkey.IllegalActionError` (its ``state`` the scalar state of that game), and nothing in
      the batch changes.

    Args:
        game: The game (its :class:`~cheekymonkey.game.Game`).
        players: The number of seats of every game in the batch.
        ruleset: The rules: the game's rule set, a preset's name, or None for the standard rules.
        max_turns: Truncate a game when a turn past this many would begin (None: no limit).
        max_steps: Truncate a game when this many actions, chance outcomes included, have been played.
        observation: The observation kind of :meth:`observation` (None: the game's default).

    Raises:
        InvalidValueError: If an argument is out of range or of the wrong kind.
    """

    max_outcomes: ClassVar[int] = 1
    """The most chance outcomes one step can draw in one game (the width of :attr:`BatchState.outcomes`)."""

    bots: ClassVar[tuple[str, ...]] = ("random",)
    """The game's bots this engine plays in batched form (:meth:`bot_mask`): the random bot, and more in some games."""

    def __init__(
        self,
        game: Game[S, A, Any, Any, Any],
        players: int,
        ruleset: Any = None,
        *,
        max_turns: int | None = None,
        max_steps: int | None = None,
        observation: str | None = None,
    ) -> None:
        for name, limit in (("max_turns", max_turns), ("max_steps", max_steps)):
            if limit is not None and (not is_whole_number(limit) or limit < 1):
                raise InvalidValueError(f"{name} must be a positive integer or None, got {limit!r}")
        if isinstance(ruleset, str):
            ruleset = game.ruleset(ruleset)
        if not is_whole_number(players):
            raise InvalidValueError(f"players must be an integer, got {players!r}")
        low, high = game.seat_range(ruleset)
        if not low <= players <= high:
            raise InvalidValueError(f"{players} seats: the rules allow {low} to {high}")
        self.game: Game[S, A, Any, Any, Any] = game
        """The game played."""
        self.players: int = players
        """The number of seats."""
        start = game.new_game(players, ruleset)
        self.ruleset: Any = game.ruleset_of(start)
        """The rules played."""
        self.encoding: Encoding[S, A] = game.encoding(players, self.ruleset, observation)
        """The game's encoding: the action indices, and the observation's layout."""
        self.observation_kind: str = observation or game.observation_kinds()[0]
        """The kind of observation :meth:`observation` gives."""
        self.num_actions: int = self.encoding.num_actions
        """How many action indices there are (the mask's width)."""
        self.observation_size: int = self.encoding.observation_size
        """How many entries an observation has."""
        self.max_turns: int | None = max_turns
        """The turn limit, or None."""
        self.max_steps: int | None = max_steps
        """The step limit, or None."""
        self._turn_limit = NO_LIMIT if max_turns is None else max_turns
        self._step_limit = NO_LIMIT if max_steps is None else max_steps

    # -- the API -----------------------------------------------------------------------------------------

    def init(self, batch_size: int, seed: int | None = None) -> StateT:
        """``batch_size`` new games, each at its first decision, each with a random stream of its own.

        Game ``i``'s stream follows from ``seed`` and ``i`` alone (:func:`seed_streams`), so the same seed
        deals game ``i`` the same whatever the batch size. None deals unpredictable games.

        Raises:
            InvalidValueError: If ``batch_size`` is not a positive integer, or ``seed`` not an integer or None.
        """
        if not is_whole_number(batch_size) or batch_size < 1:
            raise InvalidValueError(f"batch_size must be a positive integer, got {batch_size!r}")
        streams = seed_streams(seed, batch_size)
        states = self._allocate(batch_size)
        states.rng[:] = streams
        self._start(states)
        return states

    def step(self, states: StateT, actions: npt.ArrayLike, *, where: npt.ArrayLike | None = None) -> StateT:
        """Play ``actions[i]`` in game ``i``, resolve chance up to each game's next decision; ``states`` changes.

        Where the last step finished a game, its action is not played: a new game starts there instead; where
        it dealt a game with no decision, its action is not played either, and the game's end is reported.

        Args:
            states: The games, from :meth:`init`.
            actions: One action index per game (seen from the mover, as the game's encoding numbers them).
            where: None to step every game, or one bool per game: the games where it is False are left
                exactly as they are (their actions are neither played nor checked, their flags and rewards
                kept). A learner at one seat steps the others' games this way until its own turn comes.

        Returns:
            ``states`` itself, changed in place.

        Raises:
            IllegalActionError: If an action is not legal in a game that awaits one; nothing changes.
            InvalidValueError: If ``states`` is not this engine's, or ``actions`` is not one integer per game.
        """
        self._check_states(states)
        moves = np.asarray(actions)
        if moves.shape != (states.batch_size,) or moves.dtype.kind not in "iu":
            raise InvalidValueError(f"actions must be {states.batch_size} integers, one per game")
        moves = moves.astype(np.int64, copy=False)
        if where is None:
            bad = self._advance(states, moves)
        else:
            chosen = np.asarray(where)
            if chosen.shape != (states.batch_size,) or chosen.dtype != np.bool_:
                raise InvalidValueError(f"where must be None or {states.batch_size} bools, one per game")
            bad = self._advance_where(states, moves, chosen)
        if bad >= 0:
            index = int(moves[bad])
            scalar = self.decode(states, bad)
            legal = [i for i in range(self.num_actions) if states.legal_action_mask[bad, i]]
            if 0 <= index < self.num_actions:
                shown: object = self.encoding.decode(index, scalar)
            else:
                shown = index
            reason = (
                f"game {bad} of the batch: action index {index} is not legal there"
                f" (the legal indices are {legal}); nothing was played"
            )
            raise IllegalActionError(scalar, shown, reason)
        return states

    def observation(
        self,
        states: StateT,
        seat: int | npt.ArrayLike | None = None,
        *,
        dtype: npt.DTypeLike = np.float32,
        out: npt.NDArray[Any] | None = None,
    ) -> npt.NDArray[Any]:
        """Every game's observation: exactly the game's ``encoding(...).observe(state, seat)``, as an array.

        Args:
            states: The games.
            seat: Whose observation: None for the seat to move in each game (a spectator's where nobody
                decides, as the scalar encoding gives for a seat of None); a seat number for that seat in every
                game (-1: a spectator's); or one seat per game (-1 for a spectator).
            dtype: The array's type (float32 by default; every entry is a whole number).
            out: Where to write it (B x observation_size), or None for a new array.

        Raises:
            InvalidValueError: If a seat is not one of the game's, or ``out`` does not fit.
        """
        self._check_states(states)
        batch = states.batch_size
        if seat is None:
            seats = states.current_player.astype(np.int64)
        elif isinstance(seat, bool) or np.ndim(seat) == 0:
            spectator = isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) and int(seat) == -1
            # An int, or an integer such as numpy's (-1: a spectator); anything else is refused.
            number = -1 if spectator else as_index(seat)
            if not -1 <= number < self.players:
                raise InvalidValueError(f"seat {seat} is not one of the {self.players} seats")
            seats = np.full(batch, number, np.int64)
        else:
            given = np.asarray(seat)
            if given.shape != (batch,) or given.dtype.kind not in "iu":
                raise InvalidValueError(f"seat must be None, a seat, or {batch} seats, one per game")
            if given.size and (given.min() < -1 or given.max() >= self.players):
                raise InvalidValueError(f"a seat must be -1 (a spectator) or from 0 to {self.players - 1}")
            seats = given.astype(np.int64)
        shape = (batch, self.observation_size)
        if out is None:
            out = np.zeros(shape, dtype)
        elif not isinstance(out, np.ndarray) or out.shape != shape or not out.flags.c_contiguous:
            raise InvalidValueError(f"out must be a C-contiguous array of shape {shape}")
        self._observe(states, seats, out)
        return out

    def outcomes(self, states: StateT, index: int) -> tuple[A, ...]:
        """The chance outcomes the last step drew in game ``index``, as the scalar engine's actions, in order.

        Raises:
            InvalidValueError: If ``index`` is not a game of the batch.
        """
        index = self._check_index(states, index)
        count = int(states.outcome_count[index])
        return tuple(self.outcome_action(int(k)) for k in states.outcomes[index, :count])

    def _check_states(self, states: object) -> None:
        expected = self._state_class()
        if type(states) is not expected:
            raise InvalidValueError(f"expected the {expected.__name__} of init, got {states!r}")
        assert isinstance(states, BatchState)
        if states.rewards.shape[1] != self.players:
            raise InvalidValueError(f"the states are not for this engine's {self.players} seats")

    def _check_index(self, states: StateT, index: int) -> int:
        """``index`` as a game of the batch (an int, or an integer such as numpy's), checked."""
        self._check_states(states)
        if index.__class__ is int:
            number = index
        else:
            try:
                number = as_index(index)
            except InvalidValueError:
                number = -1
        if not 0 <= number < states.rng.shape[0]:
            raise InvalidValueError(f"game {index!r} is not one of the batch's {states.batch_size}")
        return number

    def _common(self, batch_size: int) -> dict[str, npt.NDArray[Any]]:
        """The arrays every game has, zeroed, for :meth:`_allocate` to add the game's own to."""
        return {
            "rng": np.zeros(batch_size, np.uint64),
            "steps": np.zeros(batch_size, np.int64),
            "turns": np.zeros(batch_size, np.int64),
            "current_player": np.full(batch_size, -1, np.int32),
            "legal_action_mask": np.zeros((batch_size, self.num_actions), np.bool_),
            "rewards": np.zeros((batch_size, self.players), np.float32),
            "terminated": np.zeros(batch_size, np.bool_),
            "truncated": np.zeros(batch_size, np.bool_),
            "started": np.zeros(batch_size, np.bool_),
            "outcomes": np.zeros((batch_size, self.max_outcomes), np.int32),
            "outcome_count": np.zeros(batch_size, np.int32),
            "no_decision": np.zeros(batch_size, np.bool_),
        }

    # -- what each game writes ---------------------------------------------------------------------------

    def _state_class(self) -> type[StateT]:
        """The class of this engine's states."""
        raise NotImplementedError

    def _allocate(self, batch_size: int) -> StateT:
        """A state of ``batch_size`` games, every array allocated (:meth:`_common` and the game's own)."""
        raise NotImplementedError

    def _start(self, states: StateT) -> None:
        """Deal a new game in every slot (their streams are set) and play chance to the first decisions."""
        raise NotImplementedError

    def _advance(self, states: StateT, actions: npt.NDArray[np.int64]) -> int:
        """The step's kernel: the first game whose action is illegal (nothing changed), or -1 once all are played."""
        raise NotImplementedError

    def bot_mask(self, states: StateT, bot: str = "random") -> npt.NDArray[np.bool_]:
        """The actions the game's bot ``bot`` chooses among, uniformly, in each game: a new B x A bool array.

        A bot with a batched form (:attr:`bots`) picks uniformly among these (:func:`random_legal_actions` on
        this mask): ``"random"``, the game's random bot, which may leave some legal actions out (*Cheeky
        Monkey*'s never draws when the draw must bust, R22); ``"heuristic"`` and ``"expectimax"`` where the engine
        has them, one action per game for a bot that chooses without chance. All False where nobody decides.

        A second name of a bot (``"strongest"``, :func:`~cheekymonkey.base.bot_aliases`) is the bot it names.

        Raises:
            InvalidValueError: If ``bot`` has no batched form in this engine (:attr:`bots`).
        """
        self._check_states(states)
        if isinstance(bot, str):
            bot = bot_aliases(self.game).get(bot, bot)  # a second name ("strongest") plays as the bot it names
        if not isinstance(bot, str) or bot not in self.bots:
            raise InvalidValueError(
                f"bot {bot!r} has no batched form for {self.game.title}; those that do: {', '.join(self.bots)}"
            )
        if bot == "random":
            return self._random_bot_mask(states)
        return self._other_bot_mask(states, bot)

    def mixed_bot_mask(
        self, states: StateT, bots: tuple[str, ...] | list[str], choice: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.bool_]:
        """:meth:`bot_mask` of bot ``bots[choice[i]]`` in game ``i``: a different bot in each game.

        Raises:
            InvalidValueError: If a bot has no batched form in this engine, or ``choice`` is not one index of
                ``bots`` per game.
        """
        choice = np.asarray(choice)
        if choice.shape != (states.batch_size,) or choice.dtype.kind not in "iu":
            raise InvalidValueError(f"choice must be one index per game, got an array of shape {choice.shape}")
        if choice.size and not (choice.min() >= 0 and choice.max() < len(bots)):
            raise InvalidValueError(f"choice must index the {len(bots)} bots")
        distinct = sorted(set(bots))
        if len(distinct) == 1:
            return self.bot_mask(states, distinct[0])
        out = np.zeros_like(states.legal_action_mask)
        for name in distinct:
            rows = np.isin(choice, [i for i, bot in enumerate(bots) if bot == name])
            if rows.any():
                out[rows] = self.bot_mask(states, name)[rows]
        return out

    def _random_bot_mask(self, states: StateT) -> npt.NDArray[np.bool_]:
        """The random bot's choices: every legal action, unless the game's random bot leaves some out."""
        return states.legal_action_mask.copy()

    def _other_bot_mask(self, states: StateT, bot: str) -> npt.NDArray[np.bool_]:
        """The choices of ``bot``, one of :attr:`bots` other than ``"random"``: the engine that names it writes it."""
        raise NotImplementedError

    def _advance_where(self, states: StateT, actions: npt.NDArray[np.int64], where: npt.NDArray[np.bool_]) -> int:
        """:meth:`_advance` for the games where ``where`` is True only; the others are left as they are.

        This general form keeps a copy of the other games' rows, steps every game (a legal action where one
        is awaited), and puts the rows back. An engine whose kernel can skip games overrides it.
        """
        left = ~where
        if not left.any():
            return self._advance(states, actions)
        kept = {name: array[left].copy() for name, array in states.arrays().items()}
        # The games left alone play their first legal action (nothing where none is awaited), then are restored.
        moves = np.where(where, actions, np.argmax(states.legal_action_mask, axis=1))
        width = states.outcomes.shape[1]
        bad = self._advance(states, moves)
        for name, rows in kept.items():
            array = getattr(states, name)
            if name == "outcomes" and array.shape[1] > width:  # the step widened it
                array[left] = 0
                array[left, :width] = rows
            else:
                array[left] = rows
        return bad

    def _observe(self, states: StateT, seats: npt.NDArray[np.int64], out: npt.NDArray[Any]) -> None:
        """Write each game's observation by ``seats[i]`` (-1: a spectator) into ``out``."""
        raise NotImplementedError

    def decode(self, states: StateT, index: int) -> S:
        """Game ``index`` of the batch as the scalar engine's state.

        Raises:
            InvalidValueError: If ``index`` is not a game of the batch.
        """
        raise NotImplementedError

    def outcome_action(self, outcome: int) -> A:
        """The scalar engine's chance outcome with index ``outcome``."""
        raise NotImplementedError

    def __repr__(self) -> str:
        limits = f", max_turns={self.max_turns}, max_steps={self.max_steps}"
        return f"<{type(self).__name__}: {self.players} seats{limits}, {self.observation_kind} observation>"


BATCHED_BOTS: Final = ("random", "heuristic", "expectimax")
"""The bots with a batched form in some game's engine (:meth:`BatchedGame.bot_mask`); each engine's own are its
:attr:`~BatchedGame.bots` (the random and heuristic bots in every game, the expectimax bot in *Cheeky Monkey*)."""

ENTRY_POINT_GROUP: Final = "cheekymonkey.batched"
"""The entry-point group that names each game's batched engine: game name = ``module:class``."""


def engine_class(game: str) -> Callable[..., BatchedGame[Any, Any, Any]]:
    """The batched engine class of the game named ``game`` (``"cheeky-monkey"``), from the package's entry points.

    The class is called as ``engine(players, ruleset=None, *, max_turns=None, max_steps=None, observation=None)``.

    Raises:
        InvalidValueError: If no batched engine is registered for that game.
    """
    from importlib.metadata import entry_points

    found = {entry.name: entry for entry in entry_points(group=ENTRY_POINT_GROUP)}
    if game not in found:
        raise InvalidValueError(f"the game {game!r} has no batched engine; those that do: {sorted(found)}")
    engine: object = found[game].load()
    if not (isinstance(engine, type) and issubclass(engine, BatchedGame)):
        raise InvalidValueError(f"the batched engine registered for {game!r} is not a BatchedGame: {engine!r}")
    return cast("Callable[..., BatchedGame[Any, Any, Any]]", engine)
