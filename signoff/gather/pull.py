"""The pull request itself: metadata, changed files, in-PR commits and conversation comments."""

from __future__ import annotations

from typing import Any

from github.GithubException import UnknownObjectException

from signoff.errors import GatherError
from signoff.evidence import AccountType, ChangedFile, Comment, PullRequest, Repository
from signoff.gather.api import Api, JsonObject
from signoff.refs import SignoffRef

# GitHub's documented caps: the files list stops at 3,000 entries, the commits list at 250.
MAX_FILES = 3000
MAX_COMMITS = 250
_ACCOUNT_TYPES: frozenset[str] = frozenset({"User", "Bot", "Organization", "Mannequin"})


def pull_url(ref: SignoffRef) -> str:
    return f"https://github.com/{ref.full_name}/pull/{ref.pr}"


def read_pull(api: Api, ref: SignoffRef) -> JsonObject:
    """`GET pulls/{n}`; a missing PR is a could-not-verify error naming the URL."""
    try:
        return api.get_object(f"/repos/{ref.full_name}/pulls/{ref.pr}")
    except UnknownObjectException:
        raise GatherError(f"{pull_url(ref)}: pull request not found (or not readable)") from None


def head_sha(raw: JsonObject) -> str:
    return str(_dig(raw, "head", "sha"))


def to_repository(ref: SignoffRef, raw: JsonObject) -> Repository:
    default = _dig(raw, "base", "repo", "default_branch") or "main"
    return Repository(owner=ref.owner, name=ref.repo, default_branch=str(default))


def to_pull_request(raw: JsonObject, pinned: str) -> PullRequest:
    return PullRequest(
        number=int(raw["number"]),
        title=str(raw.get("title") or ""),
        state="closed" if raw.get("state") == "closed" else "open",
        draft=bool(raw.get("draft")),
        merged=bool(raw.get("merged") or raw.get("merged_at")),
        author=str(_dig(raw, "user", "login") or ""),
        base_ref=str(_dig(raw, "base", "ref") or ""),
        base_sha=str(_dig(raw, "base", "sha") or ""),
        head_ref=str(_dig(raw, "head", "ref") or ""),
        head_sha=pinned,
        url=str(raw.get("html_url") or ""),
        labels=tuple(sorted(_label_names(raw.get("labels")))),
    )


def _label_names(labels: Any) -> list[str]:
    """Label names from the PR JSON (already in the answer: no extra request)."""
    if not isinstance(labels, list):
        return []
    return [str(item["name"]) for item in labels if isinstance(item, dict) and item.get("name")]


def list_files(
    api: Api, ref: SignoffRef, raw_pull: JsonObject
) -> tuple[tuple[ChangedFile, ...], bool]:
    """All changed files (with patches) and whether GitHub's 3,000-file cap cut the list."""
    items = api.pages(f"/repos/{ref.full_name}/pulls/{ref.pr}/files")
    files = tuple(to_changed_file(item) for item in items)
    declared = int(raw_pull.get("changed_files") or 0)
    return files, len(files) >= MAX_FILES or declared > len(files)


def to_changed_file(item: JsonObject) -> ChangedFile:
    patch = item.get("patch")
    return ChangedFile(
        path=str(item["filename"]),
        status=str(item.get("status") or "modified"),
        previous_path=item.get("previous_filename"),
        patch=patch if isinstance(patch, str) else None,
    )


def list_commits(api: Api, ref: SignoffRef, raw_pull: JsonObject) -> tuple[tuple[str, ...], bool]:
    """In-PR commit SHAs oldest first, and whether GitHub's 250-commit cap cut the list."""
    items = api.pages(f"/repos/{ref.full_name}/pulls/{ref.pr}/commits")
    shas = tuple(str(item["sha"]) for item in items)
    declared = int(raw_pull.get("commits") or 0)
    return shas, len(shas) >= MAX_COMMITS or declared > len(shas)


def list_comments(api: Api, ref: SignoffRef) -> list[JsonObject]:
    """Every conversation comment, raw, in creation order."""
    return api.pages(f"/repos/{ref.full_name}/issues/{ref.pr}/comments", max_pages=100)


def to_comment(item: JsonObject) -> Comment:
    return Comment(
        id=int(item["id"]),
        author=str(_dig(item, "user", "login") or ""),
        author_type=account_type(item),
        author_association=str(item.get("author_association") or "NONE"),
        body=str(item.get("body") or ""),
        created_at=str(item.get("created_at") or ""),
        url=str(item.get("html_url") or ""),
    )


def account_type(item: JsonObject) -> AccountType:
    kind = str(_dig(item, "user", "type") or "")
    return kind if kind in _ACCOUNT_TYPES else "Unknown"  # type: ignore[return-value]


def _dig(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data
