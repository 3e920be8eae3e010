"""The parts of GitHub's answers that gather reads, checked on arrival before any field is used.

An answer that lacks a field we index, or carries the wrong type (`"number": "12"`, a list
where an object belongs), is malformed: `Api` asks again and, if it stays malformed, the run
ends with exit 3 naming the request. Keys we do not read are ignored; types are strict (no
coercion of strings to numbers or numbers to strings).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

Sha = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")]
Count = Annotated[int, Field(ge=0)]
Id = Annotated[int, Field(ge=1)]


class Answer(BaseModel):
    """Base of every answer shape: strict types, unknown keys ignored."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)


class Account(Answer):
    login: str
    type: str | None = None


class RepoRef(Answer):
    default_branch: str | None = None


class PullEnd(Answer):
    """`head` or `base` of a pull request."""

    ref: str
    sha: Sha
    repo: RepoRef | None = None  # null for the head of a deleted fork


class PullAnswer(Answer):
    """`GET pulls/{n}`: the fields the pin and the evidence use, and the declared list sizes."""

    number: Id
    state: str
    title: str | None = None
    draft: bool | None = None
    merged: bool | None = None
    merged_at: str | None = None
    html_url: str | None = None
    user: Account | None = None
    head: PullEnd
    base: PullEnd
    changed_files: Count
    commits: Count
    comments: Count


class FileItem(Answer):
    """One entry of `pulls/{n}/files` or of a compare's `files`."""

    filename: Annotated[str, Field(min_length=1)]
    status: str
    previous_filename: str | None = None
    patch: str | None = None


class CommitItem(Answer):
    sha: Sha


class AuthoredItem(Answer):
    """What every comment and review answer carries: who wrote what, where."""

    id: Id
    user: Account | None = None
    body: str | None = None
    author_association: str | None = None
    html_url: str | None = None


class CommentItem(AuthoredItem):
    """One conversation comment of `issues/{n}/comments`."""

    created_at: str | None = None


class CheckRunItem(Answer):
    id: Id | None = None  # binds the check run to its workflow run's job (sweep provenance)
    name: str
    status: str
    conclusion: str | None = None
    details_url: str | None = None


class RunRef(Answer):
    head_sha: str | None = None


class ArtifactItem(Answer):
    id: Id
    name: str
    expired: bool = False
    size_in_bytes: Count = 0
    workflow_run: RunRef | None = None


class Content(Answer):
    """`GET contents/{path}` for a file (a directory answers with a list instead)."""

    type: str
    encoding: str | None = None
    content: str | None = None


class MergeBase(Answer):
    sha: Sha


class CompareAnswer(Answer):
    """`GET compare/{base}...{head}`: the merge base, the commits of this page, the files."""

    merge_base_commit: MergeBase
    total_commits: Count
    commits: list[CommitItem] = []
    files: list[FileItem] = []


class TreeEntry(Answer):
    path: str
    mode: str
    type: str
    sha: str


class TreeAnswer(Answer):
    """`GET git/trees/{sha}?recursive=1`; `truncated` when GitHub cut the listing."""

    sha: str
    truncated: bool
    tree: list[TreeEntry]


class Membership(Answer):
    state: str


class DirEntry(Answer):
    """One entry of `GET contents/{dir}` (a directory answers with a list of them)."""

    name: Annotated[str, Field(min_length=1)]
    type: str


class WorkflowRunAnswer(Answer):
    """`GET actions/runs/{id}`: what the sweep's provenance rests on."""

    id: Id
    path: str
    event: str
    head_sha: Sha
    status: str | None = None
    conclusion: str | None = None
    check_suite_id: int | None = None


class JobItem(Answer):
    id: Id
    name: str
    status: str
    conclusion: str | None = None


class JobsPage(Answer):
    """One page of `GET actions/runs/{id}/jobs`."""

    total_count: Count
    jobs: list[JobItem]


class ReviewItem(AuthoredItem):
    """One review of `pulls/{n}/reviews` (a pending review has no `submitted_at` yet)."""

    submitted_at: str | None = None


class ReviewCommentItem(CommentItem):
    """One inline review comment of `pulls/{n}/comments` (the same shape as a comment)."""


class UpstreamPull(Answer):
    """`GET pulls/{n}` of an upstream recipe PR: its state and where its recipe is read."""

    number: Id
    state: str
    draft: bool | None = None
    merged_at: str | None = None
    merge_commit_sha: Sha | None = None
    head: PullEnd


class Viewer(Answer):
    """`GET /user`: the login our writes are attributed to."""

    login: Annotated[str, Field(min_length=1)]


# --- the sign-off's edit history (GraphQL) ----------------------------------------------------

COMMENT_TYPES = frozenset({"IssueComment", "PullRequestReview", "PullRequestReviewComment"})


class PageInfo(Answer):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: str | None = Field(None, alias="endCursor")


class ContentEdit(Answer):
    editor: Account | None = None  # null: an account GitHub no longer names


class ContentEdits(Answer):
    """One page of `userContentEdits`, newest first."""

    total_count: Count = Field(alias="totalCount")
    page_info: PageInfo = Field(alias="pageInfo")
    nodes: list[ContentEdit]


class EditedNode(Answer):
    """The sign-off's node; a comment or review carries what the query asked of it."""

    typename: str = Field(alias="__typename")
    author: Account | None = None
    last_edited_at: str | None = Field(None, alias="lastEditedAt")
    editor: Account | None = None
    user_content_edits: ContentEdits | None = Field(None, alias="userContentEdits")

    @model_validator(mode="after")
    def _comment_has_history(self) -> EditedNode:
        if self.typename in COMMENT_TYPES and self.user_content_edits is None:
            raise ValueError(f"a {self.typename} without userContentEdits")
        return self


class NodeData(Answer):
    node: EditedNode | None


class EditsAnswer(Answer):
    """The answer to signoff_edits.QUERY (GraphQL errors are raised before it is checked)."""

    data: NodeData
