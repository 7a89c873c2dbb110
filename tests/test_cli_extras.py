"""Every command without its optional packages: help, or one line naming the extra to install, never a traceback.

Each case runs the commands in a fresh process in which some optional packages cannot be imported (as after
a bare ``pip install .``, which brings attrs alone). A slow test does the real thing: a new virtual
environment, ``pip install .``, and the command.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

OPTIONAL = ("rich", "cattrs", "z3", "uvicorn", "starlette", "matplotlib", "dask", "distributed", "ray", "numpy")
"""The packages the extras bring that the command line may import."""

COMMANDS: list[list[str]] = [
    ["--help"],
    ["play", "--help"],
    ["watch", "--seed", "1", "--players", "2"],
    ["play", "--seed", "1", "--players", "2"],
    ["replay", "missing.json"],
    ["simulate", "--games", "1", "--bots", "random"],
    ["simulate", "--games", "1", "--bots", "random", "--plot", "plot.png"],
    ["verify", "--ruleset", "missing.json"],
    ["serve", "--host", "no.such.host.invalid", "--port", "1"],
]

_RUNNER = """
import contextlib, io, json, sys
for name in sys.argv[1].split(","):
    if name:
        sys.modules[name] = None  # import name now raises ImportError, as if it were not installed
from cheekymonkey.cli import main
results = []
for args in json.loads(sys.argv[2]):
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.StringIO("")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(args)
        except SystemExit as stop:
            status = stop.code
        except BaseException:
            import traceback
            traceback.print_exc(file=err)
            status = "raised"
    results.append([args, status, out.getvalue(), err.getvalue()])
sys.stdout.write(json.dumps(results))
"""


def _run_without(missing: tuple[str, ...], cwd: Path) -> list[tuple[list[str], object, str, str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", _RUNNER, ",".join(missing), json.dumps(COMMANDS)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return [tuple(entry) for entry in json.loads(result.stdout)]


@pytest.mark.parametrize(
    "missing", [OPTIONAL, *((name,) for name in ("rich", "cattrs", "z3", "uvicorn", "matplotlib"))], ids="+".join
)
def test_without_an_optional_package_every_command_helps_or_names_the_extra(
    missing: tuple[str, ...], tmp_path: Path
) -> None:
    """Help prints; a command that needs a missing package exits 2 with one line naming its extra."""
    named = set()
    for args, status, out, err in _run_without(missing, tmp_path):
        assert "Traceback" not in out + err, (args, err)
        assert status in (0, 1, 2), (args, status, err)
        if args[-1] == "--help":
            assert status == 0
            assert "usage: cheekymonkey" in out
        if "pip install 'cheekymonkey[" in err:
            assert status == 2
            assert len(err.strip().splitlines()) == 1, err
            assert "pip install 'cheekymonkey[" in err
            named.add(err.split("pip install 'cheekymonkey[")[1].split("]")[0])
    expected = {"rich": {"cli"}, "cattrs": {"cli"}, "z3": {"verify"}, "matplotlib": {"plot"}, "uvicorn": {"web"}}
    assert expected.get(missing[0], set()) <= named if len(missing) == 1 else {"cli", "verify", "web"} <= named


def test_serialization_without_cattrs_names_the_json_extra() -> None:
    """Importing cheekymonkey.serialization without cattrs raises an ImportError that names the json extra."""
    code = "import sys; sys.modules['cattrs'] = None\nimport cheekymonkey.serialization"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    assert "ImportError: cheekymonkey.serialization needs cattrs, from the json extra" in result.stderr
    assert "pip install 'cheekymonkey[json]'" in result.stderr


@pytest.mark.slow
def test_a_bare_pip_install_gives_help_and_one_line_hints(tmp_path: Path) -> None:
    """In a new virtual environment with only 'pip install .', --help works and a command names the cli extra."""
    where = tmp_path / "venv"
    venv.create(where, with_pip=True)
    python = where / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert install.returncode == 0, install.stderr
    command = str(where / "bin" / "cheekymonkey")
    help_run = subprocess.run(
        [command, "--help"], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False
    )
    assert help_run.returncode == 0, help_run.stderr
    assert "usage: cheekymonkey" in help_run.stdout
    watch = subprocess.run(
        [command, "watch"], stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert watch.returncode == 2
    assert watch.stderr.count("\n") == 1
    assert "pip install 'cheekymonkey[cli]'" in watch.stderr
    serialization = subprocess.run(
        [str(python), "-c", "import cheekymonkey.serialization"], capture_output=True, text=True, cwd=tmp_path
    )
    assert "the json extra" in serialization.stderr
