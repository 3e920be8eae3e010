"""Head movement and sweeps found on an older in-PR commit."""

from __future__ import annotations

import pytest
from cassette_helpers import replay_gather


def test_head_moved_during_verification_is_reported_and_files_are_judged_at_the_pin() -> None:
    replayed = replay_gather("head_moved")
    evidence = replayed.evidence
    assert evidence.head_moved_to is not None
    assert evidence.head_moved_to != evidence.pull_request.head_sha
    assert evidence.head_moved_to == evidence.commits[-1]
    assert "README.md" not in {f.path for f in evidence.changed_files}
    assert [c.sha for c in evidence.commit_checks] == [evidence.pull_request.head_sha]


@pytest.mark.parametrize(
    ("name", "sweep_changes_script"),
    [("sweep_older_merge", False), ("sweep_older_recipe_change", True)],
)
def test_a_sweep_on_an_older_commit_brings_its_diff_and_eval_reads(
    name: str, sweep_changes_script: bool
) -> None:
    replayed = replay_gather(name)
    evidence = replayed.evidence
    head, sweep = evidence.commits[-1], evidence.commits[-2]
    assert [c.sha for c in evidence.commit_checks] == [head, sweep]  # newest first
    assert {r.conclusion for r in evidence.commit_checks[0].check_runs} >= {"skipped"}
    assert evidence.sweep_diff is not None and evidence.sweep_diff.sha == sweep
    assert sum("/compare/" in uri for uri in replayed.requests) == 1
    at_eval = evidence.file("configs/nvidia-master.yaml", "eval")
    assert at_eval is not None and at_eval.sha == sweep and at_eval.state == "ok"
    (results,) = evidence.evals
    assert results.available and results.head_sha == sweep
    script = "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm_mtp.sh"
    head_patch = next(f.patch for f in evidence.changed_files if f.path == script)
    sweep_patch = next(f.patch for f in evidence.sweep_diff.files if f.path == script)
    assert (head_patch != sweep_patch) is sweep_changes_script
