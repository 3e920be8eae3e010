"""Every comment of the three sign-off kinds on the PR, read right before the verdict is written.

Publishing needs the live picture, not the seconds-old gathered one: which sign-off is the newest
(only its verification may write), whether ours was edited or deleted meanwhile, and which verdict
comments exist now. Three lists: conversation comments, review summaries, inline review comments.
"""

from __future__ import annotations

from dataclasses import dataclass

from github import Github

from signoff.client import Deadline
from signoff.evidence import Comment, PostedSignoff, SignoffKind
from signoff.gather.api import Api, JsonObject
from signoff.gather.pull import account_type, to_comment
from signoff.refs import SignoffRef


@dataclass(frozen=True)
class PostedNow:
    """The PR's conversation comments (for our verdict comment) and every posted sign-off."""

    comments: tuple[Comment, ...]
    signoffs: tuple[PostedSignoff, ...]


def read_posted(gh: Github, ref: SignoffRef, deadline: Deadline | None = None) -> PostedNow:
    """Three paginated lists; GitHub's failures raise (the caller writes nothing then)."""
    api = Api(gh, deadline)
    base = f"/repos/{ref.full_name}"
    comments = api.pages(f"{base}/issues/{ref.pr}/comments", max_pages=100)
    reviews = api.pages(f"{base}/pulls/{ref.pr}/reviews")
    inline = api.pages(f"{base}/pulls/{ref.pr}/comments")
    posted = (
        [to_posted("conversation comment", item) for item in comments]
        + [to_posted("review summary", item) for item in reviews]
        + [to_posted("inline review comment", item) for item in inline]
    )
    return PostedNow(
        comments=tuple(to_comment(item) for item in comments),
        signoffs=tuple(p for p in posted if p is not None),
    )


def to_posted(kind: SignoffKind, item: JsonObject) -> PostedSignoff | None:
    ident, user, body = item.get("id"), item.get("user"), item.get("body")
    if not isinstance(ident, int) or isinstance(ident, bool):
        return None
    login = user.get("login") if isinstance(user, dict) else None
    # A review's time is when it was submitted (a pending review has none yet: not posted).
    created = item.get("submitted_at") if kind == "review summary" else item.get("created_at")
    return PostedSignoff(
        kind=kind,
        id=ident,
        author=login if isinstance(login, str) else "",
        author_type=account_type(item),
        author_association=str(item.get("author_association") or "NONE"),
        body=body if isinstance(body, str) else "",
        created_at=created if isinstance(created, str) else "",
        url=str(item.get("html_url") or ""),
    )
