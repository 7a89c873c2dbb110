"""Print the mutation score of the last mutmut run, and every survivor, from mutmut's result files.

Reads ``mutants/**/*.meta`` (JSON that mutmut 3 writes: each mutant's exit code) and names each result as
mutmut does. The score counts as killed every mutant a test caught (killed, timeout, type check). Globs on the
mutants' names, as ``mutmut run`` takes them, count only those mutants::

    python studies/mutation/mutation_score.py 'cheekymonkey.toomany*'
"""

from __future__ import annotations

import fnmatch
import json
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

_CAUGHT = ("killed", "timeout", "caught by type check")


def main(globs: list[str]) -> None:
    counts: Counter[str] = Counter()
    survivors: list[str] = []
    for meta in sorted(Path("mutants").rglob("*.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        for name, code in data.get("exit_code_by_key", {}).items():
            if globs and not any(fnmatch.fnmatch(name, glob) for glob in globs):
                continue
            status = status_by_exit_code[code]
            counts[status] += 1
            if status == "survived":
                survivors.append(name)
    checked = sum(n for status, n in counts.items() if status != "not checked")
    caught = sum(counts[status] for status in _CAUGHT)
    print(", ".join(f"{status}: {n}" for status, n in sorted(counts.items())))
    if checked:
        print(f"score: {caught} of {checked} checked mutants caught = {100 * caught / checked:.1f}%")
    for name in survivors:
        print(f"survived: {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
