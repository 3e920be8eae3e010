"""Check runs of in-PR commits, newest first, until one commit shows a qualifying sweep.

A commit's green sweep-family check runs name candidate workflow runs (details_url, a hint);
each candidate is read once with its jobs (gather/workflow_runs.py; a commit's candidates, and
each run and its jobs, go out together, with the artifact list when the commit looks green, or
else the next older commit's check runs), and the judge counts only the jobs of a run that is
the sweep workflow's `pull_request` run on that commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from github.GithubException import GithubException

from signoff.evidence import CheckRun, CommitChecks, PrDiffAt, WorkflowRun
from signoff.gather import evals, workflow_runs
from signoff.gather.commit_runs import prefetch_commit_checks, read_commit_checks
from signoff.gather.plan import Plan
from signoff.gather.pull_request import to_changed_file
from signoff.github.answers import CompareAnswer
from signoff.github.api import Api
from signoff.policy import Policy
from signoff.sweep_families import candidate_run_ids, glob_regex, is_ignored

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


@dataclass(frozen=True)
class SweepSearch:
    """What the scan read: commits examined (newest first), candidate runs, and the result."""

    examined: tuple[CommitChecks, ...]
    workflow_runs: tuple[WorkflowRun, ...]  # by id
    sha: str | None  # the qualifying commit (None: none found)
    run_id: int | None  # its sweep workflow run


def find_sweep(
    api: Api, repo: str, order: Sequence[str], scopes: Sequence[str], policy: Policy, plan: Plan
) -> SweepSearch:
    """Scan commits newest first; read each candidate run once; stop at the first commit whose
    sweep run (provenance included) qualifies by the plan's sweep rule."""
    examined: list[CommitChecks] = []
    runs: dict[int, WorkflowRun] = {}
    scanned = order[:MAX_COMMITS_EXAMINED]
    for index, sha in enumerate(scanned):
        checks = read_commit_checks(api, repo, sha)
        examined.append(checks)
        unread = [i for i in candidate_run_ids(checks, scopes, policy) if i not in runs]
        send_ahead(api, repo, checks, unread, scanned[index + 1 : index + 2], policy)
        for run_id in unread:
            runs[run_id] = workflow_runs.read_workflow_run(api, repo, run_id)
        assessment = plan.assess_commit(checks, scopes, policy, tuple(runs.values()))
        if assessment.qualifies:
            return _search(examined, runs, sha, assessment.run_id)
    return _search(examined, runs, None, None)


def send_ahead(
    api: Api,
    repo: str,
    checks: CommitChecks,
    run_ids: Sequence[int],
    older: Sequence[str],
    policy: Policy,
) -> None:
    """What the scan reads next, sent before it waits: each candidate run with its jobs, and
    the one run's artifact list when the commit's check runs look green (the evals read it);
    otherwise the next older commit's check runs, which the scan reads when this one fails."""
    for run_id in run_ids:
        workflow_runs.prefetch(api, repo, run_id)
    if len(run_ids) == 1 and looks_green(checks, policy):
        evals.prefetch(api, repo, run_ids[0])
    else:
        for sha in older:
            prefetch_commit_checks(api, repo, sha)


def _search(
    examined: list[CommitChecks], runs: dict[int, WorkflowRun], sha: str | None, run: int | None
) -> SweepSearch:
    ordered = tuple(runs[key] for key in sorted(runs))
    return SweepSearch(tuple(examined), ordered, sha, run)


def looks_green(checks: CommitChecks, policy: Policy) -> bool:
    """Whether the commit's check runs alone, taken by their names, would make up every family
    of some scope: every executed one green, each required family executed (a hint for reading
    ahead; names prove nothing, so the judge never uses it)."""
    runs = [run for run in checks.check_runs if not is_ignored(run, policy)]
    return checks.complete and any(
        all(_family_green(runs, family.patterns, family.required) for family in scope.families)
        for scope in policy.sweep.scopes.values()
    )


def _family_green(runs: Sequence[CheckRun], patterns: tuple[str, ...], required: bool) -> bool:
    pattern = glob_regex(patterns)
    executed = [r for r in runs if pattern.match(r.name) and r.conclusion != "skipped"]
    green = all(r.status == "completed" and r.conclusion == "success" for r in executed)
    return green and (bool(executed) or not required)


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


_COMPARE = CompareAnswer.model_validate
