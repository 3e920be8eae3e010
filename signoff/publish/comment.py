"""The verdict comment: exactly one per pinned head SHA (or, from #3338, one new comment per run),
written by the identity signoff runs as.

Finding ours: a PR conversation comment whose body starts with the marker for THIS sha and whose
author is our identity (case-insensitive). Anyone else's comment carrying the marker is a forgery
or a quote and is ignored (facts §6.22). Same text -> no write; different text -> PATCH in place
(never delete and re-create, so links to the verdict stay valid); none -> POST.

Races: two runs that both found no verdict comment both POST. So a run that created one re-reads
the PR's comments and converges: the oldest of our comments for the SHA is kept (it gets this
run's text if it differs), every other one is deleted. Whatever the interleaving, the last run to
create a comment sees all the others and leaves exactly one. Runs that update in place update the
oldest, the one every run keeps. Which run may write at all (the newest sign-off's) is decided
before, in signoff/judge/eligibility.py. The re-read goes out as soon as the creation is answered,
so whatever the caller writes next (the commit status, `on_written`) travels beside it.

Every list is read through the checked reader gather uses too (`signoff.github.comments`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from github.GithubException import GithubException
from pydantic import BaseModel, ConfigDict, ValidationError

from signoff.errors import GatherError, PublishError
from signoff.evidence import Comment
from signoff.github.answers import Viewer
from signoff.github.api import Api
from signoff.github.client import Connection
from signoff.github.comments import prefetch_comments, read_comments

DEFAULT_APP_IDENTITY = "github-actions[bot]"
MAX_BODY = 65_536  # GitHub rejects longer comment bodies with 422

CommentAction = Literal["created", "updated", "unchanged"]


class CommentResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    action: CommentAction
    id: int
    url: str  # html_url of the verdict comment
    author: str = ""  # who GitHub says wrote it (known after a POST or PATCH; "" otherwise)


def marker_line(marker: str, sha: str) -> str:
    """The hidden first line of every verdict comment (facts §4.1)."""
    return f"<!-- {marker} sha={sha} -->"


def is_verdict_for(body: str, *, marker: str, sha: str) -> bool:
    """The body starts with the marker for this exact sha (leading blank space tolerated)."""
    return body.lstrip().startswith(marker_line(marker, sha))


def verdict_comments(
    comments: Sequence[Comment], *, marker: str, sha: str, identity: str
) -> list[Comment]:
    """Our verdict comments for `sha`, oldest first (created time, then id)."""
    ours = [
        comment
        for comment in comments
        if comment.author.lower() == identity.lower()
        and is_verdict_for(comment.body, marker=marker, sha=sha)
    ]
    return sorted(ours, key=lambda c: (c.created_at, c.id))


def find_verdict_comment(
    comments: Sequence[Comment], *, marker: str, sha: str, identity: str
) -> Comment | None:
    """Our verdict comment for `sha`: the oldest one `identity` wrote (the one every run keeps)."""
    ours = verdict_comments(comments, marker=marker, sha=sha, identity=identity)
    return ours[0] if ours else None


def resolve_identity(gh: Connection, configured: str | None) -> str:
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
    try:
        # A login we cannot read would make our own verdict comments unrecognisable (every run
        # would post another): an answer without one is an error, not the App's identity.
        return Viewer.model_validate(data).login
    except ValidationError:
        raise PublishError("could not determine the token's login: GET /user has none") from None


def list_pr_comments(
    gh: Connection, repository: str, pr: int, api: Api | None = None
) -> tuple[Comment, ...]:
    """Re-read the PR's conversation comments (only when the gathered list may be stale);
    through `api` when its first page was sent ahead there."""
    try:
        if api is not None:
            return read_comments(api, repository, pr)
        with Api(gh) as own:
            return read_comments(own, repository, pr)
    except GithubException as exc:
        raise PublishError(
            f"could not list comments of {repository}#{pr}: {describe_github_error(exc)}"
        ) from None
    except GatherError as exc:
        raise PublishError(f"could not list comments of {repository}#{pr}: {exc}") from None


def publish_comment(
    gh: Connection,
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
    on_written: Callable[[CommentResult], None] | None = None,
    per_run: bool = False,
) -> CommentResult:
    """Create, update or leave alone the one verdict comment for `sha`.

    `known` is the comment list already gathered (Evidence.comments); None or `relist` re-reads it.
    `body` must be the rendered verdict, whose first line is the marker for `sha`.
    `on_written` is told the comment as written (after a creation: before converging, while the
    re-read is under way); the result returned is the comment that stays, which a race can make
    another one. It must not raise.

    `per_run` (InferenceX from #3338): every run posts a new comment and leaves earlier verdicts
    as they are (each names the commit it assessed); nothing is edited or deleted. Runs still
    converge where it matters: only the newest sign-off's run writes (decided before this), and
    the commit status each run sets points at its own comment.
    """
    told = on_written or (lambda result: None)
    if not is_verdict_for(body, marker=marker, sha=sha):
        raise PublishError(
            f"refusing to post a verdict whose first line is not {marker_line(marker, sha)}"
        )
    if len(body) > MAX_BODY:
        raise PublishError(f"verdict comment is {len(body)} characters; GitHub allows {MAX_BODY}")
    if per_run:
        created = _write(gh, "POST", f"/repos/{repository}/issues/{pr}/comments", body, "created")
        told(created)
        return created
    comments = list_pr_comments(gh, repository, pr) if known is None or relist else known
    ours = verdict_comments(comments, marker=marker, sha=sha, identity=identity)
    if not ours:
        created = _write(gh, "POST", f"/repos/{repository}/issues/{pr}/comments", body, "created")
        # GitHub's answer names who we really are: a guessed identity (an App's token without
        # `bot-login` is taken for github-actions[bot]) would never find this comment again, and
        # every run would add one more. Converging by the real author removes the extras.
        writer = created.author or identity
        with Api(gh) as api:
            prefetch_comments(api, repository, pr, len(comments) + 1)  # ours is new
            told(created)
            now = list_pr_comments(gh, repository, pr, api)
        return converge(
            gh, repository, pr, body, created, marker=marker, sha=sha, identity=writer, now=now
        )
    for extra in ours[1:]:  # left by an earlier race: the list just read shows them, no re-read
        _delete(gh, f"/repos/{repository}/issues/comments/{extra.id}")
    updated = _update(gh, repository, ours[0], body, pr_url)
    told(updated)
    return updated


def _update(
    gh: Connection, repository: str, existing: Comment, body: str, pr_url: str = ""
) -> CommentResult:
    if existing.body.rstrip() == body.rstrip():
        url = existing.url or (f"{pr_url}#issuecomment-{existing.id}" if pr_url else "")
        return CommentResult(action="unchanged", id=existing.id, url=url)
    path = f"/repos/{repository}/issues/comments/{existing.id}"
    return _write(gh, "PATCH", path, body, "updated")


def converge(
    gh: Connection,
    repository: str,
    pr: int,
    body: str,
    created: CommentResult,
    *,
    marker: str,
    sha: str,
    identity: str,
    now: Sequence[Comment] | None = None,
) -> CommentResult:
    """After a POST: keep the oldest of our verdict comments for `sha`, delete the others.

    `now` is the PR's comment list read after the POST (None: read it here).
    """
    listed = list_pr_comments(gh, repository, pr) if now is None else now
    ours = verdict_comments(listed, marker=marker, sha=sha, identity=identity)
    if not ours:
        return created  # not listed yet: the run that lists it converges
    for extra in ours[1:]:
        _delete(gh, f"/repos/{repository}/issues/comments/{extra.id}")
    keep = ours[0]
    if keep.id == created.id:
        return created
    kept = _update(gh, repository, keep, body)
    return kept.model_copy(update={"url": kept.url or keep.url})


def _delete(gh: Connection, path: str) -> None:
    """DELETE one duplicate; 404 means a concurrent run deleted it first."""
    try:
        gh.requester.requestJsonAndCheck("DELETE", path)
    except GithubException as exc:
        if exc.status != 404:
            raise PublishError(
                f"could not delete a duplicate verdict comment ({path}): "
                f"{describe_github_error(exc)}"
            ) from None


def _write(gh: Connection, verb: str, path: str, body: str, action: CommentAction) -> CommentResult:
    try:
        _, data = gh.requester.requestJsonAndCheck(verb, path, input={"body": body})
    except GithubException as exc:
        raise PublishError(
            f"could not write the verdict comment ({verb} {path}): {describe_github_error(exc)}"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("id"), int):
        raise PublishError(f"GitHub answered {verb} {path} without a comment id")
    user = data.get("user")
    login = user.get("login") if isinstance(user, dict) else None
    return CommentResult(
        action=action,
        id=data["id"],
        url=str(data.get("html_url") or ""),
        author=login if isinstance(login, str) else "",
    )


def describe_github_error(exc: GithubException) -> str:
    """`403 Resource not accessible by integration`: status and GitHub's message, one line."""
    data = exc.data
    message = data.get("message") if isinstance(data, dict) else None
    text = message if isinstance(message, str) and message else str(data or "").strip()
    return f"{exc.status} {' '.join(text.split())}".strip()
