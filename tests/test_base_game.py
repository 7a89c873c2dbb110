"""A game written against :class:`~cheekymonkey.base.BaseGame`'s required core gets every other member.

The stand-in is :mod:`tests.minimal_game`'s dice race: its rules and nothing else.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest

from cheekymonkey.base import BaseGame, Played, RandomChoiceBot, weighted_pick
from cheekymonkey.errors import ActionTextError, InvalidValueError, NotAChanceNodeError, NotOfferedError
from cheekymonkey.game import Capabilities, Game
from cheekymonkey.play import play_game
from cheekymonkey.record import Record
from cheekymonkey.serialization import DocumentError
from cheekymonkey.table import Seat, Table
from tests.minimal_game import RACE, Move, Race, RaceRules, RaceState, RaceView, Roll

if TYPE_CHECKING:
    # The type checker holds the stand-in to the whole protocol, with its own types.
    _checked: Game[RaceState, Move | Roll, RaceRules, RaceView, Played[Move | Roll]] = RACE


def test_the_stand_in_writes_only_the_core_and_is_a_whole_game() -> None:
    """Its class defines the required members, its presets and its decisions, and no other; a :class:`Game`."""
    written = {name for name in vars(Race) if not name.startswith("_")}
    required = set(BaseGame.__abstractmethods__)
    assert written - {"presets", "decisions"} == required
    assert isinstance(RACE, Game)


def test_a_base_game_without_its_core_cannot_be_made() -> None:
    """Leaving out a required member is an error at once, naming it."""

    class Half(BaseGame[int, int, None, int, int]):
        name = "half"
        title = "Half"

    with pytest.raises(TypeError, match="apply"):
        Half()  # type: ignore[abstract]


def test_chance_is_sampled_from_the_outcomes_exactly_and_only_at_a_chance_node() -> None:
    """The default draw follows the outcomes' probabilities, and is seeded."""
    state = RACE.apply(RACE.new_game(2), Move.ROLL)
    rng = random.Random(5)
    draws = [RACE.sample_chance(state, rng) for _ in range(3000)]
    assert {draws.count(Roll(pips)) for pips in (1, 2, 3)} <= set(range(900, 1100))
    again = RACE.sample_chance(state, random.Random(9))
    assert [RACE.sample_chance(state, random.Random(9)) for _ in range(5)] == [again] * 5
    with pytest.raises(NotAChanceNodeError):
        RACE.sample_chance(RACE.new_game(2), rng)
    with pytest.raises(InvalidValueError, match="add up to 1/3, not 1"):
        weighted_pick([("a", RACE.chance_outcomes(state)[0][1])], rng)


def test_actions_are_read_back_by_their_texts() -> None:
    """The default text of an action is its plain name; reading matches the legal actions' texts only."""
    state = RACE.new_game(3)
    assert [RACE.action_text(a, state) for a in RACE.legal_actions(state)] == ["step", "roll"]
    assert RACE.parse_actions("  ROLL ", state) == (Move.ROLL,)
    with pytest.raises(ActionTextError, match=r"'jump': that is no legal action now \(valid now: step, roll\)"):
        RACE.parse_actions("jump", state)


class _SteppingRace(Race):
    """The dice race whose notation names both moves even while the die is in the air, for its default reading."""

    def notation_actions(self, state: RaceState) -> tuple[Move | Roll, ...]:
        return (*self.legal_actions(state), Move.STEP) if state.rolling else tuple(self.legal_actions(state))


def test_a_text_naming_an_action_the_rules_refuse_gets_the_engine_s_reason() -> None:
    """The default reading finds a text among the notation's actions: one the rules refuse carries their reason."""
    race = _SteppingRace()
    state = race.apply(race.new_game(2), Move.ROLL)
    with pytest.raises(ActionTextError) as refused:
        race.parse_actions("step", state)
    assert refused.value.action is Move.STEP
    assert refused.value.reason == "not one of the actions allowed now"
    assert refused.value.valid == ("roll (pips 1)", "roll (pips 2)", "roll (pips 3)")
    assert race.parse_actions("roll (pips 2)", state) == (Roll(2),)
    with pytest.raises(ActionTextError, match="that is no legal action now") as unnamed:
        RACE.parse_actions("step", state)  # the default notation is the legal actions: nothing named
    assert unnamed.value.action is None


def test_a_generic_record_written_without_quit_by_is_one_nobody_quit() -> None:
    """A record document from before ``quit_by`` existed loads, as the built-in codecs read theirs: None."""
    documents = RACE.documents()
    record = play_game([RACE.bot_named("random")] * 2, game=RACE, seed=2).record
    document = documents.to_document(record)
    del document["quit_by"]
    loaded = documents.from_document(document, "record")
    assert loaded == record
    assert loaded.quit_by is None
    document["quitter"] = None
    with pytest.raises(DocumentError, match="quit_by may be left out"):
        documents.from_document(document, "record")


def test_a_played_game_narrates_records_saves_and_replays() -> None:
    """Through the Table: events narrated, a generic record that saves as a document and replays to the end."""
    table = Table(RACE, [Seat.bot(RACE, "random", "Ann"), Seat.of(RandomChoiceBot(RACE), "Bob")], seed=11)
    table.advance()
    assert table.finished
    texts = [RACE.event_text(event, table.names, 0) for event in table.events_since(0)]
    assert texts[0].startswith("You: ")
    assert any(text.startswith("Chance: roll (pips") for text in texts)
    record = table.record()
    assert isinstance(record, Record)
    documents = RACE.documents()
    loaded = documents.loads(documents.dumps(record), "record")
    assert loaded == record
    assert loaded.final_state() == table.state
    assert "Winner:" in RACE.result_text(table.state, table.names)
    assert "squares" in RACE.board_text(table.state)


def test_the_generic_documents_refuse_what_is_not_the_game_s() -> None:
    """A class outside the game's package, a bad field, a record that does not replay: each a DocumentError."""
    documents = RACE.documents()
    bare = {"value": {"fields": {"pips": 2}, "type": "tests.minimal_game:Roll"}}
    assert documents.from_document(bare, "action") == Roll(2)
    for bad, where in [
        ({"value": {"fields": {}, "type": "os:system"}}, "is not a class of the game"),
        ({"value": {"fields": {"pips": 7}, "type": "tests.minimal_game:Roll"}}, "ValueError"),
        ({"value": {"fields": {"dots": 1}, "type": "tests.minimal_game:Roll"}}, "unknown fields"),
        ({"value": {"enum": "tests.minimal_game:Move", "name": "FLY"}}, "KeyError"),
    ]:
        with pytest.raises(DocumentError, match=where):
            documents.from_document(bad, "action")
    record = play_game([RACE.bot_named("random")] * 2, game=RACE, seed=2).record
    broken = documents.to_document(record)
    broken["actions"] = broken["actions"][1:]
    with pytest.raises(DocumentError, match=r"at \$.actions\[0\]: step 0 does not replay"):
        documents.from_document(broken, "record")


def test_what_the_game_does_not_offer_is_absent_with_a_typed_error_or_none() -> None:
    """No encodings (a NotOfferedError naming the game), no proofs, schemas or drawing, no bound."""
    with pytest.raises(NotOfferedError, match="the game 'dice-race' offers no encodings") as caught:
        RACE.encoding(2)
    assert (caught.value.game, RACE.observation_kinds()) == ("dice-race", ())
    assert RACE.capabilities == Capabilities()
    for member, offer in (("proofs", RACE.proofs), ("JSON Schema files", RACE.schemas), ("web page", RACE.page_script)):
        with pytest.raises(NotOfferedError, match=f"the game 'dice-race' offers no .*{member}"):
            offer()
    assert RACE.number_bound(RACE.ruleset()) is None
    assert RACE.bot_names() == ("random",)
    with pytest.raises(InvalidValueError, match="no bot named 'clever'"):
        RACE.bot_named("clever")


def test_the_base_class_implements_the_whole_protocol_and_the_docs_count_its_members() -> None:
    """Every member of Game is the base class's, required or a default; the reference page gives the counts."""
    from pathlib import Path

    members = {name for name in vars(Game) if not name.startswith("_")}
    required = set(BaseGame.__abstractmethods__)
    assert required < members
    assert members <= {name for name in dir(BaseGame) if not name.startswith("_")}
    page = (Path(__file__).resolve().parent.parent / "docs" / "reference" / "base.md").read_text(encoding="utf-8")
    counts = f"has {len(members)} members; a subclass of `BaseGame` writes {len(required)} of them, the rules"
    assert counts in " ".join(page.split())
    assert f"inherits the other {len(members) - len(required)} as defaults" in " ".join(page.split())
