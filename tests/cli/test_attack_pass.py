"""Attacks a hostile PR author tries on the surfaces of issue 14 (library, launch files,
builtins, changelog): each must not publish `success`. Named for the class of attack."""

from __future__ import annotations

import time

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


# --- engine patches: what reaches the engine besides its argv ---------------------------------


def _engine_check(check, line: str, files: dict[str, str] | None = None):
    parts = _script(SCRIPT.replace('hf download "$MODEL"\n', f'hf download "$MODEL"\n{line}\n'))
    for path, text in (files or {}).items():
        add_changed_file(parts, path, text)
    return check(parts, "engine-patches", "current")


@pytest.mark.parametrize(
    "line",
    [
        'PYTHONPATH+=":$(dirname "$0")/py"; export PYTHONPATH',
        'printf -v PYTHONPATH %s "$(dirname "$0")/py"; export PYTHONPATH',
        'read -r PYTHONPATH <<< "$(dirname "$0")/py"; export PYTHONPATH',
        'export PYTHONUSERBASE="$(dirname "$0")/user"',
        'export PYTHONHOME="$(dirname "$0")/home"',
        'export LD_PRELOAD="$(dirname "$0")/hook.so"',
    ],
)
def test_a_variable_that_loads_code_into_the_engine_counts_however_bash_sets_it(check, line):
    """Python and the dynamic loader take code from these variables before the engine's own; an
    append, `printf -v` or `read` sets them as surely as `NAME=` does."""
    result = _engine_check(check, line, {f"{HERE}/py/sitecustomize.py": "import os\n"})
    assert result.status == "FAIL", result.reason
    assert "dsv4_fp4_b200_vllm_mtp.sh:6" in result.reason


@pytest.mark.parametrize(
    "line",
    [
        "python3 -c \"import os, vllm; open(os.path.join(os.path.dirname(vllm.__file__), 'x.py'), 'w').write('')\"",
        "python3 - <<'EOF'\nimport os, vllm\nf = open(os.path.join(os.path.dirname(vllm.__file__), 'x.py'), 'w')\nf.write('')\nEOF",
        "python3 -c \"import vllm; open(vllm.__file__, 'r+').write('')\"",
    ],
)
def test_an_inline_program_that_opens_engine_files_for_writing_counts_whatever_it_nests(
    check, line
):
    """`open(...)` whose path argument holds its own calls, or a read-write mode, still writes."""
    result = _engine_check(check, line)
    assert result.status == "FAIL", result.reason
    assert "rewrites installed engine files" in result.reason


@pytest.mark.parametrize("check_id", ["no-arch-hacks", "spec-chat-template", "engine-patches"])
@pytest.mark.parametrize("verb", ["cp", "install -m755", "ln -sf", "mv"])
def test_replacing_the_engine_command_on_path_runs_the_pr_file_in_its_place(check, verb, check_id):
    """`vllm serve` then runs the PR's file: the launch the checks read is no longer the
    engine's, and no rule reads what runs instead (Checks 7 and 8 passed it before)."""
    line = f'{verb} "$(dirname "$0")/vllmw" /usr/local/bin/vllm'
    parts = _script(SCRIPT.replace('hf download "$MODEL"\n', f'hf download "$MODEL"\n{line}\n'))
    add_changed_file(parts, f"{HERE}/vllmw", HACK)
    result = check(parts, check_id, "current")
    assert result.status == "FAIL", result.reason
    assert f"{HERE}/vllmw" in result.reason and "runs `vllm serve" in result.reason


@pytest.mark.parametrize(
    "line", ['python3 < "$(dirname "$0")/p.py"', 'cat "$(dirname "$0")/p.py" | python3']
)
def test_python_reading_its_program_from_standard_input_runs_a_file_the_pr_may_have_written(
    check, line
):
    parts = _script(SCRIPT.replace('hf download "$MODEL"\n', f'hf download "$MODEL"\n{line}\n'))
    add_changed_file(parts, f"{HERE}/p.py", "import vllm\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert "standard input" in result.reason or "p.py" in result.reason


def test_python_given_its_program_in_a_heredoc_still_passes_when_the_pr_changes_other_files(
    check,
):
    parts = _script(
        SCRIPT.replace(
            'hf download "$MODEL"\n', "hf download \"$MODEL\"\npython3 <<'EOF'\nprint(1)\nEOF\n"
        )
    )
    add_changed_file(parts, f"{HERE}/notes.txt", "notes\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "PASS", result.reason


@pytest.mark.parametrize(
    "path",
    [
        f"{HERE}/fork/vllm/entrypoints/openai/api_server.py",
        f"{HERE}/py/sitecustomize.py",
        f"{HERE}/py/usercustomize.py",
        f"{HERE}/site/zz_hook.pth",
        f"{HERE}/lib/libnccl.so.2",  # a native library, loaded from LD_LIBRARY_PATH
        f"{HERE}/fork/vllm/_C.abi3.so",
    ],
)
def test_a_file_the_pr_adds_that_python_imports_ahead_of_the_engine_counts_as_a_patch(check, path):
    """`cd fork && python3 -m vllm...` imports the working directory's `vllm` first; a
    sitecustomize module or a `.pth` file runs at every start; the dynamic linker loads a native
    library from wherever LD_LIBRARY_PATH points. Where it is put on the path is the script's
    business; the file itself shadows the engine."""
    parts = _script(SCRIPT)
    add_changed_file(parts, path, "import os\n")
    result = check(parts, "engine-patches", "current")
    assert result.status == "FAIL", result.reason
    assert path in result.reason


@pytest.mark.parametrize(
    "line",
    [
        'pip install -r "$(dirname "$0")/req.txt"',
        'uv pip install --system --requirement="$(dirname "$0")/req.txt"',
        'python3 -m pip install -U -c "$(dirname "$0")/req.txt" numpy',
        'pip3.12 install -r "$(dirname "$0")/req.txt"',
        'uv pip sync "$(dirname "$0")/req.txt"',
        'pip-sync "$(dirname "$0")/req.txt"',
    ],
)
def test_a_package_list_the_pr_adds_given_to_pip_counts_against_a_pass(check, line):
    """The list may name an engine fork or wheel; signoff does not read it."""
    result = _engine_check(check, line, {f"{HERE}/req.txt": "vllm @ git+https://x/vllm\n"})
    assert result.status == "FAIL", result.reason
    assert "req.txt" in result.reason


# --- launch files: relative paths whose directory is not the repository root ----------------

_AFTER_CD = 'hf download "$MODEL"\ncd "$(dirname "$0")"\n'


@pytest.mark.parametrize(
    ("flag", "path", "text", "check_id", "named"),
    [
        ("--config s.yaml", "s.yaml", "hf-overrides: {a: 2}\n", "no-arch-hacks", "--hf-overrides"),
        ("--hf-config-path cfg/config.json", "cfg/config.json", "{}", "no-arch-hacks", "cfg/"),
        ("--chat-template ./t.jinja", "t.jinja", "{{ x }}", "spec-chat-template", "t.jinja"),
    ],
)
def test_a_relative_launch_path_after_the_script_changes_directory_may_name_a_pr_file(
    check, flag, path, text, check_id, named
):
    """After `cd`, a relative path is read from a directory signoff does not know, so any file
    the PR adds whose path ends with it may be the one the engine reads."""
    parts = _script(_launch(flag).replace('hf download "$MODEL"\n', _AFTER_CD))
    add_changed_file(parts, f"{HERE}/{path}", text)
    result = check(parts, check_id)
    assert result.status == "FAIL", result.reason
    assert named in result.reason


@pytest.mark.parametrize(
    ("key", "path", "check_id"),
    [
        (f"hf-config-path: {HERE}/cfg", "cfg/config.json", "no-arch-hacks"),
        ("tokenizer: tok/tokenizer.json", "tok/tokenizer.json", "no-arch-hacks"),
        ("chat-template: t.jinja", "t.jinja", "spec-chat-template"),
    ],
)
def test_a_path_a_config_file_gives_a_flag_counts_as_the_same_path_on_the_command_line(
    check, key, path, check_id
):
    """The engine reads a `--config` file's values as flags: one naming a file the PR adds
    counts as that flag on the command line would (relative ones from the working directory:
    the repository root, or after `cd` a directory signoff does not know)."""
    script = _launch('--config "$(dirname "$0")/s.yaml"')
    if not key.split(": ", 1)[1].startswith(HERE):
        script = script.replace('hf download "$MODEL"\n', _AFTER_CD)
    parts = _script(script)
    add_changed_file(parts, f"{HERE}/s.yaml", key + "\n")
    add_changed_file(parts, f"{HERE}/{path}", "{}")
    result = check(parts, check_id)
    assert result.status == "FAIL", result.reason
    assert path.rsplit("/", 1)[-1] in result.reason


def test_a_relative_config_value_without_a_cd_is_read_from_the_repository_root(check):
    parts = _script(_launch('--config "$(dirname "$0")/s.yaml"'))
    add_changed_file(parts, f"{HERE}/s.yaml", "tokenizer: tok/tokenizer.json\n")
    add_changed_file(parts, f"{HERE}/tok/tokenizer.json", "{}")
    result = check(parts, "no-arch-hacks")
    assert result.status == "PASS", result.reason


def test_launch_values_that_are_not_paths_name_no_file_after_a_cd(check):
    """`fp8`, `8`, a model id: values without a `/` or a file extension name no file, even
    when the PR adds a directory of that name."""
    parts = _script(SCRIPT.replace('hf download "$MODEL"\n', _AFTER_CD))
    add_changed_file(parts, f"{HERE}/fp8/notes.md", "notes\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "PASS", result.reason


# --- builtins and hooks -----------------------------------------------------------------------


def test_a_command_not_found_handler_runs_as_bash_would_run_it(check):
    """bash runs `command_not_found_handle` for any command it cannot find; which those are is
    known only on the machine, so the handler may run."""
    line = f"command_not_found_handle() {{ {HACK}; }}\nno-such-tool --version"
    parts = _script(SCRIPT.replace('hf download "$MODEL"\n', f'hf download "$MODEL"\n{line}\n'))
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL", result.reason
    assert "--hf-overrides" in result.reason and "command_not_found_handle" in result.reason


# --- bounded work -----------------------------------------------------------------------------


def test_an_inline_program_of_many_open_calls_is_read_in_bounded_work(check):
    """A heredoc line of 6,000 `open(` took the write search quadratic time (16 s; 64 s for
    12,000): the search is one pass per line."""
    body = "import vllm\n" + "open(" * 6_000 + "\n"
    line = f"python3 - <<'EOF'\n{body}EOF"
    started = time.monotonic()
    result = _engine_check(check, line)
    assert time.monotonic() - started < 3.0
    assert result.status == "PASS", result.reason


def test_a_script_of_long_declaration_words_is_read_in_bounded_work(check):
    """40 commands given one word of 600 `export`s each: the loader-variable search takes each
    command segment once, not once per `export` (quadratic: 12 s)."""
    line = "\n".join(["true 'export" + " export" * 600 + "'"] * 40)
    started = time.monotonic()
    result = _engine_check(check, line)
    assert time.monotonic() - started < 3.0
    assert result.status == "PASS", result.reason
