"""Every comment of the three sign-off kinds on the PR, read right before the verdict is written.

Publishing needs the live picture, not the seconds-old gathered one: which sign-off is the newest
(only its verification may write), whether ours was edited or deleted meanwhile, and which verdict
comments exist now. Three lists: conversation comments, review summaries, inline review comments.
Their first pages do not depend on each other, so they go out together (`prefetch_posted`), and
with them every page of the conversation comments the gathered list filled, plus one for
comments posted since: a PR with 1,000 comments is read again in one round trip, not eleven.
Every entry is checked on arrival like every answer `Api` takes; a list that grew past the
pages sent ahead is read on page by page.
"""

from __future__ import annotations

from dataclasses import dataclass

from signoff.errors import GatherError
from signoff.evidence import AccountType, Comment, PostedSignoff, SignoffKind
from signoff.github.answers import CommentItem, ReviewCommentItem, ReviewItem
from signoff.github.api import PER_PAGE, Api, Check, JsonObject
from signoff.refs import SignoffRef

MAX_COMMENT_PAGES = 100
_ACCOUNT_TYPES: frozenset[str] = frozenset({"User", "Bot", "Organization", "Mannequin"})
_COMMENT = CommentItem.model_validate
_REVIEW = ReviewItem.model_validate
_INLINE = ReviewCommentItem.model_validate
_PLURAL: dict[SignoffKind, str] = {
    "conversation comment": "conversation comments",
    "review summary": "review summaries",
    "inline review comment": "inline review comments",
}


@dataclass(frozen=True)
class PostedNow:
    """The PR's conversation comments (for our verdict comment) and every posted sign-off."""

    comments: tuple[Comment, ...]
    signoffs: tuple[PostedSignoff, ...]


def _lists(ref: SignoffRef) -> tuple[tuple[SignoffKind, str, Check, int], ...]:
    """(kind, list path, entry check, page bound) of the three lists."""
    base = f"/repos/{ref.full_name}"
    return (
        ("conversation comment", comments_path(ref.full_name, ref.pr), _COMMENT, MAX_COMMENT_PAGES),
        ("review summary", f"{base}/pulls/{ref.pr}/reviews", _REVIEW, 30),
        ("inline review comment", f"{base}/pulls/{ref.pr}/comments", _INLINE, 30),
    )


def pages_for(known: int) -> int:
    """Pages to send ahead for a list that held `known` entries: those, and room for one more."""
    return min(known // PER_PAGE + 1, MAX_COMMENT_PAGES)


def prefetch_posted(api: Api, ref: SignoffRef, comments: int = 0) -> None:
    """Send ahead the first page of each list and every page `comments` conversation comments
    fill (`read_posted` takes them in order; pages past them follow one by one)."""
    for kind, path, check, _ in _lists(ref):
        count = pages_for(comments) if kind == "conversation comment" else 1
        api.prefetch_pages(path, count, item=check)


def read_posted(api: Api, ref: SignoffRef) -> PostedNow:
    """Three paginated lists; GitHub's failures raise (the caller writes nothing then).

    A list longer than its bound raises too: anyone can post thousands of comments, and a cut
    list hides the newest sign-offs (ours among them), so which one may write is unknown.
    """
    posted: list[PostedSignoff | None] = []
    comments: list[JsonObject] = []
    for kind, path, check, bound in _lists(ref):
        items, cut = api.bounded_pages(path, max_pages=bound, item=check)
        if cut:
            raise GatherError(
                f"could not verify: the PR has more than {len(items):,} {_PLURAL[kind]}; which "
                "sign-off is the newest cannot be read, so nothing was written"
            )
        comments = items if kind == "conversation comment" else comments
        posted += [to_posted(kind, item) for item in items]
    return PostedNow(
        comments=tuple(to_comment(item) for item in comments),
        signoffs=tuple(p for p in posted if p is not None),
    )


def comments_path(repository: str, pr: int) -> str:
    return f"/repos/{repository}/issues/{pr}/comments"


def prefetch_comments(api: Api, repository: str, pr: int, known: int = 0) -> None:
    """Send ahead every page of `read_comments` that `known` comments (and one more) fill."""
    api.prefetch_pages(comments_path(repository, pr), pages_for(known), item=_COMMENT)


def read_comments(api: Api, repository: str, pr: int) -> tuple[Comment, ...]:
    """The PR's conversation comments now, every page (the re-read that converges after a POST)."""
    path = comments_path(repository, pr)
    items = api.pages(path, max_pages=MAX_COMMENT_PAGES, item=_COMMENT)
    return tuple(to_comment(item) for item in items)


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


def to_comment(item: JsonObject) -> Comment:
    return Comment(
        id=int(item["id"]),
        author=str(_user(item).get("login") or ""),
        author_type=account_type(item),
        author_association=str(item.get("author_association") or "NONE"),
        body=str(item.get("body") or ""),
        created_at=str(item.get("created_at") or ""),
        url=str(item.get("html_url") or ""),
    )


def account_type(item: JsonObject) -> AccountType:
    kind = str(_user(item).get("type") or "")
    return kind if kind in _ACCOUNT_TYPES else "Unknown"  # type: ignore[return-value]


def _user(item: JsonObject) -> JsonObject:
    user = item.get("user")
    return user if isinstance(user, dict) else {}
