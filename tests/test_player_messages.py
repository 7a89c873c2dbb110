"""What a player reads: refusals to "you" with their rule in words, precise errors, and helpers alike in both games.

Also: precise stacking errors, a short message for one game's state given to the other, and the two games'
public modules offering the same helpers.

Every refusal met in seeded games of both games (every action of the game's action space that the rules refuse
in a state where a player decides) is rendered for a player as the terminal renders it
(:func:`cheekymonkey.cli.play.refusal_text`) and checked: each rule number it cites is followed by the rule's
title, no rule number stands bare, and it never speaks of "the player" in the third person.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import cheekymonkey.cheeky as cheeky
import cheekymonkey.toomany as toomany
from cheekymonkey.cli.play import refusal_text, rules_of
from cheekymonkey.errors import ActionTextError, CheekyMonkeyError, IllegalActionError, InvalidStateError
from cheekymonkey.games import game_named
from tests.test_cli_usability import run

NUMBER = re.compile(r"\b(?:TME|TM|R|E)\d+\b")


def _refusals(name: str, seeds: range) -> dict[str, Any]:
    """Each refusal's reason met in seeded random games, with a state it was met in."""
    game = game_named(name)
    found: dict[str, Any] = {}
    for seed in seeds:
        rng = random.Random(seed)
        players = rng.randint(2, 5)
        encoding = game.encoding(players)
        state = game.new_game(players)
        for _ in range(300):
            if game.is_terminal(state):
                break
            if game.is_chance_node(state):
                state = game.apply(state, game.sample_chance(state, rng))
                continue
            legal = game.legal_actions(state)
            for index in range(encoding.num_actions):
                try:
                    action = encoding.decode(index, state)
                except CheekyMonkeyError:
                    continue
                if action in legal:
                    continue
                with pytest.raises(IllegalActionError) as caught:
                    game.apply(state, action)
                found.setdefault(caught.value.reason, state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
    return found


@pytest.mark.parametrize("name", ["cheeky-monkey", "too-many-monkeys"])
def test_every_refusal_reads_to_you_and_names_its_rule_in_words(name: str) -> None:
    """Each refusal as a player reads it: every rule cited as "rule R7, Claims", none bare; never "the player"."""
    game = game_named(name)
    rules = rules_of(game)
    assert rules is not None
    found = _refusals(name, range(25))
    assert len(found) > 20, sorted(found)
    for reason in found:
        shown = refusal_text(game, reason)
        cited = NUMBER.findall(reason)
        assert cited, reason  # the library's reason names its rule
        for number in cited:
            assert f"rule {number}, {rules.RULES[number][0]}" in shown, shown
        bare = [m for m in NUMBER.finditer(shown) if shown[max(0, m.start() - 5) : m.start()] != "rule "]
        assert bare == [], shown
        assert "the player" not in shown.lower(), shown
        assert not re.search(r"\b(he|she|his|her)\b", shown), shown
    assert any(" you" in refusal_text(game, reason) for reason in found)


def test_the_rule_behind_a_refusal_can_be_read_at_the_prompt() -> None:
    """A refusal at the prompt says which rule, and ? with its number prints the rule's own text."""
    answers = "?\nd\n? tm11\n? x9\nq\n"
    done = run(["play", "--game", "too-many-monkeys", "--seed", "3", "--no-record"], stdin=answers)
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "(rule TM11, Wild monkey). Type ? TM11 to read the rule, or ? for help." in said
    assert "TM11 Wild monkey: A wild in hand is placed at once on a face-down position" in said
    assert "There is no rule 'x9'" in said


def test_a_stacking_error_names_the_wrong_letter_and_an_empty_line_is_explained() -> None:
    """'mhx' names the x; an empty line says what to type; at the terminal too."""
    state = cheeky.apply_all(
        cheeky.new_game(2),
        [cheeky.Reveal("seal"), cheeky.Draw(), cheeky.Reveal("lion"), cheeky.Draw(), cheeky.Reveal("monkey")],
    )
    state = cheeky.apply(state, cheeky.Stop())
    with pytest.raises(ActionTextError) as caught:
        cheeky.parse_actions("slx", state)
    assert caught.value.reason.startswith("'x' in 'slx' is not an animal's letter; the animals are e (elephant)")
    with pytest.raises(ActionTextError) as caught:
        cheeky.parse_actions("  ", state)
    assert caught.value.reason.startswith("say which animal to put on your stack next: its letter or its name")
    done = run(["play", "--seed", "1", "--no-record", "--bots", "random"], stdin="s\nslq\n\nq\n")
    said = " ".join(done.stdout.split())
    assert "An empty line is no move" in said


@pytest.mark.parametrize(
    ("engine", "state", "mine", "theirs"),
    [
        (cheeky, toomany.new_game(3), "Cheeky Monkey", "Too Many Monkeys"),
        (toomany, cheeky.new_game(3), "Too Many Monkeys", "Cheeky Monkey"),
    ],
)
def test_one_game_s_state_given_to_the_other_is_named_by_its_game_in_a_sentence(
    engine: Any, state: Any, mine: str, theirs: str
) -> None:
    """Apply and the questions: a message under 150 characters that names the game the state belongs to."""
    said = f"this is a {theirs} GameState, not a {mine} one: play it with the {theirs} engine"
    action = engine.legal_actions(engine.new_game(2))[0]
    with pytest.raises(IllegalActionError) as acted:
        engine.apply(state, action)
    assert acted.value.reason.endswith(said)
    assert len(str(acted.value)) < 150
    assert acted.value.state is state
    with pytest.raises(InvalidStateError) as asked:
        engine.legal_actions(state)
    assert str(asked.value).endswith(said)
    assert len(str(asked.value)) < 120


GAME_SPECIFIC = {
    # Helpers only one game can have, each with why.
    "begins_turn": "Cheeky Monkey's turn start is a state of its own; Too Many Monkeys' is its binding's",
    "bust_probability": "only Cheeky Monkey busts",
    "claim_all": "Cheeky Monkey's claims",
    "stop_in_order": "Cheeky Monkey's stacking",
    "score": "Cheeky Monkey's score sheet; Too Many Monkeys counts no points",
    "score_counts": "Cheeky Monkey's score sheet",
    "score_stacks": "Cheeky Monkey's score sheet",
    "card_words": "Too Many Monkeys' cards",
    "chance_pool": "Too Many Monkeys' unseen cards",
    "face_down": "Too Many Monkeys' face-down cards",
    "winner": "Too Many Monkeys has one winner; Cheeky Monkey's may share (winners, in both)",
}


def test_both_games_public_modules_offer_the_same_helpers() -> None:
    """Every function one game's module exports, the other's exports too, but for those only one game can have."""
    functions = {
        module.__name__: {name for name in module.__all__ if callable(getattr(module, name)) and name[0].islower()}
        for module in (cheeky, toomany)
    }
    only_cheeky = functions["cheekymonkey.cheeky"] - functions["cheekymonkey.toomany"]
    only_toomany = functions["cheekymonkey.toomany"] - functions["cheekymonkey.cheeky"]
    assert only_cheeky | only_toomany == set(GAME_SPECIFIC), (only_cheeky, only_toomany)
    for helper in ("describe_event", "action_words", "result_text", "hint", "outcome", "winners", "bot_named"):
        assert helper in functions["cheekymonkey.cheeky"]


def test_cheeky_monkey_s_helpers_tell_events_and_results_with_names() -> None:
    """describe_event and result_text with the seats' names (not "Seat 0"), as Too Many Monkeys' do."""
    state = cheeky.apply(cheeky.new_game(2), cheeky.Reveal("lion"))
    drew = cheeky.Drew(0, cheeky.Animal.LION)
    assert cheeky.describe_event(drew, ["Ann", "Bob"]) == "Ann draws a Lion."
    assert cheeky.action_words(cheeky.Draw(), state, ["Ann", "Bob"]) == "draw"
    rng = random.Random(4)
    while not cheeky.is_terminal(state):
        if cheeky.is_chance_node(state):
            state = cheeky.apply(state, cheeky.sample_chance(state, rng))
        else:
            legal = cheeky.legal_actions(state)
            state = cheeky.apply(state, legal[rng.randrange(len(legal))])
    text = cheeky.result_text(state, ["Ann", "Bob"])
    assert "Ann" in text
    assert "Bob" in text
    assert "Seat 0" not in text
    assert "Seat 0" in cheeky.result_text(state)
    assert cheeky.winners(state) == tuple(cheeky.score(state).winners)
    assert cheeky.outcome(state).winners == cheeky.winners(state)
    assert toomany.winners(toomany.new_game(2)) == ()
