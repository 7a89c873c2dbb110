"""Too Many Monkeys' bots: legal and deterministic choices, the heuristic's rules, the search's exact weights."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.toomany import (
    BOTS,
    TOO_MANY_MONKEYS,
    Card,
    Decline,
    Draw,
    ExpectimaxBot,
    GameState,
    GiveSkip,
    HeuristicBot,
    Phase,
    PlaceWild,
    RaccoonTake,
    RandomBot,
    Ruleset,
    TakeBonus,
    TakeDiscard,
    TurnDown,
    apply,
    bot_named,
    chance_outcomes,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
    resolve_chance,
)
from cheekymonkey.toomany.bots import Bot, evaluation, position_value
from tests.toomany.helpers import make

TOO_MANY_MONKEYS_RULES = Ruleset.standard()


def _decisions(bots: list[Bot], seed: int, limit: int = 400) -> list[tuple[GameState, object]]:
    """The first ``limit`` decisions of a seeded game between ``bots``: each state and the action chosen."""
    rng = random.Random(seed)
    state = new_game(len(bots))
    made: list[tuple[GameState, object]] = []
    while not is_terminal(state) and len(made) < limit:
        if is_chance_node(state):
            state = resolve_chance(state, rng)
            continue
        action = bots[state.seat].choose(state, rng)
        made.append((state, action))
        state = apply(state, action)
    return made


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_chooses_a_legal_action_in_every_decision_of_seeded_games(players: int) -> None:
    """Random, heuristic and expectimax bots at one table: each choice is one of legal_actions."""
    kinds = list(BOTS)
    bots = [bot_named(kinds[seat % len(kinds)]) for seat in range(players)]
    for seed in range(2):
        made = _decisions(bots, seed)
        assert len(made) > 20
        for state, action in made:
            assert action in legal_actions(state)


def test_the_heuristic_and_the_search_choose_the_same_way_from_the_same_state() -> None:
    """Both are deterministic: the same state gives the same action whatever the random stream."""
    made = _decisions([HeuristicBot(), ExpectimaxBot()], seed=5, limit=120)
    for state, action in made:
        bot = HeuristicBot() if state.seat == 0 else ExpectimaxBot()
        assert bot.choose(state, random.Random(99)) == action


def test_the_heuristic_takes_a_usable_discard_and_draws_otherwise() -> None:
    """TM6: it takes a number whose position is face down or holds a wild; a number face up already, it draws."""
    bot = HeuristicBot()
    rng = random.Random(0)
    assert bot.choose(make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="4"), rng) == TakeDiscard()
    assert bot.choose(make(["? ? ? W ? ?", "? ? ? ? ? ?"], discard="4"), rng) == TakeDiscard()
    # A 5 is too high for a row of 4: 001 lets it be taken, but it would only be discarded again.
    too_high = make(["? ? ? ?", "? ? ? ? ? ?", "? ? ? ? ? ?"], discard="5", round_first=1)
    assert too_high.phase is Phase.START
    assert bot.choose(too_high, rng) == Draw()


def test_the_heuristic_takes_the_bonus_and_the_raccoon_s_first_pick() -> None:
    """TM12, TM14: the bonus and the raccoon's pick are always taken (the lowest number for the raccoon)."""
    bot = HeuristicBot()
    rng = random.Random(0)
    bonus = make(["? ? W ? ? ?", "? ? ? ? ? ?"], phase=Phase.BONUS, hand=Card.THREE)
    assert bot.choose(bonus, rng) == TakeBonus()
    raccoon = make(["? ? ? ? ? ?", "? ? ? ? ? ?"], phase=Phase.RACCOON, discard="5 2 R")
    assert legal_actions(raccoon) == (RaccoonTake(Card.TWO), RaccoonTake(Card.FIVE), Decline())
    assert bot.choose(raccoon, rng) == RaccoonTake(Card.TWO)


def test_the_heuristic_puts_a_wild_on_a_known_card_else_where_its_number_is_scarcest() -> None:
    """TM11: a card turned down is known, so the chain goes on; otherwise the number fewest unseen."""
    bot = HeuristicBot()
    rng = random.Random(0)
    known = make(["? ? (3) ? ? ?", "1 ? ? ? ? ?"], phase=Phase.WILD, hand=Card.WILD)
    assert bot.choose(known, rng) == PlaceWild(3)
    # Four 5s are in sight (face up at seat 1's position 5 and on the discard pile): 5 is the scarcest.
    scarce = make(["? ? ? ? ? ?", "? ? ? ? 5 ?"], phase=Phase.WILD, hand=Card.WILD, discard="5 5 5")
    assert bot.choose(scarce, rng) == PlaceWild(5)


def test_the_heuristic_hits_the_opponent_who_shows_the_most_cards() -> None:
    """TM15, TM16, and the rules' hint: the most face-up cards; a number rather than a wild, the highest."""
    bot = HeuristicBot()
    rng = random.Random(0)
    disturb = make(["? ? ? ? ? ?", "1 ? ? ? ? ?", "W 2 3 ? ? ?"], phase=Phase.DISTURB, hand=Card.DO_NOT_DISTURB)
    assert bot.choose(disturb, rng) == TurnDown(2, 3)
    skip = make(["? ? ? ? ? ?", "1 ? ? ? ? ?", "W 2 3 ? ? ?"], phase=Phase.SKIP, hand=Card.SKIP, skips=[2])
    assert bot.choose(skip, rng) == GiveSkip(1)


def test_the_search_weighs_each_card_by_its_exact_chance() -> None:
    """A draw's value is the sum over chance_outcomes of each fraction times the value after that card."""
    bot = ExpectimaxBot(depth=1)
    state = make(["1 ? ? ? ? ?", "? 2 ? ? ? ?"], discard="4")
    assert state.phase is Phase.START
    values = dict(bot.action_values(state))
    drawn = apply(state, Draw())
    outcomes = chance_outcomes(drawn)
    assert sum(p for _, p in outcomes) == Fraction(1)
    expected = sum(float(p) * bot._value(apply(drawn, reveal), 0, 0) for reveal, p in outcomes)
    bot._memo.clear()
    assert values[Draw()] == pytest.approx(expected, rel=1e-12)
    # Taking the 4 is a step made for certain; the search sees it.
    assert values[TakeDiscard()] > values[Draw()]


def test_the_search_turns_down_the_card_hardest_to_replace() -> None:
    """TM15: of two face-up numbers, the one with fewer copies unseen costs the opponent more."""
    # Five of the six 2s are in sight, none of the 4s.
    state = make(["? ? ? ? ? ?", "? 2 ? 4 ? ?"], phase=Phase.DISTURB, hand=Card.DO_NOT_DISTURB, discard="2 2 2 2")
    assert ExpectimaxBot().choose(state, random.Random(0)) == TurnDown(1, 2)


def test_a_wild_turned_down_costs_its_owner_a_whole_step_and_the_search_turns_it_down_first() -> None:
    """TM15, TM12: a wild turned down costs its owner more than a number, and the search turns it down first.

    The wild's position is filled again only by cards that helped already (its own number, another wild); a
    number turned down makes its own copies, dead while it lay face up, useful again.
    """
    up = make(["? ? ? ? ? ?", "1 2 3 W ? 6"])
    wild_down = make(["? ? ? ? ? ?", "1 2 3 (W) ? 6"])
    number_down = make(["? ? ? ? ? ?", "1 2 3 W ? (6)"])
    assert position_value(up, 1) > position_value(number_down, 1) > position_value(wild_down, 1)
    state = make(["? ? ? ? ? ?", "1 2 3 W ? 6"], phase=Phase.DISTURB, hand=Card.DO_NOT_DISTURB)
    assert ExpectimaxBot().choose(state, random.Random(0)) == TurnDown(1, 4)


def test_the_game_values_run_the_race_once_per_set_of_row_sizes_and_follow_the_seats() -> None:
    """Seats with rows of one size are alike: the race is run once for each set of row sizes.

    Six rows of 6 need it for the 462 sets of six sizes from 1 to 6, not for each of their 46,656 orderings,
    and every ordering gets the values in its seats' order.
    """
    evaluation.game_values.cache_clear()
    evaluation._ordered_game_values.cache_clear()
    counts = TOO_MANY_MONKEYS_RULES.counts
    values = evaluation.game_values(counts, (6,) * 6)
    assert evaluation._ordered_game_values.cache_info().currsize == math.comb(6 + 6 - 1, 6) == 462
    assert sum(values) == pytest.approx(1.0)
    assert values == pytest.approx((1 / 6,) * 6)
    ahead = evaluation.game_values(counts, (3, 5, 6))
    assert evaluation.game_values(counts, (6, 3, 5)) == (ahead[2], ahead[0], ahead[1])
    assert ahead[0] > ahead[1] > ahead[2]


def test_the_search_keeps_no_memory_between_decisions_and_its_bound_changes_no_choice() -> None:
    """The memo is empty after each decision; a memo of one entry finds the same choices, by more work."""
    made = _decisions([ExpectimaxBot(), HeuristicBot()], seed=3, limit=60)
    bounded = ExpectimaxBot(memory=1)
    unbounded = ExpectimaxBot()
    for state, action in made:
        if state.seat == 0:
            assert bounded.choose(state, random.Random(0)) == action
            assert unbounded.choose(state, random.Random(0)) == action
            assert bounded.cache_entries == unbounded.cache_entries == 0


def test_the_bots_are_registered_by_name_with_the_memory_bound_a_server_passes() -> None:
    """bot_named and the binding know the three bots; memory reaches the search's memo; bad input is refused."""
    assert tuple(BOTS) == TOO_MANY_MONKEYS.bot_names()[:3] == ("random", "heuristic", "expectimax")
    assert TOO_MANY_MONKEYS.bot_names()[3:] == ("strongest",)  # the alias, last (tests/test_strongest.py)
    assert isinstance(bot_named("random"), RandomBot)
    assert isinstance(TOO_MANY_MONKEYS.bot_named("heuristic", memory=3), HeuristicBot)
    search = TOO_MANY_MONKEYS.bot_named("expectimax", memory=250)
    assert isinstance(search, ExpectimaxBot)
    assert search.memory == 250
    assert [TOO_MANY_MONKEYS.bot_title(name) for name in BOTS] == ["Random", "Heuristic", "Expectimax"]
    with pytest.raises(InvalidValueError, match="no Too Many Monkeys bot named 'mcts'"):
        bot_named("mcts")
    for memory in (0, True, "10", 2.5):
        with pytest.raises(InvalidValueError, match="memory must be a positive whole number of cache entries or None"):
            TOO_MANY_MONKEYS.bot_named("expectimax", memory=memory)  # type: ignore[arg-type]
    for depth in (0, "2", False):
        with pytest.raises(InvalidValueError, match="depth must be an integer of at least 1"):
            ExpectimaxBot(depth=depth)
    with pytest.raises(InvalidValueError, match="expected a state where a player decides"):
        ExpectimaxBot().action_values(new_game(2))
    for playouts in (-1, "100", 1.5, True):
        with pytest.raises(InvalidValueError, match="playouts must be an integer of at least 0"):
            ExpectimaxBot(playouts=playouts)


def _aimed_decisions(players: int, seeds: range) -> list[GameState]:
    """The Do Not Disturb's and the Skip's decisions with three options or more, from seeded search games."""
    found = []
    for seed in seeds:
        for state, _ in _decisions([ExpectimaxBot() for _ in range(players)], seed, limit=2_000):
            if state.phase in (Phase.DISTURB, Phase.SKIP) and len(legal_actions(state)) >= 3:
                found.append(state)
    return found


def test_the_playouts_choose_among_the_searchs_three_best_aimed_options_and_change_some_choices() -> None:
    """Aimed choices: one of the search's three best, replayed from the rng, and not always the search's pick.

    Every other choice is the plain search's, whatever the stream.
    """
    states = _aimed_decisions(3, range(4))
    assert len(states) >= 10
    search = ExpectimaxBot()
    playing = ExpectimaxBot(playouts=60)
    changed = 0
    for number, state in enumerate(states):
        values = search.action_values(state)
        ranked = [action for action, _ in sorted(values, key=lambda entry: entry[1], reverse=True)]
        chosen = playing.choose(state, random.Random(number))
        assert chosen in ranked[:3]
        assert playing.choose(state, random.Random(number)) == chosen
        changed += chosen != search.choose(state, random.Random(number))
    assert 0 < changed < len(states)
    for state, action in _decisions([ExpectimaxBot(), HeuristicBot()], seed=5, limit=120):
        if state.seat == 0 and state.phase not in (Phase.DISTURB, Phase.SKIP):
            assert playing.choose(state, random.Random(7)) == action
    assert repr(playing) == "ExpectimaxBot(depth=2, playouts=60)"
    assert repr(search) == "ExpectimaxBot(depth=2)"


def test_the_position_value_is_a_share_of_the_game_between_the_seats() -> None:
    """The seats' estimates add up to 1; the end is 1 for the winner; a row further on is worth more."""
    for players in (2, 3, 5):
        for state, _ in _decisions([HeuristicBot()] * players, seed=players, limit=80):
            assert sum(position_value(state, seat) for seat in range(players)) == pytest.approx(1.0)
    behind = make(["? ? ? ? ? ?", "? ? ? ? ? ?"], seat=1)
    ahead = make(["1 2 3 ? ? ?", "? ? ? ? ? ?"], seat=1)
    assert position_value(ahead, 0) > position_value(behind, 0)
    shorter = make(["? ? ? ? ?", "? ? ? ? ? ?"], seat=1)
    assert position_value(shorter, 0) > position_value(behind, 0)
    won = make(["1", "? ? ? ? ? ?"], phase=Phase.OVER, hand=Card.ONE, round_first=0)
    assert (position_value(won, 0), position_value(won, 1)) == (1.0, 0.0)
