"""Reading the benchmark scripts under tests/data/scripts: launches, clients, flags, lines.

These scripts are read both with nothing bound (every sweep variable unknown, as for a changed
script no changed entry runs) and with one configuration bound (as for a changed entry).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from signoff.parse.benchmark.launch import Arg, ScriptRun
from signoff.parse.benchmark.script import (
    ScriptFacts,
    evaluate,
    evaluate_counted,
    parse_script,
    read_script,
)

DATA = Path(__file__).parents[1] / "data" / "scripts"
CLIENTS = ("run_benchmark_serving",)
CONFIG = {"MODEL": "org/model", "TP": "8", "EP_SIZE": "8", "CONC": "64", "ISL": "8192",
          "OSL": "1024", "MAX_MODEL_LEN": "9472", "RUN_EVAL": "false"}  # fmt: skip


def read(name: str, env: dict[str, str] | None = None) -> ScriptRun:
    text = (DATA / name).read_text(encoding="utf-8")
    return evaluate(read_script(text, f"benchmarks/single_node/fixed_seq_len/{name}"), env)


def values(args: tuple[Arg, ...]) -> dict[str, str | None]:
    return {arg.flag: arg.value for arg in args}


def test_vllm_serve_launch_is_read_across_continuation_lines() -> None:
    (launch,) = read("dsv4_fp4_b200_vllm_mtp.sh", CONFIG).launches
    assert (launch.engine, launch.command, launch.model, launch.line) == (
        "vllm", "vllm serve", "org/model", 34,
    )  # fmt: skip
    assert values(launch.args)["--kv-cache-dtype"] == "fp8"
    assert [arg.line for arg in launch.args if arg.flag == "--disable-log-requests"] == [42]


def test_case_arms_and_arrays_yield_one_launch_per_configuration() -> None:
    (launch,) = read("dsv4_fp4_mi355x_atom.sh", {"TP": "8"}).launches
    assert (launch.engine, launch.command) == ("atom", "python3 -m atom.entrypoints.openai_server")
    assert launch.line == 20 and launch.model == "$MODEL"
    assert [client.command for client in read("dsv4_fp4_mi355x_atom.sh").clients] == [
        "run_benchmark_serving"
    ]


def test_python_module_launch_with_flag_equals_value_is_read() -> None:
    (launch,) = read("dsr1_fp8_mi355x_sglang_mtp.sh", CONFIG).launches
    assert (launch.engine, launch.command, launch.model) == (
        "sglang", "python3 -m sglang.launch_server", "org/model",
    )  # fmt: skip
    args = {arg.flag: arg for arg in launch.args}
    assert (args["--host"].value, args["--host"].joined) == ("0.0.0.0", True)  # --flag=value
    assert args["--trust-remote-code"].value is None


def test_variables_expand_into_several_args_and_flag_equals_value_is_split() -> None:
    (launch,) = read("dsv4_fp4_b200_vllm_mtp.sh", CONFIG).launches
    args = values(launch.args)
    assert args["--tensor-parallel-size"] == "8"
    assert "--enable-expert-parallel" in args and args["--enable-expert-parallel"] is None
    assert args["--data-parallel-size"] == "8"  # EP_SIZE=8 takes the `-gt 1` arm
    assert args["--max-num-seqs"] == "128"  # $((CONC * 2))
    # PORT=${PORT:-8888}: the runner may set PORT, so the reader does not assume 8888
    assert args["--port"] == "${PORT:-8888}"


def test_unbound_variables_keep_the_text_they_were_written_as() -> None:
    (launch,) = [
        launch
        for launch in read("dsv4_fp4_b200_vllm_mtp.sh").launches
        if "--data-parallel-size" not in values(launch.args)
    ]
    args = values(launch.args)
    assert launch.model == "$MODEL" and args["--tensor-parallel-size"] == "$TP"
    assert args["--max-model-len"] == "$MAX_MODEL_LEN" and args["--max-num-seqs"] == "$((CONC * 2))"


def test_env_prefix_and_earlier_exports_become_the_launch_environment() -> None:
    env = read("dsv4_fp4_b200_vllm_mtp.sh", CONFIG).launches[0].env
    assert env == {
        "VLLM_ALLREDUCE_USE_SYMM_MEM": "0",
        "VLLM_FLASHINFER_MOE_BACKEND": "latency",
        "VLLM_USE_FLASHINFER_MOE_FP4": "1",
    }


def test_json_valued_flags_stay_one_value() -> None:
    vllm = values(read("dsv4_fp4_b200_vllm_mtp.sh", CONFIG).launches[0].args)
    assert vllm["--speculative-config"] == '{"method": "mtp", "num_speculative_tokens": 3}'
    atom = values(read("dsv4_fp4_mi355x_atom.sh", {"TP": "8"}).launches[0].args)
    assert atom["--hf-overrides"] == '{"use_index_cache": true, "index_topk_freq": 4}'


def test_quoted_variables_holding_json_stay_one_value_inside_command_substitution() -> None:
    (launch,) = read("minimaxm3_fp4_h200_vllm.sh", CONFIG).launches
    assert launch.command == "python3 -m vllm.entrypoints.openai.api_server"
    assert launch.env == {"VLLM_ATTENTION_BACKEND": "FLASHINFER"}
    args = values(launch.args)
    assert args["--speculative-config"] == (
        '{"method": "eagle3", "model": "nvidia/MiniMax-M3-Eagle3", "num_speculative_tokens": 3}'
    )
    assert (
        args["--hf-overrides"] == '{"text_config": {"use_index_cache": true, "index_topk_freq": 4}}'
    )
    # `${MAX_BATCHED_TOKENS:-16384}` inside an unquoted string: the known words still split
    assert "--trust-remote-code" in args
    assert args["--max-num-batched-tokens"] == "${MAX_BATCHED_TOKENS:-16384}"


def test_spec_decode_flags_are_found_with_line_numbers() -> None:
    (launch,) = read("dsr1_fp8_mi355x_sglang_mtp.sh", CONFIG).launches
    found = [(a.flag, a.value, a.line) for a in launch.args if a.flag.startswith("--speculative-")]
    assert found == [
        ("--speculative-algorithm", "NEXTN", 27),
        ("--speculative-num-steps", "3", 28),
        ("--speculative-eagle-topk", "1", 29),
        ("--speculative-num-draft-tokens", "4", 30),
    ]


def test_flags_written_in_an_assignment_are_read_where_they_are_used() -> None:
    text = 'SPEC="--speculative-config {\\"method\\":\\"mtp\\"}"\necho ok\nvllm serve m $SPEC\n'
    (launch,) = evaluate(read_script(text, "s.sh"), {}).launches
    assert [(a.flag, a.value, a.line) for a in launch.args] == [
        ("--speculative-config", '{"method":"mtp"}', 3)
    ]


def test_hf_overrides_are_found_for_the_arch_check() -> None:
    (launch,) = read("dsv4_fp4_mi355x_atom.sh", {"TP": "8"}).launches
    (found,) = [arg for arg in launch.args if arg.flag == "--hf-overrides"]
    assert found.line == 25 and "use_index_cache" in (found.value or "")


def test_chat_template_flags_on_client_calls_are_visible() -> None:
    (client,) = read("dsv4_fp4_b200_vllm_mtp.sh", CONFIG).clients
    assert (client.line, client.reach) == (49, "reached")
    assert "--dsv4" in values(client.args)
    (trt,) = read("dsr1_fp4_b200_trt_mtp.sh", CONFIG).clients
    assert [arg.line for arg in trt.args if arg.flag == "--use-chat-template"] == [45]


def test_trtllm_serve_behind_mpirun_and_its_heredoc_config_are_read() -> None:
    run = read("dsr1_fp4_b200_trt_mtp.sh", CONFIG)
    (launch,) = run.launches
    assert (launch.engine, launch.command, launch.model, launch.line) == (
        "trtllm", "trtllm-serve", "org/model", 25,
    )  # fmt: skip
    args = values(launch.args)
    assert args["--tp_size"] == "8" and args["--extra_llm_api_options"] == "dsr1-fp4-mtp.yml"
    assert args["--max_seq_len"] == "9472"  # $(( ISL + OSL + 256 ))
    assert launch.env == {"PYTHONNOUSERSITE": "1"}
    (heredoc,) = run.heredocs
    assert heredoc.line == 11 and "decoding_type: MTP" in heredoc.body


@pytest.mark.parametrize(("isl", "chunk"), [("8192", "16384"), ("1024", "8192")])
def test_if_else_assignments_follow_the_bound_configuration(isl: str, chunk: str) -> None:
    (launch,) = read("dsr1_fp8_mi355x_sglang_mtp.sh", {**CONFIG, "ISL": isl}).launches
    assert launch.reach == "reached"
    assert values(launch.args)["--chunked-prefill-size"] == chunk


def test_if_else_assignments_with_nothing_bound_give_one_undecided_launch_per_arm() -> None:
    launches = read("dsr1_fp8_mi355x_sglang_mtp.sh").launches
    assert sorted(values(launch.args)["--chunked-prefill-size"] or "" for launch in launches) == [
        "16384", "8192",
    ]  # fmt: skip
    assert {launch.reach for launch in launches} == {"undecided"}
    assert all("(line 11)" in launch.why or "line 11" in launch.why for launch in launches)


def test_case_arms_pick_the_kv_cache_dtype_for_the_configuration() -> None:
    fp8 = read("dsv4_fp4_mi355x_atom.sh", {"TP": "8"}).launches[0]
    bf16 = read("dsv4_fp4_mi355x_atom.sh", {"TP": "4"}).launches[0]
    assert values(fp8.args)["--kv_cache_dtype"] == "fp8"
    assert values(bf16.args)["--kv_cache_dtype"] == "bf16"
    neither = read("dsv4_fp4_mi355x_atom.sh", {"TP": "1"}).launches[0]
    assert "--kv_cache_dtype" not in values(neither.args)


def test_array_expansion_gives_one_arg_per_item() -> None:
    args = values(read("dsv4_fp4_mi355x_atom.sh", {"TP": "8"}).launches[0].args)
    assert args["--block-size"] == "16" and args["--max-num-seqs"] == "256"


def test_plain_reassignment_replaces_and_appending_accumulates() -> None:
    text = 'ARGS="--tp 8"\nARGS="$ARGS --ep 8"\nARGS+=" --enable-dp-attention"\nsglang serve --model-path m $ARGS\n'
    (launch,) = evaluate(read_script(text, "s.sh"), {}).launches
    assert values(launch.args) == {
        "--model-path": "m", "--tp": "8", "--ep": "8", "--enable-dp-attention": None,
    }  # fmt: skip
    assert launch.model == "m"


VLLM_API = "-m vllm.entrypoints.openai.api_server"
ATOM_API = "-m atom.entrypoints.openai_server"


@pytest.mark.parametrize(
    ("line", "engine", "command"),
    [
        ("vllm serve org/model --tp 8", "vllm", "vllm serve"),
        (f"python {VLLM_API} --model m", "vllm", f"python {VLLM_API}"),
        (
            "python3 -u -m sglang.launch_server --model-path m",
            "sglang",
            "python3 -m sglang.launch_server",
        ),
        ("sglang serve --model-path m", "sglang", "sglang serve"),
        ("trtllm-serve serve m --tp_size 8", "trtllm", "trtllm-serve serve"),
        (f"exec /usr/bin/python3 {ATOM_API} --model m", "atom", f"python3 {ATOM_API}"),
        ("nohup python3 -m dynamo.frontend.server &", "other", "python3 -m dynamo.frontend.server"),
    ],
)
def test_server_launch_recognisers(line: str, engine: str, command: str) -> None:
    (launch,) = parse_script(f"#!/bin/bash\n{line}\n", "s.sh").launches
    assert (launch.engine, launch.command.replace("/usr/bin/", "")) == (
        engine,
        command.replace("-u ", ""),
    )


def test_sglang_serve_with_a_model_flag_keeps_every_later_word_readable() -> None:
    (launch,) = parse_script("sglang serve --model-path $MODEL_PATH $EXTRA\n", "s.sh").launches
    assert launch.model == "$MODEL_PATH" and launch.opaque == ("$EXTRA",)


def test_echoed_or_grepped_launch_text_is_not_a_launch() -> None:
    text = (
        "echo vllm serve m\n"
        'grep -q "sglang.launch_server" log\n'
        'if pgrep -f "vllm serve"; then :; fi\n'
    )
    assert parse_script(text, "s.sh").launches == ()


def test_client_command_names_come_from_the_parameter() -> None:
    text = "run_benchmark_serving --model m \\\n  --use-chat-template\nbench_agentic --trace t\n"
    facts = parse_script(text, "s.sh", ("bench_agentic",))
    assert [(client.command, client.line) for client in facts.clients] == [("bench_agentic", 3)]


def test_unterminated_quote_is_a_problem_not_a_crash() -> None:
    facts = parse_script('vllm serve m --speculative-config \'{"method": "mtp"\n', "s.sh")
    assert facts.problems == ("s.sh:1: unterminated '",)
    assert facts.complete is False


def test_unclosed_heredoc_is_a_problem() -> None:
    facts = parse_script("cat <<EOF > x.yaml\nspeculative_config:\n", "s.sh")
    assert facts.problems == ("s.sh:1: heredoc EOF is never closed",)


def test_functions_and_comments_do_not_confuse_the_reader() -> None:
    text = (
        "# vllm serve commented --tp 1\n"
        "start_server() {\n"
        '  vllm serve "$1" --tp "${TP:-8}" # trailing comment --x\n'
        "}\n"
        "start_server org/m\n"
    )
    run = evaluate(read_script(text, "s.sh"), {})
    assert [(launch.model, values(launch.args)) for launch in run.launches] == [
        ("org/m", {"--tp": "${TP:-8}"})
    ]
    bound = evaluate(read_script(text, "s.sh"), {"TP": "4"})
    assert values(bound.launches[0].args) == {"--tp": "4"}


def test_deeply_nested_substitutions_stay_linear_and_mark_the_script_incomplete() -> None:
    facts = parse_script("A=" + "$(" * 5000 + ")" * 5000 + "\nvllm serve m\n", "s.sh")
    assert facts.complete is False
    assert any("nested too deeply" in problem for problem in facts.problems)


def test_commands_nested_beyond_the_bound_mark_the_script_incomplete() -> None:
    text = 'if [ "$TP" = 8 ]; then\n' * 150 + "vllm serve m\n" + "fi\n" * 150
    run = evaluate(read_script(text, "s.sh"), {"TP": "8"})
    assert run.complete is False
    assert any("nested deeper than" in problem for problem in run.problems)


def test_the_work_bound_stops_a_runaway_evaluation_and_says_so() -> None:
    text = "f() { f a$1; f b$1; }\nf x\nvllm serve m\n"
    run = evaluate(read_script(text, "s.sh"), {}, budget=500)
    assert run.complete is False
    assert any("work bound" in p or "nested deeper" in p for p in run.problems)


def test_text_that_expansion_builds_is_charged_as_work() -> None:
    # a small loop whose words expand kilobytes each: megabytes of text in few commands
    items = " ".join(str(i) for i in range(200))
    words = " ".join(['"$A$A"'] * 100)
    text = f'A="{"x" * 4000}"\nfor i in {items}; do\n  python3 {words}\ndone\nvllm serve m\n'
    run, _ = evaluate_counted(read_script(text, "s.sh"), {}, budget=5_000)
    assert run.complete is False
    assert any("work bound" in problem for problem in run.problems)
    assert len(run.commands) < 30  # it stopped within the first iterations


def test_a_value_doubled_in_a_loop_stops_at_the_work_bound() -> None:
    items = " ".join(str(i) for i in range(40))
    text = f'A=xxxxxxxx\nfor i in {items}; do\n  A="$A$A"\ndone\nvllm serve "$A"\n'
    run, _ = evaluate_counted(read_script(text, "s.sh"), {}, budget=5_000)
    assert run.complete is False
    assert any("work bound" in problem for problem in run.problems)
    assert not run.launches  # stopped long before the value could reach gigabytes


def test_words_of_ordinary_length_cost_no_more_than_their_commands() -> None:
    text = 'M="deepseek-ai/DeepSeek-V4-Pro"\nvllm serve "$M" --tp 8 --max-model-len 4096\n'
    _, steps = evaluate_counted(read_script(text, "s.sh"), {}, budget=5_000)
    assert steps == 2


def test_launch_through_a_computed_interpreter_held_in_an_array_is_found() -> None:
    text = (
        'SGL_PY="$(command -v python3)"\n'
        "SERVER_CMD=(\n"
        '    "$SGL_PY" -m sglang.launch_server\n'
        '    --model-path "$MODEL"\n'
        "    --tp 8\n"
        "    --speculative-algorithm EAGLE\n"
        ")\n"
        '"${SERVER_CMD[@]}" > server.log 2>&1 &\n'
    )
    (launch,) = parse_script(text, "s.sh").launches
    assert (launch.engine, launch.line) == ("sglang", 8)
    assert values(launch.args)["--speculative-algorithm"] == "EAGLE"


def test_a_shift_inside_arithmetic_is_not_a_heredoc() -> None:
    facts = parse_script("(( mask & (1 << p) )) || exit 1\nvllm serve m --tp 2\n", "s.sh")
    assert facts.problems == ()
    assert values(facts.launches[0].args) == {"--tp": "2"}


def test_any_tokenizing_problem_marks_the_script_incomplete() -> None:
    assert parse_script("echo 'open\nvllm serve m --hf-overrides x\n", "s.sh").complete is False
    assert parse_script("vllm serve m --tp 2\n", "s.sh").complete is True


def test_the_compatibility_reading_lists_every_launch_that_may_run() -> None:
    facts = parse_script((DATA / "dsr1_fp8_mi355x_sglang_mtp.sh").read_text(), "s.sh")
    assert isinstance(facts, ScriptFacts) and len(facts.launches) == 2


def test_a_script_is_parsed_once_and_evaluated_per_environment() -> None:
    script = read_script((DATA / "dsv4_fp4_mi355x_atom.sh").read_text(), "s.sh")
    readings = {tp: evaluate(script, {"TP": tp}).launches[0] for tp in ("8", "4")}
    assert values(readings["8"].args)["--kv_cache_dtype"] == "fp8"
    assert values(readings["4"].args)["--kv_cache_dtype"] == "bf16"
    assert script.reads({"TP", "ISL", "NOT_USED"}) == {"TP", "ISL"}
