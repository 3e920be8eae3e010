"""Check 8 on a multi-node recipe the repository does not hold: the launcher's srt-slurm checkout
supplies it. A branch moves, so the recipe the sweep ran cannot be read back; a commit of another
repository is not read either: both fail closed, naming the launcher line and the ref."""

from __future__ import annotations

from builders import passing_parts, replace_file, with_new_entry

RECIPE = "benchmarks/multi_node/srt-slurm-recipes/gb300-fp4/glm5-mtp.yaml"
LAUNCHED = "recipes/gb300-fp4/glm5-mtp.yaml"
LAUNCHER = "runners/launch_gb300-nv.sh"
SHA = "6e34b8b83229634d732e41a4e2d6595f46ef60b5"


def _launcher(ref: str) -> str:
    return (
        "#!/usr/bin/env bash\n"
        'SRT_REPO_DIR="$GITHUB_WORKSPACE/srt-slurm"\n'
        'if [[ $FRAMEWORK == "dynamo-sglang" && $MODEL_PREFIX == "glm5.1" ]]; then\n'
        '    git clone https://github.com/NVIDIA/srt-slurm.git "$SRT_REPO_DIR"\n'
        '    cd "$SRT_REPO_DIR"\n'
        f"    git checkout {ref}\n"
        "else\n"
        '    echo "no recipe checkout"\n'
        "fi\n"
        'srtctl apply -f "$CONFIG_FILE"\n'
    )


def _entry(runner: str) -> str:
    return (
        "glm5-fp4-gb300-dynamo-sglang-mtp:\n  image: lmsysorg/sglang:v0.5.13.post1\n"
        "  model: zai-org/GLM-5.1-NVFP4\n  model-prefix: glm5.1\n  precision: fp4\n"
        f"  framework: dynamo-sglang\n  runner: {runner}\n  multinode: true\n  disagg: true\n"
        "  scenarios:\n    fixed-seq-len:\n      - isl: 8192\n        osl: 1024\n"
        "        search-space:\n          - spec-decoding: mtp\n            conc-list: [64]\n"
        "            prefill:\n              num-worker: 1\n              tp: 4\n"
        f'              additional-settings:\n              - "CONFIG_FILE={LAUNCHED}"\n'
        "            decode: { num-worker: 1, tp: 8 }\n"
    )


def _parts(launcher: str | None, *, runner: str = "gb300") -> dict:
    """A PR that adds a multi-node MTP entry whose recipe the repository lacks (a 404 at the
    head); the runner labels file and the launcher are read at the head."""
    parts = with_new_entry(passing_parts(), _entry(runner), script_changed=False)
    replace_file(parts, RECIPE, "head", None, state="missing")
    labels = "labels:\n  gb300:\n    - gb300-nv_0\n    - gb300-nv_1\n"
    replace_file(parts, "configs/runners.yaml", "head", labels)
    if launcher is not None:
        replace_file(parts, LAUNCHER, "head", launcher)
    return parts


def test_a_recipe_from_a_checkout_at_a_branch_fails_naming_the_launcher_line_and_branch(check):
    result = check(_parts(_launcher("main")), "spec-chat-template")
    assert result.status == "FAIL"
    assert f"`{LAUNCHED}` comes from {LAUNCHER}:6" in result.reason
    assert "NVIDIA/srt-slurm at `main`, a branch, which moves" in result.reason


def test_a_recipe_from_a_checkout_at_a_commit_fails_saying_signoff_reads_no_other_repository(
    check,
):
    result = check(_parts(_launcher(SHA)), "spec-chat-template")
    assert result.status == "FAIL"
    assert f"at `{SHA}`, a commit of another repository, which signoff does not read" in (
        result.reason
    )


def test_a_runner_named_after_its_nodes_finds_the_launcher_those_nodes_run(check):
    result = check(_parts(_launcher("main"), runner="gb300-nv"), "spec-chat-template")
    assert result.status == "FAIL" and f"comes from {LAUNCHER}:6" in result.reason


def test_a_missing_recipe_with_no_launcher_checkout_read_keeps_the_plain_reason(check):
    result = check(_parts(None), "spec-chat-template")
    assert result.status == "FAIL"
    assert f"its recipe {RECIPE} could not be read at the head" in result.reason


def test_a_checkout_the_configuration_does_not_reach_is_not_named(check):
    launcher = _launcher("main").replace('$MODEL_PREFIX == "glm5.1"', '$MODEL_PREFIX == "dsv4"')
    result = check(_parts(launcher), "spec-chat-template")
    assert result.status == "FAIL" and "could not be read at the head" in result.reason
