"""Property tests: the master-config and script parsers never raise, whatever text they get."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from signoff.parse.acceptance_launch import read_launch_acceptance
from signoff.parse.bench_script import evaluate, read_script
from signoff.parse.engine_patches import find_in_run, find_patches, helper_scripts
from signoff.parse.master_config import (
    MasterConfig,
    diff_entries,
    parse_master_config,
    script_candidates,
)
from signoff.parse.script_text import command_spans_at
from signoff.policy import ImagePolicy, load_policy

ROOT = Path(__file__).resolve().parents[2]

SKU_PATTERN = ImagePolicy.model_fields["sku_pattern"].default

SHELL_PIECES = st.sampled_from(
    [
        "vllm serve ", "python3 -m sglang.launch_server ", "trtllm-serve ", "nohup ", "$(", ")",
        "${", "}", "$((", "))", "'", '"', "\\\n", "\n", " --tp ", "--speculative-config=",
        '{"method": "mtp"}', "[[ -n $X ]] && ", "if true; then ", "else ", "fi\n", "case $A in ",
        "a) ", ";;", "esac\n", "<<EOF\n", "EOF\n", "A=(1 2)", "${A[@]}", "X=", "$X", "&", "|",
        ";", "#", "`", "2>&1 ", "> log ", "run_benchmark_serving ", "--use-chat-template ",
        "export ", "for i in 1 2; do ", "done\n", "(", "${X:-8}", "$'", "<<<", "&>",
        "f() { ", "}\n", "f ", "true || ", "false && ", "exit 0\n", "exit 1\n", "while x; do ",
        "local A=", "[ \"$TP\" = 8 ]", "A+=(x)", "${A[@]:-}", "${#A[@]}", "$((TP*2))", "return ",
        "source benchmark_lib.sh\n", "eval ", "shift ", "set -- a b\n", "[[ $X == a* ]]",
    ]
)  # fmt: skip
YAML_PIECES = st.sampled_from(
    [
        "dsv4-fp4-b200-vllm:\n", "  image: ", '"vllm/vllm-openai:v0.11.0"', "nvcr.io#nvidia/x:1",
        "\n", "  framework: vllm\n", "  runner: cluster:b300-nv\n", "  multinode: false\n",
        "  scenarios:\n", "    fixed-seq-len:\n", "      - search-space:\n",
        "          - {tp: 8, spec-decoding: mtp}\n", "&a ", "*a", "<<: *a\n", "- ", ": ", "{",
        "}", "[", "]", "'", '"', "\t", "? ", "!!python/object ",
        "model-prefix: dsv4\n", "precision: fp4\n", "%YAML 1.2\n", "---\n", "...\n", "&b [*b]\n",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(), st.lists(SHELL_PIECES, max_size=40).map("".join)))
def test_the_script_reader_never_fails_internally_on_arbitrary_text(text: str) -> None:
    script = read_script(text, "benchmarks/x.sh")
    for env in (None, {"TP": "8", "X": "a", "DP_ATTENTION": "false"}):
        run = evaluate(script, env)
        internal = [p for p in run.problems if "script could not be" in p]  # reader bugs
        assert internal == []
        assert run.complete == (not run.problems)
        lines = [launch.line for launch in run.launches]
        assert lines == sorted(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(), st.lists(YAML_PIECES, max_size=40).map("".join)))
def test_parse_master_config_never_raises_on_arbitrary_text(text: str) -> None:
    config = parse_master_config(text, "configs/nvidia-master.yaml", SKU_PATTERN)
    assert isinstance(config, MasterConfig)
    for change in diff_entries(None, config):
        assert change.head is not None
        script_candidates(change.head)


def test_a_recursive_alias_is_a_problem_not_a_crash() -> None:
    text = (
        "dsv4-fp4-b200-vllm: &e\n  image: vllm/vllm-openai:v0.11.0\n  framework: vllm\n"
        "  runner: b200\n  multinode: false\n  self: *e\n"
    )
    config = parse_master_config(text, "c.yaml", SKU_PATTERN)
    assert config.entries == {}
    assert config.problems[-1] == "c.yaml:1: an alias refers to the node that contains it"


KNOB_PIECES = st.sampled_from(
    [
        "export SGLANG_SIMULATE_ACC_LEN=", "2.49", "$(printf '%.2f' 2.49)", "TLLM_SPEC_DECODE",
        "--speculative-config ", '\'{"synthetic_acceptance_length": 2.49}\'', "--spec-decode-",
        "acceptance-rate ", "$(awk \"BEGIN{print (2.49-1)/3}\")", "--speculative-num-steps 3 ",
        "git apply x.patch", "sed -i s/a/b/ /usr/lib/python3/site-packages/vllm/x.py",
        "cat > /opt/vllm/x.py <<EOF\nopen('x','w')\nEOF\n", 'bash "$(dirname "$0")/h.sh"',
        'source "$(dirname "$0")/h.sh"', "max_draft_len: 3",
    ]
)  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(SHELL_PIECES, KNOB_PIECES), max_size=40).map("".join))
def test_the_acceptance_and_patch_readers_never_raise_on_what_a_script_runs(text: str) -> None:
    policy = load_policy(ROOT / "checklists" / "inferencex.yaml")
    run = evaluate(read_script(text, "benchmarks/x.sh"), {"EVAL_ONLY": "false"})
    spans = command_spans_at(text)
    assert [span.offset for span in spans] == sorted(span.offset for span in spans)
    for launch in run.launches:
        reading = read_launch_acceptance(launch, policy, policy.golden_al.knobs, (), ())
        assert all(d > 0 for d in reading.drafts)
    hits = find_in_run(text, "benchmarks/x.sh", run, policy.patches, {})
    assert all(hit.path == "benchmarks/x.sh" for hit in hits)
    find_patches(text, "benchmarks/x.sh", policy.patches)
    helper_scripts(text, "benchmarks/x.sh")
