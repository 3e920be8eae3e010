"""The judge: evidence + policy + standard in, verdict out; no network, clock, environment or
randomness."""

from __future__ import annotations

import logging
from types import ModuleType

from signoff.collector import paused
from signoff.errors import PolicyError
from signoff.evidence import Evidence
from signoff.judge.context import JudgeContext
from signoff.judge.model import CheckResult, Finding, Outcome, Verdict, failed, outcome_of
from signoff.judge.registry import CHECKS
from signoff.policy import Policy
from signoff.standards import CheckSlot, Standard, resolve_standard

__all__ = ["check_modules", "judge", "judging_standard", "run_check"]

# A crashed check's traceback goes here at DEBUG (`signoff ... --debug` shows it); the verdict
# itself names the check, the exception and its message, and never depends on this log.
_log = logging.getLogger("signoff.judge")
CRASH_MESSAGE_LIMIT = 200


def run_check(module: ModuleType, ctx: JudgeContext, slot: CheckSlot) -> CheckResult:
    """Run one check; a crash inside it is a FAIL naming the check, never a PASS."""
    try:
        finding = module.evaluate(ctx)
        if not isinstance(finding, Finding):
            raise TypeError("check returned no Finding")
    except Exception as exc:  # fail closed on any bug or unexpected evidence shape
        _log.debug("check %s (%s) crashed", slot.number, slot.name, exc_info=True)
        finding = failed(
            f"internal error in check {slot.number} ({slot.name}): "
            f"{_crash(exc)}; the evidence could not be judged"
        )
    # A warning-only check (Checks 4, 14, 15 from E10) never FAILs: what would have failed it,
    # a crash included, is a WARN; it still never PASSes what it could not see.
    status = "WARN" if slot.warn_only and finding.status == "FAIL" else finding.status
    return CheckResult(
        number=slot.number, id=slot.id, name=slot.name, status=status, reason=finding.reason,
    )  # fmt: skip


def _crash(exc: Exception) -> str:
    """``KeyError: `'x'` ``: the exception and its message on one line, cut to a readable length.

    The message may quote evidence a PR author wrote, so it goes in a code span.
    """
    message = " ".join(str(exc).split()).replace("`", "'")
    if len(message) > CRASH_MESSAGE_LIMIT:
        message = message[: CRASH_MESSAGE_LIMIT - 1] + "…"
    return f"{type(exc).__name__}: `{message}`" if message else type(exc).__name__


def check_modules(standard: Standard) -> tuple[tuple[CheckSlot, ModuleType], ...]:
    """The standard's checks with their modules, in order; an id no module implements is a
    profile error (never silently skipped)."""
    unknown = [slot.id for slot in standard.checks if slot.id not in CHECKS]
    if unknown:
        raise PolicyError(f"standard {standard.label} names unknown check(s): {', '.join(unknown)}")
    return tuple((slot, CHECKS[slot.id]) for slot in standard.checks)


def judging_standard(evidence: Evidence, policy: Policy, spec: str | None = None) -> Standard:
    """`spec` when given, else the standard the bundle records, else the profile's default."""
    if spec is None and evidence.standard is not None:
        spec = evidence.standard.spec
    return resolve_standard(spec, policy)


def judge(evidence: Evidence, policy: Policy, standard: Standard | None = None) -> Verdict:
    """Judge the standard's checks: REJECTED when one FAILs, else WARN when one warns, else PASS
    (N/A passes)."""
    chosen = standard if standard is not None else judging_standard(evidence, policy)
    ctx = JudgeContext(evidence, policy, chosen)
    with paused():  # what the checks build is acyclic (signoff/collector)
        try:
            checks = check_modules(chosen)
            results = tuple(run_check(module, ctx, slot) for slot, module in checks)
        finally:
            ctx.release()
    outcome: Outcome = outcome_of(r.status for r in results)
    return Verdict(
        outcome=outcome,
        repository=evidence.repository.full_name,
        pr=evidence.pull_request.number,
        head_sha=evidence.pull_request.head_sha,
        head_moved_to=evidence.head_moved_to,
        signoff_author=evidence.signoff.author,
        signoff_kind=evidence.signoff.kind,
        signoff_url=evidence.signoff.url,
        standard=chosen.record(),
        standard_label=chosen.label,
        default_standard=chosen.spec == policy.standards.default,
        checks=results,
    )
