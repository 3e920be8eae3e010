"""A workflow run as GitHub describes it, with its own jobs (the sweep's provenance).

Two reads per run: `GET actions/runs/{id}` (workflow path, event, head SHA, check suite) and
`GET actions/runs/{id}/jobs` (the latest attempt's jobs, 100 a page). Only the Actions runner
creates jobs, so they are the run's results; the commit's check-run list is not: a check run's
details_url is free text, a check run created with a workflow's token can land in another
workflow's suite, and a later check run with the same name hides a job there (filter=latest).
The run and the first page of its jobs do not depend on each other: `prefetch` sends both ahead.
"""

from __future__ import annotations

from github.GithubException import GithubException

from signoff.evidence import WorkflowJob, WorkflowRun
from signoff.github.answers import JobsPage, WorkflowRunAnswer
from signoff.github.api import Api, JsonObject, error_status

PER_PAGE = 100
# 1,000 jobs: far above a PR sweep (one job per configuration and concurrency). A run with more
# is judged unbound (fail closed) rather than read without end.
MAX_JOB_PAGES = 10


def prefetch(api: Api, repo: str, run_id: int) -> None:
    """Send the run and the first page of its jobs ahead (`read_workflow_run` takes them)."""
    api.prefetch(_run_path(repo, run_id), item=_RUN)
    api.prefetch(_jobs_path(repo, run_id), _page(1), item=_JOBS)


def read_workflow_run(api: Api, repo: str, run_id: int) -> WorkflowRun:
    """The run and its jobs; an unreadable run is recorded with the reason, never skipped."""
    try:
        data = api.get_object(_run_path(repo, run_id), item=_RUN)
    except GithubException as exc:
        return WorkflowRun(id=run_id, readable=False, reason=error_status(exc))
    run = to_workflow_run(run_id, data)
    try:
        jobs, complete = _jobs(api, repo, run_id)
    except GithubException as exc:
        return run.model_copy(update={"readable": False, "reason": f"jobs: {error_status(exc)}"})
    return run.model_copy(update={"jobs": jobs, "jobs_complete": complete})


def to_workflow_run(run_id: int, data: JsonObject) -> WorkflowRun:
    suite = data.get("check_suite_id")
    conclusion = data.get("conclusion")
    return WorkflowRun(
        id=run_id,
        path=str(data.get("path") or ""),
        event=str(data.get("event") or ""),
        head_sha=str(data.get("head_sha") or ""),
        check_suite_id=suite if isinstance(suite, int) and _is_id(suite) else None,
        status=str(data.get("status") or ""),
        conclusion=conclusion if isinstance(conclusion, str) else None,
    )


def _jobs(api: Api, repo: str, run_id: int) -> tuple[tuple[WorkflowJob, ...], bool]:
    """Every job of the run's latest attempt (by id), and whether the list was read in full."""
    jobs: dict[int, WorkflowJob] = {}
    total = -1
    for page in range(1, MAX_JOB_PAGES + 1):
        data = api.get_object(_jobs_path(repo, run_id), _page(page), item=_JOBS)
        items, total = data["jobs"], data["total_count"]  # checked on arrival
        for item in items:
            job = to_job(item)
            if job is not None:
                jobs[job.id] = job
        if len(items) < PER_PAGE or len(jobs) >= total:
            break
    return _ordered(jobs), len(jobs) >= total >= 0


def to_job(item: object) -> WorkflowJob | None:
    if not isinstance(item, dict) or not _is_id(item.get("id")):
        return None
    conclusion = item.get("conclusion")
    return WorkflowJob(
        id=item["id"],
        name=str(item.get("name") or ""),
        status=str(item.get("status") or ""),
        conclusion=conclusion if isinstance(conclusion, str) else None,
    )


def _run_path(repo: str, run_id: int) -> str:
    return f"/repos/{repo}/actions/runs/{run_id}"


def _jobs_path(repo: str, run_id: int) -> str:
    return f"{_run_path(repo, run_id)}/jobs"


def _page(number: int) -> dict[str, int]:
    """The jobs list's query: GitHub's default first page, asked for by number."""
    return {"per_page": PER_PAGE, "page": number}


def _ordered(jobs: dict[int, WorkflowJob]) -> tuple[WorkflowJob, ...]:
    return tuple(jobs[key] for key in sorted(jobs))


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


_RUN = WorkflowRunAnswer.model_validate
_JOBS = JobsPage.model_validate
