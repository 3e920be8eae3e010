"""A PR's audit outcome from its checks, and where it contradicts what was published then."""

from __future__ import annotations

from collections.abc import Iterable

from signoff.audit.model import AuditedCheck, AuditOutcome, Published

# For contradiction, N/A and WARN are passes (the verdict is REJECTED iff a check FAILs; a WARN
# merges with a success status); UNVERIFIABLE and checks one side did not judge contradict nothing.
_PASSING = frozenset({"PASS", "N/A", "WARN"})
_MERGEABLE = frozenset({"PASS", "WARN"})


def outcome_of(checks: Iterable[AuditedCheck]) -> AuditOutcome:
    """REJECTED when a check FAILs, else UNVERIFIABLE when one could not be verified, else WARN
    when one warned, else PASS."""
    statuses = {check.status for check in checks}
    if "FAIL" in statuses:
        return "REJECTED"
    if "UNVERIFIABLE" in statuses:
        return "UNVERIFIABLE"
    return "WARN" if "WARN" in statuses else "PASS"


def published_outcome(published: Published) -> str | None:
    """What was published: the verdict comment, else what the commit status said."""
    if published.verdict is not None:
        return published.verdict
    return {"success": "PASS", "failure": "REJECTED"}.get(published.status or "")


def disagreements(checks: Iterable[AuditedCheck], published: Published) -> tuple[str, ...]:
    """Check ids where the published row and the re-judged status contradict (PASS vs FAIL)."""
    found = []
    for check in checks:
        then = published.checks.get(check.id)
        if then is None or check.status == "UNVERIFIABLE":
            continue
        if (then == "FAIL") != (check.status == "FAIL"):
            found.append(check.id)
    return tuple(found)


def agrees(
    outcome: AuditOutcome, published: Published, contradicted: tuple[str, ...]
) -> bool | None:
    """None when nothing was published; False when the published verdict (or status) and the
    audit contradict each other on the outcome or on any check."""
    then = published_outcome(published)
    if then is None:
        return None
    if contradicted:
        return False
    if outcome in ("PASS", "WARN", "UNVERIFIABLE"):
        # PASS and WARN both merged as a success: either published side agrees with either.
        return then in _MERGEABLE or outcome == "UNVERIFIABLE"
    if outcome == "NOT_GATED":
        return True
    return then == "REJECTED"  # REJECTED or NO_SIGNOFF: only a rejection agrees


def disagreement_line(
    outcome: AuditOutcome,
    published: Published,
    contradicted: tuple[str, ...],
    names: dict[str, str],
) -> str:
    """`published PASS; re-judged REJECTED on Check 3 (recipe)` for one PR."""
    then = published_outcome(published) or "nothing"
    source = "" if published.verdict is not None else " (status only)"
    line = f"published {then}{source}; re-judged {outcome}"
    if contradicted:
        line += " on " + ", ".join(names.get(check, check) for check in contradicted)
    return line
