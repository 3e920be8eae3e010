"""The audit report: one record per merged PR and the summary over them (JSON schema_version 2).

Version 2 (WARN): a check may be `WARN`, a PR `WARN` (no FAIL, a warning-only check warned),
a published verdict or row `WARN`, and the summary counts `WARN`. Version 1 reports are still
read (they hold none of these)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

REPORT_SCHEMA_VERSION = 2
READABLE_SCHEMA_VERSIONS = (1, 2)

AuditStatus = Literal["PASS", "FAIL", "WARN", "N/A", "UNVERIFIABLE"]
PublishedStatus = Literal["PASS", "FAIL", "WARN", "N/A"]
AuditOutcome = Literal["PASS", "WARN", "REJECTED", "UNVERIFIABLE", "NO_SIGNOFF", "NOT_GATED"]
OUTCOMES: tuple[AuditOutcome, ...] = (
    "PASS", "WARN", "REJECTED", "UNVERIFIABLE", "NO_SIGNOFF", "NOT_GATED",
)  # fmt: skip
StatusState = Literal["success", "failure", "error", "pending"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AuditedCheck(Frozen):
    """One re-judged check; UNVERIFIABLE when the evidence it needed no longer exists."""

    number: int
    id: str
    name: str
    status: AuditStatus
    reason: str


class SignoffUsed(Frozen):
    """The sign-off that let the PR merge: the last one before the merge by a possible owner."""

    author: str
    kind: str
    url: str
    at: str


class Published(Frozen):
    """What the verifier published for the merged head: its verdict comment and commit status."""

    verdict: Literal["PASS", "WARN", "REJECTED"] | None = None
    comment_url: str | None = None
    status: StatusState | None = None
    checks: dict[str, PublishedStatus] = {}


class AuditedPull(Frozen):
    pr: int
    url: str
    title: str
    merged_at: str
    head_sha: str
    gated: bool
    outcome: AuditOutcome
    era: str | None = None
    signoff: SignoffUsed | None = None
    checks: tuple[AuditedCheck, ...] = ()
    published: Published = Published()
    agrees_with_published: bool | None = None  # None: nothing was published to agree with
    disagreements: tuple[str, ...] = ()  # check ids where published and re-judged contradict
    notes: tuple[str, ...] = ()  # late edits, forged statuses, files read from another commit
    requests: int = 0  # API requests this PR cost against the rate limit


class Summary(Frozen):
    merged: int = 0
    gated: int = 0
    PASS: int = 0
    WARN: int = 0
    REJECTED: int = 0
    UNVERIFIABLE: int = 0
    NO_SIGNOFF: int = 0
    NOT_GATED: int = 0
    disagreements: int = 0


class Stopped(Frozen):
    """Why and where a run stopped early; the PRs listed were not audited."""

    reason: str
    not_audited: tuple[int, ...]


class AuditReport(Frozen):
    schema_version: int = REPORT_SCHEMA_VERSION

    @field_validator("schema_version")
    @classmethod
    def _readable(cls, value: int) -> int:
        if value not in READABLE_SCHEMA_VERSIONS:
            raise ValueError(f"unsupported report schema_version {value}")
        return value

    repository: str
    base: str
    since: str | None
    until: str | None
    standard: str
    generated_by: str
    prs: tuple[AuditedPull, ...]
    summary: Summary
    requests: int
    stopped: Stopped | None = None  # None: every selected PR was audited
    shard: str | None = None  # "I/N" for one shard's report; None for a whole (or merged) run


def summarize(prs: tuple[AuditedPull, ...]) -> Summary:
    """Counts per outcome, gated PRs and PRs whose published verdict the audit contradicts."""
    counts = {outcome: sum(1 for p in prs if p.outcome == outcome) for outcome in OUTCOMES}
    return Summary(
        merged=len(prs),
        gated=sum(1 for p in prs if p.gated),
        disagreements=sum(1 for p in prs if p.agrees_with_published is False),
        **counts,
    )
