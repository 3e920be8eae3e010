"""The evidence bundle: everything the judge may look at for one sign-off at one pinned head SHA.

Gather fills it from GitHub; `signoff judge BUNDLE.json` reads a saved one. It is frozen and
JSON round-trippable, so a verdict can be re-derived later from the audit trail alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from signoff.errors import InputError

SCHEMA_VERSION = 1

SignoffKind = Literal["conversation comment", "review summary", "inline review comment"]
AccountType = Literal["User", "Bot", "Organization", "Mannequin", "Unknown"]
FileState = Literal["ok", "missing", "unavailable"]
RefRole = Literal["default", "base", "head", "eval"]
MembershipState = Literal["member", "not_member", "unknown"]
LinkState = Literal["merged", "open", "draft", "closed", "published", "unreachable", "not_checked"]


class Frozen(BaseModel):
    """Base for every evidence record: immutable, no unknown keys."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Repository(Frozen):
    owner: str
    name: str
    default_branch: str

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"


class PullRequest(Frozen):
    number: int
    title: str = ""
    state: Literal["open", "closed"] = "open"
    draft: bool = False
    merged: bool = False
    author: str = ""
    base_ref: str
    base_sha: str
    head_ref: str
    head_sha: str  # the pinned head: every check is judged at this SHA
    url: str = ""


class ChangedFile(Frozen):
    path: str
    status: str = (
        "modified"  # GitHub's: added, removed, modified, renamed, copied, changed, unchanged
    )
    previous_path: str | None = None
    patch: str | None = None  # None: GitHub sent no patch (binary or too large)


class SignOff(Frozen):
    kind: SignoffKind
    id: int
    url: str
    author: str
    author_type: AccountType = "User"
    author_association: str = "NONE"
    body: str
    created_at: str = ""
    updated_at: str = ""


class Comment(Frozen):
    """A PR conversation (issue) comment."""

    id: int
    author: str
    author_type: AccountType = "User"
    author_association: str = "NONE"
    body: str
    created_at: str = ""
    url: str = ""


class CheckRun(Frozen):
    name: str
    status: str  # queued, in_progress, completed
    conclusion: str | None = None  # success, failure, skipped, cancelled, neutral, ...
    run_id: int | None = None  # workflow run id parsed from details_url
    details_url: str = ""


class CommitChecks(Frozen):
    """Check runs of one commit that is currently in the PR."""

    sha: str
    check_runs: tuple[CheckRun, ...] = ()
    complete: bool = True  # False when the list could not be read in full


class PrDiffAt(Frozen):
    """The PR's own changes as of an earlier in-PR commit (compare against the merge base)."""

    sha: str
    files: tuple[ChangedFile, ...] = ()
    complete: bool = True


class EvalRow(Frozen):
    """One row of `agg_eval_all.json` (the collect-evals aggregate)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    is_multinode: bool = False
    model_prefix: str | None = None
    model: str | None = None
    hw: str | None = None
    framework: str | None = None
    precision: str | None = None
    spec_decoding: str | None = None
    isl: int | None = None
    osl: int | None = None
    tp: int | None = None
    ep: int | None = None
    conc: int | None = None
    dp_attention: bool | str | None = None
    task: str
    em_strict: float | None = None
    em_flexible: float | None = None
    n_eff: int | None = None
    score: float | None = None
    score_name: str | None = None


class EvalJob(Frozen):
    """One per-job eval artifact: lm-eval `results*.json` metrics plus its `meta_env.json`."""

    artifact: str
    file: str
    model_prefix: str | None = None  # meta_env.json infmax_model_prefix
    framework: str | None = None
    precision: str | None = None
    hw: str | None = None
    conc: int | None = None
    metrics: dict[str, dict[str, float]] = Field(default_factory=dict)  # task -> metric -> value
    n_eff: dict[str, int] = Field(default_factory=dict)
    expected_concs: tuple[int, ...] = ()
    completed_concs: tuple[int, ...] = ()
    failed_concs: tuple[int, ...] = ()


class EvalResults(Frozen):
    run_id: int
    head_sha: str = ""  # the commit the eval run executed on
    available: bool
    reason: str = ""  # why unavailable: expired, not found, malformed, too large
    rows: tuple[EvalRow, ...] = ()
    jobs: tuple[EvalJob, ...] = ()


class FileRead(Frozen):
    """A file's text read at a named ref."""

    path: str
    role: RefRole
    sha: str = ""  # commit or branch the text was read at
    state: FileState = "ok"
    text: str | None = None
    reason: str = ""


class TeamMembership(Frozen):
    team: str  # "org/slug"
    login: str
    state: MembershipState
    reason: str = ""


class UpstreamFile(Frozen):
    path: str
    text: str | None = None


class UpstreamLink(Frozen):
    url: str
    kind: Literal["pull", "page", "commit", "branch", "other"]
    state: LinkState
    repo: str = ""
    number: int | None = None
    merged_at: str | None = None
    files: tuple[UpstreamFile, ...] = ()
    page_text: str | None = None
    reason: str = ""


class Evidence(Frozen):
    schema_version: int = SCHEMA_VERSION
    repository: Repository
    pull_request: PullRequest
    head_moved_to: str | None = None  # the PR head when gathering ended, if it moved
    changed_files: tuple[ChangedFile, ...] = ()
    files_truncated: bool = False  # GitHub lists at most 3,000 files
    commits: tuple[str, ...] = ()  # in-PR commit SHAs, oldest first
    commits_truncated: bool = False  # GitHub lists at most 250 commits
    signoff: SignOff
    comments: tuple[Comment, ...] = ()
    commit_checks: tuple[CommitChecks, ...] = ()  # newest first, as far as gathering went
    commit_checks_truncated: bool = False  # older in-PR commits were not examined
    sweep_diff: PrDiffAt | None = None  # PR diff at the sweep commit, when it is not the head
    evals: tuple[EvalResults, ...] = ()
    files: tuple[FileRead, ...] = ()
    memberships: tuple[TeamMembership, ...] = ()
    upstream: tuple[UpstreamLink, ...] = ()

    @field_validator("schema_version")
    @classmethod
    def _supported_version(cls, value: int) -> int:
        if value != SCHEMA_VERSION:
            raise ValueError(
                f"unsupported schema_version {value} (this signoff reads {SCHEMA_VERSION})"
            )
        return value

    def file(self, path: str, role: RefRole) -> FileRead | None:
        """The read of `path` at `role`, or None when it was never read."""
        for read in self.files:
            if read.path == path and read.role == role:
                return read
        return None

    def files_at(self, role: RefRole) -> tuple[FileRead, ...]:
        return tuple(read for read in self.files if read.role == role)


def load_evidence(path: str | Path) -> Evidence:
    """Read a saved bundle; a malformed one is an InputError naming the file and first problem.

    Validation is strict: a bundle is what `dump_evidence` wrote, so `"schema_version": "1"` or
    `"number": true` is a broken (or doctored) bundle, not something to coerce.
    """
    source = Path(path)
    try:
        raw = source.read_bytes()
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise InputError(f"{source}: cannot read evidence bundle ({why})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{source}: not an evidence bundle (not UTF-8 at byte {exc.start})"
        ) from None
    try:
        return Evidence.model_validate_json(text, strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise InputError(f"{source}: invalid evidence bundle at {where}: {first['msg']}") from None


def dump_evidence(evidence: Evidence) -> str:
    """Canonical JSON text of a bundle (stable key order, trailing newline)."""
    return evidence.model_dump_json(indent=2) + "\n"
