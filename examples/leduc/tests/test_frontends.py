"""Leduc poker through the real ``cheekymonkey`` command: play at a terminal, watch, replay, simulate and league.

Each check of play, watch and replay reads the screen as the person in front of it would, and holds it to what
that seat may know: its own card, the public card, the hands a showdown turns up (never a folded one), and the
seed only once the hand is over. The true cards come from the record the command saved (the machine's, which
holds every card), so a card on the screen is known to be whose it is.

The seeds are chosen for the hands they deal (each test says what it needs, and checks the hand went that way):
at 2 seats with the person's answers scripted, and at 3 seats between the heuristic bots.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import termios
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cheekymonkey.table import Seat, Table

from cheekymonkey_leduc import CALL, LEDUC, LeducState
from cheekymonkey_leduc.rules import card_text

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def command() -> str:
    """The ``cheekymonkey`` command installed beside this Python, else the one on PATH."""
    beside = Path(sys.executable).with_name("cheekymonkey")
    found = str(beside) if beside.is_file() else shutil.which("cheekymonkey")
    assert found, "the cheekymonkey command is not installed: pip install -e . -e examples/leduc"
    return found


def _environment(columns: int) -> dict[str, str]:
    kept = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR")}
    return {**kept, "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": "50", "PYTHONUNBUFFERED": "1"}


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``cheekymonkey ARGS`` with its output in a pipe and nothing to read."""
    return subprocess.run(
        [command(), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_environment(160),
        timeout=300,
        check=False,
    )


def at_terminal(args: list[str], answers: list[str], cwd: Path) -> tuple[int, str]:
    """``cheekymonkey ARGS`` at a pseudo-terminal (typing not echoed): its status and everything it showed.

    Each answer is typed when the command waits at a prompt (its output ends in ``": "``), one at a time, as a
    person types; "Press Enter ..." is answered with Enter; a prompt after the last answer gets the end of input.
    What was typed is put in the text returned where it was typed, as a terminal that echoes shows it.
    """
    leader, follower = pty.openpty()
    modes = termios.tcgetattr(follower)
    modes[3] &= ~termios.ECHO
    termios.tcsetattr(follower, termios.TCSANOW, modes)
    process = subprocess.Popen(
        [command(), *args], stdin=follower, stdout=follower, stderr=follower, cwd=cwd, env=_environment(100)
    )
    os.close(follower)
    waiting = list(answers)
    shown = b""
    deadline = time.monotonic() + 300  # a wide margin: the hand takes a second or two
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1)
        if not ready:
            if process.poll() is not None:
                break
            continue
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes as the command ends (EIO on Linux)
            break
        if not chunk:
            break
        shown += chunk
        tail = _ANSI.sub("", shown[-400:].decode("utf-8", "replace")).replace("\r", "")
        typed = None
        if re.search(r"Press Enter [^\n]*\. $", tail):
            typed = b"\n"
        elif tail.endswith(": "):
            typed = (waiting.pop(0) + "\n").encode() if waiting else b"\x04"
        if typed is not None:
            os.write(leader, typed)
            shown += typed.replace(b"\x04", b"\n")  # as the screen shows it, where typing is echoed
    os.close(leader)
    status = process.wait(timeout=30)
    return status, _ANSI.sub("", shown.decode("utf-8", "replace")).replace("\r\n", "\n")


def cards_in(text: str, players: int) -> set[str]:
    """Every card of a ``players``-seat deck that ``text`` names (``Kh``, ``Js``...)."""
    ranks = "JQKA"[: players + 1]
    return set(re.findall(rf"(?<![A-Za-z0-9])[{ranks}][sh](?![A-Za-z0-9])", text))


def squeezed(text: str) -> list[str]:
    """The lines of ``text`` with every run of spaces made one (a board's columns are padded)."""
    return [" ".join(line.split()) for line in text.splitlines()]


def record_of(path: Path) -> Any:
    return LEDUC.documents().loads(path.read_text(encoding="utf-8"), "record")


def final_state(path: Path) -> LeducState:
    state: LeducState = record_of(path).final_state()
    return state


def before_and_after(text: str, marker: str) -> tuple[str, str]:
    """``text`` cut at the first line that begins with ``marker`` (which must be there)."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith(marker))
    return "".join(lines[:at]), "".join(lines[at:])


# -- play: a person against the heuristic bot, at a pseudo-terminal -------------------------------------------


def test_a_person_checks_and_calls_to_a_showdown_and_never_sees_the_bots_card_or_the_seed_before_it(
    tmp_path: Path,
) -> None:
    """Seed 4012: the person (Jh) only checks and calls, the bot (Kh) raises in both rounds; a showdown, 7 chips lost.

    Before the showdown the screen names no card but the person's own and the public one, and no seed; at the
    showdown both hands, the chips paid, and the seed with the way to deal the hand again.
    """
    record = tmp_path / "hand.json"
    args = ["play", "--game", "leduc", "--seed", "4012", "--delay", "0", "--record", str(record)]
    status, text = at_terminal(args, ["call"] * 8, tmp_path)
    assert status == 0, text[-2000:]
    final = final_state(record)
    assert LEDUC.is_terminal(final)
    assert not any(final.folded)
    mine, theirs, public = (card_text(card) for card in (final.cards[0], final.cards[1], final.public))
    assert (mine, theirs, public) == ("Jh", "Kh", "Qh")
    assert text.startswith("Leduc poker, standard rules: you against Heuristic 1.")
    before, after = before_and_after(text, "Showdown:")
    assert f"You: dealt {mine}" in before
    assert "Heuristic 1: dealt a card face down" in before
    assert "Heuristic 1 raises, 4 in" in before  # the bot bet the second round: the person decided facing it
    assert f"hands Player {mine}, Heuristic 1 ?" in squeezed(before)  # the board holds a place for the card
    assert cards_in(before, 2) == {mine, public}
    assert "seed" not in before.lower()
    assert "4012" not in before
    assert squeezed(after)[:2] == [f"Showdown: You {mine}, Heuristic 1 {theirs}", "Paid: You -7, Heuristic 1 +7"]
    assert f"hands Player {mine}, Heuristic 1 {theirs}" in squeezed(after)
    assert "Winner: Heuristic 1." in after
    assert "Seed 4012: --seed 4012 deals this game again." in after
    assert f"Record saved to {record}" in after
    # Every decision of seat 0 in the record is a call, as typed.
    game = record_of(record)
    mine_played = [a for s, a in zip(game.states(), game.actions, strict=False) if LEDUC.to_move(s) == 0]
    assert mine_played == [CALL] * 4


def test_the_bot_folds_to_a_raise_and_its_card_is_never_shown_not_even_at_the_end(tmp_path: Path) -> None:
    """Seed 4003: the person (Kh) raises, the bot (Jh) folds: the hand ends with no showdown, the bot's card unseen."""
    record = tmp_path / "hand.json"
    args = ["play", "--game", "leduc", "--seed", "4003", "--delay", "0", "--record", str(record)]
    status, text = at_terminal(args, ["raise", "call", "call"], tmp_path)
    assert status == 0, text[-2000:]
    final = final_state(record)
    assert final.folded == (False, True)
    mine, theirs = card_text(final.cards[0]), card_text(final.cards[1])
    assert (mine, theirs) == ("Kh", "Jh")
    lines = squeezed(text)
    told = [line for line in lines[: lines.index("Result")] if line.startswith(("You ", "Heuristic 1 ", "Paid:"))]
    assert told == ["You raise, 2 in", "Heuristic 1 folds", "Paid: You +1, Heuristic 1 -1"]
    assert "Showdown:" not in text
    assert cards_in(text, 2) == {mine}  # the public card was never turned up, and the folded hand never is
    assert f"hands Player {mine}, Heuristic 1 ?" in lines[lines.index("Paid: You +1, Heuristic 1 -1") :]  # at the end
    before, after = before_and_after(text, "Winner:")
    assert "seed" not in before.lower()
    assert "4003" not in before
    assert "Seed 4003: --seed 4003 deals this game again." in after


# -- watch and replay: a spectator, and one seat followed ------------------------------------------------------

# Seed 5005, three heuristic bots: Heuristic 1 (Jh) folds in the second round, after the public Ks; Heuristic 0
# (Qh) and Heuristic 2 (Js) show down, and Qh takes the pot.
_CARDS = ("Qh", "Jh", "Js")
_PUBLIC = "Ks"


@pytest.fixture(scope="module")
def watched(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The record ``watch`` saved of seed 5005 at 3 seats, and what watch showed."""
    folder = tmp_path_factory.mktemp("watched")
    record = folder / "watched.json"
    shown = run(["watch", "--game", "leduc", "--players", "3", "--seed", "5005", "--record", str(record)], folder)
    assert shown.returncode == 0, shown.stderr
    final = final_state(record)
    assert tuple(card_text(card) for card in final.cards) == _CARDS
    assert card_text(final.public) == _PUBLIC
    assert final.folded == (False, True, False)
    assert LEDUC.returns(final) == (14.0, -5.0, -9.0)
    return record, shown.stdout


def _spectator_holds(text: str) -> None:
    """What a spectator of seed 5005 may see: before the showdown only the public card; never the folded Jh."""
    before, after = before_and_after(text, "Showdown:")
    assert "Heuristic 0: dealt a card face down" in before
    assert "Heuristic 1 folds" in before
    assert cards_in(before, 3) == {"Ks"}
    assert squeezed(after)[:2] == [
        "Showdown: Heuristic 0 Qh, Heuristic 2 Js",
        "Paid: Heuristic 0 +14, Heuristic 1 -5, Heuristic 2 -9",
    ]
    assert "hands Heuristic 0 Qh, Heuristic 1 ?, Heuristic 2 Js" in squeezed(after)
    assert cards_in(after, 3) == {"Qh", "Js", "Ks"}
    assert "Jh" not in text


def test_watch_shows_a_spectator_no_card_before_the_showdown_and_never_the_folded_one(
    watched: tuple[Path, str],
) -> None:
    _, text = watched
    assert text.startswith(
        "Leduc poker, standard rules, 3 players: Heuristic 0 (heuristic), Heuristic 1 (heuristic), "
        "Heuristic 2 (heuristic)."
    )
    _spectator_holds(text)
    before, after = before_and_after(text, "Winner:")
    assert "5005" not in before
    assert "seed" not in before.lower()
    assert "Seed 5005: --seed 5005 deals this game again." in after


def test_replay_tells_the_spectator_the_same_hand_with_nothing_more(watched: tuple[Path, str]) -> None:
    """Every line watch narrated comes again in the replay, in order; the replay holds to the spectator's view."""
    record, text = watched
    replayed = run(["replay", str(record), "--no-step"], record.parent)
    assert replayed.returncode == 0, replayed.stderr
    _spectator_holds(replayed.stdout)
    told = [line for line in text.split("\nRecord saved to ")[0].splitlines()[1:] if line.strip()]
    narration = [line for line in told if not line.startswith(("Seed ", "Winner:"))]
    lines = iter(replayed.stdout.splitlines())
    for line in narration:
        assert any(line == other for other in lines), line


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_replay_following_a_seat_shows_its_own_card_and_another_only_at_the_showdown(
    watched: tuple[Path, str], seat: int
) -> None:
    record, _ = watched
    followed = run(["replay", str(record), "--no-step", "--seat", str(seat)], record.parent)
    assert followed.returncode == 0, followed.stderr
    text = followed.stdout
    own = _CARDS[seat]
    assert f"Following Heuristic {seat} (seat {seat}): what that seat was shown, and no more." in text
    before, after = before_and_after(text, "Showdown:")
    assert f"You: dealt {own}" in before
    assert [line for line in squeezed(before) if "dealt" in line] == [
        "You: dealt " + own if other == seat else f"Heuristic {other}: dealt a card face down" for other in range(3)
    ]
    assert cards_in(before, 3) == {own, "Ks"}
    assert cards_in(after, 3) == {own, "Qh", "Js", "Ks"}
    if seat != 1:
        assert "Jh" not in text  # the folded hand is its own seat's alone


def test_replay_of_a_hand_ended_by_a_fold_shows_each_seat_its_own_card_only(tmp_path: Path) -> None:
    """The record of seed 4003 (the bot folds): the spectator sees no card, seat 0 its Kh, seat 1 its Jh."""
    record = tmp_path / "hand.json"
    args = ["play", "--game", "leduc", "--seed", "4003", "--delay", "0", "--record", str(record)]
    status, text = at_terminal(args, ["raise"], tmp_path)
    assert status == 0, text[-2000:]
    shown = {
        viewer: run(
            ["replay", str(record), "--no-step", *([] if viewer is None else ["--seat", str(viewer)])], tmp_path
        )
        for viewer in (None, 0, 1)
    }
    assert all(done.returncode == 0 for done in shown.values()), [done.stderr for done in shown.values()]
    assert cards_in(shown[None].stdout, 2) == set()
    assert cards_in(shown[0].stdout, 2) == {"Kh"}
    assert cards_in(shown[1].stdout, 2) == {"Jh"}
    assert "You: dealt Jh" in shown[1].stdout
    assert "Player: dealt a card face down" in shown[1].stdout


# -- simulate and league: Leduc's bots, and the chips each won ----------------------------------------------------


def test_simulate_reports_each_bots_chips_as_the_hands_paid_them(tmp_path: Path) -> None:
    """400 seeded hands of heuristic against random, here and on two processes alike.

    The mean return in the summary is each bot's chips a hand, as Leduc pays them (zero-sum): the test plays
    the same 400 hands again at tables of its own (hand i: seed 1 + i, the bots one seat on each hand) and
    adds up what each bot was paid.
    """
    args = ["simulate", "--game", "leduc", "--bots", "heuristic,random", "--games", "400", "--seed", "1"]
    here = run([*args, "--json", "here.json"], tmp_path)
    pooled = run([*args, "--workers", "2", "--json", "pool.json"], tmp_path)
    assert here.returncode == 0, here.stderr
    assert pooled.returncode == 0, pooled.stderr
    assert here.stdout.startswith("400 games of heuristic, random (Leduc poker, standard rules), seeds 1 and up.")
    summary = json.loads((tmp_path / "here.json").read_text())
    assert json.loads((tmp_path / "pool.json").read_text())["bots"] == summary["bots"]
    assert summary["games"] == 400
    assert summary["truncated"] == 0
    bots = {bot["name"]: bot for bot in summary["bots"]}
    assert sum(bot["wins"] for bot in bots.values()) == 400  # a split pot is half a win each
    paid = {"heuristic": Fraction(0), "random": Fraction(0)}
    names = ["heuristic", "random"]
    for hand in range(400):
        order = [names[(seat + hand) % 2] for seat in range(2)]
        table = Table(LEDUC, [Seat.bot(LEDUC, kind, kind) for kind in order], ruleset=LEDUC.ruleset(), seed=1 + hand)
        table.advance()
        for seat, returned in enumerate(LEDUC.returns(table.state)):
            paid[order[seat]] += Fraction(returned)
    for name in names:
        assert bots[name]["mean_return"] == pytest.approx(float(paid[name] / 400), abs=1e-12)
    assert bots["heuristic"]["mean_return"] == -bots["random"]["mean_return"]  # zero-sum chips
    assert bots["heuristic"]["mean_return"] > 0.5  # the heuristic wins chips from the random bot


def test_league_ranks_leducs_bots_head_to_head_and_at_three_seats(tmp_path: Path) -> None:
    two = run(["league", "--game", "leduc", "--games", "60", "--seed", "2", "--json", "two.json"], tmp_path)
    assert two.returncode == 0, two.stderr
    assert two.stdout.startswith("Leduc poker league (standard rules): random, heuristic; 60 games for the pair")
    league = json.loads((tmp_path / "two.json").read_text())
    assert league["game"] == "leduc"
    [pairing] = league["pairings"]
    assert pairing["first_wins"] + pairing["second_wins"] == pairing["games"] == 60
    standings = {row["name"]: row for row in league["standings"]}
    assert set(standings) == {"random", "heuristic"}
    assert standings[pairing["first"]]["wins"] == pairing["first_wins"]
    assert all(row["low"] <= row["rating"] <= row["high"] for row in standings.values())
    three = run(["league", "--game", "leduc", "--seats", "3", "--games", "30", "--json", "three.json"], tmp_path)
    assert three.returncode == 0, three.stderr
    tables = json.loads((tmp_path / "three.json").read_text())
    assert {row["name"] for row in tables["standings"]} == {"random", "heuristic"}


# -- the seats every front end starts from -----------------------------------------------------------------------


def test_play_and_watch_seat_two_by_default_leducs_usual_number(tmp_path: Path) -> None:
    assert LEDUC.default_seats() == 2
    watched = run(["watch", "--game", "leduc", "--seed", "1", "--record", "w.json"], tmp_path)
    assert watched.returncode == 0, watched.stderr
    assert watched.stdout.startswith("Leduc poker, standard rules, 2 players: Heuristic 0 (heuristic), Heuristic 1")
    assert record_of(tmp_path / "w.json").players == 2
    status, text = at_terminal(["play", "--game", "leduc", "--seed", "1", "--record", "p.json"], ["call"] * 8, tmp_path)
    assert status == 0, text[-2000:]
    assert text.startswith("Leduc poker, standard rules: you against Heuristic 1.")
    assert record_of(tmp_path / "p.json").players == 2
