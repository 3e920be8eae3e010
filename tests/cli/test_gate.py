"""The gate decides from real webhook payloads whether an event asks for a verification."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from signoff.errors import InputError
from signoff.gate import decide
from signoff.parse.signoff_rule import has_opener
from signoff.policy import Policy

EVENTS = Path(__file__).parents[1] / "data" / "events"
REPOSITORY = "SemiAnalysisAI/InferenceX"


def payload(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EVENTS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def body_object(event_name: str, event: dict[str, Any]) -> dict[str, Any]:
    item: dict[str, Any] = event["review" if event_name == "pull_request_review" else "comment"]
    return item


def pull_request_object(event_name: str, event: dict[str, Any]) -> dict[str, Any]:
    pr: dict[str, Any] = event["issue" if event_name == "issue_comment" else "pull_request"]
    return pr


SIGNOFF_EVENTS = [
    ("issue_comment", "issue_comment.created.pull_request", "conversation comment", 2400027003),
    ("issue_comment", "issue_comment.edited.pull_request", "conversation comment", 2400027003),
    ("pull_request_review", "pull_request_review.submitted", "review summary", 2900027001),
    ("pull_request_review", "pull_request_review.edited", "review summary", 2900027001),
    (
        "pull_request_review_comment",
        "pull_request_review_comment.created",
        "inline review comment",
        1900027001,
    ),
    (
        "pull_request_review_comment",
        "pull_request_review_comment.edited",
        "inline review comment",
        1900027001,
    ),
]


@pytest.mark.parametrize(("event_name", "fixture", "kind", "item_id"), SIGNOFF_EVENTS)
def test_a_sign_off_on_an_open_pull_request_proceeds_with_its_coordinates(
    policy: Policy, event_name: str, fixture: str, kind: str, item_id: int
) -> None:
    decision = decide(event_name, payload(fixture), policy, repository=REPOSITORY)
    assert decision.proceed, decision.reason
    assert decision.ref is not None
    assert (decision.ref.owner, decision.ref.repo, decision.ref.pr) == (
        "SemiAnalysisAI",
        "InferenceX",
        2700,
    )
    assert (decision.ref.kind, decision.ref.id) == (kind, item_id)
    assert decision.body_in_payload and not decision.dispatched


@pytest.mark.parametrize(("event_name", "fixture", "kind", "item_id"), SIGNOFF_EVENTS)
@pytest.mark.parametrize(
    ("user", "why"),
    [
        ({"login": "github-actions[bot]", "type": "Bot"}, "bot"),
        ({"login": "perf-ci[bot]", "type": "User"}, "bot"),  # [bot] suffix alone is enough
        ({"login": "renovate", "type": "Bot"}, "bot"),
    ],
)
def test_a_bot_author_never_triggers_whatever_the_event(
    policy: Policy,
    event_name: str,
    fixture: str,
    kind: str,
    item_id: int,
    user: dict[str, str],
    why: str,
) -> None:
    event = payload(fixture)
    body_object(event_name, event)["user"] = {**body_object(event_name, event)["user"], **user}
    decision = decide(event_name, event, policy)
    assert not decision.proceed
    assert why in decision.reason


@pytest.mark.parametrize(("event_name", "fixture", "kind", "item_id"), SIGNOFF_EVENTS)
def test_a_draft_pull_request_is_skipped(
    policy: Policy, event_name: str, fixture: str, kind: str, item_id: int
) -> None:
    event = payload(fixture)
    pull_request_object(event_name, event)["draft"] = True
    decision = decide(event_name, event, policy)
    assert not decision.proceed
    assert "draft" in decision.reason


@pytest.mark.parametrize(("event_name", "fixture", "kind", "item_id"), SIGNOFF_EVENTS)
def test_a_closed_pull_request_is_skipped_on_events(
    policy: Policy, event_name: str, fixture: str, kind: str, item_id: int
) -> None:
    event = payload(fixture)
    pull_request_object(event_name, event)["state"] = "closed"
    decision = decide(event_name, event, policy)
    assert not decision.proceed
    assert "closed" in decision.reason


@pytest.mark.parametrize(("event_name", "fixture", "kind", "item_id"), SIGNOFF_EVENTS)
def test_a_body_without_the_opener_is_skipped(
    policy: Policy, event_name: str, fixture: str, kind: str, item_id: int
) -> None:
    event = payload(fixture)
    body_object(event_name, event)["body"] = "LGTM, thanks! Ran the sweep locally too."
    decision = decide(event_name, event, policy)
    assert not decision.proceed
    assert "opener" in decision.reason


@pytest.mark.parametrize("action", ["deleted", "dismissed", "unknown"])
@pytest.mark.parametrize(("event_name", "fixture", "kind", "item_id"), SIGNOFF_EVENTS)
def test_actions_other_than_create_submit_and_edit_never_trigger(
    policy: Policy, event_name: str, fixture: str, kind: str, item_id: int, action: str
) -> None:
    event = payload(fixture)
    event["action"] = action
    assert not decide(event_name, event, policy).proceed


def test_the_opener_matches_case_insensitively_like_github_contains(policy: Policy) -> None:
    event = payload("issue_comment.created.pull_request")
    event["comment"]["body"] = event["comment"]["body"].replace(
        "As a PR reviewer and CODEOWNER", "as a pr reviewer AND codeowner"
    )
    assert decide("issue_comment", event, policy).proceed


def test_a_comment_on_a_plain_issue_is_skipped_even_with_the_opener(policy: Policy) -> None:
    decision = decide("issue_comment", payload("issue_comment.created.issue"), policy)
    assert not decision.proceed
    assert "not on a pull request" in decision.reason


def test_our_own_verdict_comment_quoting_the_opener_never_triggers(policy: Policy) -> None:
    event = payload("issue_comment.created.verdict_by_bot")
    event["comment"]["user"] = {"login": "klaud-cold", "type": "User"}  # a PAT identity, not a bot
    decision = decide("issue_comment", event, policy)
    assert not decision.proceed
    assert "verdict marker" in decision.reason


def test_a_verdict_marker_anywhere_in_the_body_blocks_the_trigger(policy: Policy) -> None:
    event = payload("issue_comment.created.pull_request")
    event["comment"]["body"] += "\n<!-- CODEOWNER-SIGNOFF-VERIFY sha=abc -->\n"
    assert not decide("issue_comment", event, policy).proceed


def test_a_reply_that_only_quotes_a_sign_off_does_not_trigger(policy: Policy) -> None:
    event = payload("issue_comment.created.pull_request")
    event["comment"]["body"] = (
        "> As a PR reviewer and CODEOWNER, I have reviewed this and have:\n"
        "> - [x] Confirmed that this PR passes evals\n\n"
        "Which eval run did you mean here?"
    )
    decision = decide("issue_comment", event, policy)
    assert not decision.proceed
    assert "opener" in decision.reason


def test_a_reply_that_quotes_a_sign_off_in_an_html_blockquote_does_not_trigger(
    policy: Policy,
) -> None:
    event = payload("issue_comment.created.pull_request")
    event["comment"]["body"] = (
        "Agreed:\n\n<blockquote>\n\n" + event["comment"]["body"] + "\n</blockquote>\n"
    )
    decision = decide("issue_comment", event, policy)
    assert not decision.proceed and "opener" in decision.reason


def test_a_fenced_sign_off_paste_still_triggers(policy: Policy) -> None:
    event = payload("issue_comment.created.pull_request")
    event["comment"]["body"] = "```\n" + event["comment"]["body"] + "```\n"
    assert decide("issue_comment", event, policy).proceed


def test_an_approval_without_a_body_never_triggers(policy: Policy) -> None:
    event = payload("pull_request_review.submitted.approval_without_body")
    assert event["review"]["body"] is None
    decision = decide("pull_request_review", event, policy)
    assert not decision.proceed
    assert "no body" in decision.reason


def test_an_edited_review_whose_body_became_null_never_triggers(policy: Policy) -> None:
    event = payload("pull_request_review.edited")
    event["review"]["body"] = None
    assert not decide("pull_request_review", event, policy).proceed


def test_dispatch_parses_the_comment_url_input_of_the_payload(policy: Policy) -> None:
    decision = decide("workflow_dispatch", payload("workflow_dispatch"), policy)
    assert decision.proceed and decision.dispatched
    assert decision.ref is not None
    assert (decision.ref.pr, decision.ref.kind, decision.ref.id) == (
        2700,
        "conversation comment",
        2400027003,
    )
    assert not decision.body_in_payload


def test_dispatch_also_accepts_the_underscore_input_name(policy: Policy) -> None:
    event = payload("workflow_dispatch")
    event["inputs"] = {"comment_url": event["inputs"]["comment-url"]}
    assert decide("workflow_dispatch", event, policy).proceed


def test_dispatch_to_a_closed_pull_request_proceeds_without_the_phrase_test(
    policy: Policy,
) -> None:
    # The payload of a dispatch carries no PR state and no body: both tests are bypassed.
    event = payload("workflow_dispatch")
    url = "https://github.com/SemiAnalysisAI/InferenceX/pull/2001#pullrequestreview-77"
    decision = decide("workflow_dispatch", event, policy, comment_url=url, repository=REPOSITORY)
    assert decision.proceed
    assert decision.ref is not None
    assert (decision.ref.pr, decision.ref.kind) == (2001, "review summary")


def test_the_action_input_comment_url_wins_over_the_dispatch_payload(policy: Policy) -> None:
    url = "https://github.com/SemiAnalysisAI/InferenceX/pull/2700#discussion_r1900027001"
    decision = decide("workflow_dispatch", payload("workflow_dispatch"), policy, comment_url=url)
    assert decision.ref is not None and decision.ref.kind == "inline review comment"


def test_dispatch_without_a_comment_url_is_bad_input(policy: Policy) -> None:
    event = payload("workflow_dispatch")
    event["inputs"] = {}
    with pytest.raises(InputError, match="comment-url"):
        decide("workflow_dispatch", event, policy)


def test_dispatch_with_a_url_without_an_anchor_is_bad_input(policy: Policy) -> None:
    event = payload("workflow_dispatch")
    event["inputs"] = {"comment-url": "https://github.com/SemiAnalysisAI/InferenceX/pull/2700"}
    with pytest.raises(InputError):
        decide("workflow_dispatch", event, policy)


def test_dispatch_for_another_repository_is_refused(policy: Policy) -> None:
    event = payload("workflow_dispatch")
    event["inputs"] = {"comment-url": "https://github.com/evil/fork/pull/1#issuecomment-5"}
    with pytest.raises(InputError, match="evil/fork"):
        decide("workflow_dispatch", event, policy, repository=REPOSITORY)


@pytest.mark.parametrize("event_name", ["push", "pull_request", "schedule", ""])
def test_unrelated_events_are_skipped(policy: Policy, event_name: str) -> None:
    decision = decide(event_name, {"action": "opened"}, policy)
    assert not decision.proceed
    assert "does not request" in decision.reason


def test_a_payload_missing_its_comment_id_is_bad_input(policy: Policy) -> None:
    event = copy.deepcopy(payload("issue_comment.created.pull_request"))
    del event["comment"]["id"]
    with pytest.raises(InputError):
        decide("issue_comment", event, policy)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("As a PR reviewer and CODEOWNER, I have reviewed", True),
        ("  > As a PR reviewer and CODEOWNER", False),
        ("intro\n\nAS A PR REVIEWER AND CODEOWNER", True),
        ("<!-- As a PR reviewer and CODEOWNER -->\nLGTM", False),
        ("Paste `As a PR reviewer and CODEOWNER` to trigger the bot", False),
        ("", False),
    ],
)
def test_the_opener_counts_only_in_the_comments_own_text(
    policy: Policy, body: str, expected: bool
) -> None:
    assert has_opener(body, policy) is expected
