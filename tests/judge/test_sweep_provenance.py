"""Checks 1 and 2 count a sweep only through a run of the sweep workflow, bound by job id."""

from __future__ import annotations

from typing import Any

import pytest
from builders import (
    HEAD_SHA,
    OLD_SHA,
    RUN_ID,
    check_run,
    green_runs,
    passing_parts,
    sweep_run,
    swept_older_commit,
)

FAKE_RUN = RUN_ID + 7


def _with_run(**changes: Any) -> dict[str, Any]:
    parts = passing_parts()
    parts["workflow_runs"] = [sweep_run(**changes)]
    return parts


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"path": ".github/workflows/benchmarks-lookalike.yml"}, "not of the sweep workflow"),
        ({"event": "pull_request_target"}, "triggered by `pull_request_target`"),
        ({"event": "workflow_dispatch"}, "triggered by `workflow_dispatch`"),
        ({"head_sha": OLD_SHA}, f"ran on {OLD_SHA[:7]}, not on {HEAD_SHA[:7]}"),
        ({"readable": False, "reason": "404 Not Found"}, "could not be read (404 Not Found)"),
        ({"jobs_complete": False}, "could not be read in full"),
    ],
)
def test_a_run_that_is_not_the_sweep_workflows_pull_request_run_on_the_commit_fails(
    check, change: dict[str, Any], expected: str
) -> None:
    sweep = check(_with_run(**change), "sweep")
    evals = check(_with_run(**change), "evals")
    assert sweep.status == "FAIL" and expected in sweep.reason
    assert evals.status == "FAIL" and "no workflow run evaluated the head's recipe" in evals.reason


def test_a_lookalike_that_hides_a_failed_sweep_job_in_the_commits_list_changes_nothing(check):
    """GitHub lists the latest check run per name: a later green lookalike hides the real job."""
    parts = passing_parts()
    real = green_runs()
    failed = next(r for r in real if r["name"].startswith("eval /"))
    failed["conclusion"] = "failure"
    lookalike = {**failed, "conclusion": "success", "id": 7_000_001}
    parts["commit_checks"][0]["check_runs"] = [r for r in real if r is not failed] + [lookalike]
    parts["workflow_runs"] = [sweep_run(runs=real)]
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert f"`eval /` has a non-green run: {failed['name']} (failure)" in result.reason


def test_a_candidate_run_that_was_never_read_fails_closed(check) -> None:
    parts = passing_parts()
    parts["workflow_runs"] = []
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert f"workflow run {RUN_ID}, which its green check runs name, was not read" in result.reason


def test_a_workflow_path_with_a_ref_suffix_is_still_the_sweep_workflow(check) -> None:
    parts = _with_run(path=".github/workflows/run-sweep.yml@refs/pull/2650/merge")
    assert check(parts, "sweep").status == "PASS"


def test_green_lookalike_jobs_claiming_the_real_run_do_not_replace_its_skipped_evals(check):
    """A PR-added workflow prints green `eval /` runs whose details_url names the real run."""
    parts = passing_parts()
    runs = green_runs()
    for run in runs:
        if run["name"].startswith("eval /"):
            run["conclusion"] = "skipped"
    forged = [
        {**check_run(f"eval / forged c{c}", job=90 + c), "id": 7_000_000 + c} for c in (16, 128)
    ]
    parts["commit_checks"][0]["check_runs"] = runs + forged
    parts["workflow_runs"] = [sweep_run(runs=runs)]
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "no executed `eval /` check runs (all 2 skipped)" in result.reason
    assert "2 green check run(s) naming run" in result.reason


def test_a_pr_added_workflow_with_the_sweeps_job_names_is_no_sweep(check) -> None:
    parts = passing_parts()
    fake = green_runs(FAKE_RUN)
    parts["commit_checks"][0]["check_runs"] = fake
    parts["workflow_runs"] = [sweep_run(FAKE_RUN, runs=fake, path=".github/workflows/pr-smoke.yml")]
    parts["evals"][0]["run_id"] = FAKE_RUN
    sweep, evals = check(parts, "sweep"), check(parts, "evals")
    assert sweep.status == "FAIL"
    assert f"run {FAKE_RUN} of `.github/workflows/pr-smoke.yml`" in sweep.reason
    assert evals.status == "FAIL"


@pytest.mark.parametrize("path", ["runners/launch_b200-dgxc.sh", "benchmarks/benchmark_lib.sh"])
def test_launchers_and_the_benchmark_harness_are_recipe_not_sweep_definition(
    check, path: str
) -> None:
    # They run inside the benchmark jobs like the PR's own scripts; the sweep still counts.
    parts = passing_parts()
    parts["changed_files"].append(
        {"path": path, "status": "modified", "patch": "@@ -1 +1 @@\n-a\n+b"}
    )
    assert check(parts, "sweep").status == "PASS"


def test_a_real_sweep_beside_lookalike_jobs_still_passes_on_its_own_jobs(check) -> None:
    parts = passing_parts()
    fake = [{**r, "conclusion": "failure"} for r in green_runs(FAKE_RUN)]
    parts["commit_checks"][0]["check_runs"] += fake
    parts["workflow_runs"].append(sweep_run(FAKE_RUN, runs=fake, path=".github/workflows/x.yml"))
    result = check(parts, "sweep")
    assert result.status == "PASS"
    assert f"run {RUN_ID} of `.github/workflows/run-sweep.yml`" in result.reason


def test_of_two_sweep_runs_on_one_commit_a_qualifying_one_is_chosen(check) -> None:
    parts = passing_parts()
    newer = RUN_ID + 1
    failing = green_runs(newer)
    failing[0]["conclusion"] = "failure"
    failing[1]["conclusion"] = "success"
    parts["commit_checks"][0]["check_runs"] += failing
    parts["workflow_runs"].append(sweep_run(newer, runs=failing))
    result = check(parts, "sweep")
    assert result.status == "PASS" and f"run {RUN_ID}" in result.reason


@pytest.mark.parametrize(
    "path",
    [
        ".github/workflows/run-sweep.yml",
        ".github/workflows/benchmark-tmpl.yml",
        "utils/evals/validate_scores.py",
        "utils/matrix_logic/generate_sweep_configs.py",
    ],
)
def test_a_pr_that_changes_the_sweep_definition_fails_checks_1_and_2(check, path: str) -> None:
    parts = passing_parts()
    parts["changed_files"].append(
        {"path": path, "status": "modified", "patch": "@@ -1 +1 @@\n-a\n+b"}
    )
    sweep, evals = check(parts, "sweep"), check(parts, "evals")
    assert sweep.status == "FAIL"
    assert f"the PR changes `{path}`, part of the sweep's own definition" in sweep.reason
    assert evals.status == "FAIL"


def test_renaming_a_definition_file_away_counts_as_changing_it(check) -> None:
    parts = passing_parts()
    parts["changed_files"].append(
        {
            "path": "docs/old-sweep.yml",
            "status": "renamed",
            "previous_path": ".github/workflows/collect-evals.yml",
            "patch": None,
        }
    )
    result = check(parts, "sweep")
    assert result.status == "FAIL" and "collect-evals.yml" in result.reason


def test_a_definition_change_in_the_swept_commits_diff_fails_even_if_reverted_later(check):
    parts = swept_older_commit(passing_parts())
    edit = {"path": "utils/process_result.py", "status": "modified", "patch": "@@ -1 +1 @@\n-a\n+b"}
    parts["sweep_diff"]["files"].append(edit)
    # The head no longer carries it, so the recipe drifted too; either reason rejects.
    assert check(parts, "sweep").status == "FAIL"


def test_a_benchmark_script_is_the_recipe_not_the_definition(check) -> None:
    assert check(passing_parts(), "sweep").status == "PASS"


def test_stale_evals_fail_check_2_when_the_recipe_changed_after_the_sweep(check) -> None:
    def bump(files: list[dict[str, Any]]) -> None:
        for changed in files:
            if changed["path"].endswith(".sh"):
                changed["patch"] = changed["patch"].replace("fp8", "auto")

    parts = swept_older_commit(passing_parts(), bump)
    sweep, evals = check(parts, "sweep"), check(parts, "evals")
    assert sweep.status == "FAIL" and "changed after the swept commit" in sweep.reason
    assert evals.status == "FAIL"
    assert "no workflow run evaluated the head's recipe" in evals.reason


def test_eval_artifacts_from_another_commit_than_the_swept_one_fail(check) -> None:
    parts = passing_parts()
    parts["evals"][0]["head_sha"] = OLD_SHA
    result = check(parts, "evals")
    assert result.status == "FAIL" and "not from the swept commit" in result.reason
