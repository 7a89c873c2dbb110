"""The rooms' bots think in worker processes, choose there as they would at a table, and are bounded.

A seeded room is played over HTTP against a real uvicorn server whose bots think in a worker process
(:class:`~cheekymonkey.web.bots.BotPool`), its person always taking the first move offered; the same seed
at a :class:`~cheekymonkey.table.Table`, with a bot taking the first move in the person's seat, must give
the same game, action for action, for every game.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from typing import Any

import pytest

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.table import Seat, Table, Waiting
from cheekymonkey.web import BotPool, Limits, RoomManager
from tests.web_support import call, live_server, make_room, token_of


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_seeded_rooms_bots_choose_in_a_worker_process_as_at_a_table_with_the_same_seed(name: str) -> None:
    """Two random bots (each draw from the bots' stream) think in a worker: the room's game is the table's."""
    game = game_named(name)
    manager = RoomManager(
        allow_seeds=True, bots=BotPool(1), limits=Limits(max_moves=400, request_burst=10**6)
    )  # the test polls fast
    with live_server(manager) as server:
        room = make_room(server, "Ann", "Mo", "Cy", bots={1: "random", 2: "random"}, seed=12, game=name)
        token = token_of(room, 0)
        deadline = time.monotonic() + 120
        while (table := call(server, "GET", "/api/table", token=token)[1])["waiting"] not in ("over", "truncated"):
            assert time.monotonic() < deadline, "the game did not end"
            if table["legal"]:
                body = {"version": table["version"], "action": table["legal"][0]["action"]}
                assert call(server, "POST", "/api/move", body, token=token)[0] == 200
            else:
                time.sleep(0.01)
        status, record = call(server, "GET", "/api/record", token=token)
        assert status == 200
        if game.private_information:  # a seat is given what it saw, not the hidden draws: read the room's own
            record = manager.rooms[room["room"]].record_document()
        pool = manager.bots
    # Ann is a person at the table too (a bot there would draw a resampled state from the bots' stream in a game
    # with secrets), and plays the first legal action as she did in the room.
    seats = [Seat.person("Ann"), Seat.bot(game, "random", "Mo"), Seat.bot(game, "random", "Cy")]
    alone = Table(game, seats, seed=12, max_steps=400)
    alone.advance()
    while alone.waiting is Waiting.PERSON:
        alone.play(game.legal_actions(alone.state)[0])
        alone.advance()
    played = game.documents().from_document(record, "record").actions
    assert list(played) == list(alone.actions)
    assert pool.decisions > 0
    assert pool.answered_by
    assert os.getpid() not in pool.answered_by


def test_a_full_queue_makes_the_bots_wait_their_turn_not_fail() -> None:
    """With one worker and a queue of one, ten decisions asked at once all wait their turn and are made there."""
    game = game_named("cheeky-monkey")
    state = game.new_game(3, None)
    while game.is_chance_node(state):
        state = game.apply(state, game.sample_chance(state, random.Random(1)))
    pool = BotPool(1, queue=1)

    async def ask() -> list[Any]:
        return await asyncio.gather(
            *(pool.choose(game.name, "heuristic", 100, state, random.Random(seed)) for seed in range(10))
        )

    try:
        answers = asyncio.run(ask())
    finally:
        pool.close()
    assert len(answers) == 10
    assert len({answer.pid for answer in answers}) == 1
    assert pool.decisions == 10
    assert all(answer.action in game.legal_actions(state) for answer in answers)


@pytest.mark.parametrize(("workers", "queue"), [(-1, 4), (1, 0), (True, 4), (1, 2.5)])
def test_a_pool_of_no_sense_is_refused(workers: Any, queue: Any) -> None:
    """Negative workers, an empty queue, or numbers that are not whole: a typed error naming the field."""
    with pytest.raises(InvalidValueError, match=r"workers|queue"):
        BotPool(workers, queue=queue)
