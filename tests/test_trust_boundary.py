"""A seat plays only its own decisions: ``Table.play_as`` and ``play_text_as``, in every game, and over HTTP.

A person's move never settles a draw (chance outcomes come from the table's seeded stream) and never plays
another seat's turn. The property test runs over every registered game, from random reachable states, with
hostile texts and documents built from the game itself: a chance outcome's text, another seat's action, or
the seat's own move followed by either. Each is refused whole, with nothing changed; every one of the seat's
own decisions, alone or several in one text, is played exactly as ``play`` would play it.
"""

from __future__ import annotations

import asyncio
import importlib.util
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cheekymonkey.cli.play import PROMPT
from cheekymonkey.errors import (
    ActionTextError,
    CheekyMonkeyError,
    IllegalActionError,
    InvalidValueError,
    NotYourDecisionError,
)
from cheekymonkey.games import GAME_NAMES, AnyGame, game_named
from cheekymonkey.table import Seat, Table, past_limits
from tests.test_cli_usability import ROOT, _env

AnyTable = Table[Any, Any, Any, Any, Any]

# How texts of several actions are joined: the notations' separators (Too Many Monkeys reads "," and ";",
# Cheeky Monkey's stacking reads runs of letters, spaces and commas). A join a notation does not read is
# refused as unreadable, which is fine: what matters is that no join gets a hostile action played.
JOINS = ("; ", ";", ", ", " ", "")

HAS_DOCUMENTS = importlib.util.find_spec("jsonschema") is not None


def _people(game: AnyGame, players: int, seed: int, max_steps: int | None = None) -> AnyTable:
    seats = [Seat.person(f"P{seat}") for seat in range(players)]
    return Table(game, seats, seed=seed, max_steps=max_steps)


def _playout(table: AnyTable, rng: random.Random, length: int) -> None:
    """Up to ``length`` random steps: chance from the table's stream, each decision a random legal action."""
    for _ in range(length):
        if table.finished:
            return
        if table.to_move is None:
            table.step()
        else:
            table.play(rng.choice(table.legal_actions()))


def _held(table: AnyTable) -> tuple[Any, ...]:
    """Everything a refused move must leave as it was."""
    return (table.state, table.actions, table.events, table.truncated, table.turns, table.record(), len(table.history))


def _own_decisions(table: AnyTable, seat: int, actions: tuple[Any, ...]) -> bool:
    """Whether every one of ``actions``, played in order from now, is ``seat``'s own decision where it falls.

    The test's own walk over the engine's states: no chance node, no other seat, no end of the game and no
    table limit before any of them.
    """
    game = table.game
    state, turns, count = table.state, table.turns, len(table.actions)
    for action in actions:
        if game.is_terminal(state) or game.is_chance_node(state) or game.to_move(state) != seat:
            return False
        if past_limits(turns, count, table.max_turns, table.max_steps):
            return False
        state = game.apply(state, action)
        count += 1
        turns += 1 if game.begins_turn(state) else 0
    return True


def _check_text(table: AnyTable, seat: int, text: str) -> bool:
    """Offer ``text`` for ``seat``: accepted exactly when it names only the seat's own decisions.

    Accepted, it plays what ``play_text`` plays (same actions, states and events), each step the seat's;
    refused, it changes nothing. The table is left as it was found either way. Returns whether it was accepted.
    """
    before = _held(table)
    try:
        parsed: tuple[Any, ...] | None = table.game.parse_actions(text, table.state)
    except CheekyMonkeyError:
        parsed = None
    own = parsed is not None and not table.finished and _own_decisions(table, seat, parsed)
    try:
        steps = table.play_text_as(seat, text)
    except (NotYourDecisionError, ActionTextError, IllegalActionError) as error:
        refusal = str(error)
        assert _held(table) == before, text
        assert not own, f"{text!r}, the seat's own decisions {parsed}, was refused: {refusal}"
        return False
    assert own, f"{text!r} was played for seat {seat}: {[(step.seat, step.action) for step in steps]}"
    assert [step.seat for step in steps] == [seat] * len(steps)
    assert tuple(step.action for step in steps) == parsed
    got = [(step.action, step.after, step.events) for step in steps]
    table.undo(len(steps))
    assert _held(table) == before
    reference = table.play_text(text)
    assert [(step.action, step.after, step.events) for step in reference] == got
    table.undo(len(reference))
    return True


def _check_action(table: AnyTable, seat: int, action: Any) -> bool:
    """Offer one action (or its document, read back) for ``seat``: as :func:`_check_text`, for ``play_as``."""
    before = _held(table)
    own = action in table.legal_actions() and _own_decisions(table, seat, (action,))
    candidates = [action]
    if HAS_DOCUMENTS:
        documents = table.game.documents()
        candidates.append(documents.from_document(documents.to_document(action), "action"))
    for candidate in candidates:
        try:
            step = table.play_as(seat, candidate)
        except IllegalActionError as error:
            refusal = str(error)
            assert _held(table) == before
            assert not own, f"{action!r}, seat {seat}'s own decision, was refused: {refusal}"
            continue
        assert own, f"{action!r} was played for seat {seat} (the table waited for {table.waiting.value})"
        assert step.seat == seat
        got = (step.action, step.after, step.events)
        table.undo()
        assert table.play(action).after == got[1]
        table.undo()
        assert _held(table) == before
    return own


def _texts(game: AnyGame, state: Any, actions: list[Any]) -> list[str]:
    """Every join of the actions' texts, each text written in the state it is played in."""
    words = []
    for action in actions:
        words.append(game.action_text(action, state))
        state = game.apply(state, action)
    return [join.join(words) for join in JOINS] if len(words) > 1 else words


def _hostile_and_own(table: AnyTable, rng: random.Random, width: int) -> Iterator[tuple[int, list[Any], list[str]]]:
    """Actions from now, each offered for a seat as a document (one action) and as texts.

    Yields (seat, actions, texts): every seat with a chance outcome or the mover's action; the mover with
    each of its legal actions followed by what comes next (a chance outcome, another seat's action, or its
    own next decision), with the next draw's outcome alone, and with longer random runs through whatever
    follows.
    """
    game, state, players = table.game, table.state, table.players
    if table.finished:
        return
    if game.is_chance_node(state):
        outcomes = [outcome for outcome, _ in game.chance_outcomes(state)]
        for outcome in rng.sample(outcomes, min(width, len(outcomes))):
            for seat in range(players):
                yield seat, [outcome], _texts(game, state, [outcome])
        return
    mover = game.to_move(state)
    assert mover is not None
    legal = list(game.legal_actions(state))
    for action in legal:
        for seat in range(players):
            yield seat, [action], _texts(game, state, [action])
    for action in rng.sample(legal, min(width, len(legal))):
        after = game.apply(state, action)
        if game.is_terminal(after):
            continue
        following = (
            [outcome for outcome, _ in game.chance_outcomes(after)]
            if game.is_chance_node(after)
            else list(game.legal_actions(after))
        )
        for then in rng.sample(following, min(width, len(following))):
            yield mover, [action, then], _texts(game, state, [action, then])
            if game.is_chance_node(after):  # the draw's outcome alone, named by the seat to move
                yield mover, [then], _texts(game, after, [then])
    for _ in range(width):  # runs of the mover's own decisions, as far as they go (Cheeky Monkey's "lsm")
        run: list[Any] = []
        now = state
        while len(run) < 4 and not game.is_terminal(now) and not game.is_chance_node(now):
            if game.to_move(now) != mover:
                break
            run.append(rng.choice(list(game.legal_actions(now))))
            now = game.apply(now, run[-1])
        yield mover, run, _texts(game, state, run)
    for _ in range(width):  # longer runs, as "d; g; d; n; g": the mover's move, then anything that follows
        run = []
        now = state
        for _ in range(rng.randint(2, 5)):
            if game.is_terminal(now):
                break
            if game.is_chance_node(now):
                step = game.sample_chance(now, rng)
            else:
                step = rng.choice(list(game.legal_actions(now)))
            run.append(step)
            now = game.apply(now, step)
        yield mover, run, _texts(game, state, run)


@given(
    name=st.sampled_from(GAME_NAMES),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    length=st.integers(0, 200),
    limit=st.sampled_from([None, None, 1, 2, 3]),
    at_chance=st.sampled_from([False, False, False, True]),
)
def test_a_seat_plays_only_its_own_decisions_in_every_game(
    name: str, players: int, seed: int, length: int, limit: int | None, at_chance: bool
) -> None:
    """From a random reachable state of each game, every text or document is played only if it is the seat's.

    A chance outcome, another seat's action, or the seat's own move run on into a draw, another seat's turn
    or past the table's step limit, is refused with nothing changed; each of the seat's own decisions, and
    each text of several of them, is accepted and plays what ``play`` plays.
    """
    game = game_named(name)
    low, high = game.seat_range()
    players = min(max(players, low), high)
    rng = random.Random(seed)
    table = _people(game, players, seed)
    _playout(table, rng, length)
    if not at_chance:
        table.advance()  # mostly from a seat's decision: chance is settled by the table's stream
    if limit is not None and not table.finished:  # a step limit a few actions ahead: texts must stop short of it
        table = Table(game, table.seats, seed=seed, max_steps=limit, start=table.state)
    accepted = refused = 0
    for seat, actions, texts in _hostile_and_own(table, rng, width=6):
        if len(actions) == 1:
            accepted += _check_action(table, seat, actions[0])
        for text in texts:
            if _check_text(table, seat, text):
                accepted += 1
            else:
                refused += 1
    if table.to_move is not None:  # each legal decision of the mover, alone, was played
        assert accepted >= 2 * len(table.legal_actions())
    if not table.finished:
        assert refused > 0


def _tmm_at_a_draw(players: int = 3) -> tuple[AnyTable, int]:
    game = game_named("too-many-monkeys")
    for seed in range(100):
        table = _people(game, players, seed)
        table.advance()
        texts = [game.action_text(action, table.state) for action in table.legal_actions()]
        if "d" in texts and table.to_move is not None:
            return table, table.to_move
    raise AssertionError("no seed under 100 starts with a draw")  # pragma: no cover


ISSUE_TEXTS = ["d; g", "d, e", "d; 1", "d;w", "d; g; d; n; g", "d; g; e"]


@pytest.mark.parametrize("text", ISSUE_TEXTS)
def test_a_draw_followed_by_the_card_it_should_turn_up_is_refused_in_the_players_words(text: str) -> None:
    """Too Many Monkeys: ``"d; g"`` names the card the draw turns up, which the pile decides: refused whole."""
    table, seat = _tmm_at_a_draw()
    before = _held(table)
    with pytest.raises(NotYourDecisionError) as refused:
        table.play_text_as(seat, text)
    assert refused.value.reason == (
        "the turn passes to chance after 'd': type only 'd' (what is drawn is the table's to settle, never a player's)"
    )
    assert refused.value.seat == seat
    assert _held(table) == before
    [step] = table.play_text_as(seat, "d")
    assert step.seat == seat
    assert table.to_move is None  # the draw waits for the table's stream


def test_another_seats_turn_and_chance_are_refused_with_whose_it_is() -> None:
    """Seat 1 typing at seat 0's turn, or anybody typing while a card is to be drawn, is refused."""
    table, seat = _tmm_at_a_draw()
    other = (seat + 1) % table.players
    with pytest.raises(NotYourDecisionError, match=rf"it is seat {seat}'s move, not seat {other}'s"):
        table.play_text_as(other, "d")
    table.play_text_as(seat, "d")
    outcome = table.game.chance_outcomes(table.state)[0][0]
    for anybody in range(table.players):
        with pytest.raises(NotYourDecisionError, match="chance acts now: the table draws"):
            table.play_as(anybody, outcome)
        with pytest.raises(NotYourDecisionError, match="chance acts now"):
            table.play_text_as(anybody, table.game.action_text(outcome, table.state))
    assert table.to_move is None


def test_a_text_that_runs_into_the_next_seats_turn_is_refused() -> None:
    """Too Many Monkeys: a move that hands the turn on, then the next seat's move, is refused whole."""
    game = game_named("too-many-monkeys")
    for seed in range(50):
        table = _people(game, 2, seed)
        rng = random.Random(seed)
        while not table.finished:
            if table.to_move is None:
                table.step()
                continue
            seat = table.to_move
            for action in table.legal_actions():
                after = game.apply(table.state, action)
                if game.is_terminal(after) or game.is_chance_node(after) or game.to_move(after) == seat:
                    continue
                first = game.action_text(action, table.state)
                text = f"{first}; {game.action_text(game.legal_actions(after)[0], after)}"
                before = _held(table)
                with pytest.raises(NotYourDecisionError) as refused:
                    table.play_text_as(seat, text)
                assert refused.value.reason == (
                    f"the turn passes to seat {1 - seat} after {first!r}: type only {first!r} "
                    f"(what seat {1 - seat} does is theirs to choose)"
                )
                assert _held(table) == before
                assert [step.seat for step in table.play_text_as(seat, first)] == [seat]
                return
            table.play(rng.choice(table.legal_actions()))
    raise AssertionError("no game of 50 has a move that hands the turn on directly")  # pragma: no cover


def _cheeky_stacking_three_kinds() -> tuple[AnyTable, int]:
    """A Cheeky Monkey table where the seat to move has stopped with three kinds of animal in front."""
    game = game_named("cheeky-monkey")
    for seed in range(100):
        table = _people(game, 2, seed)
        table.advance()
        seat = table.to_move
        assert seat is not None
        while table.to_move == seat and len(set(table.state.front)) < 3 and "d" in _legal_texts(table):
            table.play_text_as(seat, "d")
            table.advance()
        if table.to_move != seat or len(set(table.state.front)) < 3 or "s" not in _legal_texts(table):
            continue  # busted, or out of draws: try another seed
        table.play_text_as(seat, "s")
        return table, seat
    raise AssertionError("no seed under 100 stops with three kinds of animal in front")  # pragma: no cover


def _legal_texts(table: AnyTable) -> list[str]:
    return [table.game.action_text(action, table.state) for action in table.legal_actions()]


def test_cheeky_monkeys_stacking_text_of_several_animals_is_the_seats_own() -> None:
    """Cheeky Monkey: after a stop, ``"ls"`` puts two animals on the stack, all one seat's Place decisions."""
    table, seat = _cheeky_stacking_three_kinds()
    front = _legal_texts(table)
    text = "".join(front[:2])
    before = _held(table)
    steps = table.play_text_as(seat, text)
    assert [step.seat for step in steps] == [seat, seat]
    assert [table.game.action_text(step.action, step.before) for step in steps] == front[:2]
    table.undo(2)
    assert _held(table) == before
    assert [step.action for step in table.play_text(text)] == [step.action for step in steps]


def test_a_text_that_runs_past_the_tables_step_limit_is_refused() -> None:
    """A text of two decisions when the table stops after one is refused whole, naming the limit."""
    table, seat = _cheeky_stacking_three_kinds()
    front = _legal_texts(table)
    limited = Table(table.game, table.seats, max_steps=1, start=table.state)
    text = "".join(front[:2])
    with pytest.raises(NotYourDecisionError) as refused:
        limited.play_text_as(seat, text)
    assert refused.value.reason == f"the table's limit stops the game after {front[0]!r}: type only {front[0]!r}"
    assert (limited.actions, limited.truncated) == ((), False)
    assert [step.seat for step in limited.play_text_as(seat, front[0])] == [seat]
    assert limited.truncated


@pytest.mark.parametrize("seat", [True, False, 1.0, "0", None, -1, 3, 2**70])
def test_a_seat_that_is_not_a_seat_number_is_refused_with_a_typed_error(seat: object) -> None:
    """Not an int (a bool included), or out of range: InvalidValueError, nothing played."""
    table, _ = _tmm_at_a_draw()
    before = _held(table)
    with pytest.raises(InvalidValueError, match="seat must be a seat number from 0 to 2"):
        table.play_text_as(seat, "d")  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="seat must be a seat number from 0 to 2"):
        table.play_as(seat, table.legal_actions()[0])  # type: ignore[arg-type]
    assert _held(table) == before


@pytest.mark.parametrize("text", [None, b"d", 1, ["d"]])
def test_a_text_that_is_not_a_string_is_refused_with_a_typed_error(text: object) -> None:
    """InvalidValueError, and nothing played."""
    table, seat = _tmm_at_a_draw()
    before = _held(table)
    with pytest.raises(InvalidValueError, match="a move's text must be a string"):
        table.play_text_as(seat, text)  # type: ignore[arg-type]
    assert _held(table) == before


def test_the_refusal_is_an_illegal_action_and_a_value_error() -> None:
    """Front ends that catch IllegalActionError (or ValueError, or the library's root) catch it too."""
    assert issubclass(NotYourDecisionError, IllegalActionError)
    assert issubclass(NotYourDecisionError, CheekyMonkeyError)
    assert issubclass(NotYourDecisionError, ValueError)


def test_a_finished_game_takes_no_move_from_anybody() -> None:
    """Once the game is over, every seat's text and action is refused."""
    game = game_named("too-many-monkeys")
    table = Table(game, [Seat.person("A"), Seat.bot(game, "random")], seed=4)
    while not table.finished:
        table.advance()
        if table.to_move == 0:
            table.play(random.Random(len(table.actions)).choice(table.legal_actions()))
    for seat in range(2):
        with pytest.raises(NotYourDecisionError, match="the game is finished"):
            table.play_text_as(seat, "d")


def test_the_terminal_prompt_refuses_a_draw_with_its_card_and_keeps_the_game() -> None:
    """``cheekymonkey play``: typing ``d; g`` at a draw prints the reason, draws nothing, and asks again."""
    for seed in range(40):
        args = ["play", "--game", "too-many-monkeys", "--bots", "random", "--seed", str(seed), "--no-record"]
        done = subprocess.run(
            [sys.executable, "-m", "cheekymonkey", *args],
            input="d; g\nq\n",
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=_env(),
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        at = lines.index(f"{PROMPT}d; g")
        if not any(line.startswith("  d  draw") for line in lines[at - 3 : at]):
            continue  # the first choices (listed one a line above the prompt) offer no draw: try the next seed
        after = lines[at + 1 :]
        assert after[0].startswith("'d; g': the turn passes to chance after 'd': type only 'd'")
        # Nothing was played: the prompt asks again (the choices above it stand), and the next answer quits.
        assert after[1:] == [f"{PROMPT}q", "You quit the game.", f"Seed {seed}: --seed {seed} deals this game again."]
        return
    raise AssertionError("no seed under 40 offers a draw first")  # pragma: no cover


# -- over HTTP: the web rooms take a seat's move only through play_as ------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    from cheekymonkey.web import Limits, RoomManager
    from tests.web_support import live_server

    limits = Limits(rooms_per_client=500, rooms_per_minute=500, max_rooms=500)
    with live_server(RoomManager(allow_seeds=True, limits=limits)) as running:
        yield running


def _room_at_a_draw(server: Any, game: str, players: int) -> tuple[dict[str, Any], Any, int]:
    """A room of people where the seat to move may draw: the room's answer, the room held, and the seat."""
    from tests.web_support import make_room

    for seed in range(100):
        room = make_room(server, *[f"P{seat}" for seat in range(players)], seed=seed, game=game)
        held = server.manager.rooms[room["room"]]
        if held.table.to_move is not None and "d" in _legal_texts(held.table):
            return room, held, held.table.to_move
    raise AssertionError(f"no room of {game} under seed 100 starts with a draw")  # pragma: no cover


def _seat_tokens(server: Any, room: dict[str, Any]) -> list[str]:
    """Each seat's token: from its link, or claimed with its link's one-time code (a game with private cards)."""
    from cheekymonkey.web.app import CLAIM_PREFIX
    from tests.web_support import call, token_of

    tokens: list[str] = []
    for seat in range(len(room["seats"])):
        token = token_of(room, seat)
        if token.startswith(CLAIM_PREFIX):
            status, claimed = call(server, "POST", "/api/claim", {"claim": token.removeprefix(CLAIM_PREFIX)})
            assert status == 200, claimed
            token = claimed["token"]
        tokens.append(token)
    return tokens


def _room_before_chance(server: Any, game: str, players: int) -> tuple[dict[str, Any], Any, int, Any, list[str]]:
    """A room of people where the seat to move may hand the turn to chance: room, held, seat, action, tokens.

    The action is the draw ``"d"`` where the game has one (the built-in games), else the first legal action after
    which chance decides (Pig's roll: it starts with a decision, chance only after it). Where no seat to move has
    one yet, each plays its first legal action through the room, until one has: in Leduc poker chance deals the
    public card only once the first round of betting is over, never after a hand's first action.
    """
    from tests.web_support import call, make_room

    found = game_named(game)
    for seed in range(100):
        room = make_room(server, *[f"P{seat}" for seat in range(players)], seed=seed, game=game)
        held = server.manager.rooms[room["room"]]
        tokens = _seat_tokens(server, room)
        for _ in range(_MOST_MOVES):
            seat, state = held.table.to_move, held.table.state
            if seat is None:
                break
            if "d" in _legal_texts(held.table):
                return room, held, seat, found.parse_actions("d", state)[0], tokens
            legal = found.legal_actions(state)
            leading = [action for action in legal if found.is_chance_node(found.apply(state, action))]
            if leading:
                return room, held, seat, leading[0], tokens
            body = {"version": held.version, "action": found.documents().to_document(legal[0])}
            status, answer = call(server, "POST", "/api/move", body, token=tokens[seat])
            assert status == 200, answer
    raise AssertionError(
        f"no room of {game} under seed 100 lets a seat to move hand the turn to chance within {_MOST_MOVES} moves"
    )  # pragma: no cover


_MOST_MOVES = 50
"""The most moves played through a room before a seat to move may hand the turn to chance."""


def _stored(server: Any, room: dict[str, Any]) -> Any:
    return asyncio.run(server.manager.store.actions_since(room["room"], 0))


@pytest.mark.parametrize("text", ISSUE_TEXTS)
def test_a_posted_text_that_names_the_drawn_card_gets_409_and_changes_nothing(server: Any, text: str) -> None:
    """Too Many Monkeys, three people: ``{"text": "d; g"}`` at a draw is refused; table, version and store stay."""
    from tests.web_support import call, token_of

    room, held, seat = _room_at_a_draw(server, "too-many-monkeys", 3)
    version, state, stored = held.version, held.table.state, _stored(server, room)
    status, answer = call(server, "POST", "/api/move", {"version": version, "text": text}, token=token_of(room, seat))
    assert status == 409, answer
    assert "the turn passes to chance after 'd': type only 'd'" in answer["error"]
    assert answer["table"]["version"] == held.version == version
    assert held.table.state is state
    assert _stored(server, room) == stored
    status, answer = call(server, "POST", "/api/move", {"version": version, "text": "d"}, token=token_of(room, seat))
    assert status == 200, answer
    assert answer["version"] > version  # the draw, settled by the room's own stream


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_posted_chance_outcome_or_another_seats_move_gets_409_and_changes_nothing(server: Any, name: str) -> None:
    """In every game, a posted draw's outcome (from any seat) or the mover's move from another seat is refused.

    The document of each card or token the draw (or any move handing the turn to chance, such as Pig's roll) could
    turn up is posted by the seat to move and by the other; then the mover's own draw is posted with the other
    seat's token.
    """
    from tests.web_support import call

    game = game_named(name)
    room, held, seat, draw, tokens = _room_before_chance(server, name, 2)
    version, state, stored = held.version, held.table.state, _stored(server, room)
    outcomes = [outcome for outcome, _ in game.chance_outcomes(game.apply(state, draw))]
    posts = [(anybody, game.documents().to_document(outcome)) for outcome in outcomes for anybody in (0, 1)]
    posts.append((1 - seat, game.documents().to_document(draw)))
    for who, document in posts:
        body = {"version": version, "action": document}
        status, answer = call(server, "POST", "/api/move", body, token=tokens[who])
        assert status == 409, (who, document, answer)
        assert answer["table"]["version"] == held.version == version
        assert held.table.state is state
        assert _stored(server, room) == stored
