"""CI installs pinned versions: every requirement the project names has a pin in .ci/constraints.txt that fits it."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / ".ci" / "constraints.txt"


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, separator, version = line.partition("==")
        assert separator, f"{line!r} in .ci/constraints.txt is not an exact pin (name==version)"
        pins[canonicalize_name(name)] = version.strip()
    return pins


def _requirements() -> list[Requirement]:
    """What CI installs: the build backends, the runtime dependency, the dev extra and every extra it names."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        project = tomllib.load(file)
    extras = project["project"]["optional-dependencies"]
    texts = list(project["build-system"]["requires"]) + project["project"]["dependencies"]
    texts += project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]["dependencies"]
    wanted, seen = ["dev"], set()
    while wanted:
        extra = wanted.pop()
        seen.add(extra)
        for text in extras[extra]:
            requirement = Requirement(text)
            if canonicalize_name(requirement.name) == "cheekymonkey":
                wanted += [name for name in requirement.extras if name not in seen]
            else:
                texts.append(text)
    return [Requirement(text) for text in texts]


def test_every_requirement_of_the_project_is_pinned_to_a_version_inside_its_range() -> None:
    """Each package pyproject.toml names for CI (build, runtime, the dev extra, mypyc) has a pin that fits."""
    pins = _pins()
    requirements = _requirements()
    assert len(requirements) > 30
    for requirement in requirements:
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is required but .ci/constraints.txt does not pin it"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{requirement.name}: the pin {pins[name]} is outside the range {requirement.specifier}"
        )


def test_ci_and_the_readme_install_with_the_pins() -> None:
    """.ci/run exports the constraints for every pip call, and the README's test command passes them to pip."""
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'export PIP_CONSTRAINT="$PWD/.ci/constraints.txt"' in run
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install -c .ci/constraints.txt -e '.[dev]'" in readme
