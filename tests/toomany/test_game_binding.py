"""The Game binding: Too Many Monkeys under the Table, records that replay, the random bot, the registry."""

from __future__ import annotations

import random

import pytest

from cheekymonkey.errors import IllegalActionError, InvalidGameError, InvalidValueError, ReplayError
from cheekymonkey.game import Game
from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.table import Seat, Table, Waiting
from cheekymonkey.toomany import (
    TOO_MANY_MONKEYS,
    Card,
    Draw,
    Drew,
    GameRecord,
    GameState,
    RandomBot,
    Reveal,
    Ruleset,
    TakeDiscard,
    TookDiscard,
    apply,
    bot_named,
    legal_actions,
    new_game,
)
from tests.toomany.helpers import make


def test_the_game_is_registered_by_name_and_is_a_game() -> None:
    """game_named finds it (loaded only when asked for); it offers everything the protocol asks."""
    assert "too-many-monkeys" in GAME_NAMES
    game = game_named("too-many-monkeys")
    assert game is TOO_MANY_MONKEYS
    assert isinstance(game, Game)
    assert (game.name, game.title, repr(game)) == ("too-many-monkeys", "Too Many Monkeys", "TOO_MANY_MONKEYS")
    assert game.ruleset() == Ruleset.standard()
    assert game.ruleset("short") == Ruleset.short()
    assert game.seat_range(Ruleset.custom(max_players=3)) == (2, 3)
    assert game.bot_names() == ("random", "heuristic", "expectimax", "strongest")


def _random_table(players: int, seed: int) -> Table[GameState, object, Ruleset, object, object]:
    seats = [Seat.bot(TOO_MANY_MONKEYS, "random", f"Bot {seat}") for seat in range(players)]
    return Table(TOO_MANY_MONKEYS, seats, seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seeded_whole_games_play_to_the_end_at_a_table(players: int) -> None:
    """Random bots at 2 to 6 seats: the game ends with one winner, the record replays to the same states."""
    for seed in range(3):
        table = _random_table(players, seed)
        table.advance()
        assert table.waiting is Waiting.OVER
        result = table.outcome()
        assert result is not None
        final = table.state
        assert result.winners == (final.seat,)
        assert result.returns[final.seat] == 1.0
        assert sum(result.returns) == 1.0
        record = table.record()
        assert isinstance(record, GameRecord)
        assert record.states() == table.history
        assert record.bots == ("random",) * players
        # The Table counts a turn at each turn's first state: once per turn that drew or took the discard.
        opened = sum(isinstance(event, Drew | TookDiscard) for event in table.events)
        assert table.turns == opened
        # And the same seed plays the same game again.
        again = _random_table(players, seed)
        again.advance()
        assert again.actions == table.actions


def test_a_turn_begins_once_when_the_player_chooses_to_draw() -> None:
    """The choice of pile begins the turn; the draw chosen there does not begin another."""
    state = make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="4")
    chosen = apply(state, Draw())
    assert TOO_MANY_MONKEYS.begins_turn(state)
    assert not TOO_MANY_MONKEYS.begins_turn(chosen)
    assert TOO_MANY_MONKEYS.begins_turn(new_game(2))
    assert not TOO_MANY_MONKEYS.begins_turn(apply(new_game(2), Reveal(Card.TWO)))


def test_a_table_cuts_a_game_off_at_its_turn_limit_with_no_outcome() -> None:
    """TM26: the engine has no cap; the Table's limit ends a game as truncated, never as a result."""
    seats = [Seat.bot(TOO_MANY_MONKEYS, "random") for _ in range(3)]
    table = Table(TOO_MANY_MONKEYS, seats, seed=2, max_turns=10)
    table.advance()
    assert table.waiting is Waiting.TRUNCATED
    assert table.turns == 11
    assert table.outcome() is None
    assert not table.over


def test_a_person_plays_by_text_at_the_table() -> None:
    """play_text reads the notation; the table waits for the person and hands chance to its stream."""
    table: Table[GameState, object, Ruleset, object, object] = Table(
        TOO_MANY_MONKEYS,  # type: ignore[arg-type]
        [Seat.person("Ann"), Seat.bot(TOO_MANY_MONKEYS, "random")],
        seed=11,
        start=make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="G 4"),
    )
    assert (table.waiting, table.to_move) == (Waiting.PERSON, 0)
    steps = table.play_text("t")
    assert steps[0].action == TakeDiscard()
    assert table.state.rows[0][3] is Card.FOUR
    assert table.waiting is Waiting.CHANCE  # the card picked up from under the 4 is revealed next
    table.advance(bots=False)
    assert table.waiting in (Waiting.PERSON, Waiting.BOT)


def test_a_record_replays_and_names_its_first_bad_step() -> None:
    """Replaying a record reproduces every state; an action illegal where it falls raises ReplayError there."""
    record = TOO_MANY_MONKEYS.record(
        Ruleset.standard(), 2, 1, [Reveal(Card.THREE), Reveal(Card.GIRAFFE)], seed=4, names=["Ann", "Bob"]
    )
    final = record.final_state()
    assert (final.seat, final.discard) == (0, (Card.GIRAFFE,))
    assert len(record.states()) == 3
    broken = GameRecord(Ruleset.standard(), 2, actions=(Reveal(Card.THREE), Draw(), Reveal(Card.ONE)))
    with pytest.raises(ReplayError) as caught:
        broken.states()
    assert caught.value.step == 1
    assert isinstance(caught.value.cause, IllegalActionError)
    with pytest.raises(ReplayError):
        Table.from_record(TOO_MANY_MONKEYS, broken)
    replayed = Table.from_record(TOO_MANY_MONKEYS, record)
    assert replayed.state == final
    assert replayed.names == ("Ann", "Bob")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"names": ("Ann",)}, "1 names for 2 seats"),
        ({"bots": ("",)}, "non-empty strings"),
        ({"actions": [Draw()]}, "actions must be a tuple"),
        ({"ruleset": "standard"}, "ruleset must be a Ruleset"),
    ],
)
def test_a_record_refuses_what_cannot_be_replayed(arguments: dict[str, object], message: str) -> None:
    """InvalidGameError (a ValueError) when a record is made with the wrong parts."""
    values: dict[str, object] = {"ruleset": Ruleset.standard(), "players": 2}
    values.update(arguments)
    with pytest.raises(InvalidGameError, match=message):
        GameRecord(**values)  # type: ignore[arg-type]


def test_the_random_bot_picks_every_legal_action_uniformly() -> None:
    """The random bot: uniform over the legal actions (six wild places: each about a sixth of 6,000 picks)."""
    state = apply(new_game(2), Reveal(Card.WILD))
    bot = bot_named("random")
    rng = random.Random(0)
    picks = [bot.choose(state, rng) for _ in range(6000)]
    counts = {action: picks.count(action) for action in legal_actions(state)}
    assert len(counts) == 6
    assert all(850 <= count <= 1150 for count in counts.values())
    assert repr(RandomBot()) == "RandomBot()"
    with pytest.raises(InvalidValueError, match="no Too Many Monkeys bot named 'search'"):
        bot_named("search")


def test_the_binding_answers_what_servers_ask() -> None:
    """No facts beyond the view (TM19), a number bound above every count, bot titles and checked memory bounds."""
    state = new_game(3)
    assert TOO_MANY_MONKEYS.facts(state, 0) == {}
    ruleset = Ruleset.standard()
    assert TOO_MANY_MONKEYS.number_bound(ruleset) >= ruleset.total_cards + 6 * 6
    assert TOO_MANY_MONKEYS.bot_title("random") == "Random"
    assert isinstance(TOO_MANY_MONKEYS.bot_named("random", memory=10), RandomBot)
    with pytest.raises(InvalidValueError, match="memory"):
        TOO_MANY_MONKEYS.bot_named("random", memory=0)
    assert TOO_MANY_MONKEYS.bot_title("mine") == "Mine"  # a bot of the caller's own


def test_the_binding_draws_tables_for_front_ends() -> None:
    """The board and result tables: a row per seat with every position, and the result fits 80 columns."""
    table = Table(TOO_MANY_MONKEYS, [Seat.bot(TOO_MANY_MONKEYS, "random", n) for n in ("Ann", "Bob", "Cy")], seed=4)
    table.advance()
    state = table.state
    board = TOO_MANY_MONKEYS.board_table(state, table.names, viewer=1)
    assert [row[1].text for row in board.rows] == ["Ann", "Bob (you)", "Cy"]
    for row, slots in zip(board.rows, state.rows, strict=True):
        assert len([cell for cell in row[2:-1] if cell.text]) == len(slots)
    result = TOO_MANY_MONKEYS.result_table(state, table.names)
    outcome = table.outcome()
    assert outcome is not None
    assert result.rows[0][1].text == table.names[outcome.winners[0]]
    assert all(len(line) <= 80 for line in result.text().splitlines())
    assert TOO_MANY_MONKEYS.turn_of(state) is None
    assert not TOO_MANY_MONKEYS.mid_move(state)
    assert "w P" in TOO_MANY_MONKEYS.action_help()
