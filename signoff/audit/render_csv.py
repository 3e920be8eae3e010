"""The audit report as CSV: one row per PR and check (a PR without checks has one row)."""

from __future__ import annotations

import csv
import io

from signoff.audit.model import AuditedCheck, AuditedPull, AuditReport

COLUMNS = (
    "pr",
    "url",
    "title",
    "merged_at",
    "head_sha",
    "gated",
    "outcome",
    "era",
    "signoff_author",
    "signoff_kind",
    "signoff_url",
    "signoff_at",
    "check_number",
    "check_id",
    "check_name",
    "status",
    "reason",
    "published_check",
    "published_verdict",
    "published_status",
    "agrees_with_published",
    "disagrees_on_check",
)
# A cell a spreadsheet would run as a formula (PR titles and reasons are attacker-controlled).
_FORMULA_LEAD = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_LEAD) else text


def _row(pr: AuditedPull, check: AuditedCheck | None) -> list[str]:
    signoff = pr.signoff
    values: list[object] = [
        pr.pr,
        pr.url,
        pr.title,
        pr.merged_at,
        pr.head_sha,
        pr.gated,
        pr.outcome,
        pr.era,
        signoff.author if signoff else None,
        signoff.kind if signoff else None,
        signoff.url if signoff else None,
        signoff.at if signoff else None,
        check.number if check else None,
        check.id if check else None,
        check.name if check else None,
        check.status if check else None,
        check.reason if check else None,
        pr.published.checks.get(check.id) if check else None,
        pr.published.verdict,
        pr.published.status,
        pr.agrees_with_published,
        (check.id in pr.disagreements) if check else None,
    ]
    return [cell(value) for value in values]


def render_csv(report: AuditReport) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for pr in report.prs:
        for check in pr.checks or (None,):
            writer.writerow(_row(pr, check))
    return out.getvalue()
