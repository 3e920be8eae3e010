"""The verdict comment: exactly one per pinned head SHA, written by the identity signoff runs as.

Finding ours: a PR conversation comment whose body starts with the marker for THIS sha and whose
author is our identity (case-insensitive). Anyone else's comment carrying the marker is a forgery
or a quote and is ignored (facts §6.22). Same text -> no write; different text -> PATCH in place
(never delete and re-create, so links to the verdict stay valid); none -> POST.

Race: the comment list comes from the Evidence gathered moments earlier in the same run. The
workflow's concurrency group (one per PR, cancel-in-progress false) serialises runs, so a previous
run's comment is always in that list. Runs outside the group (a manual `signoff verify --publish`
at the same instant) could still both POST; pass `relist=True` to re-read the list right before
writing when that matters. A duplicate is harmless for the status, which we also publish.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from github import Github, GithubException
from github.IssueComment import IssueComment
from github.PaginatedList import PaginatedList
from pydantic import BaseModel, ConfigDict

from signoff.errors import PublishError
from signoff.evidence import Comment

DEFAULT_APP_IDENTITY = "github-actions[bot]"
MAX_BODY = 65_536  # GitHub rejects longer comment bodies with 422

CommentAction = Literal["created", "updated", "unchanged"]


class CommentResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    action: CommentAction
    id: int
    url: str  # html_url of the verdict comment


def marker_line(marker: str, sha: str) -> str:
    """The hidden first line of every verdict comment (facts §4.1)."""
    return f"<!-- {marker} sha={sha} -->"


def is_verdict_for(body: str, *, marker: str, sha: str) -> bool:
    """The body starts with the marker for this exact sha (leading blank space tolerated)."""
    return body.lstrip().startswith(marker_line(marker, sha))


def find_verdict_comment(
    comments: Sequence[Comment], *, marker: str, sha: str, identity: str
) -> Comment | None:
    """Our verdict comment for `sha`: the latest (in API order) one `identity` wrote, or None."""
    ours = [
        comment
        for comment in comments
        if comment.author.lower() == identity.lower()
        and is_verdict_for(comment.body, marker=marker, sha=sha)
    ]
    return ours[-1] if ours else None


def resolve_identity(gh: Github, configured: str | None) -> str:
    """Who our writes will be attributed to.

    The `bot-login` input wins; else `GET /user`; an installation token (GITHUB_TOKEN or a GitHub
    App) answers that with 403, and such comments are authored by `github-actions[bot]`.
    """
    if configured and configured.strip():
        return configured.strip()
    try:
        _, data = gh.requester.requestJsonAndCheck("GET", "/user")
    except GithubException as exc:
        if exc.status in (401, 403, 404):
            return DEFAULT_APP_IDENTITY
        raise PublishError(
            f"could not determine the token's login: {describe_github_error(exc)}"
        ) from None
    login = data.get("login") if isinstance(data, dict) else None
    return login if isinstance(login, str) and login else DEFAULT_APP_IDENTITY


def list_pr_comments(gh: Github, repository: str, pr: int) -> tuple[Comment, ...]:
    """Re-read the PR's conversation comments (only when the gathered list may be stale)."""
    try:
        listing = PaginatedList(
            IssueComment, gh.requester, f"/repos/{repository}/issues/{pr}/comments", {}
        )
        return tuple(
            Comment(
                id=item.id,
                author=item.user.login if item.user else "",
                body=item.body or "",
                url=item.html_url or "",
            )
            for item in listing
        )
    except GithubException as exc:
        raise PublishError(
            f"could not list comments of {repository}#{pr}: {describe_github_error(exc)}"
        ) from None


def publish_comment(
    gh: Github,
    repository: str,
    pr: int,
    body: str,
    *,
    marker: str,
    sha: str,
    identity: str,
    known: Sequence[Comment] | None = None,
    pr_url: str = "",
    relist: bool = False,
) -> CommentResult:
    """Create, update or leave alone the one verdict comment for `sha`.

    `known` is the comment list already gathered (Evidence.comments); None or `relist` re-reads it.
    `body` must be the rendered verdict, whose first line is the marker for `sha`.
    """
    if not is_verdict_for(body, marker=marker, sha=sha):
        raise PublishError(
            f"refusing to post a verdict whose first line is not {marker_line(marker, sha)}"
        )
    if len(body) > MAX_BODY:
        raise PublishError(f"verdict comment is {len(body)} characters; GitHub allows {MAX_BODY}")
    comments = list_pr_comments(gh, repository, pr) if known is None or relist else known
    existing = find_verdict_comment(comments, marker=marker, sha=sha, identity=identity)
    if existing is None:
        return _write(gh, "POST", f"/repos/{repository}/issues/{pr}/comments", body, "created")
    if existing.body.rstrip() == body.rstrip():
        url = existing.url or (f"{pr_url}#issuecomment-{existing.id}" if pr_url else "")
        return CommentResult(action="unchanged", id=existing.id, url=url)
    path = f"/repos/{repository}/issues/comments/{existing.id}"
    return _write(gh, "PATCH", path, body, "updated")


def _write(gh: Github, verb: str, path: str, body: str, action: CommentAction) -> CommentResult:
    try:
        _, data = gh.requester.requestJsonAndCheck(verb, path, input={"body": body})
    except GithubException as exc:
        raise PublishError(
            f"could not write the verdict comment ({verb} {path}): {describe_github_error(exc)}"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("id"), int):
        raise PublishError(f"GitHub answered {verb} {path} without a comment id")
    return CommentResult(action=action, id=data["id"], url=str(data.get("html_url") or ""))


def describe_github_error(exc: GithubException) -> str:
    """`403 Resource not accessible by integration`: status and GitHub's message, one line."""
    data = exc.data
    message = data.get("message") if isinstance(data, dict) else None
    text = message if isinstance(message, str) and message else str(data or "").strip()
    return f"{exc.status} {' '.join(text.split())}".strip()
