"""Noninterference: two states one seat cannot tell apart look the same on every route that faces that seat.

:func:`check_noninterference` plays seeded random games of a game and, at every state reached and for every
seat, draws other states the seat cannot tell from it (:meth:`~cheekymonkey.Game.resample`), and checks that
each route of the library facing that seat gives the same text or bytes for both:

- ``information state``: :meth:`~cheekymonkey.Game.information_state` (a resample that changes it is wrong);
- ``turn``: whose move it is, whether chance acts, whether the game is over;
- ``view`` and ``view document``: :meth:`~cheekymonkey.Game.view`, as a value and as the game's JSON document;
- ``board``: :meth:`~cheekymonkey.Game.board_table` for that viewer, as text;
- ``facts``: :meth:`~cheekymonkey.Game.facts` for that seat;
- ``legal actions`` (while the seat is to move): the legal actions, their texts and words, the notes beside
  them, and ``refusal``: the refusal of an illegal action and of a text that names none;
- ``events``: for each action played, every way the seat could not tell from it (the same action in a
  state drawn for the seat, and, in a game with private information, each other legal action, a chance
  outcome dealt elsewhere, that leaves the seat the same information): the events through
  :meth:`~cheekymonkey.Game.event_for`, as values, documents and narration (:meth:`~cheekymonkey.Game.event_text`);
- ``bot``: each bot's choice with the same random numbers, handed what a :class:`~cheekymonkey.Table` hands
  it (:func:`~cheekymonkey.table.bot_state`).

And the routes of the optional front ends (``ADAPTER_ROUTES``), in families (``FAMILIES``), each
driven through the front end's own code at the state:

- ``openspiel ...``: the OpenSpiel adapter's observation and information state, string and tensor, for
  that player;
- ``gymnasium ...``: the single-agent environment with the learner in that seat: its ``observation``
  (all bytes), and where the learner decides or the game is over its ``action mask`` and ``info``; its
  ``render`` (``"ansi"``);
- ``gymnasium vector ...``: for a game with a batched engine, the vector environment's observation and
  mask, held bit for bit to the single environment's of each of its games' states (a batched engine's
  states cannot be made from another state, so this family is held to the one above, not compared
  across states itself);
- ``pettingzoo ...``: ``observe(agent)``, its observation and action mask, the agent's ``infos``, and
  ``render``;
- ``web table`` and ``web stream``: the ``/api/table`` body and the server-sent events a seat's link
  receives (the closing table too, once the game is over), as bytes and text, for a room holding the state;
  and ``... after a step``: the same after each step the seat cannot tell apart, their events and log
  lines included.

The learning environments' families need encodings (:meth:`~cheekymonkey.Game.observation_kinds`); each
family needs its package (OpenSpiel, Gymnasium, PettingZoo, numba, Starlette). A family that cannot be
compared is not passed over in silence: the report's
:attr:`~cheekymonkey.testing.NoninterferenceReport.unchecked` names it and says why.

A route that differs raises :class:`NoninterferenceError` naming the game, the route, the seat and the
actions that led there.

For a game without private information (both built-in games) this holds trivially: a seat knows the whole
state, :meth:`~cheekymonkey.Game.resample` gives the state itself, and every route compares a state with
itself. The check still runs over them, so a game that starts keeping secrets is held to it at once.

>>> from cheekymonkey.games import game_named
>>> report = check_noninterference(game_named("too-many-monkeys"), seed=1, games=1)
>>> report.games, report.states > 10, report.seats
(1, True, 3)
>>> report.checked
('openspiel', 'gymnasium', 'gymnasium vector', 'pettingzoo', 'web')
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import attrs

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import CheekyMonkeyError, InvalidValueError
from cheekymonkey.game import Game
from cheekymonkey.games import game_named
from cheekymonkey.table import bot_state
from cheekymonkey.testing import _routes as _front_ends
from cheekymonkey.testing._routes import Adapters, family_skipped, vector_difference

__all__ = ["ADAPTER_ROUTES", "FAMILIES", "NoninterferenceError", "NoninterferenceReport", "check_noninterference"]

FAMILIES: Final = _front_ends.FAMILIES
"""The families of routes of the optional front ends, each needing its package: ``"openspiel"``,
``"gymnasium"``, ``"gymnasium vector"``, ``"pettingzoo"``, ``"web"``."""

ADAPTER_ROUTES: Final = _front_ends.ADAPTER_ROUTES
"""Every route of :data:`FAMILIES`, as a :class:`NoninterferenceError` names it (each begins with its family's name)."""

_NO_MOVE = "\u2400 no such move \u2400"
_VECTOR_STEPS = 60  # the steps of the vector environment's game held to the single one, at each seat


class NoninterferenceError(AssertionError):
    """A route showed a seat a difference between two states it cannot tell apart.

    Attributes:
        game: The game's name.
        route: The route that differed (``"board"``, ``"view document"``, ``"openspiel observation string"``).
        seat: The seat the route faces.
        history: The actions' texts that led to the state, chance's included.
    """

    def __init__(self, game: str, route: str, seat: int, history: Sequence[str], mine: object, other: object) -> None:
        self.game = game
        self.route = route
        self.seat = seat
        self.history = tuple(history)
        where = ", ".join(self.history) or "the first state"
        super().__init__(
            f"{game}: seat {seat} can tell apart two states it cannot know apart, through the route {route!r}, "
            f"after {where}: {mine!r} != {other!r}"
        )


@attrs.frozen(slots=True)
class NoninterferenceReport:
    """What :func:`check_noninterference` checked."""

    game: str
    """The game's name."""
    games: int
    """Random games played."""
    states: int
    """States reached, the first and the last of each game included."""
    seats: int
    """Seats at the table."""
    pairs: int
    """Pairs of states compared (a state and one drawn for a seat), every route each."""
    events: int
    """Actions replayed in a drawn state, whose events were compared."""
    openspiel: bool
    """Whether the OpenSpiel adapter's routes were compared."""
    bots: tuple[str, ...]
    """The bots whose choices were compared."""
    checked: tuple[str, ...] = ()
    """The families of routes of the optional front ends compared (of ``FAMILIES``), in that order."""
    unchecked: tuple[tuple[str, str], ...] = ()
    """Each family of ``FAMILIES`` not compared, with the reason (its package missing, say), in that order."""
    vector_states: int = 0
    """States at which the vector environment was held to the single one (``"gymnasium vector"``)."""


def _text(value: object) -> str:
    return repr(value)


def _document(game: Game[Any, Any, Any, Any, Any], value: object) -> str:
    try:
        return game.documents().dumps(value)
    except ImportError:  # pragma: no cover - the json extra is part of the test extra
        return "(no documents)"
    except CheekyMonkeyError as error:
        return f"(no document: {type(error).__name__})"


def _spiel(game: Game[Any, Any, Any, Any, Any], players: int, ruleset: Any) -> tuple[Any, str]:
    # The OpenSpiel adapter's game, or None and why not: OpenSpiel is missing, the game offers no encodings,
    # or the game is not registered under its name (the adapter finds a game by name: one imported from a
    # folder in a test has no adapter).
    if not game.observation_kinds():
        return None, "the game offers no encodings for learning"
    try:
        game_named(game.name)
    except InvalidValueError:
        return None, "the game is not registered under its name, which the adapter loads it by"
    try:
        from cheekymonkey.rl import openspiel_game
    except ImportError:
        return None, "OpenSpiel is not installed (the rl extra)"
    return openspiel_game.load(players=players, rules=ruleset, game=game.name), ""


def _spiel_routes(spiel: Any, state: Any, seat: int) -> dict[str, object]:
    from cheekymonkey.rl import openspiel_game

    held = spiel.new_initial_state()
    held._held = openspiel_game._Held(state)
    routes: dict[str, object] = {
        "openspiel observation string": held.observation_string(seat),
        "openspiel observation tensor": bytes(memoryview(_floats(held.observation_tensor(seat)))),
        "openspiel information state string": held.information_state_string(seat),
    }
    if spiel.get_type().provides_information_state_tensor:
        routes["openspiel information state tensor"] = bytes(memoryview(_floats(held.information_state_tensor(seat))))
    return routes


def _floats(values: Sequence[float]) -> Any:
    import array

    return array.array("f", values)


def _routes(
    game: Game[Any, Any, Any, Any, Any],
    state: Any,
    seat: int,
    names: Sequence[str],
    spiel: Any,
    bots: Sequence[str],
    draw: int,
    adapters: Adapters,
) -> dict[str, object]:
    routes: dict[str, object] = {
        "information state": game.information_state(state, seat),
        "turn": (game.to_move(state), game.is_chance_node(state), game.is_terminal(state)),
    }
    view = game.view(state, seat)
    routes["view"] = _text(view)
    routes["view document"] = _document(game, view)
    routes["board"] = game.board_table(state, names, seat).text()
    routes["facts"] = json.dumps(game.facts(state, seat), sort_keys=True, default=repr)
    if game.to_move(state) == seat:
        legal = tuple(game.legal_actions(state))
        routes["legal actions"] = (
            _text(legal),
            tuple(game.action_text(action, state) for action in legal),
            tuple(game.action_words(action, state, names) for action in legal),
            game.choice_notes(state, names),
        )
        refusals = []
        try:
            game.parse_actions(_NO_MOVE, state)
        except CheekyMonkeyError as error:
            refusals.append(str(error))
        notation: Callable[[Any], Sequence[Any]] | None = getattr(game, "notation_actions", None)
        for action in notation(state) if notation is not None else ():
            if action not in legal:
                try:
                    game.apply(state, action)
                except CheekyMonkeyError as error:
                    refusals.append(str(error).replace(repr(state), "<state>"))
        routes["refusal"] = tuple(refusals)
        for name in bots:
            bot = game.bot_named(name)
            handed = bot_state(game, state, seat, random.Random(draw))
            routes[f"bot {name}"] = _text(bot.choose(handed, random.Random(draw + 1)))
    if spiel is not None:
        routes.update(_spiel_routes(spiel, state, seat))
    routes.update(adapters.state_routes(state, seat))
    return routes


def _events(game: Game[Any, Any, Any, Any, Any], events: Sequence[Any], seat: int, names: Sequence[str]) -> object:
    shown = [game.event_for(event, seat) for event in events]
    return (
        tuple(_text(event) for event in shown),
        tuple(_document(game, event) for event in shown if event is not None),
        tuple(game.event_text(event, names, seat) for event in shown if event is not None),
    )


def check_noninterference(
    game: Game[Any, Any, Any, Any, Any],
    *,
    seed: int,
    games: int = 10,
    players: int | None = None,
    ruleset: Any = None,
    draws: int = 2,
    max_steps: int = 400,
    bots: Sequence[str] | None = None,
    openspiel: bool = True,
    skip: Iterable[str] = (),
) -> NoninterferenceReport:
    """Check that no route facing a seat tells apart two states the seat cannot: see the module's docs.

    Args:
        game: The game checked.
        seed: The random games' seed: the same seed checks the same states.
        games: How many random games to play (each action uniform among the legal ones, chance by its odds).
        players: The seats (None: :meth:`~cheekymonkey.Game.default_seats`).
        ruleset: The rules (None: the standard game).
        draws: How many states to draw for each seat at each state.
        max_steps: The most actions a random game plays before it is left.
        bots: The bots whose choices are compared (None: every bot of a game with private information, and
            none of a game without, where the bot is handed the very same state).
        openspiel: Compare the OpenSpiel adapter's observations and information states too, where it can
            (False: as ``skip=["openspiel"]``).
        skip: Families of ``FAMILIES`` or routes of ``ADAPTER_ROUTES`` not to compare (the report
            lists a family skipped among the unchecked).

    Returns:
        What was checked: its ``checked`` and ``unchecked`` say which families of routes were compared and
        why each other was not (its package is not installed, say). None is left out silently.

    Raises:
        NoninterferenceError: At the first route that differs.
        InvalidValueError: If ``seed``, ``games``, ``draws`` or ``max_steps`` is not a whole number of the
            right size (a seed of any size, at least 1 game, draw and step), or ``skip`` names no family
            or route of these.
    """
    for label, given, least in (
        ("seed", seed, None),
        ("games", games, 1),
        ("draws", draws, 1),
        ("max_steps", max_steps, 1),
    ):
        if not is_whole_number(given) or (least is not None and given < least):
            wanted = "an integer" if least is None else f"an integer of at least {least}"
            raise InvalidValueError(f"{label} must be {wanted}, got {given!r}")
    if isinstance(skip, str) or not isinstance(skip, Iterable):
        raise InvalidValueError(f"skip must be a collection of families and routes, got {skip!r}")
    skip = tuple(skip)
    for name in skip:
        if name not in FAMILIES and name not in ADAPTER_ROUTES:
            raise InvalidValueError(
                f"skip names {name!r}, which is neither a family of routes ({', '.join(FAMILIES)}) nor a route of "
                "theirs (cheekymonkey.testing.noninterference.ADAPTER_ROUTES)"
            )
    seats = game.default_seats(ruleset) if players is None else players
    names = [f"Seat {seat}" for seat in range(seats)]
    chosen = tuple(game.bot_names() if game.private_information else ()) if bots is None else tuple(bots)
    rules = ruleset if ruleset is not None else game.ruleset()
    if not openspiel or family_skipped("openspiel", skip):
        spiel, why = None, "skipped, as asked"
    else:
        spiel, why = _spiel(game, seats, rules)
    adapters = Adapters(game, seats, rules, skip)
    states = pairs = replayed = 0
    for number in range(games):
        rng = random.Random(f"noninterference {seed} {number}")
        state = game.new_game(seats, ruleset)
        history: list[str] = []
        # The last step, whose events (and the web's tables after it) are compared once the state it led to
        # has been on every route of its own: a leak in that state is named by its own route first.
        last: tuple[Any, Any, Any, Sequence[Any], list[int], tuple[str, ...]] | None = None
        for step in range(max_steps + 1):
            states += 1
            for seat in range(seats):
                mine = _routes(game, state, seat, names, spiel, chosen, number * 7919 + step, adapters)
                for _ in range(draws):
                    other = game.resample(state, seat, random.Random(rng.getrandbits(64)))
                    pairs += 1
                    theirs = _routes(game, other, seat, names, spiel, chosen, number * 7919 + step, adapters)
                    for route, value in mine.items():
                        if theirs.get(route) != value:
                            raise NoninterferenceError(game.name, route, seat, history, value, theirs.get(route))
            if last is not None:
                for seat in range(seats):
                    replayed += _check_events(game, *last[:4], seat, names, last[4][seat], last[5], adapters)
                last = None
            if game.is_terminal(state) or step == max_steps:
                break
            if game.is_chance_node(state):
                action = game.sample_chance(state, rng)
            else:
                legal = game.legal_actions(state)
                action = legal[rng.randrange(len(legal))]
            after, events = game.apply_with_events(state, action)
            last = (state, action, after, events, [rng.getrandbits(64) for _ in range(seats)], tuple(history))
            history.append(game.action_text(action, state))
            state = after
    vector_states = 0
    if adapters.vector is not None:
        vector_states, difference = vector_difference(adapters, seed, min(max_steps, _VECTOR_STEPS))
        if difference is not None:
            route, seat, single, vector = difference
            raise NoninterferenceError(game.name, route, seat, ("a game of the vector environment",), single, vector)
    unchecked = ((("openspiel", why),) if spiel is None else ()) + tuple(adapters.unchecked.items())
    return NoninterferenceReport(
        game.name,
        games,
        states,
        seats,
        pairs,
        replayed,
        spiel is not None,
        chosen,
        (("openspiel",) if spiel is not None else ()) + adapters.checked,
        tuple(sorted(unchecked, key=lambda item: FAMILIES.index(item[0]))),
        vector_states,
    )


def _check_events(
    game: Game[Any, Any, Any, Any, Any],
    state: Any,
    action: Any,
    after: Any,
    events: Sequence[Any],
    seat: int,
    names: Sequence[str],
    draw: int,
    history: Sequence[str],
    adapters: Adapters,
) -> int:
    # Steps the seat cannot tell from this one: the action played again in a state drawn for the seat, and
    # (with private information) every other action here, a card dealt elsewhere, say. Where the seat still
    # cannot tell the states after apart, it must not tell their events apart either, nor the tables the web
    # sends after them, events and log lines included. A step that leaves it other information (or an action
    # the drawn state does not allow) says nothing, and is not counted.
    other = game.resample(state, seat, random.Random(draw))
    steps = [(other, action)] if action in game.legal_actions(other) else []
    if game.private_information:
        steps.extend((state, alternative) for alternative in game.legal_actions(state) if alternative != action)
    known = game.information_state(after, seat)
    mine: dict[str, object] = {
        "events": _events(game, events, seat, names),
        **adapters.step_routes(state, action, seat),
    }
    compared = 0
    for before, played in steps:
        other_after, other_events = game.apply_with_events(before, played)
        if game.information_state(other_after, seat) != known:
            continue
        theirs = {"events": _events(game, other_events, seat, names), **adapters.step_routes(before, played, seat)}
        for route, value in mine.items():
            if theirs.get(route) != value:
                where = (*history, game.action_text(action, state))
                raise NoninterferenceError(game.name, route, seat, where, value, theirs.get(route))
        compared += 1
    return compared
