#!/usr/bin/env bash
# The mutation run over both games' cores (Cheeky Monkey's engine, scoring, rules and state; Too Many Monkeys'
# engine, state, rules, cards and actions), configured in pyproject.toml's [tool.mutmut]. Not a CI step: one
# game's core takes about 40 minutes on 2 idle cores. Run it before a release and keep the score and the
# equivalent survivors on docs/explanation/verification.md.
#
#   bash studies/mutation/mutation.sh                                      # every mutant of both games' cores
#   bash studies/mutation/mutation.sh 'cheekymonkey.toomany*'              # one game's (a glob on mutant names)
#   bash studies/mutation/mutation.sh 'cheekymonkey.cheeky.rules*'         # one module's
#
# It runs at the lowest priority (nice 19), with MUTMUT_CHILDREN workers (default 2), and prints the survivors
# and the score at the end (studies/mutation/mutation_score.py, which takes the same glob).
set -euo pipefail
cd "$(dirname "$0")/../.."
python -m pip install --quiet -e '.[dev]'
export HYPOTHESIS_PROFILE=dev
rm -rf mutants
nice -n 19 python -m mutmut run --max-children "${MUTMUT_CHILDREN:-2}" "$@" || true
python -m mutmut results
python studies/mutation/mutation_score.py "$@"
