"""The evidence bundle: everything the judge may look at for one sign-off at one pinned head SHA.

Gather fills it from GitHub; `signoff judge BUNDLE.json` reads a saved one. It is frozen and
JSON round-trippable, so a verdict can be re-derived later from the audit trail alone.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from signoff.errors import InputError, not_utf8, pydantic_json_problem
from signoff.standards import StandardRecord

# 2: `pull_request.body` (the description, kept for Check 15) and `throughput` (the sweep's
# measured points, for Check 14); a version 1 bundle (neither field) is still read.
SCHEMA_VERSION = 2
READABLE_SCHEMA_VERSIONS = (1, 2)

SignoffKind = Literal["conversation comment", "review summary", "inline review comment"]
AccountType = Literal["User", "Bot", "Organization", "Mannequin", "Unknown"]
FileState = Literal["ok", "missing", "unavailable"]
RefRole = Literal["default", "base", "head", "eval"]
MembershipState = Literal["member", "not_member", "unknown"]
LinkState = Literal["merged", "open", "draft", "closed", "published", "unreachable", "not_checked"]
WantRole = Literal["default", "base", "head"]


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
    labels: tuple[str, ...] = ()  # label names on the PR when it was read
    body: str | None = None  # the PR description as read (None: not read; "" when empty)


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
    node_id: str = ""  # GitHub's global id (GraphQL), for reading who edited it


class SignoffEdits(Frozen):
    """Who wrote the sign-off's current text, as GitHub's GraphQL API tells (REST cannot)."""

    readable: bool
    reason: str = ""  # why it could not be read
    author: str = ""  # the node's author, as GraphQL names it
    last_editor: str | None = None  # `editor` of the last edit; None: never edited
    last_edited_at: str | None = None
    # Every `userContentEdits` entry's editor, newest first (GitHub lists the creation last,
    # by the author, once a comment was edited); "" for an account GitHub no longer names.
    editors: tuple[str, ...] = ()
    complete: bool = False  # the whole edit history was read

    def others(self, author: str) -> tuple[str, ...]:
        """Accounts other than `author` that edited the text, sorted ("" = a deleted account)."""
        logins = [*self.editors, *([self.last_editor] if self.last_editor is not None else [])]
        return tuple(sorted({login for login in logins if login.lower() != author.lower()}))


class Comment(Frozen):
    """A PR conversation (issue) comment."""

    id: int
    author: str
    author_type: AccountType = "User"
    author_association: str = "NONE"
    body: str
    created_at: str = ""
    url: str = ""


class PostedSignoff(Frozen):
    """A comment of any sign-off kind on the PR, read right before publishing (not in a bundle):
    which sign-off is the newest decides which run may write the verdict."""

    kind: SignoffKind
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
    # The workflow run named by details_url: free text any App may set, so only a hint of which
    # run to read; the judge counts the jobs of that run as GitHub lists them (see WorkflowRun).
    run_id: int | None = None
    details_url: str = ""
    id: int | None = None  # the check run id; for a GitHub Actions job it equals the job id


class CommitChecks(Frozen):
    """Check runs of one commit that is currently in the PR."""

    sha: str
    check_runs: tuple[CheckRun, ...] = ()
    complete: bool = True  # False when the list could not be read in full


class WorkflowJob(Frozen):
    """One job of a workflow run (its check run has the same id and name)."""

    id: int
    name: str
    status: str
    conclusion: str | None = None


class WorkflowRun(Frozen):
    """A workflow run that green check runs of an in-PR commit claim to come from.

    `jobs` are the run's own jobs (`GET actions/runs/{id}/jobs`, latest attempt): only the
    Actions runner creates them, so they are the sweep's results whatever other check runs on the
    commit are named. The commit's check-run list cannot stand in for them: another workflow's
    check run with the same name and a later completion hides a sweep job there (filter=latest),
    and a check run created through the API with a workflow's token can land in any workflow's
    check suite on that commit.
    """

    id: int
    readable: bool = True
    reason: str = ""  # why the run (or its jobs) could not be read
    path: str = ""  # the workflow file, e.g. .github/workflows/run-sweep.yml
    event: str = ""  # pull_request, push, workflow_dispatch, ...
    head_sha: str = ""
    check_suite_id: int | None = None
    status: str = ""
    conclusion: str | None = None
    jobs: tuple[WorkflowJob, ...] = ()
    jobs_complete: bool = False  # every job of the run's latest attempt was listed


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


class ThroughputRow(Frozen):
    """One measured point of `agg_bmk.json` (the collect-results aggregate, artifact
    `results_bmk`): what the app plots (throughput per GPU against end-to-end latency)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    infmax_model_prefix: str | None = None
    hw: str | None = None
    framework: str | None = None
    precision: str | None = None
    spec_decoding: str | None = None
    isl: int | None = None
    osl: int | None = None
    conc: int | None = None
    image: str | None = None
    tput_per_gpu: float | None = None
    median_e2el: float | None = None  # seconds (process_result.py divides the _ms value)


class ThroughputResults(Frozen):
    """The measured throughput of the qualifying sweep run (read for Check 14, E10+)."""

    run_id: int
    available: bool
    reason: str = ""  # why unavailable: no artifact, expired, malformed, too large
    rows: tuple[ThroughputRow, ...] = ()


class FileRead(Frozen):
    """A file's text read at a named ref."""

    path: str
    role: RefRole
    sha: str = ""  # commit or branch the text was read at
    state: FileState = "ok"
    text: str | None = None
    reason: str = ""


class DirListing(Frozen):
    """The names in one repository directory at a named ref (files and subdirectories)."""

    path: str
    role: RefRole
    sha: str = ""
    state: FileState = "ok"
    entries: tuple[str, ...] = ()  # names relative to `path`, sorted; directories end with "/"
    reason: str = ""


class TeamMembership(Frozen):
    team: str  # "org/slug"
    login: str
    state: MembershipState
    reason: str = ""


class UpstreamFile(Frozen):
    """A file an upstream recipe PR changed, read whole at `sha` (its merge commit when merged)."""

    path: str
    text: str | None = None  # the whole file at `sha`; None when it was not read (see state)
    sha: str = ""  # the commit the text was read at
    state: FileState | Literal["skipped"] = "ok"  # skipped: not a recipe document, or over a bound
    reason: str = ""  # why the text is absent: "404 Not Found", "over the 8-file bound", ...


class UpstreamLink(Frozen):
    url: str
    kind: Literal["pull", "page", "commit", "branch", "other"]
    state: LinkState
    repo: str = ""
    number: int | None = None
    merged_at: str | None = None
    read_at: str = ""  # the commit the PR's files were read at (merge commit, else the PR head)
    files: tuple[UpstreamFile, ...] = ()
    files_complete: bool = True  # False: the PR lists more files than were read
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
    signoff_edits: SignoffEdits | None = None  # None: not read (old bundles): Check 0 fails
    comments: tuple[Comment, ...] = ()
    commit_checks: tuple[CommitChecks, ...] = ()  # newest first, as far as gathering went
    commit_checks_truncated: bool = False  # older in-PR commits were not examined
    workflow_runs: tuple[WorkflowRun, ...] = ()  # runs named by green sweep check runs, by id
    sweep_diff: PrDiffAt | None = None  # PR diff at the sweep commit, when it is not the head
    evals: tuple[EvalResults, ...] = ()
    throughput: ThroughputResults | None = None  # None: not read (standards before E10)
    files: tuple[FileRead, ...] = ()
    memberships: tuple[TeamMembership, ...] = ()
    upstream: tuple[UpstreamLink, ...] = ()
    listings: tuple[DirListing, ...] = ()
    # The standard the evidence was gathered for, and the instant it is judged as of (UTC,
    # ISO-8601): gather records its clock; an audit records the sign-off's instant. The judge
    # reads both from here and never from a clock.
    standard: StandardRecord | None = None
    reviewed_at: str = ""

    @field_validator("schema_version")
    @classmethod
    def _supported_version(cls, value: int) -> int:
        if value not in READABLE_SCHEMA_VERSIONS:
            raise ValueError(
                f"unsupported schema_version {value} (this signoff reads 1 and {SCHEMA_VERSION})"
            )
        return value

    def file(self, path: str, role: RefRole) -> FileRead | None:
        """The read of `path` at `role`, or None when it was never read."""
        files, index = self._file_index
        if files is not self.files:  # a model_copy(update=...) carried the cache along: rebuild
            del self.__dict__["_file_index"]
            files, index = self._file_index
        return index.get((path, role))

    @cached_property
    def _file_index(self) -> tuple[tuple[FileRead, ...], dict[tuple[str, str], FileRead]]:
        """(path, role) -> the first read of it; checks look files up thousands of times."""
        index: dict[tuple[str, str], FileRead] = {}
        for read in self.files:
            index.setdefault((read.path, read.role), read)
        return self.files, index

    def files_at(self, role: RefRole) -> tuple[FileRead, ...]:
        return tuple(read for read in self.files if read.role == role)

    def listing(self, path: str, role: RefRole) -> DirListing | None:
        """The listing of directory `path` at `role`, or None when it was never listed."""
        for listing in self.listings:
            if listing.path == path and listing.role == role:
                return listing
        return None


def load_evidence(path: str | Path) -> Evidence:
    """Read a saved bundle; a malformed one is an InputError naming the file and first problem.

    Validation is strict: a bundle is what `dump_evidence` wrote, so `"schema_version": "1"` or
    `"number": true` is a broken (or doctored) bundle, not something to coerce.
    """
    source = Path(path)
    try:
        raw = source.read_bytes()
    except OSError as exc:
        if isinstance(exc, IsADirectoryError):
            raise InputError(f"{source}: is a folder, not an evidence bundle") from None
        why = exc.strerror or "unreadable"
        raise InputError(f"{source}: cannot read evidence bundle ({why})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{source}: not an evidence bundle ({not_utf8(exc)})") from None
    try:
        return Evidence.model_validate_json(text, strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        problem = pydantic_json_problem(text, first)
        if problem is not None:
            raise InputError(f"{source}: not an evidence bundle ({problem})") from None
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise InputError(f"{source}: invalid evidence bundle at {where}: {first['msg']}") from None


def dump_evidence(evidence: Evidence) -> str:
    """Canonical JSON text of a bundle (stable key order, trailing newline)."""
    return evidence.model_dump_json(indent=2) + "\n"


class Want(BaseModel):
    """A read a check declares (its `wants(ctx)`), which gather makes: a file's text, or a
    directory's names, at a named ref (`default`: the default branch; `base`: the PR's base
    commit; `head`: the pinned head)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["file", "dir"]
    path: str
    role: WantRole


def want_file(path: str, role: WantRole) -> Want:
    return Want(kind="file", path=path, role=role)


def want_dir(path: str, role: WantRole) -> Want:
    return Want(kind="dir", path=path, role=role)
