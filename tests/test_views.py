"""Table views: a seat sees stack tops and heights, the front, the bag's size and its own moves, and nothing more."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from cheekymonkey import (
    Animal,
    Bot,
    Draw,
    GameState,
    InvalidValueError,
    Phase,
    Place,
    RandomBot,
    Reveal,
    Ruleset,
    Stop,
    apply,
    apply_all,
    legal_actions,
    new_game,
    play_game,
    score,
)
from cheekymonkey.cheeky.bots import HeuristicBot
from cheekymonkey.cheeky.documents import dump_view, load_view
from cheekymonkey.cheeky.views import TableView, view


def test_a_view_shows_tops_heights_front_bag_size_and_the_movers_actions_in_many_states() -> None:
    """R9, over every state of 30 seeded games: each seat's view matches the state's public parts."""
    for seed in range(30):
        pool: list[Bot] = [HeuristicBot(), RandomBot(), HeuristicBot(0.5)]
        game = play_game(pool[: 2 + seed % 2], seed=seed)
        for state in game.record.states():
            for seat in (*range(state.players), None):
                table = view(state, seat)
                assert table.stack_heights == tuple(len(s) for s in state.stacks)
                assert table.stack_tops == tuple(s[-1] if s else None for s in state.stacks)
                assert table.bag_size == state.bag_size
                assert table.front == state.front
                assert (table.to_move, table.phase) == (state.seat, state.phase)
                assert (table.claimable, table.swap_open) == (state.claimable, state.swap_open)
                moving = seat == state.seat and state.phase in (Phase.DECIDE, Phase.PLACING)
                assert table.my_turn == moving
                assert table.legal == (legal_actions(state) if moving else ())
                assert table.players == state.players


def test_a_view_has_no_field_holding_the_bag_or_whole_stacks() -> None:
    """The view type itself cannot carry hidden information: no bag contents, no stacks below the top."""
    names = {field.name for field in attrs.fields(TableView)}
    assert "bag" not in names
    assert "stacks" not in names
    assert not any(isinstance(value, GameState) for value in attrs.astuple(view(new_game(2), 0), recurse=False))


def test_states_that_differ_only_in_hidden_tokens_give_equal_views() -> None:
    """Two states with the same tops and heights but different buried tokens and bag contents look the same."""
    # Seat 0 stacks Seal then Lion on top, or Hippo then Lion on top: only the buried token differs.
    one = apply_all(new_game(2), [Reveal(Animal.SEAL), Draw(), Reveal(Animal.LION), Stop()])
    two = apply_all(new_game(2), [Reveal(Animal.HIPPO), Draw(), Reveal(Animal.LION), Stop()])
    one = apply_all(one, [Place(Animal.SEAL)])
    two = apply_all(two, [Place(Animal.HIPPO)])
    assert one != two
    for seat in (0, 1, None):
        assert view(one, seat) == view(two, seat)


def test_a_view_for_a_seat_that_does_not_exist_is_refused() -> None:
    """view() names the bad seat: out of range, negative, or not an integer."""
    state = new_game(3)
    for seat in (3, -1, True, "0"):
        with pytest.raises(InvalidValueError, match="is not one of the 3 seats"):
            view(state, seat)  # type: ignore[arg-type]


def test_a_view_is_frozen_and_hashable() -> None:
    """Views are values: they cannot be changed, and equal views hash alike."""
    table = view(new_game(2), 0)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        table.bag_size = 3  # type: ignore[misc]
    assert hash(table) == hash(view(new_game(2), 0))


def _table(**changes: Any) -> TableView:
    return attrs.evolve(view(apply_all(new_game(3), [Reveal(Animal.MONKEY)]), 0), **changes)


def test_a_view_whose_parts_disagree_is_refused() -> None:
    """Building a TableView directly checks heights against tops, seats, token totals and who may act."""
    cases: list[tuple[dict[str, Any], str]] = [
        ({"stack_tops": (None, Animal.LION, None)}, "height 0 and top"),
        ({"stack_tops": (None, None)}, "2 stack tops for 3"),
        ({"viewer": 3}, "viewer 3"),
        ({"to_move": 5}, "to_move 5"),
        ({"bag_size": 52}, "do not add up"),
        ({"viewer": 1}, "only to the player to move"),
        ({"stack_heights": (0,) * 7, "stack_tops": (None,) * 7}, "7 seats"),
    ]
    for changes, words in cases:
        with pytest.raises(InvalidValueError, match=words):
            _table(**changes)


def test_a_spectator_and_a_waiting_seat_get_no_actions() -> None:
    """Only the player to move, while deciding or placing, is offered actions."""
    deciding = apply_all(new_game(3, ruleset=Ruleset.younger()), [Reveal(Animal.PANDA)])
    assert view(deciding, 0).legal == legal_actions(deciding)
    assert view(deciding, 1).legal == ()
    assert view(deciding, None).legal == ()
    assert view(new_game(3), 0).legal == ()  # a chance node: the bag acts, not the seat


def test_a_view_at_the_end_carries_the_score_sheet_and_before_it_none() -> None:
    """Every seat's view (and a spectator's) of a finished game has the sheet; mid-game views have none."""
    game = play_game([RandomBot(), RandomBot()], seed=11)
    for seat in (0, 1, None):
        final = view(game.state, seat)
        assert final.sheet == score(game.state)
        assert load_view(dump_view(final)) == final
    rng = random.Random(3)
    state = new_game(2)
    while state.phase is not Phase.OVER:
        assert view(state, 0).sheet is None
        state = apply(state, rng.choice(legal_actions(state)))


def test_a_view_whose_sheet_does_not_fit_is_refused() -> None:
    """A sheet before the end, none at the end, or one that disagrees with the stacks is an invalid view."""
    game = play_game([RandomBot(), RandomBot()], seed=11)
    final = view(game.state, 0)
    other = play_game([RandomBot(), RandomBot()], seed=12)
    with pytest.raises(InvalidValueError, match="exactly when the game is over"):
        attrs.evolve(view(new_game(2), 0), sheet=final.sheet)
    with pytest.raises(InvalidValueError, match="exactly when the game is over"):
        attrs.evolve(final, sheet=None)
    with pytest.raises(InvalidValueError, match="not the stack heights"):
        attrs.evolve(final, sheet=other.score)
