"""What the verifier published for a merged head: its verdict comment, read row by row by name,
and the commit status on that SHA at the merge.

Rows are keyed on the name inside "Check N (<name>)", never on N: the numbering changed between
eras (Check 7 is architecture hacks in E4-E6 and deprecated models from E7). The comment is read
through markdown-it-py, so emphasis and code spans around a row do not change its text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from markdown_it import MarkdownIt
from markdown_it.token import Token

from signoff.audit.model import Published, PublishedStatus, StatusState
from signoff.audit.window import parse_instant
from signoff.errors import InputError
from signoff.github.api import JsonObject
from signoff.policy import Policy
from signoff.standards import Standard, standard_at

_MD = MarkdownIt("commonmark")
Verdict = Literal["PASS", "WARN", "REJECTED"]
# "<emoji> Check 3 (recipe linked, MERGED, complete (single-node only)): PASS — reason": the name
# is everything up to the last "):" before the status, so names may hold parentheses. Some
# verdicts put the rows in a table, "| Check 0 (CODEOWNER) | PASS |": "|" separates there.
_ROW = re.compile(r"^\W*Check\s+(\d+)\s*\((?P<name>.+)\)\s*[:|]\s*(?P<status>PASS|FAIL|WARN|N/A)\b")
_COMMENT_ID = re.compile(r"#issuecomment-(\d+)")
_STATES: dict[str, StatusState] = {s: s for s in ("success", "failure", "error", "pending")}
_ROW_STATUS: dict[str, PublishedStatus] = {
    "PASS": "PASS", "FAIL": "FAIL", "WARN": "WARN", "N/A": "N/A",
}  # fmt: skip


@dataclass(frozen=True)
class ParsedVerdict:
    verdict: Verdict | None  # None when neither the header nor the rows say
    checks: dict[str, PublishedStatus]
    unknown_rows: tuple[str, ...]  # row names the profile's table does not know


def plain_lines(markdown: str) -> list[str]:
    """The text of every paragraph and heading line, Markdown formatting removed."""
    lines: list[str] = []
    for token in _MD.parse(markdown):
        if token.type == "inline":
            lines.extend(_inline_text(token.children or []).split("\n"))
    return [line.strip() for line in lines if line.strip()]


def _inline_text(children: Iterable[Token]) -> str:
    parts = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


def row_key(name: str) -> str:
    return " ".join(name.lower().replace("`", "").split())


def parse_verdict(body: str, policy: Policy, standard: Standard | None = None) -> ParsedVerdict:
    """The published verdict and {check id: status}; unknown row names are listed, not guessed.

    A row's name is looked up in the standard the verdict was published under (its names and
    the aliases seen in that era's verdicts), then in the profile's `audit.verdict_rows`."""
    table = {row_key(name): check for name, check in policy.audit.verdict_rows.items()}
    checks: dict[str, PublishedStatus] = {}
    unknown: list[str] = []
    lines = plain_lines(body)
    for line in lines:
        match = _ROW.match(line)
        if match is None:
            continue
        by_era = standard.check_for_row(match["name"]) if standard is not None else None
        check = by_era or table.get(row_key(match["name"]))
        if check is None:
            unknown.append(match["name"])
        else:
            checks[check] = _ROW_STATUS[match["status"]]
    return ParsedVerdict(_overall(lines, checks, policy), checks, tuple(unknown))


def _overall(
    lines: list[str], checks: dict[str, PublishedStatus], policy: Policy
) -> Verdict | None:
    # Only the first line is the header: a REJECTED body quoting "Verdict: PASS" stays REJECTED.
    first = lines[0] if lines else ""
    if policy.audit.verdict_pass in first:
        return "PASS"
    if policy.audit.verdict_warn in first:
        return "WARN"
    if policy.audit.verdict_rejected in first:
        return "REJECTED"
    if any(status == "FAIL" for status in checks.values()):
        return "REJECTED"
    if any(status == "WARN" for status in checks.values()):
        return "WARN"
    return "PASS" if checks else None


def verdict_comment(
    comments: Iterable[JsonObject], head_sha: str, merged_at: datetime, policy: Policy
) -> JsonObject | None:
    """The last verdict comment for `head_sha` by a verifier identity created by the merge."""
    marker = f"<!-- {policy.publish.marker} sha={head_sha} -->"
    verifiers = {login.lower() for login in policy.audit.verifier_logins}
    found = None
    for item in comments:
        author = str((item.get("user") or {}).get("login") or "").lower()
        body = str(item.get("body") or "")
        if author in verifiers and marker in body and _created_by(item, merged_at):
            found = item  # comments come in creation order: the last one wins
    return found


def status_at_merge(
    statuses: Iterable[JsonObject], merged_at: datetime, policy: Policy
) -> JsonObject | None:
    """The newest `codeowner-signoff-verify` status created at or before the merge."""
    context = policy.publish.status_context
    mine = [s for s in statuses if s.get("context") == context and _created_by(s, merged_at)]
    mine.sort(key=lambda s: (str(s.get("created_at")), int(s.get("id") or 0)))
    return mine[-1] if mine else None


def read_published(
    comments: list[JsonObject],
    statuses: list[JsonObject],
    head_sha: str,
    merged_at: datetime,
    policy: Policy,
) -> tuple[Published, tuple[str, ...]]:
    """The published record for the merged head, and notes (forged statuses, unknown rows)."""
    notes: list[str] = []
    comment = verdict_comment(comments, head_sha, merged_at, policy)
    parsed = None
    if comment is not None:
        era = _standard_then(str(comment.get("created_at") or ""), policy)
        parsed = parse_verdict(str(comment.get("body") or ""), policy, era)
    if parsed is not None and parsed.unknown_rows:
        notes.append(f"published rows not recognised: {', '.join(parsed.unknown_rows)}")
    status = status_at_merge(statuses, merged_at, policy)
    state = str(status.get("state")) if status else None
    if status is not None:
        notes.extend(_status_source(status, comments, policy))
    return (
        Published(
            verdict=parsed.verdict if parsed else None,
            comment_url=str(comment.get("html_url") or "") if comment else None,
            status=_STATES.get(state or ""),
            checks=parsed.checks if parsed else {},
        ),
        tuple(notes),
    )


def _status_source(status: JsonObject, comments: list[JsonObject], policy: Policy) -> list[str]:
    """InferenceX's status publisher trusted any comment carrying the marker (facts §6.22): say
    when the status at merge points at a comment that no verifier identity wrote."""
    match = _COMMENT_ID.search(str(status.get("target_url") or ""))
    if match is None:
        return []
    verifiers = {login.lower() for login in policy.audit.verifier_logins}
    for item in comments:
        if int(item.get("id") or 0) == int(match[1]):
            author = str((item.get("user") or {}).get("login") or "")
            if author.lower() not in verifiers:
                return [
                    f"the status `{status.get('state')}` at merge points at a comment by "
                    f"{author}, who is not a verifier identity"
                ]
    return []


def _standard_then(stamp: str, policy: Policy) -> Standard | None:
    """The standard in force when a verdict was posted (None: before the first era, or no time)."""
    try:
        return standard_at(parse_instant(stamp), policy)
    except (InputError, ValueError):
        return None


def _created_by(item: JsonObject, instant: datetime) -> bool:
    try:
        return parse_instant(str(item.get("created_at") or "")) <= instant
    except ValueError:
        return False
