"""The proofs for any deal (cheekymonkey.toomany.verify): run, checked against the engine, and shown able to fail.

- The turn model's bounds (TM11, TME6) for every row size, each reached by a real turn replayed through the
  engine, and the model shown to allow every step the engine takes in seeded standard games.
- z3's proofs that no draw finds both piles empty (TM25) and that no round can stall (TME5), for the standard
  deck and every seat count, and for every deck passing the rule set's checks; refuted, with a table, for a
  deck the checks refuse and for a check made one card weaker.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import pytest

from cheekymonkey.cli import main as cli
from cheekymonkey.errors import InvalidGameError, InvalidRulesetError
from cheekymonkey.toomany import (
    CARDS,
    Action,
    Card,
    GameState,
    Phase,
    Reveal,
    Ruleset,
    TurnedUp,
    WildPlaced,
    apply,
    apply_with_events,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
    parse_actions,
    sample_chance,
)
from cheekymonkey.toomany.rules import stall_numbers
from cheekymonkey.toomany.verify import (
    Report,
    TurnModel,
    TurnPoint,
    TurnStep,
    main,
    pile_check,
    prove_no_stall,
    prove_pile_check_suffices,
    prove_piles_never_empty,
    prove_stall_check_suffices,
    row_codes,
    stall_check,
    turn_bounds,
    verify,
)
from tests.toomany.helpers import make, unchecked_ruleset

# The bounds for rows of 1 to 6: the most positions one turn turns up, and the most actions it takes, for a
# turn that begins with 1, 2, ... face-down positions (TME6).
BOUNDS = {
    1: ((1, 3),),
    2: ((1, 3), (2, 5)),
    3: ((1, 3), (2, 6), (3, 8)),
    4: ((1, 3), (2, 6), (3, 9), (4, 11)),
    5: ((1, 3), (2, 6), (3, 9), (4, 12), (5, 14)),
    6: ((1, 3), (2, 6), (3, 9), (4, 12), (5, 15), (6, 17)),
}


def replay(start: GameState, steps: tuple[TurnStep, ...]) -> tuple[int, int]:
    """Play a turn of the model through the engine from ``start``: the actions taken and positions turned up.

    Each step's action must be legal where it falls, lead where the model says, and only the last may end the
    turn.
    """
    state = start
    turned = 0
    for number, step in enumerate(steps, start=1):
        assert step.action in legal_actions(state), (state, step)
        state, events = apply_with_events(state, step.action)
        turned += sum(isinstance(event, TurnedUp | WildPlaced) for event in events)
        over = state.phase in (Phase.START, Phase.DRAW, Phase.OVER) or state.round != start.round
        assert over == (number == len(steps)), (state, step)
        if not over:
            assert TurnPoint.of(state) == step.after
    return len(steps), turned


def real_start(point: TurnPoint) -> GameState:
    """A state of the standard game at the model's turn start ``point``, where every branch of the model is open.

    Every number lies below the discard top (for the raccoon), an opponent shows a face-up card (for a Do Not
    Disturb), and for a choice of pile the top is a number the player may take.
    """
    cells = {"?": "?", "N": "{p}", "W": "W", "k": "({p})", "w": "(W)"}
    row = " ".join(cells[code].format(p=p) for p, code in enumerate(point.row, start=1))
    below = "1 2 3 4 5 6 G"
    if point.phase is Phase.DRAW:
        return make([row, "1 ? ? ? ? ?"], discard=below)
    usable = next(k for k in range(1, 7) if k > len(point.row) or point.row[k - 1] != "N")
    return make([row, "1 ? ? ? ? ?"], discard=f"{below} {usable}")


@pytest.mark.parametrize("row_size", [1, 2, 3, 4, 5])
def test_a_turn_turns_up_at_most_its_face_down_positions_and_takes_at_most_3n_minus_1_actions(row_size: int) -> None:
    """TME6, TM11: over every turn of the model; 3 actions for rows of 1; every wild had a place."""
    bounds = turn_bounds(row_size)
    assert bounds.by_face_down == BOUNDS[row_size]
    assert bounds.most_turned_up == row_size
    assert bounds.most_steps == (3 if row_size == 1 else 3 * row_size - 1)
    assert bounds.wilds_in_hand > 0


@pytest.mark.slow
def test_the_standard_rows_of_six_turn_up_at_most_six_cards_in_at_most_17_actions() -> None:
    """TME6, TM11: the standard game's bound, over 141,741 points of a turn (a few seconds)."""
    bounds = turn_bounds(6)
    assert (bounds.most_turned_up, bounds.most_steps, bounds.by_face_down) == (6, 17, BOUNDS[6])
    assert bounds.points == 141741


@pytest.mark.parametrize("row_size", [1, 2, 3, 4, 5])
def test_the_longest_and_fullest_turns_of_the_model_are_real_turns(row_size: int) -> None:
    """TME6: each bound is reached: the model's witness turns, replayed through the engine, do what it says."""
    bounds = turn_bounds(row_size)
    steps, _ = replay(real_start(bounds.longest_start), bounds.longest)
    assert steps == bounds.most_steps
    _, turned = replay(real_start(bounds.fullest_start), bounds.fullest)
    assert turned == bounds.most_turned_up == row_size


def test_the_standard_games_longest_turn_is_17_actions_through_the_engine() -> None:
    """TME6: a drawn wild, then the bonus over and over, each number turned up under the wild: 17 actions, tight."""
    state = make(["? ? ? ? ? ?", "1 ? ? ? ? ?"], discard="G 3")
    actions = parse_actions("d, w, 1, 1, b, 2, 2, b, 3, 3, b, 4, 4, b, 5, 5, n", state)
    model = TurnModel(6)
    point: TurnPoint | None = TurnPoint.of(state)
    steps = []
    for action in actions:
        assert point is not None
        step = next(step for step in model.steps(point) if step.action == action)
        steps.append(step)
        point = step.after
    assert replay(state, tuple(steps)) == (17, 5)


def test_the_turn_model_allows_every_step_the_engine_takes_in_seeded_standard_games() -> None:
    """TME6: the proof covers the engine: each action of 6 seeded games, chance's too, is a step of the model."""
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(2 + seed % 3)
        while not is_terminal(state):
            model = TurnModel(len(state.rows[state.seat]))
            allowed = {(step.after, step.turned_up) for step in model.steps(TurnPoint.of(state))}
            if is_chance_node(state):
                action: Action = sample_chance(state, rng)
            else:
                legal = legal_actions(state)
                action = legal[rng.randrange(len(legal))]
            after, events = apply_with_events(state, action)
            turned = sum(isinstance(event, TurnedUp | WildPlaced) for event in events)
            ended = after.phase in (Phase.START, Phase.DRAW, Phase.OVER)
            assert (None if ended else TurnPoint.of(after), turned) in allowed, (state, action)
            checked += 1
            state = after
    assert checked > 1000


def test_row_codes_and_turn_points_read_a_state() -> None:
    """The model's letters: ``?`` unseen, ``k`` and ``w`` turned down, ``N`` and ``W`` face up."""
    state = make(["1 ? (3) W (W) ?", "? ? ? ? ? ?"])
    assert row_codes(state.rows[0]) == "N?kWw?"
    assert TurnPoint.of(state) == TurnPoint(Phase.DRAW, "N?kWw?", None)
    over = apply(make(["?", "? ?"]), Reveal(Card.ONE))
    with pytest.raises(InvalidGameError, match="over"):
        TurnPoint.of(over)
    with pytest.raises(InvalidRulesetError, match="TM24"):
        TurnModel(7)


# -- z3 ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_no_draw_of_the_standard_game_finds_both_piles_empty(players: int) -> None:
    """TM25: z3 over every table of the standard deck, every seat count and every first row of 1 to 6."""
    for size in range(1, 7):
        assert prove_piles_never_empty(Ruleset.custom(row_size=size), players).proved
    assert prove_piles_never_empty(Ruleset.short(), players).proved


@pytest.mark.parametrize(("players", "row_size"), list(itertools.product(range(2, 7), range(1, 7))))
def test_the_rule_sets_checks_are_enough_for_every_deck(players: int, row_size: int) -> None:
    """TME4, TM25, TME5: z3, symbolic decks: each deck passing the checks leaves a card to draw and cannot stall."""
    assert prove_pile_check_suffices(players, row_size).proved
    assert prove_stall_check_suffices(players, row_size).proved


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_no_round_of_the_standard_game_can_stall(players: int) -> None:
    """TME5: z3 over every table at a turn's start, the standard deck with rows of 1 to 6: a seat can turn one up."""
    for size in range(1, 7):
        assert prove_no_stall(Ruleset.custom(row_size=size), players).proved
    assert prove_no_stall(Ruleset.short(), players).proved


def test_a_deck_the_checks_refuse_has_a_stuck_table_and_an_empty_draw() -> None:
    """TME5, TM25: z3 refutes both claims with a table for decks the checks refuse; the proofs can fail."""
    lonely = prove_no_stall(unchecked_ruleset({1: 1, "giraffe": 6}, row_size=1), 2)
    assert not lonely.proved
    assert lonely.counterexample is not None
    assert "the unseen cards: 1 x 1" in lonely.counterexample
    scarce = prove_no_stall(unchecked_ruleset({1: 2, 2: 1, "wild": 1, "dnd": 1}, row_size=2), 2)
    assert not scarce.proved
    small = prove_piles_never_empty(unchecked_ruleset({1: 2, 2: 2, "skip": 1}, row_size=2), 2)
    assert not small.proved
    assert small.counterexample == "rows of [2, 2], Skips waiting [0, 1], 0 card(s) in the piles"


def test_a_check_one_card_weaker_is_refuted_by_z3() -> None:
    """TME5, TM25: with ``>=`` for ``>`` (one card fewer), z3 finds a stuck table and a table with empty piles."""
    import z3

    from cheekymonkey.toomany import verify as proofs

    deck = proofs._Deck(None)
    weaker = z3.And(
        [
            z3.Sum([deck.counts[index] for index in chosen]) + deck.counts[Card.WILD - 1] >= 2 * len(chosen)
            for size in (1, 2)
            for chosen in itertools.combinations(range(2), size)
        ]
    )
    assert proofs._solve([*proofs._stall_constraints(deck, 2, 2), weaker]) is not None
    deck = proofs._Deck(None)
    facts, piles = proofs._pile_constraints(deck, 3, 2)
    skips = deck.counts[Card.SKIP - 1]
    assert proofs._solve([*facts, z3.Sum(deck.counts) >= 3 * 2 + z3.If(skips < 2, skips, 2), piles == 0]) is not None


def test_the_z3_checks_are_the_rule_sets_checks() -> None:
    """TME4: the z3 terms of both checks agree with Ruleset's on every deck of 0 to 3 copies, 0 to 2 wilds."""
    import z3

    for copies in itertools.product(range(4), repeat=2):
        for wilds, skips, others in itertools.product(range(3), range(3), range(0, 12, 3)):
            counts = (*copies, 0, 0, 0, 0, wilds, skips, others, 0, 0, 0)
            deck = [z3.IntVal(count) for count in counts]
            for players in (2, 3):
                stalls = z3.simplify(z3.Not(stall_check(deck, players, 2)))
                assert z3.is_true(stalls) == bool(stall_numbers(counts, 2, players)), counts
                held = players * 2 + min(skips, players - 1)
                assert z3.is_true(z3.simplify(pile_check(deck, players, 2))) == (sum(counts) > held)


def test_the_report_of_the_short_game_proves_everything() -> None:
    """TM11, TME6, TM25, TME5: the short game's report for 2 and 3 seats, as text."""
    report = verify(Ruleset.short(), players=(2, 3))
    assert isinstance(report, Report)
    assert report.all_proved
    assert [finding.name for finding in report.findings] == ["piles-never-empty", "no-stall"] * 2
    text = report.format()
    assert "rows of 4: a turn turns up at most 4 card(s) and takes at most 11 actions" in text
    assert text.endswith("Result: all proved.")


def test_the_report_refuses_seat_counts_and_rule_sets_it_cannot_check() -> None:
    """TM2: a seat count the rule set does not allow, and something that is not a rule set, are refused."""
    with pytest.raises(InvalidGameError, match="7 players"):
        verify(Ruleset.short(), players=(7,))
    with pytest.raises(InvalidRulesetError, match="must be a Ruleset"):
        verify("short", players=(2,))  # type: ignore[arg-type]
    with pytest.raises(InvalidGameError, match="1 players"):
        prove_pile_check_suffices(1, 3)


@pytest.mark.slow
def test_the_module_runs_as_a_script_for_the_standard_game() -> None:
    """``python -m cheekymonkey.toomany.verify`` proves everything for the standard game and exits 0."""
    done = subprocess.run(
        [sys.executable, "-m", "cheekymonkey.toomany.verify", "standard"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "rows of 6: a turn turns up at most 6 card(s) and takes at most 17 actions" in done.stdout
    assert done.stdout.count("[proved]") == 6 + 2 * 5


def test_the_script_refuses_an_unknown_preset(capsys: pytest.CaptureFixture[str]) -> None:
    """A preset name the rules do not have: one line, exit status 2."""
    assert main(["long"]) == 2
    assert "no preset named 'long'" in capsys.readouterr().err


def test_the_proofs_need_z3_and_the_engine_does_not() -> None:
    """The engine imports without z3; only the proofs need it, and say how to get it."""
    code = (
        "import sys; sys.modules['z3'] = None\n"
        "import cheekymonkey.toomany\n"
        "assert 'cheekymonkey.toomany.verify' not in sys.modules\n"
        "try:\n"
        "    import cheekymonkey.toomany.verify\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'cheekymonkey[verify]'" in done.stdout


def test_chance_may_reveal_any_card_in_the_model() -> None:
    """TM19: the model lets chance reveal every kind of card, whatever is left in the pool."""
    model = TurnModel(3)
    revealed = {step.action for step in model.steps(TurnPoint(Phase.DRAW, "N?N", None))}
    assert revealed == {Reveal(card) for card in CARDS}


def test_cheekymonkey_verify_proves_a_too_many_monkeys_preset(capsys: pytest.CaptureFixture[str]) -> None:
    """``cheekymonkey verify --game too-many-monkeys --preset short --players 2`` proves everything and exits 0."""
    assert cli(["verify", "--game", "too-many-monkeys", "--preset", "short", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Too Many Monkeys, the short rules:")
    assert "[proved] no round can stall: some seat can always turn a position up, 2 seats (TME5)" in out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--game", "too-many-monkeys", "--players", "7"], "7 players: the rules allow 2 to 6 (TM2)"),
        (["--game", "too-many-monkeys", "--ruleset", "rules.json"], "cannot be read from a file yet"),
        (["--preset", "short"], "no cheeky-monkey preset named 'short'"),
    ],
)
def test_cheekymonkey_verify_refuses_what_it_cannot_prove_in_one_line(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seat count the rules do not allow, a rule set file, a preset of the other game: status 2, one line."""
    assert cli(["verify", *arguments]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
