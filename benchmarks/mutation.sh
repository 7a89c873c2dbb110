#!/usr/bin/env bash
# The mutation run over the four core modules (engine, scoring, rules, state), configured in pyproject.toml's
# [tool.mutmut]. Not a CI step: a full run takes about 40 minutes on 2 idle cores. Run it before a release
# and keep the score and the equivalent survivors on docs/explanation/verification.md.
#
#   bash benchmarks/mutation.sh                      # every mutant of the four modules
#   bash benchmarks/mutation.sh 'cheekymonkey.cheeky.rules*'  # one module's mutants (a glob on mutant names)
#
# It runs niced, with MUTMUT_CHILDREN workers (default 2), and prints the survivors and the score at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet -e '.[dev]'
export HYPOTHESIS_PROFILE=dev
rm -rf mutants
nice python -m mutmut run --max-children "${MUTMUT_CHILDREN:-2}" "$@" || true
python -m mutmut results
python benchmarks/mutation_score.py
