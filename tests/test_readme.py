"""The README's set-up commands are the ones CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _shell_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL)]


def test_readme_has_exactly_two_setup_commands_and_ci_runs_the_test_one() -> None:
    """The README gives two one-line shell commands; .ci/run runs the second (the tests) verbatim."""
    blocks = _shell_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(blocks) == 2, blocks
    assert all("\n" not in block for block in blocks)
    main_job, tests = blocks
    assert main_job.endswith("&& cheekymonkey")
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert tests in ci_lines


def test_readme_documents_a_quick_run_that_leaves_out_the_model_checks_and_z3_proofs() -> None:
    """The README's quick run is '-m "not slow"', and the model checks and z3 proofs carry that mark."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert '`python -m pytest -n auto -m "not slow"`' in readme
    from tests import test_model_check, test_verify

    for test in (
        test_model_check.test_every_reachable_state_keeps_every_invariant_and_can_reach_the_end,
        test_verify.test_standard_rules_prove_every_scoring_property,
        test_verify.test_z3_enumerates_the_golden_patterns_and_the_model_agrees_with_python,
    ):
        assert "slow" in [mark.name for mark in getattr(test, "pytestmark", [])], test.__name__


def test_the_readme_runs_the_tests_in_parallel_and_says_how_long_they_take() -> None:
    """The test command uses every core (pytest-xdist), and the README says how long it ran on 2 cores."""
    blocks = _shell_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert blocks[1].endswith("python -m pytest -n auto")
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert re.search(r"took \d+ minutes on (a|this) 2-core machine", readme), (
        "the README must say how long the run takes"
    )
