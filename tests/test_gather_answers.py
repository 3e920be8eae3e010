"""GitHub answers are checked on arrival: what gather indexes must be there, with GitHub's types."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from signoff.gather.answers import (
    ArtifactItem,
    CommentItem,
    CommitItem,
    CompareAnswer,
    FileItem,
    PullAnswer,
    TreeAnswer,
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
