#!/usr/bin/env bash
# The optional compiled build, end to end: build the mypyc wheel from a scratch copy of the project,
# install it into a scratch virtual environment, check that the engine really is compiled, then
#   benchmarks/compiled.sh [bench] [playout.py options]   measure it with benchmarks/playout.py
#   benchmarks/compiled.sh test [pytest options]          run the test suite against it
#   benchmarks/compiled.sh latency [bot_latency.py options] time the bots' decisions on it
#   benchmarks/compiled.sh engines [engines.py options]   one engine call of both games, side by side
#   benchmarks/compiled.sh ladder [tmm_ladder.py options] the Too Many Monkeys bot ladder, about 3 times faster
#   benchmarks/compiled.sh study [tmm_choice_study.py options] the study of one kind of choice, faster
# The working tree is never touched: an in-place build leaves .so files beside the sources, and
# Python would then import them instead of the .py files.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
mode=bench
if [ "${1:-}" = bench ] || [ "${1:-}" = test ] || [ "${1:-}" = latency ] || [ "${1:-}" = engines ] ||
    [ "${1:-}" = ladder ] || [ "${1:-}" = study ]; then
    mode="$1"
    shift
fi
python="${PYTHON:-python}"
# Nothing may put the source tree ahead of the installed wheel.
unset PYTHONPATH
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A copy of the project without its history, caches and built docs.
copy() {
    mkdir "$2"
    (cd "$repo" && tar -c --exclude=./.git --exclude=__pycache__ --exclude=./docs/_build --exclude='*.so' "${@:3}" .) |
        tar -x -C "$2"
}
copy "$repo" "$work/src"
echo "== building the compiled wheel (mypyc)"
HATCH_BUILD_HOOK_ENABLE_MYPYC=1 "$python" -m pip wheel --quiet --no-deps --wheel-dir "$work/dist" "$work/src"
ls "$work/dist"
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-deps --force-reinstall "$work/dist"/*.whl
# The scratch environment sees what the running Python has installed (the test and benchmark dependencies):
# --system-site-packages covers a system Python (CI); a virtual environment's own packages are added by a
# path file written after the wheel is installed, read after the scratch environment's own folder, so the
# compiled wheel comes first. A path file only adds the folder: an editable install of the sources there
# (its own .pth hook) stays inactive.
"$python" -c 'import site, sys; print("\n".join(site.getsitepackages()) if sys.prefix != sys.base_prefix else "")' \
    >"$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/zz_outer_site.pth"

# Run from the scratch folder, so that the installed wheel is what `import cheekymonkey` finds.
cd "$work"
# Every module pyproject.toml lists for mypyc (the one list of them) must be an extension module here.
"$work/venv/bin/python" - "$repo/pyproject.toml" <<'EOF'
import importlib
import sys
import tomllib

with open(sys.argv[1], "rb") as file:
    listed = tomllib.load(file)["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]["include"]
for path in listed:
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    print(f"{module.__name__}: {module.__file__}")
    if str(module.__file__).endswith(".py"):
        sys.exit(f"{module.__name__} was not compiled")
import cheekymonkey._compiled

if not cheekymonkey._compiled.COMPILED:
    sys.exit("cheekymonkey._compiled.COMPILED is False in the compiled build")
EOF

case "$mode" in
bench)
    "$work/venv/bin/python" "$repo/benchmarks/playout.py" "$@"
    ;;
latency)
    "$work/venv/bin/python" "$repo/benchmarks/bot_latency.py" "$@"
    ;;
engines)
    "$work/venv/bin/python" "$repo/benchmarks/engines.py" "$@"
    ;;
ladder)
    "$work/venv/bin/python" "$repo/studies/tmm_ladder.py" "$@"
    ;;
study)
    "$work/venv/bin/python" "$repo/studies/tmm_choice_study.py" "$@"
    ;;
test)
    # The project without its package sources (those would shadow the installed wheel) and its history.
    copy "$repo" "$work/t" --exclude=./cheekymonkey
    cd "$work/t"
    "$work/venv/bin/python" -m pytest tests -q -p no:cacheprovider "$@"
    ;;
esac
