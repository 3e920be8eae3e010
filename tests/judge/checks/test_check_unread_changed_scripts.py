"""A changed script that no changed entry runs is in a check's scope by what its reading shows
(speculative flags, a synthetic-acceptance knob, a vLLM/SGLang launch for Check 3). When that reading is incomplete (the
verdict's work bound already spent by the checks before, or text the reader cannot follow),
what it shows is unknown: the check fails closed naming the script, never N/A."""

from __future__ import annotations

from typing import Any

import pytest
from builders import (
    AGENTIC_SGLANG,
    SCRIPT,
    SCRIPT_PATH,
    add_changed_file,
    agentic_parts,
    passing_parts,
)

AGENTIC_PATH = "benchmarks/single_node/agentic/qwen3.5_fp8_b200_sglang.sh"  # no `_mtp` in it
FIXED_PATH = "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b300_vllm.sh"


def _script_only(path: str, text: str) -> dict[str, Any]:
    """The PR changes one script and nothing else (the golden AL curves on the default branch)."""
    parts = agentic_parts() if "/agentic/" in path else passing_parts()
    parts["changed_files"] = []
    add_changed_file(parts, path, text)
    return parts


@pytest.fixture
def bound_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks before have used the verdict's whole work bound for reading scripts."""
    monkeypatch.setattr("signoff.judge.context.SCRIPT_STEPS_PER_JUDGE", 0)


def test_an_agentic_script_read_in_full_is_judged_by_its_knob(check: Any) -> None:
    parts = _script_only(AGENTIC_PATH, AGENTIC_SGLANG.replace("=3.39", "=9.99"))
    result = check(parts, "agentic-golden-al")
    assert result.status == "FAIL" and "gives AL 9.99" in result.reason


@pytest.mark.usefixtures("bound_spent")
def test_an_agentic_script_left_unread_by_the_work_bound_fails_closed(check: Any) -> None:
    parts = _script_only(AGENTIC_PATH, AGENTIC_SGLANG.replace("=3.39", "=9.99"))
    result = check(parts, "agentic-golden-al")
    assert result.status == "FAIL"
    assert f"{AGENTIC_PATH} could not be fully read" in result.reason
    assert "work bound" in result.reason


def test_a_fixed_seq_len_spec_script_read_in_full_is_judged_by_its_client(check: Any) -> None:
    text = SCRIPT.replace("  --use-chat-template\n", "  --port 1\n")
    result = check(_script_only(FIXED_PATH, text), "spec-chat-template")
    assert result.status == "FAIL" and "without --use-chat-template" in result.reason


@pytest.mark.usefixtures("bound_spent")
def test_a_fixed_seq_len_script_left_unread_by_the_work_bound_fails_closed(check: Any) -> None:
    text = SCRIPT.replace("  --use-chat-template\n", "  --port 1\n")
    result = check(_script_only(FIXED_PATH, text), "spec-chat-template")
    assert result.status == "FAIL"
    assert f"{FIXED_PATH} could not be fully read" in result.reason


def test_a_script_read_in_full_without_speculation_stays_out_of_scope(check: Any) -> None:
    plain = SCRIPT.replace(
        '  --speculative-config \'{"method": "mtp", "num_speculative_tokens": 3}\' \\\n', ""
    )
    assert plain != SCRIPT
    result = check(_script_only(FIXED_PATH, plain), "spec-chat-template")
    assert result.status == "N/A", result.reason
    assert SCRIPT_PATH != FIXED_PATH


@pytest.mark.usefixtures("bound_spent")
def test_a_script_left_unread_fails_closed_for_the_draft_precision_check_too(check: Any) -> None:
    result = check(_script_only(FIXED_PATH, SCRIPT), "draft-precision", "current")
    assert result.status == "FAIL"
    assert f"{FIXED_PATH} could not be fully read" in result.reason


@pytest.mark.usefixtures("bound_spent")
def test_a_vllm_script_left_unread_fails_closed_for_the_recipe_check_too(check: Any) -> None:
    """Check 3 takes a changed script into scope when its reading shows a vLLM/SGLang launch;
    a reading stopped before any launch shows none, and must not make the check N/A."""
    result = check(_script_only(FIXED_PATH, SCRIPT), "recipe")
    assert result.status == "FAIL", result.reason
    assert FIXED_PATH in result.reason and "work bound" in result.reason


def test_a_vllm_script_read_in_full_is_compared_by_the_recipe_check(check: Any) -> None:
    result = check(_script_only(FIXED_PATH, SCRIPT), "recipe")
    assert "no single-node vLLM/SGLang recipe" not in result.reason, result.reason


def test_a_vllm_script_the_reader_fails_on_fails_closed_for_the_recipe_check(
    check: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*_: object) -> None:
        raise RuntimeError("a reader bug")

    monkeypatch.setattr("signoff.parse.benchmark.script.Evaluator.run", crash)
    result = check(_script_only(FIXED_PATH, SCRIPT), "recipe")
    assert result.status == "FAIL", result.reason
    assert FIXED_PATH in result.reason and "could not be evaluated" in result.reason
