"""The judge: evidence + policy in, verdict out; no network, clock, environment or randomness."""

from __future__ import annotations

import logging
from types import ModuleType

from signoff.evidence import Evidence
from signoff.judge.context import JudgeContext
from signoff.judge.model import CheckResult, Finding, Outcome, Verdict, failed
from signoff.judge.registry import CHECKS
from signoff.policy import Policy

__all__ = ["judge", "run_check"]

# A crashed check's traceback goes here at DEBUG (`signoff ... --debug` shows it); the verdict
# itself names the check, the exception and its message, and never depends on this log.
_log = logging.getLogger("signoff.judge")
CRASH_MESSAGE_LIMIT = 200


def run_check(module: ModuleType, ctx: JudgeContext) -> CheckResult:
    """Run one check; a crash inside it is a FAIL naming the check, never a PASS."""
    try:
        finding = module.evaluate(ctx)
        if not isinstance(finding, Finding):
            raise TypeError("check returned no Finding")
    except Exception as exc:  # fail closed on any bug or unexpected evidence shape
        _log.debug("check %s (%s) crashed", module.NUMBER, module.NAME, exc_info=True)
        finding = failed(
            f"internal error in check {module.NUMBER} ({module.NAME}): "
            f"{_crash(exc)}; the evidence could not be judged"
        )
    return CheckResult(
        number=module.NUMBER,
        id=module.ID,
        name=module.NAME,
        status=finding.status,
        reason=finding.reason,
    )


def _crash(exc: Exception) -> str:
    """``KeyError: `'x'` ``: the exception and its message on one line, cut to a readable length.

    The message may quote evidence a PR author wrote, so it goes in a code span.
    """
    message = " ".join(str(exc).split()).replace("`", "'")
    if len(message) > CRASH_MESSAGE_LIMIT:
        message = message[: CRASH_MESSAGE_LIMIT - 1] + "…"
    return f"{type(exc).__name__}: `{message}`" if message else type(exc).__name__


def judge(evidence: Evidence, policy: Policy) -> Verdict:
    """Judge every registered check; the verdict is PASS iff no check FAILs (N/A passes)."""
    ctx = JudgeContext(evidence, policy)
    results = tuple(run_check(module, ctx) for module in CHECKS)
    outcome: Outcome = "REJECTED" if any(r.status == "FAIL" for r in results) else "PASS"
    return Verdict(
        outcome=outcome,
        repository=evidence.repository.full_name,
        pr=evidence.pull_request.number,
        head_sha=evidence.pull_request.head_sha,
        head_moved_to=evidence.head_moved_to,
        signoff_author=evidence.signoff.author,
        signoff_kind=evidence.signoff.kind,
        signoff_url=evidence.signoff.url,
        checks=results,
    )
