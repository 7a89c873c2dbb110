"""The shipped schemas refuse what the loaders refuse, both games, but for the few checks JSON Schema cannot state.

A corpus of documents is made from each game's samples by one edit each (a value put in a place, a list item
dropped or repeated, a field dropped or added: :func:`~tests.document_testing.single_edits`). Every document
the loader refuses must be refused by the schema of its kind too, unless the refusal is one the schemas do not
state: each game's list sits beside its fuzzer (``BEYOND_SCHEMA``), and the serialization page
(docs/reference/serialization.md) lists the same. They are relations between fields (cards conserved, a seat
below the number of seats, a record that replays), which JSON Schema cannot compare or add up, and what the
text or a limit refuses. The fuzzers of both games check the same on random documents.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Final

import pytest

from cheekymonkey import ANIMALS
from cheekymonkey.cheeky import documents as cm_documents
from cheekymonkey.cheeky.rules import MAX_COUNT
from cheekymonkey.cheeky.scoring import Decision
from cheekymonkey.cheeky.state import Phase as CmPhase
from cheekymonkey.serialization import MAX_INTEGER, DocumentError
from cheekymonkey.toomany import CARDS, Phase, Reason
from cheekymonkey.toomany import documents as tm_documents
from tests.document_testing import Fuzzing, single_edits
from tests.test_document_fuzz import _VALIDATORS as CM_VALIDATORS
from tests.test_document_fuzz import BEYOND_SCHEMA as CM_BEYOND
from tests.test_document_fuzz import SAMPLES as CM_SAMPLES
from tests.toomany.documents_support import BEYOND_SCHEMA as TM_BEYOND
from tests.toomany.documents_support import VALIDATORS as TM_VALIDATORS
from tests.toomany.documents_support import samples

_NUMBERS: Final = (-1, 0, 1, 2, 3, 5, 6, 7, 15, 16, 17, 55, MAX_COUNT, MAX_COUNT + 1, MAX_INTEGER, MAX_INTEGER + 1)
_OTHERS: Final[tuple[object, ...]] = (None, True, False, 1.0, 0.5, -1.0, "", "x", [], {})
_TEXTS: Final = ("\x1b]0;title\x07", "Ann\u202eeve", "x" * 65, "x" * 257)
"""Free texts the loader refuses (a control, a bidirectional control, over 64 and over 256 characters)."""

CM_POOL: Final = [
    *_NUMBERS,
    *_OTHERS,
    *_TEXTS,
    *(animal.name.lower() for animal in ANIMALS),
    *(phase.name.lower() for phase in CmPhase),
    *(decision.value for decision in Decision),
]
TM_POOL: Final = [
    *_NUMBERS,
    *_OTHERS,
    *_TEXTS,
    *(card.name.lower() for card in CARDS),
    *({"card": card.name.lower()} for card in CARDS),
    *(phase.name.lower() for phase in Phase),
    *(reason.name.lower() for reason in Reason),
]


def _one_record(documents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The documents with only their shortest record: a record loads by replaying, the corpus's slowest step."""
    records = [document for document in documents if document["kind"] == "record"]
    shortest = min(records, key=lambda record: len(record["actions"]))
    return [document for document in documents if document["kind"] != "record" or document is shortest]


GAMES: Final = {
    "cheeky-monkey": (
        Fuzzing(cm_documents, CM_VALIDATORS, lambda _: None, CM_BEYOND),
        _one_record(CM_SAMPLES),
        CM_POOL,
    ),
    "too-many-monkeys": (
        Fuzzing(tm_documents, TM_VALIDATORS, lambda _: None, TM_BEYOND),
        _one_record(samples()),
        TM_POOL,
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_document_the_loader_refuses_the_schema_refuses_too_but_for_the_checks_listed(game: str) -> None:
    """One edit of each sample, everywhere: each refusal is the schema's too, or one of the listed checks."""
    fuzzing, documents, pool = GAMES[game]
    refused = 0
    unlisted: Counter[str] = Counter()
    listed: Counter[str] = Counter()
    for document in single_edits(documents, pool):
        text = json.dumps(document)
        try:
            fuzzing.documents.loads(text)
            continue
        except DocumentError:
            refused += 1
        try:
            found = fuzzing.refused_alike(text)
        except AssertionError as error:
            unlisted[str(error).split("\n")[0][:160]] += 1
            continue
        if found is not None:
            listed[found.name] += 1
    assert refused > 2000
    assert not unlisted, "\n".join(f"{count} x {message}" for message, count in unlisted.most_common(60))


def test_the_serialization_page_lists_every_check_the_schemas_leave_to_the_loader() -> None:
    """Each entry of both lists appears on the reference page, under the game it belongs to."""
    page = (Path(__file__).parent.parent / "docs" / "reference" / "serialization.md").read_text(encoding="utf-8")
    for beyond in (*CM_BEYOND, *TM_BEYOND):
        assert beyond.name in page, beyond.name
