"""The terminal shows a seat of a registered game with secrets (Leduc, when installed) only its information.

Collected only where such a game is registered (``tests/conftest.py``): the CI step that installs Leduc runs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cheekymonkey.games import game_named
from tests.test_cli_secrets import SECRET_GAMES, _run, _shows_only, _table_of


@pytest.mark.parametrize("name", SECRET_GAMES)
def test_cli_secrets_play_shows_the_person_only_their_seat(name: str, tmp_path: Path) -> None:
    """``play`` in a pipe: seat 0's events and no other's, and no seed before the result."""
    game = game_named(name)
    # Leduc's notation (the only such game registered): an answer not legal now is refused and the next one read.
    answers = "check\ncall\n" * 40
    for game_number in range(6):
        path = tmp_path / f"{game_number}.json"
        done = _run(["play", "--game", name, "--delay", "0", "--record", str(path)], answers)
        assert done.returncode == 0, done.stderr
        table, names = _table_of(game, path)
        assert table.over
        out = done.stdout
        _shows_only(out, game, table, names, 0)
        lines = out.splitlines()
        shown = f"Seed {table.seed}, chosen at random: --seed {table.seed} deals this game again."
        at = lines.index(shown)
        assert all("seed" not in line.lower() for line in lines[:at])
        assert str(table.seed) not in "\n".join(lines[:at])
        assert table.players == game.default_seats()


@pytest.mark.parametrize("name", SECRET_GAMES)
def test_cli_secrets_watch_and_replay_show_a_spectator_the_public_events(name: str, tmp_path: Path) -> None:
    """``watch`` and ``replay`` show what event_for shows nobody in particular; ``replay --seat N`` seat N's own."""
    game = game_named(name)
    for seed in range(5):
        path = tmp_path / f"{seed}.json"
        watched = _run(["watch", "--game", name, "--delay", "0", "--record", str(path)])
        assert watched.returncode == 0, watched.stderr
        table, names = _table_of(game, path)
        _shows_only(watched.stdout, game, table, names, None)
        assert "seed" not in watched.stdout.splitlines()[0].lower()
        assert f"Seed {table.seed}, chosen at random" in watched.stdout
        replayed = _run(["replay", "--no-step", str(path)])
        assert replayed.returncode == 0, replayed.stderr
        _shows_only(replayed.stdout, game, table, names, None)
        for seat in range(table.players):
            followed = _run(["replay", "--no-step", "--seat", str(seat), str(path)])
            assert followed.returncode == 0, followed.stderr
            _shows_only(followed.stdout, game, table, names, seat)


@pytest.mark.parametrize("name", SECRET_GAMES)
def test_cli_secrets_replay_names_the_seed_only_once_the_game_is_over(name: str, tmp_path: Path) -> None:
    """The seed predicts every hidden draw: ``replay`` (a spectator or one seat) names it after the result only."""
    path = tmp_path / "watched.json"
    assert _run(["watch", "--game", name, "--seed", "5", "--record", str(path)]).returncode == 0
    for following in ([], ["--seat", "0"], ["--seat", "1"]):
        replayed = _run(["replay", "--no-step", *following, str(path)])
        assert replayed.returncode == 0, replayed.stderr
        lines = replayed.stdout.splitlines()
        at = lines.index("Seed 5: --seed 5 deals this game again.")
        assert at == len(lines) - 1
        assert all("seed" not in line.lower() for line in lines[:at])
        assert any(line.startswith("Winner") for line in lines[:at])
