"""Checks 6 (upstream image / engine-first), 7 (no architecture hacks), 8 (spec-decode chat
template) from small evidence variations."""

from __future__ import annotations

import pytest
from builders import (
    NEW_ENTRY,
    SCRIPT,
    SCRIPT_PATH,
    passing_parts,
    replace_file,
    set_signoff_body,
    signoff_body,
    with_new_entry,
)


def _with_new_entry(entry: str, parts: dict | None = None) -> dict:
    return with_new_entry(parts or passing_parts(), entry)


def _entry(**changes: str) -> str:
    text = NEW_ENTRY
    for old, new in changes.items():
        text = text.replace(old.replace("__", " "), new)
    return text


def _with_script(text: str, parts: dict | None = None) -> dict:
    parts = parts or passing_parts()
    replace_file(parts, SCRIPT_PATH, "head", text)
    return parts


# --- Check 6 -------------------------------------------------------------------------------------
def test_upstream_vllm_image_passes(check):
    result = check(passing_parts(), "upstream-image")
    assert result.status == "PASS"
    assert "vllm/vllm-openai:v0.11.1" in result.reason


def test_no_master_config_change_is_not_applicable(check):
    parts = passing_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] == SCRIPT_PATH]
    assert check(parts, "upstream-image").status == "N/A"


def test_vendor_fork_image_on_an_established_sku_fails(check):
    parts = _with_new_entry(NEW_ENTRY.replace("vllm/vllm-openai:v0.11.1", "rocm/vllm-dev:nightly"))
    result = check(parts, "upstream-image")
    assert result.status == "FAIL"
    assert "rocm/vllm-dev:nightly" in result.reason and "b200" in result.reason


def _fork_image_with_detail(line: str) -> dict:
    parts = _with_new_entry(NEW_ENTRY.replace("vllm/vllm-openai:v0.11.1", "rocm/vllm-dev:nightly"))
    detail = f"- Recipe: https://github.com/vllm-project/recipes/pull/612\n- {line}"
    set_signoff_body(parts, signoff_body(detail=detail))
    return parts


@pytest.mark.parametrize(
    "line",
    [
        "Exception: DeepSeek-V4 is a new model architecture that upstream vLLM images lack.",
        "B200 counts as new hardware for this recipe.",
        "dsv4: new architecture; vLLM does not fundamentally support it yet.",
        "Upstream vLLM does not fundamentally support deepseek-ai/DeepSeek-V4-Pro on b200.",
        "B200 is not the issue, but DeepSeek-V4-Pro is a new architecture.",
    ],
)
def test_an_asserted_exception_naming_the_sku_or_model_allows_a_fork_image(check, line):
    result = check(_fork_image_with_detail(line), "upstream-image")
    assert result.status == "PASS", result.reason
    assert "exception documented" in result.reason


@pytest.mark.parametrize(
    "line",
    [
        "B200 is not new hardware.",
        "B200 isn't new hardware and DeepSeek-V4 is no new architecture.",
        "B200 is established, rather than new hardware.",
        "This is neither new hardware nor a new architecture for dsv4 on B200.",
        "We ran dsv4 on B200 without any new hardware.",
        "Is B200 new hardware?",
        "Exception: new model architecture; upstream vLLM does not fundamentally support it yet.",
        "B200 recipe: see https://x.test/new-hardware/new-architecture",
        "[new hardware](https://x.test/b200)",
        "It is not true that vLLM does not fundamentally support dsv4.",
        "B200 is never new hardware.",
    ],
)
def test_a_negated_unnamed_or_url_only_exception_is_no_exception(check, line):
    result = check(_fork_image_with_detail(line), "upstream-image")
    assert result.status == "FAIL", line
    assert "`rocm/vllm-dev:nightly`" in result.reason


def test_the_fail_reason_says_why_exception_wording_did_not_count(check):
    result = check(_fork_image_with_detail("B200 is not new hardware."), "upstream-image")
    assert "negated, a question, or does not name `b200` or `dsv4`" in result.reason


def test_new_hardware_sku_is_exempt(check):
    entry = NEW_ENTRY.replace(
        "vllm/vllm-openai:v0.11.1", "ghcr.io#semianalysisai/vllm-rtx:v1"
    ).replace("runner: b200", "runner: rtx6000pro-lat")
    assert check(_with_new_entry(entry), "upstream-image").status == "PASS"


def test_digest_pinned_upstream_image_passes(check):
    entry = NEW_ENTRY.replace(
        "vllm/vllm-openai:v0.11.1", '"vllm/vllm-openai@sha256:' + "ab" * 32 + '"'
    )
    assert check(_with_new_entry(entry), "upstream-image").status == "PASS"


def test_trt_entry_without_a_vllm_or_sglang_sibling_fails_engine_first(check):
    entry = (
        NEW_ENTRY.replace("dsv4-fp4-b200-vllm-mtp", "dsv4-fp4-b300-trt-mtp")
        .replace("vllm/vllm-openai:v0.11.1", "nvcr.io#nvidia/tensorrt-llm/release:1.2.0")
        .replace("framework: vllm", "framework: trt")
        .replace("runner: b200", "runner: b300")
    )
    result = check(_with_new_entry(entry), "upstream-image")
    assert result.status == "FAIL"
    assert "`dsv4` on b300" in result.reason


def test_trt_entry_after_an_existing_vllm_entry_passes(check):
    entry = (
        NEW_ENTRY.replace("dsv4-fp4-b200-vllm-mtp", "dsv4-fp4-b200-trt-mtp")
        .replace("vllm/vllm-openai:v0.11.1", "nvcr.io#nvidia/tensorrt-llm/release:1.2.0")
        .replace("framework: vllm", "framework: trt")
    )
    assert check(_with_new_entry(entry), "upstream-image").status == "PASS"


def test_unreadable_head_master_config_fails_closed(check):
    parts = passing_parts()
    replace_file(parts, "configs/nvidia-master.yaml", "head", None, state="unavailable")
    assert check(parts, "upstream-image").status == "FAIL"


# --- Check 7 -------------------------------------------------------------------------------------
def test_plain_launch_has_no_architecture_hacks(check):
    assert check(passing_parts(), "no-arch-hacks").status == "PASS"


def test_hf_overrides_fail_with_flag_value_and_line(check):
    script = SCRIPT.replace(
        "  --kv-cache-dtype fp8 \\\n",
        '  --kv-cache-dtype fp8 \\\n  --hf-overrides \'{"use_index_cache": true, "index_topk_freq": 4}\' \\\n',
    )
    result = check(_with_script(script), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "--hf-overrides" in result.reason and "index_topk_freq" in result.reason
    assert f"{SCRIPT_PATH}:" in result.reason


def test_allowlisted_native_override_passes_for_that_model_only(policy):
    from builders import build

    from signoff.judge import judge
    from signoff.rules.no_arch_hacks import ArchOverrideAllow

    rule = ArchOverrideAllow(
        model_prefix="minimaxm3", flag="--hf-overrides", contains="use_index_cache",
        reason="native index cache", decision="https://github.com/SemiAnalysisAI/InferenceX/pull/1#c",
    )  # fmt: skip
    allowing = policy.with_config(policy.arch.model_copy(update={"allowlist": (rule,)}))
    script = SCRIPT.replace(
        "  --kv-cache-dtype fp8 \\\n",
        '  --kv-cache-dtype fp8 \\\n  --hf-overrides \'{"text_config": {"use_index_cache": true}}\' \\\n',
    )
    parts = passing_parts()
    path = "benchmarks/single_node/agentic/minimaxm3_fp4_mi355x_mtp.sh"
    parts["changed_files"].append({"path": path, "status": "added", "patch": "+x"})
    replace_file(parts, path, "head", script)
    verdict = judge(build(parts), allowing)
    result = next(c for c in verdict.checks if c.id == "no-arch-hacks")
    assert result.status == "PASS"
    assert "native index cache" in result.reason and "pull/1#c" in result.reason
    other = path.replace("minimaxm3", "dsv4")
    parts["changed_files"][-1]["path"] = other
    replace_file(parts, other, "head", script)
    verdict = judge(build(parts), allowing)
    assert next(c for c in verdict.checks if c.id == "no-arch-hacks").status == "FAIL"


def test_the_shipped_allowlist_is_empty(policy):
    assert policy.arch.allowlist == ()


def test_hf_overrides_key_added_to_a_master_config_fails(check):
    entry = NEW_ENTRY + "  # hf_overrides: {num_hidden_layers: 30}\n"
    parts = _with_new_entry(entry.replace("  # hf_overrides", "  hf_overrides"))
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "hf_overrides" in result.reason


def test_sed_edit_of_the_model_config_fails(check):
    script = SCRIPT.replace(
        'hf download "$MODEL"',
        'hf download "$MODEL"\nsed -i \'s/"num_hidden_layers": 61/"num_hidden_layers": 30/\' "$HF_HOME/config.json"',
    )
    result = check(_with_script(script), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "sed -i" in result.reason


# An inline program rewriting the model's config (layer or expert counts, `sed`/`jq` over a
# config.json) cuts FLOPs as a `sed -i` line does; a heredoc that only mentions neither is fine.
@pytest.mark.parametrize(
    "program, body",
    [
        (
            "python3 -",
            "import json\np = '/models/m/config.json'\nc = json.load(open(p))\n"
            "c['num_hidden_layers'] = 30\njson.dump(c, open(p, 'w'))",
        ),
        ("bash", "jq '.num_experts_per_tok = 4' /models/m/config.json > /tmp/c.json"),
    ],
)
def test_an_inline_program_editing_the_model_config_fails(check, program, body):
    script = SCRIPT.replace(
        'hf download "$MODEL"', f"hf download \"$MODEL\"\n{program} <<'IN'\n{body}\nIN"
    )
    result = check(_with_script(script), "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert "config" in result.reason or "num_" in result.reason


# Replacing the model's config.json wholesale (a copy, a move, a link, tee, a redirect) is an
# edit of it; a test that it exists, or a redirect of something else, is not.
@pytest.mark.parametrize(
    "command",
    [
        'cp /tmp/trimmed.json "$HF_HOME/hub/models--org--m/snapshots/main/config.json"',
        'mv "$(dirname "$0")/c.json" /models/m/config.json',
        "ln -sf /tmp/trimmed.json /models/m/config.json",
        "cat /tmp/trimmed.json | tee /models/m/config.json",
        "echo '{\"num_attention_heads\": 8}' > /models/m/config.json",
        'jq -c . /tmp/trimmed.json >> "$HF_HOME/m/config.json"',
        "cat /tmp/trimmed.json > \\\n  /models/m/config.json",
    ],
)
def test_replacing_the_model_config_fails(check, command):
    script = SCRIPT.replace('hf download "$MODEL"', f'hf download "$MODEL"\n{command}')
    result = check(_with_script(script), "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert "config.json" in result.reason


def test_checking_that_the_model_config_exists_passes(check):
    script = SCRIPT.replace(
        'hf download "$MODEL"',
        'hf download "$MODEL"\n[[ -f /models/m/config.json ]] > /tmp/seen.log || exit 1',
    )
    assert check(_with_script(script), "no-arch-hacks").status == "PASS"


def test_an_inline_program_that_edits_no_model_config_passes(check):
    script = SCRIPT.replace(
        'hf download "$MODEL"',
        "hf download \"$MODEL\"\npython3 - <<'PY'\nprint(open('/models/m/config.json').read())\nPY",
    )
    assert check(_with_script(script), "no-arch-hacks").status == "PASS"


def test_docs_only_change_has_no_server_args(check):
    parts = passing_parts()
    parts["changed_files"] = [{"path": "README.md", "status": "modified", "patch": "+hi"}]
    assert check(parts, "no-arch-hacks").status == "N/A"


# --- Check 8 -------------------------------------------------------------------------------------
def test_spec_decode_recipe_with_chat_template_passes(check):
    result = check(passing_parts(), "spec-chat-template")
    assert result.status == "PASS"
    assert "dsv4_fp4_b200_vllm_mtp.sh" in result.reason


def test_spec_decode_recipe_on_raw_completions_fails_naming_the_line(check):
    script = SCRIPT.replace(
        '  --result-filename "$RESULT_FILENAME" \\\n  --use-chat-template\n',
        '  --result-filename "$RESULT_FILENAME"\n',
    )
    result = check(_with_script(script), "spec-chat-template")
    assert result.status == "FAIL"
    assert "without --use-chat-template" in result.reason
    assert f"{SCRIPT_PATH}:" in result.reason


def test_dsv4_client_flag_implies_the_chat_template(check):
    script = SCRIPT.replace("--use-chat-template", "--dsv4")
    assert check(_with_script(script), "spec-chat-template").status == "PASS"


def test_non_spec_config_is_not_applicable(check):
    entry = NEW_ENTRY.replace("dsv4-fp4-b200-vllm-mtp", "dsv4-fp4-b200-vllm-tp4").replace(
        ", spec-decoding: mtp", ""
    )
    parts = _with_new_entry(entry)
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    assert check(parts, "spec-chat-template").status == "N/A"


def test_agentic_spec_decode_replays_through_chat_completions(check):
    entry = (
        "minimaxm3-fp8-h200-vllm-agentic-mtp:\n  image: vllm/vllm-openai:v0.11.1\n"
        "  model: MiniMaxAI/MiniMax-M3\n  model-prefix: minimaxm3\n  precision: fp8\n"
        "  framework: vllm\n  runner: cluster:h200-dgxc\n  multinode: false\n  scenarios:\n"
        "    agentic-coding:\n      - search-space:\n"
        "          - { tp: 8, kv-offloading: none, spec-decoding: mtp, conc-list: [4, 8] }\n"
    )
    parts = _with_new_entry(entry)
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    result = check(parts, "spec-chat-template")
    assert result.status == "PASS"
    assert "agentic" in result.reason


def test_missing_script_of_a_spec_entry_fails_closed(check):
    parts = passing_parts()
    parts["files"] = [f for f in parts["files"] if f["path"] != SCRIPT_PATH]
    assert check(parts, "spec-chat-template").status == "FAIL"


def test_a_script_too_hostile_to_read_fully_fails_closed(check):
    hostile = SCRIPT + "X=" + "$(" * 3000 + ")" * 3000 + "\n"
    result = check(_with_script(hostile), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "could not be fully read" in result.reason


_MULTI_NODE_MTP = (
    "dsv4-fp4-gb200-dynamo-trt-mtp:\n  image: nvcr.io#nvidia/ai-dynamo/tensorrtllm-runtime:0.6.1\n"
    "  model: deepseek-ai/DeepSeek-V4-Pro\n  model-prefix: dsv4\n  precision: fp4\n"
    "  framework: dynamo-trt\n  runner: gb200\n  multinode: true\n  disagg: true\n"
    "  kv-p2p-transfer: nixl\n  scenarios:\n    fixed-seq-len:\n      - isl: 8192\n        osl: 1024\n"
    "        search-space:\n          - spec-decoding: mtp\n            conc-list: [256]\n"
    "            prefill: { num-worker: 1, tp: 4 }\n            decode: { num-worker: 1, tp: 8 }\n"
)


def _multi_node_parts(recipe_line: str) -> dict:
    parts = _with_new_entry(_MULTI_NODE_MTP)
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    parts["changed_files"].append(
        {
            "path": "benchmarks/multi_node/srt-slurm-recipes/dsv4/gb200-mtp.yaml",
            "status": "added",
            "patch": f"@@ -0,0 +1,3 @@\n+benchmark:\n+  isl: 8192\n+  {recipe_line}",
        }
    )
    return parts


def test_multi_node_spec_recipe_that_enables_the_chat_template_passes(check):
    result = check(_multi_node_parts("use_chat_template: true"), "spec-chat-template")
    assert result.status == "PASS"
    assert "multi-node recipe" in result.reason


def test_multi_node_spec_recipe_without_the_chat_template_fails(check):
    result = check(_multi_node_parts("osl: 1024"), "spec-chat-template")
    assert result.status == "FAIL"
    assert "dsv4-fp4-gb200-dynamo-trt-mtp" in result.reason


def test_an_unbalanced_quote_that_could_hide_an_override_fails_closed(check):
    hostile = SCRIPT.replace("hf download", "echo 'hf download", 1)
    result = check(_with_script(hostile), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "could not be fully read" in result.reason and "unterminated" in result.reason


def test_a_multi_node_spec_entry_naming_no_recipe_fails_naming_the_unread_client_script(check):
    # the AMD multi-node shape: the launcher runs the client script (bench.sh) by file
    parts = _with_new_entry(_MULTI_NODE_MTP)
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    result = check(parts, "spec-chat-template")
    assert result.status == "FAIL"
    assert "no multi-node recipe is named (CONFIG_FILE)" in result.reason
    assert "runs by file, which signoff does not read" in result.reason
