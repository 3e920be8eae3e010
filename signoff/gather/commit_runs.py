"""The check runs of one commit, as GitHub lists them: the hints the sweep scan follows.

Kept apart from the scan itself (`sweep_scan`, which follows the plan's sweep rule and so needs
the parsers), so that the pinned head's check runs can be sent for before the parsers and the
judge are imported (`first_reads`).
"""

from __future__ import annotations

import re

from github.GithubException import GithubException

from signoff.evidence import CheckRun, CommitChecks
from signoff.gather import pull_graph
from signoff.github.answers import CheckRunItem
from signoff.github.api import Api, JsonObject

_RUN_ID = re.compile(r"/actions/runs/(\d+)/job/")


def prefetch_commit_checks(api: Api, repo: str, sha: str, *, keep: bool = False) -> None:
    """Send the first page of `read_commit_checks` ahead (`keep`: for every later read of it)."""
    if pull_graph.is_folded(api, "checks", repo, sha):
        return  # (they came with the first GraphQL query)
    api.prefetch_pages(_runs_path(repo, sha), 1, key="check_runs", item=_RUN, keep=keep)


def read_commit_checks(api: Api, repo: str, sha: str) -> CommitChecks:
    """All check runs of one commit (GitHub's default filter=latest: re-runs replace attempts)."""
    items = pull_graph.check_runs(api, repo, sha)
    try:
        if items is None:
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
        id=_int_or_none(item.get("id")),
    )


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


_RUN = CheckRunItem.model_validate
