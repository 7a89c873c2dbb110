"""The OpenSpiel adapter declares what a game pays from its stakes; the built-in games' declarations are unchanged."""

from __future__ import annotations

import pytest

from cheekymonkey.games import game_named
from cheekymonkey.outcome import Stakes, Utility

pyspiel = pytest.importorskip("pyspiel")
openspiel_game = pytest.importorskip("cheekymonkey.rl.openspiel_game")


@pytest.mark.parametrize(
    ("stakes", "players", "declared"),
    [
        # The default: general-sum 0..1, as before games declared stakes (a truncated game pays 0).
        (Stakes.of_outcome(), 3, ("GENERAL_SUM", 0.0, 1.0, None, 0.0)),
        (Stakes(Utility.ZERO_SUM, -13.0, 13.0, 0.0), 2, ("ZERO_SUM", -13.0, 13.0, 0.0, 0.0)),
        # Constant-sum: a truncated game shares the total, so the bounds take in the share.
        (Stakes(Utility.CONSTANT_SUM, 2.0, 5.0, 9.0), 3, ("CONSTANT_SUM", 2.0, 5.0, 9.0, 3.0)),
        (Stakes(Utility.CONSTANT_SUM, 0.0, 2.0, 8.0), 2, ("CONSTANT_SUM", 0.0, 4.0, 8.0, 4.0)),
        (Stakes(Utility.GENERAL_SUM, 1.0, 4.0, None), 2, ("GENERAL_SUM", 0.0, 4.0, None, 0.0)),
    ],
)
def test_stakes_become_openspiels_declarations(stakes: Stakes, players: int, declared: tuple[object, ...]) -> None:
    kind, low, high, total, share = openspiel_game._declared(stakes, players)
    assert (kind.name, low, high, total, share) == declared


@pytest.mark.parametrize("name", ["cheeky-monkey", "too-many-monkeys"])
def test_the_built_in_games_declare_what_they_did(name: str) -> None:
    game = pyspiel.load_game(openspiel_game.spiel_name(name))
    assert game_named(name).stakes(2) == Stakes.of_outcome()
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.get_type().provides_information_state_tensor


def test_information_text_is_the_string_or_its_repr() -> None:
    assert openspiel_game.information_text("seat 0; card Kh") == "seat 0; card Kh"
    assert openspiel_game.information_text((1, None)) == "(1, None)"
