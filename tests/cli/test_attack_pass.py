"""Attacks a hostile PR author tries on the surfaces of issue 14 (library, launch files,
builtins, changelog): each must not publish `success`. Named for the class of attack."""

from __future__ import annotations

import pytest
from builders import SCRIPT, SCRIPT_PATH, add_changed_file, passing_parts

HERE = "benchmarks/single_node/fixed_seq_len"
LIB = "benchmarks/benchmark_lib.sh"
HACK = 'vllm serve "$MODEL" --hf-overrides \'{"num_hidden_layers": 2}\''


def _script(text: str):
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, text)
    return parts


# --- builtins ---------------------------------------------------------------------------------


@pytest.mark.parametrize("builtin", ["set", "true", "export", "command", "source", "test"])
def test_a_function_named_like_a_builtin_runs_instead_of_it(check, builtin):
    """bash calls a function before a builtin of the same name (outside POSIX mode)."""
    parts = _script(
        f"{builtin}() {{ {HACK}; }}\n"
        + SCRIPT.replace('hf download "$MODEL"\n', f'hf download "$MODEL"\n{builtin} x\n')
    )
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert "--hf-overrides" in result.reason


@pytest.mark.parametrize("command", ["sleep 5", "grep -q ready log", "enable -n echo; echo"])
def test_an_external_command_found_on_a_path_the_pr_controls_counts(check, command):
    name = command.split("; ")[-1].split()[0]
    parts = _script(
        SCRIPT.replace(
            'hf download "$MODEL"\n',
            f'export PATH="$(dirname "$0")/bin:$PATH"\n{command}\nhf download "$MODEL"\n',
        )
    )
    add_changed_file(parts, f"{HERE}/bin/{name}", f"#!/bin/sh\n{HACK}\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert f"bin/{name}" in result.reason


def test_a_startup_file_given_through_an_env_wrapper_counts(check):
    parts = _script(SCRIPT + 'env BASH_ENV="$(dirname "$0")/hook.rc" bash -c "echo ready"\n')
    add_changed_file(parts, f"{HERE}/hook.rc", HACK + "\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert "hook.rc" in result.reason


# --- launch files -----------------------------------------------------------------------------


def _launch(extra: str, script: str = SCRIPT) -> str:
    return script.replace(
        '  --tensor-parallel-size "$TP" \\\n', f'  --tensor-parallel-size "$TP" \\\n  {extra} \\\n'
    )


@pytest.mark.parametrize(
    "spelling", ['--conf "$(dirname "$0")/s.yaml"', '--config="$(dirname "$0")/s.yaml"']
)
def test_a_config_flag_in_any_spelling_the_parser_takes_is_read(check, spelling):
    parts = _script(_launch(spelling))
    add_changed_file(parts, f"{HERE}/s.yaml", "hf-overrides: {num_hidden_layers: 2}\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason


def test_a_config_file_that_names_another_config_fails_closed(check):
    parts = _script(_launch('--config "$(dirname "$0")/s.yaml"'))
    add_changed_file(parts, f"{HERE}/s.yaml", "config: other.yaml\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert "s.yaml" in result.reason


def test_a_launch_value_read_at_run_time_from_a_file_the_pr_adds_counts(check):
    parts = _script(_launch('--speculative-config "$(cat "$(dirname "$0")/spec.json")"'))
    add_changed_file(parts, f"{HERE}/spec.json", '{"method": "mtp", "hf_overrides": {}}')
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert "spec.json" in result.reason


@pytest.mark.parametrize(
    "writer",
    [
        "echo 'hf-overr: {\"a\": 1}' > serve.yaml",
        "printf 'hf-overr: 1\\n' > serve.yaml",
        'cp "$(dirname "$0")/../../../utils/serve.yaml" serve.yaml',
        "echo 'hf-overr: 1' > serve.yaml && true --config serve.yaml",
    ],
)
def test_a_config_file_the_script_writes_in_a_way_not_read_fails_closed(check, writer):
    script = _launch("--config serve.yaml").replace(
        'hf download "$MODEL"\n', f'hf download "$MODEL"\n{writer}\n'
    )
    result = check(_script(script), "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert "serve.yaml" in result.reason


# --- library ----------------------------------------------------------------------------------


def test_a_library_sourced_through_bash_source_is_read(check):
    script = SCRIPT.replace(
        'source "$(dirname "$0")/../../benchmark_lib.sh"',
        'source "${BASH_SOURCE%/*}/../../benchmark_lib.sh"',
    )
    parts = _script(script)
    add_changed_file(parts, LIB, f"wait_for_server_ready() {{ {HACK}; }}\n", base="true\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason


def test_a_library_sourced_through_a_variable_is_read(check):
    script = SCRIPT.replace(
        'source "$(dirname "$0")/../../benchmark_lib.sh"',
        'LIB_DIR="$(cd "$(dirname "$0")/../.." && pwd)"\n. "$LIB_DIR/benchmark_lib.sh"',
    )
    parts = _script(script)
    add_changed_file(parts, LIB, f"wait_for_server_ready() {{ {HACK}; }}\n", base="true\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
