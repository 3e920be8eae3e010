"""Check 8 on a multi-node entry that names no recipe and whose launcher runs a known chain of
scripts to the benchmark client (AMD amd_utils: entry script -> submit.sh -> job.slurm ->
server.sh -> server_<engine>.sh -> bench.sh): the client script is read with the values the
chain hands it for a spec-decode configuration, and what the PR changed in the chain is read
completely or fails closed naming the file."""

from __future__ import annotations

from builders import add_changed_file, passing_parts, replace_file, with_new_entry

CHAIN = "benchmarks/multi_node/amd_utils"
BENCH = f"{CHAIN}/bench.sh"
SERVER = f"{CHAIN}/server_sglang.sh"
ENTRY_SCRIPT = "benchmarks/multi_node/dsv4_fp4_mi355x_sglang-disagg.sh"

# The shape of amd_utils/bench.sh: the engine and IS_MTP pick the client's extra flags, and the
# concurrencies come from the caller (so the loop's items are unknown to a reader).
BENCH_SH = """\
#!/bin/bash
ENGINE="${ENGINE:-sglang-disagg}"
concurrency_list=${10:-"512x1"}
IFS='x' read -r -a concs <<< "$concurrency_list"
source "$(dirname "$0")/../../benchmark_lib.sh"
for conc in "${concs[@]}"; do
    extra_flags=""
    if [[ "$ENGINE" == "vllm-disagg" ]]; then
        extra_flags="--trust-remote-code"
    elif [ "$IS_MTP" = "true" ]; then
        if [[ "$MODEL_NAME" == "DeepSeek-V4-Pro" ]]; then
            extra_flags="--dsv4"
        else
            extra_flags="--use-chat-template"
        fi
    fi
    run_benchmark_serving \\
        --model "$MODEL_PATH" \\
        --max-concurrency "$conc" \\
        --result-dir /workspace/ \\
        $extra_flags
done
"""

SERVER_SH = """\
#!/bin/bash
DECODE_MTP_SIZE="${DECODE_MTP_SIZE:-0}"
DECODE_FLAGS="--mem-fraction-static 0.8"
if [ "$DECODE_MTP_SIZE" -gt 0 ]; then
    export IS_MTP=true
else
    export IS_MTP=false
fi
echo "$DECODE_FLAGS"
"""


def _entry(framework: str = "sglang-disagg", runner: str = "mi355x-disagg") -> str:
    return (
        f"dsv4-fp4-mi355x-{framework}-mtp:\n  image: lmsysorg/sglang-rocm:v0.5.15-rocm720-mi35x\n"
        "  model: deepseek-ai/DeepSeek-V4-Pro\n  model-prefix: dsv4\n  precision: fp4\n"
        f"  framework: {framework}\n  runner: {runner}\n  multinode: true\n  disagg: true\n"
        "  scenarios:\n    fixed-seq-len:\n      - isl: 8192\n        osl: 1024\n"
        "        search-space:\n          - spec-decoding: mtp\n            conc-list: [64]\n"
        "            prefill: { num-worker: 1, tp: 8 }\n"
        "            decode:\n              num-worker: 1\n              tp: 8\n"
        '              additional-settings:\n              - "DECODE_MTP_SIZE=2"\n'
    )


def _chain_parts(framework: str = "sglang-disagg", *, runner: str = "mi355x-disagg") -> dict:
    """A PR that adds an AMD multi-node MTP entry; the chain's files are unchanged and bench.sh
    is read at the head."""
    parts = with_new_entry(passing_parts(), _entry(framework, runner), script_changed=False)
    replace_file(parts, BENCH, "head", BENCH_SH)
    return parts


def _judge(check, parts: dict):
    return check(parts, "spec-chat-template")


def test_an_amd_multi_node_mtp_entry_passes_when_the_unchanged_chain_client_passes_the_template(
    check,
):
    result = _judge(check, _chain_parts())
    assert result.status == "PASS", result.reason
    assert "bench.sh, ENGINE=sglang-disagg, IS_MTP=true" in result.reason


def test_an_amd_multi_node_mtp_entry_whose_engine_gets_no_chat_template_from_the_client_fails(
    check,
):
    result = _judge(check, _chain_parts("vllm-disagg"))
    assert result.status == "FAIL"
    assert f"{BENCH}:" in result.reason and "without --use-chat-template" in result.reason


def test_a_multi_node_entry_on_a_runner_without_a_known_chain_still_needs_a_recipe(check):
    result = _judge(check, _chain_parts(runner="gb200"))
    assert result.status == "FAIL"
    assert "no multi-node recipe is named (CONFIG_FILE)" in result.reason


def test_a_chain_client_script_that_cannot_be_read_at_the_head_fails_naming_it(check):
    parts = _chain_parts()
    replace_file(parts, BENCH, "head", None, state="unavailable")
    result = _judge(check, parts)
    assert result.status == "FAIL" and BENCH in result.reason


def test_a_pr_that_drops_the_flag_from_the_chain_client_script_fails_naming_it(check):
    parts = _chain_parts()
    add_changed_file(parts, BENCH, BENCH_SH.replace('"--use-chat-template"', '""'), base=BENCH_SH)
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{BENCH}:" in result.reason and "without --use-chat-template" in result.reason


def test_a_pr_that_changes_the_chain_client_script_must_show_a_flagged_call_surely_runs(check):
    # its loop runs over the caller's concurrencies: the PR's version is not shown to benchmark
    parts = _chain_parts()
    add_changed_file(parts, BENCH, BENCH_SH.replace("#!/bin/bash\n", "#!/bin/bash\nset -x\n"),
                     base=BENCH_SH)  # fmt: skip
    result = _judge(check, parts)
    assert result.status == "FAIL" and "may not run" in result.reason


def test_a_changed_chain_script_that_sets_what_decides_the_clients_flags_fails_naming_the_line(
    check,
):
    parts = _chain_parts()
    new = SERVER_SH.replace("-gt 0 ]", "-gt 5 ]")
    add_changed_file(parts, SERVER, new, base=SERVER_SH)
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{SERVER}:4" in result.reason and "DECODE_MTP_SIZE" in result.reason


def test_a_changed_chain_script_that_leaves_the_clients_inputs_alone_counts_for_the_entry(check):
    parts = _chain_parts()
    new = SERVER_SH.replace("0.8", "0.85")
    add_changed_file(parts, SERVER, new, base=SERVER_SH)
    result = _judge(check, parts)
    assert result.status == "PASS", result.reason


def test_a_changed_chain_script_that_cannot_be_read_at_the_head_fails_closed_naming_it(check):
    parts = _chain_parts()
    add_changed_file(parts, SERVER, SERVER_SH.replace("0.8", "0.85"), base=SERVER_SH, read=False)
    replace_file(parts, SERVER, "head", None, state="unavailable")
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert SERVER in result.reason and "could not be read at the head" in result.reason


def test_a_changed_chain_script_with_text_known_only_at_run_time_fails_closed_naming_it(check):
    parts = _chain_parts()
    new = SERVER_SH.replace('echo "$DECODE_FLAGS"', 'eval "$(python3 -c "$PICK")"')
    add_changed_file(parts, SERVER, new, base=SERVER_SH)
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert SERVER in result.reason and "could not be fully read" in result.reason


def test_a_changed_chain_script_that_calls_the_client_itself_without_the_flag_fails(check):
    parts = _chain_parts()
    new = SERVER_SH + "run_benchmark_serving --model m --max-concurrency 4\n"
    add_changed_file(parts, SERVER, new, base=SERVER_SH)
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{SERVER}:10 calls run_benchmark_serving without" in result.reason


def test_a_changed_entry_script_that_runs_a_script_the_pr_adds_fails_naming_the_unread_file(
    check,
):
    parts = _chain_parts()
    entry_script = "#!/bin/bash\ncd amd_utils || exit 1\nbash ./my_bench.sh\n"
    add_changed_file(parts, ENTRY_SCRIPT, entry_script)
    add_changed_file(parts, "benchmarks/multi_node/my_bench.sh", "python3 client.py\n")
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert "my_bench.sh" in result.reason and "does not read scripts run by file" in result.reason


def test_a_changed_chain_data_file_naming_the_clients_inputs_fails_naming_the_line(check):
    parts = _chain_parts()
    models = "DeepSeek-V4-Pro:\n  mtp_flags: --speculative-algorithm EAGLE\n"
    add_changed_file(parts, f"{CHAIN}/models.yaml", models + "  env: IS_MTP=false\n",
                     base=models)  # fmt: skip
    result = _judge(check, parts)
    assert result.status == "FAIL" and f"{CHAIN}/models.yaml:3" in result.reason


def test_a_changed_program_of_the_chain_that_signoff_does_not_read_fails_closed_naming_it(check):
    parts = _chain_parts()
    add_changed_file(parts, f"{CHAIN}/sync.py", "print('barrier')\n", base="print('sync')\n")
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{CHAIN}/sync.py" in result.reason and "reads only its shell scripts" in result.reason


def test_a_changed_chain_script_that_points_the_chain_at_another_client_fails_naming_the_line(
    check,
):
    base = SERVER_SH + 'BENCH_CMD="bash $WS_PATH/bench.sh 1 1"\n'
    head = SERVER_SH + 'BENCH_CMD="bash $WS_PATH/fast_bench.sh 1 1"\n'
    parts = _chain_parts()
    add_changed_file(parts, SERVER, head, base=base)
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{SERVER}:10 (base), a line this PR removes, names `bench.sh`" in result.reason
