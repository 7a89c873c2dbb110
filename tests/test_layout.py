"""The repository's script folders hold one kind of thing each, and every path written to one of them exists.

``benchmarks/`` measures speed; the pipelines that produce the shipped weights are in ``training/``; the
studies and the mutation run are in ``studies/``. A script moved between them leaves its old path in docs,
docstrings, tests and CI scripts unless every reference moves too: the second half of this file reads every
text file of the project for a path under one of the three folders and checks that it is there.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What benchmarks/ may hold: the speed measurements, the script that runs them on the compiled build, and
# their README.
SPEED = {
    "README.md",
    "batched.py",
    "batched_practice.py",
    "bot_latency.py",
    "compiled.sh",
    "engines.py",
    "peer.py",
    "playout.py",
    "rl_step.py",
    "simulation.py",
    "tmm_batched_first_call.py",
    "web_load.py",
}
# The words by which a script's docstring says that what it prints is a speed: a rate, a time or a latency.
_SPEED_WORDS = re.compile(r"per second|a second|CPU time|latency|\btimes?\b", re.IGNORECASE)

# A path under one of the three folders, as docs, docstrings and scripts write it: not the tail of a longer
# path (``examples/pig/training/...``) nor of a name, but ``$repo/benchmarks/...`` (a shell script's) and
# ``../training/...`` (a README's link to a sibling) are read from the root.
_REFERENCE = re.compile(r"(?<![\w.\-/])(?:\$repo/|\.\./)?((?:benchmarks|training|studies)/[\w./-]*)")
_TEXT = {".py", ".md", ".sh", ".toml", ".txt", ".rst", ".cfg", ".ini", ".yml", ".yaml", ".json", ".html", ".js"}
# The changelog tells of earlier releases in their own paths.
_HISTORY = {ROOT / "CHANGELOG.md"}


def _files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file() and "__pycache__" not in path.parts)


def _project_text_files() -> list[Path]:
    """Every text file of the project: hidden folders left out (git's, caches), but for CI's scripts."""
    found: list[Path] = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(part.startswith(".") and part != ".ci" for part in parts):
            continue
        if {"mutants", "node_modules", "__pycache__", "_build"} & set(parts) or not path.is_file():
            continue
        if (path.suffix in _TEXT or parts[:2] == (".ci", "run")) and path not in _HISTORY:
            found.append(path)
    return found


def _references(text: str) -> set[str]:
    return {match.group(1).rstrip(".") for match in _REFERENCE.finditer(text)}


def test_benchmarks_holds_only_the_listed_speed_measurements() -> None:
    """Each file in benchmarks/ is one of the listed speed measurements, and every listed one is there."""
    held = {path.relative_to(ROOT / "benchmarks").as_posix() for path in _files(ROOT / "benchmarks")}
    assert held == SPEED


def test_every_benchmark_script_says_it_measures_a_speed() -> None:
    """Each Python script in benchmarks/ opens with a docstring that names a rate, a time or a latency."""
    scripts = [path for path in _files(ROOT / "benchmarks") if path.suffix == ".py"]
    assert len(scripts) == len([name for name in SPEED if name.endswith(".py")])
    for script in scripts:
        docstring = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8")))
        assert docstring is not None, script.name
        assert _SPEED_WORDS.search(docstring), script.name


def test_the_training_pipelines_and_the_studies_have_their_own_folders() -> None:
    """The weights' pipelines (and the policy file one wrote) are in training/, the mutation run in studies/."""
    assert {path.name for path in _files(ROOT / "training")} == {
        "README.md",
        "tmm_policy.npz",
        "train_batched.py",
        "train_learned.py",
        "train_tmm_batched.py",
    }
    assert {path.relative_to(ROOT / "studies").as_posix() for path in _files(ROOT / "studies")} == {
        "README.md",
        "batched_choice.py",
        "paired.py",
        "search_tuning.py",
        "tmm_choice_study.py",
        "tmm_ladder.py",
        "tmm_playouts_pairs.py",
        "mutation/mutation.sh",
        "mutation/mutation_score.py",
    }


def test_the_reference_finder_reads_paths_as_the_project_writes_them() -> None:
    """The finder takes a plain, a shell-variable and a sibling-link path, and leaves a longer path's tail."""
    text = (
        '`python benchmarks/playout.py`, "$repo/studies/tmm_ladder.py" and [x](../training/README.md). '
        "Not examples/pig/training/x.py, my_benchmarks/y.py nor training data."
    )
    assert _references(text) == {"benchmarks/playout.py", "studies/tmm_ladder.py", "training/README.md"}


def test_no_file_refers_to_a_path_under_the_script_folders_that_does_not_exist() -> None:
    """Docs, docstrings, tests, CI and configuration name only paths under the three folders that are there."""
    files = _project_text_files()
    assert ROOT / ".ci" / "security_trial.py" in files
    assert ROOT / "docs" / "explanation" / "bots.md" in files
    missing: list[str] = []
    checked = 0
    for path in files:
        for reference in _references(path.read_text(encoding="utf-8", errors="replace")):
            checked += 1
            if not (ROOT / reference).exists():
                missing.append(f"{path.relative_to(ROOT)}: {reference}")
    assert checked > 50  # the docs and scripts name these folders' files often: a finder that finds none is broken
    assert missing == []
