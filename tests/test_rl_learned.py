"""The learned bot: its shipped weights load and play with numpy alone, legally, and as strongly as measured."""

from __future__ import annotations

import importlib.resources
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from cheekymonkey import (
    CHEEKY_MONKEY,
    Animal,
    Bot,
    Draw,
    HeuristicBot,
    InvalidValueError,
    Reveal,
    Ruleset,
    apply,
    legal_actions,
    new_game,
)
from cheekymonkey.cheeky.bots import BOTS, bot_named
from cheekymonkey.cheeky.bots.learned import WEIGHTS, LearnedBot, Network, features, load_network
from cheekymonkey.cheeky.encoding import full_observation, observation_layout
from cheekymonkey.simulation import simulate
from cheekymonkey.table import Seat, Table

SHIPPED = importlib.resources.files("cheekymonkey.cheeky.bots").joinpath(WEIGHTS)
"""The weights as installed (from the source tree, or from a wheel)."""


def test_the_shipped_weights_are_small_float16_and_for_two_seats_of_the_standard_game() -> None:
    """The weights file is a few hundred KB of float16 arrays for a 2-seat standard game."""
    assert len(SHIPPED.read_bytes()) < 400_000
    with SHIPPED.open("rb") as file, np.load(file) as weights:
        assert {key for key in weights.files if key[0] in "wb"} == {"w0", "b0", "w1", "b1", "w2", "b2"}
        assert all(weights[key].dtype == np.float16 for key in weights.files if key[0] in "wb")
    network = load_network()
    assert network.players == 2
    assert network.ruleset == Ruleset.standard()
    assert network.fits(new_game(2))
    assert not network.fits(new_game(3))
    assert not network.fits(new_game(2, ruleset=Ruleset.younger()))


def test_the_registered_bot_plays_legally_with_the_network_or_its_fallback() -> None:
    """bot_named("learned") is a Bot; in seeded games at 2 to 4 seats each of its choices is legal."""
    assert "learned" in BOTS
    bot = bot_named("learned")
    assert isinstance(bot, Bot)
    assert isinstance(bot, LearnedBot)
    assert isinstance(bot.fallback, HeuristicBot)
    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        table = Table(CHEEKY_MONKEY, [Seat.bot(CHEEKY_MONKEY, "learned") for _ in range(seats)], seed=seed)
        chosen = [step for step in table.steps() if step.seat is not None]
        assert table.over
        assert len(chosen) > 20
        assert all(step.action in legal_actions(step.before) for step in chosen)


def test_the_network_chooses_the_legal_action_with_the_highest_output() -> None:
    """The bot's choice is the argmax of the outputs over the mask, the same every time."""
    network = load_network()
    bot = LearnedBot(network)
    state = apply(new_game(2), Reveal(Animal.LION))
    outputs = network.outputs(state)
    legal = network.codec.legal_indices(state)
    best = max(legal, key=lambda index: outputs[index])
    assert bot.choose(state, random.Random(0)) == network.codec.decode_at(state, best)
    assert bot.choose(state, random.Random(1)) == bot.choose(state, random.Random(0))


def test_the_features_are_the_observation_scaled_and_what_it_implies() -> None:
    """features() appends the draw chances, the bust chance, the tops' chances and the count leads."""
    layout = observation_layout("full", 2)
    state = apply(apply(apply(new_game(2), Reveal(Animal.LION)), Draw()), Reveal(Animal.SEAL))
    row = features(layout, np.array(full_observation(state, 0)))[0]
    size = layout.size
    assert row.shape == (size + 8 + 1 + 2 + 8,)
    assert row[:size].max() <= 1.0
    draw = row[size : size + 8]
    assert draw.sum() == pytest.approx(1.0)
    assert draw[Animal.MONKEY] == pytest.approx(10 / 50)
    assert row[size + 8] == pytest.approx((3 + 8) / 50)  # bust: a Seal or a Lion (R6)


def test_without_a_fallback_a_game_it_was_not_trained_for_is_refused() -> None:
    """LearnedBot(fallback=None) raises InvalidValueError at 3 seats; bad weights are refused."""
    with pytest.raises(InvalidValueError, match="fallback"):
        LearnedBot().choose(apply(new_game(3), Reveal(Animal.LION)), random.Random(0))
    with pytest.raises(InvalidValueError):
        Network({"players": np.array(2), "rules": np.array("standard")})
    with SHIPPED.open("rb") as file, np.load(file) as weights:
        arrays = {key: weights[key] for key in weights.files}
    arrays["w1"] = arrays["w1"][:, :-1]
    with pytest.raises(InvalidValueError, match="does not take"):
        Network(arrays)


def test_the_bot_needs_numpy_and_no_deep_learning_framework() -> None:
    """Playing the shipped network imports no torch; without numpy the registry names the extra."""
    code = textwrap.dedent(
        """
        import sys
        sys.modules["torch"] = None
        from cheekymonkey import play_game
        from cheekymonkey.cheeky.bots import bot_named
        game = play_game([bot_named("learned"), bot_named("heuristic")], seed=4)
        print(game.state.phase.name, "torch" in sys.modules and sys.modules["torch"] is not None)
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["OVER", "False"]
    blocked = "\n".join(
        [
            "import sys",
            'sys.modules["numpy"] = None',
            "from cheekymonkey.cheeky.bots import bot_named",
            'bot_named("learned")',
        ]
    )
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode != 0
    assert "InvalidValueError" in result.stderr
    assert "pip install 'cheekymonkey[rl]'" in result.stderr


@pytest.mark.slow
def test_a_seeded_tournament_against_the_heuristic_bot_gives_the_documented_result() -> None:
    """300 seeded games (seeds 60000 on, seats rotating) give the learned bot the 176 wins the ladder page quotes."""
    summary = simulate(["learned", "heuristic"], 300, seed=60000)
    assert summary.bots[0].wins == 176
    assert summary.bots[0].low > 0.5
