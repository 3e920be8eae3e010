"""Check 1: the sweep's definition is what the sweep job executes, not every file under utils/."""

from __future__ import annotations

from typing import Any

import pytest
from builders import HEAD_SHA, add_listing, build, passing_parts, replace_file

from signoff.judge import sweep_definition
from signoff.judge.checks import sweep
from signoff.judge.context import JudgeContext

WORKFLOWS = {
    ".github/workflows/run-sweep.yml": (
        "jobs:\n  setup:\n    steps:\n      - run: |\n"
        '          python3 "${GITHUB_WORKSPACE}/utils/process_changelog.py" --head-ref x\n'
    ),
    ".github/workflows/benchmark-tmpl.yml": (
        "jobs:\n  benchmark:\n    steps:\n      - run: python3 -m utils.evals.validate_scores\n"
    ),
    ".github/workflows/benchmark-multinode-tmpl.yml": "jobs: {}\n",
    ".github/workflows/collect-evals.yml": "jobs: {}\n",
    ".github/workflows/collect-results.yml": "jobs: {}\n",
}
PROGRAMS = {
    "utils/process_changelog.py": "import json\nfrom matrix_logic.generate import expand\n",
    "utils/matrix_logic/generate.py": "from . import validation\n",
    "utils/matrix_logic/validation.py": "X = 1\n",
    "utils/evals/validate_scores.py": "import yaml\n",
}
LISTINGS = {
    "utils": [
        "process_changelog.py", "matrix_logic/", "evals/", "test_power_contract.py", "EVALS.md"
    ],
    "utils/matrix_logic": ["generate.py", "validation.py", "test_generate.py"],
    "utils/evals": ["validate_scores.py", "EVALS.md"],
}  # fmt: skip


def _changing(path: str, *, read: bool = True) -> dict[str, Any]:
    """The passing PR, also changing `path`; the head's workflows and programs read."""
    parts = passing_parts()
    parts["changed_files"].append(
        {"path": path, "status": "modified", "patch": "@@ -1 +1 @@\n-a\n+b"}
    )
    if read:
        for name, text in {**WORKFLOWS, **PROGRAMS}.items():
            replace_file(parts, name, "head", text)
        for directory, entries in LISTINGS.items():
            add_listing(parts, directory, "head", entries)
    return parts


@pytest.mark.parametrize(
    "path",
    ["utils/test_power_contract.py", "utils/evals/EVALS.md", "utils/matrix_logic/test_generate.py"],
)
def test_a_changed_utils_file_the_sweep_does_not_execute_is_not_its_definition(
    check, path: str
) -> None:
    result = check(_changing(path), "sweep")
    assert result.status == "PASS", result.reason


@pytest.mark.parametrize(
    "path",
    [
        "utils/process_changelog.py",  # a workflow step runs it by path
        "utils/evals/validate_scores.py",  # a workflow step runs it as a module
        "utils/matrix_logic/generate.py",  # an executed program imports it
        "utils/matrix_logic/validation.py",  # imported relatively by an imported module
    ],
)
def test_a_changed_file_the_sweep_executes_fails_check_1_naming_it(check, path: str) -> None:
    result = check(_changing(path), "sweep")
    assert result.status == "FAIL"
    assert f"the PR changes `{path}`, part of the sweep's own definition" in result.reason
    assert "the sweep executes it" in result.reason


def test_a_program_an_executed_program_names_by_path_is_executed(check) -> None:
    parts = _changing("utils/matrix_logic/test_generate.py")
    replace_file(
        parts,
        "utils/matrix_logic/validation.py",
        "head",
        'import subprocess\nsubprocess.run(["python3", "test_generate.py"])\n',
    )
    result = check(parts, "sweep")
    assert result.status == "FAIL" and "utils/matrix_logic/test_generate.py" in result.reason


def test_a_module_imported_by_a_name_known_at_run_time_makes_every_utils_change_count(
    check,
) -> None:
    parts = _changing("utils/test_power_contract.py")
    replace_file(
        parts,
        "utils/matrix_logic/validation.py",
        "head",
        "import importlib, os\nimportlib.import_module(os.environ['M'])\n",
    )
    result = check(parts, "sweep")
    assert result.status == "FAIL"
    assert "imports a module named at run time" in result.reason


def test_an_unreadable_workflow_makes_a_utils_change_count(check) -> None:
    parts = _changing("utils/test_power_contract.py")
    replace_file(parts, ".github/workflows/benchmark-tmpl.yml", "head", None, "unavailable")
    result = check(parts, "sweep")
    assert result.status == "FAIL" and "benchmark-tmpl.yml could not be read" in result.reason


def test_without_the_definitions_reads_a_utils_change_counts(check) -> None:
    result = check(_changing("utils/test_power_contract.py", read=False), "sweep")
    assert result.status == "FAIL"
    assert "the files the sweep executes were not all read" in result.reason


def test_gather_is_asked_for_the_workflows_and_then_what_they_run(policy) -> None:
    parts = _changing("utils/test_power_contract.py", read=False)
    asked = {(w.kind, w.path) for w in sweep.wants(JudgeContext(build(parts), policy))}
    assert {("file", name) for name in WORKFLOWS} <= asked
    for name, text in WORKFLOWS.items():
        replace_file(parts, name, "head", text)
    asked = {(w.kind, w.path) for w in sweep.wants(JudgeContext(build(parts), policy))}
    assert ("dir", "utils") in asked
    assert all(w.role == "head" for w in sweep.wants(JudgeContext(build(parts), policy)))


def test_a_pr_changing_no_utils_file_asks_for_nothing_more(policy) -> None:
    parts = passing_parts()
    assert list(sweep.wants(JudgeContext(build(parts), policy))) == []
    assert parts["pull_request"]["head_sha"] == HEAD_SHA


def test_an_executed_program_too_large_to_parse_makes_every_utils_change_count(check) -> None:
    parts = _changing("utils/test_power_contract.py")
    replace_file(parts, "utils/matrix_logic/validation.py", "head", "x = 1\n" * 100_000)
    result = check(parts, "sweep")
    assert result.status == "FAIL" and "(bound)" in result.reason


def _changing_only(path: str) -> dict[str, Any]:
    """A PR changing nothing but `path`, its sweep green and its eval run empty."""
    parts = _changing(path)
    parts["changed_files"] = [f for f in parts["changed_files"] if f["path"] == path]
    for run in parts.get("evals", []):
        run["rows"] = []
    return parts


def test_a_changed_workflow_no_definition_workflow_calls_is_not_its_definition(check) -> None:
    result = check(_changing(".github/workflows/claude.yml"), "sweep")
    assert result.status == "PASS", result.reason


def test_a_reusable_workflow_a_definition_workflow_calls_is_part_of_it(check) -> None:
    parts = _changing(".github/workflows/shared-steps.yml")
    text = WORKFLOWS[".github/workflows/run-sweep.yml"] + (
        "  bench:\n    uses: ./.github/workflows/shared-steps.yml\n"
    )
    replace_file(parts, ".github/workflows/run-sweep.yml", "head", text)
    replace_file(parts, ".github/workflows/shared-steps.yml", "head", "jobs: {}\n")
    result = check(parts, "sweep")
    assert result.status == "FAIL" and "shared-steps.yml" in result.reason


def test_gather_is_asked_for_the_definition_when_another_workflow_changes(policy) -> None:
    parts = _changing(".github/workflows/claude.yml", read=False)
    asked = {(w.kind, w.path) for w in sweep.wants(JudgeContext(build(parts), policy))}
    assert {("file", name) for name in WORKFLOWS} <= asked


@pytest.mark.parametrize("path", [".github/workflows/claude.yml", "utils/test_power_contract.py"])
def test_a_pr_changing_only_what_the_sweep_does_not_execute_has_nothing_to_evaluate(
    check, path: str
) -> None:
    result = check(_changing_only(path), "evals")
    assert result.status == "PASS" and "nothing to evaluate" in result.reason


@pytest.mark.parametrize(
    ("path", "read", "outside"),
    [
        (".github/workflows/claude.yml", True, True),
        ("utils/test_power_contract.py", True, True),
        ("utils/process_changelog.py", True, False),  # executed
        (".github/workflows/run-sweep.yml", True, False),  # the definition itself
        ("benchmarks/single_node/x.sh", True, False),  # not where the definition lives
        (".github/workflows/claude.yml", False, False),  # the walk is undecided
        ("utils/test_power_contract.py", False, False),
    ],
)
def test_only_a_complete_walk_of_the_definition_shows_a_file_is_not_executed(
    policy, path: str, read: bool, outside: bool
) -> None:
    ctx = JudgeContext(build(_changing(path, read=read)), policy)
    assert sweep_definition.is_not_executed(ctx, path) is outside
