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
