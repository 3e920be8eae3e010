"""Check 2 (evals pass) from small evidence variations."""

from __future__ import annotations

from builders import (
    HEAD_SHA,
    RUN_ID,
    eval_rows,
    passing_parts,
    replace_file,
    swept_older_commit,
)

from signoff.evidence import Evidence


def test_scores_above_the_per_model_bar_on_the_same_image_pass(check):
    result = check(passing_parts(), "evals")
    assert result.status == "PASS"
    assert "gsm8k 0.953–0.958 (n_eff=1319)" in result.reason
    assert "vllm/vllm-openai:v0.11.1" in result.reason


def test_per_model_threshold_overrides_the_default(check):
    parts = passing_parts()
    parts["evals"][0]["rows"] = eval_rows(
        strict=0.905, flexible=0.95
    )  # >= 0.90 default, < 0.91 dsv4
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "0.905 < 0.91" in result.reason


def test_flexible_extract_must_pass_too(check):
    parts = passing_parts()
    parts["evals"][0]["rows"] = eval_rows(strict=0.95, flexible=0.70)
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "flexible-extract" in result.reason


def test_expired_artifact_fails_and_says_so(check):
    parts = passing_parts()
    parts["evals"] = [
        {"run_id": RUN_ID, "available": False, "reason": "artifact eval_results_all expired"}
    ]
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "expired" in result.reason


def test_results_never_gathered_fail(check):
    parts = passing_parts()
    parts["evals"] = []
    assert check(parts, "evals").status == "FAIL"


def test_zero_metrics_is_a_failure(check):
    parts = passing_parts()
    rows = eval_rows()
    for row in rows:
        row["em_strict"] = row["em_flexible"] = None
    parts["evals"][0]["rows"] = rows
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "zero" in result.reason


def test_results_for_another_model_only_fail(check):
    parts = passing_parts()
    rows = eval_rows()
    for row in rows:
        row["model_prefix"] = "qwen3.5"
        row["em_strict"] = row["em_flexible"] = 0.96
    parts["evals"][0]["rows"] = rows
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "dsv4" in result.reason


def test_eval_run_on_a_different_image_than_the_head_fails(check):
    parts = swept_older_commit(passing_parts())
    head = next(
        r for r in parts["files"] if r["role"] == "head" and r["path"].startswith("configs")
    )
    replace_file(parts, head["path"], "eval", head["text"].replace("v0.11.1", "v0.10.2"))
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "v0.10.2" in result.reason


def test_unreadable_thresholds_fail_closed(check):
    parts = passing_parts()
    replace_file(parts, "utils/evals/thresholds.yaml", "default", None, state="missing")
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "thresholds.yaml" in result.reason


def test_per_job_results_with_failed_batched_concurrency_fail(check):
    parts = passing_parts()
    parts["evals"][0]["rows"] = []
    parts["evals"][0]["jobs"] = [
        {
            "artifact": "eval_dsv4_8k1k_fp4_vllm_conc128_b200",
            "file": "results_2026.json",
            "model_prefix": "dsv4",
            "metrics": {
                "gsm8k": {"exact_match,strict-match": 0.95, "exact_match_stderr,strict-match": 0.01}
            },
            "expected_concs": [64, 128],
            "completed_concs": [128],
            "failed_concs": [64],
        }
    ]
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "[64]" in result.reason


def test_per_job_results_pass_when_every_exact_match_metric_clears(check):
    parts = passing_parts()
    parts["evals"][0]["rows"] = []
    parts["evals"][0]["jobs"] = [
        {
            "artifact": "eval_dsv4_8k1k",
            "file": "results.json",
            "model_prefix": "dsv4",
            "metrics": {
                "gsm8k": {
                    "exact_match,strict-match": 0.95,
                    "exact_match,flexible-extract": 0.96,
                    "exact_match_stderr,strict-match": 0.005,
                }
            },
            "n_eff": {"gsm8k": 1319},
        }
    ]
    assert check(parts, "evals").status == "PASS"


def test_no_qualifying_sweep_means_no_eval_to_judge(check):
    parts = passing_parts()
    parts["commit_checks"] = [{"sha": HEAD_SHA, "check_runs": []}]
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "Check 1" in result.reason


def test_evidence_round_trips_through_json(policy):
    from builders import build

    evidence = build(passing_parts())
    assert Evidence.model_validate_json(evidence.model_dump_json()) == evidence
