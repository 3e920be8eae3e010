"""The sign-off itself, read through the endpoint of its kind (conversation / review / inline)."""

from __future__ import annotations

from github.GithubException import UnknownObjectException

from signoff.errors import GatherError
from signoff.evidence import SignOff
from signoff.gather.pull_request import pull_url
from signoff.github.answers import CommentItem, ReviewCommentItem, ReviewItem
from signoff.github.api import Api, Check, JsonObject
from signoff.github.comments import account_type
from signoff.refs import SignoffRef

_ANCHOR = {
    "conversation comment": "#issuecomment-",
    "review summary": "#pullrequestreview-",
    "inline review comment": "#discussion_r",
}


def signoff_url(ref: SignoffRef) -> str:
    return f"{pull_url(ref)}{_ANCHOR[ref.kind]}{ref.id}"


def endpoint(ref: SignoffRef) -> str:
    """The fetch endpoint of each kind, as the gate's resolve step uses (facts §5)."""
    if ref.kind == "conversation comment":
        return f"/repos/{ref.full_name}/issues/comments/{ref.id}"
    if ref.kind == "review summary":
        return f"/repos/{ref.full_name}/pulls/{ref.pr}/reviews/{ref.id}"
    return f"/repos/{ref.full_name}/pulls/comments/{ref.id}"


# What each endpoint answers: the same shapes as the PR's lists of that kind.
_SHAPE: dict[str, Check] = {
    "conversation comment": CommentItem.model_validate,
    "review summary": ReviewItem.model_validate,
    "inline review comment": ReviewCommentItem.model_validate,
}


def prefetch(api: Api, ref: SignoffRef, *, keep: bool = False) -> None:
    """Send `fetch_signoff`'s read of the sign-off ahead (`keep`: for every later read of it)."""
    api.prefetch(endpoint(ref), item=_SHAPE[ref.kind], keep=keep)


def fetch_signoff(api: Api, ref: SignoffRef, comments: list[JsonObject] | None = None) -> SignOff:
    """The sign-off; a conversation comment is taken from the already-read comment list."""
    if ref.kind == "conversation comment" and comments is not None:
        for item in comments:
            if int(item.get("id") or 0) == ref.id:
                return to_signoff(ref, item)
    try:
        raw = api.get_object(endpoint(ref), item=_SHAPE[ref.kind])
    except UnknownObjectException:
        raise GatherError(f"{signoff_url(ref)}: sign-off not found (or not readable)") from None
    _check_belongs(ref, raw)
    return to_signoff(ref, raw)


def _check_belongs(ref: SignoffRef, raw: JsonObject) -> None:
    """A comment id from another PR must not be verified against this one."""
    if ref.kind == "conversation comment":
        owner_url, suffix = str(raw.get("issue_url") or ""), f"/issues/{ref.pr}"
    elif ref.kind == "review summary":
        owner_url, suffix = str(raw.get("pull_request_url") or ""), f"/pulls/{ref.pr}"
    else:
        owner_url, suffix = str(raw.get("pull_request_url") or ""), f"/pulls/{ref.pr}"
    if owner_url and not owner_url.endswith(suffix):
        raise GatherError(f"{signoff_url(ref)}: the sign-off belongs to {owner_url}, not this PR")


def to_signoff(ref: SignoffRef, raw: JsonObject) -> SignOff:
    user = raw.get("user") if isinstance(raw.get("user"), dict) else {}
    created = raw.get("created_at") or raw.get("submitted_at") or ""
    return SignOff(
        kind=ref.kind,
        id=ref.id,
        url=str(raw.get("html_url") or signoff_url(ref)),
        author=str((user or {}).get("login") or ""),
        author_type=account_type(raw),
        author_association=str(raw.get("author_association") or "NONE"),
        body=str(raw.get("body") or ""),  # an approval without text has body null
        created_at=str(created),
        updated_at=str(raw.get("updated_at") or raw.get("submitted_at") or ""),
        node_id=str(raw.get("node_id") or ""),
    )
