"""A script that sources a changed library: its base reading sources the library's base text.

The head reading of a script runs the head text of every changed file it sources, and what that
code runs is reported at the `source` line. The base reading runs the base text of the same
files, so a run-time program the library ran the same way at the base, fed by nothing the PR
changed (in the library or in the script), is baseline; a PR that changes the program, what
feeds it, or calls it where the base did not still fails closed.
"""

from __future__ import annotations

import pytest
from builders import SCRIPT, SCRIPT_PATH, add_changed_file, build, passing_parts, replace_file

from signoff.judge.context import JudgeContext
from signoff.parse.benchmark.launch import ScriptRun
from signoff.policy import load_policy

LIB = "benchmarks/benchmark_lib.sh"

LIBRARY = (
    "#!/usr/bin/env bash\n"
    "run_replay() {\n"
    '    local result_dir="$1"\n'
    '    REPLAY_CMD="$AIPERF_CLI profile --scenario agentic"\n'
    '    REPLAY_CMD+=" --model $MODEL"\n'
    '    REPLAY_CMD+=" --output-artifact-dir $result_dir/artifacts"\n'
    '    $REPLAY_CMD 2>&1 | tee "$result_dir/benchmark.log"\n'
    "}\n"
    "note_done() {\n"
    '    echo "done" >&2\n'
    "}\n"
)

CALLER = SCRIPT + 'run_replay "/tmp/result"\n'


def _pr(library_base: str, library_head: str, script_base: str, script_head: str) -> dict:
    """A PR that changes the library and the script that sources it (and a document beside
    them, so a run-time word that may reach into the checkout would count)."""
    parts = passing_parts()
    add_changed_file(parts, LIB, library_head, base=library_base)
    replace_file(parts, LIB, "base", library_base)
    add_changed_file(parts, SCRIPT_PATH, script_head, base=script_base)
    replace_file(parts, SCRIPT_PATH, "base", script_base)
    add_changed_file(parts, "utils/evals/EVALS.md", "# evals\n")
    return parts


def _elsewhere(text: str) -> str:
    """The library with an unrelated function changed (what the PR really touches)."""
    return text.replace('echo "done"', 'echo "finished"')


def _port(text: str) -> str:
    """The script with an unrelated line changed."""
    return text.replace("PORT=${PORT:-8888}", "PORT=${PORT:-8889}")


@pytest.mark.parametrize("check_id", ["no-arch-hacks", "engine-patches"])
def test_an_unchanged_program_a_changed_library_runs_for_a_sourcing_script_is_baseline(
    check, check_id
):
    parts = _pr(LIBRARY, _elsewhere(LIBRARY), CALLER, _port(CALLER))
    result = check(parts, check_id)
    assert result.status == "PASS", result.reason


def test_a_program_the_pr_changes_in_the_sourced_library_still_fails(check):
    head = LIBRARY.replace('"$AIPERF_CLI profile', '"$AIPERF_PY profile')
    result = check(_pr(LIBRARY, head, CALLER, _port(CALLER)), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_feed_the_pr_adds_in_the_sourced_library_still_fails(check):
    head = LIBRARY.replace(
        '    local result_dir="$1"\n',
        '    local result_dir="$1"\n    read -r AIPERF_CLI < /tmp/cli\n',
    )
    result = check(_pr(LIBRARY, head, CALLER, _port(CALLER)), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_feed_the_pr_adds_in_the_sourcing_script_still_fails(check):
    """The script feeds what the library reads and does not set: a new assignment there is
    a changed feed, even when the program's shown word stays the same."""
    head = _port(CALLER).replace(
        'run_replay "/tmp/result"', 'read -r AIPERF_CLI < /tmp/cli\nrun_replay "/tmp/result"'
    )
    result = check(_pr(LIBRARY, _elsewhere(LIBRARY), CALLER, head), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_library_program_the_base_script_never_called_still_fails(check):
    """Dead code at the base proves nothing: the PR's new call runs it for the first time."""
    result = check(_pr(LIBRARY, _elsewhere(LIBRARY), SCRIPT, CALLER), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_sourced_library_whose_base_was_not_read_still_fails(check):
    parts = _pr(LIBRARY, _elsewhere(LIBRARY), CALLER, _port(CALLER))
    replace_file(parts, LIB, "base", None, state="missing")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"


def test_a_feed_the_pr_adds_in_the_script_to_a_name_the_library_also_sets_still_fails(check):
    """The library sets the name from its own earlier value: what the script gives it first
    feeds the program too."""
    library = LIBRARY.replace(
        "run_replay() {\n", 'AIPERF_CLI="${AIPERF_CLI:-$AIPERF_VENV/bin/aiperf}"\nrun_replay() {\n'
    )
    head = _port(CALLER).replace("source ", "read -r AIPERF_CLI < /tmp/cli\nsource ", 1)
    result = check(_pr(library, _elsewhere(library), CALLER, head), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_base_reading_binds_only_what_the_head_reading_bound():
    """The head binds the names the script's own text reads: one only a sourced library reads
    (`IS_AGENTIC`) stays unknown there, so the base reading leaves it unknown too."""
    parts = _pr(LIBRARY, _elsewhere(LIBRARY), CALLER, _port(CALLER))
    ctx = JudgeContext(build(parts), load_policy())
    run = ScriptRun(
        path=SCRIPT_PATH, job="benchmark", environment=(("IS_AGENTIC", "1"), ("MODEL", "m"))
    )
    assert ctx.reading_environment(run) == {"MODEL": "m"}


DIRECT = LIBRARY.replace(
    '$REPLAY_CMD 2>&1 | tee "$result_dir/benchmark.log"', '$REPLAY_CMD --out "$1"'
)


@pytest.mark.parametrize("check_id", ["no-arch-hacks", "engine-patches"])
def test_a_library_program_fed_by_its_functions_argument_is_baseline_while_the_call_is_the_bases(
    check, check_id
):
    parts = _pr(DIRECT, _elsewhere(DIRECT), CALLER, _port(CALLER))
    assert check(parts, check_id).status == "PASS"
    changed_call = _port(CALLER).replace('run_replay "/tmp/result"', 'run_replay "$HOME/out"')
    result = check(_pr(DIRECT, _elsewhere(DIRECT), CALLER, changed_call), check_id)
    assert result.status == "FAIL"
