"""Bots: legal moves, the heuristic's rules of thumb, expectimax's exact values, and expectimax beating random."""

from __future__ import annotations

import itertools
import random

import pytest

from cheekymonkey import (
    Action,
    Animal,
    Bot,
    Claim,
    Draw,
    GameState,
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
from cheekymonkey.cheeky.bots import (
    BOTS,
    ExpectimaxBot,
    HeuristicBot,
    bot_named,
    bust_probability,
    position_value,
)
from cheekymonkey.cheeky.bots.evaluation import _Evaluator
from cheekymonkey.cheeky.bots.search import MCTSBot

RNG = random.Random(0)


def test_every_bot_follows_the_bot_protocol_and_is_built_by_name() -> None:
    """Every bot of the ladder is a Bot, and bot_named builds each; unknown names are refused."""
    for name in ("random", "heuristic", "expectimax", "mcts", "learned", "mcts400"):
        assert isinstance(bot_named(name), Bot)
    assert list(BOTS) == ["random", "heuristic", "expectimax", "mcts", "learned", "mcts400"]
    assert isinstance(bot_named("mcts"), MCTSBot)
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
    """R2, R12: offered a Lion (bonus 9) or an Elephant (bonus 3), the heuristic swaps for the Lion."""
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
    for bot in (HeuristicBot(), ExpectimaxBot(), MCTSBot(iterations=8)):
        assert bot.choose(state, RNG) == Place(Animal.LION)


def test_a_risk_or_depth_that_makes_no_sense_is_refused() -> None:
    """HeuristicBot needs 0 < risk < 1 (R22), ExpectimaxBot a positive depth, MCTSBot positive settings."""
    for risk in (0, 1, -0.5, 2, True, "0.3"):
        with pytest.raises(InvalidValueError, match="risk must be"):
            HeuristicBot(risk)
    for depth in (0, -1, 1.5, True):
        with pytest.raises(InvalidValueError, match="depth must be"):
            ExpectimaxBot(depth)
    for iterations in (0, -3, 2.0, True):
        with pytest.raises(InvalidValueError, match="iterations must be"):
            MCTSBot(iterations)
    for exploration in (0, -1.0, "1", False):
        with pytest.raises(InvalidValueError, match="exploration must be"):
            MCTSBot(10, exploration)
    for endgame in (-1, 2.5, True, "16"):
        with pytest.raises(InvalidValueError, match="endgame must be"):
            MCTSBot(10, 0.3, endgame)


def _tiny(elephants: int, seals: int) -> Ruleset:
    return Ruleset.custom({Animal.ELEPHANT: elephants, Animal.SEAL: seals}, swap=False)


def test_expectimax_values_a_turn_exactly() -> None:
    """No tiles, 2 Elephants and 2 Seals: with an Elephant in front, the values follow position_value's formula.

    Stopping banks 1 token whose Elephant top the opponent claims with chance 1 - (1 - 1/3)^2.5 (R7).
    Drawing busts with chance 1/3 (worth 0) or brings a Seal (2/3), after which every draw busts, so it stops
    with 2 tokens and the last Elephant or Seal on top, exposed with chance 1 - (1/2)^2.5.
    """
    ruleset = Ruleset.custom({Animal.ELEPHANT: 2, Animal.SEAL: 2}, bonus_tiles=False, swap=False)
    state = apply(new_game(2, ruleset=ruleset), Reveal(Animal.ELEPHANT))
    values = dict(ExpectimaxBot(depth=3).action_values(state))
    stop = (2 / 3) ** 2.5
    draw = 2 / 3 * (2 - (1 - 0.5**2.5))
    assert values == {Stop(): pytest.approx(stop), Herd(): pytest.approx(stop), Draw(): pytest.approx(draw)}
    assert ExpectimaxBot(depth=3).choose(state, RNG) == Draw()


def test_expectimax_stops_when_a_draw_is_likely_to_bust() -> None:
    """With five animals in front, 30 of the 47 tokens left bust it (R6): it stops rather than draw."""
    animals = [Animal.LION, Animal.KANGAROO, Animal.PANDA, Animal.GIRAFFE, Animal.HIPPO]
    actions: list[Action] = []
    for animal in animals:
        actions += [Reveal(animal), Draw()]
    state = apply_all(new_game(2), actions[:-1])
    assert bust_probability(state) == pytest.approx(30 / 47)
    values = dict(ExpectimaxBot().action_values(state))
    assert values[Stop()] > values[Draw()]
    assert ExpectimaxBot().choose(state, RNG) == Stop()


def test_every_bot_stops_when_every_token_in_the_bag_would_bust_it() -> None:
    """R22: with only Elephants and Seals in the bag and both in front, no bot draws."""
    state = apply_all(new_game(2, ruleset=_tiny(2, 2)), [Reveal(Animal.ELEPHANT), Draw(), Reveal(Animal.SEAL)])
    assert bust_probability(state) == 1.0
    for bot in (HeuristicBot(0.99), ExpectimaxBot(4)):
        assert bot.choose(state, RNG) not in (Draw(),)


def test_expectimax_claims_rather_than_stop() -> None:
    """R7: with a Seal claim open, claiming is worth more than stopping, and expectimax claims."""
    state = apply_all(new_game(2), [Reveal(Animal.SEAL), Stop(), Reveal(Animal.SEAL)])
    bot = ExpectimaxBot()
    values = dict(bot.action_values(state))
    assert values[Claim(0)] > values[Stop()]
    assert bot.choose(state, RNG) == Claim(0)


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


@pytest.mark.slow
def test_expectimax_wins_clearly_more_often_than_the_random_bot() -> None:
    """Over 200 seeded two-player games with alternating seats, expectimax wins at least 90% against random."""
    expectimax, random_bot = _match(None, 200)
    assert expectimax + random_bot == pytest.approx(200)
    assert expectimax >= 180, (expectimax, random_bot)


def test_action_values_need_a_deciding_state() -> None:
    """The values are of a decision: a chance node is refused with InvalidValueError."""
    with pytest.raises(InvalidValueError, match="expected a deciding state, got one in phase CHANCE"):
        ExpectimaxBot().action_values(new_game(2))


def test_position_value_is_zero_for_equal_seats_and_rewards_a_settled_majority() -> None:
    """An empty table is worth 0 to all; one Elephant under a stack leads by its token and part of the tile."""
    assert [position_value(new_game(3), seat) for seat in range(3)] == [0.0, 0.0, 0.0]
    ruleset = Ruleset.custom({Animal.ELEPHANT: 3, Animal.SEAL: 4})
    state = apply_all(
        new_game(2, ruleset=ruleset),
        [Reveal(Animal.ELEPHANT), Herd(), Reveal(Animal.SEAL)],
    )
    # Seat 0 has one Elephant under its stack; the Elephant tile (3) is not settled while 2 are out.
    lead = position_value(state, 0)
    assert 1 < lead < 1 + 3
    assert position_value(state, 1) < 0
    with pytest.raises(InvalidValueError, match="seat 2 is not one of the 2 seats"):
        position_value(state, 2)


def test_the_incremental_evaluation_equals_a_fresh_one_on_states_from_real_games() -> None:
    """The search's evaluator, built on one root, values later positions exactly as a fresh evaluation does."""
    checked = 0
    for seed in range(6):
        seats: list[Bot] = [HeuristicBot(), RandomBot(), HeuristicBot(0.5)]
        game = play_game(seats[: 2 + seed % 2], seed=seed)
        states: list[GameState] = list(game.record.states()[::5])
        for root, later in itertools.pairwise(states):
            for seat in range(root.players):
                incremental = _Evaluator(root.ruleset, root.stacks, seat).value(later.stacks, later.bag)
                assert incremental == pytest.approx(position_value(later, seat), abs=1e-9)
                checked += 1
    assert checked > 100


def test_the_mcts_bot_is_reproducible_from_its_rng_and_plays_legally() -> None:
    """The same rng seed gives the same choice; seeded games with the search bot replay the same."""
    state = apply_all(new_game(3), [Reveal(Animal.LION), Draw(), Reveal(Animal.SEAL)])
    choices = {MCTSBot(iterations=40, endgame=None).choose(state, random.Random(5)) for _ in range(3)}
    assert len(choices) == 1
    assert choices <= set(legal_actions(state))
    first = play_game([MCTSBot(iterations=10, endgame=None), HeuristicBot()], seed=4)
    again = play_game([MCTSBot(iterations=10, endgame=None), HeuristicBot()], seed=4)
    assert first.record.actions == again.record.actions
    assert repr(MCTSBot()) == "MCTSBot(iterations=1000, exploration=0.3, endgame=16)"


def test_before_the_endgame_the_mcts_bot_plays_as_expectimax() -> None:
    """With more than ``endgame`` tokens out it makes the expectimax choice; in the endgame it chooses legally."""
    game = play_game([HeuristicBot(), HeuristicBot()], seed=9)
    deciding = [s for s in game.record.states() if s.phase is Phase.DECIDE and len(legal_actions(s)) > 1]
    early = [s for s in deciding if sum(s.bag) + len(s.front) > 16]
    assert early
    for state in early[:15]:
        assert MCTSBot(iterations=5).choose(state, random.Random(0)) == ExpectimaxBot().choose(state, RNG)
    # In the endgame the playouts run to the end (R15) and count real results: the choice may differ.
    late = [s for s in deciding if sum(s.bag) + len(s.front) <= 16]
    assert late
    for state in late[:5]:
        assert MCTSBot(iterations=30).choose(state, random.Random(0)) in legal_actions(state)
