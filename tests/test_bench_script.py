"""Benchmark-script reading: launches, client calls, variables, flags, with line numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from signoff.parse.bench_script import ScriptFacts, find_args, parse_script
from signoff.parse.launch import Arg
from signoff.policy import ArchPolicy, SpecDecodePolicy

DATA = Path(__file__).parent / "data" / "scripts"
SPEC = SpecDecodePolicy(
    script_flags=("--speculative-config", "--speculative-algorithm", "--speculative-num-steps",
                  "--speculative-num-draft-tokens"),
    chat_template_flags=("--use-chat-template", "--dsv4"),
)  # fmt: skip
ARCH = ArchPolicy(flags=("--hf-overrides", "--json-model-override-args"))


def read(name: str) -> ScriptFacts:
    text = (DATA / name).read_text(encoding="utf-8")
    return parse_script(text, f"benchmarks/single_node/fixed_seq_len/{name}", SPEC.client_commands)


def values(args: tuple[Arg, ...]) -> dict[str, str | None]:
    return {arg.flag: arg.value for arg in args}


def test_vllm_serve_launch_is_read_across_continuation_lines() -> None:
    facts = read("dsv4_fp4_b200_vllm_mtp.sh")
    (launch,) = facts.launches
    assert (launch.engine, launch.command, launch.model, launch.line) == (
        "vllm",
        "vllm serve",
        "$MODEL",
        34,
    )
    assert values(launch.args)["--kv-cache-dtype"] == "fp8"
    assert [arg.line for arg in launch.args if arg.flag == "--disable-log-requests"] == [42]


def test_case_arms_and_arrays_still_yield_launch_and_client() -> None:
    facts = read("dsv4_fp4_mi355x_atom.sh")
    (launch,) = facts.launches
    assert (launch.engine, launch.command) == ("atom", "python3 -m atom.entrypoints.openai_server")
    assert launch.line == 20 and launch.model == "$MODEL"
    assert [client.command for client in facts.clients] == ["run_benchmark_serving"]


def test_python_module_launch_with_flag_equals_value_is_read() -> None:
    facts = read("dsr1_fp8_mi355x_sglang_mtp.sh")
    (launch,) = facts.launches
    assert (launch.engine, launch.command, launch.model) == (
        "sglang", "python3 -m sglang.launch_server", "$MODEL",
    )  # fmt: skip
    assert values(launch.args)["--host"] == "0.0.0.0"  # --flag=value
    assert values(launch.args)["--trust-remote-code"] is None


def test_variables_expand_into_several_args_and_flag_equals_value_is_split() -> None:
    facts = read("dsv4_fp4_b200_vllm_mtp.sh")
    args = values(facts.launches[0].args)
    assert args["--tensor-parallel-size"] == "$TP"
    assert "--enable-expert-parallel" in args and args["--enable-expert-parallel"] is None
    assert args["--data-parallel-size"] == "$EP_SIZE"
    assert args["--port"] == "8888"  # PORT=${PORT:-8888}
    assert facts.variables["SERVER_LOG"] == "/workspace/server.log"


def test_env_prefix_and_earlier_exports_become_the_launch_environment() -> None:
    env = read("dsv4_fp4_b200_vllm_mtp.sh").launches[0].env
    assert env == {
        "VLLM_ALLREDUCE_USE_SYMM_MEM": "0",
        "VLLM_FLASHINFER_MOE_BACKEND": "latency",
        "VLLM_USE_FLASHINFER_MOE_FP4": "1",
    }


def test_json_valued_flags_stay_one_value() -> None:
    vllm = values(read("dsv4_fp4_b200_vllm_mtp.sh").launches[0].args)
    assert vllm["--speculative-config"] == '{"method": "mtp", "num_speculative_tokens": 3}'
    atom = values(read("dsv4_fp4_mi355x_atom.sh").launches[0].args)
    assert atom["--hf-overrides"] == '{"use_index_cache": true, "index_topk_freq": 4}'


def test_quoted_variables_holding_json_stay_one_value_inside_command_substitution() -> None:
    facts = read("minimaxm3_fp4_h200_vllm.sh")
    (launch,) = facts.launches
    assert launch.command == "python3 -m vllm.entrypoints.openai.api_server"
    assert launch.env == {"VLLM_ATTENTION_BACKEND": "FLASHINFER"}
    args = values(launch.args)
    assert args["--speculative-config"] == (
        '{"method": "eagle3", "model": "nvidia/MiniMax-M3-Eagle3", "num_speculative_tokens": 3}'
    )
    assert (
        args["--hf-overrides"] == '{"text_config": {"use_index_cache": true, "index_topk_freq": 4}}'
    )
    assert args["--max-num-batched-tokens"] == "16384"


def test_unresolved_environment_variables_are_reported() -> None:
    facts = read("dsv4_fp4_b200_vllm_mtp.sh")
    assert {"CONC", "ISL", "OSL", "MODEL", "TP", "EP_SIZE", "RUN_EVAL"} <= set(facts.unresolved)
    assert "PORT" not in facts.unresolved  # has a default
    assert "PARALLEL_ARGS" not in facts.unresolved


def test_spec_decode_flags_are_found_with_line_numbers() -> None:
    found = find_args(read("dsr1_fp8_mi355x_sglang_mtp.sh"), SPEC.script_flags)
    assert [(arg.flag, arg.value, arg.line) for arg in found] == [
        ("--speculative-algorithm", "NEXTN", 27),
        ("--speculative-num-steps", "3", 28),
        ("--speculative-num-draft-tokens", "4", 30),
    ]


def test_spec_flags_written_in_an_assignment_are_found_at_the_assignment_and_the_use() -> None:
    found = find_args(read("minimaxm3_fp4_h200_vllm.sh"), ("--speculative-config",))
    assert [arg.line for arg in found] == [12]
    text = 'SPEC="--speculative-config {\\"method\\":\\"mtp\\"}"\necho ok\nvllm serve m $SPEC\n'
    lines = [arg.line for arg in find_args(parse_script(text, "s.sh"), ("--speculative-config",))]
    assert lines == [1, 3]


def test_hf_overrides_are_found_for_the_arch_check() -> None:
    (found,) = find_args(read("dsv4_fp4_mi355x_atom.sh"), ARCH.flags)
    assert (found.flag, found.line) == ("--hf-overrides", 25)
    assert "use_index_cache" in (found.value or "")


def test_chat_template_flags_on_client_calls_are_visible() -> None:
    (client,) = read("dsv4_fp4_b200_vllm_mtp.sh").clients
    assert client.line == 49
    assert "--dsv4" in values(client.args)
    trt = read("dsr1_fp4_b200_trt_mtp.sh")
    assert [arg.line for arg in find_args(trt, SPEC.chat_template_flags)] == [45]


def test_trtllm_serve_behind_mpirun_and_its_heredoc_config_are_read() -> None:
    facts = read("dsr1_fp4_b200_trt_mtp.sh")
    (launch,) = facts.launches
    assert (launch.engine, launch.command, launch.model, launch.line) == (
        "trtllm", "trtllm-serve", "$MODEL", 25,
    )  # fmt: skip
    args = values(launch.args)
    assert args["--tp_size"] == "$TP" and args["--extra_llm_api_options"] == "dsr1-fp4-mtp.yml"
    assert args["--max_seq_len"] == "$(( ISL + OSL + 256 ))"
    assert launch.env == {"PYTHONNOUSERSITE": "1"}
    (heredoc,) = facts.heredocs
    assert heredoc.line == 11 and "decoding_type: MTP" in heredoc.body


def test_if_else_assignments_keep_the_first_branch_and_list_alternatives() -> None:
    facts = read("dsr1_fp8_mi355x_sglang_mtp.sh")
    assert facts.variables["CHUNKED_PREFILL"] == "16384"
    assert facts.alternatives == {"CHUNKED_PREFILL": ("16384", "8192")}


def test_case_arms_are_branches_in_the_fallback_scanner() -> None:
    facts = read("dsv4_fp4_mi355x_atom.sh")
    assert facts.alternatives["KV_ARGS"] == ("--kv_cache_dtype fp8", "--kv_cache_dtype bf16")
    assert values(facts.launches[0].args)["--kv_cache_dtype"] == "fp8"


def test_array_expansion_gives_one_arg_per_item() -> None:
    args = values(read("dsv4_fp4_mi355x_atom.sh").launches[0].args)
    assert args["--block-size"] == "16" and args["--max-num-seqs"] == "256"


def test_plain_reassignment_replaces_and_appending_accumulates() -> None:
    text = 'ARGS="--tp 8"\nARGS="$ARGS --ep 8"\nARGS+=" --enable-dp-attention"\nsglang serve --model-path m $ARGS\n'
    facts = parse_script(text, "s.sh")
    assert facts.alternatives == {}
    assert values(facts.launches[0].args) == {
        "--model-path": "m", "--tp": "8", "--ep": "8", "--enable-dp-attention": None,
    }  # fmt: skip
    assert facts.launches[0].model == "m"


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
    assert facts.launches[0].engine == "vllm"


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
    facts = parse_script(text, "s.sh")
    assert [(launch.model, values(launch.args)) for launch in facts.launches] == [
        ("$1", {"--tp": "8"})
    ]
    assert facts.unresolved == ()


def test_deeply_nested_substitutions_stay_linear_and_mark_the_script_incomplete() -> None:
    facts = parse_script("A=" + "$(" * 5000 + ")" * 5000 + "\nvllm serve m\n", "s.sh")
    assert facts.complete is False
    assert any("nested too deeply" in problem for problem in facts.problems)


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
