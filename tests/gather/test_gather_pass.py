"""Gather on the PASS scenario: one conversation-comment sign-off by a directly listed owner."""

from __future__ import annotations

import pytest
from cassette_helpers import CASSETTES, Replayed, replay_gather


@pytest.fixture(scope="module")
def passed() -> Replayed:
    return replay_gather("pass_conversation")


def test_typical_pr_stays_within_the_request_budget(passed: Replayed) -> None:
    # 16 reads as before provenance, plus the sweep run and its jobs (one read each) and one
    # GraphQL query for the sign-off's edit history.
    assert passed.all_played
    assert len(passed.requests) <= 20


def test_every_file_is_read_once(passed: Replayed) -> None:
    gets = [uri for uri in passed.requests if "/contents/" in uri]
    assert len(gets) == len(set(gets))


def test_the_conversation_comment_is_taken_from_the_comment_list(passed: Replayed) -> None:
    assert not any("/issues/comments/" in uri for uri in passed.requests)
    signoff = passed.evidence.signoff
    assert signoff.kind == "conversation comment"
    assert signoff.author == "kedarpotdar-nv"
    assert signoff.author_association == "MEMBER"
    assert signoff.body.startswith("As a PR reviewer and CODEOWNER")


def test_pull_request_and_lists_are_complete(passed: Replayed) -> None:
    evidence = passed.evidence
    assert evidence.pull_request.number == 2700
    assert evidence.repository.default_branch == "main"
    assert not evidence.files_truncated and not evidence.commits_truncated
    assert len(evidence.commits) == 2
    assert evidence.commits[-1] == evidence.pull_request.head_sha
    assert {c.author_type for c in evidence.comments} == {"User", "Bot"}
    assert evidence.head_moved_to is None


def test_policy_files_are_read_from_the_default_branch(passed: Replayed) -> None:
    for path in (
        ".github/CODEOWNERS",
        "docs/PR_REVIEW_CHECKLIST.md",
        "utils/evals/thresholds.yaml",
    ):
        read = passed.evidence.file(path, "default")
        assert read is not None and read.state == "ok" and read.sha == "main"


def test_master_config_is_read_at_base_head_and_as_the_sweep_commit(passed: Replayed) -> None:
    evidence = passed.evidence
    base = evidence.file("configs/nvidia-master.yaml", "base")
    head = evidence.file("configs/nvidia-master.yaml", "head")
    at_eval = evidence.file("configs/nvidia-master.yaml", "eval")
    assert base is not None and head is not None and at_eval is not None
    assert "dsv4-fp4-b200-vllm-mtp" not in (base.text or "")
    assert "dsv4-fp4-b200-vllm-mtp" in (head.text or "")
    assert at_eval.text == head.text  # the sweep ran on the head: no extra read


def test_an_added_script_is_rebuilt_from_its_patch(passed: Replayed) -> None:
    path = "benchmarks/single_node/fixed_seq_len/dsv4_fp4_b200_vllm_mtp.sh"
    read = passed.evidence.file(path, "head")
    assert read is not None and read.state == "ok" and read.text is not None
    assert read.text.startswith("#!/usr/bin/env bash\n") and read.text.endswith(
        "--use-chat-template\n"
    )
    assert not any(path in uri for uri in passed.requests)


def test_check_runs_stop_at_the_qualifying_head(passed: Replayed) -> None:
    checks = passed.evidence.commit_checks
    assert [c.sha for c in checks] == [passed.evidence.pull_request.head_sha]
    runs = checks[0].check_runs
    assert any(r.name.startswith("eval / p1 | dsv4 fp4 b200 vllm TP8 mtp") for r in runs)
    assert {r.run_id for r in runs} == {15000002701}
    assert passed.evidence.sweep_diff is None


def test_eval_rows_come_from_the_aggregate_artifact(passed: Replayed) -> None:
    (results,) = passed.evidence.evals
    assert results.available and results.run_id == 15000002701
    assert results.head_sha == passed.evidence.pull_request.head_sha
    assert sorted(row.conc or 0 for row in results.rows) == [32, 64]
    assert all(row.task == "gsm8k" and row.n_eff == 1319 for row in results.rows)


def test_the_upstream_recipe_pr_is_merged_with_its_patch(passed: Replayed) -> None:
    (link,) = passed.evidence.upstream
    assert link.kind == "pull" and link.state == "merged" and link.repo == "vllm-project/recipes"
    assert link.files and "--speculative-config" in (link.files[0].text or "")


def test_no_team_is_read_for_a_directly_listed_signer(passed: Replayed) -> None:
    assert passed.evidence.memberships == ()
    assert not any("/teams/" in uri for uri in passed.requests)


def test_cassettes_look_like_github_and_carry_no_secrets() -> None:
    for path in sorted(CASSETTES.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert "127.0.0.1" not in text and "_ghemu" not in text, path.name
        assert "ghemu-test-token" not in text and "authorization:" not in text.lower(), path.name
