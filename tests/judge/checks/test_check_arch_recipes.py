"""Check 7 reads the server settings a PR adds to a multi-node recipe: an override there is an
override, as in a script or a master config."""

from __future__ import annotations

import pytest
from builders import (
    MULTI_NODE_HEAD,
    add_changed_file,
    passing_parts,
    unified_patch,
    with_new_entry,
)

RECIPE = "benchmarks/multi_node/srt-slurm-recipes/sglang/dsv4/8k1k/disagg-mtp.yaml"
HEAD = "name: dsv4\nsglang_config:\n  decode:\n    tensor-parallel-size: 8\n"


@pytest.mark.parametrize(
    "added",
    [
        "    json-model-override-args: '{\"num_hidden_layers\": 2}'\n",
        "    json_model_override_args: '{\"n_routed_experts\": 64}'\n",
        "    hf-overrides:\n      num_experts_per_tok: 4\n",
        '    "hf_overrides": {"text_config": {"use_index_cache": true}}\n',
        '    extra_args: ["--hf-overrides={\\"num_hidden_layers\\": 2}"]\n',
    ],
)
def test_an_override_a_pr_adds_to_a_recipe_fails(check, added):
    parts = passing_parts()
    add_changed_file(parts, RECIPE, HEAD + added, read=False)
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert f"{RECIPE} (added line)" in result.reason
    assert "overrides model architecture" in result.reason


@pytest.mark.parametrize(
    "added",
    [
        "    kv-cache-dtype: fp8\n",
        "    speculative-algorithm: EAGLE\n",
        "    # hf-overrides: not used\n",  # a comment sets nothing
        "    disable-hf-overrides-check: true\n",  # another key that holds the words
    ],
)
def test_other_recipe_settings_pass(check, added):
    parts = passing_parts()
    add_changed_file(parts, RECIPE, HEAD + added, read=False)
    assert check(parts, "no-arch-hacks").status == "PASS", check(parts, "no-arch-hacks").reason


def test_an_override_a_recipe_already_had_is_not_held_against_the_pr(check):
    parts = passing_parts()
    base = HEAD + "    json-model-override-args: '{\"num_hidden_layers\": 2}'\n"
    patch = unified_patch(base, base + "    kv-cache-dtype: fp8\n")
    parts["changed_files"].append({"path": RECIPE, "status": "modified", "patch": patch})
    assert check(parts, "no-arch-hacks").status == "PASS", check(parts, "no-arch-hacks").reason


def test_a_yaml_file_outside_the_multi_node_recipes_is_not_read_as_one(check):
    parts = passing_parts()
    add_changed_file(parts, "utils/evals/overrides.yaml", "hf-overrides: {}\n", read=False)
    assert check(parts, "no-arch-hacks").status == "PASS", check(parts, "no-arch-hacks").reason


@pytest.mark.parametrize(
    ("added", "written"),
    [
        ("model:\n  path: /infmax-workspace/tools/model\n", "tools/model/config.json"),
        ("    tokenizer-path: /infmax-workspace/tools/tok\n", "tools/tok/tokenizer.json"),
        ("    config: /workspace/tools/decode.yaml\n", "tools/decode.yaml"),
        ('    hf-config-path: "/infmax-workspace/tools/cfg"\n', "tools/cfg/config.json"),
    ],
)
def test_a_recipe_setting_naming_a_checkout_file_the_pr_writes_fails(check, added, written):
    """Where the job's containers see the checkout (`paths.checkout_mounts`), a setting's
    path is a file the PR wrote that the engine reads, and signoff does not read as it does."""
    parts = passing_parts()
    add_changed_file(parts, RECIPE, HEAD + added, read=False)
    add_changed_file(parts, written, "{}\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert f"`{written}` (a file this PR adds or changes, which the engine reads" in result.reason


@pytest.mark.parametrize(
    "added",
    [
        "model:\n  path: deepseek-ai/DeepSeek-V4-Pro\n",  # a hub id
        "    tokenizer-path: tools/tok\n",  # relative: the orchestrator's working directory
        "    INFMAX_CONTAINER_WORKSPACE: /infmax-workspace\n",
        "    command: bash /infmax-workspace/tools/tok/run.sh\n",  # a command: engine-patches'
        "    script: /infmax-workspace/benchmarks/multi_node/agentic_srt.sh\n",  # read as one
    ],
)
def test_a_recipe_setting_naming_no_checkout_file_the_engine_reads_passes(check, added):
    parts = passing_parts()
    add_changed_file(parts, RECIPE, HEAD + added, read=False)
    add_changed_file(parts, "tools/tok/tokenizer.json", "{}\n")
    add_changed_file(parts, "benchmarks/multi_node/agentic_srt.sh", "echo client\n")
    assert check(parts, "no-arch-hacks").status == "PASS", check(parts, "no-arch-hacks").reason


# A multi-node entry whose `additional-settings` the sweep step exports before the launcher runs
# (benchmark-multinode-tmpl.yml: `export ${{ join(...additional-settings, ' ') }}`).
MULTI_NODE = (
    MULTI_NODE_HEAD
    + """\
    fixed-seq-len:
    - isl: 1024
      osl: 1024
      search-space:
      - conc-list: [4, 24]
        prefill:
          num-worker: 1
          tp: 4
          additional-settings:
          - "CONFIG_FILE=recipes/trtllm/dsv4/c4.yaml"
{setting}
        decode:
          num-worker: 1
          tp: 8
"""
)


@pytest.mark.parametrize(
    ("setting", "written"),
    [
        ('          - "BASH_ENV=tools/env.sh"', "tools/env.sh"),  # every later bash runs it
        ('          - "PYTHONPATH=/infmax-workspace/tools/py"', "tools/py/x.py"),
        ("          - 'TRITON_PTXAS_PATH=/infmax-workspace/tools/ptxas'", "tools/ptxas"),
        ('          additional: ["A=1", "BASH_ENV=tools/env.sh"]', "tools/env.sh"),  # flow list
    ],
)
def test_a_master_config_setting_the_sweep_exports_naming_a_pr_file_fails(check, setting, written):
    parts = with_new_entry(passing_parts(), MULTI_NODE.replace("{setting}", setting))
    add_changed_file(parts, written, "echo hi\n")
    for check_id in ("no-arch-hacks", "engine-patches"):
        result = check(parts, check_id)
        assert result.status == "FAIL", (check_id, result.reason)
        assert "configs/nvidia-master.yaml:" in result.reason and written in result.reason


def test_master_config_settings_naming_no_pr_file_pass(check):
    setting = '          - "SYNTHETIC_ACCEPTANCE=true"\n          - "PREFILL_NODES=1"'
    parts = with_new_entry(passing_parts(), MULTI_NODE.replace("{setting}", setting))
    add_changed_file(parts, "tools/env.sh", "echo hi\n")
    result = check(parts, "no-arch-hacks")
    assert "configs/nvidia-master.yaml:" not in result.reason, result.reason


def test_a_recipe_github_sent_no_patch_for_is_unverified(check):
    """GitHub leaves the patch out of a large diff: what the PR added to the recipe is not
    known, so it fails closed rather than pass unread."""
    parts = passing_parts()
    parts["changed_files"].append({"path": RECIPE, "status": "modified", "patch": None})
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert f"{RECIPE}: GitHub sent no patch" in result.reason
