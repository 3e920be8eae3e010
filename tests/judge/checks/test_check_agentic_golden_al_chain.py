"""The golden-AL check on a multi-node agentic spec-decode entry that names no recipe and does
not opt into the runners' injection, whose launcher runs a known chain of scripts to the
servers (AMD amd_utils): the chain's server script for its framework is read with what the
chain hands it for the benchmark job, and every decode server it may start must get the knob at
the golden AL; what the PR changed in the chain is read completely or fails closed naming it."""

from __future__ import annotations

from builders import (
    add_changed_file,
    add_listing,
    passing_parts,
    replace_file,
    with_new_entry,
)

CHAIN = "benchmarks/multi_node/amd_utils"
SERVER = f"{CHAIN}/server_sglang.sh"
VLLM_SERVER = f"{CHAIN}/server_vllm.sh"
JOB = f"{CHAIN}/job.slurm"
SUBMIT = f"{CHAIN}/submit.sh"
GOLDEN = "golden_al_distribution/dsv4_mtp.yaml"
CURVE = "deepseek-v4-pro:\n  thinking_on: {1: 1.79, 2: 2.27, 3: 2.49}\n"

# The shape of amd_utils/server_sglang.sh: the decode server's acceptance settings are chosen
# from the model name and the draft length for agentic runs that are not evals, prefixed to a
# command string, and run through `setsid bash -c`; node rank 0 runs the prefill server.
SERVER_SH = """\
#!/bin/bash
MODEL_NAME="${MODEL_NAME:-}"
DECODE_MTP_SIZE="${DECODE_MTP_SIZE:-0}"
source $SGLANG_WS_PATH/env.sh
MORI_DTYPE="bf16"
MTP_FLAGS=""
if [ "$DECODE_MTP_SIZE" -gt 0 ]; then
    MTP_FLAGS="--speculative-algorithm EAGLE --speculative-num-steps $DECODE_MTP_SIZE"
fi
SIM=""
if [[ "$DECODE_MTP_SIZE" -gt 0 && "${IS_AGENTIC:-0}" == "1" ]]; then
    if [[ "${EVAL_ONLY:-false}" == "true" ]]; then
        echo "eval: real acceptance"
    else
        case "${MODEL_NAME}:${DECODE_MTP_SIZE}" in
            *DeepSeek-V4*:3) SIM="SGLANG_SIMULATE_ACC_LEN=2.49 SGLANG_SIMULATE_ACC_METHOD=match-expected" ;;
        esac
    fi
fi
if [ "$NODE_RANK" -eq 0 ]; then
    CMD="MORI=${MORI_DTYPE} ${LAUNCH_PREFIX:-} python3 -m sglang.launch_server --model-path /models/$MODEL_NAME --disaggregation-mode prefill $MTP_FLAGS"
    setsid bash -c "$CMD" &
else
    CMD="MORI=${MORI_DTYPE} ${SIM} ${LAUNCH_PREFIX:-} python3 -m sglang.launch_server --model-path /models/$MODEL_NAME --disaggregation-mode decode $MTP_FLAGS"
    setsid bash -c "$CMD" &
fi
"""
DECODE_LINE = 25  # the decode server's `setsid bash -c` line

JOB_SLURM = """\
#!/bin/bash
IS_AGENTIC="${IS_AGENTIC:-0}"
echo "docker run -e IS_AGENTIC=$IS_AGENTIC -e MODEL_NAME=$MODEL_NAME"
"""


def _entry(framework: str = "sglang-disagg", runner: str = "cluster:mi355x-amds") -> str:
    return (
        f"dsv4-fp4-mi355x-{framework}-agentic-mtp:\n  image: lmsysorg/sglang-rocm:v0.5.15\n"
        "  model: deepseek-ai/DeepSeek-V4-Pro\n  model-prefix: dsv4\n  precision: fp4\n"
        f"  framework: {framework}\n  runner: {runner}\n  multinode: true\n  disagg: true\n"
        "  scenarios:\n    agentic-coding:\n      - search-space:\n"
        "          - spec-decoding: mtp\n            conc-list: [8, 16]\n"
        '            prefill: { num-worker: 1, tp: 8, additional-settings: ["PREFILL_NODES=1"] }\n'
        "            decode:\n              num-worker: 1\n              tp: 8\n"
        '              additional-settings:\n              - "DECODE_NODES=1"\n'
        '              - "DECODE_MTP_SIZE=3"\n'
    )


def chain_parts(server: str = SERVER_SH, **entry: str) -> dict:
    """A PR that adds an AMD multi-node agentic MTP entry; the chain's files are unchanged and
    the server script and the golden curve are read."""
    parts = with_new_entry(passing_parts(), _entry(**entry), script_changed=False)
    replace_file(parts, SERVER, "head", server)
    add_listing(parts, "golden_al_distribution", "default", ["dsv4_mtp.yaml"])
    replace_file(parts, GOLDEN, "default", CURVE)
    return parts


def changed_server(new: str, base: str = SERVER_SH) -> dict:
    """The PR also changes the server script, from `base` to `new`."""
    parts = chain_parts(base)
    add_changed_file(parts, SERVER, new, base=base)
    replace_file(parts, SERVER, "base", base)
    return parts


def _judge(check, parts: dict):
    return check(parts, "agentic-golden-al")


def edited(text: str, *swaps: tuple[str, str]) -> str:
    """`text` with each (old, new) swapped in; every old must be there (the edit happened)."""
    for old, new in swaps:
        assert old in text, old
        text = text.replace(old, new)
    return text


def test_a_chain_entry_passes_when_its_server_script_gives_every_decode_server_the_golden_al(
    check,
):
    result = _judge(check, chain_parts())
    assert result.status == "PASS", result.reason
    assert "AL 2.49 = dsv4_mtp.yaml thinking_on[3]" in result.reason
    assert "server_sglang.sh as the chain runs it" in result.reason
    assert "DECODE_MTP_SIZE=3, EVAL_ONLY=false, IS_AGENTIC=1, MODEL_NAME=DeepSeek-V4-Pro" in (
        result.reason
    )


def test_a_chain_decode_server_given_another_al_than_the_golden_fails_naming_both(check):
    result = _judge(check, chain_parts(edited(SERVER_SH, ("ACC_LEN=2.49", "ACC_LEN=2.31"))))
    assert result.status == "FAIL"
    assert f"{SERVER}:{DECODE_LINE} SGLANG_SIMULATE_ACC_LEN gives AL 2.31" in result.reason
    assert "not the golden 2.49 (draft 3)" in result.reason


def test_a_knob_only_the_eval_only_arm_of_the_server_script_sets_never_reaches_the_benchmark(
    check,
):
    swapped = edited(
        SERVER_SH,
        ('        echo "eval: real acceptance"\n    else\n', "        SIM_X=1\n    else\n"),
        ('"${EVAL_ONLY:-false}" == "true"', '"${EVAL_ONLY:-false}" != "true"'),
    )
    result = _judge(check, chain_parts(swapped))
    assert result.status == "FAIL"
    assert f"{SERVER}:{DECODE_LINE} launches python3 -m sglang.launch_server" in result.reason
    assert "with no synthetic-acceptance knob" in result.reason


def test_a_knob_in_dead_code_of_the_server_script_does_not_reach_the_decode_server(check):
    dead = edited(
        SERVER_SH,
        ('SIM="SGLANG_SIMULATE_ACC_LEN=2.49 SGLANG_SIM', 'OTHER="SGLANG_SIM'),
        ('    if [[ "${EVAL_ONLY', '    if false && [[ "${EVAL_ONLY'),
        ('        echo "eval: real acceptance"\n', '        SIM="SGLANG_SIMULATE_ACC_LEN=2.49"\n'),
    )
    result = _judge(check, chain_parts(dead))
    assert result.status == "FAIL" and "with no synthetic-acceptance knob" in result.reason


def test_a_model_the_server_script_has_no_case_for_runs_real_acceptance_and_fails(check):
    parts = chain_parts(edited(SERVER_SH, ("*DeepSeek-V4*:3", "*Kimi-K3*:3")))
    result = _judge(check, parts)
    assert result.status == "FAIL" and "with no synthetic-acceptance knob" in result.reason


def test_a_decode_server_whose_flags_are_known_only_at_run_time_runs_the_length_the_chain_hands(
    check,
):
    # the reviewed script builds `--speculative-num-steps` from DECODE_MTP_SIZE; here the decode
    # command's flags are known only at run time, so the launch shows none
    hidden = edited(
        SERVER_SH,
        ('MORI_DTYPE="bf16"\n', ""),
        ("--disaggregation-mode decode $MTP_FLAGS", "--disaggregation-mode decode $ROLE_FLAGS"),
    )
    result = _judge(check, chain_parts(hidden))
    assert result.status == "PASS", result.reason
    assert "AL 2.49 = dsv4_mtp.yaml thinking_on[3]" in result.reason


def test_a_changed_server_script_must_show_the_decode_draft_length_itself(check):
    hidden = edited(
        SERVER_SH,
        ('MORI_DTYPE="bf16"\n', ""),
        ("--disaggregation-mode decode $MTP_FLAGS", "--disaggregation-mode decode $ROLE_FLAGS"),
    )
    result = _judge(check, changed_server(hidden + 'echo "done"\n', base=hidden))
    assert result.status == "FAIL"
    assert f"the draft length of the launch at {SERVER}:{DECODE_LINE - 1}" in result.reason


def test_a_pr_changed_server_script_that_drops_the_knob_fails_naming_the_decode_launch(check):
    dropped = edited(SERVER_SH, ("${SIM} ${LAUNCH_PREFIX", "${LAUNCH_PREFIX"))
    result = _judge(check, changed_server(dropped))
    assert result.status == "FAIL"
    assert f"{SERVER}:{DECODE_LINE} launches python3 -m sglang.launch_server" in result.reason
    assert "with no synthetic-acceptance knob (SGLANG_SIMULATE_ACC_LEN)" in result.reason


def test_a_pr_changed_server_script_whose_decode_command_is_known_only_in_part_fails_closed(
    check,
):
    # bash would read the run-time piece as code: a PR's own such command is not followed
    partial = edited(SERVER_SH, ('MORI_DTYPE="bf16"\n', ""))
    result = _judge(check, changed_server(edited(partial, ("2.49", "2.49 X=1")), base=partial))
    assert result.status == "FAIL" and f"{SERVER} could not be fully read" in result.reason
    assert "bash -c of text known only at run time" in result.reason


def test_a_changed_chain_file_that_cannot_be_read_at_the_head_fails_closed_naming_it(check):
    parts = chain_parts()
    add_changed_file(parts, JOB, JOB_SLURM + "echo ok\n", base=JOB_SLURM, read=False)
    replace_file(parts, JOB, "head", None, state="unavailable")
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{JOB}, which this PR changes in the chain to {SERVER}" in result.reason
    assert "could not be read at the head" in result.reason


def test_a_changed_chain_script_that_cannot_be_read_completely_fails_closed_naming_it(check):
    parts = chain_parts()
    submit = '#!/bin/bash\neval "$(python3 pick.py)"\nsbatch job.slurm\n'
    add_changed_file(parts, SUBMIT, submit, base="#!/bin/bash\nsbatch job.slurm\n")
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{SUBMIT}, which this PR changes in the chain to {SERVER}" in result.reason
    assert "could not be fully read" in result.reason


def test_a_changed_chain_line_naming_what_the_server_script_is_handed_fails_naming_it(check):
    parts = chain_parts()
    new = edited(JOB_SLURM, ("${IS_AGENTIC:-0}", "0"))
    add_changed_file(parts, JOB, new, base=JOB_SLURM)
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{JOB}:2, a line this PR adds, names `IS_AGENTIC`" in result.reason


def test_a_changed_file_the_server_script_sources_may_not_set_a_knob_of_its_own(check):
    parts = chain_parts()
    env = f"{CHAIN}/env.sh"
    add_changed_file(
        parts, env, "export X=1\nexport SGLANG_SIMULATE_ACC_LEN=1\n", base="export X=1\n"
    )
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{env}:2, a line this PR adds, names `SGLANG_SIMULATE_ACC_LEN`" in result.reason


def test_a_changed_chain_data_line_naming_a_draft_length_flag_fails_naming_it(check):
    # the reviewed script's decode flags from models.yaml are run-time pieces to the reader
    parts = chain_parts()
    models = f"{CHAIN}/models.yaml"
    base = 'DeepSeek-V4-Pro-AgentX:\n  mtp_flags: "--speculative-algorithm EAGLE"\n'
    add_changed_file(parts, models, base.replace('EAGLE"', 'EAGLE --speculative-num-steps 1"'),
                     base=base)  # fmt: skip
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{models}:2, a line this PR adds, names `--speculative-num-steps`" in result.reason


def test_a_changed_chain_file_that_leaves_the_server_scripts_inputs_alone_counts(check):
    parts = chain_parts()
    add_changed_file(parts, JOB, JOB_SLURM + 'echo "pre-flight"\n', base=JOB_SLURM)
    result = _judge(check, parts)
    assert result.status == "PASS", result.reason


def test_a_server_script_that_cannot_be_read_at_the_head_fails_closed_naming_it(check):
    parts = chain_parts()
    replace_file(parts, SERVER, "head", None, state="unavailable")
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{SERVER}, the chain's server script, could not be read at the head" in result.reason


def test_a_launch_whose_role_is_not_known_counts_as_a_decode_server(check):
    unknown = edited(SERVER_SH, ("--disaggregation-mode prefill", "--disaggregation-mode $ROLE"))
    result = _judge(check, chain_parts(unknown))
    assert result.status == "FAIL"
    assert f"{SERVER}:{DECODE_LINE - 3} launches" in result.reason


def test_a_server_script_that_starts_no_decode_server_fails(check):
    none = edited(SERVER_SH, ("--disaggregation-mode decode", "--disaggregation-mode prefill"))
    result = _judge(check, chain_parts(none))
    assert result.status == "FAIL"
    assert "starts no decode server the reader recognises" in result.reason


VLLM_SH = """\
#!/bin/bash
if [ "$NODE_RANK" -eq 0 ]; then
    vllm serve /models/$MODEL_NAME --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}' \\
        --kv-transfer-config '{"kv_connector": "MoRIIOConnector", "kv_role": "kv_producer"}' &
else
    vllm serve /models/$MODEL_NAME --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}' \\
        --kv-transfer-config '{"kv_connector": "MoRIIOConnector", "kv_role": "kv_consumer"}' &
fi
"""


def test_a_vllm_chain_decode_server_without_the_synthetic_config_fails_naming_it(check):
    parts = chain_parts(framework="vllm-disagg")
    replace_file(parts, VLLM_SERVER, "head", VLLM_SH)
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert f"{VLLM_SERVER}:6 launches vllm serve with no synthetic-acceptance knob" in result.reason
    assert f"{VLLM_SERVER}:3" not in result.reason  # the prefill server is not held to it


def test_an_entry_that_opts_into_injection_is_judged_by_its_opt_in_not_the_chain(check):
    parts = chain_parts(edited(SERVER_SH, ("ACC_LEN=2.49", "ACC_LEN=2.31")))
    for read in parts["files"]:
        if read["path"] == "configs/nvidia-master.yaml" and read["role"] == "head":
            read["text"] += '              - "SYNTHETIC_ACCEPTANCE=true"\n'
    result = _judge(check, parts)
    assert result.status == "PASS" and "the runner injects the golden AL" in result.reason


def test_a_runner_without_a_known_chain_still_needs_the_opt_in(check):
    result = _judge(check, chain_parts(runner="gb200"))
    assert result.status == "FAIL" and "SYNTHETIC_ACCEPTANCE=true" in result.reason


EVALUATED = edited(
    SERVER_SH,
    (
        'MORI_DTYPE="bf16"\n',
        'MORI_DTYPE="bf16"\n'
        'eval "$(python3 -c "import yaml; print(yaml.safe_load(open(\'$SGLANG_WS_PATH/'
        "models.yaml'))['env'])\")\"\n",
    ),
)


def test_an_unchanged_server_scripts_eval_of_a_data_file_the_pr_changes_fails_closed(check):
    # the eval runs whatever the changed models.yaml holds (a YAML escape can spell a knob or
    # an exported function without naming it on the line): the reviewed gap is no longer baseline
    parts = chain_parts(EVALUATED)
    models = f"{CHAIN}/models.yaml"
    add_changed_file(parts, models, 'env: "X=\\x22; Y=2"\n', base='env: "X=1"\n')
    result = _judge(check, parts)
    assert result.status == "FAIL"
    assert "eval of text known only at run time" in result.reason


def test_an_unchanged_server_scripts_eval_of_an_unchanged_data_file_is_baseline(check):
    result = _judge(check, chain_parts(EVALUATED))
    assert result.status == "PASS", result.reason
