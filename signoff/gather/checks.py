"""Check runs of in-PR commits, newest first, until one commit shows a qualifying sweep."""

from __future__ import annotations

import re
from collections.abc import Sequence

from github.GithubException import GithubException

from signoff.evidence import CheckRun, CommitChecks, PrDiffAt
from signoff.gather.answers import CheckRunItem, CompareAnswer
from signoff.gather.api import Api, JsonObject
from signoff.gather.pull import to_changed_file
from signoff.judge.sweep_rules import assess_commit
from signoff.policy import Policy

_RUN_ID = re.compile(r"/actions/runs/(\d+)/job/")
# A PR with many unswept commits would cost one request per commit; past this many the judge
# sees the examined commits only (it fails closed when none qualified).
MAX_COMMITS_EXAMINED = 30
# The compare API lists at most 300 files.
MAX_COMPARE_FILES = 300


def scan_order(commits: Sequence[str], pinned: str) -> list[str]:
    """In-PR commits newest first, starting at the pinned head (later commits are not judged)."""
    newest_first = list(reversed(commits))
    if pinned in newest_first:
        return newest_first[newest_first.index(pinned) :]
    return [pinned, *newest_first]


def prefetch_commit_checks(api: Api, repo: str, sha: str, *, keep: bool = False) -> None:
    """Send the first page of `read_commit_checks` ahead (`keep`: for every later read of it)."""
    api.prefetch_pages(_runs_path(repo, sha), 1, key="check_runs", item=_RUN, keep=keep)


def read_commit_checks(api: Api, repo: str, sha: str) -> CommitChecks:
    """All check runs of one commit (GitHub's default filter=latest: re-runs replace attempts)."""
    try:
        items = api.pages(_runs_path(repo, sha), key="check_runs", item=_RUN)
    except GithubException:
        return CommitChecks(sha=sha, complete=False)
    runs = tuple(
        sorted((to_check_run(item) for item in items), key=lambda r: (r.name, r.run_id or 0))
    )
    return CommitChecks(sha=sha, check_runs=runs)


def _runs_path(repo: str, sha: str) -> str:
    return f"/repos/{repo}/commits/{sha}/check-runs"


def to_check_run(item: JsonObject) -> CheckRun:
    details = str(item.get("details_url") or "")
    match = _RUN_ID.search(details)
    return CheckRun(
        name=str(item.get("name") or ""),
        status=str(item.get("status") or ""),
        conclusion=item.get("conclusion"),
        run_id=int(match.group(1)) if match else None,
        details_url=details,
    )


def find_sweep(
    api: Api, repo: str, order: Sequence[str], scopes: Sequence[str], policy: Policy
) -> tuple[list[CommitChecks], str | None, int | None]:
    """Examined commits (newest first), the qualifying commit and its run id (None: none found)."""
    examined: list[CommitChecks] = []
    for sha in order[:MAX_COMMITS_EXAMINED]:
        checks = read_commit_checks(api, repo, sha)
        examined.append(checks)
        assessment = assess_commit(checks, scopes, policy)
        if assessment.qualifies:
            return examined, sha, assessment.run_id
    return examined, None, None


def prefetch_diff_at(api: Api, repo: str, base_sha: str, sha: str) -> None:
    api.prefetch(f"/repos/{repo}/compare/{base_sha}...{sha}", item=_COMPARE)


def read_diff_at(api: Api, repo: str, base_sha: str, sha: str) -> PrDiffAt:
    """The PR's own changes as of `sha`: one compare of the base with that commit."""
    try:
        data = api.get_object(f"/repos/{repo}/compare/{base_sha}...{sha}", item=_COMPARE)
    except GithubException:
        return PrDiffAt(sha=sha, complete=False)
    raw_files = data["files"] if isinstance(data.get("files"), list) else []
    files = tuple(to_changed_file(item) for item in raw_files)
    return PrDiffAt(sha=sha, files=files, complete=len(files) < MAX_COMPARE_FILES)


_RUN = CheckRunItem.model_validate
_COMPARE = CompareAnswer.model_validate
