"""One seeded game, played through every front end of the surface, is the same game everywhere.

play_game, the command line's ``watch``, a web room served over HTTP, the Gymnasium environment and the
PettingZoo environment all play at a :class:`~cheekymonkey.Table`, so with one seed and the same choices they
must give the same actions and the same final state. The heuristic bot uses no random numbers, so the choices
a person (or a learner) makes by asking it are the choices the bot makes at a table of bots.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from cheekymonkey import CHEEKY_MONKEY, GameState, HeuristicBot, play_game
from cheekymonkey.cheeky.actions import Action
from cheekymonkey.cheeky.documents import load_record, to_document
from cheekymonkey.cli import main
from cheekymonkey.rl.gymnasium_env import SoloEnv
from cheekymonkey.rl.pettingzoo_env import GameEnv
from cheekymonkey.web import Limits, RoomManager
from tests.web_support import call, live_server, make_room, token_of

SEEDS = (4, 17)


def _heuristic(state: GameState) -> Action:
    # The heuristic bot draws no random numbers: any stream gives the same choice.
    return HeuristicBot().choose(state, random.Random(0))


def _through_watch(seed: int, tmp_path: Path) -> tuple[tuple[Action, ...], GameState]:
    path = tmp_path / f"watch-{seed}.json"
    status = main(["watch", "--seed", str(seed), "--players", "2", "--bots", "heuristic", "--record", str(path)])
    assert status == 0
    record = load_record(path.read_text(encoding="utf-8"))
    return record.actions, record.final_state()


def _through_a_web_room(seed: int) -> tuple[tuple[Action, ...], GameState]:
    manager = RoomManager(allow_seeds=True, limits=Limits())
    with live_server(manager) as server:
        room = make_room(server, "Ann", "Bot", bots={1: "heuristic"}, seed=seed)
        token = token_of(room, 0)
        held = server.manager.rooms[room["room"]]
        deadline = time.monotonic() + 300  # a whole game over HTTP with a bot thread; generous on a loaded machine
        while (table := call(server, "GET", "/api/table", token=token)[1])["waiting"] != "over":
            assert time.monotonic() < deadline, "the web game did not end"
            if not table["legal"]:
                time.sleep(0.005)  # the bot's move is on its way
                continue
            body = {"version": table["version"], "action": to_document(_heuristic(held.table.state))}
            status, answer = call(server, "POST", "/api/move", body, token=token)
            assert status == 200, answer
        return held.table.actions, held.table.state


def _through_gymnasium(seed: int) -> tuple[tuple[Action, ...], GameState]:
    env = SoloEnv(players=2, seat=0, opponents=["heuristic"])
    env.reset(seed=seed)
    done = False
    while not done:
        state = env.game_state
        *_, terminated, truncated, _ = env.step(env.encoding.encode(_heuristic(state), state))
        done = terminated or truncated
    assert terminated
    return env.table.actions, env.game_state


def _through_pettingzoo(seed: int) -> tuple[tuple[Action, ...], GameState]:
    env = GameEnv(players=2)
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        *_, terminated, truncated, _ = env.last()
        state = env.game_state
        env.step(None if terminated or truncated else env.encoding.encode(_heuristic(state), state))
    return env.table.actions, env.game_state


@pytest.mark.parametrize("seed", SEEDS)
def test_one_seeded_game_is_the_same_through_every_front_end(seed: int, tmp_path: Path) -> None:
    """play_game, watch, a web room, Gymnasium and PettingZoo: the same actions and final state for one seed."""
    reference = play_game([HeuristicBot(), HeuristicBot()], seed=seed)
    assert CHEEKY_MONKEY.is_terminal(reference.state)
    played: dict[str, tuple[tuple[Action, ...], Any]] = {
        "watch": _through_watch(seed, tmp_path),
        "web room": _through_a_web_room(seed),
        "Gymnasium": _through_gymnasium(seed),
        "PettingZoo": _through_pettingzoo(seed),
    }
    for front_end, (actions, state) in played.items():
        assert actions == reference.record.actions, front_end
        assert state == reference.state, front_end
