"""``cheekymonkey replay`` given a seat's record (what a web table gives a seat of a game with private information).

Such a record holds what one seat was shown and no deal, so it cannot be played again: ``replay`` refuses it with
a message that says what the file is, not a validation path. The record here is a whole game's record of a
built-in game turned into the shape of one (its kind ``seat-record``, its actions and seed taken out), so the
check needs no game with secrets installed; ``examples/leduc/tests`` refuses a real one, downloaded from a page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cheekymonkey.cli import main


def test_replay_refuses_a_seats_record_saying_what_it_is(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    whole = tmp_path / "whole.json"
    assert main(["watch", "--players", "2", "--seed", "3", "--record", str(whole)]) == 0
    document = json.loads(whole.read_text(encoding="utf-8"))
    seat_record = {key: value for key, value in document.items() if key not in ("actions", "seed", "quit_by")}
    seat_record.update(kind="seat-record", seat=1, seed=None, events=[])
    path = tmp_path / "seat.json"
    path.write_text(json.dumps(seat_record), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", "--no-step", str(path)]) == 2
    shown = capsys.readouterr()
    assert shown.out == ""
    assert f"{path} is one seat's record of a game with hidden cards, as a web table gives it" in shown.err
    assert "cannot be replayed" in shown.err
    assert "Traceback" not in shown.err
    # Another kind of document, or a file that is no JSON object, is refused as before: with the loader's words.
    for text in ('{"kind": "table"}', "[1]", '{"kind": "seat-record"'):
        path.write_text(text, encoding="utf-8")
        assert main(["replay", "--no-step", str(path)]) == 2
        refused = capsys.readouterr().err
        assert f"cheekymonkey replay: {path}: invalid " in refused
        assert "one seat's record" not in refused
