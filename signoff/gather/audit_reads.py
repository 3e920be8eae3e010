"""The audit's own GitHub reads (merged PRs, reviews, statuses, file histories), raw JSON only.

Everything else a re-judgement needs is read by `signoff.gather`; these are the few extra reads an
audit makes, through the same request helper (`gather.api.Api`: retries, deadline, error mapping).
The list URLs are the ones gather uses, so a second read of the same list is a cache hit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from github.GithubException import GithubException, UnknownObjectException

from signoff.errors import GatherError, InputError
from signoff.github.api import Api, JsonObject, error_status

PAGE = 100
MAX_LIST_PAGES = 100  # 10,000 closed PRs; older history needs --since


def read_repository(api: Api, repo: str) -> JsonObject:
    """`GET /repos/{repo}`; an unknown repository is bad input (exit 2), naming it."""
    try:
        return api.get_object(f"/repos/{repo}")
    except UnknownObjectException:
        raise InputError(
            f"{repo}: repository not found (or not readable with this token)"
        ) from None
    except GithubException as exc:
        raise GatherError(f"{repo}: cannot read the repository ({error_status(exc)})") from None


def closed_pulls_newest_first(api: Api, repo: str, base: str) -> Iterator[JsonObject]:
    """Closed PRs into `base`, most recently updated first, one page at a time (callers stop
    early: a PR merged at T was last updated at or after T)."""
    for page in range(1, MAX_LIST_PAGES + 1):
        params = {
            "state": "closed",
            "base": base,
            "sort": "updated",
            "direction": "desc",
            "per_page": PAGE,
            "page": page,
        }
        items = _list(api, f"/repos/{repo}/pulls", params)
        yield from items
        if len(items) < PAGE:
            return
    raise GatherError(
        f"{repo}: more than {MAX_LIST_PAGES * PAGE} closed PRs to scan; narrow it with --since"
    )


def read_pull(api: Api, repo: str, number: int) -> JsonObject:
    try:
        return api.get_object(f"/repos/{repo}/pulls/{number}")
    except UnknownObjectException:
        raise InputError(f"{repo}#{number}: pull request not found") from None


def list_files(api: Api, repo: str, number: int) -> list[JsonObject]:
    return api.pages(f"/repos/{repo}/pulls/{number}/files")


def list_comments(api: Api, repo: str, number: int) -> list[JsonObject]:
    # Same URL and page limit as gather.pull.list_comments, so gather's read is a cache hit.
    return api.pages(f"/repos/{repo}/issues/{number}/comments", max_pages=100)


def list_reviews(api: Api, repo: str, number: int) -> list[JsonObject]:
    return api.pages(f"/repos/{repo}/pulls/{number}/reviews", max_pages=100)


def list_review_comments(api: Api, repo: str, number: int) -> list[JsonObject]:
    return api.pages(f"/repos/{repo}/pulls/{number}/comments", max_pages=100)


def list_statuses(api: Api, repo: str, sha: str) -> list[JsonObject]:
    """Every status posted on a commit, newest first (GitHub's order)."""
    return api.pages(f"/repos/{repo}/commits/{sha}/statuses")


def history(
    api: Api, repo: str, branch: str, path: str | None, since: str | None
) -> list[JsonObject]:
    """Commits on `branch` (that changed `path`; since `since`), newest first."""
    query = (
        f"sha={branch}" + (f"&path={path}" if path else "") + (f"&since={since}" if since else "")
    )
    return api.pages(f"/repos/{repo}/commits?{query}", max_pages=100)


def commit_at(api: Api, repo: str, branch: str, until: str) -> str | None:
    """The newest commit on `branch` at or before `until` (one request)."""
    items = _list(api, f"/repos/{repo}/commits", {"sha": branch, "until": until, "per_page": 1})
    return str(items[0].get("sha") or "") or None if items else None


def _list(api: Api, path: str, params: dict[str, Any]) -> list[JsonObject]:
    data = api.get(path, params)
    if not isinstance(data, list):
        raise GatherError(f"could not verify: unexpected answer shape from {path}")
    return [item for item in data if isinstance(item, dict)]
