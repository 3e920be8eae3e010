"""The status goes out beside the re-read that converges, and ends pointing at the comment that
stays: what a run writing one thing after another would leave, whatever the comment's fate."""

from __future__ import annotations

from typing import Any

import pytest
from builders import HEAD_SHA, SIGNER, build, passing_parts
from fake_github import BOT, FakeGitHub, FakeState, client, fake_github

from signoff.judge import judge
from signoff.policy import Policy
from signoff.publish.comment import marker_line
from signoff.refs import SignoffRef
from signoff.verify import PublishOptions, VerifyOutcome, publish_outcome

REPO, PR = "SemiAnalysisAI/InferenceX", 2650
SIGNOFF_ID = 3_100_000_001
PR_URL = f"https://github.com/{REPO}/pull/{PR}"
RIVAL_ID = 4_000_000_001  # a verdict comment another run created just before ours


def judged(policy: Policy) -> VerifyOutcome:
    evidence = build(passing_parts())
    ref = SignoffRef(
        owner="SemiAnalysisAI", repo="InferenceX", pr=PR, kind="conversation comment", id=SIGNOFF_ID
    )
    verdict = judge(evidence, policy)
    return VerifyOutcome(ref=ref, head_sha=HEAD_SHA, verdict=verdict, evidence=evidence)


def signed_state(outcome: VerifyOutcome) -> FakeState:
    state = FakeState(repo=REPO, pr=PR, head_sha=HEAD_SHA)
    assert outcome.evidence is not None
    signoff = outcome.evidence.signoff
    state.add_comment(SIGNOFF_ID, SIGNER, signoff.body, signoff.created_at, "MEMBER")
    return state


class RacedGitHub(FakeGitHub):
    """Another run's verdict comment lands between our sign-off read and our POST."""

    def _create(self, match: Any, body: dict[str, Any]) -> tuple[int, Any]:
        if not any(c["id"] == RIVAL_ID for c in self.state.comments):
            rival = marker_line("codeowner-signoff-verify", HEAD_SHA) + "\nthe other run's text"
            self.state.add_comment(RIVAL_ID, BOT, rival, "2026-11-20T00:00:00Z", "NONE")
        return super()._create(match, body)


class NoDeleteGitHub(RacedGitHub):
    """... and our token may not delete the duplicate."""

    def _delete(self, match: Any, body: dict[str, Any]) -> tuple[int, Any]:
        return 403, {"message": "Resource not accessible by integration"}


class NoStatusGitHub(RacedGitHub):
    """... and the status is refused."""

    def _status(self, match: Any, body: dict[str, Any]) -> tuple[int, Any]:
        return 403, {"message": "Resource not accessible by integration"}


class NoCommentGitHub(FakeGitHub):
    """The verdict comment itself is refused."""

    def _create(self, match: Any, body: dict[str, Any]) -> tuple[int, Any]:
        return 403, {"message": "Resource not accessible by integration"}


def publish(server: type[FakeGitHub], policy: Policy) -> tuple[VerifyOutcome, FakeState]:
    outcome = judged(policy)
    state = signed_state(outcome)
    with fake_github(server(state)):
        written = publish_outcome(
            client(), outcome, policy, identity=None, options=PublishOptions()
        )
    return written, state


def targets(state: FakeState) -> list[str]:
    return [status.get("target_url", "") for status in state.statuses]


def test_a_created_comment_is_the_status_target_written_once(policy: Policy) -> None:
    written, state = publish(FakeGitHub, policy)
    assert written.comment_action == "created" and not written.error
    assert targets(state) == [written.comment_url]
    assert written.comment_url.startswith(f"{PR_URL}#issuecomment-")


def test_when_a_race_keeps_another_comment_the_status_is_moved_to_it(policy: Policy) -> None:
    written, state = publish(RacedGitHub, policy)
    kept = f"{PR_URL}#issuecomment-{RIVAL_ID}"
    assert written.comment_url == kept and not written.error
    assert [c["id"] for c in state.ours(marker_line("codeowner-signoff-verify", HEAD_SHA))] == [
        RIVAL_ID
    ]
    # First beside the re-read (our new comment), then the one that stays.
    assert len(targets(state)) == 2 and targets(state)[-1] == kept
    assert {s["state"] for s in state.statuses} == {"success"}


def test_when_converging_fails_the_status_points_at_the_pr_not_at_a_doomed_comment(
    policy: Policy,
) -> None:
    written, state = publish(NoDeleteGitHub, policy)
    assert "could not delete a duplicate verdict comment" in written.error
    assert targets(state)[-1] == PR_URL
    assert written.status_state == "success"


def test_a_refused_status_does_not_keep_the_comments_from_converging(policy: Policy) -> None:
    written, state = publish(NoStatusGitHub, policy)
    assert "could not set status codeowner-signoff-verify=success" in written.error
    ours = state.ours(marker_line("codeowner-signoff-verify", HEAD_SHA))
    assert [c["id"] for c in ours] == [RIVAL_ID] and state.statuses == []


def test_a_refused_comment_leaves_one_status_on_the_pr(policy: Policy) -> None:
    written, state = publish(NoCommentGitHub, policy)
    assert "could not write the verdict comment" in written.error
    assert targets(state) == [PR_URL]


@pytest.mark.parametrize("login", [{"id": 1}, {"login": ""}, ["github-actions[bot]"]])
def test_an_identity_answer_without_a_login_posts_no_comment(policy: Policy, login: Any) -> None:
    outcome = judged(policy)
    state = signed_state(outcome)
    state.user_answer = (200, login)
    with fake_github(FakeGitHub(state)):
        written = publish_outcome(client(), outcome, policy, identity=None)
    assert "could not determine the token's login" in written.error
    assert [c["id"] for c in state.comments] == [SIGNOFF_ID]
    assert targets(state) == [PR_URL]  # the status is what branch protection reads
