"""Bots: legal moves, the heuristic's rules of thumb, expectimax's exact values, and expectimax beating random."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from cheekymonkey import (
    Animal,
    Bot,
    Claim,
    Draw,
    Herd,
    InvalidValueError,
    Phase,
    Place,
    RandomBot,
    Reveal,
    Ruleset,
    Stop,
    Swap,
    apply,
    apply_all,
    legal_actions,
    new_game,
    play_game,
)
from cheekymonkey.bots import BOTS, ExpectimaxBot, HeuristicBot, bot_named, bust_probability

RNG = random.Random(0)


def test_every_bot_follows_the_bot_protocol_and_is_built_by_name() -> None:
    """RandomBot, HeuristicBot and ExpectimaxBot are Bots, and bot_named builds each; unknown names are refused."""
    for name in ("random", "heuristic", "expectimax"):
        assert isinstance(bot_named(name), Bot)
    assert set(BOTS) == {"random", "heuristic", "expectimax"}
    with pytest.raises(InvalidValueError, match="no bot named 'genius'"):
        bot_named("genius")


def test_the_bots_only_choose_legal_actions_in_every_preset_and_seat_count() -> None:
    """In 60 seeded games (2-6 seats, every preset), each heuristic and expectimax choice is legal."""
    presets = [Ruleset.preset(name) for name in Ruleset.preset_names()]
    for seed in range(60):
        ruleset = presets[seed % len(presets)]
        bots: list[Bot] = [ExpectimaxBot(), HeuristicBot(), ExpectimaxBot(1), HeuristicBot(0.6)]
        seats = 2 + seed % 5
        chosen = 0

        def check(state: object, action: object) -> None:
            nonlocal chosen
            assert isinstance(state, type(new_game(2)))
            if state.phase is not Phase.CHANCE:
                assert action in legal_actions(state)
                chosen += 1

        play_game([bots[i % len(bots)] for i in range(seats)], ruleset=ruleset, seed=seed, on_action=check)
        assert chosen > 0


def test_bust_probability_is_the_share_of_the_bag_matching_the_front() -> None:
    """R5, R6: with a Seal and a Lion in front, the bust chance is (3 Seals + 8 Lions) / 50."""
    state = apply_all(new_game(2), [Reveal(Animal.SEAL), Draw(), Reveal(Animal.LION)])
    assert bust_probability(state) == pytest.approx(11 / 50)
    empty = new_game(2, ruleset=Ruleset.custom({Animal.SEAL: 1}, swap=False))
    assert bust_probability(apply(empty, Reveal(Animal.SEAL))) == 0.0  # an empty bag: no draw, no bust


def test_the_heuristic_takes_a_claim_whenever_it_can() -> None:
    """R7: with a claim open, the heuristic claims rather than drawing or stopping."""
    state = apply_all(new_game(2), [Reveal(Animal.SEAL), Stop(), Reveal(Animal.SEAL)])
    assert HeuristicBot().choose(state, RNG) == Claim(0)


def test_the_heuristic_swaps_for_the_most_valuable_top() -> None:
    """R12: offered a Lion (bonus 9) or an Elephant (bonus 3), the heuristic swaps for the Lion."""
    state = apply_all(
        new_game(3),
        [Reveal(Animal.PANDA), Stop(), Reveal(Animal.LION), Stop(), Reveal(Animal.ELEPHANT), Stop()],
    )
    # Seat 0 has a Panda, seat 1 a Lion, seat 2 an Elephant; seat 0 draws a monkey.
    state = apply(state, Reveal(Animal.MONKEY))
    assert set(legal_actions(state)) >= {Swap(1), Swap(2)}
    assert HeuristicBot().choose(state, RNG) == Swap(1)


def test_the_heuristic_draws_below_its_risk_and_stops_above_it() -> None:
    """With a bust chance of 11/50 (0.22) it draws at risk 0.3 and stops at risk 0.2."""
    state = apply_all(new_game(2), [Reveal(Animal.SEAL), Draw(), Reveal(Animal.LION)])
    assert HeuristicBot(0.3).choose(state, RNG) == Draw()
    assert HeuristicBot(0.2).choose(state, RNG) == Stop()


def test_the_heuristic_secures_a_herd_rather_than_stopping() -> None:
    """R10: with one animal in front and too much risk, it puts the herd under its stack."""
    state = apply(new_game(2), Reveal(Animal.MONKEY))  # 9 monkeys left of 51: risk 0.18
    assert HeuristicBot(0.1).choose(state, RNG) == Herd()


def test_when_stacking_the_bots_put_the_animal_least_likely_to_be_drawn_on_top() -> None:
    """R9: with a Seal (3 left) and a Lion (8 left) to stack, the Lion goes down first and the Seal ends on top."""
    state = apply_all(new_game(2), [Reveal(Animal.SEAL), Draw(), Reveal(Animal.LION), Stop()])
    for bot in (HeuristicBot(), ExpectimaxBot()):
        assert bot.choose(state, RNG) == Place(Animal.LION)


def test_a_risk_or_depth_that_makes_no_sense_is_refused() -> None:
    """HeuristicBot needs 0 < risk < 1 (R22: risk 1 would never stop); ExpectimaxBot a positive depth."""
    for risk in (0, 1, -0.5, 2, True, "0.3"):
        with pytest.raises(InvalidValueError, match="risk must be"):
            HeuristicBot(risk)  # type: ignore[arg-type]
    for depth in (0, -1, 1.5, True):
        with pytest.raises(InvalidValueError, match="depth must be"):
            ExpectimaxBot(depth)  # type: ignore[arg-type]


def _tiny(elephants: int, seals: int) -> Ruleset:
    return Ruleset.custom({Animal.ELEPHANT: elephants, Animal.SEAL: seals}, swap=False)


def test_expectimax_values_a_turn_exactly() -> None:
    """With an Elephant in front and a bag of 1 Elephant and 2 Seals, drawing is worth 2/3 x 2 = 4/3 > 1."""
    state = apply(new_game(2, ruleset=_tiny(2, 2)), Reveal(Animal.ELEPHANT))
    assert state.bag == (1, 2, 0, 0, 0, 0, 0, 0)
    bot = ExpectimaxBot(depth=3)
    # Draw: a Seal (2/3) gives Elephant, Seal with only busting tokens left, so it stops with 2; an Elephant busts.
    assert bot.expected_banked(state) == pytest.approx(float(Fraction(4, 3)))
    assert bot.choose(state, RNG) == Draw()


def test_expectimax_stops_when_drawing_is_worth_no_more_than_stopping() -> None:
    """Bag of 1 Elephant and 1 Seal after an Elephant: drawing is worth 1/2 x 2 = 1, as much as stopping: it stops."""
    state = apply(new_game(2, ruleset=_tiny(2, 1)), Reveal(Animal.ELEPHANT))
    bot = ExpectimaxBot(depth=3)
    assert bot.expected_banked(state) == pytest.approx(1.0)
    assert bot.choose(state, RNG) in (Stop(), Herd())


def test_every_bot_stops_when_every_token_in_the_bag_would_bust_it() -> None:
    """R22: with only Elephants and Seals in the bag and both in front, no bot draws."""
    state = apply_all(new_game(2, ruleset=_tiny(2, 2)), [Reveal(Animal.ELEPHANT), Draw(), Reveal(Animal.SEAL)])
    assert bust_probability(state) == 1.0
    for bot in (HeuristicBot(0.99), ExpectimaxBot(4)):
        assert bot.choose(state, RNG) not in (Draw(),)


def test_expectimax_counts_claims_as_tokens_banked() -> None:
    """R7: with a Seal claim open, expectimax claims (one more token banked for sure) before stopping."""
    state = apply_all(new_game(2), [Reveal(Animal.SEAL), Stop(), Reveal(Animal.SEAL)])
    bot = ExpectimaxBot()
    assert bot.choose(state, RNG) == Claim(0)
    assert bot.expected_banked(state) >= 2.0


def _match(make_a: type[Bot] | None, games: int) -> tuple[float, float]:
    wins = [0.0, 0.0]
    for seed in range(games):
        pair: list[Bot] = [ExpectimaxBot(), RandomBot() if make_a is None else make_a()]
        # Alternate seats so neither bot always has the first move.
        seats = pair if seed % 2 == 0 else pair[::-1]
        sheet = play_game(seats, seed=seed).score
        for winner in sheet.winners:
            who = winner if seed % 2 == 0 else 1 - winner
            wins[who] += 1 / len(sheet.winners)
    return wins[0], wins[1]


def test_expectimax_wins_clearly_more_often_than_the_random_bot() -> None:
    """Over 200 seeded two-player games with alternating seats, expectimax wins at least 90% against random."""
    expectimax, random_bot = _match(None, 200)
    assert expectimax + random_bot == pytest.approx(200)
    assert expectimax >= 180, (expectimax, random_bot)


def test_expected_banked_needs_a_deciding_state() -> None:
    """The expectation is of a decision: a chance node is refused with InvalidValueError."""
    with pytest.raises(InvalidValueError, match="expected a deciding state, got one in phase CHANCE"):
        ExpectimaxBot().expected_banked(new_game(2))
