"""Run-time programs in a shared library read alone: baseline when the base ran them the same way.

A library's functions run for an unknown caller, so what they run by a run-time word is read at
the base the same way (judge/baseline.py). Two shapes need their feed compared: a shell reading
its script from a pipe (`curl -LsSf URL | sh`), whose program is the pipeline's text (producer,
URL) and the function running it; and a command line built by appending to one variable
(`CMD="$CLI profile"`, `CMD+=" --model $MODEL"`), whose appended pieces feed arguments only.
The same reading at base and head is no new finding; a PR that adds or changes either still
fails closed.
"""

from __future__ import annotations

import pytest
from builders import SCRIPT, SCRIPT_PATH, add_changed_file, passing_parts, replace_file

LIB = "benchmarks/benchmark_lib.sh"

INSTALLER = (
    "#!/usr/bin/env bash\n"
    "ensure_uv() {\n"
    '    UV_DIR="${RUNTIME_DIR}/uv"\n'
    '    if [ ! -x "$UV_DIR/uv" ]; then\n'
    '        mkdir -p "$UV_DIR"\n'
    "        curl -LsSf https://astral.sh/uv/install.sh |\n"
    '            UV_INSTALL_DIR="$UV_DIR" sh\n'
    "    fi\n"
    "}\n"
    "note_done() {\n"
    '    echo "done" >&2\n'
    "}\n"
)

REPLAY = (
    "#!/usr/bin/env bash\n"
    "run_replay() {\n"
    '    local result_dir="$1"\n'
    '    REPLAY_CMD="$AIPERF_CLI profile --scenario agentic"\n'
    '    REPLAY_CMD+=" --model $MODEL"\n'
    '    REPLAY_CMD+=" --concurrency $CONC"\n'
    '    REPLAY_CMD+=" --output-artifact-dir $result_dir/artifacts"\n'
    '    $REPLAY_CMD 2>&1 | tee "$result_dir/benchmark.log"\n'
    "}\n"
    "note_done() {\n"
    '    echo "done" >&2\n'
    "}\n"
)


def _library_pr(base: str, head: str) -> dict:
    """A PR that changes the library, a master config (a sweep variable may change) and a
    document beside it (so a run-time word that may reach into the checkout would count)."""
    parts = passing_parts()
    add_changed_file(parts, LIB, head, base=base)
    replace_file(parts, LIB, "base", base)
    add_changed_file(parts, "utils/evals/EVALS.md", "# evals\n")
    return parts


def _elsewhere(text: str) -> str:
    """The library with an unrelated function changed (what the PR really touches)."""
    return text.replace('echo "done"', 'echo "finished"')


@pytest.mark.parametrize("check_id", ["no-arch-hacks", "engine-patches"])
def test_an_unchanged_piped_installer_in_a_library_read_alone_is_baseline(check, check_id):
    result = check(_library_pr(INSTALLER, _elsewhere(INSTALLER)), check_id)
    assert result.status == "PASS", result.reason


# The same library fetching its installer from a URL the profile does not trust: the baseline
# rules below are what keep an unchanged one from counting.
UNTRUSTED = INSTALLER.replace("https://astral.sh/uv/install.sh", "https://example.com/x.sh")
FETCHED = "a program fetched from `https://example.com/x.sh`"


@pytest.mark.parametrize(("installer", "status"), [(INSTALLER, "PASS"), (UNTRUSTED, "FAIL")])
def test_a_piped_installer_the_pr_adds_to_a_library_is_judged_by_its_url(check, installer, status):
    """uv's installer is in the profile's fetched_code.trusted; another URL's program is not."""
    base = installer.replace("        curl -LsSf ", "        : ").replace(" sh\n", " true\n")
    result = check(_library_pr(base, installer), "no-arch-hacks")
    assert result.status == status, result.reason
    assert status == "PASS" or FETCHED in result.reason


@pytest.mark.parametrize("check_id", ["no-arch-hacks", "engine-patches"])
def test_an_unchanged_untrusted_piped_installer_in_a_library_is_baseline(check, check_id):
    result = check(_library_pr(UNTRUSTED, _elsewhere(UNTRUSTED)), check_id)
    assert result.status == "PASS", result.reason


def test_a_piped_installer_whose_url_the_pr_changes_still_fails(check):
    result = check(_library_pr(INSTALLER, UNTRUSTED), "no-arch-hacks")
    assert result.status == "FAIL"
    assert FETCHED in result.reason


def test_a_piped_installer_whose_producer_the_pr_changes_still_fails(check):
    head = INSTALLER.replace("curl -LsSf https://astral.sh/uv/install.sh", 'cat "$RUNTIME_DIR/x"')
    result = check(_library_pr(INSTALLER, head), "no-arch-hacks")
    assert result.status == "FAIL"


def test_a_piped_installer_whose_function_the_pr_changes_still_fails(check):
    head = UNTRUSTED.replace('        mkdir -p "$UV_DIR"\n', "        export UV_NO_MODIFY_PATH=0\n")
    result = check(_library_pr(UNTRUSTED, head), "no-arch-hacks")
    assert result.status == "FAIL"
    assert FETCHED in result.reason


def test_a_shell_fed_by_a_redirect_in_a_library_is_never_baseline(check):
    text = INSTALLER.replace(
        "        curl -LsSf https://astral.sh/uv/install.sh |\n"
        '            UV_INSTALL_DIR="$UV_DIR" sh\n',
        '        echo go | sh < "$RUNTIME_DIR/install.sh"\n',
    )
    result = check(_library_pr(text, _elsewhere(text)), "no-arch-hacks")
    assert result.status == "FAIL"


@pytest.mark.parametrize("check_id", ["no-arch-hacks", "engine-patches"])
def test_an_unchanged_command_line_built_by_appending_in_a_library_is_baseline(check, check_id):
    parts = _library_pr(REPLAY, _elsewhere(REPLAY))
    result = check(parts, check_id)
    assert result.status == "PASS", result.reason


def test_an_appended_command_line_whose_program_the_pr_changes_still_fails(check):
    head = REPLAY.replace('"$AIPERF_CLI profile', '"$AIPERF_PY profile')
    result = check(_library_pr(REPLAY, head), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_an_argument_piece_the_pr_changes_is_data_to_the_unchanged_program(check):
    """A piece appended after a blank starts a new field: it never changes the file that
    runs, so the PR changing it (or what feeds it) is no new run of a run-time file."""
    head = REPLAY.replace('" --concurrency $CONC"', '" --concurrency $CONC --x $N"')
    head = head.replace('    local result_dir="$1"\n', '    local result_dir="$1"\n    N=4\n')
    result = check(_library_pr(REPLAY, head), "no-arch-hacks")
    assert result.status == "PASS", result.reason


def test_a_piece_appended_without_a_blank_the_pr_changes_still_fails(check):
    """Appended without a blank, a piece joins the program's own field: it may change the
    file that runs."""
    base = REPLAY.replace('"$AIPERF_CLI profile --scenario agentic"', '"$AIPERF_CLI"')
    head = base.replace(
        '    REPLAY_CMD+=" --model $MODEL"\n', '    REPLAY_CMD+="-x --model $MODEL"\n'
    )
    result = check(_library_pr(base, head), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_command_line_whose_fields_split_elsewhere_stays_unknown(check):
    base = REPLAY.replace("    local result_dir", "    IFS=,\n    local result_dir")
    head = base.replace('" --concurrency $CONC"', '" --concurrency $CONC --x"')
    result = check(_library_pr(base, head), "no-arch-hacks")
    assert result.status == "FAIL"


def test_a_command_line_run_quoted_is_one_program_word_and_its_pieces_count(check):
    """Quoted, the whole value (pieces included) names the file that runs: a sweep variable
    appended to it may change that file, so a master-config change keeps it counting."""
    text = REPLAY.replace("    $REPLAY_CMD 2>&1", '    "$REPLAY_CMD" 2>&1')
    parts = _library_pr(text, _elsewhere(text))
    add_changed_file(parts, "utils/tools/MODEL.txt", "MODEL=x\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_command_line_that_may_be_left_blank_before_its_pieces_stays_unknown(check):
    text = REPLAY.replace(
        '    REPLAY_CMD="$AIPERF_CLI profile --scenario agentic"\n', '    REPLAY_CMD=""\n'
    )
    parts = _library_pr(text, _elsewhere(text))
    add_changed_file(parts, "utils/tools/MODEL.txt", "MODEL=x\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"


def _script_pr(base: str, head: str) -> dict:
    """A PR that changes a benchmark script from `base` (and a document beside it)."""
    parts = passing_parts()
    add_changed_file(parts, SCRIPT_PATH, head, base=base)
    replace_file(parts, SCRIPT_PATH, "base", base)
    add_changed_file(parts, "utils/evals/EVALS.md", "# evals\n")
    return parts


PIPED = SCRIPT.replace(
    'hf download "$MODEL"\n',
    'hf download "$MODEL"\ncurl -LsSf https://astral.sh/uv/install.sh |\n    sh\n',
)


def test_an_unchanged_piped_installer_at_a_scripts_top_level_is_baseline(check):
    head = PIPED.replace("PORT=${PORT:-8888}", "PORT=${PORT:-8889}")
    result = check(_script_pr(PIPED, head), "no-arch-hacks")
    assert result.status == "PASS", result.reason


def test_a_piped_installer_whose_url_the_pr_changes_at_top_level_still_fails(check):
    head = PIPED.replace("https://astral.sh/uv/install.sh", "https://example.com/x.sh")
    result = check(_script_pr(PIPED, head), "no-arch-hacks")
    assert result.status == "FAIL"
    assert FETCHED in result.reason


def test_ifs_given_only_to_one_read_leaves_an_appended_command_line_baseline(check):
    text = REPLAY.replace(
        '    echo "done" >&2\n', '    IFS=, read -r -a urls <<< "$URLS"\n    echo "done" >&2\n'
    )
    head = _elsewhere(text).replace('" --concurrency $CONC"', '" --concurrency $CONC --x"')
    result = check(_library_pr(text, head), "no-arch-hacks")
    assert result.status == "PASS", result.reason


def test_an_override_flag_the_pr_appends_to_a_command_line_still_fails(check):
    """Appended pieces are data to an unchanged program, but an override flag written in one
    is still an override flag: the PR cannot hide `--hf-overrides` in an argument piece."""
    head = _elsewhere(REPLAY).replace(
        '" --concurrency $CONC"', "\" --concurrency $CONC --hf-overrides '{}'\""
    )
    result = check(_library_pr(REPLAY, head), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "--hf-overrides" in result.reason
