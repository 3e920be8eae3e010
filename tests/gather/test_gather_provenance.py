"""Gather reads each workflow run that green sweep check runs name, once, with its jobs."""

from __future__ import annotations

import pytest
from cassette_helpers import replay_gather

SWEEP_RUN = 15000002701
LOOKALIKE_RUN = 15000002799


def _reads_of(requests: tuple[str, ...], run_id: int) -> list[str]:
    return [uri.split("?")[0] for uri in requests if f"/actions/runs/{run_id}" in uri]


def test_the_sweep_run_and_its_jobs_are_read_once_and_recorded() -> None:
    replayed = replay_gather("pass_conversation")
    (run,) = replayed.evidence.workflow_runs
    head = replayed.evidence.pull_request.head_sha
    assert (run.id, run.path, run.event, run.head_sha) == (
        SWEEP_RUN,
        ".github/workflows/run-sweep.yml",
        "pull_request",
        head,
    )
    assert run.readable and run.jobs_complete and run.check_suite_id
    listed = {r.id for r in replayed.evidence.commit_checks[0].check_runs}
    assert {job.id for job in run.jobs} == listed  # every job of the run is a check run there
    reads = _reads_of(replayed.requests, SWEEP_RUN)
    assert reads.count(reads[0]) == 1 and len(reads) == 3  # the run, its jobs, its artifacts


def test_a_lookalike_workflow_run_is_read_and_recorded_as_what_it_is() -> None:
    replayed = replay_gather("fail_sweep_lookalike")
    (run,) = replayed.evidence.workflow_runs
    assert (run.id, run.path) == (LOOKALIKE_RUN, ".github/workflows/pr-smoke.yml")
    assert replayed.evidence.evals == ()  # no sweep qualified, so no artifact was downloaded
    # Its check runs look green, so its artifact list was sent for with its jobs (one read on
    # a sweep that FAILs); nothing of it is used, and no artifact is ever downloaded.
    assert not any("/zip" in uri for uri in replayed.requests)


@pytest.mark.parametrize("name", ["fail_sweep_forged_details", "fail_sweep_shadowed_job"])
def test_the_real_sweep_runs_jobs_are_read_whatever_the_commit_lists(name: str) -> None:
    replayed = replay_gather(name)
    runs = {run.id: run for run in replayed.evidence.workflow_runs}
    sweep = runs[SWEEP_RUN]
    evals = {job.name: job.conclusion for job in sweep.jobs if job.name.startswith("eval /")}
    # The run's own eval jobs, as the runner left them (skipped / one failed), are recorded
    # although the commit's check-run list shows green lookalikes with those names.
    assert len(evals) == 2 and any(conclusion != "success" for conclusion in evals.values())
    listed = [r for r in replayed.evidence.commit_checks[0].check_runs if r.name in evals]
    assert listed and any(r.id not in {job.id for job in sweep.jobs} for r in listed)
