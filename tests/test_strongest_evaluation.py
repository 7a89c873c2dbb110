"""The declared evaluation of ``strongest``, as each bot page publishes it: declaration, figures and verdicts.

Each page declares its steps (command, game count, first seed, claim) in one table and publishes what they
gave in another. The fast tests check that the two tables agree, and that every rate, interval and verdict
follows from the win counts. The slow ones re-run the two Cheeky Monkey steps short enough to repeat (3 and
6 seats) and check the page's win counts game for game.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from cheekymonkey.cheeky.bots import registry as cheeky_bots
from cheekymonkey.simulation import simulate
from cheekymonkey.simulation.stats import wilson_interval
from cheekymonkey.toomany.bots import registry as too_many_bots

ROOT = Path(__file__).resolve().parent.parent
PAGES = {
    "cheeky-monkey": ROOT / "docs" / "explanation" / "bots.md",
    "too-many-monkeys": ROOT / "docs" / "explanation" / "bots-too-many-monkeys.md",
}
DECLARED = "### The evaluation of `strongest`, declared before it was run"
FIGURES = "### The figures of the evaluation"
STEPS = {"cheeky-monkey": 4, "too-many-monkeys": 3}


def _rows(text: str, heading: str) -> list[list[str]]:
    """The cells of the first table after ``heading``, header and rule left out."""
    lines = text[text.index(heading) + len(heading) :].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    block = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        block.append([cell.strip() for cell in line.strip("|").split("|")])
    return block[2:]


def _number(cell: str) -> int:
    return int(cell.split()[0].replace(",", ""))


def _claim(cell: str) -> Fraction:
    """``above 55%`` or ``above 1/3``, as a fraction."""
    figure = cell.removeprefix("above ")
    if figure.endswith("%"):
        return Fraction(figure[:-1]) / 100
    return Fraction(figure)


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


@pytest.mark.parametrize("name", PAGES)
def test_the_published_figures_are_the_declared_steps(name: str) -> None:
    """Every declared step has a row of figures, in order, with its game count, first seed and claim."""
    text = PAGES[name].read_text(encoding="utf-8")
    assert text.index(DECLARED) < text.index(FIGURES)
    declared = _rows(text, DECLARED)
    figures = _rows(text, FIGURES)
    assert len(declared) == len(figures) == STEPS[name]
    for (_, command, games, first, claim), row in zip(declared, figures, strict=True):
        seed = _number(first)
        assert f"--games {_number(games)} --seed {seed} " in command, command
        assert row[1].replace(",", "") == str(_number(games))
        assert row[0].endswith(f"from seed {first}")
        assert row[5] == claim


@pytest.mark.parametrize("name", PAGES)
def test_each_rate_interval_and_verdict_follows_from_the_win_count(name: str) -> None:
    """Rate = wins / games; the 95% Wilson interval of it; *shown* exactly when its low end is above the claim."""
    text = PAGES[name].read_text(encoding="utf-8")
    shown = 0
    for row in _rows(text, FIGURES):
        games, wins = int(row[1].replace(",", "")), int(row[2])
        assert 0 <= wins <= games
        assert row[3] == _percent(wins / games)
        low, high = wilson_interval(wins, games)
        assert row[4] == f"{_percent(low)} - {_percent(high)}"
        held = Fraction(low) > _claim(row[5])
        assert row[7] == ("**shown**" if held else "**not shown**"), row
        assert re.fullmatch(r"\d+\.\d s", row[6]), row[6]
        shown += held
    # The prose says how many held; check it says the same as the table.
    said = {0: "No claim holds.", 1: "One claim of four holds."}[shown]
    assert said in text[text.index(FIGURES) :]


# The two steps cheap enough to repeat: (bots, games, first seed, strongest's wins as published).
REPEATED = [
    (("strongest", "learned", "learned"), 300, 420_000, 126),
    (("strongest", "learned", "learned", "learned", "learned", "learned"), 120, 430_000, 25),
]


@pytest.mark.slow
@pytest.mark.parametrize(("bots", "games", "seed", "wins"), REPEATED, ids=["3 seats", "6 seats"])
def test_the_repeatable_cheeky_monkey_steps_give_the_published_win_counts(
    bots: tuple[str, ...], games: int, seed: int, wins: int
) -> None:
    """The 3- and 6-seat steps re-run on their seeds: ``strongest`` wins as many games as the page says."""
    summary = simulate(list(bots), games, seed=seed, workers=1)
    assert summary.games == games
    assert summary.bots[0].name == "strongest"
    assert summary.bots[0].wins == wins
    row = next(
        row for row in _rows(PAGES["cheeky-monkey"].read_text(encoding="utf-8"), FIGURES) if f"{seed:,}" in row[0]
    )
    assert int(row[2]) == wins
    assert int(row[1]) == games


CANDIDATE = "**What it measured: not registered.**"
REGISTERED = "**What it measured: registered.**"
# Each candidate's measurements: (page, heading, which of the page's headings of that wording, from 1) -> how
# many rows its table has. The first four rows decide (the time at 2, 3 and 6 seats, then the declared
# strength claim); rows after them are published edges that decide nothing.
MEASURED = {
    ("cheeky-monkey", CANDIDATE, 1): 4,
    ("too-many-monkeys", CANDIDATE, 1): 4,
    ("too-many-monkeys", CANDIDATE, 2): 6,
    ("cheeky-monkey", REGISTERED, 1): 4,
}
DECIDING_ROWS = 4


def _nth_rows(text: str, heading: str, nth: int) -> list[list[str]]:
    """The cells of the first table after the ``nth`` ``heading`` of ``text`` (from 1)."""
    at = -1
    for _ in range(nth):
        at = text.index(heading, at + 1)
    return _rows(text[at:], heading)


def test_every_candidate_measurement_on_the_pages_is_checked() -> None:
    """Each page has exactly as many candidate verdicts as the table above checks, so none goes unchecked."""
    for name, page in PAGES.items():
        text = page.read_text(encoding="utf-8")
        for heading in (CANDIDATE, REGISTERED):
            listed = [nth for (page_name, wording, nth) in MEASURED if page_name == name and wording == heading]
            assert text.count(heading) == len(listed), (name, heading)


@pytest.mark.parametrize(("name", "heading", "nth"), sorted(MEASURED))
def test_each_candidate_verdict_follows_from_its_figure_and_budget(name: str, heading: str, nth: int) -> None:
    """Time rows: held under 50 ms; the gain: above two standard errors; a win rate: its interval above its claim."""
    rows = _nth_rows(PAGES[name].read_text(encoding="utf-8"), heading, nth)
    verdicts = []
    for measure, _, figure, budget, held in rows:
        if budget == "below 50 ms":
            ok = float(figure.removesuffix(" ms")) < 50
        elif measure.startswith("gain"):
            found = re.fullmatch(r"\+(\d+\.\d) ± (\d+\.\d) points", figure)
            assert found is not None, figure
            gain, error = float(found[1]), float(found[2])
            assert budget == f"above 2 standard errors ({2 * error:.1f})"
            ok = gain > 2 * error
        else:
            found = re.fullmatch(r"([\d,]+) wins, (\d+\.\d%), 95% interval (.+)", figure)
            assert found is not None, figure
            games = _number(re.search(r"([\d,]+) games", measure)[1])  # type: ignore[index]
            wins = _number(found[1])
            low, high = wilson_interval(wins, games)
            assert found[2] == _percent(wins / games)
            assert found[3] == f"{_percent(low)} - {_percent(high)}"
            claim = budget.removeprefix("interval above ")
            assert claim in ("1/2", "1/3", "1/6"), budget
            ok = Fraction(low) > Fraction(claim)
        assert held == ("yes" if ok else "**no**"), (measure, figure)
        verdicts.append(ok)
    assert len(rows) == MEASURED[(name, heading, nth)]
    # The heading says what the declared rule gives: registered only when every deciding measure held.
    assert all(verdicts[:DECIDING_ROWS]) == (heading == REGISTERED)


def test_the_candidate_that_held_is_registered_and_the_one_that_did_not_is_not() -> None:
    """``mcts400`` builds the 400-playout search; no name builds either *Too Many Monkeys* candidate."""
    built = [repr(cheeky_bots.bot_named(name)) for name in cheeky_bots.BOTS if name != "learned"]
    assert built.count("QuickMCTSBot(iterations=400, exploration=0.3, endgame=16)") == 1
    assert repr(cheeky_bots.bot_named("mcts400")) == "QuickMCTSBot(iterations=400, exploration=0.3, endgame=16)"
    for name in too_many_bots.BOTS:
        assert repr(too_many_bots.bot_named(name)) not in (
            "ExpectimaxBot(depth=3)",
            "ExpectimaxBot(depth=2, playouts=150)",
        )
    assert repr(cheeky_bots.bot_named("mcts")).startswith("MCTSBot(iterations=1000,")
    assert repr(too_many_bots.bot_named("strongest")) == repr(too_many_bots.bot_named(too_many_bots.STRONGEST))


TOO_MANY_CANDIDATE = "### A candidate stronger bot: the search that plays out its aimed choices"


def test_the_aimed_playouts_candidates_counts_in_prose_give_their_percentages() -> None:
    """Every "N of M ... (P%)" in the section of the aimed-playouts candidate: P is N / M to one decimal."""
    text = PAGES["too-many-monkeys"].read_text(encoding="utf-8")
    section = text[text.index(TOO_MANY_CANDIDATE) :]
    found = re.findall(r"([\d,]+) (?:wins )?of ([\d,]+)[^(.;]*?\((\d+\.\d%)\)", section)
    assert len(found) == 4, found  # the search's three steps on the same seeds, the candidate on exploration seeds
    for wins, games, percent in found:
        assert _percent(_number(wins) / _number(games)) == percent, (wins, games, percent)


PAIRS_DECLARED = "**Its edge in paired games: declared before it was measured.**"
PAIRS_MEASURED = "**What the pairs measured: no edge.**"


def test_the_aimed_playouts_pairs_are_the_declared_steps_and_their_rates_and_gains_follow_from_the_counts() -> None:
    """Each paired step as declared (seats, pairs, seeds); each rate is its wins over the pairs; the gain their gap.

    The heading says "no edge": every gain lies within two standard errors of zero.
    """
    text = PAGES["too-many-monkeys"].read_text(encoding="utf-8")
    declared = _rows(text, PAIRS_DECLARED)
    measured = _rows(text, PAIRS_MEASURED)
    assert len(declared) == len(measured) == 2
    for (step, command, pairs, first), (where, games, mine, theirs, gain, changed, _) in zip(
        declared, measured, strict=True
    ):
        flags = dict(re.findall(r"--(seats|games|seed) (\d+)", command))
        seats, count, seed = int(flags["seats"]), int(flags["games"]), int(flags["seed"])
        assert step == f"{seats} seats"
        assert where.startswith(f"{seats} seats, ")
        assert _number(pairs) == _number(games) == count
        assert _number(first) == seed
        assert where.endswith(f"seeds {seed:,} to {seed + count - 1:,}")
        wins = []
        for cell in (mine, theirs):
            found = re.fullmatch(r"([\d,]+) wins, (\d+\.\d%)", cell)
            assert found is not None, cell
            wins.append(_number(found[1]))
            assert found[2] == _percent(wins[-1] / count)
        found = re.fullmatch(r"([+-]\d+\.\d) ± (\d+\.\d) points", gain)
        assert found is not None, gain
        assert float(found[1]) == round(100 * (wins[0] - wins[1]) / count, 1)
        assert abs(float(found[1])) < 2 * float(found[2])
        # A game whose result changed for the candidate's seat moves the gap by one win at most.
        assert abs(wins[0] - wins[1]) <= float(changed.removesuffix("%")) / 100 * count
