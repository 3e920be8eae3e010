"""Check 2 counts a score only when it can stand for its task: a proportion, on the full test set.

benchmarks/benchmark_lib.sh passes lm-eval `--limit` when EVAL_LIMIT is set, and a PR's own
benchmark script can export it: 50 easy GSM8K questions clear any bar. validate_scores.py in the
eval job does not look at the sample count, so the job is green.
"""

from __future__ import annotations

import pytest
from builders import eval_rows, passing_parts


def _with_rows(**changes: object) -> dict:
    parts = passing_parts()
    parts["evals"][0]["rows"] = [dict(row, **changes) for row in eval_rows()]
    return parts


def test_full_test_set_scores_still_pass(check) -> None:
    assert check(_with_rows(n_eff=1319), "evals").status == "PASS"


@pytest.mark.parametrize("n_eff", [50, 1318, 0])
def test_a_score_on_part_of_the_test_set_fails_however_high(check, n_eff: int) -> None:
    result = check(_with_rows(n_eff=n_eff, em_strict=0.99, em_flexible=0.99), "evals")
    assert result.status == "FAIL"
    assert f"scored on {n_eff:,} of its 1,319 samples" in result.reason


def test_a_score_without_a_sample_count_fails_closed(check) -> None:
    result = check(_with_rows(n_eff=None), "evals")
    assert result.status == "FAIL" and "an unrecorded number of its 1,319" in result.reason


@pytest.mark.parametrize("value", [1.5, 95.3])
def test_an_exact_match_score_above_one_is_no_proportion(check, value: float) -> None:
    result = check(_with_rows(em_strict=value, score=value), "evals")
    assert result.status == "FAIL" and "a proportion between 0 and 1" in result.reason


def test_a_task_without_a_known_full_size_is_judged_on_its_bar_alone(check) -> None:
    parts = _with_rows(task="gsm8k_cot_llama", n_eff=10)
    assert check(parts, "evals").status == "PASS"
