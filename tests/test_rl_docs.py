"""What the RL docs say: figures the doctests print, the README's word on the rl extra, the install hook."""

from __future__ import annotations

import doctest
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "howto" / "train.md"


def _printed_and_prose(text: str) -> tuple[set[float], str]:
    """The numbers the page's doctests print, and the page's prose (the text outside code blocks)."""
    printed: set[float] = set()
    for block in re.findall(r"```pycon\n(.*?)```", text, re.S):
        for example in doctest.DocTestParser().get_examples(block):
            printed.update(float(number) for number in re.findall(r"\d+\.\d+", example.want))
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    return printed, prose


def test_the_training_guide_quotes_only_figures_its_doctest_prints() -> None:
    """Every result in the guide's prose (a percentage to a tenth) is a share its seeded doctest prints."""
    printed, prose = _printed_and_prose(GUIDE.read_text(encoding="utf-8"))
    quoted = [float(figure) for figure in re.findall(r"(\d+\.\d)%", prose)]
    assert quoted, "the guide quotes its results"
    missing = [figure for figure in quoted if round(figure / 100, 3) not in printed]
    assert not missing, f"quoted in the prose but printed by no doctest: {missing}"


def test_every_range_the_training_guide_quotes_is_a_range_its_doctest_asserts() -> None:
    """Each "between A and B" of the guide's prose (A% and B% too) is an ``A < ... < B`` check of a doctest."""
    text = GUIDE.read_text(encoding="utf-8")
    sources = " ".join(
        example.source
        for block in re.findall(r"```pycon\n(.*?)```", text, re.S)
        for example in doctest.DocTestParser().get_examples(block)
    )
    checked = {
        (float(low), float(high)) for low, high in re.findall(r"(\d+(?:\.\d+)?) < [^<\n]+ < (\d+(?:\.\d+)?)", sources)
    }
    _, prose = _printed_and_prose(text)
    quoted = re.findall(r"between ([\d,]+)(%?) and ([\d,]+)(%?)", " ".join(prose.split()))
    assert len(quoted) >= 4, quoted
    for low, low_percent, high, high_percent in quoted:
        scale = 100 if low_percent and high_percent else 1
        bounds = (float(low.replace(",", "")) / scale, float(high.replace(",", "")) / scale)
        assert bounds in checked, f"between {low}{low_percent} and {high}{high_percent} is asserted by no doctest"


def test_the_readme_names_the_rl_extra() -> None:
    """The README's list of extras says what the rl extra is for."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if "cheekymonkey.rl" in line)
    assert "`rl`" in line
    assert "Gymnasium" in line


def test_the_gymnasium_environments_are_registered_by_the_package_with_no_start_up_hook() -> None:
    """Registered as Gymnasium documents for a third-party package: by importing it; nothing runs at start-up.

    The project declares no entry-point group for them and installs no ``.pth`` file or top-level module,
    and the package holds none.
    """
    import cheekymonkey.rl

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    groups = set(project["project"]["entry-points"])
    assert groups == {"cheekymonkey.games", "cheekymonkey.batched"}
    assert "force-include" not in project["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert list((ROOT / "cheekymonkey").rglob("*.pth")) == []
    assert cheekymonkey.rl.GYMNASIUM_ENVIRONMENTS == {
        "cheekymonkey/Solo-v0": (
            "cheekymonkey.rl.gymnasium_env:SoloEnv",
            "cheekymonkey.rl.gymnasium_vector:SoloVectorEnv",
        )
    }
    import gymnasium

    spec = gymnasium.spec("cheekymonkey/Solo-v0")
    assert (spec.entry_point, spec.vector_entry_point) == cheekymonkey.rl.GYMNASIUM_ENVIRONMENTS[spec.id]
    assert cheekymonkey.rl._register_with_gymnasium() == ()  # registered once: a second import adds nothing


def _longest(game_name: str, players: int, games: int = 200) -> int:
    """The most steps any of ``games`` seeded games between random bots took, chance outcomes included."""
    from cheekymonkey.games import game_named
    from cheekymonkey.table import Seat, Table

    game = game_named(game_name)
    longest = 0
    for seed in range(games):
        table = Table(game, [Seat.bot(game, "random") for _ in range(players)], seed=seed, events=False)
        table.advance()
        assert table.over
        longest = max(longest, len(table.actions))
    return longest


def test_the_default_step_limit_is_far_above_the_longest_seeded_random_games() -> None:
    """The figures of the shared limit's docs: the longest of 200 seeded random games in each game."""
    from cheekymonkey.rl import episodes

    docs = " ".join((episodes.__doc__ or "").split())
    assert "fewer than 300 steps in *Cheeky Monkey* (2 or 6 seats)" in docs
    assert "fewer than 1,500 in *Too Many Monkeys* (6 seats, the standard rules; 2 seats take fewer than 500)" in docs
    cheeky = max(_longest("cheeky-monkey", 2), _longest("cheeky-monkey", 6))
    too_many, too_many_two = _longest("too-many-monkeys", 6), _longest("too-many-monkeys", 2)
    assert cheeky < 300
    assert too_many < 1500
    assert too_many_two < 500
    assert episodes.DEFAULT_MAX_STEPS >= 5 * 1500
