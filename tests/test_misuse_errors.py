"""Misuse errors checked whole, field by field, and the edges of Ruleset (what the mutation run found unchecked).

Each misuse error is checked whole: its ``state``, its ``action``, its ``reason`` word for word, and its
message, so a mutant that empties a field, swaps two of them or rewords the reason is caught.
"""

from __future__ import annotations

import inspect
import random
import reprlib
from typing import Any, Final

import pytest

import cheekymonkey
import cheekymonkey.cheeky.engine
import cheekymonkey.cheeky.state
import cheekymonkey.toomany as toomany
import cheekymonkey.toomany.engine
import cheekymonkey.toomany.state
from cheekymonkey import (
    ANIMALS,
    Animal,
    CheekyMonkeyError,
    Claim,
    Draw,
    ExpectimaxBot,
    GameState,
    Herd,
    HeuristicBot,
    IllegalActionError,
    InvalidGameError,
    InvalidRulesetError,
    InvalidStateError,
    InvalidValueError,
    NotAChanceNodeError,
    Phase,
    Place,
    RandomBot,
    Reveal,
    Ruleset,
    Stop,
    Swap,
    apply,
    apply_all,
    chance_outcomes,
    current_player,
    new_game,
    play_game,
    sample_chance,
    score_counts,
    stop_in_order,
    view,
)

E, S, L, M = Animal.ELEPHANT, Animal.SEAL, Animal.LION, Animal.MONKEY
# Called through Any: these tests pass what the types forbid, as a careless caller would.
_apply: Any = apply
_stop: Any = stop_in_order
DECIDING = apply_all(new_game(2), [Reveal(E), Draw(), Reveal(S)])  # seat 0 has an Elephant and a Seal in front


def _caught(call: Any) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        call()
    return caught.value


# --- 13. every field of a misuse error ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "state", "action", "reason"),
    [
        pytest.param(lambda: _stop("x", []), "x", (), "E9: 'x' is not a GameState", id="stop_in_order-non-state"),
        pytest.param(lambda: _apply(DECIDING, "x"), DECIDING, "x", "E9: 'x' is not an action", id="apply-non-action"),
        pytest.param(lambda: _apply("x", Draw()), "x", Draw(), "E9: 'x' is not a GameState", id="apply-non-state"),
        pytest.param(
            lambda: _stop(DECIDING, [0, 1]),
            DECIDING,
            (0, 1),
            "R9: the order must be a sequence of animals",
            id="order-of-numbers",
        ),
        pytest.param(
            lambda: _stop(DECIDING, None),
            DECIDING,
            None,
            "R9: the order must be a sequence of animals, got None",
            id="order-none",
        ),
        pytest.param(
            lambda: stop_in_order(DECIDING, [S, S]),
            DECIDING,
            (S, S),
            "R9: the order must list exactly the tokens in front, (Animal.ELEPHANT, Animal.SEAL)",
            id="order-mismatched",
        ),
        pytest.param(
            lambda: stop_in_order(DECIDING, [E]),
            DECIDING,
            (E,),
            "R9: the order must list exactly the tokens in front, (Animal.ELEPHANT, Animal.SEAL)",
            id="order-short",
        ),
        pytest.param(
            lambda: stop_in_order(new_game(2), []),
            new_game(2),
            Stop(),
            "R5: a draw is being resolved: the next action is the chance outcome, a Reveal",
            id="stop-at-a-chance-node",
        ),
    ],
)
def test_a_misuse_error_carries_the_state_the_action_and_the_reason(
    call: Any, state: object, action: object, reason: str
) -> None:
    """The error's .state, .action and .reason are exactly what was given and why, and the message shows them."""
    error = _caught(call)
    assert error.state == state
    assert type(error.state) is type(state)
    assert error.action == action
    assert type(error.action) is type(action)
    assert error.reason == reason
    assert str(error) == f"illegal action {action!r}: {reason}"
    assert error.args == (str(error),)


def test_a_misuse_error_keeps_the_very_state_given() -> None:
    """The state in the error is the caller's own object, unchanged."""
    error = _caught(lambda: stop_in_order(DECIDING, [L, S]))
    assert error.state is DECIDING
    assert error.action == (L, S)


# --- 14. Ruleset edges -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", Ruleset.preset_names())
def test_every_preset_is_named_after_itself(name: str) -> None:
    """Ruleset.preset(n).name == n for every preset name."""
    assert Ruleset.preset(name).name == name


@pytest.mark.parametrize("animal", ANIMALS, ids=[a.name for a in ANIMALS])
def test_an_animal_with_a_single_token_still_needs_a_bonus_value_of_1_or_more(animal: Animal) -> None:
    """The boundary at a count of 1: a value of 0 for an animal in play is refused, 1 is accepted."""
    with pytest.raises(InvalidRulesetError, match=f"{animal.label} is in play, so its bonus value must be 1 or more"):
        Ruleset.custom({animal: 1}, bonus_values={animal: 0})
    assert Ruleset.custom({animal: 1}, bonus_values={animal: 1}).bonus_values[animal] == 1


def test_a_single_monkey_turns_the_swap_on_by_default() -> None:
    """With one monkey in play the swap is on unless turned off; without monkeys it is off."""
    assert Ruleset.custom({M: 1}).swap is True
    assert Ruleset.custom({M: 1}, swap=False).swap is False
    assert Ruleset.custom({S: 1}).swap is False


def test_custom_has_the_documented_defaults() -> None:
    """Custom's defaults: 2 to 6 players, bonus tiles on, the name "custom"."""
    ruleset = Ruleset.custom({S: 2, L: 3})
    assert ruleset.min_players == 2
    assert ruleset.max_players == 6
    assert ruleset.bonus_tiles is True
    assert ruleset.name == "custom"
    assert ruleset.counts == (0, 2, 0, 0, 0, 0, 3, 0)
    # The default tile values are not pinned here (R2 sets them); only that animals out of play have none.
    assert all(ruleset.bonus_values[a] == 0 for a in ANIMALS if a not in (S, L))
    assert all(ruleset.bonus_values[a] >= 1 for a in (S, L))


def test_the_preset_names_are_the_four_presets_in_order() -> None:
    """Preset_names lists every preset, in the order the CLI shows them."""
    assert Ruleset.preset_names() == ("standard", "younger", "little-children", "little-children-no-kangaroo")


@pytest.mark.parametrize(
    ("build", "reason"),
    [
        pytest.param(
            lambda: Ruleset.custom({S: 2}, swap=True),
            "a swap without a monkey: the swap needs monkeys in play",
            id="swap-without-monkey",
        ),
        pytest.param(
            lambda: Ruleset.preset("chess"),
            "no preset named 'chess'; the presets are standard, younger, little-children, little-children-no-kangaroo",
            id="unknown-preset",
        ),
        pytest.param(
            lambda: Ruleset.custom({S: 1}, bonus_values={S: 0}),
            "Seal is in play, so its bonus value must be 1 or more",
            id="value-zero",
        ),
        pytest.param(
            lambda: Ruleset.custom({}), "no animals: at least one animal needs a count of 1 or more", id="empty"
        ),
    ],
)
def test_a_ruleset_error_says_exactly_what_is_wrong(build: Any, reason: str) -> None:
    """The whole reason, word for word (a match= on part of it lets a reworded message through)."""
    with pytest.raises(InvalidRulesetError) as caught:
        build()
    assert caught.value.reason == reason
    assert str(caught.value) == reason


# --- survivors of the mutation run: whole reasons, word for word ---------------------------------------

TURN_RULES = Ruleset.custom({E: 2, S: 2, M: 2})
OVER: GameState = play_game([RandomBot(), RandomBot()], seed=1).state


def _turn_state(
    phase: Phase, front: tuple[Animal, ...], claimable: Animal | None, swap_open: bool, *, bag: bool
) -> Any:
    """Build (and so check) a 2-seat state of TURN_RULES with this turn; seat 1's stack takes what is left."""
    bag_counts = [0] * len(ANIMALS)
    if bag:
        bag_counts[S] = 1
    left = [TURN_RULES.counts[a] - front.count(a) - bag_counts[a] for a in ANIMALS]
    stack = tuple(a for a in ANIMALS for _ in range(left[a]))
    return GameState(TURN_RULES, 0, phase, tuple(bag_counts), ((), stack), front, claimable, swap_open)


@pytest.mark.parametrize(
    ("turn", "reason"),
    [
        pytest.param((Phase.CHANCE, (), None, False, False), "a draw is pending but the bag is empty", id="chance"),
        pytest.param(
            (Phase.DECIDE, (), None, False, True),
            "deciding with no token in front: every decision follows a draw",
            id="decide-empty",
        ),
        pytest.param(
            (Phase.DECIDE, (E,), M, False, True),
            "claims follow Monkey, but no Monkey is in front",
            id="claimable-not-in-front",
        ),
        pytest.param(
            (Phase.DECIDE, (E, S), E, False, True),
            "R7: claims follow the animal drawn last, and Elephant was not: "
            "the front (Elephant, Seal) would have bust or ends with another animal",
            id="r7",
        ),
        pytest.param(
            (Phase.DECIDE, (M, E), None, False, True),
            "R12: no claims are open only after a swap, which leaves no monkey in front",
            id="r12",
        ),
        pytest.param(
            (Phase.DECIDE, (E,), E, True, True),
            "a swap is open only right after a monkey was drawn under rules with the swap",
            id="swap-without-monkey",
        ),
        pytest.param(
            (Phase.DECIDE, (E, M), M, False, True),
            "R11: a monkey was just drawn and none claimed, so the swap must be open",
            id="r11",
        ),
        pytest.param(
            (Phase.PLACING, (E, E), None, False, True),
            "placing needs two or more different animals in front; fewer are stacked at once",
            id="placing",
        ),
        pytest.param(
            (Phase.OVER, (E,), None, False, False),
            "the game is over only when the bag and the front are empty (R15)",
            id="over",
        ),
        pytest.param(
            (Phase.CHANCE, (E,), E, False, True),
            "claims and swaps are open only while deciding, not in phase CHANCE",
            id="claims-at-chance",
        ),
    ],
)
def test_each_broken_turn_is_refused_with_its_whole_reason(turn: Any, reason: str) -> None:
    """Every check of the turn raises InvalidStateError with exactly its reason."""
    phase, front, claimable, swap_open, bag = turn
    with pytest.raises(InvalidStateError) as caught:
        _turn_state(phase, front, claimable, swap_open, bag=bag)
    assert caught.value.reason == reason
    assert str(caught.value) == reason


def _swapped() -> Any:
    # Seat 0 stacked a Seal; seat 1 drew a Monkey and swapped it for the Seal: no claims are open.
    return apply_all(new_game(2), [Reveal(S), Stop(), Reveal(M), Swap(0)])


@pytest.mark.parametrize(
    ("state", "action", "reason"),
    [
        pytest.param(
            lambda: apply_all(new_game(2), [Reveal(E), Draw(), Reveal(S), Stop()]),
            Draw(),
            "R9: you are stopping: put the tokens in front of you on your stack",
            id="placing",
        ),
        pytest.param(
            lambda: DECIDING,
            Place(L),
            "R8: the draw has been revealed: claim, swap, draw again, stop or secure a herd",
            id="decide",
        ),
        pytest.param(lambda: DECIDING, Reveal(L), "R5: not a chance node: a Reveal only resolves a draw", id="reveal"),
        pytest.param(_swapped, Claim(0), "R7, R12: nothing can be claimed now (a swap opens no claims)", id="claim"),
        pytest.param(
            lambda: DECIDING,
            Swap(1),
            "R11, R12: a swap is open only right after drawing a monkey, before any claim",
            id="swap",
        ),
        pytest.param(
            lambda: DECIDING, Herd(), "R10: a herd needs every token in front of you to show the same animal", id="herd"
        ),
        pytest.param(lambda: OVER, Draw(), "R15: the game is over", id="over"),
    ],
)
def test_each_illegal_action_gives_its_whole_reason(state: Any, action: Any, reason: str) -> None:
    """The reason of each refusal, word for word."""
    error = _caught(lambda: apply(state(), action))
    assert error.reason == reason
    assert error.action == action


def test_the_chance_functions_name_the_phase_when_no_draw_is_pending() -> None:
    """Chance_outcomes and sample_chance refuse a decision with a message naming its phase."""
    for call in (lambda: chance_outcomes(DECIDING), lambda: sample_chance(DECIDING, random.Random(1))):
        with pytest.raises(NotAChanceNodeError) as caught:
            call()
        assert str(caught.value) == "no draw is pending in phase DECIDE"


def test_current_player_is_the_seat_only_while_deciding_or_placing() -> None:
    """None at a chance node and after the end, the seat otherwise."""
    assert current_player(new_game(2, first_player=1)) is None
    assert current_player(DECIDING) == 0
    placing = apply(DECIDING, Stop())
    assert placing.phase is Phase.PLACING
    assert current_player(placing) == 0
    assert current_player(OVER) is None


def test_stop_in_order_keeps_a_non_iterable_order_as_given() -> None:
    """The error carries the very object passed as the order."""
    error = _caught(lambda: _stop(DECIDING, 5))
    assert error.action == 5
    assert error.reason == "R9: the order must be a sequence of animals, got 5"


def test_score_counts_of_no_seats_says_so_exactly() -> None:
    """The whole reason."""
    with pytest.raises(InvalidStateError) as caught:
        score_counts([], Ruleset.standard())
    assert caught.value.reason == "there are no seats to score"


@pytest.mark.parametrize("bot", [HeuristicBot, RandomBot, ExpectimaxBot])
def test_a_bot_class_instead_of_an_instance_is_refused_saying_what_to_pass(bot: type) -> None:
    """play_game([HeuristicBot, ...]) names the class and asks for an instance, before any move."""
    with pytest.raises(InvalidGameError, match=rf"seat 1's bot is the class {bot.__name__}.*pass an instance"):
        play_game([RandomBot(), bot])  # type: ignore[list-item]
    with pytest.raises(InvalidGameError, match="has no choose"):
        play_game([RandomBot(), "heuristic"])  # type: ignore[list-item]


def test_seat_errors_quote_the_seats_the_game_has() -> None:
    """A claim, swap, view or first player outside the game names this game's seats, not 0 to 15."""
    state = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.MONKEY)])
    for action in (Claim(3), Swap(7), Claim(40)):
        with pytest.raises(ValueError, match=r"this game's seats are 0 to 2"):
            apply(state, action)
    with pytest.raises(InvalidValueError, match="one of the 3 seats"):
        view(state, 5)
    with pytest.raises(InvalidGameError, match="seats 0 to 2"):
        new_game(3, first_player=3)


# --- both games: every engine function, given what is not a state of its game, or a broken rng --------------
# E9 and TME8: misuse gets the library's typed error, never an AttributeError or TypeError from inside, and
# never an answer: another game's state, or a table view, is not a state either. These run in the compiled
# build as in pure Python (benchmarks/compiled.sh test), where the twins of _compiled.entry_points answer.


def _states_by_phase(game: Any, players: int, seeds: int) -> dict[Any, Any]:
    """One state of every phase ``game`` reaches in seeded games of uniform choices."""
    found: dict[Any, Any] = {}
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.new_game(players)
        while True:
            found.setdefault(state.phase, state)
            if game.is_terminal(state):
                break
            if game.is_chance_node(state):
                state = game.apply(state, game.sample_chance(state, rng))
            else:
                legal = game.legal_actions(state)
                state = game.apply(state, legal[rng.randrange(len(legal))])
    return found


CM_PHASES: dict[Any, Any] = _states_by_phase(cheekymonkey, 3, 3)
TM_PHASES: dict[Any, Any] = _states_by_phase(toomany, 3, 40)
GAMES: dict[str, tuple[Any, Any, dict[Any, Any], str]] = {
    # name: (the game's package, its engine module, a state of each phase, what its states are called)
    "cheeky-monkey": (cheekymonkey, cheekymonkey.cheeky.engine, CM_PHASES, "Cheeky Monkey GameState"),
    "too-many-monkeys": (toomany, toomany.engine, TM_PHASES, "Too Many Monkeys GameState"),
}
_OTHER: Final = {"cheeky-monkey": "too-many-monkeys", "too-many-monkeys": "cheeky-monkey"}


def _calls(game: Any, engine: Any) -> dict[str, Any]:
    """How to call each engine function that takes a state, with arguments that are right but for the state."""
    reveal = engine.legal_actions(game.new_game(2))[0]
    calls: dict[str, Any] = {
        "apply": lambda f, s: f(s, reveal),
        "apply_all": lambda f, s: f(s, [reveal]),
        "apply_with_events": lambda f, s: f(s, reveal),
        "illegal_reason": lambda f, s: f(s, reveal),
        # A fresh rng each call: two calls given the same state draw the same.
        "sample_chance": lambda f, s: f(s, random.Random(3)),
        "resolve_chance": lambda f, s: f(s, random.Random(3)),
        "stop_in_order": lambda f, s: f(s, []),
    }
    for name in engine.__all__:
        calls.setdefault(name, lambda f, s: f(s))
    return calls


def _not_states(name: str) -> list[tuple[str, Any]]:
    """What is not a state of game ``name``: plain values, the other game's states, and this game's views."""
    package, _, phases, _ = GAMES[name]
    values: list[tuple[str, Any]] = [
        ("None", None),
        ("a string", "state"),
        ("an object", object()),
        ("an int", 1),
        ("a list", [1, 2]),
        ("a dict", {"phase": None}),
    ]
    values += [(f"the other game's {phase.name} state", s) for phase, s in GAMES[_OTHER[name]][2].items()]
    for phase, state in phases.items():
        values += [(f"a view at {phase.name}", package.view(state, seat)) for seat in (None, 0)]
    return values


_MISUSES: Final = [
    pytest.param(game, function, label, value, id=f"{game}-{function}-{label}")
    for game in GAMES
    for function in GAMES[game][1].__all__
    if "state" in inspect.signature(getattr(GAMES[game][1], function)).parameters
    for label, value in _not_states(game)
]


@pytest.mark.parametrize(("game", "function", "label", "value"), _MISUSES)
def test_every_engine_function_refuses_what_is_not_a_state_of_its_game_with_a_typed_error(
    game: str, function: str, label: str, value: object
) -> None:
    """E9, TME8: each public engine function that takes a state raises the typed error, naming what it got."""
    _, engine, _, called = GAMES[game]
    call = _calls(GAMES[game][0], engine)[function]
    # apply and the functions that act refuse with IllegalActionError (E9, TME8); the questions with
    # InvalidStateError. Both are the library's errors, and neither is raised from deep inside.
    acting = function in ("apply", "apply_all", "apply_with_events", "claim_all", "stop_in_order")
    with pytest.raises(IllegalActionError if acting else InvalidStateError) as caught:
        call(getattr(engine, function), value)
    assert isinstance(caught.value, CheekyMonkeyError)
    # Not shown chained on an AttributeError from inside: raised directly, or with the context suppressed.
    assert caught.value.__cause__ is None
    assert caught.value.__context__ is None or caught.value.__suppress_context__
    message = str(caught.value)
    assert "GameState" in message
    clause = "E9" if game == "cheeky-monkey" else "TME8"
    other = GAMES[_OTHER[game]][3].removesuffix(" GameState")
    if value.__class__ is GAMES[_OTHER[game]][0].GameState:
        # The other game's state: named by its game, in a sentence, never dumped whole.
        this = called.removesuffix(" GameState")
        said = f"this is a {other} GameState, not a {this} one: play it with the {other} engine"
        reason = caught.value.reason if acting else message  # type: ignore[attr-defined]
        assert reason.endswith(said), reason
        assert len(reason) < 150, reason
        if acting:
            assert caught.value.state is value  # type: ignore[attr-defined]
        return
    assert "is not a" in message
    if not acting:
        # The whole message: the clause, the value given (shown short), and what it should have been.
        clause = "E9" if game == "cheeky-monkey" else "TME8"
        assert message == f"{clause}: {reprlib.repr(value)} is not a {called}"
    else:
        # The error carries the very value given as the state (and, but for claim_all's name, the action).
        error: IllegalActionError = caught.value  # type: ignore[assignment]
        assert error.state is value
        shown = reprlib.repr(value)
        assert error.reason.endswith(f"{shown} is not a {'GameState' if game == 'cheeky-monkey' else called}")
        given = {"apply": _REVEALS[game], "apply_with_events": _REVEALS[game], "apply_all": [_REVEALS[game]]}
        if function in given:
            assert error.action == given[function]


_REVEALS: Final = {name: GAMES[name][0].legal_actions(GAMES[name][0].new_game(2))[0] for name in GAMES}
"""The action _calls gives the functions that act: each game's first legal action of a new game."""


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("thing", [None, "draw", 3, object()], ids=["None", "text", "int", "object"])
def test_apply_of_what_is_not_an_action_carries_the_state_and_the_thing_given(game: str, thing: object) -> None:
    """E9, TME8: the error's state is the state given, its action the very thing given, its reason says so."""
    package, engine, _, _ = GAMES[game]
    state = package.new_game(2)
    for function in (engine.apply, package.apply_with_events):
        with pytest.raises(IllegalActionError) as caught:
            function(state, thing)
        assert caught.value.state is state
        assert caught.value.action is thing
        words = "an action" if game == "cheeky-monkey" else "an action of Too Many Monkeys"
        assert caught.value.reason.endswith(f"{thing!r} is not {words}")


@pytest.mark.parametrize("game", GAMES)
def test_the_misuse_table_covers_every_engine_function_that_takes_a_state(game: str) -> None:
    """Each name the engine exports with a state parameter is in the table above; a new one cannot be missed."""
    engine = GAMES[game][1]
    taking = {name for name in engine.__all__ if "state" in inspect.signature(getattr(engine, name)).parameters}
    assert {function for g, function, *_ in (p.values for p in _MISUSES) if g == game} == taking
    assert len(taking) >= 11


@pytest.mark.parametrize("game", GAMES)
def test_each_compiled_twin_refuses_a_non_state_and_answers_a_state_as_its_function(game: str) -> None:
    """The twins that a caller from Python meets compiled, called here directly: the same answers, the same errors.

    In pure Python they are not bound to the public names, so they are called through the engine's table.
    """
    package, engine, phases, _ = GAMES[game]
    calls = _calls(package, engine)
    twins: dict[str, Any] = engine._TWINS
    typed = {name for name in engine.__all__ if _first_parameter(getattr(engine, name)) == "GameState"}
    assert typed <= set(twins), "a public function whose state is typed GameState has no compiled twin"
    for name, twin in twins.items():
        function, call = getattr(engine, name), calls[name]
        for state in phases.values():
            assert _shown(call, twin, state) == _shown(call, function, state)
        for _, value in _not_states(game):
            expected = _outcome(call, function, value)
            assert isinstance(expected, CheekyMonkeyError)
            assert _shown(call, twin, value) == _shown(call, function, value)


def _first_parameter(function: Any) -> str:
    annotation = next(iter(inspect.signature(function).parameters.values())).annotation
    return str(annotation)


def _outcome(call: Any, function: Any, value: object) -> Any:
    """What ``call(function, value)`` returns, or the library error it raises."""
    try:
        return call(function, value)
    except CheekyMonkeyError as error:
        return error


def _shown(call: Any, function: Any, value: object) -> object:
    """What a call returns, or the type and message of the library error it raises (errors are not values)."""
    result = _outcome(call, function, value)
    return (type(result), str(result)) if isinstance(result, CheekyMonkeyError) else result


class _Pick:
    """An rng whose randrange gives ``value``, whatever it is asked."""

    def __init__(self, value: object) -> None:
        self.value = value

    def randrange(self, n: int) -> object:
        return self.value


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("function", ["sample_chance", "resolve_chance"])
@pytest.mark.parametrize(
    ("rng", "shown"),
    [
        pytest.param(None, "None", id="None"),
        pytest.param("seed", "'seed'", id="string"),
        pytest.param(7, "7", id="int"),
        pytest.param(object, "<class 'object'>", id="a-class"),
    ],
)
def test_sampling_with_something_that_is_no_rng_gives_a_typed_error(
    game: str, function: str, rng: object, shown: str
) -> None:
    """E9, TME8: an rng without randrange is refused with InvalidValueError, saying what was given."""
    package, engine, _, _ = GAMES[game]
    clause = "E9" if game == "cheeky-monkey" else "TME8"
    with pytest.raises(InvalidValueError) as caught:
        getattr(engine, function)(package.new_game(2), rng)
    assert str(caught.value) == f"{clause}: rng must be a random.Random (or have its randrange), got {shown}"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("function", ["sample_chance", "resolve_chance"])
@pytest.mark.parametrize("drawn", [-1, "size", 0.5, "0", None], ids=["minus-one", "size", "half", "text", "None"])
def test_an_rng_whose_randrange_leaves_the_range_is_refused_not_followed(game: str, function: str, drawn: Any) -> None:
    """E9, TME8: randrange(n) must give an integer from 0 to n - 1; anything else is refused, naming it."""
    package, engine, _, _ = GAMES[game]
    state = package.new_game(2)
    size = sum(engine.chance_pool(state)) if game == "too-many-monkeys" else sum(state.bag)
    value = size if drawn == "size" else drawn
    clause = "E9" if game == "cheeky-monkey" else "TME8"
    with pytest.raises(InvalidValueError) as caught:
        getattr(engine, function)(state, _Pick(value))
    assert str(caught.value) == (f"{clause}: rng.randrange({size}) gave {value!r}, not an integer from 0 to {size - 1}")


@pytest.mark.parametrize("game", GAMES)
def test_an_rng_with_a_randrange_of_its_own_is_used_at_both_ends_of_its_range(game: str) -> None:
    """Any object with a randrange will do: 0 draws the first card or token in order, n - 1 the last."""
    package, engine, _, _ = GAMES[game]
    state = package.new_game(2)
    outcomes = [action for action, _ in engine.chance_outcomes(state)]
    size = sum(engine.chance_pool(state)) if game == "too-many-monkeys" else sum(state.bag)
    assert engine.sample_chance(state, _Pick(0)) == outcomes[0]
    assert engine.sample_chance(state, _Pick(size - 1)) == outcomes[-1]
    assert engine.resolve_chance(state, _Pick(size - 1)) == engine.apply(state, outcomes[-1])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("actions", [None, 3, object()], ids=["None", "int", "object"])
def test_apply_all_of_actions_that_cannot_be_iterated_is_refused(game: str, actions: object) -> None:
    """E9, TME8: the error carries the state and what was given as the actions."""
    package, engine, _, _ = GAMES[game]
    state = package.new_game(2)
    with pytest.raises(IllegalActionError) as caught:
        engine.apply_all(state, actions)
    assert caught.value.state is state
    assert caught.value.action is actions
    clause = "E9" if game == "cheeky-monkey" else "TME8"
    assert caught.value.reason == f"{clause}: the actions must be an iterable of actions, got {reprlib.repr(actions)}"


@pytest.mark.parametrize("game", GAMES)
def test_apply_all_refuses_a_non_state_even_with_no_action_to_apply(game: str) -> None:
    """An empty list of actions does not let a non-state through as the result."""
    engine = GAMES[game][1]
    with pytest.raises(IllegalActionError, match="None is not a"):
        engine.apply_all(None, [])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("value", "shown", "missing"),
    [
        pytest.param(object(), "<object objec...", "ruleset", id="object"),
        pytest.param(None, "None", "ruleset", id="None"),
        pytest.param("state", "'state'", "ruleset", id="string"),
    ],
)
def test_check_state_of_what_is_not_a_state_says_which_field_it_lacks(
    game: str, value: object, shown: str, missing: str
) -> None:
    """E9, TME8: check_state refuses an object without a state's fields with InvalidStateError, not AttributeError."""
    state_module = cheekymonkey.cheeky.state if game == "cheeky-monkey" else toomany.state
    _, _, _, called = GAMES[game]
    clause = "E9" if game == "cheeky-monkey" else "TME8"
    with pytest.raises(InvalidStateError) as caught:
        state_module.check_state(value)
    assert caught.value.reason.startswith(f"{clause}: {shown}")
    assert caught.value.reason.endswith(f"is not a {called}: it has no {missing}")


def test_check_state_of_the_other_game_s_state_names_the_first_field_it_lacks() -> None:
    """A Too Many Monkeys state has no bag; a Cheeky Monkey state has no round."""
    with pytest.raises(InvalidStateError, match=r"is not a Cheeky Monkey GameState: it has no bag$"):
        cheekymonkey.cheeky.state.check_state(toomany.new_game(2))
    with pytest.raises(InvalidStateError, match=r"is not a Too Many Monkeys GameState: it has no round$"):
        toomany.state.check_state(cheekymonkey.new_game(2))


@pytest.mark.parametrize("game", GAMES)
def test_a_huge_value_given_as_a_state_is_shown_short(game: str) -> None:
    """The message of a question asked of a million-item list stays short."""
    engine = GAMES[game][1]
    with pytest.raises(InvalidStateError) as caught:
        engine.legal_actions(list(range(1_000_000)))
    assert len(str(caught.value)) < 120
