"""One meaning per key at every prompt, hints in the game's own words, and no type-ahead taken for an answer.

At every decision of seeded games of both games (every preset, two to six seats), the keys a player may type
(:func:`cheekymonkey.cli.play.prompt_keys`: the moves' notation and the commands' keys) each mean one thing: no
command's key is read as a move, none is a key of the game's notation in its help, and each move's text reads
back as that move alone. The page's hint and the terminal's are the game's ``facts["hint"]``, built from the
same words as the choices (a discard too high for the row says that it ends the turn). And at a real
pseudo-terminal, a line typed while the bots played is discarded before the next prompt.
"""

from __future__ import annotations

import importlib.resources
import io
import os
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

from cheekymonkey.cli.play import COMMANDS, choice_lines, help_text, prompt_keys
from cheekymonkey.cli.table_run import TableRun
from cheekymonkey.games import AnyGame, game_named
from cheekymonkey.table import Seat, Table
from cheekymonkey.toomany import Phase
from cheekymonkey.toomany.actions import TAKE_DISCARD
from tests.test_newcomer_terminal import PAUSE, Terminal

GAMES = ("cheeky-monkey", "too-many-monkeys")
COMMAND_KEYS = [key for keys, _ in COMMANDS for key in keys]


def _decisions(game: AnyGame, seed: int) -> Iterator[TableRun]:
    """A seeded table of ``game`` (a preset and a seat count drawn from the seed), at each of seat 0's decisions."""
    rng = random.Random(seed)
    preset = rng.choice(game.preset_names())
    low, high = game.seat_range(game.ruleset(preset))
    players = rng.randint(low, min(high, 6))
    names = [f"P{seat}" for seat in range(players)]
    seats = [Seat.person(names[0]), *(Seat.bot(game, game.bot_names()[0], name) for name in names[1:])]
    table: Table[Any, Any, Any, Any, Any] = Table(game, seats, ruleset=game.ruleset(preset), seed=seed, events=False)
    session = TableRun(Console(file=io.StringIO(), width=80), table, names, viewer=0, delay=0, file=None, command="t")
    for _ in range(300):
        table.advance()
        if table.finished:
            return
        yield session
        legal = table.legal_actions()
        table.play(legal[rng.randrange(len(legal))])


def _help_keys(game: AnyGame) -> set[str]:
    """The keys the game's notation help names: the first column of each of its lines, split at commas."""
    keys: set[str] = set()
    for line in game.action_help().splitlines():
        column = re.match(r"^  (\S.*?)(?:\s{2,}|$)", line)
        if column:
            keys.update(part.split()[0] for part in column.group(1).split(", ") if part.split())
    return keys


@pytest.mark.parametrize("name", GAMES)
def test_no_key_has_two_meanings_at_any_prompt(name: str) -> None:
    """Every prompt of seeded games: the commands' keys are no moves, and each move's text names one move."""
    game = game_named(name)
    assert not set(COMMAND_KEYS) & _help_keys(game), _help_keys(game)
    assert len(COMMAND_KEYS) == len(set(COMMAND_KEYS))
    prompts = 0
    for seed in range(12):
        for session in _decisions(game, seed):
            state = session.table.state
            keys = prompt_keys(game, state, session.names)  # raises if a key would mean two things
            legal = game.legal_actions(state)
            assert len(keys) == len(legal) + len(COMMAND_KEYS)
            for action in legal:
                assert game.parse_actions(game.action_text(action, state), state) == (action,)
            helped = help_text(session)
            assert "t, table" not in helped
            assert "alone is a move now" not in helped
            assert "  v, view, table" in helped
            prompts += 1
    assert prompts > 200, prompts


def test_a_key_that_is_a_move_cannot_be_a_command_too() -> None:
    """The check behind the table: a command's key that the game read as a move would be refused."""
    game = game_named("too-many-monkeys")
    session = next(s for s in _decisions(game, 1) if TAKE_DISCARD in s.table.legal_actions())
    state = session.table.state
    clashing = ((("t", "table"), "show the table again"),)
    with pytest.raises(ValueError, match="'t' is both a move and the command to show the table again"):
        prompt_keys(game, state, session.names, clashing)


@pytest.mark.parametrize("name", GAMES)
def test_the_page_s_hint_is_the_terminal_s_in_the_game_s_own_words(name: str) -> None:
    """facts["hint"] (what the page shows) heads the terminal's choices, word for word, and uses the choices' words."""
    game = game_named(name)
    hinted = too_high = 0
    for seed in range(12):
        for session in _decisions(game, seed):
            state = session.table.state
            facts = game.facts(state, 0)
            assert game.facts(state, 1).get("hint") is None  # a seat not to move gets none
            hint = facts.get("hint", "")
            lines = choice_lines(session)
            if hint:
                hinted += 1
                assert " ".join(lines).startswith(hint[:40]), (hint, lines)
                assert " ".join(" ".join(lines).split()).startswith(" ".join(hint.split()))
            if name == "too-many-monkeys" and state.phase is Phase.START and TAKE_DISCARD in game.legal_actions(state):
                words = game.action_words(TAKE_DISCARD, state, session.names)
                assert words in hint, (words, hint)
                if state.discard[-1] > len(state.rows[state.seat]):
                    too_high += 1
                    assert "too high for your row: the turn ends" in hint
                    assert "you can use it" not in hint
    assert hinted > 30, hinted
    if name == "too-many-monkeys":
        assert too_high > 0, "no discard too high for the row was met: choose other seeds"


@pytest.mark.parametrize("path", ["toomany/static/too-many-monkeys.js", "cheeky/static/cheeky-monkey.js"])
def test_the_page_writes_no_hint_of_its_own(path: str) -> None:
    """Each game's page script shows the game's facts.hint, and has no sentence of its own for it."""
    script = importlib.resources.files("cheekymonkey").joinpath(path).read_text(encoding="utf-8")
    body = script[script.index("function hint(message)") :]
    body = body[: body.index("\n  }\n")]
    assert "message.facts.hint" in body
    assert re.findall(r'"[^"]+"', body) == [], body  # no words of its own


def test_what_was_typed_while_the_bots_played_is_not_taken_for_an_answer() -> None:
    """At a pseudo-terminal: a line typed ahead (with a move, before the next prompt) is discarded, not refused."""
    terminal = Terminal(["play", "--game", "too-many-monkeys", "--seed", "3", "--delay", "0", "--no-record"])
    shown = terminal.read()
    assert PAUSE.search(shown)
    shown = terminal.type("")
    assert "w 1" in shown, shown
    # The move and a stray line at once, as a person typing ahead: the stray line must not reach a prompt.
    os.write(terminal.leader, b"w 1\nzzz\n")
    shown = terminal.read()
    while PAUSE.search(shown):
        shown = terminal.type("")
    assert "'zzz'" not in terminal.screen, terminal.screen[-1500:]
    terminal.type("q")
    terminal.type("y")
    while not terminal.ended:
        terminal.read()
    assert terminal.close() == 0
    assert "'zzz'" not in terminal.screen
    assert "You quit the game." in terminal.screen
