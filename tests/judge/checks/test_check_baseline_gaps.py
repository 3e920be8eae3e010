"""What a script's reading cannot see counts against a PR only when the PR changed it: a gap the
base had on the same command, fed the same, is baseline; a gap the PR adds, moves, copies, makes
reachable or feeds differently still fails closed (Checks 7, 8 and engine-patches)."""

from __future__ import annotations

import pytest
from builders import (
    SCRIPT,
    SCRIPT_PATH,
    add_changed_file,
    modified_script,
    passing_parts,
    replace_file,
)

CHECKS = ("no-arch-hacks", "spec-chat-template", "engine-patches")
ANCHOR = 'hf download "$MODEL"\n'
EVAL = 'eval "$(python3 /opt/tools/flags.py)"\n'
ROUTER = 'ROUTER_BIN="$(cat /opt/router/bin_path)"\nROUTER_CMD=("$ROUTER_BIN" --serve)\n'
OTHER = "utils/tools/router-shim"
ROUTER_CALL = '"${ROUTER_CMD[@]}" --port 30000 &\n'


def _with(text: str, extra: str, *, first: bool = False) -> str:
    """SCRIPT with `extra` after its download line (or right after the shebang)."""
    if first:
        return text.replace("#!/usr/bin/env bash\n", "#!/usr/bin/env bash\n" + extra, 1)
    return text.replace(ANCHOR, ANCHOR + extra, 1)


def _status(check, parts: dict, check_id: str) -> tuple[str, str]:
    result = check(parts, check_id)
    return result.status, result.reason


def _beside_another_change(check, check_id: str, extra: str) -> tuple[str, str]:
    """`extra` the same at base and head (the lines shift), and the PR adds a file a path the
    gap builds might reach (any file a run-time word may run)."""
    base = _with(SCRIPT, extra)
    parts = modified_script(base, _with(base, "# comment\n", first=True))
    add_changed_file(parts, OTHER, "#!/bin/sh\necho hi\n")
    return _status(check, parts, check_id)


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unreadable_eval_the_base_already_ran_is_no_new_finding(check, check_id):
    base = _with(SCRIPT, EVAL)
    head = _with(base, "# tuned for B200\nexport NCCL_DEBUG=WARN\n", first=True)  # lines shift
    status, reason = _status(check, modified_script(base, head), check_id)
    assert status == "PASS", reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unreadable_eval_the_pr_adds_still_fails_closed(check, check_id):
    status, reason = _status(check, modified_script(SCRIPT, _with(SCRIPT, EVAL)), check_id)
    assert status == "FAIL" and "eval of text known only at run time" in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_changed_unreadable_eval_still_fails_closed(check, check_id):
    base = _with(SCRIPT, EVAL)
    head = _with(SCRIPT, EVAL.replace("flags.py", "flags.py --fast"))
    status, reason = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL" and "eval of text known only at run time" in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_eval_that_was_dead_code_at_the_base_is_new_when_the_pr_makes_it_run(check, check_id):
    base = _with(SCRIPT, "tune() {\n  " + EVAL + "}\n")
    head = _with(SCRIPT, "tune() {\n  " + EVAL + "}\ntune\n")
    status, reason = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL" and "eval of text known only at run time" in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unchanged_eval_fed_by_an_assignment_the_pr_changes_fails(check, check_id):
    line = 'eval "$TUNE_CMD"\n'
    base = _with(SCRIPT, 'TUNE_CMD="$(cat /opt/tune.txt)"\n' + line)
    head = _with(SCRIPT, 'TUNE_CMD="$(cat /tmp/tune.txt)"\n' + line)
    status, reason = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL" and "eval of text known only at run time" in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unchanged_eval_fed_transitively_by_a_changed_assignment_fails(check, check_id):
    line = 'CMD="$PREFIX --x"\neval "$CMD"\n'
    base = _with(SCRIPT, 'PREFIX="$(cat /opt/a)"\n' + line)
    head = _with(SCRIPT, 'PREFIX="$(cat /opt/b)"\n' + line)
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unchanged_eval_of_a_variable_the_pr_changes_in_the_launcher_fails(check, check_id):
    base = _with(SCRIPT, 'eval "$TUNE_CMD"\n')
    parts = modified_script(base, _with(base, "# comment\n", first=True))
    add_changed_file(
        parts, "runners/launch_b200-nv.sh", 'export TUNE_CMD="vllm serve --hf-overrides x"\n',
        base="#!/usr/bin/env bash\n",
    )  # fmt: skip
    status, _ = _status(check, parts, check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unchanged_eval_of_a_variable_a_launcher_may_set_by_a_computed_name_fails(
    check, check_id
):
    base = _with(SCRIPT, 'eval "$TUNE_CMD"\n')
    parts = modified_script(base, _with(base, "# comment\n", first=True))
    add_changed_file(
        parts, "runners/launch_b200-nv.sh", 'export "${KIND}_CMD=vllm serve"\n',
        base="#!/usr/bin/env bash\n",
    )  # fmt: skip
    status, _ = _status(check, parts, check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unchanged_eval_of_a_callers_argument_fails_when_the_pr_adds_a_call(check, check_id):
    base = _with(SCRIPT, 'run_it() {\n  eval "$1"\n}\nrun_it "$(cat /opt/a)"\n')
    head = _with(base, 'run_it "$(cat /opt/b)"\n')
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unreadable_eval_copied_into_a_new_script_counts(check, check_id):
    parts = passing_parts()  # the script is added: it has no base
    add_changed_file(parts, SCRIPT_PATH, _with(SCRIPT, EVAL))
    status, reason = _status(check, parts, check_id)
    assert status == "FAIL" and "eval of text known only at run time" in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unreadable_eval_fails_when_the_base_text_was_not_read(check, check_id):
    base = _with(SCRIPT, EVAL)
    parts = modified_script(base, _with(base, "# comment\n", first=True))
    replace_file(parts, SCRIPT_PATH, "base", None, state="unavailable")
    status, _ = _status(check, parts, check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
@pytest.mark.parametrize(
    "line", ["source /etc/os-release\n", '. "$WORKSPACE/amd_utils/binaries.env"\n']
)
def test_a_file_sourced_from_the_image_or_an_unchanged_workspace_counts_for_nothing(
    check, check_id, line
):
    # even on a line the PR adds: the file itself is not the PR's
    status, reason = _status(check, modified_script(SCRIPT, _with(SCRIPT, line)), check_id)
    assert status == "PASS", reason


@pytest.mark.parametrize("check_id", CHECKS[:2])  # engine-patches reads around sources
def test_a_sourced_file_whose_name_the_pr_adds_is_read_as_the_pr_wrote_it(check, check_id):
    # The run-time path may name the file the PR adds (judge/sourced): that file is read, and
    # a gap in it is the PR's own, never baseline.
    parts = modified_script(SCRIPT, _with(SCRIPT, 'source "$WORKSPACE/binaries.env"\n'))
    add_changed_file(parts, "benchmarks/binaries.env", 'eval "$VLLM_EXTRA"\n')
    status, reason = _status(check, parts, check_id)  # reported at the script's source line
    assert status == "FAIL" and "eval of text known only at run time" in reason
    harmless = modified_script(SCRIPT, _with(SCRIPT, 'source "$WORKSPACE/binaries.env"\n'))
    add_changed_file(harmless, "benchmarks/binaries.env", "export VLLM_USE_X=1\n")
    status, reason = _status(check, harmless, check_id)
    assert status == "PASS", reason


@pytest.mark.parametrize("check_id", CHECKS[:2])  # engine-patches reads around sources
def test_a_file_the_script_writes_before_sourcing_it_still_fails(check, check_id):
    line = "echo 'vllm() { command vllm \"$@\"; }' > /tmp/shim.env\nsource /tmp/shim.env\n"
    status, reason = _status(check, modified_script(SCRIPT, _with(SCRIPT, line)), check_id)
    assert status == "FAIL" and "/tmp/shim.env" in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unchanged_run_time_command_is_baseline_although_the_pr_changes_other_files(
    check, check_id
):
    status, reason = _beside_another_change(check, check_id, ROUTER + ROUTER_CALL)
    assert status == "PASS", reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_run_time_command_whose_assignment_the_pr_changes_still_fails(check, check_id):
    base = _with(SCRIPT, ROUTER + ROUTER_CALL)
    head = _with(SCRIPT, ROUTER.replace("/opt/router/", "/tmp/router/") + ROUTER_CALL)
    parts = modified_script(base, head)
    add_changed_file(parts, OTHER, "#!/bin/sh\necho hi\n")  # any file a run-time word may run
    status, reason = _status(check, parts, check_id)
    assert status == "FAIL" and "known only at run time" in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_run_time_command_the_pr_moves_into_a_new_branch_still_fails(check, check_id):
    base = _with(SCRIPT, ROUTER + ROUTER_CALL)
    head = _with(SCRIPT, ROUTER + 'if [ -n "$ROUTE" ]; then\n' + ROUTER_CALL + "fi\n")
    parts = modified_script(base, head)
    add_changed_file(parts, OTHER, "#!/bin/sh\necho hi\n")  # any file a run-time word may run
    status, _ = _status(check, parts, check_id)
    assert status == "FAIL"


# Attacks on the comparison itself: a hostile PR keeps every line's text and moves things.


@pytest.mark.parametrize("check_id", CHECKS)
def test_moving_an_assignment_across_an_unchanged_eval_changes_what_feeds_it(check, check_id):
    base = _with(SCRIPT, 'X="$(cat /opt/a)"\neval "$X"\nX="$(cat /opt/b)"\n')
    head = _with(SCRIPT, 'X="$(cat /opt/a)"\nX="$(cat /opt/b)"\neval "$X"\n')
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_second_copy_of_a_baseline_eval_is_new(check, check_id):
    base = _with(SCRIPT, EVAL)
    head = _with(SCRIPT, EVAL + "cd /tmp\n" + EVAL)
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_calling_a_function_that_sets_the_evals_input_earlier_changes_what_feeds_it(
    check, check_id
):
    setter = 'pick() {\n  X="$(cat /opt/b)"\n}\nX="$(cat /opt/a)"\n'
    base = _with(SCRIPT, setter + 'eval "$X"\npick\n')
    head = _with(SCRIPT, setter + 'pick\neval "$X"\n')
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_calling_the_function_around_a_baseline_eval_once_more_is_new(check, check_id):
    body = 'tune() {\n  eval "$(python3 /opt/tools/flags.py)"\n}\ntune\n'
    base = _with(SCRIPT, body)
    head = _with(SCRIPT, body + "tune\n")
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_eval_of_a_variable_a_sourced_file_sets_counts_when_a_changed_file_names_it(
    check, check_id
):
    base = _with(SCRIPT, 'source /etc/profile.d/tune.sh\neval "$TUNE"\n')
    parts = modified_script(base, _with(base, "# comment\n", first=True))
    add_changed_file(parts, "benchmarks/single_node/notes.md", "TUNE is set to --hf-overrides\n")
    status, _ = _status(check, parts, check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_baseline_eval_no_longer_counts_for_nothing_once_the_pr_changes_what_runs_after_it(
    check, check_id
):
    # eval may set any variable: a launch line the PR changes after it may read what it set
    base = _with(SCRIPT, EVAL)
    head = base.replace("--kv-cache-dtype fp8 \\\n", '--kv-cache-dtype "$KV" \\\n')
    status, reason = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL" and "eval of text known only at run time" in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_moving_a_baseline_eval_ahead_of_the_launch_is_new(check, check_id):
    base = SCRIPT + EVAL
    head = _with(SCRIPT, EVAL)
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_baseline_bash_c_of_run_time_text_runs_apart_so_later_changes_do_not_matter(
    check, check_id
):
    base = _with(SCRIPT, 'bash -c "$(cat /opt/warmup.txt)"\n')
    head = base.replace("--kv-cache-dtype fp8", "--kv-cache-dtype fp8 --max-num-seqs 256")
    status, reason = _status(check, modified_script(base, head), check_id)
    assert status == "PASS", reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_parse_problem_the_base_shared_is_never_baseline(check, check_id):
    base = SCRIPT + "echo 'unterminated\n"
    head = _with(base, "# comment\n", first=True)
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize(
    "source",
    [
        'ROUTER_BIN="$(ls ./tools/*)"',  # a glob over the checkout
        'ROUTER_BIN="$(ls "$(dirname "$0")/tools" | head -1)"',  # the script's own directory
        'ROUTER_BIN="$(cat "$GITHUB_WORKSPACE/utils/router.txt")"',
    ],
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unchanged_run_time_command_that_may_name_a_repository_file_still_counts(
    check, check_id, source
):
    # the same line and assignment at the base, but the PR adds a file the path may reach
    status, reason = _beside_another_change(
        check, check_id, source + "\n" + 'ROUTER_CMD=("$ROUTER_BIN" --serve)\n' + ROUTER_CALL
    )
    assert status == "FAIL" and "known only at run time" in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unchanged_eval_of_a_repository_file_the_pr_changes_is_new(check, check_id):
    base = _with(SCRIPT, 'eval "$(cat "$GITHUB_WORKSPACE/benchmarks/tune.txt")"\n')
    parts = modified_script(base, _with(base, "# comment\n", first=True))
    tune = "benchmarks/tune.txt"
    add_changed_file(parts, tune, "--hf-overrides x\n", base="--max-num-seqs 8\n")
    status, _ = _status(check, parts, check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_image_file_sourced_inside_an_assignment_counts_for_nothing(check, check_id):
    line = 'os_version=$(. /etc/os-release && printf \'%s-%s\' "$ID" "$VERSION_ID")\n'
    status, reason = _status(check, modified_script(SCRIPT, _with(SCRIPT, line)), check_id)
    assert status == "PASS", reason


@pytest.mark.parametrize("check_id", CHECKS[:2])  # engine-patches reads around sources
def test_an_image_path_the_script_keeps_in_a_variable_before_sourcing_it_still_fails(
    check, check_id
):
    line = "ENV_FILE=/tmp/tuned.env\nsource /tmp/tuned.env\n"
    status, _ = _status(check, modified_script(SCRIPT, _with(SCRIPT, line)), check_id)
    assert status == "FAIL"


# --- an eval of an inline program that prints known assignments ----------------------------

LOADER = (
    'CFG="/opt/tune/models.yaml"\n'
    'eval "$(python3 -c "\n'
    "import yaml, sys\n"
    "config_path = '${CFG}'\n"
    "with open(config_path) as f:\n"
    "    m = yaml.safe_load(f)\n"
    "if 'x' not in m:\n"
    "    print(f'echo \\\"no entry\\\"; exit 1')\n"
    "    sys.exit(0)\n"
    'print(f\'TUNE_FLAGS=\\"{m.get(\\"flags\\", \\"\\")}\\"\')\n'
    'print(f\'TUNE_SEQS=\\"{m.get(\\"seqs\\", 8)}\\"\')\n'
    '")"\n'
)


def _loader_pr(launch: str) -> dict:
    """LOADER at base and head; the PR changes the launch's `--kv-cache-dtype fp8` to `launch`."""
    base = _with(SCRIPT, LOADER)
    return modified_script(base, base.replace("--kv-cache-dtype fp8", launch))


MORE_SEQS = "--kv-cache-dtype fp8 --max-num-seqs 256"


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_later_change_that_reads_nothing_a_known_assignment_eval_sets_is_no_new_finding(
    check, check_id
):
    status, reason = _status(check, _loader_pr(MORE_SEQS), check_id)
    assert status == "PASS", reason


@pytest.mark.parametrize(
    "launch",
    ["--kv-cache-dtype fp8 $TUNE_FLAGS", "--kv-cache-dtype fp8 --max-num-seqs ${!NAME}"],
    ids=["names-one-it-sets", "reads-any-variable"],
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_a_later_change_that_reads_what_a_known_assignment_eval_sets_still_fails(
    check, check_id, launch
):
    status, reason = _status(check, _loader_pr(launch), check_id)
    assert status == "FAIL" and "eval of text known only at run time" in reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_later_change_that_reads_a_name_computed_from_an_eval_assignment_still_fails(
    check, check_id
):
    base = _with(SCRIPT, LOADER + 'EXTRA="$TUNE_FLAGS"\n')
    head = base.replace("--kv-cache-dtype fp8", "--kv-cache-dtype fp8 $EXTRA")
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize(
    "path", ["benchmarks/tune/models.yaml", "benchmarks/yaml.py"], ids=["data-file", "module"]
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_a_known_assignment_eval_whose_data_file_or_module_the_pr_changes_still_fails(
    check, check_id, path
):
    parts = _loader_pr(MORE_SEQS)
    add_changed_file(parts, path, "flags: --hf-overrides x\n", base="flags: ''\n")
    status, reason = _status(check, parts, check_id)
    assert status == "FAIL" and "eval of text known only at run time" in reason


@pytest.mark.parametrize(
    "program",
    [
        "print(f'{m}')",  # prints a line that is not a known assignment
        "sys.stdout.write(m['x'])",  # writes another way
        "print(open(sys.argv[1]).read())",  # reads a path it is not given by a literal
    ],
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_an_eval_whose_program_may_print_other_text_keeps_every_later_change_held(
    check, check_id, program
):
    loader = LOADER.replace("print(f'TUNE_SEQS", program + "\nprint(f'TUNE_SEQS")
    base = _with(SCRIPT, loader)
    head = base.replace("--kv-cache-dtype fp8", MORE_SEQS)
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_known_assignment_eval_the_pr_changes_still_fails_closed(check, check_id):
    base = _with(SCRIPT, LOADER)
    head = base.replace("TUNE_SEQS", "TUNE_BATCH")
    status, _ = _status(check, modified_script(base, head), check_id)
    assert status == "FAIL"


BUILT = 'N="$(cat /opt/n)"\nRUN_CMD="bash /opt/tools/bench.sh $((N*2)) ${N}"\neval "$RUN_CMD"\n'


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_arithmetic_expansion_in_an_unchanged_eval_is_no_glob_into_the_checkout(check, check_id):
    status, reason = _beside_another_change(check, check_id, BUILT)
    assert status == "PASS", reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_unchanged_eval_that_runs_a_file_of_a_name_the_pr_changes_is_new(check, check_id):
    base = _with(SCRIPT, BUILT)
    parts = modified_script(base, _with(base, "# comment\n", first=True))
    add_changed_file(parts, "utils/tools/bench.sh", "#!/bin/sh\necho hi\n")
    status, reason = _status(check, parts, check_id)
    assert status == "FAIL" and "eval of text known only at run time" in reason


INDEXED = (
    'HOSTS=("$(cat /opt/hosts)")\nfor i in 0 1; do\n  URLS[$i]="${HOSTS[$i]}:5000"\ndone\n'
    'RUN_CMD="python3 -m sglang.launch_server --dist-init-addr ${URLS[0]}"\n'
    'bash -c "$RUN_CMD"\n'
)


@pytest.mark.parametrize("check_id", CHECKS)
def test_an_array_element_assignment_feeding_an_unchanged_gap_is_no_glob_into_the_checkout(
    check, check_id
):
    # `URLS[$i]=` names an element of an array: its brackets are a subscript, not a pattern
    status, reason = _beside_another_change(check, check_id, INDEXED)
    assert status == "PASS", reason


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_glob_in_the_value_of_an_array_element_still_reaches_into_the_checkout(check, check_id):
    status, reason = _beside_another_change(
        check, check_id, INDEXED.replace('"${HOSTS[$i]}:5000"', "$(ls ./tools/*)")
    )
    assert status == "FAIL" and "-c of text known only at run time" in reason


STRIPPED = (
    'ROUTER_CMD="$(cat /opt/router/cmd)"\n'
    "bash -c \"exec $ROUTER_CMD\" > >(sed -u -r 's/\\x1b\\[[0-9;]*[a-zA-Z]//g' >/tmp/r.log) 2>&1 &\n"
)


@pytest.mark.parametrize("check_id", CHECKS)
def test_a_pattern_a_program_gets_in_single_quotes_is_no_glob_into_the_checkout(check, check_id):
    # sed's regex is the program's own text: bash expands nothing in single quotes
    status, reason = _beside_another_change(check, check_id, STRIPPED)
    assert status == "PASS", reason


@pytest.mark.parametrize(
    "feed",
    [
        # a relative path a program opens stays a path in single quotes
        """ROUTER_CMD="$(python3 -c 'print(open("./tools/cmd").read())')"\n""",
        "ROUTER_CMD='tools/*'\n",  # a value the shell expands later keeps its glob
    ],
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_a_path_into_the_checkout_in_single_quotes_still_counts(check, check_id, feed):
    status, reason = _beside_another_change(
        check, check_id, feed + 'bash -c "exec $ROUTER_CMD $(cat /opt/args)"\n'
    )
    assert status == "FAIL" and "-c of text known only at run time" in reason


@pytest.mark.parametrize(
    "feed",
    [
        "ROUTER_CMD=(--serve 'tools/*')\n",  # an array's single-quoted item expanded later
        'URLS[$(ls${IFS}./tools/*)]=x\nROUTER_CMD="${URLS[0]}"\n',  # a subscript that lists
    ],
)
@pytest.mark.parametrize("check_id", CHECKS)
def test_an_assignment_that_may_list_the_checkout_still_counts(check, check_id, feed):
    status, reason = _beside_another_change(
        check, check_id, feed + 'bash -c "exec ${ROUTER_CMD[*]} $(cat /opt/args)"\n'
    )
    assert status == "FAIL", reason
