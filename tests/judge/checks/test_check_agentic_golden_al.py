"""Agentic spec-decode uses the golden synthetic acceptance length (E6+)."""

from __future__ import annotations

import pytest
from builders import (
    AGENTIC_ENTRY,
    AGENTIC_SCRIPT,
    AGENTIC_SGLANG,
    GOLDEN_QWEN,
    add_changed_file,
    add_listing,
    agentic_parts,
    build,
    passing_parts,
    set_detail,
)

from signoff.judge.checks import agentic_golden_al
from signoff.judge.context import JudgeContext
from signoff.standards import resolve_standard


def test_the_golden_al_for_model_mode_and_draft_length_passes(check):
    result = check(agentic_parts(), "agentic-golden-al")
    assert result.status == "PASS"
    assert "AL 3.39 = qwen3.5_mtp.yaml thinking_on[3]" in result.reason


def test_an_acceptance_target_other_than_the_golden_fails_naming_both(check):
    result = check(agentic_parts(AGENTIC_SGLANG.replace("=3.39", "=3.60")), "agentic-golden-al")
    assert result.status == "FAIL"
    assert (
        f"{AGENTIC_SCRIPT}:4 SGLANG_SIMULATE_ACC_LEN gives AL 3.6, not the golden 3.39 (draft 3)"
        in (result.reason)
    )


def test_an_agentic_spec_config_without_a_synthetic_knob_fails(check):
    script = AGENTIC_SGLANG.replace("    export SGLANG_SIMULATE_ACC_LEN=3.39\n", "")
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL" and "no synthetic-acceptance knob" in result.reason


def test_real_acceptance_outside_an_eval_only_branch_fails(check):
    script = (
        'vllm serve "$MODEL" --speculative-config '
        '\'{"method": "mtp", "num_speculative_tokens": 3}\'\n'
    )
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL" and "runs real (unsimulated) acceptance" in result.reason


def test_vllm_reads_the_value_through_a_variable_and_a_printf(check):
    script = """\
SYNTHETIC_ACCEPT_LEN=3.39
NUM_SPEC_TOKENS=3
if [ "${EVAL_ONLY}" = "true" ]; then
  SPEC_CONFIG="{\\"method\\": \\"mtp\\", \\"num_speculative_tokens\\": $NUM_SPEC_TOKENS}"
else
  SPEC_CONFIG=$(printf '{"method":"mtp","num_speculative_tokens":%d,"rejection_sample_method":"synthetic","synthetic_acceptance_length":%.2f}' \\
      "$NUM_SPEC_TOKENS" "$SYNTHETIC_ACCEPT_LEN")
fi
vllm serve "$MODEL" --speculative-config "$SPEC_CONFIG"
"""
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "PASS" and "AL 3.39" in result.reason


def test_tensorrt_llm_counts_draft_tokens_so_its_knob_is_the_golden_minus_one(check):
    script = (
        "export TLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS=2.39\n"
        "echo 'max_draft_len: 3' > extra.yaml\ntrtllm-serve \"$MODEL\" --extra_llm_api_options extra.yaml\n"
    )
    assert check(agentic_parts(script), "agentic-golden-al").status == "PASS"
    wrong = script.replace("=2.39", "=3.39")  # the golden written unchanged: AL 4.39
    result = check(agentic_parts(wrong), "agentic-golden-al")
    assert result.status == "FAIL" and "gives AL 4.39" in result.reason


def test_a_thinking_off_config_is_held_to_the_thinking_off_curve(check):
    script = AGENTIC_SGLANG.replace("=3.39", "=3.33").replace(
        '--tp "$TP"', '--tp "$TP" --default-chat-template-kwargs \'{"enable_thinking": false}\''
    )
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "PASS" and "thinking_off[3]" in result.reason


def test_no_agentic_spec_decode_change_is_not_applicable(check):
    assert check(passing_parts(), "agentic-golden-al").status == "N/A"


def test_golden_curves_that_were_not_listed_fail_closed(check):
    result = check(agentic_parts(golden=False), "agentic-golden-al")
    assert result.status == "FAIL" and "golden_al_distribution/ on the default branch" in (
        result.reason
    )


def test_a_value_that_cannot_be_resolved_fails_closed(check):
    script = AGENTIC_SGLANG.replace("=3.39", "=$(curl -s https://example.invalid/al)")
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL" and "cannot be resolved to a number" in result.reason


def test_a_model_without_a_curve_needs_the_al_source_in_the_detail_section(check):
    entry = AGENTIC_ENTRY.replace("model-prefix: qwen3.5", "model-prefix: qwen3.8").replace(
        "Qwen3.5-397B-A17B-FP8", "Qwen3.8-2T"
    )
    script_path = AGENTIC_SCRIPT.replace("qwen3.5", "qwen3.8")
    parts = agentic_parts(entry=entry)
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != AGENTIC_SCRIPT]
    add_changed_file(parts, script_path, AGENTIC_SGLANG)
    result = check(parts, "agentic-golden-al")
    assert result.status == "FAIL" and "does not state the AL source" in result.reason
    set_detail(parts, "- AL source: pending golden AL collection run (speedbench-al.yml)")
    result = check(parts, "agentic-golden-al")
    assert result.status == "PASS" and "AL source stated" in result.reason


def test_synthetic_acceptance_on_a_non_agentic_script_fails(check):
    parts = passing_parts()
    script = parts["files"][5]["text"].replace(
        "vllm serve", "export SGLANG_SIMULATE_ACC_LEN=3.0\nvllm serve", 1
    )
    add_changed_file(parts, parts["files"][5]["path"], script)
    result = check(parts, "agentic-golden-al")
    assert result.status == "FAIL" and "on a non-agentic config" in result.reason


def test_an_engine_knob_counts_only_from_the_standard_that_recognised_it(check):
    script = (
        'python -m atom.entrypoints.openai_server --model "$MODEL" --method mtp '
        "--num-speculative-tokens 3 --spec-decode-acceptance-length 3.39\n"
    )
    parts = agentic_parts(script)
    assert check(parts, "agentic-golden-al", "current").status == "PASS"
    # ATOM's knob arrived on 2026-08-19 (#2667): E6 knew SGLang's, vLLM's and TRT-LLM's only
    e6 = check(parts, "agentic-golden-al", "at:2026-08-01T00:00:00Z")
    assert e6.status == "FAIL" and "no synthetic-acceptance knob" in e6.reason


def test_a_multi_node_entry_opts_into_the_runners_golden_injection(check):
    entry = AGENTIC_ENTRY.replace("multinode: false", "multinode: true").replace(
        "runner: cluster:h200-cw", "runner: gb200"
    )
    parts = agentic_parts(entry=entry)
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != AGENTIC_SCRIPT]
    result = check(parts, "agentic-golden-al")
    assert result.status == "FAIL" and "SYNTHETIC_ACCEPTANCE=true" in result.reason
    opted = entry + '  additional-settings:\n    - "SYNTHETIC_ACCEPTANCE=true"\n'
    parts = agentic_parts(entry=opted)
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != AGENTIC_SCRIPT]
    result = check(parts, "agentic-golden-al")
    assert result.status == "PASS" and "the runner injects the golden AL" in result.reason


def test_the_check_lists_the_curves_then_reads_only_its_models_files(policy):
    parts = agentic_parts(golden=False)
    current = resolve_standard("current", policy)
    ctx = JudgeContext(build(parts), policy, current)
    assert [(w.kind, w.path) for w in agentic_golden_al.wants(ctx)] == [
        ("dir", "golden_al_distribution")
    ]
    add_listing(parts, "golden_al_distribution", "default", ["dsv4_mtp.yaml", "qwen3.5_mtp.yaml"])
    ctx = JudgeContext(build(parts), policy, current)
    assert [w.path for w in agentic_golden_al.wants(ctx)] == ["golden_al_distribution", GOLDEN_QWEN]


RECIPE = "benchmarks/multi_node/srt-slurm-recipes/vllm/deepseek-v4/agentic/agg-gb200-tp8-mtp-agentic.yaml"
RECIPE_TEXT = """\
name: agg-gb200-tp8-mtp-agentic
model:
  path: deepseek-ai/DeepSeek-V4-Pro
backend:
  vllm_config:
    aggregated:
      speculative-config: '{"method": "mtp", "num_speculative_tokens": 3}'
"""
MN_ENTRY = (
    AGENTIC_ENTRY.replace("qwen3.5-fp8-h200-sglang-agentic-mtp", "dsv4-fp4-gb200-vllm-agentic-mtp")
    .replace("multinode: false", "multinode: true")
    .replace("runner: cluster:h200-cw", "runner: gb200")
)


def recipe_parts(recipe_text: str, *, opt_in: bool = False) -> dict:
    """A changed multi-node agentic recipe, run by an (unchanged) entry of the head master."""
    parts = agentic_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != AGENTIC_SCRIPT]
    add_changed_file(parts, RECIPE, recipe_text)
    setting = '    - "SYNTHETIC_ACCEPTANCE=true"\n' if opt_in else ""
    launched = RECIPE.replace("benchmarks/multi_node/srt-slurm-", "")
    runner = MN_ENTRY + f'  additional-settings:\n    - "CONFIG_FILE={launched}"\n{setting}'
    for read in parts["files"]:
        if read["path"] == "configs/nvidia-master.yaml" and read["role"] in ("base", "head"):
            read["text"] = runner + "\n" + read["text"]
    return parts


def test_a_recipe_without_a_knob_passes_when_the_entry_running_it_opts_into_injection(check):
    result = check(recipe_parts(RECIPE_TEXT, opt_in=True), "agentic-golden-al")
    assert result.status == "PASS" and "opts into golden injection" in result.reason
    result = check(recipe_parts(RECIPE_TEXT), "agentic-golden-al")
    assert result.status == "FAIL" and "no synthetic-acceptance knob" in result.reason


def test_a_recipe_knob_is_held_to_the_golden_of_its_model_path(check):
    pinned = RECIPE_TEXT.replace(
        "3}", '3, "rejection_sample_method": "synthetic", "synthetic_acceptance_length": 2.49}'
    )
    parts = recipe_parts(pinned)
    add_listing(parts, "golden_al_distribution", "default", ["dsv4_mtp.yaml"])
    from builders import replace_file

    replace_file(parts, "golden_al_distribution/dsv4_mtp.yaml", "default",
                 "deepseek-v4-pro:\n  thinking_on: {3: 2.49}\n")  # fmt: skip
    result = check(parts, "agentic-golden-al")
    assert result.status == "PASS" and "dsv4_mtp.yaml thinking_on[3]" in result.reason


def test_a_recipe_that_does_not_decode_speculatively_is_not_held_to_a_curve(check):
    plain = RECIPE_TEXT.replace(
        '      speculative-config: \'{"method": "mtp", "num_speculative_tokens": 3}\'\n', ""
    )
    result = check(recipe_parts(plain), "agentic-golden-al")
    assert result.status == "PASS" and "does not decode speculatively" in result.reason


def _orphan_parts() -> dict:
    """The changed recipe of `recipe_parts`, with no entry naming it as its CONFIG_FILE."""
    parts = recipe_parts(RECIPE_TEXT)
    launched = RECIPE.replace("benchmarks/multi_node/srt-slurm-", "")
    for read in parts["files"]:
        if read["path"] == "configs/nvidia-master.yaml" and read["text"]:
            read["text"] = read["text"].replace(f"CONFIG_FILE={launched}", "CONFIG_FILE=other.yaml")
    from builders import replace_file

    replace_file(parts, "configs/amd-master.yaml", "head", None, "missing")
    return parts


def test_a_changed_recipe_no_entry_runs_is_not_benchmarked_so_holds_no_al(check):
    # #2637: a recipe file no master-config entry names is not run by the sweep; the PR that
    # makes an entry run it has the recipe judged through that entry
    result = check(_orphan_parts(), "agentic-golden-al")
    assert result.status == "PASS", result.reason
    assert f"{RECIPE}: no head master-config entry runs it (CONFIG_FILE)" in result.reason


def test_a_changed_recipe_is_judged_when_a_master_config_cannot_be_read(check):
    parts = _orphan_parts()
    from builders import replace_file

    replace_file(parts, "configs/nvidia-master.yaml", "head", None, "unavailable")
    result = check(parts, "agentic-golden-al")
    assert result.status == "FAIL"
    assert "runs it (CONFIG_FILE)" not in result.reason


def test_a_recipe_named_in_any_spelling_a_master_config_gives_is_judged(check):
    # a CONFIG_FILE built from a variable still names the file: the recipe may run
    parts = _orphan_parts()
    name = RECIPE.rsplit("/", 1)[-1]
    for read in parts["files"]:
        if read["path"] == "configs/nvidia-master.yaml" and read["text"]:
            read["text"] = read["text"].replace(
                "CONFIG_FILE=other.yaml", f"CONFIG_FILE=${{DIR}}/{name}"
            )
    result = check(parts, "agentic-golden-al")
    assert result.status == "FAIL" and "no synthetic-acceptance knob" in result.reason


def test_a_recipe_named_by_a_quoted_config_file_setting_is_run(check):
    parts = recipe_parts(RECIPE_TEXT)
    launched = RECIPE.replace("benchmarks/multi_node/srt-slurm-", "")
    for read in parts["files"]:
        if read["path"] == "configs/nvidia-master.yaml" and read["text"]:
            read["text"] = read["text"].replace(
                f'"CONFIG_FILE={launched}"', f"CONFIG_FILE='{launched}'"
            )
    result = check(parts, "agentic-golden-al")
    assert result.status == "FAIL" and "no synthetic-acceptance knob" in result.reason


# --- what the benchmark job runs: dead code never pins the AL --------------------------------

HEAD = '#!/usr/bin/env bash\nsource "$(dirname "$0")/../../benchmark_lib.sh"\n'
SERVE = (
    'python3 -m sglang.launch_server --model-path "$MODEL" --tp "$TP" \\\n'
    "    --speculative-algorithm EAGLE --speculative-num-steps 3 \\\n"
    "    --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 &\n"
)
TAIL = 'run_agentic_replay_and_write_outputs "$RESULT_DIR"\n'
KNOB = "export SGLANG_SIMULATE_ACC_LEN=3.39"
DEAD_KNOBS = {
    "false &&": f"false && {KNOB}\n",
    "true ||": f"true || {KNOB}\n",
    "uncalled function": f"pin_golden_al() {{\n    {KNOB}\n}}\n",
    "if false": f"if false; then\n    {KNOB}\nfi\n",
    "eval-only arm": f'if [ "${{EVAL_ONLY:-false}}" = "true" ]; then\n    {KNOB}\nfi\n',
    "comment": f"# {KNOB}\n",
    "not exported": "SGLANG_SIMULATE_ACC_LEN=3.39\n",
    "another variable's value": f'export NOTE="{KNOB.removeprefix("export ")}"\n',
    "after the launch": "",
}


@pytest.mark.parametrize("case", sorted(DEAD_KNOBS))
def test_a_knob_the_benchmark_job_never_sets_for_the_server_does_not_pin_the_al(check, case):
    if case == "after the launch":
        script = HEAD + SERVE + f"{KNOB}\n" + TAIL
    else:
        script = HEAD + DEAD_KNOBS[case] + SERVE + TAIL
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL", result.reason
    assert "no synthetic-acceptance knob" in result.reason
    assert f"{AGENTIC_SCRIPT}:" in result.reason


def test_a_knob_set_under_a_condition_that_cannot_be_decided_counts_against(check):
    script = HEAD + f"if [ -f /etc/simulate-acceptance ]; then\n    {KNOB}\nfi\n" + SERVE + TAIL
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL"
    assert "SGLANG_SIMULATE_ACC_LEN is set only when" in result.reason
    assert "`[ -f /etc/simulate-acceptance ]` (line 3) could not be decided" in result.reason


def test_a_synthetic_vllm_config_in_a_dead_arm_does_not_hide_the_real_one_that_runs(check):
    script = (
        HEAD + 'SPEC=\'{"method": "mtp", "num_speculative_tokens": 3}\'\n'
        'false && SPEC=\'{"method": "mtp", "num_speculative_tokens": 3, '
        '"rejection_sample_method": "synthetic", "synthetic_acceptance_length": 3.39}\'\n'
        'vllm serve "$MODEL" --speculative-config "$SPEC" &\n' + TAIL
    )
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL" and "real (unsimulated) acceptance" in result.reason


def test_a_synthetic_length_without_the_synthetic_rejection_method_is_real_acceptance(check):
    script = (
        HEAD + 'vllm serve "$MODEL" --speculative-config \'{"method": "mtp", '
        '"num_speculative_tokens": 3, "synthetic_acceptance_length": 3.39}\' &\n' + TAIL
    )
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL"
    assert '"rejection_sample_method": "synthetic"' in result.reason


def test_the_synthetic_json_in_another_flags_value_does_not_pin_the_al(check):
    script = (
        HEAD + 'vllm serve "$MODEL" --speculative-config \'{"method": "mtp", '
        '"num_speculative_tokens": 3}\' --served-model-name \'{"rejection_sample_method": '
        '"synthetic", "synthetic_acceptance_length": 3.39}\' &\n' + TAIL
    )
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL" and "real (unsimulated) acceptance" in result.reason


def test_atom_acceptance_rate_computed_with_awk_is_read_as_the_golden_al(check):
    script = (
        HEAD + "SIMULATE_ACC_LEN=3.39\nNUM_SPEC_TOKENS=3\n"
        'RATE=$(awk "BEGIN{print ($SIMULATE_ACC_LEN-1)/$NUM_SPEC_TOKENS}")\n'
        'python3 -m atom.entrypoints.openai_server --model "$MODEL" --method mtp '
        '--num-speculative-tokens "$NUM_SPEC_TOKENS" --spec-decode-acceptance-rate "$RATE" &\n'
        + TAIL
    )
    result = check(agentic_parts(script), "agentic-golden-al", "current")
    assert result.status == "PASS", result.reason
    assert "thinking_on[3]" in result.reason


def test_a_synthetic_knob_in_dead_code_of_a_non_agentic_script_is_no_misuse(check):
    parts = passing_parts()
    script = parts["files"][5]["text"].replace(
        "vllm serve", "false && export SGLANG_SIMULATE_ACC_LEN=3.0\nvllm serve", 1
    )
    add_changed_file(parts, parts["files"][5]["path"], script)
    assert check(parts, "agentic-golden-al").status == "N/A"


def test_a_speculative_config_with_a_part_known_only_at_run_time_cannot_pin_the_al(check):
    # a run-time value inside the JSON could close its string and add a later, different key
    script = (
        HEAD + 'NAME="$(cat /tmp/draft-name)"\n'
        'vllm serve "$MODEL" --speculative-config "{\\"method\\": \\"mtp\\", '
        '\\"num_speculative_tokens\\": 3, \\"rejection_sample_method\\": \\"synthetic\\", '
        '\\"synthetic_acceptance_length\\": 3.39, \\"model\\": \\"$NAME\\"}" &\n' + TAIL
    )
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL"
    assert (
        "--speculative-config is `" in result.reason and "known only at run time" in result.reason
    )


NUM_STEPS_HOOK = AGENTIC_SGLANG.replace(
    "--speculative-num-steps 3", '--speculative-num-steps "${NUM_STEPS:-3}"'
).replace("--speculative-num-draft-tokens 4", "")


def test_a_draft_length_hook_nothing_exports_is_read_as_its_default_as_check_3_reads_it(check):
    # the profile lists what the benchmark job exports; NUM_STEPS is not among them, so the
    # launch runs with the default, as the recipe comparison (Check 3) reads the same script
    result = check(agentic_parts(NUM_STEPS_HOOK), "agentic-golden-al")
    assert result.status == "PASS", result.reason
    assert "AL 3.39" in result.reason


def test_a_draft_length_hook_is_not_read_as_its_default_when_the_pr_may_export_it(check):
    parts = agentic_parts(NUM_STEPS_HOOK)
    add_changed_file(parts, "runners/launch_b200-nv.sh", "export NUM_STEPS=7\n")
    result = check(parts, "agentic-golden-al")
    assert result.status == "FAIL"
    assert "draft length of the launch at" in result.reason and "${NUM_STEPS:-3}" in result.reason


def test_a_draft_length_the_sweep_exports_is_not_read_as_its_default(check):
    script = NUM_STEPS_HOOK.replace("${NUM_STEPS:-3}", "${CONC:-3}")
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL"
    assert "draft length of the launch at" in result.reason and "${CONC:-3}" in result.reason


SPEC_JSON = (
    '"{\\"method\\": \\"mtp\\", \\"num_speculative_tokens\\": 3, '
    '\\"rejection_sample_method\\": \\"synthetic\\", \\"synthetic_acceptance_length\\": 3.39}"'
)


def _vllm_with(json_word: str) -> str:
    return (
        HEAD + 'DRAFT="$(cat /tmp/draft-dir)"\n'
        f'vllm serve "$MODEL" --speculative-config {json_word} &\n' + TAIL
    )


def test_a_run_time_model_path_written_before_the_knob_leaves_the_knob_readable(check):
    word = SPEC_JSON.replace('{\\"method', '{\\"model\\": \\"$DRAFT/eagle\\", \\"method')
    result = check(agentic_parts(_vllm_with(word)), "agentic-golden-al")
    assert result.status == "PASS", result.reason


def test_a_run_time_value_standing_alone_before_the_knob_leaves_the_knob_readable(check):
    # `"n": $DRAFT,` cannot re-pair the quotes after it, and keys written later win
    word = SPEC_JSON.replace('{\\"method', '{\\"n\\": $DRAFT, \\"method')
    result = check(agentic_parts(_vllm_with(word)), "agentic-golden-al")
    assert result.status == "PASS", result.reason


@pytest.mark.parametrize(
    "case",
    ["after the knob", "outside a string", "escape after it", "key written at run time"],
)
def test_a_run_time_part_that_could_change_the_knob_makes_it_unreadable(check, case):
    word = {
        "after the knob": SPEC_JSON.replace('3.39}"', '3.39, \\"model\\": \\"$DRAFT\\"}"'),
        "outside a string": SPEC_JSON.replace('{\\"method', '{\\"n\\": 1$DRAFT, \\"method'),
        "escape after it": SPEC_JSON.replace(
            '{\\"method', '{\\"model\\": \\"$DRAFT\\", \\"d\\": \\"a\\\\\\\\b\\", \\"method'
        ),
        "key written at run time": SPEC_JSON.replace('3.39}"', '3.39, \\"$DRAFT\\": 1}"'),
    }[case]
    result = check(agentic_parts(_vllm_with(word)), "agentic-golden-al")
    assert result.status == "FAIL", (case, result.reason)
    assert "known only at run time" in result.reason


PRINTF_SPEC = (
    'CFG=$(printf \'{"method": "eagle3", "model": "%s", "num_speculative_tokens": %d, '
    '"rejection_sample_method": "synthetic", "synthetic_acceptance_length": %.2f}\' '
    '"$DRAFT" 3 3.39)\n'
)


def test_a_printf_config_with_a_run_time_draft_path_before_the_knob_is_read(check):
    script = (
        HEAD
        + 'DRAFT="$(dirname "$MODEL_PATH")/eagle"\n'
        + PRINTF_SPEC
        + ('vllm serve "$MODEL" --speculative-config "$CFG" &\n' + TAIL)
    )
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "PASS", result.reason


def test_a_printf_config_with_a_run_time_word_after_the_knob_is_not_read(check):
    spec = (
        PRINTF_SPEC.replace('"model": "%s", ', "")
        .replace("%.2f}", '%.2f, "model": "%s"}')
        .replace('"$DRAFT" 3 3.39', '3 3.39 "$DRAFT"')
    )
    script = (
        HEAD
        + 'DRAFT="$(cat /tmp/draft)"\n'
        + spec
        + ('vllm serve "$MODEL" --speculative-config "$CFG" &\n' + TAIL)
    )
    assert spec.count("%s") == 1 and '"model": "%s"}' in spec
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL" and "known only at run time" in result.reason


def test_a_launch_that_decodes_without_speculation_needs_no_knob(check):
    script = HEAD + (
        'SPEC_ARGS=()\nif [ "$CONC" -le 4 ]; then\n'
        '    SPEC_ARGS=(--speculative-config \'{"method": "mtp", "num_speculative_tokens": '
        '3, "rejection_sample_method": "synthetic", "synthetic_acceptance_length": 3.39}\')\n'
        'fi\nvllm serve "$MODEL" "${SPEC_ARGS[@]}" &\n' + TAIL
    )
    result = check(agentic_parts(script), "agentic-golden-al")  # conc 4 pins it, conc 8 is plain
    assert result.status == "PASS", result.reason
    assert "AL 3.39 = qwen3.5_mtp.yaml thinking_on[3] (2 benchmark configurations)" in result.reason


def test_a_launch_with_a_run_time_word_where_a_flag_could_stand_is_held_to_the_knob(check):
    script = HEAD + 'vllm serve "$MODEL" $EXTRA_SPEC_ARGS &\n' + TAIL
    result = check(agentic_parts(script), "agentic-golden-al")
    assert result.status == "FAIL" and "no synthetic-acceptance knob" in result.reason
