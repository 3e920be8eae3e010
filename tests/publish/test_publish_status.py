"""The commit status: state from our own verdict, profile wording, 140-character descriptions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from github import Github

from signoff.github.client import connect
from signoff.policy import Policy
from signoff.publish.status import (
    MAX_DESCRIPTION,
    Result,
    fit_description,
    plan_status,
    publish_status,
)
from signoff.replay import replay

CASSETTES = Path(__file__).resolve().parents[2] / "cassettes" / "publish"
REPO = "SemiAnalysisAI/InferenceX"
HEAD = "5f0c3e9a1b7d2c4e6f8091a2b3c4d5e6f7a8b9c0"
COMMENT_URL = f"https://github.com/{REPO}/pull/2417#issuecomment-3081250002"
RUN_URL = f"https://github.com/{REPO}/actions/runs/16099990001"


@pytest.fixture
def gh() -> Github:
    return connect("replay-token", "https://api.github.com", mode="test")


@pytest.mark.parametrize(
    ("result", "state"), [("PASS", "success"), ("REJECTED", "failure"), ("ERROR", "error")]
)
def test_the_status_state_follows_the_computed_outcome(
    policy: Policy, result: Result, state: str
) -> None:
    plan = plan_status(result, policy, sha=HEAD, target_url=COMMENT_URL)
    assert plan.state == state
    assert plan.context == "codeowner-signoff-verify"
    assert len(plan.description) <= MAX_DESCRIPTION


def test_the_descriptions_are_the_profile_wording(policy: Policy) -> None:
    assert plan_status("PASS", policy, sha=HEAD).description == (
        "CODEOWNER sign-off independently verified"
    )
    assert plan_status("REJECTED", policy, sha=HEAD).description == (
        "Sign-off verification rejected - see verdict comment"
    )


def test_a_long_error_cause_is_cut_to_140_characters(policy: Policy) -> None:
    detail = "GitHub API rate limit exhausted until 2026-07-21 10:00:00 UTC " * 5
    description = plan_status("ERROR", policy, sha=HEAD, detail=detail).description
    assert len(description) == MAX_DESCRIPTION
    assert description.endswith("…")


def test_a_description_is_one_line_without_html_or_mentions() -> None:
    text = fit_description("line one\n<!-- x --> @dana-kowal ::set-output name=a::b")
    assert "\n" not in text and "<" not in text and "@dana" not in text
    assert len(fit_description("é" * 500)) == MAX_DESCRIPTION


def test_the_status_context_input_overrides_the_profile(policy: Policy) -> None:
    assert plan_status("PASS", policy, sha=HEAD, context="signoff/inferencex").context == (
        "signoff/inferencex"
    )
    assert plan_status("PASS", policy, sha=HEAD, context="  ").context == (
        "codeowner-signoff-verify"
    )


def test_a_pass_status_is_posted_on_the_pinned_head_with_the_comment_link(
    gh: Github, policy: Policy
) -> None:
    plan = plan_status("PASS", policy, sha=HEAD, target_url=COMMENT_URL)
    with replay(CASSETTES / "create_comment.yaml") as cassette:
        publish_status(gh, REPO, plan)
    index = next(i for i, r in enumerate(cassette.requests) if r.path.endswith(f"/statuses/{HEAD}"))
    assert cassette.play_counts[index] == 1
    sent = json.loads(cassette.requests[index].body)
    assert sent == {
        "state": "success",
        "context": "codeowner-signoff-verify",
        "description": "CODEOWNER sign-off independently verified",
        "target_url": COMMENT_URL,
    }


def test_an_error_status_links_the_workflow_run(gh: Github, policy: Policy) -> None:
    plan = plan_status("ERROR", policy, sha=HEAD, target_url=RUN_URL, detail="x")
    with replay(CASSETTES / "unchanged_comment.yaml") as cassette:
        publish_status(gh, REPO, plan)
    sent = json.loads(cassette.requests[-1].body)
    assert (sent["state"], sent["target_url"]) == ("error", RUN_URL)
