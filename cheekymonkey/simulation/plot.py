"""A simulation's summary drawn: win rates with their intervals, and each bot's score distribution."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from cheekymonkey.simulation._arguments import whole
from cheekymonkey.simulation.summary import Summary

__all__ = ["plot_summary"]


def plot_summary(summary: Summary, path: str | Path, *, bin_width: int = 5) -> None:
    """Draw the win rates with their intervals and each bot's scores (or, in a game without points, places).

    Needs the ``plot`` extra (matplotlib): ``pip install 'cheekymonkey[plot]'``. Drawn off screen (Agg);
    the file's suffix picks the format (``.png``, ``.svg``, ``.pdf``).

    Args:
        summary: What to draw.
        path: Where to write the image.
        bin_width: Scores are grouped in bins this wide.

    Raises:
        ImportError: If matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError("plot_summary needs matplotlib: install it with pip install 'cheekymonkey[plot]'") from error
    bin_width = whole("bin_width", bin_width, 1)
    figure, (rates, scores) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    names = [line.name for line in summary.bots]
    rows = list(range(len(names)))[::-1]  # the first bot on top
    centres = [line.win_rate for line in summary.bots]
    below = [line.win_rate - line.low for line in summary.bots]
    above = [line.high - line.win_rate for line in summary.bots]
    rates.barh(rows, centres, color="#9ecae1", height=0.6)
    rates.errorbar(centres, rows, xerr=[below, above], fmt="o", color="#08306b", capsize=5)
    for row, line in zip(rows, summary.bots, strict=True):
        rates.annotate(f"{line.win_rate:.1%}", (line.high, row), xytext=(6, 0), textcoords="offset points", va="center")
    rates.set_yticks(rows, names)
    rates.set_xlim(0, 1.1)
    rates.set_xlabel("win rate, with its 95% Wilson interval")
    rates.set_title("Win rates")
    if summary.scored:
        for line in summary.bots:
            binned: Counter[int] = Counter()
            for value, count in line.scores.pairs:
                binned[value // bin_width * bin_width] += count
            edges = sorted(binned)
            if not edges:
                continue
            left = list(range(edges[0], edges[-1] + bin_width, bin_width))
            heights = [binned[x] / summary.games for x in left]
            scores.stairs(heights, [*left, left[-1] + bin_width], label=f"{line.name} (mean {line.mean_score:.1f})")
        scores.set_xlabel(f"final score (bins of {bin_width})")
        scores.set_title("Score distribution")
    else:
        # A game without points: where each bot finished, side by side for each place.
        width = 0.8 / max(1, len(summary.bots))
        for index, line in enumerate(summary.bots):
            places = [place + (index + 0.5) * width - 0.4 for place in line.places.values]
            heights = [count / summary.games for count in line.places.counts]
            scores.bar(places, heights, width, label=f"{line.name} (mean {line.mean_place:.2f})")
        scores.set_xticks(range(1, summary.players + 1))
        scores.set_xlabel("place (1: won)")
        scores.set_title("Places")
    scores.set_ylabel("share of games")
    if summary.bots:
        scores.legend()
    state = "partial: " if summary.partial else ""
    figure.suptitle(
        f"{state}{summary.games} games, {summary.ruleset} rules, {summary.players} players, seeds {summary.seed} and up"
    )
    figure.savefig(path, dpi=110)
    plt.close(figure)
