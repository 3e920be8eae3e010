"""Check 2: an eval result that names no model prefix cannot be tied to the changed model."""

from __future__ import annotations

from typing import Any

import pytest
from builders import eval_rows, passing_parts


def _job(prefix: str | None, strict: float) -> dict[str, Any]:
    return {
        "artifact": "eval_dsv4_8k1k",
        "file": "results.json",
        "model_prefix": prefix,
        "metrics": {"gsm8k": {"exact_match,strict-match": strict}},
    }


@pytest.mark.parametrize("prefix", [None, "", "unknown", "UNKNOWN"])
def test_a_row_without_a_prefix_below_the_changed_models_bar_fails(check, prefix):
    parts = passing_parts()
    rows = eval_rows()
    rows[1].update(model_prefix=prefix, em_strict=0.905)  # >= 0.90 default, < 0.91 dsv4
    parts["evals"][0]["rows"] = rows
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "0.905" in result.reason and "names no model prefix" in result.reason
    assert "0.91 bar of dsv4" in result.reason


def test_rows_that_all_lack_a_prefix_never_pass(check):
    parts = passing_parts()
    rows = eval_rows(strict=0.99, flexible=0.99)
    for row in rows:
        row["model_prefix"] = None
    parts["evals"][0]["rows"] = rows
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "no results for model prefix dsv4" in result.reason
    assert "4 results without a model prefix" in result.reason


def test_a_row_without_a_prefix_above_every_bar_is_not_counted(check):
    parts = passing_parts()
    rows = eval_rows()
    extra = dict(rows[0], model_prefix=None, conc=256, em_strict=0.97, em_flexible=0.97)
    parts["evals"][0]["rows"] = [*rows, extra]
    result = check(parts, "evals")
    assert result.status == "PASS"
    assert "over 4 metrics" in result.reason  # the two tied rows only
    assert "2 results without a model prefix not counted" in result.reason


def test_a_per_job_result_without_a_prefix_below_the_bar_fails(check):
    parts = passing_parts()
    parts["evals"][0]["rows"] = []
    parts["evals"][0]["jobs"] = [_job("dsv4", 0.95), _job(None, 0.905)]
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "names no model prefix" in result.reason


def test_per_job_results_without_any_prefix_never_pass(check):
    parts = passing_parts()
    parts["evals"][0]["rows"] = []
    parts["evals"][0]["jobs"] = [_job(None, 0.99)]
    result = check(parts, "evals")
    assert result.status == "FAIL"
    assert "no results for model prefix dsv4" in result.reason


def test_a_score_that_is_not_a_number_never_clears_the_bar(check):
    parts = passing_parts()
    rows = eval_rows()
    rows[0]["em_strict"] = float("nan")
    parts["evals"][0]["rows"] = rows
    assert check(parts, "evals").status == "FAIL"
