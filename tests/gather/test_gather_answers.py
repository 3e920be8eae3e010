"""GitHub answers are checked on arrival: what gather indexes must be there, with GitHub's types."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from signoff.github.answers import (
    ArtifactItem,
    CommentItem,
    CommitItem,
    CompareAnswer,
    DirEntry,
    EditsAnswer,
    FileItem,
    JobsPage,
    Membership,
    PullAnswer,
    ReviewCommentItem,
    ReviewItem,
    TreeAnswer,
    UpstreamPull,
    Viewer,
    WorkflowRunAnswer,
)

SHA = "a" * 40


def pull(**changes: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "number": 2700,
        "state": "open",
        "head": {"ref": "topic", "sha": SHA, "repo": None},
        "base": {"ref": "main", "sha": "b" * 40, "repo": {"default_branch": "main"}},
        "changed_files": 3,
        "commits": 2,
        "comments": 1,
        "unknown_key": {"ignored": True},
    }
    answer.update(changes)
    return answer


def test_a_complete_pull_answer_is_accepted() -> None:
    assert PullAnswer.model_validate(pull()).head.sha == SHA


@pytest.mark.parametrize(
    "changes",
    [
        {"number": "2700"},  # a string where GitHub sends a number
        {"number": True},
        {"number": 0},
        {"head": None},
        {"head": {"ref": "topic", "sha": "not-a-sha"}},
        {"changed_files": -1},
        {"commits": None},
        {"state": 1},
    ],
)
def test_a_pull_answer_without_what_the_pin_reads_is_malformed(changes: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        PullAnswer.model_validate(pull(**changes))


def test_a_pull_answer_missing_its_declared_counts_is_malformed() -> None:
    answer = pull()
    del answer["changed_files"]
    with pytest.raises(ValidationError):
        PullAnswer.model_validate(answer)


@pytest.mark.parametrize(
    ("shape", "item"),
    [
        (FileItem, {"status": "added"}),  # no filename
        (FileItem, {"filename": "", "status": "added"}),
        (FileItem, {"filename": 5, "status": "added"}),
        (CommitItem, {"sha": 12}),
        (CommentItem, {"id": "12", "body": "x"}),
        (CommentItem, {"id": 12, "user": "someone"}),
        (ArtifactItem, {"name": "eval_results_all"}),  # no id
        (ArtifactItem, {"id": 1, "name": "x", "size_in_bytes": "9"}),
        (CompareAnswer, {"total_commits": 1}),  # no merge base
        (TreeAnswer, {"sha": SHA, "tree": []}),  # no truncated flag
        (ReviewItem, {"body": "As a PR reviewer"}),  # no id
        (ReviewItem, {"id": 7, "submitted_at": 1700000000}),
        (ReviewCommentItem, {"id": "7", "body": "x"}),
        (ReviewCommentItem, {"id": 7, "user": {"type": "User"}}),  # an account without a login
        (Viewer, {"id": 1}),  # GET /user without a login
        (Viewer, {"login": ""}),
        (Membership, {"role": "member"}),  # no state: member or not could not be told
        (DirEntry, {"type": "file"}),  # a directory entry without its name
        (DirEntry, {"name": "golden.json", "type": None}),
    ],
)
def test_list_items_without_what_gather_indexes_are_malformed(
    shape: Any, item: dict[str, Any]
) -> None:
    with pytest.raises(ValidationError):
        shape.model_validate(item)


def test_optional_fields_may_be_null_as_github_sends_them() -> None:
    item = {"filename": "a.bin", "status": "modified", "patch": None, "previous_filename": None}
    assert FileItem.model_validate(item).patch is None
    comment = {"id": 5, "user": None, "body": None, "author_association": "NONE"}
    assert CommentItem.model_validate(comment).user is None


def workflow_run(**changes: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "id": 15000002701,
        "path": ".github/workflows/run-sweep.yml",
        "event": "pull_request",
        "head_sha": SHA,
        "status": "completed",
        "conclusion": "success",
        "check_suite_id": 9,
    }
    answer.update(changes)
    return answer


def test_a_complete_workflow_run_answer_is_accepted() -> None:
    assert WorkflowRunAnswer.model_validate(workflow_run()).event == "pull_request"
    assert WorkflowRunAnswer.model_validate(workflow_run(conclusion=None)).conclusion is None


@pytest.mark.parametrize(
    "changes",
    [
        {"path": None},  # the provenance rests on these three
        {"event": 5},
        {"head_sha": "p2"},
        {"id": "15000002701"},
        {"check_suite_id": "9"},
    ],
)
def test_a_workflow_run_answer_without_its_provenance_is_malformed(
    changes: dict[str, Any],
) -> None:
    with pytest.raises(ValidationError):
        WorkflowRunAnswer.model_validate(workflow_run(**changes))


@pytest.mark.parametrize(
    "page",
    [
        {"jobs": []},  # no total_count: whether the list is complete could not be told
        {"total_count": 1, "jobs": [{"name": "eval / x", "status": "completed"}]},  # no id
        {"total_count": 1, "jobs": [{"id": 0, "name": "x", "status": "completed"}]},
        {"total_count": 1, "jobs": {"id": 1}},
    ],
)
def test_a_jobs_page_without_its_count_or_its_jobs_ids_is_malformed(page: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        JobsPage.model_validate(page)


def test_an_upstream_pull_needs_its_state_and_head() -> None:
    head = {"ref": "recipe", "sha": SHA}
    merged = {"number": 412, "state": "closed", "merged_at": "2026-08-01T00:00:00Z", "head": head}
    assert UpstreamPull.model_validate({**merged, "merge_commit_sha": "b" * 40}).number == 412
    for broken in ({**merged, "head": None}, {**merged, "merge_commit_sha": "main"}, {"number": 1}):
        with pytest.raises(ValidationError):
            UpstreamPull.model_validate(broken)


def edits_answer(node: dict[str, Any] | None) -> dict[str, Any]:
    return {"data": {"node": node}}


HISTORY = {"totalCount": 0, "pageInfo": {"hasNextPage": False, "endCursor": None}, "nodes": []}


def test_an_edit_history_answer_of_a_comment_is_accepted() -> None:
    node = {"__typename": "IssueComment", "author": None, "userContentEdits": HISTORY}
    history = EditsAnswer.model_validate(edits_answer(node)).data.node
    assert history is not None and history.user_content_edits is not None


@pytest.mark.parametrize(
    "node",
    [
        {"__typename": "IssueComment"},  # a comment's node always carries what was asked
        {"__typename": "IssueComment", "userContentEdits": {**HISTORY, "totalCount": None}},
        {"__typename": "IssueComment", "userContentEdits": {**HISTORY, "pageInfo": {}}},
        {"__typename": "PullRequestReview", "editor": "ravi-s", "userContentEdits": HISTORY},
        {"typename": "IssueComment", "userContentEdits": HISTORY},
    ],
)
def test_an_edit_history_answer_lacking_what_signoff_reads_is_malformed(
    node: dict[str, Any],
) -> None:
    with pytest.raises(ValidationError):
        EditsAnswer.model_validate(edits_answer(node))


def test_no_node_or_a_node_of_another_kind_is_an_answer_not_a_malformed_one() -> None:
    # Recorded as "could not be read" by the gatherer (Check 0 fails closed), not asked again.
    assert EditsAnswer.model_validate(edits_answer(None)).data.node is None
    other = EditsAnswer.model_validate(edits_answer({"__typename": "Commit"})).data.node
    assert other is not None and other.typename == "Commit"
