"""Pig through the real ``cheekymonkey`` command: play at a terminal, watch, replay, simulate and verify."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import ANSI, run, run_at_terminal

from cheekymonkey_pig import PIG, Face, Hold, Roll


def _record(path: Path) -> Any:
    return PIG.documents().loads(path.read_text(encoding="utf-8"), "record")


def test_a_person_plays_a_whole_game_at_a_terminal_and_its_record_replays(tmp_path: Path) -> None:
    """Roll then hold, typed ahead at a pseudo-terminal: every answer is taken, the game ends, the record is it."""
    record = tmp_path / "game.json"
    args = ["play", "--game", "pig", "--variant", "short", "--players", "2", "--bots", "random", "--seed", "7"]
    # Roll, then hold: legal at every decision (the hold follows a roll, or begins a turn after a 1).
    status, out = run_at_terminal([*args, "--delay", "0", "--record", str(record)], "r\nh\n" * 100, tmp_path)
    text = ANSI.sub("", out)
    assert status == 0, text[-2000:]
    assert "\x1b[" in out  # coloured, as at any terminal
    assert "Pig, short rules: you against Random 1." in text
    assert "Seed 7: --seed 7 deals this game again." in text  # with the result, not before
    assert "  r  roll the die" in text
    assert "no legal action" not in text  # no answer was refused
    game = _record(record)
    states = game.states()
    final = states[-1]
    assert PIG.is_terminal(final)
    assert PIG.winner(final) is not None
    winner = ("Player", "Random 1")[PIG.outcome(final).winners[0]]
    assert f"Winner: {winner}." in text
    assert f"Record saved to {record}" in text
    mine = [action for state, action in zip(states, game.actions, strict=False) if PIG.to_move(state) == 0]
    assert len(mine) >= 4
    assert mine == [Roll() if step % 2 == 0 else Hold() for step in range(len(mine))]  # as typed, in order
    assert any(isinstance(action, Face) and action.face == 1 for action in game.actions)  # a turn lost to a 1

    replayed = run(["replay", str(record), "--no-step"], tmp_path)  # the record's format names its game
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.startswith("Replaying a 2-player game of Pig, short rules, seed 7")
    assert f"Winner: {winner}." in replayed.stdout


def test_watch_narrates_bots_and_replay_tells_the_same_game(tmp_path: Path) -> None:
    """Every line watch narrates comes again, in order, when its record is replayed."""
    record = tmp_path / "watched.json"
    watched = run(["watch", "--game", "pig", "--players", "4", "--seed", "4", "--record", str(record)], tmp_path)
    assert watched.returncode == 0, watched.stderr
    assert watched.stdout.startswith("Pig, standard rules, 4 players, seed 4: Random 0 (random)")
    final = _record(record).final_state()
    assert max(final.scores) >= 100
    told = watched.stdout.split("\nRecord saved to ")[0]  # the game, up to where watch says where its record is
    narration = [line for line in told.splitlines()[1:] if line.strip()]
    assert len(narration) > 100
    assert "Chance: 1" in narration
    replayed = run(["replay", str(record), "--no-step"], tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    lines = iter(replayed.stdout.splitlines())
    for line in narration:
        assert any(line == other for other in lines), line


def test_simulate_plays_seeded_games_in_process_and_on_a_process_pool_alike(tmp_path: Path) -> None:
    """A summary of 300 games of three random bots: every game counted, the same on two worker processes."""
    args = ["simulate", "--game", "pig", "--variant", "short", "--players", "3", "--games", "300", "--seed", "5"]
    here = run([*args, "--json", "here.json"], tmp_path)
    pooled = run([*args, "--workers", "2", "--json", "pool.json"], tmp_path)
    assert here.returncode == 0, here.stderr
    assert pooled.returncode == 0, pooled.stderr
    assert "300 games of random, random, random (Pig, short rules)" in here.stdout
    summary = json.loads((tmp_path / "here.json").read_text())
    assert summary["games"] == 300
    assert sum(bot["wins"] for bot in summary["bots"]) == 300  # one winner a game: the short game ends by score
    assert all(0.2 < bot["win_rate"] < 0.5 for bot in summary["bots"])  # three equal bots: about a third each
    assert json.loads((tmp_path / "pool.json").read_text())["bots"] == summary["bots"]


def test_verify_says_pig_offers_no_proofs_and_exits_2(tmp_path: Path) -> None:
    verified = run(["verify", "--game", "pig"], tmp_path)
    assert verified.returncode == 2
    assert (verified.stdout + verified.stderr).strip().splitlines() == [
        "cheekymonkey verify: Pig offers no proofs to run"
    ]


def test_a_typed_move_the_rules_refuse_names_the_moves_there_are(tmp_path: Path) -> None:
    """In a pipe: a face of the die is chance's, not a player's; the refusal lists r and h, then q quits."""
    played = run(["play", "--game", "pig", "--bots", "random", "--seed", "1", "--no-record"], tmp_path, "6\nq\n")
    assert played.returncode == 0, played.stderr
    assert "'6': that is no legal action now" in played.stdout
    assert "You quit the game." in played.stdout
