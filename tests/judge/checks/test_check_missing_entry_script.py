"""An entry the PR adds or changes whose every candidate script is absent at the head runs no
script: its jobs fail before anything is served, so no reading gap is held against the PR (Check
1 judges whether it was swept). Absent means a definite 404 for every script the launcher may
pick, with no launcher changed that could pick another; anything less still fails closed."""

from __future__ import annotations

from typing import Any

import pytest
from builders import SCRIPT_PATH, add_changed_file, passing_parts, replace_file

OTHER_CANDIDATE = "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_mtp.sh"
READING_CHECKS = ("no-arch-hacks", "engine-patches")


def _script_missing(state: str = "missing", other: str | None = "missing") -> dict[str, Any]:
    """The passing PR without its script: the head answers `state` for the entry's own script
    and `other` for the launcher's second choice (None: not read)."""
    parts = passing_parts()
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] != SCRIPT_PATH]
    replace_file(parts, SCRIPT_PATH, "head", None, state=state)
    if other is not None:
        replace_file(parts, OTHER_CANDIDATE, "head", None, state=other)
    return parts


@pytest.mark.parametrize("check_id", READING_CHECKS)
def test_an_entry_whose_every_candidate_script_is_absent_at_the_head_runs_no_script(
    check, check_id: str
) -> None:
    result = check(_script_missing(), check_id)
    assert result.status != "FAIL", result.reason


@pytest.mark.parametrize("check_id", READING_CHECKS)
@pytest.mark.parametrize(
    ("state", "other"),
    [("unavailable", "missing"), ("missing", "unavailable"), ("missing", None)],
)
def test_a_candidate_script_that_was_not_read_still_fails_closed(
    check, check_id: str, state: str, other: str | None
) -> None:
    result = check(_script_missing(state, other), check_id)
    assert result.status == "FAIL" and "could not be" in result.reason


@pytest.mark.parametrize("check_id", READING_CHECKS)
def test_an_absent_script_fails_closed_when_the_pr_changes_a_launcher(check, check_id) -> None:
    parts = _script_missing()
    add_changed_file(parts, "runners/launch_b200-nv.sh", '#!/bin/bash\nbash "$SCRIPT"\n')
    result = check(parts, check_id)
    assert result.status == "FAIL", result.reason
