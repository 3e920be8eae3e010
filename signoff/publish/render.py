"""Render a verdict: the PR comment (Markdown, facts §4.1 format) and the JSON document."""

from __future__ import annotations

import json

from signoff import __version__
from signoff.judge.model import CheckResult, Verdict
from signoff.policy import Policy
from signoff.publish.sanitize import inline, reason_markdown
from signoff.publish.style import PublishStyle, verdict_style

_EMOJI = {"PASS": "✅", "FAIL": "❌", "WARN": "⚠️", "N/A": "➖"}
PASS_HEADER = "## ✅✅✅ **Verdict: PASS** ✅✅✅"
WARN_HEADER = "## ⚠️ **Verdict: WARN** ⚠️"  # InferenceX from #3300 (2026-09-20)
REJECTED_HEADER = "## ❌❌❌ **REJECTED** ❌❌❌"


def marker(policy: Policy, sha: str) -> str:
    """The hidden first line that ties a verdict comment to one pinned head SHA."""
    return f"<!-- {policy.publish.marker} sha={sha} -->"


def render_row(check: CheckResult, signer: str) -> str:
    reason = reason_markdown(check.reason, allowed_mentions=(signer,))
    return f"{_EMOJI[check.status]} Check {check.number} ({check.name}): {check.status} — {reason}"


def blocking_summary(verdict: Verdict) -> str:
    failures = verdict.failures
    names = ", ".join(f"Check {c.number} ({c.name})" for c in failures)
    first = reason_markdown(
        failures[0].reason, allowed_mentions=(verdict.signoff_author,), limit=200
    )
    plural = "s" if len(failures) > 1 else ""
    return f"sign-off not accepted: {len(failures)} check{plural} failed ({names}). First: {first}"


def render_markdown(verdict: Verdict, policy: Policy, style: PublishStyle | None = None) -> str:
    """The verdict comment; depends only on the verdict and the policy (byte-stable), in the
    style of the standard it was judged under (signoff/publish/style.py; `style`: that style,
    when the caller has it)."""
    style = style or verdict_style(verdict, policy)
    signer = verdict.signoff_author
    lines = [marker(policy, verdict.head_sha)]
    if verdict.outcome == "PASS":
        lines.append(PASS_HEADER)
    elif verdict.outcome == "WARN":
        lines.append(WARN_HEADER)
    else:
        lines += [REJECTED_HEADER, f"@{signer} {blocking_summary(verdict)}"]
    lines += _escalations(verdict, policy)
    lines += _rows(verdict, style.collapse_passing)
    if style.footer_commits:
        lines += ["", *_commit_lines(verdict)]
    if verdict.head_moved_to:
        lines += [
            "",
            f"**Note:** the PR head moved to `{verdict.head_moved_to[:12]}` during verification. "
            f"This verdict covers `{verdict.head_sha[:12]}` only; a fresh sign-off is needed for "
            "the new head.",
        ]
    kind = verdict.signoff_kind
    # The default standard (Checks 0-8) goes unnamed, so its verdicts read as they always have;
    # any other standard is named, since its numbers mean other checks.
    standard = "" if verdict.default_standard else f", standard `{verdict.standard_label}`"
    lines += [
        "",
        f"<sub>Verified deterministically by signoff {__version__} (profile `{policy.name}`"
        f"{standard}) against the {kind} {inline(verdict.signoff_url)} at "
        f"`{verdict.head_sha[:12]}`.</sub>",
    ]
    return "\n".join(lines) + "\n"


def _rows(verdict: Verdict, collapse: bool) -> list[str]:
    """One row per check; collapsed (the later prompt): failures and warnings first, then every
    PASS and N/A row inside one closed <details> block (left out when none passed)."""
    signer = verdict.signoff_author
    if not collapse:
        return [line for check in verdict.checks for line in ("", render_row(check, signer))]
    shown = [c for c in verdict.checks if c.status in ("FAIL", "WARN")]
    folded = [c for c in verdict.checks if c.status in ("PASS", "N/A")]
    lines = [line for check in shown for line in ("", render_row(check, signer))]
    if folded:
        lines += ["", "<details>", "<summary>Passed and not applicable checks</summary>"]
        lines += [line for check in folded for line in ("", render_row(check, signer))]
        lines += ["", "</details>"]
    return lines


def _escalations(verdict: Verdict, policy: Policy) -> list[str]:
    """The profile's mentions for a warning that needs someone (#3300: Check 14's admin
    exception), above the findings; the logins are profile data, never PR text."""
    lines = []
    for check in verdict.warnings:
        logins = policy.publish.escalations.get(check.id, ())
        if logins:
            who = " ".join(logins)  # validated `@login`s: real mentions, on purpose
            lines += [
                "",
                f"Check {check.number} ({check.name}) warns; for an admin exception: {who}",
            ]
    return lines


def _commit_lines(verdict: Verdict) -> list[str]:
    """#3164's footer: the commit judged, and the one the sign-off covers (a head that moved
    during verification is not covered)."""
    assessed = f"Assessed commit: `{verdict.head_sha}`"
    covered = f"Covered commit: `{verdict.head_sha}`"
    if verdict.head_moved_to:
        covered += f" (the PR head `{verdict.head_moved_to}` is not covered)"
    return [assessed + "  ", covered]


def verdict_document(verdict: Verdict) -> dict[str, object]:
    return {
        "verdict": verdict.outcome,
        "repository": verdict.repository,
        "pr": verdict.pr,
        "head_sha": verdict.head_sha,
        "head_moved_to": verdict.head_moved_to,
        "standard": verdict.standard.spec if verdict.standard is not None else None,
        "era": verdict.standard.era if verdict.standard is not None else None,
        "signoff": {
            "author": verdict.signoff_author,
            "kind": verdict.signoff_kind,
            "url": verdict.signoff_url,
        },
        "checks": [
            {
                "number": c.number,
                "id": c.id,
                "name": c.name,
                "status": c.status,
                "reason": c.reason,
            }
            for c in verdict.checks
        ],
    }


def render_json(verdict: Verdict) -> str:
    return json.dumps(verdict_document(verdict), indent=2, ensure_ascii=False) + "\n"
