"""A master-config change that runs nothing new is no recipe change: removals and metadata."""

from __future__ import annotations

from typing import Any

import pytest
from builders import (
    EXISTING_ENTRY,
    MULTI_NODE_HEAD,
    SCRIPT,
    build,
    passing_parts,
    replace_file,
    unified_patch,
)

from signoff.judge.context import JudgeContext

MASTER = "configs/nvidia-master.yaml"
SCRIPT_PATH = "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm.sh"
TWO_SCENARIOS = EXISTING_ENTRY.replace(
    "      - isl: 8192\n",
    "      - isl: 1024\n        osl: 1024\n        search-space:\n"
    "          - { tp: 8, ep: 8, dp-attn: true, conc-start: 4, conc-end: 64 }\n"
    "      - isl: 8192\n",
)
MULTI_NODE = (
    MULTI_NODE_HEAD
    + """\
    agentic-coding:
    - search-space:
      - spec-decoding: mtp
        conc-list: [4, 24]
        prefill:
          num-worker: 1
          tp: 4
          ep: 4
          dp-attn: true
          additional-settings:
          - "CONFIG_FILE=benchmarks/multi_node/srt-slurm-recipes/trtllm/dsv4/c4.yaml"
        decode:
          num-worker: 1
          tp: 8
          ep: 8
          dp-attn: false
"""
)
OFFLOAD = (
    "        kv-offloading: dram\n        kv-offload-backend: { name: native, version: '1.3' }\n"
)


def _master_change(base: str, head: str) -> dict[str, Any]:
    """A PR that changes only the master config from `base` to `head`; no changelog entry, and
    the eval run holds no results (nothing was benchmarked)."""
    parts = passing_parts()
    parts["changed_files"] = [
        {"path": MASTER, "status": "modified", "patch": unified_patch(base, head)}
    ]
    replace_file(parts, MASTER, "base", base)
    replace_file(parts, MASTER, "head", head)
    replace_file(parts, SCRIPT_PATH, "head", SCRIPT)
    parts["evals"][0]["rows"] = []
    return parts


def _changed_keys(parts: dict[str, Any], policy) -> list[str]:
    return [c.key for c in JudgeContext(build(parts), policy).entry_changes]


NARROWINGS = {
    "concurrency points removed": (
        EXISTING_ENTRY,
        EXISTING_ENTRY.replace("conc-end: 256", "conc-end: 128"),
    ),
    "a scenario item removed (a deprecated ISL/OSL)": (TWO_SCENARIOS, EXISTING_ENTRY),
    "metadata a recipe file sets, on a multi-node point": (
        MULTI_NODE,
        MULTI_NODE.replace(
            "        conc-list: [4, 24]\n", OFFLOAD + "        conc-list: [4, 24]\n"
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(NARROWINGS))
def test_a_change_that_runs_nothing_new_needs_no_changelog_entry_and_no_evals(
    check, policy, name: str
) -> None:
    base, head = NARROWINGS[name]
    parts = _master_change(base, head)
    assert _changed_keys(parts, policy) == []
    assert check(parts, "sweep").status == "PASS"
    evals = check(parts, "evals")
    assert evals.status == "PASS" and "nothing to evaluate" in evals.reason


WIDENINGS = {
    "concurrency points added": (
        EXISTING_ENTRY,
        EXISTING_ENTRY.replace("conc-end: 256", "conc-end: 512"),
    ),
    "a scenario item added": (EXISTING_ENTRY, TWO_SCENARIOS),
    "the image changed": (
        EXISTING_ENTRY,
        EXISTING_ENTRY.replace("vllm-openai:v0.11.1", "vllm-openai:v0.12.0"),
    ),
    "offload fields on a multi-node point that runs no recipe file": (
        MULTI_NODE.replace('          - "CONFIG_FILE=', '          - "X='),
        MULTI_NODE.replace('          - "CONFIG_FILE=', '          - "X=').replace(
            "        conc-list: [4, 24]\n", OFFLOAD + "        conc-list: [4, 24]\n"
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(WIDENINGS))
def test_a_change_that_runs_something_new_still_needs_its_changelog_entry_and_evals(
    check, policy, name: str
) -> None:
    base, head = WIDENINGS[name]
    parts = _master_change(base, head)
    assert _changed_keys(parts, policy) != []
    assert check(parts, "sweep").status == "FAIL"  # unselected by the changelog, or unswept


def test_an_unchanged_script_read_in_unchanged_environments_is_not_read_again(policy) -> None:
    # A field no configuration's environment holds changes: every point reads as at base.
    head = EXISTING_ENTRY.replace("  runner: b200\n", "  runner: b200\n  router: { name: r }\n")
    parts = _master_change(EXISTING_ENTRY, head)
    assert _changed_keys(parts, policy) == []


@pytest.mark.parametrize(
    "also_changed", ["runners/launch_b200-nb.sh", "benchmarks/benchmark_lib.sh", SCRIPT_PATH]
)
def test_a_change_to_what_runs_or_feeds_the_script_makes_the_entry_changed_again(
    policy, also_changed: str
) -> None:
    head = EXISTING_ENTRY.replace("  runner: b200\n", "  runner: b200\n  router: { name: r }\n")
    parts = _master_change(EXISTING_ENTRY, head)
    parts["changed_files"].append(
        {"path": also_changed, "status": "modified", "patch": "@@ -1 +1 @@\n-a\n+b"}
    )
    assert _changed_keys(parts, policy) == ["dsv4-fp4-b200-vllm"]


def test_a_script_sourcing_a_file_the_pr_changes_makes_the_entry_changed_again(policy) -> None:
    head = EXISTING_ENTRY.replace("  runner: b200\n", "  runner: b200\n  router: { name: r }\n")
    parts = _master_change(EXISTING_ENTRY, head)
    replace_file(parts, SCRIPT_PATH, "head", 'source "$(dirname "$0")/tuning.env"\n' + SCRIPT)
    parts["changed_files"].append(
        {"path": "benchmarks/single_node/fixed_seq_len/tuning.env", "status": "modified",
         "patch": "@@ -1 +1 @@\n-a\n+b"}
    )  # fmt: skip
    assert _changed_keys(parts, policy) == ["dsv4-fp4-b200-vllm"]


def test_a_pr_that_changes_a_script_still_needs_evals_even_with_no_entry_changed(check) -> None:
    parts = _master_change(EXISTING_ENTRY, EXISTING_ENTRY.replace("conc-end: 256", "conc-end: 128"))
    parts["changed_files"].append(
        {"path": SCRIPT_PATH, "status": "modified", "patch": "@@ -1 +1 @@\n-a\n+b"}
    )
    evals = check(parts, "evals")
    assert evals.status == "FAIL" and "zero exact_match metrics" in evals.reason
