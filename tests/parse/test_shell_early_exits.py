"""How a reading follows a function's argument parser and its early exits.

A library read alone runs each function with unknown arguments: its `while [[ $# -gt 0 ]]`
parser is read once for iterations that are not known, so the values its `case` arms leave
combine (one iteration takes `--model`, a later one `--dsv4`). A path that leaves by `return`
or `break` while others go on is held aside until its function or loop ends: the commands it
skips never read its values, and the caller still sees them. Before, both made the library's
own benchmark command a run-time word (`${benchmark_cmd[@]}`) that no rule could read, and
every PR that changed `benchmarks/benchmark_lib.sh` failed no-arch-hacks for it.
"""

from __future__ import annotations

import pytest
from builders import SCRIPT, SCRIPT_PATH, add_changed_file, passing_parts, replace_file

from signoff.parse.bench_script import evaluate, read_script, read_unbound

LIB = "benchmarks/benchmark_lib.sh"
FLAGS = ("dsv4", "trust_remote_code", "use_chat_template", "profile", "ignore_eos", "warm")


def _parser_library(extra: str = "") -> str:
    """A library function shaped like InferenceX's `run_benchmark_serving`: locals, an
    argument parser whose unknown flag returns, required-argument checks that return, and a
    command array grown in undecided arms (more combinations than the reader keeps apart)."""
    arms = "".join(f"      --{flag}) {flag}=true; shift ;;\n" for flag in FLAGS)
    adds = "".join(
        f'  if [[ "${flag}" == true ]]; then cmd+=(--{flag.replace("_", "-")}); fi\n'
        for flag in FLAGS
    )
    return (
        "#!/usr/bin/env bash\n"
        "run_benchmark_serving() {\n"
        '  local model="" port="" tokenizer=""\n'
        + "".join(f"  local {flag}=false\n" for flag in FLAGS)
        + "  while [[ $# -gt 0 ]]; do\n    case $1 in\n"
        '      --model) model="$2"; shift 2 ;;\n'
        '      --port) port="$2"; shift 2 ;;\n'
        '      --tokenizer) tokenizer="$2"; shift 2 ;;\n'
        + arms
        + '      *) echo "Unknown parameter: $1"; return 1 ;;\n    esac\n  done\n'
        '  if [[ -z "$model" ]]; then echo "--model is required"; return 1; fi\n'
        '  if [[ -z "$port" ]]; then echo "--port is required"; return 1; fi\n'
        '  local cmd=(python3 "$(pwd)/utils/bench_serving/benchmark_serving.py" '
        '--model "$model" --base-url "http://0.0.0.0:$port")\n'
        + adds
        + '  if [[ -n "$tokenizer" ]]; then cmd+=(--tokenizer "$tokenizer"); fi\n'
        + extra
        + '  "${cmd[@]}"\n}\n'
    )


def _alone(text: str):
    return read_unbound(read_script(text, LIB), library=True)[1]


def test_a_library_argument_parser_leaves_its_benchmark_command_readable():
    run = _alone(_parser_library())
    assert [f.word for f in run.script_files if not f.name] == []
    ran = {f.command for f in run.script_files if f.name == "benchmark_serving.py"}
    for flag in ("--dsv4", "--use-chat-template", "--tokenizer", "--model"):
        assert any(flag in command for command in ran)  # every flag any arm passes shows


def test_arms_of_an_argument_parser_read_once_combine_across_iterations():
    text = (
        "f() {\n  local a=false b=false\n  while [[ $# -gt 0 ]]; do\n    case $1 in\n"
        "      --a) a=true; shift ;;\n      --b) b=true; shift ;;\n"
        "      *) return 1 ;;\n    esac\n  done\n"
        '  if [[ "$a" == true && "$b" == true ]]; then vllm serve m --hf-overrides x; fi\n}\n'
    )
    run = _alone(text)  # `--a --b` takes both arms, one iteration each
    assert [launch.command for launch in run.launches] == ["vllm serve"]


def test_commands_after_an_early_return_never_read_the_returned_paths_values():
    text = (
        'f() {\n  if [[ -z "$1" ]]; then return 1; fi\n'
        "  local cmd=(python3 /opt/bench.py)\n  cmd+=(--fast)\n"
        '  "${cmd[@]}"\n}\n'
    )
    run = _alone(text)
    assert [f.command for f in run.script_files] == ["python3 /opt/bench.py --fast"]


def test_a_caller_still_sees_the_values_of_a_path_that_returned_early():
    text = (
        'f() {\n  X=a\n  if [ "$C" = 1 ]; then return 0; fi\n  X=b\n}\n'
        'f\nvllm serve "$X" --port 1\n'
    )
    run = evaluate(read_script(text, SCRIPT_PATH), None)
    models = {launch.model for launch in run.launches}
    assert models == {"a", "b"}


def test_a_function_whose_other_path_fails_goes_on_along_the_path_that_returned():
    text = 'f() {\n  if [ "$X" = 1 ]; then return 0; fi\n  exit 1\n}\nf\nvllm serve m\n'
    run = evaluate(read_script(text, SCRIPT_PATH), None)
    assert [(launch.command, launch.reach) for launch in run.launches] == [
        ("vllm serve", "reached")
    ]


def test_a_path_that_broke_out_of_a_loop_rejoins_after_it():
    text = (
        "X=none\nwhile read -r line; do\n  X=early\n"
        '  if [ "$line" = stop ]; then break; fi\n  X=late\ndone < /opt/list\n'
        'vllm serve "$X"\n'
    )
    run = evaluate(read_script(text, SCRIPT_PATH), None)
    assert {launch.model for launch in run.launches} == {"none", "early", "late"}


def _library_pr(text: str) -> dict:
    """A PR that changes the library (and a document beside it, so run-time words that may
    reach into the checkout would count)."""
    parts = passing_parts()
    add_changed_file(parts, LIB, text, base=_parser_library())
    replace_file(parts, LIB, "base", _parser_library())
    add_changed_file(parts, "utils/evals/EVALS.md", "# evals\n")
    return parts


@pytest.mark.parametrize("check_id", ["no-arch-hacks", "engine-patches"])
def test_a_pr_that_changes_a_library_argument_parser_keeps_its_benchmark_command_readable(
    check, check_id
):
    head = _parser_library().replace("Unknown parameter", "unknown parameter")
    result = check(_library_pr(head), check_id)
    assert result.status == "PASS", result.reason


def test_a_library_parser_that_now_runs_a_pr_file_still_fails(check):
    head = _parser_library('  bash "$(pwd)/utils/tools/prep.sh"\n')
    parts = _library_pr(head)
    add_changed_file(parts, "utils/tools/prep.sh", "vllm serve m --hf-overrides '{}'\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "prep.sh" in result.reason


def test_a_library_parser_whose_command_gains_an_override_still_fails(check):
    head = _parser_library().replace(
        '--base-url "http://0.0.0.0:$port")',
        '--base-url "http://0.0.0.0:$port")\n  vllm serve "$model" --hf-overrides \'{"a": 1}\' &',
    )
    result = check(_library_pr(head), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "--hf-overrides" in result.reason


def test_a_script_that_sources_a_library_parser_still_passes(check):
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, SCRIPT)
    assert check(parts, "no-arch-hacks").status == "PASS"


def test_a_quoted_run_time_limit_of_timeout_is_the_limit_not_the_command():
    text = 'timeout "${SCORE_TIMEOUT:-7200}" python3 /opt/tools/score.py --x 1\n'
    run = evaluate(read_script(text, SCRIPT_PATH), None)
    assert [(f.word, f.name) for f in run.script_files] == [("/opt/tools/score.py", "score.py")]


def test_an_unquoted_run_time_limit_of_timeout_may_be_the_command_and_stays_unknown():
    text = "timeout $SCORE_TIMEOUT python3 /opt/tools/score.py\n"
    run = evaluate(read_script(text, SCRIPT_PATH), None)
    assert [f.name for f in run.script_files] == [""]  # `$SCORE_TIMEOUT` may hold a command


def test_a_library_gap_read_alone_the_same_at_base_and_head_is_baseline(check):
    """A run-time command inside a library function, fed by the function's arguments: read
    alone at base and head alike (any caller, arguments unknown), it is no new finding."""
    base = _parser_library('  "$1" --serve-bench\n')
    parts = passing_parts()
    add_changed_file(parts, LIB, base.replace("Unknown parameter", "unknown parameter"), base=base)
    replace_file(parts, LIB, "base", base)
    add_changed_file(parts, "utils/evals/EVALS.md", "# evals\n")  # so a gap would count
    result = check(parts, "no-arch-hacks")
    assert result.status == "PASS", result.reason


def test_a_library_gap_the_pr_adds_still_fails(check):
    parts = _library_pr(_parser_library('  "$1" --serve-bench\n'))
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "$1" in result.reason


def test_a_command_string_with_more_values_than_kept_apart_keeps_the_program_they_share():
    arms = "".join(f'if [ "$A{n}" = 1 ]; then CMD+=" --a{n}"; fi\n' for n in range(6))
    text = 'CMD="python3 /opt/tools/bench.py"\n' + arms + "$CMD\n"
    run = evaluate(read_script(text, SCRIPT_PATH), None)
    assert {(f.word, f.name) for f in run.script_files} == {("/opt/tools/bench.py", "bench.py")}


LONG_SOURCE = (
    'source "${WS_PATH:-${SGLANG_WS_PATH:-${VLLM_WS_PATH:-${ATOM_WS_PATH:-/opt/amd/'
    'workspace/utils}}}}/server_env.sh"\n'
)


def test_a_long_sourced_word_is_shown_by_its_ends_so_its_file_name_stays_readable():
    from signoff.parse.shell_simple import CUT, SHOWN_CHARS, shown_word

    word = LONG_SOURCE.split(" ", 1)[1].strip().strip('"')
    shown = shown_word(word)
    assert len(shown) <= SHOWN_CHARS and CUT in shown and shown.endswith("/server_env.sh")
    assert shown_word("/etc/os-release") == "/etc/os-release"


def test_a_file_sourced_from_the_image_by_a_long_run_time_path_counts_for_nothing(check):
    head = SCRIPT.replace('hf download "$MODEL"\n', 'hf download "$MODEL"\n' + LONG_SOURCE, 1)
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, head, base=SCRIPT)
    replace_file(parts, SCRIPT_PATH, "base", SCRIPT)
    result = check(parts, "no-arch-hacks")
    assert result.status == "PASS", result.reason
    # a file of that name the PR adds is read as the PR wrote it: its gap is the PR's own
    add_changed_file(parts, "benchmarks/multi_node/server_env.sh", 'eval "$VLLM_EXTRA"\n')
    assert check(parts, "no-arch-hacks").status == "FAIL"
