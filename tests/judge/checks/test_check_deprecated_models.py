"""Deprecated models, scenarios, precisions and arms (E7+), against MODELS.md on main."""

from __future__ import annotations

from datetime import date

import pytest
from builders import (
    EXISTING_ENTRY,
    MODELS_MD,
    NEW_ENTRY,
    add_changed_file,
    build,
    passing_parts,
    replace_file,
    unified_patch,
    with_models_md,
)

from signoff.judge.checks import deprecated_models
from signoff.judge.context import JudgeContext
from signoff.parse.models_md import parse_models
from signoff.standards import resolve_standard

MASTER = "configs/nvidia-master.yaml"


def with_entry(entry: str, *, existing: bool = False, reviewed: str = "2026-11-20") -> dict:
    """The PR adds `entry` (or, with `existing`, changes it: its base has another image)."""
    parts = with_models_md(passing_parts())
    base = EXISTING_ENTRY + ("\n" + entry.replace("v0.11.1", "v0.11.0") if existing else "")
    head = EXISTING_ENTRY + "\n" + entry
    parts["changed_files"] = [
        {"path": MASTER, "status": "modified", "patch": unified_patch(base, head)}
    ]
    replace_file(parts, MASTER, "base", base)
    replace_file(parts, MASTER, "head", head)
    parts["reviewed_at"] = f"{reviewed}T12:00:00Z"
    return parts


def renamed(prefix: str, **changes: str) -> str:
    entry = NEW_ENTRY.replace("dsv4-fp4-b200-vllm-mtp", f"{prefix}-fp4-b200-vllm-mtp")
    entry = entry.replace("model-prefix: dsv4", f"model-prefix: {prefix}")
    for old, new in changes.items():
        entry = entry.replace(old, new)
    return entry


AGENTIC_NON_MTP = renamed("dsv4").replace(
    """    fixed-seq-len:
      - isl: 8192
        osl: 1024
        search-space:
          - { tp: 8, ep: 8, dp-attn: true, spec-decoding: mtp, conc-start: 4, conc-end: 128 }""",
    """    agentic-coding:
      - search-space:
          - { tp: 8, ep: 8, kv-offloading: none, conc-list: [4, 8] }""",
)


def test_an_active_model_and_scenario_passes(check):
    result = check(with_models_md(passing_parts()), "deprecated-models")
    assert result.status == "PASS" and "checked against MODELS.md on 2026-11-20" in result.reason


def test_no_config_or_script_change_is_not_applicable(check):
    parts = with_models_md(passing_parts())
    parts["changed_files"] = [
        {"path": "README.md", "status": "modified", "patch": "@@ -1 +1 @@\n+x"}
    ]
    assert check(parts, "deprecated-models").status == "N/A"


def test_a_retired_model_fails_naming_the_models_md_row(check):
    result = check(with_entry(renamed("kimik2.5")), "deprecated-models")
    assert result.status == "FAIL"
    assert "kimik2.5-fp4-b200-vllm-mtp (kimik2.5" in result.reason
    line = next(n for n, ln in enumerate(MODELS_MD.splitlines(), 1) if "`kimik2.5` |" in ln)
    assert f"MODELS.md:{line}" in result.reason and "retired 2026-08-07" in result.reason


def test_a_scenario_deprecated_for_all_models_fails(check):
    entry = renamed("dsv4", **{"isl: 8192": "isl: 1024"})
    result = check(with_entry(entry), "deprecated-models")
    assert result.status == "FAIL" and "ISL/OSL 1024/1024" in result.reason
    assert "Single-turn 1k1k" in result.reason


@pytest.mark.parametrize(("reviewed", "status"), [("2026-08-03", "PASS"), ("2026-08-04", "FAIL")])
def test_the_dated_last_day_is_still_allowed_and_the_day_after_is_not(check, reviewed, status):
    entry = renamed("minimaxm3")
    assert check(with_entry(entry, reviewed=reviewed), "deprecated-models").status == status


def test_a_deprecated_precision_fails_and_another_precision_of_the_model_passes(check):
    bf16 = renamed("qwen3.5", **{"precision: fp4": "precision: bf16"})
    result = check(with_entry(bf16), "deprecated-models")
    assert result.status == "FAIL" and "bf16" in result.reason
    fp8 = renamed("qwen3.5", **{"precision: fp4": "precision: fp8"})
    assert check(with_entry(fp8), "deprecated-models").status == "PASS"


def test_a_not_yet_enacted_arm_blocks_new_configs_but_not_changes_to_running_ones(check):
    added = check(with_entry(AGENTIC_NON_MTP), "deprecated-models")
    assert added.status == "FAIL" and "non-spec-decode arm" in added.reason
    changed = check(with_entry(AGENTIC_NON_MTP, existing=True), "deprecated-models")
    assert changed.status == "PASS" and "not yet enacted" in changed.reason


def test_an_unreadable_models_md_fails_closed(check):
    parts = passing_parts()
    replace_file(parts, "MODELS.md", "default", None, state="unavailable")
    result = check(parts, "deprecated-models")
    assert result.status == "FAIL" and "MODELS.md on the default branch is unreadable" in (
        result.reason
    )


def test_a_bundle_without_a_review_date_fails_closed(check):
    parts = with_models_md(passing_parts())
    parts["reviewed_at"] = ""
    result = check(parts, "deprecated-models")
    assert result.status == "FAIL" and "no review date" in result.reason


def test_a_models_md_without_its_support_matrix_fails_closed(check):
    parts = with_models_md(passing_parts(), MODELS_MD.split("## Model support matrix")[0])
    result = check(parts, "deprecated-models")
    assert result.status == "FAIL" and "Model support matrix" in result.reason


def test_a_script_for_a_retired_model_fails(check):
    parts = with_models_md(passing_parts())
    add_changed_file(
        parts, "benchmarks/single_node/fixed_seq_len/glm5_fp8_h200.sh", "vllm serve x\n"
    )
    result = check(parts, "deprecated-models")
    assert result.status == "FAIL" and "glm5_fp8_h200.sh submits a recipe for glm5" in result.reason


def test_scripts_archived_under_deprecated_directories_are_not_submissions(check):
    parts = with_models_md(passing_parts())
    parts["changed_files"] = [
        {"path": "benchmarks/single_node/fixed_seq_len/deprecated/glm5_fp8_h200.sh",
         "status": "renamed", "patch": None}
    ]  # fmt: skip
    assert check(parts, "deprecated-models").status == "N/A"


def test_the_check_asks_for_models_md_only_when_configs_or_scripts_change(policy):
    current = resolve_standard("current", policy)
    ctx = JudgeContext(build(passing_parts()), policy, current)
    assert [(w.path, w.role) for w in deprecated_models.wants(ctx)] == [("MODELS.md", "default")]
    parts = passing_parts()
    parts["changed_files"] = [{"path": "README.md", "status": "modified", "patch": "+x"}]
    ctx = JudgeContext(build(parts), policy, current)
    assert list(deprecated_models.wants(ctx)) == []


def test_models_md_rules_carry_their_lines_dates_and_enactment():
    doc = parse_models(MODELS_MD)
    assert doc.problems == ()
    rules = {(r.prefix, r.scenario.name if r.scenario else None, r.precision, r.non_spec_arm):
             r for r in doc.deprecations}  # fmt: skip
    minimax = rules[("minimaxm3", "Single-turn 8k1k", None, False)]
    assert minimax.first_day == date(2026, 8, 4) and minimax.enacted
    arm = rules[("dsv4", "Agentic coding", None, True)]
    assert not arm.enacted
    assert rules[("glm5.1", None, None, False)].first_day == date(2026, 7, 18)
    assert rules[(None, "Single-turn 1k1k", None, False)].first_day == date(2026, 7, 17)
    assert rules[("qwen3.5", None, "bf16", False)].first_day == date(2026, 8, 4)
