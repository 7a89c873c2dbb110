"""Too Many Monkeys' encodings for learning: action indices, masks, observations and their texts, points."""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cheekymonkey.encoding import Encoding
from cheekymonkey.errors import IllegalActionError, InvalidValueError
from cheekymonkey.games import game_named
from cheekymonkey.toomany import (
    CARDS,
    TOO_MANY_MONKEYS,
    Action,
    Card,
    Decline,
    Draw,
    FaceDown,
    GameState,
    GiveSkip,
    Phase,
    PlaceWild,
    RaccoonTake,
    Reveal,
    Ruleset,
    TakeBonus,
    TakeDiscard,
    TurnDown,
    apply,
    chance_outcomes,
    face_down,
    is_chance_node,
    legal_actions,
    new_game,
    outcome,
)
from cheekymonkey.toomany.encoding import (
    DECLINE_INDEX,
    DEFAULT_OBSERVATION,
    DRAW_INDEX,
    OBSERVATION_KINDS,
    SLOT_KINDS,
    TAKE_BONUS_INDEX,
    TAKE_DISCARD_INDEX,
    TooManyEncoding,
    encoding,
    num_actions,
)
from tests.toomany.helpers import TINY, make, random_game
from tests.toomany.test_properties import Played, played

SHORT = Ruleset.short()


# -- action indices ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_indices_follow_the_documented_layout(players: int) -> None:
    """Draw 0, TakeDiscard 1, PlaceWild(p) 1+p, TakeBonus 8, RaccoonTake(k) 8+k, Decline 15, then by offset."""
    codec = TooManyEncoding(players)
    assert codec.num_actions == num_actions(players) == 16 + 7 * (players - 1)
    for seat in range(players):
        state = make(["? ? ? ? ? ?"] * players, seat=seat, discard="3")  # a decision: draw or take the 3
        assert state.phase is Phase.START
        expected: dict[int, Action] = {0: Draw(), 1: TakeDiscard(), 8: TakeBonus(), 15: Decline()}
        for p in range(1, 7):
            expected[1 + p] = PlaceWild(p)
            expected[8 + p] = RaccoonTake(p)
        for offset in range(1, players):
            other = (seat + offset) % players
            for p in range(1, 7):
                expected[9 + 6 * offset + p] = TurnDown(other, p)
            expected[9 + 6 * players + offset] = GiveSkip(other)
        assert sorted(expected) == list(range(codec.num_actions))
        for index, action in expected.items():
            assert codec.decode(index, state) == action
            assert codec.encode(action, state) == index
    assert (DRAW_INDEX, TAKE_DISCARD_INDEX, TAKE_BONUS_INDEX, DECLINE_INDEX) == (0, 1, 8, 15)
    chance = new_game(players)
    for card in CARDS:
        assert codec.encode(Reveal(card), chance) == card - 1
        assert codec.decode(card - 1, chance) == Reveal(card)
        assert codec.action_name(card - 1, chance=True) == repr(Reveal(card))
    assert codec.num_outcomes == len(CARDS) == 12
    assert codec.action_name(16) == "TurnDown(+1, 1)"
    assert codec.action_name(9 + 6 * players + 1) == "GiveSkip(+1)"
    assert codec.action_name(2) == "PlaceWild(1)"


@given(played())
def test_every_legal_action_has_one_index_and_the_masks_mark_exactly_those(game: Played) -> None:
    """Over whole games of every rule set: indices sorted and one per action, masks, outcome indices."""
    for state in game.states:
        codec = encoding(state.players, state.ruleset)
        actions = legal_actions(state)
        indices = codec.legal_indices(state)
        assert len(set(indices)) == len(actions)
        assert list(indices) == sorted(indices)  # OpenSpiel asks for ascending legal actions
        assert {codec.decode(i, state) for i in indices} == set(actions)
        assert all(codec.encode(codec.decode(i, state), state) == i for i in indices)
        mask, outcomes = codec.action_mask(state), codec.outcome_mask(state)
        assert (len(mask), len(outcomes)) == (codec.num_actions, codec.num_outcomes)
        if is_chance_node(state):
            assert not any(mask)
            assert [i for i, legal in enumerate(outcomes) if legal] == list(indices)
            assert [codec.encode(reveal, state) for reveal, _ in chance_outcomes(state)] == list(indices)
        else:
            assert [i for i, legal in enumerate(mask) if legal] == list(indices)
            assert not any(outcomes)


@given(played(), st.data())
def test_an_index_that_is_not_legal_decodes_to_an_action_that_apply_refuses(game: Played, data: st.DataObject) -> None:
    """Every index in range decodes; one the mask rules out is the engine's IllegalActionError, state unchanged."""
    state = data.draw(st.sampled_from(game.states))
    codec = encoding(state.players, state.ruleset)
    mask = codec.outcome_mask(state) if is_chance_node(state) else codec.action_mask(state)
    illegal = [i for i, legal in enumerate(mask) if not legal]
    if not illegal:
        return
    snapshot = pickle.dumps(state)
    with pytest.raises(IllegalActionError):
        apply(state, codec.decode(data.draw(st.sampled_from(illegal)), state))
    assert pickle.dumps(state) == snapshot


def test_bad_indices_actions_states_and_arguments_get_invalid_value_errors() -> None:
    """Out-of-range or non-integer indices, seatless actions, states of another shape, bad arguments."""
    codec = TooManyEncoding(3)
    state = make(["? ? ? ? ? ?"] * 3, seat=1, phase=Phase.SKIP, hand=Card.SKIP)
    for index in (-1, codec.num_actions, 1.0, "0", True, None):
        with pytest.raises(InvalidValueError):
            codec.decode(index, state)  # type: ignore[arg-type]
    for index in (-1, 12, True):
        with pytest.raises(InvalidValueError):
            codec.decode(index, new_game(3))
        with pytest.raises(InvalidValueError):
            codec.action_name(index, chance=True)
    with pytest.raises(InvalidValueError, match="names seat 1"):
        codec.encode(GiveSkip(1), state)  # the mover's own seat has no index
    with pytest.raises(InvalidValueError, match="names seat 5"):
        codec.encode(TurnDown(5, 1), state)
    with pytest.raises(InvalidValueError, match="not an action"):
        codec.encode("Draw()", state)  # type: ignore[arg-type]
    for call in (codec.legal_indices, codec.action_mask, codec.outcome_mask, codec.points):
        with pytest.raises(InvalidValueError, match="does not fit"):
            call(new_game(2))
        with pytest.raises(InvalidValueError, match="does not fit"):
            call(new_game(3, ruleset=SHORT))
        with pytest.raises(InvalidValueError, match="GameState"):
            call("state")  # type: ignore[arg-type]
    for seat in (3, -1, True, "0"):
        with pytest.raises(InvalidValueError, match="seat"):
            codec.observe(state, seat)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="entries"):
        codec.text([0, 1])
    with pytest.raises(InvalidValueError, match="no field"):
        TooManyEncoding(2, observation="table").field("discard")
    for args in ((7,), (1,), (True,), (2, "standard"), (2, None, "pixels"), (3, TINY)):
        with pytest.raises(InvalidValueError):
            TooManyEncoding(*args)
        with pytest.raises(InvalidValueError):
            encoding(*args)


def test_the_binding_offers_the_encodings_and_keeps_one_per_kind() -> None:
    """observation_kinds() names both kinds, the default first; encoding() builds them, and keeps one of each."""
    game = game_named("too-many-monkeys")
    assert game.observation_kinds() == OBSERVATION_KINDS == ("full", "table")
    assert DEFAULT_OBSERVATION == "full"
    made: Encoding[GameState, Action] = game.encoding(4, SHORT, "table")
    assert made is TOO_MANY_MONKEYS.encoding(4, SHORT, "table")
    assert isinstance(made, TooManyEncoding)
    assert (made.players, made.ruleset, made.kind) == (4, SHORT, "table")
    assert encoding(2).kind == "full"
    with pytest.raises(InvalidValueError):
        game.encoding(2, None, "pixels")


# -- observations ------------------------------------------------------------------------------------------


def _read(codec: TooManyEncoding, observation: Sequence[int], seat: int | None) -> GameState:
    """The state a full observation by ``seat`` shows, read back field by field with the seats turned back."""

    def part(name: str) -> list[int]:
        field = codec.field(name)
        return list(observation[field.offset : field.offset + field.size])

    def one_hot(values: Sequence[int]) -> int | None:
        assert sum(values) <= 1
        return values.index(1) if 1 in values else None

    n = codec.players
    first = seat or 0

    def absolute(rows: Sequence[object]) -> list[object]:
        return [rows[(s - first) % n] for s in range(n)]

    sizes = part("row_sizes")
    slots = part("rows")
    rows = []
    for row in range(n):
        positions: list[Card | FaceDown | None] = []
        for p in range(6):
            kind = one_hot(slots[(row * 6 + p) * 5 : (row * 6 + p + 1) * 5])
            if kind is None:
                assert p >= sizes[row]
                continue
            card = CARDS[p] if kind in (0, 2) else Card.WILD
            positions.append((card, card, face_down(card), face_down(card), None)[kind])
        rows.append(tuple(positions))
    hand = one_hot(part("hand"))
    depth = codec.ruleset.total_cards - n
    block = part("discard")
    discard = [
        CARDS[one_hot(block[d * 12 : (d + 1) * 12]) or 0] for d in range(depth) if any(block[d * 12 : d * 12 + 12])
    ]
    to_move, round_first = one_hot(part("to_move")), one_hot(part("round_first"))
    phase = one_hot(part("phase"))
    assert to_move is not None
    assert round_first is not None
    assert phase is not None
    return GameState(
        codec.ruleset,
        part("round")[0],
        (round_first + first) % n,
        (to_move + first) % n,
        Phase(phase),
        tuple(absolute(rows)),
        None if hand is None else CARDS[hand],
        tuple(reversed(discard)),
        part("pile_size")[0],
        tuple(part("pile")) if part("reshuffled")[0] else None,
        tuple(part("unseen")),
        tuple(bool(waiting) for waiting in absolute(part("skips"))),
    )


@given(played(), st.data())
def test_observations_fit_their_bounds_and_the_full_one_holds_the_whole_state(
    game: Played, data: st.DataObject
) -> None:
    """Every entry lies within its field's bound; the state reads back whole from the full observation."""
    for state in game.states:
        seat = data.draw(st.none() | st.integers(0, state.players - 1), label="seat")
        full, table = (encoding(state.players, state.ruleset, kind) for kind in ("full", "table"))
        seen = full.observe(state, seat)
        assert len(seen) == full.observation_size == len(full.observation_bounds)
        assert all(0 <= value <= bound for value, bound in zip(seen, full.observation_bounds, strict=True))
        assert table.observe(state, seat) == seen[: table.observation_size]
        assert [f.name for f in full.observation_fields] == [f.name for f in table.observation_fields] + ["discard"]
        assert _read(full, seen, seat) == state


def test_fields_count_seats_from_the_viewer_and_show_each_kind_of_position() -> None:
    """Seat 1 of three, a spectator and seat 0 read one position: rows, Skips, to-move and first seat rotate."""
    state = make(
        ["1 ? (3) W ? ?", "? (W) ? ? 5", "? ? ?"],
        seat=2,
        discard="6 G 4",
        skips=[0],
        round_first=1,
        phase=Phase.SKIP,
        hand=Card.SKIP,
    )
    codec = TooManyEncoding(3)

    def field(seat: int | None, name: str) -> tuple[int, ...]:
        f = codec.field(name)
        return codec.observe(state, seat)[f.offset : f.offset + f.size]

    assert field(1, "viewer") == (1, 0, 0)
    assert field(None, "viewer") == (0, 0, 0)
    assert field(1, "to_move") == (0, 1, 0)  # seat 2 is one place after seat 1
    assert field(None, "to_move") == (0, 0, 1)
    assert field(1, "round_first") == (1, 0, 0)
    assert field(1, "row_sizes") == (5, 3, 6)
    assert field(0, "row_sizes") == (6, 5, 3)
    assert field(1, "skips") == (0, 0, 1)
    assert field(0, "round") == (5,)  # four cards short of three rows of 6: four rounds won
    row = field(0, "rows")[:30]
    assert [row[p * 5 : p * 5 + 5].index(1) for p in range(6)] == [0, 4, 2, 1, 4, 4]
    assert SLOT_KINDS[2] == "number turned down"
    assert field(1, "rows")[:30][5:10] == (0, 0, 0, 1, 0)  # seat 1's second position: a wild turned down
    assert field(1, "rows")[:30][25:] == (0,) * 5  # past the end of a row of 5
    assert field(0, "hand") == tuple(int(card is Card.SKIP) for card in CARDS)
    assert field(0, "discard_top") == tuple(int(card is Card.FOUR) for card in CARDS)
    assert field(0, "discard_size") == (3,)
    assert field(0, "discard")[:36] == tuple(
        int(card is top) for top in (Card.FOUR, Card.GIRAFFE, Card.SIX) for card in CARDS
    )
    assert field(0, "reshuffled") == (0,)
    assert codec.observation_text(state, 1).splitlines()[4:7] == [
        "row +0: ? (W) ? ? 5",
        "row +1: ? ? ?",
        "row +2: 1 ? (3) W ? ?, a Skip waiting",
    ]


def test_the_table_kind_leaves_out_only_the_order_of_the_discard_pile_below_its_top() -> None:
    """Two positions whose discard piles differ only in order below the top read the same in the table kind."""
    first = make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="3 5 6")
    second = make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="5 3 6")
    table, full = TooManyEncoding(2, observation="table"), TooManyEncoding(2)
    assert table.observe(first, 0) == table.observe(second, 0)
    assert table.observation_text(first, 0) == table.observation_text(second, 0)
    assert full.observe(first, 0) != full.observe(second, 0)
    assert "discard pile from the top: 6, 5, 3" in full.observation_text(first, 0)
    assert full.observation_size - table.observation_size == (55 - 2) * 12


def _rotated(state: GameState, shift: int) -> GameState:
    """The same position with every seat moved ``shift`` places on (seat s sits at s + shift)."""
    n = state.players

    def turn(values: Sequence[object]) -> tuple[object, ...]:
        return tuple(values[(s - shift) % n] for s in range(n))

    return GameState(
        state.ruleset,
        state.round,
        (state.round_first + shift) % n,
        (state.seat + shift) % n,
        state.phase,
        turn(state.rows),
        state.hand,
        state.discard,
        state.pile_size,
        state.pile,
        state.unseen,
        turn(state.skips),
    )


def _rotated_action(action: Action, shift: int, players: int) -> Action:
    if isinstance(action, TurnDown):
        return TurnDown((action.seat + shift) % players, action.position)
    if isinstance(action, GiveSkip):
        return GiveSkip((action.seat + shift) % players)
    return action


@given(played(), st.data())
def test_a_position_is_observed_the_same_from_every_seat_up_to_the_rotation(game: Played, data: st.DataObject) -> None:
    """Observations, texts, masks and indices do not depend on where the seats are numbered from."""
    state = data.draw(st.sampled_from(game.states), label="state")
    n = state.players
    shift = data.draw(st.integers(1, n - 1), label="shift")
    turned = _rotated(state, shift)
    for kind in OBSERVATION_KINDS:
        codec = encoding(n, state.ruleset, kind)
        for seat in range(n):
            assert codec.observe(turned, (seat + shift) % n) == codec.observe(state, seat)
            assert codec.observation_text(turned, (seat + shift) % n) == codec.observation_text(state, seat)
    codec = encoding(n, state.ruleset)
    assert codec.action_mask(turned) == codec.action_mask(state)
    assert codec.legal_indices(turned) == codec.legal_indices(state)
    for index in codec.legal_indices(state):
        assert codec.decode(index, turned) == _rotated_action(codec.decode(index, state), shift, n)
    points = codec.points(state)
    assert codec.points(turned) == tuple(points[(s - shift) % n] for s in range(n))


def test_an_observation_text_shows_what_its_vector_shows() -> None:
    """Over thousands of positions from every seat, equal texts mean equal vectors, and the other way round."""
    for kind in OBSERVATION_KINDS:
        seen: dict[str, tuple[int, ...]] = {}
        for players, ruleset in ((2, SHORT), (3, SHORT), (2, TINY)):
            codec = TooManyEncoding(players, ruleset, kind)
            for seed in range(6):
                for state in random_game(seed, players, ruleset):
                    for seat in (*range(players), None):
                        vector = codec.observe(state, seat)
                        text = codec.text(vector)
                        assert seen.setdefault(text, vector) == vector, text
                        assert codec.observation_text(state, seat) == text
        assert len(seen) > 2000
        assert len(set(seen.values())) == len(seen)


def test_a_reshuffled_draw_pile_is_observed_card_by_card_and_reads_back() -> None:
    """After a reshuffle the pile's cards are known (TM20): the flag, the counts, the text, the state read back."""
    # Nine cards: every card not in a row has been seen, and two giraffes came back as the draw pile.
    state = make(["? ?", "? ?"], discard="1 G 3", pile="G G", ruleset=TINY)
    assert state.pile is not None
    codec = TooManyEncoding(2, TINY)
    seen = codec.observe(state, 1)
    field = codec.field("pile")
    assert seen[field.offset : field.offset + field.size] == state.pile
    assert seen[codec.field("reshuffled").offset] == 1
    assert "draw pile: 2 cards, reshuffled, holding giraffe x2" in codec.text(seen)
    assert _read(codec, seen, 1) == state


# -- points --------------------------------------------------------------------------------------------


def test_points_are_minus_the_cards_still_to_turn_up_to_win_the_game() -> None:
    """Rows of 6 start at -21; a worked position; the winner ends at 0 and the others below, ranked alike."""
    codec = TooManyEncoding(3)
    assert codec.points(new_game(3)) == (-21.0, -21.0, -21.0)
    assert TooManyEncoding(2, SHORT).points(new_game(2, ruleset=SHORT)) == (-10.0, -10.0)
    # Seat 0: 3 face down of 6 (1, 3 and the wild are up; the 3 turned down is not) and 15 for rows 5 to 1.
    state = make(["1 ? (3) W 5 ?", "? ? ? ? ?", "? 2"], seat=1)
    assert codec.points(state) == (-18.0, -15.0, -2.0)
    finished = 0
    for seed in range(20):
        *_, last = random_game(seed, 3)
        points, ranks = codec.points(last), outcome(last).ranks
        assert points[last.seat] == 0.0
        for a in range(3):
            for b in range(3):
                if ranks[a] < ranks[b]:
                    assert points[a] > points[b]
        finished += 1
    assert finished == 20


def test_points_move_as_cards_turn_up_and_rounds_end() -> None:
    """Within a round a seat's points change by the cards it turned up, less those turned down; a new round resets."""
    codec = TooManyEncoding(2, SHORT)
    rounds = 0
    for seed in range(5):
        states = list(random_game(seed, 2, SHORT))
        for before, after in itertools.pairwise(states):
            gained = [
                sum(isinstance(slot, Card) for slot in b) - sum(isinstance(slot, Card) for slot in a)
                for a, b in zip(before.rows, after.rows, strict=True)
            ]
            change = [y - x for x, y in zip(codec.points(before), codec.points(after), strict=True)]
            if after.round == before.round:
                assert change == gained
            else:
                rounds += 1
                won = next(s for s in range(2) if len(after.rows[s]) < len(before.rows[s]))
                assert change[won] == sum(slot is None or isinstance(slot, FaceDown) for slot in before.rows[won])
                assert change[1 - won] == -sum(isinstance(slot, Card) for slot in before.rows[1 - won])
    assert rounds > 5
