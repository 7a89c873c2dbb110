"""The terminal shows a seat no more than its information: ``play``, ``watch`` and ``replay --seat``.

Every test is named ``test_cli_secrets_*``. The tests of games with private information run over every such
game registered (Leduc poker when ``examples/leduc`` is installed; none in the main suite, where the
parametrisation is empty); the rest run over the built-in games and the test game Guess
(``tests/secret_games.py``), which is not registered, so the CLI's own functions are called with it.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from cheekymonkey.cheeky.documents import load_record
from cheekymonkey.cli.narrate import Narrator
from cheekymonkey.cli.options import players_from
from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.table import Seat, Table, events_seen
from tests.secret_games import GUESS, Guess, LeakyEventsGame, LeakyViewGame

ROOT = Path(__file__).resolve().parents[1]

SECRET_GAMES = [name for name in GAME_NAMES if game_named(name).private_information]
"""The registered games with private information: Leduc poker where it is installed, else none."""


def _run(args: list[str], stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``python -m cheekymonkey ARGS`` in a pipe (standard input and output are not terminals)."""
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "cheekymonkey", *args],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
        check=False,
    )


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=80, markup=False, highlight=False, emoji=False, soft_wrap=True), out


def _guess_table(game: Any, seed: int) -> Table[Any, Any, Any, Any, Any]:
    """A game of Guess dealt and guessed (seat 0 guesses the lowest card it may name)."""
    table: Table[Any, Any, Any, Any, Any] = Table(game, [Seat.person("Ann"), Seat.person("Bob")], seed=seed)
    table.advance()
    table.play(game.legal_actions(table.state)[0])
    return table


def _narrated(game: Any, table: Table[Any, Any, Any, Any, Any], viewer: int | None) -> str:
    """What the narrator prints of the whole game for ``viewer``: every step, a board before the guess, the result."""
    console, out = _console()
    narrator = Narrator(console, game, ["Ann", "Bob"], viewer)
    replayed: Table[Any, Any, Any, Any, Any] = Table(game, [Seat.person("Ann"), Seat.person("Bob")], seed=0)
    for action in table.actions:
        if isinstance(action, Guess):
            narrator.board(replayed.state)
        narrator.step(replayed.play(action))
    narrator.flush()
    narrator.result(replayed.state)
    return out.getvalue()


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_cli_secrets_the_narrator_tells_a_viewer_its_own_deal_and_only_the_back_of_another(viewer: int | None) -> None:
    """Each deal reads as the game's event_for shows it to the viewer; another seat's card is never printed."""
    for seed in range(6):
        table = _guess_table(GUESS, seed)
        cards = table.state.cards
        out = _narrated(GUESS, table, viewer)
        for seat in (0, 1):
            dealt = f"card {cards[seat]} to seat {seat}"
            if seat == viewer:
                assert dealt in out, out
            else:
                assert dealt not in out, out
                assert f"a card to seat {seat}" in out
        # The lines are exactly the events as the viewer sees them, in order.
        seen = events_seen(GUESS, table.events, viewer)
        assert [line for line in out.splitlines() if line.startswith("Chance")] == [
            GUESS.event_text(event, ["Ann", "Bob"], viewer) for event in seen if event.seat is None
        ]


def test_cli_secrets_a_game_whose_events_go_to_every_seat_is_printed_as_it_says() -> None:
    """The narrator filters through event_for, so a game that shows every deal to all is printed that way.

    This is the check above turned round: it fails if the narrator printed the true events whatever the game's
    event_for says (and the check above fails if it did not filter at all).
    """
    table = _guess_table(LeakyEventsGame(), 3)
    out = _narrated(LeakyEventsGame(), table, 0)
    assert f"card {table.state.cards[1]} to seat 1" in out


def test_cli_secrets_the_board_is_the_viewers_view() -> None:
    """The board printed before the guess is drawn from the viewer's view: the other card is not in it."""
    for seed in range(6):
        table = _guess_table(GUESS, seed)
        theirs = table.state.cards[1]
        console, out = _console()
        dealt: Table[Any, Any, Any, Any, Any] = Table(GUESS, [Seat.person("Ann"), Seat.person("Bob")], seed=seed)
        dealt.advance()
        Narrator(console, GUESS, ["Ann", "Bob"], 0).board(dealt.state)
        assert f"theirs       {theirs}" not in out.getvalue()
        assert "theirs" in out.getvalue()
        # A game whose view is the state shows the card: the board shows whatever the view holds.
        console, leaky = _console()
        Narrator(console, LeakyViewGame(), ["Ann", "Bob"], 0).board(dealt.state)
        assert f"{dealt.state.cards[1]}" in leaky.getvalue().split("cards", 1)[1].splitlines()[0]


def test_cli_secrets_the_seats_default_to_each_games_usual_number() -> None:
    """``--players`` left out: the game's default_seats, for every registered game and for Guess."""
    for name in GAME_NAMES:
        game = game_named(name)
        ruleset = game.ruleset()
        assert players_from(game, ruleset, None) == game.default_seats(ruleset)
    assert players_from(GUESS, None, None) == GUESS.default_seats() == 2


def test_cli_secrets_play_shows_the_seed_with_the_result_and_not_before(tmp_path: Path) -> None:
    """Cheeky Monkey: the header names no seed; the seed chosen at random follows the result and is the record's."""
    path = tmp_path / "played.json"
    done = _run(["play", "--players", "2", "--delay", "0", "--record", str(path)], "s\n" * 400)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    seed = load_record(path.read_text(encoding="utf-8")).seed
    assert seed is not None
    assert lines[0] == "Cheeky Monkey, standard rules: you against Heuristic 1."
    shown = f"Seed {seed}, chosen at random: --seed {seed} deals this game again."
    assert shown in lines
    at = lines.index(shown)
    assert "Winner:" in "\n".join(lines[:at])
    assert str(seed) not in "\n".join(lines[:at])
    assert all("seed" not in line.lower() for line in lines[:at])
    # The line says how to play the game again, and it does: the same actions with the seed given.
    again = tmp_path / "again.json"
    done = _run(["play", "--players", "2", "--delay", "0", "--seed", str(seed), "--record", str(again)], "s\n" * 400)
    assert done.returncode == 0, done.stderr
    assert load_record(again.read_text(encoding="utf-8")).actions == load_record(path.read_text("utf-8")).actions
    assert f"Seed {seed}: --seed {seed} deals this game again." in done.stdout.splitlines()


def test_cli_secrets_a_game_left_unfinished_shows_no_seed() -> None:
    """Input ending before the game does: the game is not over, so its seed is not shown."""
    done = _run(["play", "--players", "2", "--delay", "0", "--no-record"], "")
    assert done.returncode == 1
    assert "seed" not in done.stdout.lower()


def test_cli_secrets_replay_follows_one_seat_of_a_built_in_game(tmp_path: Path) -> None:
    """``replay --seat N``: the seat's narration ("you"), the record's seat count checked (status 2 past it)."""
    path = tmp_path / "watched.json"
    assert _run(["watch", "--players", "2", "--seed", "4", "--record", str(path)]).returncode == 0
    spectator = _run(["replay", "--no-step", str(path)])
    followed = _run(["replay", "--no-step", "--seat", "1", str(path)])
    assert spectator.returncode == followed.returncode == 0
    assert "Following Heuristic 1 (seat 1): what that seat was shown, and no more." in followed.stdout
    assert "you" not in spectator.stdout.lower().replace("your", "")
    assert "You draw a " in followed.stdout
    assert "You draw a " not in spectator.stdout
    # The same events, each as the seat reads it: one line for one line.
    assert len(followed.stdout.splitlines()) == len(spectator.stdout.splitlines()) + 1
    # Stepping, the board is the seat's own: its row marked as "you".
    stepped = _run(["replay", "--step", "--to", "turn:3", "--seat", "1", str(path)], "q\n")
    assert stepped.returncode == 0
    assert "Heuristic 1 (you)" in stepped.stdout
    beyond = _run(["replay", "--seat", "2", str(path)])
    assert beyond.returncode == 2
    assert "there is no seat 2: the record has seats 0 to 1" in beyond.stderr
    assert "Traceback" not in beyond.stderr
    negative = _run(["replay", "--seat", "-1", str(path)])
    assert negative.returncode == 2
    assert "is not a seat" in negative.stderr


# -- games with private information, where registered (Leduc poker with examples/leduc installed) ----------------


def _texts(game: Any, events: Any, names: list[str], viewer: int | None) -> list[str]:
    return [game.event_text(event, names, viewer) for event in game.merge_events(events_seen(game, events, viewer))]


def _table_of(game: Any, path: Path) -> tuple[Table[Any, Any, Any, Any, Any], list[str]]:
    """The record at ``path`` played again at a table: the machine's whole game."""
    record = game.documents().loads(path.read_text(encoding="utf-8"), "record")
    names = list(record.names)
    seats = [Seat(name, kind) for name, kind in zip(names, record.bots, strict=True)]
    table: Table[Any, Any, Any, Any, Any] = Table(
        game, seats, ruleset=record.ruleset, first_player=record.first_player, seed=record.seed
    )
    for action in record.actions:
        table.play(action)
    return table, names


def _shows_only(out: str, game: Any, table: Table[Any, Any, Any, Any, Any], names: list[str], viewer: Any) -> None:
    """Every event line the viewer is shown is in ``out``; no line only another viewer is shown is."""
    lines = out.splitlines()
    own = _texts(game, table.events, names, viewer)
    position = 0
    for text in own:  # in order
        position = lines.index(text, position) + 1
    others = {text for seat in [None, *range(table.players)] for text in _texts(game, table.events, names, seat)}
    for text in others - set(own):
        assert text not in lines, (viewer, text)
