"""Evidence that existed once and is gone now: in an audit its check is UNVERIFIABLE, not FAIL.

Live `verify` keeps failing closed on the same evidence. Only a positive sign that the thing
existed and has since vanished counts: an artifact GitHub lists as expired or answers 410 Gone
for, or a workflow run that the PR's own check runs point at and that now answers 404. A link
that never resolved (an upstream PR that 404s) stays a FAIL: nothing shows it ever existed.
"""

from __future__ import annotations

from collections.abc import Iterable

from signoff.audit.model import AuditedCheck, AuditStatus
from signoff.evidence import EvalResults, Evidence
from signoff.judge.model import CheckResult

EVALS_CHECK = "evals"


def vanished(results: EvalResults) -> str:
    """Why the eval evidence of a run is gone ("" when it is not, or never was, there)."""
    if results.available:
        return ""
    reason = results.reason
    lowered = reason.lower()
    if " expired" in lowered or "(410)" in lowered or ": 410" in lowered:
        return reason
    # gather reads the artifacts of the run a green check run of the PR names: that run existed.
    if lowered.startswith(f"artifacts of run {results.run_id}: 404"):
        return f"workflow run {results.run_id} no longer exists ({reason})"
    return ""


def vanished_evidence(evidence: Evidence) -> dict[str, str]:
    """Check id -> why the evidence it needed no longer exists."""
    found: dict[str, str] = {}
    for results in evidence.evals:
        why = vanished(results)
        if why:
            found[EVALS_CHECK] = (
                f"evidence no longer exists: eval results of run {results.run_id}: {why}"
            )
    return found


def audited_checks(results: Iterable[CheckResult], evidence: Evidence) -> tuple[AuditedCheck, ...]:
    """The judge's results, with a FAIL caused by vanished evidence turned into UNVERIFIABLE."""
    gone = vanished_evidence(evidence)
    checks = []
    for result in results:
        status: AuditStatus
        if result.status == "FAIL" and result.id in gone:
            status, reason = "UNVERIFIABLE", gone[result.id]
        else:
            status, reason = result.status, result.reason
        checks.append(
            AuditedCheck(
                number=result.number, id=result.id, name=result.name, status=status, reason=reason
            )
        )
    return tuple(checks)
