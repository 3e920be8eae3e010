"""Files a benchmark script sources are code the sweep runs: the ones the PR changes are read.

The shared library (`benchmarks/benchmark_lib.sh`) and any other repository file a script
sources run inside the script. When the PR adds or changes one, its head text is evaluated as
the script runs it; when it cannot be read completely, the checks that need it fail closed
naming it. An unchanged sourced file keeps its baseline treatment.
"""

from __future__ import annotations

from builders import SCRIPT, SCRIPT_PATH, add_changed_file, passing_parts, replace_file

LIB = "benchmarks/benchmark_lib.sh"

LIB_BASE = """\
#!/usr/bin/env bash
export PORT="${PORT:-8888}"

run_benchmark_serving() {
    local use_chat_template=false
    local args=()
    while [[ $# -gt 0 ]]; do
        case $1 in
            --use-chat-template) use_chat_template=true; shift ;;
            *) args+=("$1" "$2"); shift 2 ;;
        esac
    done
    local benchmark_cmd=(python3 "$(pwd)/utils/bench_serving/benchmark_serving.py" "${args[@]}")
    if [[ "$use_chat_template" == true ]]; then
        benchmark_cmd+=(--use-chat-template)
    fi
    "${benchmark_cmd[@]}"
}

wait_for_server_ready() {
    sleep 1
}

check_env_vars() {
    :
}
"""


def _with_library(parts, text: str, *, read: bool = True):
    add_changed_file(parts, LIB, text, base=LIB_BASE, read=read)
    return parts


def test_a_library_change_that_drops_the_chat_template_fails_the_spec_check(check):
    dropped = LIB_BASE.replace("benchmark_cmd+=(--use-chat-template)", "true")
    result = check(_with_library(passing_parts(), dropped), "spec-chat-template")
    assert result.status == "FAIL"
    assert "benchmark_serving.py" in result.reason
    assert "--use-chat-template" in result.reason


def test_an_unchanged_library_keeps_its_baseline_reading(check):
    assert check(passing_parts(), "spec-chat-template").status == "PASS"
    assert check(passing_parts(), "no-arch-hacks").status == "PASS"


def test_a_changed_library_that_forwards_the_chat_template_passes(check):
    result = check(_with_library(passing_parts(), LIB_BASE + "\n# tidy\n"), "spec-chat-template")
    assert result.status == "PASS", result.reason


def test_a_library_function_that_shadows_the_engine_is_the_engine(check):
    shadow = LIB_BASE + (
        '\nvllm() {\n    command vllm "$@" --hf-overrides \'{"num_hidden_layers": 2}\'\n}\n'
    )
    result = check(_with_library(passing_parts(), shadow), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "--hf-overrides" in result.reason


def test_a_library_helper_body_the_script_calls_is_read_for_overrides(check):
    hacked = LIB_BASE.replace(
        "    sleep 1\n", "    sleep 1\n    sed -i 's/61/2/' /models/config.json\n"
    )
    result = check(_with_library(passing_parts(), hacked), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "config.json" in result.reason


def test_a_changed_library_whose_text_was_not_read_fails_closed_naming_it(check):
    parts = _with_library(passing_parts(), LIB_BASE + "\n", read=False)
    for check_id in ("no-arch-hacks", "spec-chat-template"):
        result = check(parts, check_id)
        assert result.status == "FAIL", check_id
        assert LIB in result.reason


def test_a_changed_library_too_large_to_read_fails_closed_naming_it(check):
    parts = passing_parts()
    _with_library(parts, LIB_BASE)
    replace_file(parts, LIB, "head", "#" * 600_000 + "\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert LIB in result.reason
    assert "too large" in result.reason


def test_a_changed_binary_sourced_file_fails_closed_naming_it(check):
    parts = passing_parts()
    _with_library(parts, LIB_BASE)
    replace_file(parts, LIB, "head", "\x00\x01ELF\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "binary" in result.reason


def test_any_repository_file_a_script_sources_is_read_when_the_pr_changes_it(check):
    helper = "benchmarks/single_node/fixed_seq_len/tuning.env"
    script = SCRIPT.replace("hf download", 'source "$(dirname "$0")/tuning.env"\nhf download')
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, script)
    add_changed_file(parts, helper, "vllm() { command vllm \"$@\" --hf_overrides '{}'; }\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "--hf_overrides" in result.reason


def test_a_sourced_file_the_pr_changes_but_gather_did_not_read_fails_closed(check):
    helper = "benchmarks/single_node/fixed_seq_len/tuning.env"
    script = SCRIPT.replace("hf download", 'source "$(dirname "$0")/tuning.env"\nhf download')
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, script)
    add_changed_file(parts, helper, "export A=1\n", read=False)
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert helper in result.reason


def test_a_library_read_alone_runs_every_function_it_defines(check):
    """A PR that changes only the library: any script sourcing it may call any function."""
    parts = passing_parts()
    hacked = LIB_BASE.replace(
        "    :\n", '    : ; vllm serve "$MODEL" --hf-overrides \'{"a": 1}\'\n'
    )
    _with_library(parts, hacked)
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "--hf-overrides" in result.reason


def test_a_library_sourced_by_a_path_known_only_in_part_is_still_the_changed_file(check):
    script = SCRIPT.replace(
        'source "$(dirname "$0")/../../benchmark_lib.sh"',
        'source "$INFERENCEX_ROOT/benchmarks/benchmark_lib.sh"',
    )
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, script)
    dropped = LIB_BASE.replace("benchmark_cmd+=(--use-chat-template)", "true")
    _with_library(parts, dropped)
    assert check(parts, "spec-chat-template").status == "FAIL"


def test_an_array_with_more_values_than_kept_apart_decides_no_test_on_its_length():
    """A library's `check_env_vars` builds a list of missing names in undecided arms; read
    together, its length is unknown, so the path on which nothing is missing is kept."""
    from signoff.parse.bench_script import evaluate, read_script

    text = (
        'check() {\n  local missing=()\n  for v in "$@"; do\n'
        '    if [[ -z "${!v:-}" ]]; then missing+=("$v"); fi\n  done\n'
        "  if [[ ${#missing[@]} -gt 0 ]]; then exit 1; fi\n}\n"
        "check A B C D E F G H I J\nvllm serve m --hf-overrides '{}'\n"
    )
    run = evaluate(read_script(text, "x.sh"), None)
    assert [launch.command for launch in run.launches] == ["vllm serve"]


def test_gather_asks_for_a_changed_file_a_script_sources(policy):
    from builders import build

    from signoff.judge.context import JudgeContext
    from signoff.judge.model import want_file
    from signoff.judge.sourced import wants

    helper = "benchmarks/single_node/fixed_seq_len/tuning.env"
    script = SCRIPT.replace("hf download", 'source "$(dirname "$0")/tuning.env"\nhf download')
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, script)
    add_changed_file(parts, helper, "export A=1\n", read=False)
    asked = list(wants(JudgeContext(build(parts), policy)))
    assert want_file(helper, "head") in asked


def test_a_command_substitution_inside_arithmetic_is_read():
    """The real library's `local deadline=$(( $(date +%s) + ... ))`: a reading that could not
    find the substitution was incomplete for every script sourcing a changed library."""
    from signoff.parse.bench_script import evaluate, read_script

    text = "f() {\n  local d=$(( $(date +%s) + ${T:-5} ))\n}\nf\nx=$(( $((1 + 2)) * 3 ))\n"
    run = evaluate(read_script(text, "x.sh"), None)
    assert run.complete, run.problems
    assert [command.argv for command in run.commands] == [("date", "+%s")]
