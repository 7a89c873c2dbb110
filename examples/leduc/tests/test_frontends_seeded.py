"""A seeded range of Leduc hands through ``play``, ``watch`` and ``replay --seat``, each screen held to its reader.

The command runs in this process (its ``main``, answers from a pipe), so many hands take a few seconds; the
pseudo-terminal checks of single hands are in ``test_frontends.py``. For every hand the true deal comes from
the record the command saved, and what a reader may see follows from the rules alone (L8: a showdown turns up
the hands still in, to everyone; a folded hand is never shown, and a hand won by a fold shows no card):

* before the showdown (or the result, where the hand ends by folds) a seat sees its own card and, once it is
  turned up, the public card; a spectator the public card alone; nobody the seed;
* from the showdown on, also the hands still in; never a folded hand of another seat.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from cheekymonkey.cli import main

from cheekymonkey_leduc import LEDUC, LeducState
from cheekymonkey_leduc.rules import card_text, deck

# Hands at 2, 3 and 4 seats: every seat count's board fits the 80 columns the command draws off a terminal.
_HANDS = [(seed, 2 + seed % 3) for seed in range(36)]


def cards_in(text: str, players: int) -> set[str]:
    """Every card of a ``players``-seat deck that ``text`` names, as a word of its own (``Kh``, ``5s``)."""
    names = "|".join(card_text(card) for card in deck(players))
    return set(re.findall(rf"(?<![A-Za-z0-9])(?:{names})(?![A-Za-z0-9])", text))


def split_at_reveal(text: str) -> tuple[str, str]:
    """``text`` cut where the hand's end is shown: the first ``Showdown:`` line, else the ``Result`` heading."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith(("Showdown:", "Result")))
    return "".join(lines[:at]), "".join(lines[at:])


def final_state(path: Path) -> LeducState:
    state: LeducState = LEDUC.documents().loads(path.read_text(encoding="utf-8"), "record").final_state()
    return state


def revealed(final: LeducState) -> set[str]:
    """L8: the hands a showdown turns up (two or more seats still in at the end), else none."""
    still_in = [card for card, folded in zip(final.cards, final.folded, strict=True) if not folded]
    return {card_text(card) for card in still_in} if len(still_in) > 1 else set()


def hold_to(text: str, final: LeducState, seat: int | None) -> None:
    """``text``, the screen of one hand, shows ``seat`` (None: a spectator) what it may know, and no more."""
    players = len(final.cards)
    own = set() if seat is None else {card_text(final.cards[seat])}
    public = set() if final.public is None else {card_text(final.public)}
    before, after = split_at_reveal(text)
    assert cards_in(before, players) <= own | public, before
    assert "seed" not in before.lower()
    shown = revealed(final)
    assert shown <= cards_in(after, players) <= own | public | shown, after
    folded = {card_text(card) for other, card in enumerate(final.cards) if final.folded[other] and other != seat}
    assert not folded & cards_in(text, players)
    if shown:
        [line] = [line for line in after.splitlines() if line.startswith("Showdown:")]
        assert cards_in(line, players) == shown


def test_a_person_at_two_to_four_seats_sees_only_its_own_card_until_the_showdown(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """36 seeded hands, the person's answers drawn at random (some refused, asking for help and the table too).

    Across them the person folds, the bots fold, and hands go to a showdown: each kind of end is checked.
    """
    rng = random.Random(7)
    ends = {"person folded": 0, "a bot folded": 0, "showdown": 0, "no showdown": 0}
    for seed, players in _HANDS:
        answers = rng.choices(["call", "call", "raise", "fold", "v", "?"], k=60)
        monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
        record = tmp_path / f"play-{seed}.json"
        table = ["--game", "leduc", "--players", str(players), "--seed", str(seed), "--record", str(record)]
        status = main(["play", *table])
        text = capsys.readouterr().out
        assert status == 0, text
        final = final_state(record)
        assert final.over
        assert f"You: dealt {card_text(final.cards[0])}" in text
        # The person's own bets in the second person, the bots' in the third.
        assert re.search(r"^You (fold|check|call|raise)\b", text, re.MULTILINE)
        assert not re.search(r"^You (folds|checks|calls|raises)\b", text, re.MULTILINE)
        assert re.search(r"^Heuristic \d (folds|checks|calls|raises)\b", text, re.MULTILINE)
        hold_to(text, final, 0)
        assert f"Seed {seed}: --seed {seed} deals this game again." in split_at_reveal(text)[1]
        ends["person folded"] += final.folded[0]
        ends["a bot folded"] += any(final.folded[1:])
        ends["showdown" if revealed(final) else "no showdown"] += 1
    assert all(ends.values()), ends


def test_watch_and_replay_show_a_spectator_and_each_seat_only_what_it_may_know(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """36 seeded hands between the bots, watched; each record replayed as a spectator and as every seat.

    One replay a hand also steps (Enter after each turn, from a pipe), so the board is drawn at every turn for
    its reader: a spectator, or each seat in turn from one hand to the next.
    """
    showdowns = folds = 0
    for seed, players in _HANDS:
        record = tmp_path / f"watch-{seed}.json"
        table = ["--game", "leduc", "--players", str(players), "--seed", str(seed), "--record", str(record)]
        status = main(["watch", *table])
        text = capsys.readouterr().out
        assert status == 0, text
        final = final_state(record)
        hold_to(text, final, None)
        showdowns += bool(revealed(final))
        folds += any(final.folded)
        for seat in (None, *range(players)):
            following = [] if seat is None else ["--seat", str(seat)]
            assert main(["replay", str(record), "--no-step", *following]) == 0
            replayed = capsys.readouterr().out
            hold_to(replayed, final, seat)
            if seat is not None:
                assert f"You: dealt {card_text(final.cards[seat])}" in replayed
        stepper = seed % (players + 1)
        following = [] if stepper == players else ["--seat", str(stepper)]
        monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 40))
        assert main(["replay", str(record), "--step", *following]) == 0
        stepped = capsys.readouterr().out
        assert stepped.count("hands ") >= 2  # a board at each turn, and at the end
        hold_to(stepped, final, None if stepper == players else stepper)
    assert showdowns
    assert folds
