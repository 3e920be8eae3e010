"""Check 8 on a multi-node node script: a helper the launcher runs once per node, whose role
(prefill, decode, router) and concurrency list its caller hands it. Read with nothing bound,
which calls run is the caller's choice, so the flagged call need not surely run; but no call may
lack the flag and one must carry it. A reading of a configuration still needs a call that surely
runs (test_check_reading_hostile)."""

from __future__ import annotations

from typing import Any

from builders import add_changed_file, passing_parts

NODE_SCRIPT = "benchmarks/multi_node/example_utils/run_node.sh"

LAUNCH = (
    'vllm serve "$MODEL" --port 8000 '
    '--speculative-config \'{"method": "mtp", "num_speculative_tokens": 3}\' &\n'
)


def _node_script(bench_args: str, *, other_arm: str = "") -> str:
    return (
        "#!/usr/bin/env bash\n"
        'source "$(dirname "$0")/../../benchmark_lib.sh"\n'
        "run_bench() {\n"
        "    for conc in $CONC_LIST; do\n"
        '        run_benchmark_serving --model "$MODEL" --port 8000 '
        f'--max-concurrency "$conc" {bench_args}\n'
        "    done\n"
        "}\n"
        'case "$NODE_ROLE" in\n'
        f"    decode)\n        {LAUNCH}        wait ;;\n"
        "    prefill)\n        run_bench ;;\n"
        f"{other_arm}"
        '    *)\n        echo "unknown role $NODE_ROLE"; exit 2 ;;\n'
        "esac\n"
    )


def _with_node_script(text: str) -> dict[str, Any]:
    parts = passing_parts()
    add_changed_file(parts, NODE_SCRIPT, text)
    return parts


def test_a_node_script_whose_caller_picks_the_role_that_benchmarks_passes(check: Any) -> None:
    result = check(_with_node_script(_node_script("--use-chat-template")), "spec-chat-template")
    assert result.status == "PASS", result.reason
    assert "run_node.sh" in result.reason


def test_a_node_script_whose_only_client_call_lacks_the_flag_fails(check: Any) -> None:
    result = check(_with_node_script(_node_script("--num-prompts 10")), "spec-chat-template")
    assert result.status == "FAIL"
    assert f"{NODE_SCRIPT}:5 calls run_benchmark_serving without" in result.reason


def test_a_node_script_with_a_flagless_call_in_another_role_fails(check: Any) -> None:
    other = '    bench)\n        run_benchmark_serving --model "$MODEL" --port 8000 ;;\n'
    text = _node_script("--use-chat-template", other_arm=other)
    result = check(_with_node_script(text), "spec-chat-template")
    assert result.status == "FAIL"
    assert f"{NODE_SCRIPT}:15 calls run_benchmark_serving without" in result.reason


def test_a_node_script_that_calls_no_client_at_all_still_fails(check: Any) -> None:
    text = _node_script("--use-chat-template").replace("run_benchmark_serving", "python3 b.py")
    result = check(_with_node_script(text), "spec-chat-template")
    assert result.status == "FAIL" and "runs no run_benchmark_serving call" in result.reason
