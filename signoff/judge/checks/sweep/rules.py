"""Whether one commit shows a green executed sweep, run by the sweep workflow, for a PR's scopes.

A check run's name proves nothing: any workflow (one the PR adds, say) can print green jobs named
like the sweep's, and a later one with a sweep job's exact name hides that job in the commit's
check-run list. So a commit qualifies only through one workflow run of the profile's sweep
workflow, triggered by a `pull_request` event on that commit, whose own jobs (as GitHub lists
them for the run) make up every family the scopes need. The commit's check runs only point at
which runs to look at.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from signoff.evidence import CheckRun, CommitChecks, WorkflowJob, WorkflowRun
from signoff.policy import CheckRunFamily, Policy
from signoff.sweep_families import (
    candidate_run_ids,
    families,
    glob_regex,
    in_family,
    is_green,
    is_ignored,
)


class FamilyTally(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    scope: str
    family: str
    required: bool
    green: int  # executed and success
    not_green: tuple[str, ...]  # executed (or still running) runs that are not success
    skipped: int


class CommitAssessment(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    sha: str
    qualifies: bool
    run_id: int | None  # the sweep workflow run whose jobs qualified the commit
    tallies: tuple[FamilyTally, ...]
    problem: str  # why it does not qualify ("" when it does)


def _tally(
    runs: Sequence[CheckRun | WorkflowJob], scope: str, family: CheckRunFamily
) -> FamilyTally:
    pattern = glob_regex(family.patterns)
    members = [r for r in runs if pattern.match(r.name)]
    # `skipped` (reuse no-op runs, canary-trimmed jobs) never counts as executed.
    skipped = [r for r in members if r.conclusion == "skipped"]
    executed = [r for r in members if r.conclusion != "skipped"]
    green = [r for r in executed if is_green(r)]
    not_green = sorted(
        f"{r.name} ({r.conclusion or r.status})" for r in executed if not is_green(r)
    )
    return FamilyTally(
        scope=scope,
        family=family.name,
        required=family.required,
        green=len(green),
        not_green=tuple(not_green),
        skipped=len(skipped),
    )


def assess_commit(
    checks: CommitChecks,
    scopes: Sequence[str],
    policy: Policy,
    workflow_runs: Sequence[WorkflowRun] = (),
) -> CommitAssessment:
    """A commit qualifies when one sweep workflow run on it passes `assess_run`; without any
    green candidate the reason comes from the check runs' names alone (nothing ran, skipped...)."""
    if not checks.complete:
        return _verdict(checks.sha, None, [], "its check runs could not be read in full")
    candidates = candidate_run_ids(checks, scopes, policy)
    if not candidates:
        runs = [r for r in checks.check_runs if not is_ignored(r, policy)]
        tallies = [_tally(runs, scope, family) for scope, family in families(scopes, policy)]
        return _verdict(checks.sha, None, tallies, _tally_problem(tallies) or _NO_CLAIM)
    known = {run.id: run for run in workflow_runs}
    assessments = [
        assess_run(checks, run_id, known.get(run_id), scopes, policy) for run_id in candidates
    ]
    qualifying = [a for a in assessments if a.qualifies]
    # Otherwise say why the sweep's own run fails (it has tallies: its provenance held) rather
    # than that a lookalike run is no sweep.
    of_sweep = [a for a in assessments if a.tallies]
    return (qualifying or of_sweep or assessments)[0]


_NO_CLAIM = "no green check run names the workflow run it belongs to"


def assess_run(
    checks: CommitChecks,
    run_id: int,
    run: WorkflowRun | None,
    scopes: Sequence[str],
    policy: Policy,
) -> CommitAssessment:
    """The run's own jobs, judged family by family, once the run is shown to be the sweep
    workflow's `pull_request` run on this very commit."""
    problem = provenance_problem(run_id, run, checks.sha, policy)
    if problem or run is None:
        return _verdict(checks.sha, None, [], problem)
    jobs = [job for job in run.jobs if not is_ignored(job, policy)]
    tallies = [_tally(jobs, scope, family) for scope, family in families(scopes, policy)]
    problem = _tally_problem(tallies)
    if problem:
        unbound = _unbound_count(checks, run, scopes, policy)
        if unbound:
            problem += (
                f"; {unbound} green check run(s) naming run {run_id} are not its jobs and "
                "do not count"
            )
    return _verdict(checks.sha, None if problem else run_id, tallies, problem)


def provenance_problem(run_id: int, run: WorkflowRun | None, sha: str, policy: Policy) -> str:
    """Why `run` cannot stand for the sweep on `sha` ("" when it can)."""
    wanted = policy.sweep.provenance
    if run is None:
        return f"workflow run {run_id}, which its green check runs name, was not read"
    if not run.readable:
        return f"workflow run {run_id} could not be read ({run.reason or 'unknown reason'})"
    if not is_workflow_path(run.path, wanted.workflow):
        return (
            f"the green check runs belong to run {run_id} of `{run.path or 'an unknown workflow'}`,"
            f" not of the sweep workflow `{wanted.workflow}`"
        )
    if run.event not in wanted.events:
        allowed = " or ".join(f"`{event}`" for event in wanted.events)
        event = run.event or "an unknown event"
        return f"run {run_id} of `{wanted.workflow}` was triggered by `{event}`, not by {allowed}"
    if run.head_sha != sha:
        return f"run {run_id} ran on {run.head_sha[:7] or 'an unknown commit'}, not on {sha[:7]}"
    if not run.jobs_complete:
        return f"the jobs of run {run_id} could not be read in full, so its check runs are unbound"
    return ""


def is_workflow_path(path: str, wanted: str) -> bool:
    """GitHub gives `.github/workflows/x.yml` (some answers append `@ref`); nothing else counts."""
    return path.split("@", 1)[0] == wanted


def _unbound_count(
    checks: CommitChecks, run: WorkflowRun, scopes: Sequence[str], policy: Policy
) -> int:
    """Green sweep-family check runs whose details_url names `run` but that are not its jobs."""
    jobs = {job.id for job in run.jobs}
    return sum(
        1
        for r in checks.check_runs
        if r.run_id == run.id
        and r.id not in jobs
        and is_green(r)
        and in_family(r, scopes, policy)
        and not is_ignored(r, policy)
    )


def _tally_problem(tallies: Sequence[FamilyTally]) -> str:
    """Every executed run of every family is `success` and each required family executed
    (real verdicts judged whole families)."""
    for tally in tallies:
        if tally.not_green:
            extra = f" and {len(tally.not_green) - 1} more" if len(tally.not_green) > 1 else ""
            return f"`{tally.family}` has a non-green run: {tally.not_green[0]}{extra}"
        if tally.required and tally.green == 0:
            why = f"all {tally.skipped} skipped" if tally.skipped else "none ran"
            return f"no executed `{tally.family}` check runs ({why})"
    return ""


def _verdict(
    sha: str, run_id: int | None, tallies: Sequence[FamilyTally], problem: str
) -> CommitAssessment:
    return CommitAssessment(
        sha=sha,
        qualifies=not problem,
        run_id=run_id,
        tallies=tuple(tallies),
        problem=problem,
    )
