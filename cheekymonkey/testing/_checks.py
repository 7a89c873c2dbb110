"""The checks of :func:`cheekymonkey.testing.check_game`, each named, each raising :class:`ConformanceError`."""

from __future__ import annotations

import math
import pickle
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from importlib.metadata import entry_points
from importlib.resources.abc import Traversable
from typing import Any, Final, Generic, TypeVar

from cheekymonkey.checks import is_whole_number
from cheekymonkey.documents import Documents
from cheekymonkey.encoding import Encoding
from cheekymonkey.errors import ActionTextError, IllegalActionError, NotOfferedError
from cheekymonkey.game import Capabilities, Game
from cheekymonkey.outcome import Utility
from cheekymonkey.testing.noninterference import NoninterferenceError, check_noninterference

__all__ = [
    "CHECKS",
    "ConformanceError",
    "check_capabilities",
    "check_game",
    "check_illegal_actions",
    "check_seats",
    "check_state",
    "check_transition",
]

S = TypeVar("S")
A = TypeVar("A")
R = TypeVar("R")

AnyGame = Game[Any, Any, Any, Any, Any]

CHECKS: Final = (
    "seats",
    "capabilities",
    "state-kind",
    "legal-actions",
    "chance-outcomes",
    "pickle",
    "hash",
    "documents",
    "encoding",
    "illegal-actions",
    "determinism",
    "action-text",
    "returns",
    "record",
    "noninterference",
)
"""The name of every check, as :attr:`ConformanceError.check` gives it, in the order they run at each state."""

_SHOWN_ACTIONS: Final = 8
_POOL_SIZE: Final = 256
_BATCHED_GROUP: Final = "cheekymonkey.batched"


class ConformanceError(AssertionError):
    """A game broke one of the protocol's invariants: which check, which game, and how to get there again.

    Attributes:
        check: The check's name, one of :data:`CHECKS` (``"chance-outcomes"``).
        game: The game's name.
        detail: What was wrong, in words.
        players: The seat count of the game played, or None for a check made before any game.
        ruleset: The preset rule set's name, or None.
        first_player: The seat that began, or None.
        path: The actions from :meth:`~cheekymonkey.Game.new_game` to the state where the check failed:
            ``game.new_game(players, game.ruleset(ruleset), first_player=first_player)`` and these reach it.
    """

    def __init__(
        self,
        check: str,
        game: str,
        detail: str,
        *,
        players: int | None = None,
        ruleset: str | None = None,
        first_player: int | None = None,
        path: Sequence[object] = (),
    ) -> None:
        self.check = check
        self.game = game
        self.detail = detail
        self.players = players
        self.ruleset = ruleset
        self.first_player = first_player
        self.path = tuple(path)
        where = ""
        if players is not None:
            shown = ", ".join(repr(action) for action in self.path[-_SHOWN_ACTIONS:]) or "none"
            earlier = len(self.path) - _SHOWN_ACTIONS
            more = f"{earlier} earlier, then " if earlier > 0 else ""
            where = (
                f" (a game of {players} seats, rule set {ruleset!r}, seat {first_player} first;"
                f" actions from the start: {more}{shown})"
            )
        super().__init__(f"{game}: check {check!r} failed: {detail}{where}")

    def __reduce__(self) -> tuple[object, ...]:
        keywords = {
            "players": self.players,
            "ruleset": self.ruleset,
            "first_player": self.first_player,
            "path": self.path,
        }
        return (_rebuild, (self.check, self.game, self.detail, keywords))


def _rebuild(check: str, game: str, detail: str, keywords: dict[str, Any]) -> ConformanceError:
    return ConformanceError(check, game, detail, **keywords)


class _Where(Generic[S, A, R]):
    """The game being checked and the way to the state at hand, for the error a failed check raises."""

    __slots__ = ("first_player", "game", "path", "players", "ruleset")

    def __init__(
        self,
        game: Game[S, A, R, Any, Any],
        players: int | None = None,
        ruleset: str | None = None,
        first_player: int | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.ruleset = ruleset
        self.first_player = first_player
        self.path: list[A] = []

    def fail(self, check: str, detail: str) -> ConformanceError:
        return ConformanceError(
            check,
            self.game.name,
            detail,
            players=self.players,
            ruleset=self.ruleset,
            first_player=self.first_player,
            path=self.path,
        )

    def require(self, condition: bool, check: str, detail: str) -> None:
        if not condition:
            raise self.fail(check, detail)


# -- before any game: the seats and the capabilities -------------------------------------------------------


def check_seats(game: AnyGame) -> None:
    """``seat_range`` gives whole numbers, at least 1, fewest first, and ``default_seats`` lies inside it.

    Checked for the standard game (``ruleset=None``) and every preset.

    Raises:
        ConformanceError: Check ``"seats"``.
    """
    where: _Where[Any, Any, Any] = _Where(game)
    presets: list[tuple[str, Any]] = [("None", None)]
    presets += [(repr(name), game.ruleset(name)) for name in game.preset_names()]
    for label, ruleset in presets:
        fewest, most = game.seat_range(ruleset)
        where.require(
            is_whole_number(fewest) and is_whole_number(most) and 1 <= fewest <= most,
            "seats",
            f"seat_range({label}) is {(fewest, most)!r}: two whole numbers, at least 1, fewest first",
        )
        default = game.default_seats(ruleset)
        where.require(
            is_whole_number(default) and fewest <= default <= most,
            "seats",
            f"default_seats({label}) is {default!r}, outside seat_range {(fewest, most)}",
        )


def _batched_names() -> frozenset[str]:
    return frozenset(entry.name for entry in entry_points(group=_BATCHED_GROUP))


def check_capabilities(game: AnyGame) -> None:
    """The game gives what its :class:`~cheekymonkey.game.Capabilities` declare, and refuses what they do not.

    A declared member returns its value (proofs that need a module not installed may raise ImportError); an
    undeclared one raises :class:`~cheekymonkey.errors.NotOfferedError`. Encodings are declared exactly
    when :meth:`~cheekymonkey.Game.observation_kinds` names some; a batched engine exactly when one is
    registered by the game's name in the entry-point group ``cheekymonkey.batched``.

    Raises:
        ConformanceError: Check ``"capabilities"``.
    """
    where: _Where[Any, Any, Any] = _Where(game)
    declared = game.capabilities
    where.require(
        isinstance(declared, Capabilities), "capabilities", f"capabilities is {declared!r}, not a Capabilities"
    )
    kinds = game.observation_kinds()
    where.require(
        declared.encodings == bool(kinds),
        "capabilities",
        f"encodings declared {declared.encodings} but observation_kinds() is {kinds!r}",
    )
    registered = game.name in _batched_names()
    where.require(
        declared.batched == registered,
        "capabilities",
        f"batched declared {declared.batched} but a batched engine is "
        f"{'' if registered else 'not '}registered in {_BATCHED_GROUP!r}",
    )
    offers: tuple[tuple[str, bool, Callable[[], object]], ...] = (
        ("proofs", declared.proofs, game.proofs),
        ("schemas", declared.schemas, game.schemas),
        ("page_script", declared.page_script, game.page_script),
    )
    for name, offered, member in offers:
        try:
            value = member()
        except NotOfferedError:
            where.require(not offered, "capabilities", f"{name} is declared, but {name}() raises NotOfferedError")
            continue
        except ImportError:
            where.require(offered, "capabilities", f"{name} is not declared, but {name}() tries to import it")
            continue
        where.require(offered, "capabilities", f"{name} is not declared, but {name}() gives {value!r}")
        if isinstance(value, Traversable):
            found = value.is_dir() if name == "schemas" else value.is_file()
            where.require(found, "capabilities", f"{name}() gives {value!r}, which is not there")
        else:
            where.require(name == "proofs" and callable(value), "capabilities", f"{name}() gives {value!r}")


# -- at each state ------------------------------------------------------------------------------------------


def _round_trip(where: _Where[Any, Any, Any], state: object) -> None:
    try:
        copy = pickle.loads(pickle.dumps(state))
    except Exception as error:
        raise where.fail("pickle", f"the state does not survive pickle: {error!r}") from error
    where.require(copy == state, "pickle", "the state read back from pickle is not equal to it")
    try:
        first = hash(state)
    except TypeError as error:
        raise where.fail("hash", f"the state cannot be hashed: {error}") from error
    where.require(hash(state) == first, "hash", "the state's hash changes from one call to the next")
    where.require(hash(copy) == first, "hash", "an equal state (its pickled copy) has another hash")


def _check_documents(where: _Where[S, A, Any], documents: Documents, state: S, legal: Sequence[A]) -> None:
    kinds = documents.kinds
    # A game's own documents have a kind for each; generic ones (BaseGame's default) one kind for any value.
    state_kind = "state" if "state" in kinds else "value" if "value" in kinds else None
    action_kind = "action" if "action" in kinds else "value" if "value" in kinds else None
    values: list[tuple[str, object]] = []
    if state_kind is not None:
        values.append((state_kind, state))
    if action_kind is not None:
        values.extend((action_kind, action) for action in legal)
    for kind, value in values:
        try:
            back = documents.loads(documents.dumps(value), kind)
            again = documents.from_document(documents.to_document(value), kind)
        except Exception as error:
            raise where.fail("documents", f"the {kind} {value!r} does not round-trip: {error!r}") from error
        where.require(back == value, "documents", f"the {kind} {value!r} reads back from JSON text as {back!r}")
        where.require(again == value, "documents", f"the {kind} {value!r} reads back from its document as {again!r}")


def _check_encoding(
    where: _Where[S, A, Any],
    game: Game[S, A, Any, Any, Any],
    kind: str,
    encoding: Encoding[S, A],
    state: S,
    legal: Sequence[A],
) -> None:
    def require(condition: bool, detail: str) -> None:
        where.require(condition, "encoding", f"observation {kind!r}: {detail}")

    size, bounds = encoding.observation_size, encoding.observation_bounds
    require(len(bounds) == size, f"{len(bounds)} bounds for {size} entries")
    seats: list[int | None] = [*range(game.players(state)), None]
    for seat in seats:
        observed = encoding.observe(state, seat)
        require(len(observed) == size, f"seat {seat}'s observation has {len(observed)} entries, not {size}")
        outside = [i for i, (v, top) in enumerate(zip(observed, bounds, strict=True)) if not 0 <= v <= top]
        require(not outside, f"seat {seat}'s entries {outside[:5]} lie outside 0 to their bounds")
    chance = game.is_chance_node(state)
    actions, outcomes = encoding.action_mask(state), encoding.outcome_mask(state)
    require(len(actions) == encoding.num_actions, f"the action mask has {len(actions)} entries")
    require(len(outcomes) == encoding.num_outcomes, f"the outcome mask has {len(outcomes)} entries")
    indices = encoding.legal_indices(state)
    require(list(indices) == sorted(set(indices)), f"the legal indices {indices!r} are not ascending and distinct")
    require(len(indices) == len(legal), f"{len(indices)} legal indices for {len(legal)} legal actions")
    mask = outcomes if chance else actions
    other = actions if chance else outcomes
    require(tuple(i for i, on in enumerate(mask) if on) == indices, "the mask is not the legal indices")
    require(not any(other), "the mask of the other kind of action is not all False")
    for action in legal:
        index = encoding.encode(action, state)
        require(index in indices, f"{action!r} encodes as {index}, which is not a legal index")
        back = encoding.decode(index, state)
        require(back == action, f"{action!r} encodes as {index}, which decodes as {back!r}")


def check_state(
    game: Game[S, A, Any, Any, Any],
    state: S,
    *,
    documents: Documents | None = None,
    encodings: Sequence[tuple[str, Encoding[S, A]]] = (),
    where: Any = None,
) -> tuple[A, ...]:
    """Check one state, and return its legal actions (chance's outcomes at a chance node).

    Checked: exactly one of a chance node, a seat to move or the end (``"state-kind"``); the legal actions
    distinct, hashable, none exactly at the end (``"legal-actions"``); at a chance node, every outcome's
    probability an exact positive :class:`~fractions.Fraction`, adding up to exactly 1, the outcomes the
    legal actions in the same order (``"chance-outcomes"``); pickle and hash round trips (``"pickle"``,
    ``"hash"``); with ``documents``, the state and each legal action through JSON and back
    (``"documents"``); with ``encodings``, each observation within its bounds, the masks and legal indices
    the legal actions, every legal action encoded and decoded back (``"encoding"``).

    Raises:
        ConformanceError: Naming the check that failed.
    """
    where = where or _Where(game, game.players(state))  # within check_game, the game being played
    chance, seat, over = game.is_chance_node(state), game.to_move(state), game.is_terminal(state)
    kinds = (chance, seat is not None, over)
    where.require(
        sum(kinds) == 1,
        "state-kind",
        f"is_chance_node {chance}, to_move {seat!r} and is_terminal {over}: exactly one must hold",
    )
    where.require(
        seat is None or (is_whole_number(seat) and 0 <= seat < game.players(state)),
        "state-kind",
        f"to_move is {seat!r}, not a seat",
    )
    legal = tuple(game.legal_actions(state))
    try:
        distinct = len(set(legal)) == len(legal)
    except TypeError as error:
        raise where.fail("legal-actions", f"a legal action cannot be hashed: {error}") from error
    where.require(distinct, "legal-actions", f"the legal actions repeat one: {legal!r}")
    where.require(
        bool(legal) != over,
        "legal-actions",
        f"{len(legal)} legal actions in a state that is{'' if over else ' not'} terminal",
    )
    if chance:
        outcomes = tuple(game.chance_outcomes(state))
        odds = [p for _, p in outcomes]
        where.require(
            all(isinstance(p, Fraction) and p > 0 for p in odds),
            "chance-outcomes",
            f"every probability must be a positive Fraction: {odds!r}",
        )
        where.require(
            sum(odds, Fraction(0)) == 1, "chance-outcomes", f"the probabilities add up to {sum(odds, Fraction(0))}"
        )
        where.require(
            tuple(a for a, _ in outcomes) == legal,
            "chance-outcomes",
            f"the outcomes {[a for a, _ in outcomes]!r} are not the legal actions {list(legal)!r}",
        )
    _round_trip(where, state)
    if documents is not None:
        _check_documents(where, documents, state, legal)
    for kind, encoding in encodings:
        _check_encoding(where, game, kind, encoding, state, legal)
    return legal


def check_illegal_actions(
    game: Game[S, A, Any, Any, Any],
    state: S,
    candidates: Sequence[A],
    *,
    where: Any = None,
) -> int:
    """Every candidate not legal in ``state`` is refused with :class:`IllegalActionError`, and nothing changes.

    The error names the action and the state it was refused in (its ``action`` and ``state``).
    The state must be equal to itself as it was, with the same hash, after each refusal, and hold the same
    pickled bytes after them all. Returns how many illegal candidates were tried.

    Raises:
        ConformanceError: Check ``"illegal-actions"``.
    """
    where = where or _Where(game, game.players(state))  # within check_game, the game being played
    legal = set(game.legal_actions(state))
    before, snapshot, hashed = pickle.dumps(state), pickle.loads(pickle.dumps(state)), hash(state)
    tried = 0
    for action in candidates:
        if action in legal:
            continue
        tried += 1
        try:
            after = game.apply(state, action)
        except IllegalActionError as error:
            where.require(
                error.action == action and error.state == state,
                "illegal-actions",
                f"the refusal of {action!r} names the action {error.action!r} and another state",
            )
        except Exception as error:
            raise where.fail(
                "illegal-actions", f"the illegal action {action!r} raised {error!r}, not an IllegalActionError"
            ) from error
        else:
            raise where.fail(
                "illegal-actions", f"the illegal action {action!r} was applied, giving {after!r}, not refused"
            )
        where.require(
            state == snapshot and hash(state) == hashed,
            "illegal-actions",
            f"refusing the illegal action {action!r} changed the state",
        )
    where.require(
        pickle.dumps(state) == before,
        "illegal-actions",
        f"refusing the illegal actions {list(candidates)!r} changed what the state holds (its pickled bytes)",
    )
    return tried


def check_transition(game: Game[S, A, Any, Any, Any], state: S, action: A, *, where: Any = None) -> S:
    """Apply a legal ``action``: the same state twice and with events, ``state`` itself unchanged; return it.

    Raises:
        ConformanceError: Check ``"determinism"`` (or ``"illegal-actions"`` if the legal action is refused).
    """
    where = where or _Where(game, game.players(state))  # within check_game, the game being played
    before, snapshot = pickle.dumps(state), pickle.loads(pickle.dumps(state))
    try:
        after = game.apply(state, action)
    except IllegalActionError as error:
        raise where.fail("illegal-actions", f"the legal action {action!r} was refused: {error}") from error
    again = game.apply(state, action)
    where.require(again == after, "determinism", f"{action!r} applied twice gives two states: {after!r}, {again!r}")
    with_events, _ = game.apply_with_events(state, action)
    where.require(with_events == after, "determinism", f"apply_with_events and apply differ after {action!r}")
    where.require(
        state == snapshot and pickle.dumps(state) == before,
        "determinism",
        f"applying {action!r} changed the state it was applied to",
    )
    return after


def _check_text(where: _Where[S, A, Any], game: Game[S, A, Any, Any, Any], state: S, legal: Sequence[A]) -> None:
    for action in legal:
        text = game.action_text(action, state)
        try:
            read = game.parse_actions(text, state)
        except ActionTextError as error:
            raise where.fail("action-text", f"the text {text!r} of {action!r} is not read back: {error}") from error
        where.require(read == (action,), "action-text", f"the text {text!r} of {action!r} reads back as {read!r}")


def _check_end(where: _Where[S, A, R], game: Game[S, A, R, Any, Any], ruleset: R, state: S) -> None:
    players = game.players(state)
    returns = tuple(game.returns(state))
    stakes = game.stakes(players, ruleset)
    where.require(len(returns) == players, "returns", f"{len(returns)} returns for {players} seats: {returns!r}")
    margin = 1e-9 * max(1.0, abs(stakes.low), abs(stakes.high))
    outside = [r for r in returns if not stakes.low - margin <= r <= stakes.high + margin]
    where.require(not outside, "returns", f"the returns {returns!r} leave the stakes' {stakes.low}..{stakes.high}")
    if stakes.utility is not Utility.GENERAL_SUM and stakes.total is not None:
        where.require(
            math.isclose(math.fsum(returns), stakes.total, rel_tol=1e-9, abs_tol=1e-9),
            "returns",
            f"the returns {returns!r} add up to {math.fsum(returns)}, not the stakes' total {stakes.total}",
        )


def _check_record(
    where: _Where[S, A, R],
    game: Game[S, A, R, Any, Any],
    documents: Documents | None,
    ruleset: R,
    players: int,
    first_player: int,
    final: S,
) -> None:
    record = game.record(ruleset, players, first_player, tuple(where.path), seed=0)
    try:
        replayed = record.final_state()
    except Exception as error:
        raise where.fail("record", f"the record of the game does not replay: {error!r}") from error
    where.require(replayed == final, "record", "the record of the game replays to another final state")
    if documents is not None and "record" in documents.kinds:
        try:
            back = documents.loads(documents.dumps(record), "record")
        except Exception as error:
            raise where.fail("documents", f"the game's record does not round-trip: {error!r}") from error
        where.require(back.final_state() == final, "documents", "the record read back replays to another state")


# -- whole games ---------------------------------------------------------------------------------------------


def _documents_of(game: AnyGame) -> Documents | None:
    try:
        return game.documents()
    except ImportError:  # the documents need an extra that is not installed: they are not offered here
        return None


def _play(
    game: Game[S, A, R, Any, Any],
    preset: str,
    players: int,
    first_player: int,
    rng: random.Random,
    checks_rng: random.Random,
    documents: Documents | None,
    pool: dict[A, None],
    max_steps: int,
    illegal_tries: int,
) -> None:
    ruleset = game.ruleset(preset)
    where: _Where[S, A, R] = _Where(game, players, preset, first_player)
    encodings: list[tuple[str, Encoding[S, A]]] = []
    if game.capabilities.encodings:
        encodings = [(kind, game.encoding(players, ruleset, kind)) for kind in game.observation_kinds()]
    state = game.new_game(players, ruleset, first_player=first_player)
    for _ in range(max_steps + 1):
        legal = check_state(game, state, documents=documents, encodings=encodings, where=where)
        candidates = [action for action in pool if action not in legal]
        picked = checks_rng.sample(candidates, min(illegal_tries, len(candidates)))
        check_illegal_actions(game, state, picked, where=where)
        if game.is_terminal(state):
            _check_end(where, game, ruleset, state)
            break
        if len(where.path) == max_steps:
            break
        for action in legal:
            if len(pool) < _POOL_SIZE:
                pool.setdefault(action)
        if game.is_chance_node(state):
            saved = rng.getstate()
            action = game.sample_chance(state, rng)
            rng.setstate(saved)
            again = game.sample_chance(state, rng)
            where.require(again == action, "determinism", f"sample_chance drew {action!r}, then {again!r}")
            where.require(action in legal, "chance-outcomes", f"sample_chance drew {action!r}, not an outcome")
        else:
            _check_text(where, game, state, legal)
            action = legal[rng.randrange(len(legal))]
        state = check_transition(game, state, action, where=where)
        where.path.append(action)
    _check_record(where, game, documents, ruleset, players, first_player, state)


def check_game(game: AnyGame, *, seed: int = 0, games: int = 8, max_steps: int = 400, illegal_tries: int = 3) -> None:
    """Check that ``game`` keeps the protocol's promises: seeded, bounded and deterministic.

    First the seats and the capabilities (:func:`check_seats`, :func:`check_capabilities`); then ``games``
    games, each of at most ``max_steps`` actions, cycling through the presets, the seat counts and the first
    seats, chance drawn with :meth:`~cheekymonkey.Game.sample_chance` and every decision picked at
    random with a :class:`random.Random` seeded from ``seed`` and the game's number. At every state
    :func:`check_state` (the documents and encodings the game offers included), ``illegal_tries`` actions
    seen elsewhere but illegal here refused without a change (:func:`check_illegal_actions`), every legal
    action's text read back to it (``"action-text"``, at a seat's decision), the action chosen applied
    deterministically (:func:`check_transition`); at the end, the returns within the stakes and adding up to
    their total unless the game is general-sum (``"returns"``), and the game's record replaying to the
    state reached (``"record"``, the record through the documents too). Last, a quarter as many games
    through :func:`~cheekymonkey.testing.check_noninterference` (``"noninterference"``).

    Args:
        game: The game, any :class:`~cheekymonkey.game.Game`.
        seed: Picks the games played; the same seed plays the same games.
        games: How many games to play.
        max_steps: The most actions played in one game (a longer game is checked that far).
        illegal_tries: How many illegal actions to try at each state.

    Raises:
        ConformanceError: The first check that failed, naming it, the game, and the actions that reach the
            state where it failed.
    """
    check_seats(game)
    check_capabilities(game)
    documents = _documents_of(game)
    presets = game.preset_names()
    pool: dict[Any, None] = {}
    for number in range(games):
        preset = presets[number % len(presets)]
        fewest, most = game.seat_range(game.ruleset(preset))
        players = fewest + (number // len(presets)) % (most - fewest + 1)
        rng = random.Random(f"{seed}:{number}")
        checks_rng = random.Random(f"{seed}:{number}:checks")
        _play(game, preset, players, number % players, rng, checks_rng, documents, pool, max_steps, illegal_tries)
    # Last, what each seat may know: no route facing a seat tells apart two states the seat cannot.
    try:
        check_noninterference(game, seed=seed, games=max(1, games // 4), max_steps=max_steps)
    except NoninterferenceError as error:
        raise ConformanceError("noninterference", game.name, str(error)) from None
