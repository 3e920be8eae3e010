"""A command name runs whatever file the shell finds for it: builtins and variables that
re-point a name (`hash -p`, `enable -f`, `PATH=...`, a path as the launcher, `BASH_ENV`/`ENV`,
functions passed through the environment, exported functions) make it run that file. When the
file is one the PR adds or changes, the reading counts it against Checks 7, 8 and
engine-patches (signoff does not read it as the shell would)."""

from __future__ import annotations

import pytest
from builders import SCRIPT, SCRIPT_PATH, add_changed_file, passing_parts

CHECKS = ("no-arch-hacks", "spec-chat-template")
FAKE = "benchmarks/single_node/fixed_seq_len/bin/vllm"
FAKE_TEXT = '#!/bin/sh\nexec /usr/bin/vllm "$@" --hf-overrides \'{"num_hidden_layers": 2}\'\n'


def _with(script_block: str, extra: tuple[str, str] | None = (FAKE, FAKE_TEXT)):
    parts = passing_parts()
    script = SCRIPT.replace('hf download "$MODEL"\n', f'hf download "$MODEL"\n{script_block}')
    add_changed_file(parts, SCRIPT_PATH, script)
    if extra is not None:
        add_changed_file(parts, *extra)
    return parts


REPOINTING = {
    "PATH": 'export PATH="$(dirname "$0")/bin:$PATH"\n',
    "hash -p": 'hash -p "$(dirname "$0")/bin/vllm" vllm\n',
    "a path as the launcher": "",  # the launch itself is written as a path, below
}


@pytest.mark.parametrize("how", sorted(REPOINTING))
@pytest.mark.parametrize("check_id", CHECKS)
def test_a_launcher_name_re_pointed_at_a_file_the_pr_adds_counts_against(check, how, check_id):
    parts = _with(REPOINTING[how])
    if how == "a path as the launcher":
        script = SCRIPT.replace("vllm serve", '"$(dirname "$0")/bin/vllm" serve')
        add_changed_file(parts, SCRIPT_PATH, script)
    result = check(parts, check_id)
    assert result.status == "FAIL", (how, result.reason)
    assert FAKE in result.reason


def test_a_builtin_loaded_from_a_file_the_pr_adds_counts_against(check):
    lib = ("benchmarks/single_node/fixed_seq_len/fast.so", "\x7fELF")
    parts = _with('enable -f "$(dirname "$0")/fast.so" vllm\n', lib)
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "fast.so" in result.reason


@pytest.mark.parametrize("name", ["BASH_ENV", "ENV"])
def test_a_shell_startup_file_the_pr_adds_counts_against(check, name):
    hook = ("benchmarks/single_node/fixed_seq_len/hook.rc", "vllm() { :; }\n")
    parts = _with(f'export {name}="$(dirname "$0")/hook.rc"\nbash -c "echo ready"\n', hook)
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "hook.rc" in result.reason


def _appended(block: str):
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, SCRIPT + block)
    return parts


def test_a_function_passed_through_the_environment_is_not_read(check):
    parts = _appended(
        'env "BASH_FUNC_vllm%%=$(cat "$(dirname "$0")/body.txt")" bash -c "vllm serve m"\n'
    )
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "BASH_FUNC_" in result.reason


def test_an_exported_function_runs_in_the_shells_the_script_starts(check):
    block = (
        'vllm() { command vllm "$@" --hf-overrides \'{"a": 1}\'; }\n'
        "export -f vllm\nbash benchmarks/single_node/fixed_seq_len/unchanged.sh\n"
    )
    result = check(_appended(block), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "--hf-overrides" in result.reason


def test_an_alias_makes_the_reading_incomplete(check):
    result = check(_with('alias vllm="$(dirname "$0")/bin/vllm"\n'), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "alias" in result.reason


def test_names_re_pointed_at_unchanged_files_count_for_nothing(check):
    parts = _with('export PATH="/opt/venv/bin:$PATH"\nhash -p /usr/bin/vllm vllm\n', None)
    for check_id in CHECKS:
        assert check(parts, check_id).status == "PASS", check_id
