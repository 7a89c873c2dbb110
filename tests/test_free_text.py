r"""Text that reaches a terminal is text: every free text a document, a record or a peer carries is checked.

A rule set's name, a record's seat names and bots, a table's seats: each is shown to other people, at their
terminals too, so each is refused (a typed error, a clear message) when it holds a control character (C0,
DEL, C1: an escape sequence that retitles a window, clears the screen or writes the clipboard), a
bidirectional control (which reorders the text around it), a lone surrogate or a line separator, or runs
over 64 characters (a rule set's name, a seat's name people give) or 256 (a seat's label at a table and in
a record, which a program may give). One function checks them all, :func:`cheekymonkey.names.check_text`.

The documents' free-text fields are found here, not listed: every string of every kind of document of both
games that the loader accepts a plain word in is one, and each is then given each hostile text. The printers
are checked the other way: whatever free text is accepted, nothing they print holds a control or
bidirectional character but the line break.
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cheekymonkey.cheeky import rules as cm_rules
from cheekymonkey.errors import InvalidGameError, InvalidRulesetError, InvalidValueError
from cheekymonkey.games import AnyGame, game_named
from cheekymonkey.names import MAX_LABEL_LENGTH, MAX_TEXT_LENGTH, check_names, check_text, name_key, text_problem
from cheekymonkey.serialization import DocumentError
from cheekymonkey.table import Seat
from cheekymonkey.toomany import rules as tm_rules

BUILT_IN_GAMES = ("cheeky-monkey", "too-many-monkeys")
"""The games whose rule sets carry a name people give (a plug-in's rules may carry none)."""

ROOT: Final = Path(__file__).resolve().parent.parent

BIDI_CONTROLS: Final = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

HOSTILE: Final[dict[str, str]] = {
    "a window title change": "Ann\x1b]0;pwned\x07",
    "a screen clear": "\x1b[2J\x1b[H",
    "a clipboard write of rm -rf ~": "x\x1b]52;c;cm0gLXJmIH4=\x07",
    "a NUL": "Ann\x00",
    "a bell": "Ann\x07",
    "a line break": "Ann\nBob",
    "a tab": "Ann\tBob",
    "a DEL": "Ann\x7f",
    "a C1 control sequence introducer": "Ann\x9b2J",
    "a right-to-left override": "Ann\u202eeve",
    "a right-to-left isolate": "Ann\u2067eve",
    "a left-to-right mark": "Ann\u200e",
    "an Arabic letter mark": "Ann\u061c",
    "a line separator": "Ann\u2028Bob",
    "a lone surrogate": "Ann\ud800",
    "7,000 characters": "x" * 7_000,
    "257 characters": "x" * (MAX_LABEL_LENGTH + 1),
    "only spaces": "   ",
}
"""Free texts every checker refuses (a name of 65 characters is refused too, but for a seat's label)."""

ACCEPTED_RULESET_NAMES: Final = (
    "x" * MAX_TEXT_LENGTH,
    "zero\u200bwidth space",
    "family \U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\u05e2\u05d1\u05e8\u05d9\u05ea right to left letters",
    "e\u0301te \u00e0 Z\u00fcrich [bold]not markup[/bold]",
)
"""Rule-set names that are accepted though unusual: format characters that are not controls, scripts, marks."""

ACCEPTED_SEAT_NAMES: Final = (
    "Zo\u00eb",
    "\u05e2\u05d1\u05e8\u05d9\u05ea",
    "\u674e\u96f7",
    "Monkey \U0001f412",
    "e\u0301ric",
    "A" * MAX_TEXT_LENGTH,
)
"""Seat names every front end accepts, of scripts and marks a printer must carry through unharmed."""


def _shown_badly(text: str) -> list[str]:
    """The characters of printed ``text`` that could act on a terminal: any refused one but the line break."""
    return sorted({f"U+{ord(ch):04X}" for ch in text if ch != "\n" and text_problem(f"a{ch}") is not None})


# --- the one check ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "point",
    [*range(0x20), 0x7F, *range(0x80, 0xA0), *map(ord, BIDI_CONTROLS), 0x2028, 0x2029, 0xD800, 0xDFFF],
    ids=lambda point: f"U+{point:04X}",
)
def test_every_control_bidi_control_surrogate_and_separator_is_refused(point: int) -> None:
    """C0, DEL, C1, the twelve bidirectional controls, surrogates, line and paragraph separators: refused."""
    text = f"Ann{chr(point)}Bob"
    problem = text_problem(text)
    assert problem is not None
    assert f"U+{point:04X}" in problem
    with pytest.raises(InvalidValueError, match=f"U\\+{point:04X}"):
        check_text(text, "a name")


def test_only_the_refused_characters_are_refused() -> None:
    """Every other code point is accepted in a name's text (letters of any script, marks, emoji, format chars)."""
    refused = {*range(0x20), 0x7F, *range(0x80, 0xA0), *map(ord, BIDI_CONTROLS), 0x2028, 0x2029}
    refused |= set(range(0xD800, 0xE000))
    for point in range(0x110000):
        assert (text_problem(f"a{chr(point)}") is not None) == (point in refused), hex(point)


def test_free_text_is_bounded_at_64_characters_and_the_message_is_short_and_escaped() -> None:
    """64 characters pass and 65 do not; the message quotes a prefix, escaped, on one line."""
    assert check_text("x" * MAX_TEXT_LENGTH, "a name") == "x" * MAX_TEXT_LENGTH
    with pytest.raises(InvalidValueError, match="65 characters, over the limit of 64"):
        check_text("x" * 65, "a name")
    with pytest.raises(InvalidValueError) as caught:
        check_text("\x1b]0;t\x07" * 2_000, "a rule set's name")
    message = str(caught.value)
    assert len(message) < 300
    assert not _shown_badly(message)
    assert message.startswith("a rule set's name '\\x1b]0;t\\x07")


@pytest.mark.parametrize("text", [None, 7, b"Ann", ["Ann"]], ids=repr)
def test_free_text_that_is_not_a_string_is_refused(text: object) -> None:
    """A name must be text at all."""
    with pytest.raises(InvalidValueError, match="must be text"):
        check_text(text, "a name")


# --- every constructor that takes free text ------------------------------------------------------------


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_rule_set_of_either_game_refuses_a_hostile_name_by_every_way_of_building_it(hostile: str) -> None:
    """The constructors check, so the presets, custom() and a loader all go through the check."""
    text = HOSTILE[hostile]
    for build in (
        lambda: cm_rules.Ruleset.custom({"seal": 2, "monkey": 1}, name=text),
        lambda: attrs.evolve(cm_rules.Ruleset.standard(), name=text),
        lambda: tm_rules.Ruleset.custom(name=text),
        lambda: attrs.evolve(tm_rules.Ruleset.standard(), name=text),
    ):
        with pytest.raises(InvalidRulesetError, match=r"a rule set's name .* is refused|must be a non-empty string"):
            build()


@pytest.mark.parametrize("game_name", BUILT_IN_GAMES)
@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_record_refuses_a_hostile_seat_name_or_bot_and_a_table_a_hostile_seat(game_name: str, hostile: str) -> None:
    """Names and bots of a record, a seat's name and kind at a table: each refused with the game's error."""
    game = game_named(game_name)
    text = HOSTILE[hostile]
    ruleset = game.ruleset()
    blank = "non-empty" if not text.strip() else "is refused"  # the older message for a blank text stands
    with pytest.raises(InvalidGameError, match=rf"the names\[1\] of a record .* {blank}|names must be .*{blank}"):
        game.record(ruleset, 2, 0, (), names=("Ann", text))
    with pytest.raises(InvalidGameError, match=rf"the bots\[0\] of a record .* {blank}|bots must be .*{blank}"):
        game.record(ruleset, 2, 0, (), bots=(text, "human"))
    with pytest.raises(InvalidGameError, match=f"a seat's name .*{blank}"):
        Seat.person(text)
    with pytest.raises(InvalidGameError, match=f"a seat's kind .*{blank}"):
        Seat("Ann", text)
    with pytest.raises(InvalidValueError):
        check_names(["Bob", text])


# --- every free-text field of every document, found and then attacked ------------------------------------


def _play(game: AnyGame, players: int, ruleset: Any, seed: int) -> tuple[list[Any], list[tuple[Any, Any]]]:
    """Every state of a random game, and each step's action with its events."""
    rng = random.Random(seed)
    state = game.new_game(players, ruleset)
    states = [state]
    steps: list[tuple[Any, Any]] = []
    while not game.is_terminal(state) and len(steps) < 3_000:
        if game.is_chance_node(state):
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(list(game.legal_actions(state)))
        state, events = game.apply_with_events(state, action)
        states.append(state)
        steps.append((action, events))
    return states, steps


def _documents(game: AnyGame) -> list[dict[str, Any]]:
    """A document of each kind that can carry free text: a rule set, a state, a view, a record with names."""
    documents = game.documents()
    ruleset = game.ruleset()
    states, steps = _play(game, 2, ruleset, seed=5)
    record = game.record(ruleset, 2, 0, [action for action, _ in steps], names=("Ann", "Bob"), bots=("human", "x"))
    values = [ruleset, states[len(states) // 2], game.view(states[len(states) // 2], 0), record]
    return [documents.to_document(value) for value in values]


def _strings(node: object, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if isinstance(node, str):
        yield path
    elif isinstance(node, dict):
        for key, child in node.items():
            if key not in ("format", "kind"):
                yield from _strings(child, (*path, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _strings(child, (*path, index))


def _with(document: dict[str, Any], path: tuple[str | int, ...], value: str) -> str:
    changed = copy.deepcopy(document)
    parent: Any = changed
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return json.dumps(changed)


def _free_text_fields(game: AnyGame) -> list[tuple[dict[str, Any], tuple[str | int, ...]]]:
    """Every string of every sample document that takes a plain word the game has no meaning for."""
    loads = game.documents().loads
    found = []
    for document in _documents(game):
        for path in _strings(document):
            try:
                loads(_with(document, path, "Zebra crossing 9"))
            except DocumentError:
                continue  # a word of the game's own (a phase, an animal, a card): not free text
            found.append((document, path))
    return found


@pytest.mark.parametrize("game_name", BUILT_IN_GAMES)
def test_every_free_text_field_of_every_document_refuses_every_hostile_text(game_name: str) -> None:
    """Each field found (rule-set names in four kinds, a record's names and bots) refuses each hostile text."""
    game = game_named(game_name)
    loads = game.documents().loads
    fields = _free_text_fields(game)
    kinds_and_names = {
        (document["kind"], next(k for k in reversed(path) if isinstance(k, str))) for document, path in fields
    }
    assert kinds_and_names == {
        ("ruleset", "name"),
        ("state", "name"),
        ("view", "name"),
        ("record", "name"),
        ("record", "names"),
        ("record", "bots"),
    }
    for document, path in fields:
        for hostile, text in HOSTILE.items():
            with pytest.raises(DocumentError) as caught:
                loads(_with(document, path, text))
            message = str(caught.value)
            assert any(words in message for words in ("is refused", "surrogate", "non-empty")), (path, hostile, message)
            assert not _shown_badly(message), (path, hostile)


# --- every printer, for every accepted text ---------------------------------------------------------------


def _printed(game: AnyGame, ruleset_name: str, names: tuple[str, ...]) -> Iterator[str]:
    """Everything the game's printers write about a random game under a rule set named ``ruleset_name``."""
    ruleset = attrs.evolve(game.ruleset(), name=ruleset_name)
    states, steps = _play(game, len(names), ruleset, seed=len(ruleset_name))
    yield game.ruleset_name(ruleset)
    for state, (action, events) in zip(states, steps, strict=False):
        yield game.board_text(state)
        yield game.action_words(action, state, names)
        yield from game.choice_notes(state, names)
        for event in events:
            for viewer in (None, 0, 1):
                yield game.event_text(event, names, viewer)
    yield game.board_text(states[-1])
    yield game.result_text(states[-1], names)


@pytest.mark.parametrize("game_name", BUILT_IN_GAMES)
@pytest.mark.parametrize("ruleset_name", ACCEPTED_RULESET_NAMES, ids=range(len(ACCEPTED_RULESET_NAMES)))
def test_no_printer_writes_a_control_or_bidi_character_for_any_accepted_text(game_name: str, ruleset_name: str) -> None:
    """Board, moves, notes, every event to every viewer, the result: only text and line breaks."""
    game = game_named(game_name)
    names = ACCEPTED_SEAT_NAMES[:3] if game_name == BUILT_IN_GAMES[0] else ACCEPTED_SEAT_NAMES[-3:]
    check_names(names)
    printed = list(_printed(game, ruleset_name, names))
    assert len(printed) > 20
    for text in printed:
        assert not _shown_badly(text), text


def _replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cheekymonkey", "replay", "--no-step", str(path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("game_name", BUILT_IN_GAMES)
def test_cheekymonkey_replay_prints_accepted_names_as_text_and_refuses_hostile_ones_in_one_line(
    game_name: str, tmp_path: Path
) -> None:
    """A real replay, in a subprocess: an accepted record prints whole and clean; a hostile one is one line."""
    game = game_named(game_name)
    ruleset = attrs.evolve(game.ruleset(), name=ACCEPTED_RULESET_NAMES[2])
    names = ACCEPTED_SEAT_NAMES[:2]
    _, steps = _play(game, 2, ruleset, seed=11)
    record = game.record(ruleset, 2, 0, [action for action, _ in steps], names=names, bots=("human", "random"))
    documents = game.documents()
    good = tmp_path / "good.json"
    good.write_text(documents.dumps(record), encoding="utf-8")
    shown = _replay(good)
    assert shown.returncode == 0, shown.stderr
    assert names[0] in shown.stdout
    assert names[1] in shown.stdout
    assert not _shown_badly(shown.stdout + shown.stderr)
    document = documents.to_document(record)
    for field, value in (("ruleset", HOSTILE["a clipboard write of rm -rf ~"]), ("names", HOSTILE["a screen clear"])):
        hostile = copy.deepcopy(document)
        if field == "ruleset":
            hostile["ruleset"]["name"] = value
        else:
            hostile["names"][1] = value
        bad = tmp_path / f"{field}.json"
        bad.write_text(json.dumps(hostile), encoding="utf-8")
        refused = _replay(bad)
        assert refused.returncode == 2, refused.stdout
        assert "Traceback" not in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        assert "is refused" in refused.stderr
        assert not _shown_badly(refused.stdout + refused.stderr)
        assert unicodedata.normalize("NFC", refused.stdout) == refused.stdout


@pytest.mark.parametrize("game_name", BUILT_IN_GAMES)
def test_a_name_is_bounded_at_64_characters_and_a_seat_s_label_at_256(game_name: str) -> None:
    """A rule set's name and a seat's name people give: 64; a label a program gives a seat or a record: 256."""
    game = game_named(game_name)
    ruleset = game.ruleset()
    assert attrs.evolve(ruleset, name="x" * MAX_TEXT_LENGTH).name == "x" * MAX_TEXT_LENGTH
    with pytest.raises(InvalidRulesetError, match="65 characters, over the limit of 64"):
        attrs.evolve(ruleset, name="x" * (MAX_TEXT_LENGTH + 1))
    check_names(["A" * MAX_TEXT_LENGTH])
    with pytest.raises(InvalidValueError, match="65 characters, over the limit of 64"):
        check_names(["A" * (MAX_TEXT_LENGTH + 1)])
    label = "<a bot object's repr, " + "x" * (MAX_LABEL_LENGTH - 23) + ">"
    assert len(label) == MAX_LABEL_LENGTH
    assert Seat(label, label).name == label
    assert game.record(ruleset, 2, 0, (), names=(label, "Ann"), bots=("human", label)).names[0] == label
    with pytest.raises(InvalidGameError, match="257 characters, over the limit of 256"):
        game.record(ruleset, 2, 0, (), names=(label + "x", "Ann"))
    with pytest.raises(InvalidGameError, match="257 characters, over the limit of 256"):
        Seat("Ann", label + "x")


def _accepted_name(text: str) -> bool:
    try:
        check_names([text])
    except InvalidValueError:
        return False
    return True


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(
    st.sampled_from(BUILT_IN_GAMES),
    st.text(min_size=1, max_size=MAX_TEXT_LENGTH).filter(lambda text: text_problem(text) is None),
    st.lists(st.text(min_size=1, max_size=12).filter(_accepted_name), min_size=2, max_size=2, unique_by=name_key),
)
def test_whatever_text_is_accepted_no_printer_writes_a_control_or_bidi_character(
    game_name: str, ruleset_name: str, names: list[str]
) -> None:
    """Any rule-set name check_text accepts, any seat names check_names accepts: the printers write only text."""
    game = game_named(game_name)
    check_names(names)
    for text in _printed(game, ruleset_name, tuple(names)):
        assert not _shown_badly(text), text
