"""A program a script names only through the job's environment is not a file the PR wrote.

`if [[ -n "${PY:-}" ]] && command -v "$PY"; then :; else for c in python python3; ...` keeps
the environment's `PY` on one path and a literal candidate on the others. The environment is
the runner's or the image's: unless another changed file may set the variable there, the
program it names is no file of the PR's (the literal candidates are judged by their names).
"""

from __future__ import annotations

import pytest
from builders import SCRIPT, SCRIPT_PATH, add_changed_file, passing_parts

RESOLVE = (
    "resolve_python() {\n"
    '    if [[ -n "${PY:-}" ]] && command -v "$PY" >/dev/null 2>&1; then :\n'
    "    else\n"
    '        PY=""\n'
    '        for c in python python3; do command -v "$c" >/dev/null 2>&1 && { PY="$c"; break; }; done\n'
    "    fi\n"
    '    [[ -n "$PY" ]] || exit 1\n'
    "    export PY\n"
    "}\n"
    "resolve_python\n"
)
ROUTER = 'env CUDA_VISIBLE_DEVICES= "${PY:-python}" -m tilert.pd_router --port "$PORT" &\n'


def _pr(resolve: str = RESOLVE, router: str = ROUTER) -> dict:
    """A PR that adds a script resolving its interpreter, and a document beside it (so a
    file known only at run time would count)."""
    parts = passing_parts()
    text = SCRIPT.replace("PORT=${PORT:-8888}\n", "PORT=${PORT:-8888}\n" + resolve + router)
    add_changed_file(parts, SCRIPT_PATH, text)
    add_changed_file(parts, "utils/evals/EVALS.md", "# evals\n")
    return parts


@pytest.mark.parametrize("check_id", ["no-arch-hacks", "engine-patches"])
def test_a_program_named_by_the_jobs_environment_or_a_literal_candidate_is_no_pr_file(
    check, check_id
):
    result = check(_pr(), check_id)
    assert result.status == "PASS", result.reason


def test_a_changed_file_that_sets_the_variable_in_the_environment_still_fails(check):
    parts = _pr()
    add_changed_file(parts, "runners/launch_b200-dgxc.sh", "export PY=/opt/tools/py\n")
    result = check(parts, "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_candidate_known_only_at_run_time_still_fails(check):
    result = check(
        _pr(RESOLVE.replace("for c in python python3", 'for c in python "$ALT"')), "no-arch-hacks"
    )
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_value_read_from_a_file_still_fails(check):
    resolve = RESOLVE.replace('        PY=""\n', "        read -r PY < /tmp/interpreter\n")
    result = check(_pr(resolve), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_checkout_directory_put_on_path_still_fails(check):
    """A bare name the environment holds would then find a file the PR adds there."""
    resolve = 'export PATH="$(dirname "$0")/bin:$PATH"\n' + RESOLVE
    result = check(_pr(resolve), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_computed_assignment_in_the_script_still_fails(check):
    resolve = RESOLVE + 'name=PY\nprintf -v "$name" %s "$(cat /tmp/interpreter)"\n'
    result = check(_pr(resolve), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_program_word_with_a_substitution_still_fails(check):
    router = ROUTER.replace('"${PY:-python}"', '"${PY:-python}$(cat /tmp/suffix)"')
    result = check(_pr(router=router), "no-arch-hacks")
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason


def test_a_variable_the_script_gives_no_value_of_its_own_still_fails(check):
    """Not a hook: whatever the environment names runs, which may be a file the PR changes."""
    result = check(
        _pr(resolve="", router=ROUTER.replace('"${PY:-python}"', '"$PY"')), "no-arch-hacks"
    )
    assert result.status == "FAIL"
    assert "known only at run time" in result.reason
