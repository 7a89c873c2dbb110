"""Proofs about the scoring rules with the z3 SMT solver (the ``verify`` extra: ``pip install cheekymonkey[verify]``).

:func:`verify_ruleset` checks a rule set's scoring (R16-R19) over every count table of a seat count,
and returns a :class:`VerificationReport` with each property proved or refuted by a concrete table.
The core library never imports this package, so it works without z3.
"""

from cheekymonkey.cheeky.verify.model import ScoringModel, Witness, check_agreement, enumerate_witnesses, verify_ruleset
from cheekymonkey.cheeky.verify.report import CountTable, PropertyResult, Status, VerificationReport, format_table

__all__ = [
    "CountTable",
    "PropertyResult",
    "ScoringModel",
    "Status",
    "VerificationReport",
    "Witness",
    "check_agreement",
    "enumerate_witnesses",
    "format_table",
    "verify_ruleset",
]
