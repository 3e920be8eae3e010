"""The audit report as Markdown for a GitHub job summary: counts, the PRs that merged without a
valid sign-off, disagreements with the published verdicts, each check that could not be
verified with its reason, then one row per PR.

Everything a PR author or commenter controls (titles, logins, reasons quoting PR text) is put in
code spans, so it never renders as Markdown, HTML, a mention or an image.
"""

from __future__ import annotations

from signoff.audit.model import AuditedPull, AuditReport
from signoff.audit.outcome import disagreement_line
from signoff.publish.sanitize import strip_invisible, truncate_words

_OUTCOME_EMOJI = {
    "PASS": "✅",
    "WARN": "⚠️",
    "REJECTED": "❌",
    "UNVERIFIABLE": "❔",
    "NO_SIGNOFF": "🚫",
    "NOT_GATED": "➖",
}


def code(text: str, limit: int = 200) -> str:
    """Untrusted text as one inert code span that is safe inside a table cell."""
    flat = truncate_words(" ".join(strip_invisible(text).split()), limit).replace("|", "\\|")
    if not flat:
        return ""
    fence = "`" * (_longest_backtick_run(flat) + 1)
    return f"{fence} {flat} {fence}"


def _longest_backtick_run(text: str) -> int:
    longest = current = 0
    for char in text:
        current = current + 1 if char == "`" else 0
        longest = max(longest, current)
    return longest


def link(pr: AuditedPull) -> str:
    return f"[#{pr.pr}]({pr.url})" if pr.url.startswith("https://") else f"#{pr.pr}"


def _check_names(pr: AuditedPull) -> dict[str, str]:
    return {c.id: f"Check {c.number} ({c.name})" for c in pr.checks}


def render_markdown(report: AuditReport) -> str:
    lines = _header(report) + _summary(report) + _unsigned(report) + _disagreements(report)
    lines += _unverifiable(report) + _all_prs(report)
    return "\n".join(lines).rstrip("\n") + "\n"


def _header(report: AuditReport) -> list[str]:
    window = f"{report.since or 'the beginning'} to {report.until or 'now'}"
    lines = [
        f"# signoff audit: {report.repository} ({report.base})",
        "",
        f"Merged {window}; standard `{report.standard}`; {report.generated_by}; "
        f"{report.cost.requests} API requests.",
        "",
    ]
    if report.stopped is not None:
        missing = ", ".join(f"#{n}" for n in report.stopped.not_audited) or "none"
        lines += [
            f"> **Partial report:** {code(report.stopped.reason, 300)}. Not audited: {missing}.",
            "",
        ]
    return lines


def _summary(report: AuditReport) -> list[str]:
    s = report.summary
    return [
        "## Summary",
        "",
        "| Merged | Gated | ✅ PASS | ⚠️ WARN | ❌ REJECTED | ❔ UNVERIFIABLE | 🚫 NO_SIGNOFF "
        "| ➖ NOT_GATED | Disagreements |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {s.merged} | {s.gated} | {s.PASS} | {s.WARN} | {s.REJECTED} | {s.UNVERIFIABLE} | "
        f"{s.NO_SIGNOFF} | {s.NOT_GATED} | {s.disagreements} |",
        "",
    ]


def _first_problem(pr: AuditedPull) -> str:
    if pr.outcome == "NO_SIGNOFF":
        return "no sign-off by a possible CODEOWNER before the merge"
    failed = [c for c in pr.checks if c.status == "FAIL"]
    if not failed:
        return ""
    first = failed[0]
    more = f" (+{len(failed) - 1} more)" if len(failed) > 1 else ""
    return f"Check {first.number} ({first.name}){more}: {code(first.reason)}"


def _unsigned(report: AuditReport) -> list[str]:
    rows = [p for p in report.prs if p.outcome in ("REJECTED", "NO_SIGNOFF")]
    lines = ["## Merged without a valid sign-off", ""]
    if not rows:
        return [*lines, "None.", ""]
    lines += ["| PR | Merged | Outcome | First problem |", "|---|---|---|---|"]
    for pr in rows:
        emoji = _OUTCOME_EMOJI[pr.outcome]
        lines.append(
            f"| {link(pr)} | {pr.merged_at[:10]} | {emoji} {pr.outcome} | {_first_problem(pr)} |"
        )
    return [*lines, ""]


def _disagreements(report: AuditReport) -> list[str]:
    rows = [p for p in report.prs if p.agrees_with_published is False]
    lines = ["## Disagreements with the published verdict", ""]
    if not rows:
        return [*lines, "None.", ""]
    lines += ["| PR | Published then vs re-judged now | Notes |", "|---|---|---|"]
    for pr in rows:
        what = disagreement_line(pr.outcome, pr.published, pr.disagreements, _check_names(pr))
        notes = "; ".join(code(note) for note in pr.notes)
        lines.append(f"| {link(pr)} | {what} | {notes} |")
    return [*lines, ""]


def _unverifiable(report: AuditReport) -> list[str]:
    """Each check that could not be verified (its evidence is gone), with its reason."""
    rows = [(pr, c) for pr in report.prs for c in pr.checks if c.status == "UNVERIFIABLE"]
    if not rows:
        return []
    lines = ["## Could not be verified", "", "| PR | Check | Why |", "|---|---|---|"]
    for pr, check in rows:
        lines.append(
            f"| {link(pr)} | Check {check.number} ({check.name}) | {code(check.reason, 500)} |"
        )
    return [*lines, ""]


def _all_prs(report: AuditReport) -> list[str]:
    lines = [
        "## All merged PRs",
        "",
        "| PR | Title | Merged | Outcome | Era | Sign-off | Published | Notes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for pr in report.prs:
        signoff = ""
        if pr.signoff is not None:
            kind = pr.signoff.kind
            where = f"[{kind}]({pr.signoff.url})" if pr.signoff.url.startswith("https://") else kind
            signoff = f"{code(pr.signoff.author, 40)} {where}"
        published: str = pr.published.verdict or "—"
        if pr.published.status:
            published += f" / status `{pr.published.status}`"
        notes = "; ".join(code(note) for note in pr.notes)
        lines.append(
            f"| {link(pr)} | {code(pr.title, 80)} | {pr.merged_at[:10]} | "
            f"{_OUTCOME_EMOJI[pr.outcome]} {pr.outcome} | {pr.era or '—'} | {signoff} | "
            f"{published} | {notes} |"
        )
    return [*lines, ""]
