"""The page's log: one line per move, the lines the terminal prints, while every event keeps its number.

A stop's tokens put down one at a time are several actions and several events, but one move: the table
message gives it one ``log`` line, on the event that completes it, equal to the terminal's
(:class:`~cheekymonkey.cli.narrate.Narrator`). Checked step by step over seeded games of both games and of a
game with secrets (each seat's lines from the events it sees), and end to end through a real server, where
``since=N`` windows still give the same events.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

from cheekymonkey import CHEEKY_MONKEY, Action, Animal, Draw, Place, Stop
from cheekymonkey.cheeky.documents import to_document
from cheekymonkey.cli.narrate import Narrator
from cheekymonkey.games import AnyGame, game_named
from cheekymonkey.table import Seat, Step, Table, events_seen
from cheekymonkey.web import Limits, RoomManager
from cheekymonkey.web.messages import log_lines
from tests.secret_games import GUESS
from tests.web_support import LiveServer, call, live_server, make_room, token_of


class _Told:
    """A Narrator printing into a string: the terminal's lines, as it prints them so far."""

    def __init__(self, game: AnyGame, names: tuple[str, ...], viewer: int | None) -> None:
        self.out = io.StringIO()
        console = Console(file=self.out, width=10_000, soft_wrap=True, markup=False, highlight=False, emoji=False)
        self.narrator = Narrator(console, game, names, viewer)

    def lines(self) -> list[str]:
        return self.out.getvalue().splitlines()


def _flat(lines: dict[int, list[str]]) -> list[str]:
    return [line for seq in sorted(lines) for line in lines[seq]]


def _bot_table(game: AnyGame, players: int, seed: int) -> Table[Any, Any, Any, Any, Any]:
    kinds = game.bot_names()
    seats = [Seat.bot(game, kinds[seat % len(kinds)], f"Bot{seat}") for seat in range(players)]
    return Table(game, seats, seed=seed, max_steps=2_000)


@pytest.mark.parametrize(
    ("name", "players", "seed"), [("cheeky-monkey", 2, 0), ("cheeky-monkey", 4, 3), ("too-many-monkeys", 3, 1)]
)
def test_the_log_is_the_terminal_s_narration_after_every_step(name: str, players: int, seed: int) -> None:
    """After each action, every seat's log lines (and a spectator's) are exactly what the terminal has printed."""
    game = game_named(name)
    table = _bot_table(game, players, seed)
    viewers: list[int | None] = [*range(players), None]
    told = {viewer: _Told(game, table.names, viewer) for viewer in viewers}
    held = 0  # actions inside a move of several, whose events wait for the move's end
    for step in table.steps():
        for viewer in viewers:
            told[viewer].narrator.step(step)
            assert _flat(log_lines(table, viewer)) == told[viewer].lines()
        held += game.mid_move(step.before) and game.mid_move(step.after)
    assert table.over
    if name == "cheeky-monkey":
        # The games did stack tokens one at a time, which the log told in fewer lines than events.
        assert held > 0
        assert len(_flat(log_lines(table, 0))) < len(table.events)
    else:
        assert len(_flat(log_lines(table, 0))) == len(table.events)  # no move of several actions: a line each
    # From any number on: the same lines, on the same events, as from the start.
    whole = log_lines(table, 0)
    for since in range(len(table.events) + 1):
        assert log_lines(table, 0, since) == {seq: lines for seq, lines in whole.items() if seq >= since}


def test_a_game_with_secrets_logs_only_what_each_seat_sees() -> None:
    """Each seat's lines are the narration of the events it sees: seat 0 never reads seat 1's card."""
    for seed in range(6):
        table = Table(GUESS, [Seat.person("Ann"), Seat.person("Bob")], seed=seed)
        table.advance()
        table.play(GUESS.legal_actions(table.state)[0])
        table.advance()
        for viewer in (0, 1, None):
            seen = events_seen(GUESS, table.events, viewer)
            assert _flat(log_lines(table, viewer)) == [GUESS.event_text(e, table.names, viewer) for e in seen]
            told = _Told(GUESS, table.names, viewer)
            for index, action in enumerate(table.actions):
                before, after = table.history[index], table.history[index + 1]
                events = events_seen(GUESS, GUESS.apply_with_events(before, action)[1], viewer)
                told.narrator.step(_step(index, before, action, after, events))
            assert _flat(log_lines(table, viewer)) == told.lines()
        # Seat 0 is dealt a card it sees, and seat 1's card shows it only a back: their lines differ.
        assert _flat(log_lines(table, 0)) != _flat(log_lines(table, 1))


def _step(index: int, before: Any, action: Any, after: Any, events: tuple[Any, ...]) -> Step[Any, Any, Any]:
    """A step as a table makes it, with ``events`` as one viewer sees them."""
    return Step(index, None, action, before, after, tuple(events))


def _three_to_stack() -> tuple[int, tuple[Animal, ...]]:
    """A seed whose first player draws three different animals first, so they can stop with three to order."""
    for seed in range(200):
        table = Table(CHEEKY_MONKEY, [Seat.person("Ann"), Seat.person("Bob")], seed=seed)
        table.advance()
        for _ in range(2):
            if table.to_move != 0:
                break
            table.play_as(0, Draw())
            table.advance()
        state = table.state
        if table.to_move == 0 and len(state.front) == 3 and len(set(state.front)) == 3:
            return seed, tuple(state.front)
    raise AssertionError("no seed in range(200) draws three different animals first")


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    limits = Limits(rooms_per_client=100, rooms_per_minute=100, max_rooms=100)
    with live_server(RoomManager(allow_seeds=True, limits=limits)) as running:
        yield running


def _move(server: LiveServer, token: str, action: Action) -> dict[str, Any]:
    version = call(server, "GET", "/api/table", token=token)[1]["version"]
    body = {"version": version, "action": to_document(action)}
    status, answer = call(server, "POST", "/api/move", body, token=token)
    assert status == 200, answer
    assert isinstance(answer, dict)
    return answer


def test_a_stop_stacked_one_token_at_a_time_is_one_log_line_as_at_the_terminal(server: LiveServer) -> None:
    """Three tokens put down one at a time: three events, one log line, the terminal's; a half-done stop has none."""
    seed, front = _three_to_stack()
    room = make_room(server, "Ann", "Bob", seed=seed)
    tokens = [token_of(room, 0), token_of(room, 1)]
    for _ in range(2):
        _move(server, tokens[0], Draw())
    _move(server, tokens[0], Stop())
    order = (front[2], front[0], front[1])  # bottom first, not the order they came in
    halfway = _move(server, tokens[0], Place(order[0]))
    # The stop is under way: its first token is an event with no line yet.
    assert halfway["events"][-1]["event"]["type"] == "stacked"
    assert halfway["events"][-1]["log"] == []
    _move(server, tokens[0], Place(order[1]))  # the last token goes on by itself
    kept = server.manager.rooms[room["room"]]
    assert kept.table.state.stacks[0] == order
    for seat in (0, 1):
        table = call(server, "GET", "/api/table", token=tokens[seat])[1]
        stacked = [item for item in table["events"] if item["event"]["type"] == "stacked"]
        assert len(stacked) >= 2  # the tokens put down one at a time are events of their own, numbered
        # One line for the stacking, on the event that completed it, as the terminal narrates the same game.
        stacking = [line for item in table["events"] for line in item["log"] if "stack" in line and "stop" not in line]
        told = _Told(CHEEKY_MONKEY, kept.table.names, seat)
        for index, action in enumerate(kept.table.actions):
            before, after = kept.table.history[index], kept.table.history[index + 1]
            told.narrator.step(_step(index, before, action, after, CHEEKY_MONKEY.apply_with_events(before, action)[1]))
        terminal = told.lines()
        assert [line for item in table["events"] for line in item["log"]] == terminal
        labels = " and ".join([", ".join(a.label for a in order[:2]), order[2].label])
        expected = f"{'You stack' if seat == 0 else 'Ann stacks'} {labels}, bottom to top: the {order[2].label} on top."
        assert stacking == [expected]
        assert stacking[0] in terminal
        assert [item["log"] for item in stacked[:-1]] == [[]] * (len(stacked) - 1)
        assert stacked[-1]["log"] == [expected]


def test_since_windows_give_the_same_events_and_lines(server: LiveServer) -> None:
    """``since=N`` gives the events numbered N on, each with its text and its log lines, as the whole list has them."""
    seed, front = _three_to_stack()
    room = make_room(server, "Ann", "Bob", seed=seed)
    token = token_of(room, 0)
    for action in (Draw(), Draw(), Stop(), Place(front[1])):
        _move(server, token, action)
    whole = call(server, "GET", "/api/table", token=token)[1]["events"]
    assert [item["seq"] for item in whole] == list(range(len(whole)))
    _move(server, token, Place(front[0]))
    done = call(server, "GET", "/api/table", token=token)[1]["events"]
    assert done[: len(whole) - 1] == whole[:-1]  # the events before the stop's last stay as they were
    assert whole[-1]["log"] == []  # ... the stop's first token had no line while the stop went on
    for since in range(len(done) + 2):
        window = call(server, "GET", f"/api/table?since={since}", token=token)[1]["events"]
        assert window == [item for item in done if item["seq"] >= since], since
    # Played further (Bob's turn and more), the windows still agree.
    rng = random.Random(seed)
    kept = server.manager.rooms[room["room"]]
    while kept.table.to_move == 1 and not kept.table.over:
        legal = kept.table.legal_actions()
        body = {"version": kept.version, "action": to_document(legal[rng.randrange(len(legal))])}
        assert call(server, "POST", "/api/move", body, token=token_of(room, 1))[0] == 200
    later = call(server, "GET", "/api/table", token=token)[1]["events"]
    for since in range(len(later) + 1):
        window = call(server, "GET", f"/api/table?since={since}", token=token)[1]["events"]
        assert window == [item for item in later if item["seq"] >= since], since
