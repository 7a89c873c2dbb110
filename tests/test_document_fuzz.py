"""A fuzzer over documents of every kind, with hostile sizes, depths, numbers, strings and keys.

Each example starts from a valid document of some kind (or from nothing), changes it the way a hostile
client would, and loads the text. The loader must either refuse it with :class:`DocumentError` (and a
short message), or give back a value that is consistent: it dumps and loads back equal, the shipped
schema accepts its document, and it passes checks written here from the rules, apart from the library's
own (a score sheet's winners by R17-R18, a record that replays, a state whose every legal action applies).
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cheekymonkey import (
    ANIMALS,
    Animal,
    Claim,
    Decision,
    GameRecord,
    GameState,
    HeuristicBot,
    RandomBot,
    Reveal,
    Ruleset,
    ScoreSheet,
    TableView,
    apply,
    legal_actions,
    play_game,
    view,
)
from cheekymonkey.cheeky import documents
from cheekymonkey.cheeky.documents import KINDS, Document, loads, to_document
from cheekymonkey.cheeky.events import Busted, GameOver, Stacked, Swapped
from cheekymonkey.cheeky.rules import MAX_COUNT
from cheekymonkey.schema import load_schema
from cheekymonkey.serialization import MAX_INTEGER, DocumentError
from tests.document_testing import HUGE, TEXT_AND_LIMITS, Beyond, Fuzzing, hostile_documents
from tests.test_free_text import HOSTILE as HOSTILE_TEXTS

_VALIDATORS: dict[str, jsonschema.Draft202012Validator] = {
    kind: jsonschema.Draft202012Validator(load_schema(kind)) for kind in KINDS
}


def _samples() -> list[dict[str, Any]]:
    tiny = Ruleset.custom({Animal.SEAL: 2, Animal.LION: 1, Animal.MONKEY: 3})
    game = play_game([HeuristicBot(), RandomBot(), HeuristicBot()], ruleset=tiny, seed=3)
    standard = play_game([RandomBot(), RandomBot()], seed=8)
    states = game.record.states()
    values: list[Document] = [
        states[len(states) // 2],
        states[len(states) // 3],
        view(states[len(states) // 2], states[len(states) // 2].seat),
        view(states[5], None),
        game.record,
        standard.record,
        game.score,
        standard.score,
        tiny,
        Ruleset.standard(),
        Claim(1),
        Reveal(Animal.MONKEY),
        GameOver(standard.score),
        Swapped(0, 1, Animal.SEAL),
        Busted(1, Animal.LION, (Animal.SEAL, Animal.LION, Animal.LION)),
        Stacked(2, (Animal.SEAL, Animal.MONKEY)),
    ]
    documents = [to_document(value) for value in values]
    assert {document["kind"] for document in documents} == set(KINDS)
    return documents


SAMPLES = _samples()
BIG = "x" * 3_000_000
_FIELD_NAMES = sorted(
    {key for document in SAMPLES for key in document}
    | {a.name.lower() for a in ANIMALS}
    | {"type", "format", "kind", "seat", "counts", "sheet"}
)

# Hostile leaves: numbers at and past every boundary, odd floats, long and broken strings, names of real fields.
_NUMBERS: st.SearchStrategy[object] = st.sampled_from(
    [0, 1, -1, 15, 16, 17, MAX_INTEGER, MAX_INTEGER + 1, -MAX_INTEGER - 1, 10**20, 10**400, 2**64]
) | st.integers(min_value=-(2**70), max_value=2**70)
_NUMBERS = _NUMBERS | st.just(HUGE)
_FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1.0, 1e308, -0.0, 1e-320])
_STRINGS = (
    st.text(max_size=12)
    | st.sampled_from([*_FIELD_NAMES, "\ud800", "a\udfffb", "\ufeff", "x" * 10_000, BIG, "cheekymonkey/01"])
    | st.sampled_from([f"cheekymonkey/{v}" for v in ("1", "2", "0", "-1", "1.0", "9" * 5000)])
    | st.sampled_from(list(HOSTILE_TEXTS.values()))
)
_LEAVES = st.none() | st.booleans() | _NUMBERS | _FLOATS | _STRINGS
_KEYS = st.sampled_from(_FIELD_NAMES) | st.text(max_size=8) | st.sampled_from([BIG, "\ud800", ""])
_JSON = st.recursive(
    _LEAVES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_KEYS, children, max_size=4),
    max_leaves=8,
)


def _winners_by_the_rules(sheet: ScoreSheet) -> tuple[tuple[int, ...], Decision]:
    """R18, written out again here: the top total wins; a tie goes to the highest tile, else it is shared."""
    top = max(line.total for line in sheet.seats)
    tied = [line for line in sheet.seats if line.total == top]
    if len(tied) == 1:
        return (tied[0].seat,), Decision.SCORE
    tiles = [line.best_tile for line in tied if line.best_tile is not None]
    if not tiles:
        return tuple(line.seat for line in tied), Decision.SHARED
    best = [line.seat for line in tied if line.best_tile == max(tiles)]
    return tuple(best), Decision.TIE_BREAK if len(best) == 1 else Decision.SHARED


def _check_consistent(value: Document) -> None:
    """What the rules say of each kind, checked apart from the loader's own checks."""
    if isinstance(value, ScoreSheet | GameOver):
        sheet = value.sheet if isinstance(value, GameOver) else value
        for line in sheet.seats:
            assert line.tokens == sum(line.counts)
            assert line.total == line.tokens + line.bonus  # R17
            assert (line.best_tile is None) == (not line.tiles)
            assert line.best_tile is None or line.best_tile <= line.bonus
        assert (sheet.winners, sheet.decided_by) == _winners_by_the_rules(sheet)
        for animal, holder in zip(ANIMALS, sheet.tile_holders, strict=True):
            if holder is not None:  # R16: strictly more than every other seat
                assert all(
                    line.counts[animal] < sheet.seats[holder].counts[animal]
                    for line in sheet.seats
                    if line.seat != holder
                )
    elif isinstance(value, GameRecord):
        assert value.final_state() is not None
    elif isinstance(value, GameState):
        for action in legal_actions(value):
            apply(value, action)
    elif isinstance(value, TableView):
        assert not value.legal or value.my_turn
        assert value.bag_size + sum(value.stack_heights) + len(value.front) == value.ruleset.total_tokens
    elif isinstance(value, Busted):
        assert value.returned[-1] is value.animal  # R6
        assert value.animal in value.returned[:-1]


BEYOND_SCHEMA: tuple[Beyond, ...] = (
    *TEXT_AND_LIMITS,
    Beyond(
        "every token in one place (E8)",
        r"tokens in the game, but the rule set has|in the bag, \d+ stacked and \d+ in front do not add up"
        r"|tokens show, but the rule set has",
    ),
    Beyond("bonus values that follow the counts (E7)", r"is in play, so its bonus value|is not in play but has bonus"),
    Beyond(
        "seat counts within the rule set's range (E7)",
        r"max_players \d+ is below min_players|rules allow \d+ to \d+|but the rule set allows \d+ to \d+",
    ),
    Beyond(
        "a seat that the game has",
        r"is not one of the \d+ seats|is not one of seats|is not on the sheet|quit_by must be None or one of the",
    ),
    Beyond(
        "the turn in progress (E8)",
        r"claims follow|claims and swaps are open only|the game is over only when|deciding with no token"
        r"|a draw is pending|placing needs|a swap is open only|a monkey was just drawn|no claims are open only after"
        r"|stack has height \d+ and top|stack tops for \d+ stack heights",
    ),
    Beyond("a view's legal actions (E3)", r"legal actions are shown only|the legal actions .* are not those"),
    Beyond(
        "a score sheet that adds up (R16-R18)",
        r"tokens, but the counts add up|total \d+ is not tokens|the winners must be among|the tiles do not match"
        r"|a best tile needs|needs a best tile of|a bonus of \d+ is not|line \d+ is for seat|does not fit \d+ top"
        r"|does not hold the most|does not follow from its counts",
    ),
    Beyond(
        "an event that agrees with itself (R6-R12)",
        r"R6: a bust returns|R7: a player never claims|R12: a player never swaps|R10: a herd is",
    ),
    Beyond("a record that replays", r"does not replay|names for \d+ seats|bots for \d+ seats"),
    Beyond("the standard values of old versions (R2)", r"the reversed values of old versions"),
)
"""What Cheeky Monkey's loader checks that its schemas do not state: relations between fields."""

FUZZING = Fuzzing(documents, _VALIDATORS, _check_consistent, BEYOND_SCHEMA)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)
@given(hostile_documents(SAMPLES, _JSON, _KEYS))
def test_a_hostile_document_loads_to_a_consistent_value_or_raises_a_short_document_error(text: str) -> None:
    """No exception but DocumentError, no long message, and nothing inconsistent loads."""
    FUZZING.check(text)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.sampled_from(SAMPLES), st.sampled_from(["format", "kind"]), _STRINGS | _NUMBERS)
def test_a_document_with_a_hostile_header_is_refused_unless_the_header_is_right(
    document: dict[str, Any], field: str, value: object
) -> None:
    """The header's format and kind take only their own values; the schema refuses the same."""
    FUZZING.check_header(document, field, value)


def test_the_fuzzer_s_samples_cover_every_kind_and_hostile_numbers_are_refused() -> None:
    """The samples hold every kind; the boundary numbers behave as documented.

    A bonus value is at most MAX_COUNT (2**48, E7), and no integer is above 2**53 - 1.
    """
    assert {d["kind"] for d in SAMPLES} == set(KINDS)
    ruleset = to_document(Ruleset.standard())
    ruleset["bonus_values"]["seal"] = MAX_COUNT
    assert loads(json.dumps(ruleset)) is not None
    ruleset["bonus_values"]["seal"] = MAX_COUNT + 1
    refused = FUZZING.load(json.dumps(ruleset))
    assert isinstance(refused, DocumentError)
    assert refused.reason == f"the integer {MAX_COUNT + 1} is above {MAX_COUNT}: this field holds at most {MAX_COUNT}"
    ruleset["bonus_values"]["seal"] = MAX_INTEGER + 1
    refused = FUZZING.load(json.dumps(ruleset))
    assert isinstance(refused, DocumentError)
    assert "too large" in refused.reason
