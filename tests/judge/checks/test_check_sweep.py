"""Check 1 (sweep on in-PR commit) from small evidence variations."""

from __future__ import annotations

from builders import (
    HEAD_SHA,
    RUN_ID,
    check_run,
    green_runs,
    passing_parts,
    select_in_changelog,
    set_head_sweep,
    swept_older_commit,
)


def _runs_with(conclusion: str, family: str) -> list[dict]:
    runs = green_runs()
    for run in runs:
        if run["name"].startswith(family):
            run["conclusion"] = conclusion
    return runs


def test_green_single_node_and_eval_families_on_the_head_pass(check):
    result = check(passing_parts(), "sweep")
    assert result.status == "PASS"
    assert f"run {RUN_ID}" in result.reason
    assert "6 green `single-node */`" in result.reason


def test_skipped_eval_runs_do_not_count_as_green(check):
    parts = passing_parts()
    set_head_sweep(parts, _runs_with("skipped", "eval /"))
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "no executed `eval /` check runs (all 2 skipped)" in result.reason


def test_reuse_noop_run_with_everything_skipped_fails(check):
    parts = passing_parts()
    runs = green_runs()
    for run in runs:
        if not run["name"].startswith("collect-evals"):
            run["conclusion"] = "skipped"
    set_head_sweep(parts, runs)
    assert check(parts, "sweep").status == "FAIL"


def test_one_failed_job_in_a_family_fails_the_commit(check):
    parts = passing_parts()
    runs = green_runs()
    runs[2]["conclusion"] = "failure"
    set_head_sweep(parts, runs)
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "(failure)" in result.reason


def test_runs_still_in_progress_do_not_qualify(check):
    parts = passing_parts()
    runs = green_runs()
    runs[0]["conclusion"], runs[0]["status"] = None, "in_progress"
    set_head_sweep(parts, runs)
    assert check(parts, "sweep").status == "FAIL"


def test_green_sweep_on_a_commit_no_longer_in_the_pr_never_counts(check):
    parts = passing_parts()
    rebased_out = "dead" + "c" * 36
    parts["commit_checks"] = [
        {"sha": HEAD_SHA, "check_runs": []},
        {"sha": rebased_out, "check_runs": green_runs()},
    ]
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "no passing sweep/eval on any commit in this PR" in result.reason


def test_sweep_on_an_older_commit_followed_by_a_main_merge_passes(check):
    parts = swept_older_commit(passing_parts())
    result = check(parts, "sweep")
    assert result.status == "PASS"
    assert "later commits leave the recipe unchanged" in result.reason


def test_pr_link_only_changelog_edit_after_the_sweep_is_fine(check):
    def fix_link(files):
        for f in files:
            if f["path"] == "perf-changelog.yaml":
                f["patch"] = f["patch"].replace(
                    "pr-link: XXX",
                    "pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/2650",
                )

    parts = swept_older_commit(passing_parts(), fix_link)
    assert check(parts, "sweep").status == "PASS"


def test_recipe_change_after_the_sweep_fails(check):
    def bump(files):
        for f in files:
            if f["path"].endswith(".sh"):
                f["patch"] = f["patch"].replace("--kv-cache-dtype fp8", "--kv-cache-dtype auto")

    parts = swept_older_commit(passing_parts(), bump)
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "changed after the swept commit" in result.reason
    assert ".sh" in result.reason


def test_older_sweep_without_its_diff_cannot_be_trusted(check):
    parts = swept_older_commit(passing_parts())
    parts["sweep_diff"] = None
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "not read" in result.reason


def test_collect_evals_green_over_zero_evals_does_not_satisfy_the_eval_family(check):
    parts = passing_parts()
    set_head_sweep(parts, [r for r in green_runs() if not r["name"].startswith("eval /")])
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "`eval /`" in result.reason


def test_canary_only_coverage_still_needs_evals(check):
    parts = passing_parts()
    set_head_sweep(
        parts,
        [
            check_run("canary / p1 | dsv4 fp4 b200 vllm TP8 c4", job=1),
            check_run("single-node 8k1k / none", "skipped", job=2),
        ],
    )
    assert check(parts, "sweep").status == "FAIL"


def test_multi_node_entries_need_multi_node_families(check):
    parts = passing_parts()
    # Replace the new entry with a multi-node one.
    multi = (
        "dsv4-fp4-gb200-dynamo-vllm:\n  image: vllm/vllm-openai:v0.11.1\n  model: deepseek-ai/DeepSeek-V4-Pro\n"
        "  model-prefix: dsv4\n  precision: fp4\n  framework: dynamo-vllm\n  runner: gb200\n"
        "  multinode: true\n  disagg: true\n  kv-p2p-transfer: nixl\n  scenarios:\n    fixed-seq-len:\n"
        "      - isl: 8192\n        osl: 1024\n        search-space:\n          - conc-list: [256]\n"
        "            prefill: { num-worker: 1, tp: 4 }\n            decode: { num-worker: 1, tp: 8 }\n"
    )
    base = next(r for r in parts["files"] if r["role"] == "base")["text"]
    for read in parts["files"]:
        if read["path"] == "configs/nvidia-master.yaml" and read["role"] == "head":
            read["text"] = base + "\n" + multi
    parts["changed_files"] = [f for f in parts["changed_files"] if not f["path"].endswith(".sh")]
    select_in_changelog(parts, "dsv4-fp4-gb200-dynamo-vllm")
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "multi-node" in result.reason
    runs = [
        check_run("multi-node 8k1k / dsv4 fp4 gb200 1P x 1D c256", job=1),
        check_run("multi-node eval / dsv4 fp4 gb200 c256", job=2),
        check_run("single-node 8k1k / none", "skipped", job=3),
        check_run("eval / none", "skipped", job=4),
    ]
    set_head_sweep(parts, runs)
    assert check(parts, "sweep").status == "PASS"


def test_no_check_runs_at_all_fails(check):
    parts = passing_parts()
    parts["commit_checks"] = []
    assert check(parts, "sweep").status == "FAIL"


def test_a_scan_that_stopped_early_says_which_commits_were_examined(check):
    parts = passing_parts()
    parts["commit_checks"] = [{"sha": HEAD_SHA, "check_runs": []}]
    parts["commit_checks_truncated"] = True
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "only the newest 1 commits' check runs were examined" in result.reason


def test_a_metadata_line_is_ignored_only_in_the_file_where_it_is_metadata(check):
    """`pr-link:` is the changelog's metadata; in a script it is code the sweep runs."""

    def hide_in_script(files):
        for f in files:
            if f["path"].endswith(".sh"):
                f["patch"] += "\n+  pr-link: x; export VLLM_ATTENTION_BACKEND=FLASHINFER"

    parts = swept_older_commit(passing_parts(), hide_in_script)
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "changed after the swept commit" in result.reason
    assert ".sh" in result.reason


def test_a_metadata_line_in_a_master_config_is_a_recipe_change(check):
    def hide_in_master(files):
        for f in files:
            if f["path"] == "configs/nvidia-master.yaml":
                f["patch"] += "\n+  pr-link: x"

    parts = swept_older_commit(passing_parts(), hide_in_master)
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "configs/nvidia-master.yaml changed after the swept commit" in result.reason
