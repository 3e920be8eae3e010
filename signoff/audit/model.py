"""The audit report: one record per merged PR and the summary over them (JSON schema_version 3).

Version 2 (WARN): a check may be `WARN`, a PR `WARN` (no FAIL, a warning-only check warned),
a published verdict or row `WARN`, and the summary counts `WARN`. Version 3 (cost): what the run
cost GitHub sits in `cost` alone, so two reports of the same audit (a first run and a cached
re-run, a whole run and merged shards) compare equal without it; versions 1 and 2 kept a
`requests` count in each row and at the top, which are read into `cost`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

REPORT_SCHEMA_VERSION = 3
READABLE_SCHEMA_VERSIONS = (1, 2, 3)
COST = "cost"  # the one section that may differ between two runs of one audit

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


class PullCost(Frozen):
    pr: int
    requests: int  # this PR's own reads (its lists, revalidated) against the rate limit


class Cost(Frozen):
    """What the run cost GitHub. REST requests count against the primary rate limit unless
    answered 304 or from the cache; GraphQL queries draw on GitHub's separate GraphQL budget."""

    requests: int  # REST requests counted: run + fixed + every PR's own
    run: int  # the run's own reads: repository, PR list, file histories
    fixed: int  # reads fixed by a SHA, an artifact id or a comment's updated_at, once per run
    prs: tuple[PullCost, ...] = ()
    graphql: int = 0  # edit-history queries sent (GitHub's GraphQL budget, not in `requests`)


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

    @model_validator(mode="before")
    @classmethod
    def _cost_of_older_versions(cls, data: Any) -> Any:
        """Versions 1 and 2: each row's `requests` and the total at the top become `cost`."""
        if not isinstance(data, dict) or "requests" not in data or COST in data:
            return data
        data = dict(data)
        rows = [dict(row) for row in data.get("prs") or () if isinstance(row, dict)]
        prs = [{"pr": row.get("pr"), "requests": row.pop("requests", 0)} for row in rows]
        total = data.pop("requests")
        own = sum(p["requests"] for p in prs if isinstance(p["requests"], int))
        run = total - own if isinstance(total, int) else total
        data["prs"], data[COST] = rows, {"requests": total, "run": run, "fixed": 0, "prs": prs}
        return data

    repository: str
    base: str
    since: str | None
    until: str | None
    standard: str
    generated_by: str
    prs: tuple[AuditedPull, ...]
    summary: Summary
    stopped: Stopped | None = None  # None: every selected PR was audited
    shard: str | None = None  # "I/N" for one shard's report; None for a whole (or merged) run
    cost: Cost  # last, and apart: the only part a re-run of the same audit may change


def findings(report: AuditReport) -> dict[str, Any]:
    """The report without its cost: what two runs of one audit must agree on."""
    return report.model_dump(mode="json", exclude={COST})


def summarize(prs: tuple[AuditedPull, ...]) -> Summary:
    """Counts per outcome, gated PRs and PRs whose published verdict the audit contradicts."""
    counts = {outcome: sum(1 for p in prs if p.outcome == outcome) for outcome in OUTCOMES}
    return Summary(
        merged=len(prs),
        gated=sum(1 for p in prs if p.gated),
        disagreements=sum(1 for p in prs if p.agrees_with_published is False),
        **counts,
    )
