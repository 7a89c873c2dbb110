"""Digits are ASCII digits wherever a seat or a number is read from text.

A superscript two passes ``str.isdigit()`` and fails ``int()``; Arabic-Indic and fullwidth digits pass both.
A reader that trusted ``isdigit`` answered ``c ²`` with a ValueError: a 500 from ``/api/move`` and a traceback
from ``cheekymonkey play``. Every reader now takes the digits 0-9 alone
(:func:`cheekymonkey.names.ascii_number`), and refuses other digits as it refuses any other word: the notation
of both games with an :class:`~cheekymonkey.errors.ActionTextError`, the command line's options with
argparse's one line, the web API with a 400.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from typing import Any, Final

import pytest

from cheekymonkey.cheeky import documents as cm_documents
from cheekymonkey.cli.options import delay_type, number_type, positive_int, seed_type
from cheekymonkey.cli.replay import _where as replay_where
from cheekymonkey.errors import ActionTextError
from cheekymonkey.games import AnyGame, game_named
from cheekymonkey.names import MAX_DIGITS, ascii_number
from cheekymonkey.serialization import DocumentError
from cheekymonkey.web import Limits, RoomManager
from tests.test_cli_usability import ANSI, run, run_at_terminal
from tests.web_support import LiveServer, call, live_server, make_room, token_of

OTHER_DIGITS: Final[dict[str, str]] = {
    "superscript two": "\u00b2",
    "superscript one": "\u00b9",
    "subscript two": "\u2082",
    "circled two": "\u2461",
    "Arabic-Indic two": "\u0662",
    "Extended Arabic-Indic two": "\u06f2",
    "Devanagari two": "\u0968",
    "fullwidth two": "\uff12",
    "Roman numeral two": "\u2161",
    "mathematical bold two": "\U0001d7d0",
    "ASCII two then a superscript": "2\u00b2",
    "a 5,000-digit number": "1" * 5_000,
}
"""Digits ``str.isdigit`` or ``int`` may take that are not ASCII digits, and a number ``int`` will not read."""

FORMS: Final[dict[str, tuple[str, ...]]] = {
    "cheeky-monkey": ("c {}", "c{}", "w {}", "w{}", "claim {}", "swap {}"),
    "too-many-monkeys": ("w {}", "s {}", "r {}", "x {}", "x 1 {}", "{}", "take {}", "skip {}", "wild {}"),
}
"""Every way each game's notation reads a number: after a word that names a move, or alone."""


def test_ascii_number_reads_ascii_digits_only_and_at_most_nine() -> None:
    """0-9 only, 1 to 9 of them: no sign, space, underscore or other script's digit."""
    assert [ascii_number(text) for text in ("0", "7", "12", "0012", "9" * MAX_DIGITS)] == [0, 7, 12, 12, 999999999]
    for text in ("", "+1", "-1", " 1", "1 ", "1_0", "1.0", "9" * (MAX_DIGITS + 1), "1\n", *OTHER_DIGITS.values()):
        assert ascii_number(text) is None, repr(text)


def _decision_states(game: AnyGame, players: int) -> Iterator[Any]:
    """States where a seat decides, from random games: every phase both games have, several times over."""
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_game(players)
        while not game.is_terminal(state):
            if game.is_chance_node(state):
                state = game.apply(state, game.sample_chance(state, rng))
                continue
            yield state
            state = game.apply(state, rng.choice(list(game.legal_actions(state))))


@pytest.mark.parametrize("game_name", sorted(FORMS))
@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_the_notation_refuses_other_digits_as_any_other_bad_move(game_name: str, digit: str) -> None:
    """In every phase of random games of both games, each form with another digit is an ActionTextError."""
    game = game_named(game_name)
    checked = 0
    for state in _decision_states(game, 3):
        for form in FORMS[game_name]:
            text = form.format(OTHER_DIGITS[digit])
            with pytest.raises(ActionTextError):
                game.parse_actions(text, state)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("game_name", sorted(FORMS))
def test_the_same_forms_with_ascii_digits_are_read_or_refused_with_the_typed_error(game_name: str) -> None:
    """The forms themselves are readable: with ASCII digits each gives actions or an ActionTextError."""
    game = game_named(game_name)
    read = 0
    for state in _decision_states(game, 3):
        for form in FORMS[game_name]:
            for number in ("0", "1", "2", "3"):
                try:
                    actions = game.parse_actions(form.format(number), state)
                except ActionTextError:
                    continue
                assert all(action in game.legal_actions(s) for s, action in _walk(game, state, actions))
                read += 1
    assert read > 50


def _walk(game: AnyGame, state: Any, actions: tuple[Any, ...]) -> Iterator[tuple[Any, Any]]:
    for action in actions:
        yield state, action
        state = game.apply(state, action)


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_the_command_line_s_numbers_take_ascii_digits_only(digit: str) -> None:
    """--players, --games, --delay, --seed, --port...: another digit gets argparse's refusal, never a number."""
    text = OTHER_DIGITS[digit]
    for parse in (positive_int, delay_type, seed_type, number_type(int, 0, 65535, what="a port")):
        with pytest.raises(argparse.ArgumentTypeError, match="is not"):
            parse(text)
    assert (positive_int("12"), delay_type("0.5"), seed_type("-7"), seed_type(" 42 ")) == (12, 0.5, -7, 42)


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    limits = Limits(rooms_per_client=500, rooms_per_minute=500, max_rooms=500)
    with live_server(RoomManager(allow_seeds=True, limits=limits)) as running:
        yield running


@pytest.mark.parametrize(("game_name", "text"), [("cheeky-monkey", "c {}"), ("too-many-monkeys", "w {}")])
@pytest.mark.parametrize("digit", ["superscript two", "circled two", "Arabic-Indic two", "fullwidth two"])
def test_the_web_api_answers_400_to_a_move_typed_with_another_digit(
    server: LiveServer, game_name: str, text: str, digit: str
) -> None:
    """A real server: ``{"text": "c ²"}`` is refused as any bad move, 400 with the notation's reason."""
    room = make_room(server, "Ann", "Bob", game=game_name)
    typed = text.format(OTHER_DIGITS[digit])
    status, answer = call(server, "POST", "/api/move", {"version": 1, "text": typed}, token=token_of(room, 0))
    assert status == 400, answer
    assert answer["error"].startswith(repr(typed))
    assert "is not a" in answer["error"]
    status, table = call(server, "GET", "/api/table", token=token_of(room, 0))
    assert (status, table["game"], table["version"]) == (200, game_name, 1)


@pytest.mark.parametrize(("game_name", "typed"), [("cheeky-monkey", "c \u00b2"), ("too-many-monkeys", "w \u00b2")])
def test_cheekymonkey_play_in_a_pipe_refuses_another_digit_in_one_line(game_name: str, typed: str) -> None:
    """Piped answers: the refusal is the usual line, and the game goes on to the end without a traceback."""
    answers = typed + "\n" + "s\nd\nx 1\n" * 400
    result = run(["play", "--game", game_name, "--players", "2", "--seed", "1", "--no-record"], answers)
    assert "Traceback" not in result.stdout + result.stderr
    assert f"'{typed}': '\u00b2' is not a " in result.stdout
    assert result.returncode in (0, 1), result.stderr


@pytest.mark.parametrize(("game_name", "typed"), [("cheeky-monkey", "c \u00b2"), ("too-many-monkeys", "w \u00b2")])
def test_cheekymonkey_play_at_a_terminal_refuses_another_digit_in_one_line(game_name: str, typed: str) -> None:
    """At a pseudo-terminal: the same one-line refusal, then the prompt again, and no traceback."""
    status, shown = run_at_terminal(
        ["play", "--game", game_name, "--players", "2", "--seed", "1", "--no-record"], typed + "\nq\ny\n", echo=False
    )
    assert "Traceback" not in shown
    refusals = [line for line in ANSI.sub("", shown).splitlines() if "is not a " in line]
    assert len(refusals) == 1, shown
    assert f"'{typed}': '\u00b2' is not a " in refusals[0]
    assert refusals[0].endswith("Type ? for help.")
    assert status in (0, 1), shown


def test_a_document_s_numbers_are_json_numbers_not_digit_text() -> None:
    """Documents hold numbers as JSON numbers: a seat written as another digit's text is refused, typed."""
    with pytest.raises(DocumentError):
        cm_documents.load_action('{"format": "cheekymonkey/1", "kind": "action", "type": "claim", "seat": "\u00b2"}')


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_replay_s_places_take_ascii_digits_only(digit: str) -> None:
    """``--to`` and the step prompt of ``cheekymonkey replay``: ``r ²`` or ``t`` and 5,000 digits are no place."""
    for form in ("r {}", "round:{}", "t{}", "turn : {}"):
        with pytest.raises(argparse.ArgumentTypeError, match="is not a place in the game"):
            replay_where(form.format(OTHER_DIGITS[digit]))
    assert [replay_where(text) for text in ("round:4", "r 4", "t120", "turn : 7", "e")] == [
        ("round", 4),
        ("round", 4),
        ("turn", 120),
        ("turn", 7),
        ("end", 0),
    ]
