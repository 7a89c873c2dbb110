"""The Table session: one game in progress for any Game, with history, undo, events, seats, streams and limits."""

from __future__ import annotations

import pickle
import random

import attrs
import pytest

from cheekymonkey import (
    CHEEKY_MONKEY,
    Action,
    Animal,
    Draw,
    ExpectimaxBot,
    GameRecord,
    HeuristicBot,
    IllegalActionError,
    InvalidGameError,
    InvalidValueError,
    RandomBot,
    ReplayError,
    Reveal,
    Seat,
    Stop,
    Table,
    Waiting,
    apply,
    play_game,
    score,
)
from cheekymonkey.cheeky.game import CheekyMonkey
from cheekymonkey.cheeky.notation import ActionTextError
from cheekymonkey.cheeky.state import GameState
from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.outcome import Outcome, ranks_by
from cheekymonkey.table import bot_kind, rngs_for


def _bots(n: int) -> list[Seat]:
    return [Seat.bot(CHEEKY_MONKEY, "heuristic", f"Bot {seat}") for seat in range(n)]


def _person_and_bots(n: int) -> list[Seat]:
    return [Seat.person("Ann"), *_bots(n)[1:]]


def test_a_table_of_bots_plays_the_same_game_as_play_game() -> None:
    """A table of bots with a seed gives play_game's actions and final state for that seed."""
    played = play_game([HeuristicBot(), RandomBot(), ExpectimaxBot()], seed=11)
    seats = [Seat.of(HeuristicBot()), Seat.of(RandomBot()), Seat.of(ExpectimaxBot())]
    table = Table(CHEEKY_MONKEY, seats, seed=11)
    steps = table.advance()
    assert table.waiting is Waiting.OVER
    assert table.actions == played.record.actions
    assert table.state == played.state
    assert [step.action for step in steps] == list(played.record.actions)
    assert table.history[0] == CHEEKY_MONKEY.new_game(3)


def test_play_game_records_names_and_kinds() -> None:
    """A record made by play_game says who played each seat, by kind and a name built from it."""
    record = play_game([HeuristicBot(), RandomBot()], seed=3).record
    assert record.bots == ("heuristic", "random")
    assert record.names == ("Heuristic 0", "Random 1")
    assert record.seed == 3


def test_advance_stops_where_a_person_decides() -> None:
    """Advance resolves chance and bots, and stops at the person's decision with their legal actions."""
    table = Table(CHEEKY_MONKEY, _person_and_bots(3), seed=5)
    steps = table.advance()
    assert table.waiting is Waiting.PERSON
    assert table.to_move == 0
    assert steps
    assert steps[-1].after == table.state
    assert all(step.seat is None for step in steps)  # only the first draw's outcome so far
    assert table.legal_actions() == tuple(CHEEKY_MONKEY.legal_actions(table.state))
    assert Draw() in table.legal_actions()


def test_an_illegal_action_changes_nothing() -> None:
    """An illegal action raises IllegalActionError, and the state, actions and events stay as they were."""
    table = Table(CHEEKY_MONKEY, _person_and_bots(2), seed=5)
    table.advance()
    before = (table.state, table.actions, table.events, table.turns)
    with pytest.raises(IllegalActionError):
        table.play(Reveal(Animal.LION))
    assert (table.state, table.actions, table.events, table.turns) == before


def test_undo_takes_back_actions_and_their_events() -> None:
    """Undo restores the earlier state, action list, events and turn count exactly."""
    table = Table(CHEEKY_MONKEY, _person_and_bots(2), seed=9)
    table.advance()
    mark = (table.state, table.actions, table.events, table.turns)
    table.play(Stop())
    table.advance()
    assert table.state != mark[0]
    played = len(table.actions) - len(mark[1])
    taken = table.undo(played)
    assert taken[0] == Stop()
    assert (table.state, table.actions, table.events, table.turns) == mark
    with pytest.raises(InvalidValueError, match="cannot undo"):
        table.undo(len(table.actions) + 1)
    assert table.undo(0) == ()


def test_play_text_is_all_or_nothing() -> None:
    """When one of several typed actions fails, the ones before it are taken back."""

    class Careless(CheekyMonkey):
        # Reads any text as a stop followed by a draw: the draw is illegal after the stop.
        def parse_actions(self, text: str, state: GameState) -> tuple[Action, ...]:
            return (Stop(), Draw())

    table = Table(Careless(), _person_and_bots(2), seed=9)
    table.advance()
    before = (table.state, table.actions, table.events)
    with pytest.raises(IllegalActionError):
        table.play_text("anything")
    assert (table.state, table.actions, table.events) == before


def test_play_text_reads_the_notation_and_refuses_nonsense() -> None:
    """Typed text plays through the game's notation; text that names nothing raises ActionTextError."""
    table = Table(CHEEKY_MONKEY, _person_and_bots(2), seed=9)
    table.advance()
    with pytest.raises(ActionTextError):
        table.play_text("fly")
    steps = table.play_text("s")
    assert steps[0].action == Stop()
    assert steps[0].seat == 0


def test_the_turn_limit_truncates_a_game_without_a_result() -> None:
    """At max_turns the game stops as truncated: no outcome, no more actions, and the turn past the limit unplayed."""
    table = Table(CHEEKY_MONKEY, _bots(2), seed=2, max_turns=3)
    table.advance()
    assert table.truncated
    assert table.finished
    assert not table.over
    assert table.waiting is Waiting.TRUNCATED
    assert table.turns == 4  # the fourth turn began, and was not played
    assert CHEEKY_MONKEY.begins_turn(table.state)
    assert table.outcome() is None
    assert table.to_move is None
    assert table.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="cut off"):
        table.play(table.game.legal_actions(table.state)[0])
    # The turns counted agree with the turn openings in the actions: every compulsory draw's outcome (R4).
    opened = sum(1 for state in table.history if CHEEKY_MONKEY.begins_turn(state))
    assert opened == 4


def test_the_step_limit_truncates_after_exactly_that_many_actions() -> None:
    """max_steps stops a game that has not ended after exactly that many actions, chance included."""
    table = Table(CHEEKY_MONKEY, _bots(3), seed=4, max_steps=25)
    table.advance()
    assert table.truncated
    assert len(table.actions) == 25
    table.undo(1)
    assert table.waiting is not Waiting.TRUNCATED
    step = table.step()
    assert step is not None
    assert step.index == 24
    assert table.finished


def test_limits_that_a_game_meets_do_not_truncate_it() -> None:
    """A game that ends inside its limits is over, with an outcome, not truncated."""
    table = Table(CHEEKY_MONKEY, _bots(2), seed=2, max_turns=10_000, max_steps=100_000)
    table.advance()
    assert table.over
    assert not table.truncated
    outcome = table.outcome()
    assert outcome is not None
    sheet = score(table.state)
    assert outcome.winners == sheet.winners
    assert abs(sum(outcome.returns) - 1.0) < 1e-12


def test_from_record_replays_every_state() -> None:
    """A table built from a record holds the record's states, and its own record is the same record."""
    played = play_game([HeuristicBot(), RandomBot()], seed=21)
    table = Table.from_record(CHEEKY_MONKEY, played.record)
    assert table.history == played.record.states()
    assert table.record() == played.record
    assert table.names == played.record.names


def test_from_record_names_the_first_bad_step() -> None:
    """A record whose actions do not replay raises ReplayError at the first bad step."""
    record = play_game([HeuristicBot(), RandomBot()], seed=21).record
    # The first chance outcome after the first few actions: a stop there is illegal (R5).
    bad = next(i for i, a in enumerate(record.actions) if i >= 5 and isinstance(a, Reveal))
    broken = attrs.evolve(record, actions=(*record.actions[:bad], Stop(), *record.actions[bad + 1 :]))
    with pytest.raises(ReplayError) as caught:
        Table.from_record(CHEEKY_MONKEY, broken)
    assert caught.value.step == bad


def test_events_are_numbered_and_read_since_a_number() -> None:
    """Every event keeps its place in the log; events_since returns the log from a place on."""
    table = Table(CHEEKY_MONKEY, _bots(2), seed=8)
    steps = table.advance()
    assert table.events == tuple(event for step in steps for event in step.events)
    assert table.events_since(3) == table.events[3:]
    assert table.events_since(-4) == table.events
    assert table.events_since(len(table.events)) == ()


def test_a_table_without_events_keeps_none() -> None:
    """events=False plays the same game and keeps no events."""
    quiet = Table(CHEEKY_MONKEY, _bots(2), seed=8, events=False)
    loud = Table(CHEEKY_MONKEY, _bots(2), seed=8)
    quiet.advance()
    loud.advance()
    assert quiet.actions == loud.actions
    assert quiet.events == ()
    assert loud.events


def test_choose_asks_the_bot_without_playing() -> None:
    """Choose returns the bot's move and plays nothing; with nobody's bot to move it raises."""
    table = Table(CHEEKY_MONKEY, [Seat.person("Ann"), Seat.bot(CHEEKY_MONKEY, "heuristic")], seed=1)
    with pytest.raises(InvalidValueError, match="no bot is to move"):
        table.choose()  # chance acts first
    table.advance()
    table.play(Stop())
    while table.waiting is Waiting.CHANCE:
        table.step()
    if table.waiting is Waiting.BOT:
        state = table.state
        action = table.choose()
        assert table.state is state
        assert action in CHEEKY_MONKEY.legal_actions(state)


def test_the_streams_come_from_one_seed() -> None:
    """The same integer seed gives the same streams; a Random is used for chance as it is."""
    first, second = rngs_for(5), rngs_for(5)
    assert [r.random() for r in first] == [r.random() for r in second]
    system = random.SystemRandom()
    assert rngs_for(system)[0] is system
    with pytest.raises(InvalidGameError):
        rngs_for("5")  # type: ignore[arg-type]
    with pytest.raises(InvalidGameError):
        rngs_for(True)


def test_seats_are_checked() -> None:
    """A seat without a name, a person with a bot, a bot class or an object without choose is refused."""
    with pytest.raises(InvalidGameError):
        Seat.person(" ")
    with pytest.raises(InvalidGameError):
        Seat("Ann", "human", RandomBot())
    with pytest.raises(InvalidGameError, match="pass an instance"):
        Seat.of(RandomBot)  # type: ignore[arg-type]
    with pytest.raises(InvalidGameError, match="choose"):
        Seat.of(object())  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError):
        Seat.bot(CHEEKY_MONKEY, "nobody")
    with pytest.raises(InvalidGameError, match="list of Seat"):
        Table(CHEEKY_MONKEY, "ab")  # type: ignore[arg-type]
    with pytest.raises(InvalidGameError, match="max_turns"):
        Table(CHEEKY_MONKEY, _bots(2), max_turns=0)
    with pytest.raises(InvalidGameError):
        Table(CHEEKY_MONKEY, _bots(7))


def test_bot_kind_reads_the_class_or_the_kind_attribute() -> None:
    """bot_kind drops a Bot ending from the class name, and prefers a kind attribute."""

    class Tagged:
        kind = "tagged"

        def choose(self, state: GameState, rng: random.Random) -> Action:
            return CHEEKY_MONKEY.legal_actions(state)[0]

    assert [bot_kind(b) for b in (RandomBot(), ExpectimaxBot(), Tagged())] == ["random", "expectimax", "tagged"]
    assert Seat.of(Tagged()).kind == "tagged"


def test_a_replayed_bot_seat_without_its_bot_cannot_move() -> None:
    """A record's seat of a kind the game has no bot for replays, but the table cannot move it by itself."""
    record = attrs.evolve(play_game([HeuristicBot(), RandomBot()], seed=21).record, bots=("heuristic", "mine"))
    table = Table.from_record(CHEEKY_MONKEY, record)
    assert table.kinds == ("heuristic", "mine")
    assert table.seats[1].player is None
    assert table.record() == record
    table.undo(len(table.actions))
    with pytest.raises(InvalidValueError, match="not at this table"):
        table.advance()  # seat 0's bot plays its turn; then seat 1 has nobody to play it
    assert table.to_move == 1
    assert table.waiting is Waiting.BOT


def test_a_table_can_start_mid_game() -> None:
    """start= resumes a game from a state; its first turn counts if a turn begins there."""
    state = apply(CHEEKY_MONKEY.new_game(2), Reveal(Animal.SEAL))
    table = Table(CHEEKY_MONKEY, _person_and_bots(2), start=state)
    assert table.state == state
    assert table.turns == 0
    assert table.waiting is Waiting.PERSON


def test_outcomes_rank_winners_first_then_by_score() -> None:
    """Outcome ranks: winners 1, others by key with shared places; returns split the win."""
    assert ranks_by([10, 30, 20, 20], [1]) == (4, 1, 2, 2)
    assert ranks_by([30, 30, 5], [0, 1]) == (1, 1, 3)
    # A tie-break winner outranks a seat with the same total (R18).
    assert ranks_by([30, 30, 5], [1]) == (2, 1, 3)
    outcome = Outcome.of_winners([0, 2], [5, 9, 5])
    assert outcome == Outcome((0, 2), (1, 3, 1), (0.5, 0.0, 0.5))
    with pytest.raises(InvalidValueError):
        Outcome((), (1, 2), (0.0, 0.0))
    with pytest.raises(InvalidValueError):
        Outcome((3,), (1, 2), (1.0, 0.0))


def test_the_binding_is_the_engine() -> None:
    """Every state of a played game gets the same answers from CHEEKY_MONKEY as from the engine's functions."""
    from cheekymonkey import chance_outcomes, current_player, is_chance_node, is_terminal, legal_actions, view

    record = play_game([HeuristicBot(), RandomBot(), RandomBot()], seed=13).record
    for state in record.states():
        assert CHEEKY_MONKEY.legal_actions(state) == legal_actions(state)
        assert CHEEKY_MONKEY.is_chance_node(state) == is_chance_node(state)
        assert CHEEKY_MONKEY.is_terminal(state) == is_terminal(state)
        assert CHEEKY_MONKEY.to_move(state) == current_player(state)
        assert CHEEKY_MONKEY.view(state, 1) == view(state, 1)
        if is_chance_node(state):
            assert CHEEKY_MONKEY.chance_outcomes(state) == chance_outcomes(state)
    assert isinstance(CHEEKY_MONKEY.record(record.ruleset, 3, 0, record.actions), GameRecord)


def test_the_registry_finds_each_game_by_name() -> None:
    """game_named gives each listed game, and refuses a name it does not know."""
    assert game_named("cheeky-monkey") is CHEEKY_MONKEY
    for name in GAME_NAMES:
        assert game_named(name).name == name
    with pytest.raises(InvalidValueError, match="no game named"):
        game_named("chess")


def test_the_binding_pickles_as_itself() -> None:
    """The binding is a value: it pickles, and equals itself after."""
    assert pickle.loads(pickle.dumps(CHEEKY_MONKEY)) == CHEEKY_MONKEY
