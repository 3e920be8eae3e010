"""The pull request itself: metadata, changed files, in-PR commits and conversation comments.

GitHub lists at most 3,000 files and 250 commits of a PR, and the PR object declares the real
counts (`changed_files`, `commits`). A list as long as its declared count is complete, even at
the cap. A list the cap really cut is completed another way: the commits from the compare API's
pages (`compare/{base}...{head}`, 100 a page, every commit), the files from the git trees of the
merge base and the head (`git/trees/{sha}?recursive=1`). Only when that fails too (GitHub cut a
tree, or the trees disagree with the list) is the listing marked truncated, and judged so.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Any

from github.GithubException import UnknownObjectException

from signoff.errors import GatherError
from signoff.evidence import ChangedFile, PullRequest, Repository
from signoff.gather import pull_graph, trees
from signoff.github.answers import (
    CommentItem,
    CommitItem,
    CompareAnswer,
    FileItem,
    PullAnswer,
)
from signoff.github.api import PER_PAGE, Api, JsonObject, page_params
from signoff.github.comments import MAX_COMMENT_PAGES
from signoff.refs import SignoffRef

# GitHub's documented caps: the files list stops at 3,000 entries, the commits list at 250.
MAX_FILES = 3000
MAX_COMMITS = 250
MAX_FILE_PAGES = MAX_FILES // PER_PAGE
MAX_COMMIT_PAGES = 3
# Beyond the caps: up to 3,000 commits from the compare pages; more is judged truncated.
MAX_COMPARE_PAGES = 30
_FILE = FileItem.model_validate
_COMMIT = CommitItem.model_validate
_COMMENT = CommentItem.model_validate
_COMPARE = CompareAnswer.model_validate


@dataclass(frozen=True)
class Listing:
    """The PR's changed files and commits, each with whether it could be read completely."""

    files: tuple[ChangedFile, ...]
    files_truncated: bool
    commits: tuple[str, ...]
    commits_truncated: bool


def pull_url(ref: SignoffRef) -> str:
    return f"https://github.com/{ref.full_name}/pull/{ref.pr}"


def read_pull(api: Api, ref: SignoffRef) -> JsonObject:
    """`GET pulls/{n}`; a missing PR is a could-not-verify error naming the URL."""
    try:
        return api.get_object(_pull_path(ref), item=PullAnswer.model_validate)
    except UnknownObjectException:
        raise GatherError(f"{pull_url(ref)}: pull request not found (or not readable)") from None


def prefetch_pull(api: Api, ref: SignoffRef) -> None:
    """Send `read_pull` ahead (the re-read of the head at the end of gathering)."""
    api.prefetch(_pull_path(ref), item=PullAnswer.model_validate)


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
        body=_body(raw),
    )


def _body(raw: JsonObject) -> str | None:
    """The description as GitHub sent it in the PR object (no extra request); null is empty."""
    body = raw.get("body")
    return body if isinstance(body, str) else "" if body is None else None


def _label_names(labels: Any) -> list[str]:
    """Label names from the PR JSON (already in the answer: no extra request)."""
    if not isinstance(labels, list):
        return []
    return [str(item["name"]) for item in labels if isinstance(item, dict) and item.get("name")]


# --- the lists ------------------------------------------------------------------------------


def prefetch_listing(api: Api, ref: SignoffRef, raw_pull: JsonObject, *, with_files: bool) -> None:
    """Send every page the PR object declares ahead: files, commits (or compare pages), comments."""
    files = int(raw_pull["changed_files"]) if with_files else 0
    commits = int(raw_pull["commits"])
    if with_files:
        api.prefetch_pages(_files_path(ref), _pages(files, MAX_FILE_PAGES), item=_FILE)
    # (a list of one page rides in the first GraphQL query, sent after these: `first`)
    if commits <= MAX_COMMITS and not pull_graph.folds(api, commits):
        api.prefetch_pages(_commits_path(ref), _pages(commits, MAX_COMMIT_PAGES), item=_COMMIT)
    compare = _compare_path(ref, raw_pull)
    if commits > MAX_COMMITS:
        for number in range(1, _pages(commits, MAX_COMPARE_PAGES) + 1):
            api.prefetch(compare, page_params(number), item=_COMPARE)
    elif files > MAX_FILES:
        api.prefetch(compare, page_params(1), item=_COMPARE)  # for the merge base
    if files > MAX_FILES:
        trees.prefetch(api, ref.full_name, head_sha(raw_pull))
    if not pull_graph.folds(api, int(raw_pull["comments"])):
        comments = _pages(int(raw_pull["comments"]), MAX_COMMENT_PAGES)
        api.prefetch_pages(_comments_path(ref), comments, item=_COMMENT)


def read_listing(api: Api, ref: SignoffRef, raw_pull: JsonObject, *, with_files: bool) -> Listing:
    """The changed files (with patches) and in-PR commit SHAs, completed past GitHub's caps.

    Without `with_files` only the commits are read (the files come from elsewhere).
    """
    declared_files, declared_commits = int(raw_pull["changed_files"]), int(raw_pull["commits"])
    files: tuple[ChangedFile, ...] = ()
    if with_files:
        files = _unique_files(api.pages(_files_path(ref), max_pages=MAX_FILE_PAGES, item=_FILE))
    first: CompareAnswer | None = None
    if declared_commits > MAX_COMMITS:
        first, commits = _compare_commits(api, ref, raw_pull, declared_commits)
    else:
        folded = pull_graph.commits(api, ref.full_name, ref.pr)
        if folded is not None:
            commits = folded
        else:
            items = api.pages(_commits_path(ref), max_pages=MAX_COMMIT_PAGES, item=_COMMIT)
            commits = _unique(str(item["sha"]) for item in items)
    files_truncated = with_files and declared_files > len(files)
    if files_truncated and len(files) >= MAX_FILES:
        first = first or _compare_page(api, ref, raw_pull, 1)
        files, files_truncated = _complete_files(api, ref, raw_pull, first, files)
    return Listing(files, files_truncated, commits, declared_commits > len(commits))


def _compare_commits(
    api: Api, ref: SignoffRef, raw_pull: JsonObject, declared: int
) -> tuple[CompareAnswer, tuple[str, ...]]:
    """Every commit of base...head from the compare pages (oldest first, as the PR lists them)."""
    first = _compare_page(api, ref, raw_pull, 1)
    shas = [item.sha for item in first.commits]
    total = max(declared, first.total_commits)
    for number in range(2, _pages(total, MAX_COMPARE_PAGES) + 1):
        shas.extend(item.sha for item in _compare_page(api, ref, raw_pull, number).commits)
    return first, _unique(shas)


def _complete_files(
    api: Api,
    ref: SignoffRef,
    raw_pull: JsonObject,
    first: CompareAnswer,
    listed: tuple[ChangedFile, ...],
) -> tuple[tuple[ChangedFile, ...], bool]:
    """The listed files plus those only the trees of the merge base and the head show."""
    changed = trees.changed_between(
        api, ref.full_name, first.merge_base_commit.sha, head_sha(raw_pull)
    )
    if changed is None:
        return listed, True
    seen = {path for file in listed for path in (file.path, file.previous_path) if path}
    # The list and the trees must describe the same diff; if not, trust neither.
    if any(file.path not in changed for file in listed if file.status != "unchanged"):
        return listed, True
    rest = tuple(changed[path] for path in sorted(changed) if path not in seen)
    complete = listed + rest
    return complete, len(complete) < int(raw_pull["changed_files"])


def _compare_page(api: Api, ref: SignoffRef, raw_pull: JsonObject, number: int) -> CompareAnswer:
    data = api.get_object(_compare_path(ref, raw_pull), page_params(number), item=_COMPARE)
    return CompareAnswer.model_validate(data)


def list_comments(api: Api, ref: SignoffRef) -> list[JsonObject]:
    """Every conversation comment, raw, in creation order."""
    folded = pull_graph.comments(api, ref.full_name, ref.pr)
    if folded is not None:
        return folded
    items = api.pages(_comments_path(ref), max_pages=MAX_COMMENT_PAGES, item=_COMMENT)
    seen: set[int] = set()
    unique = []
    for item in items:  # a comment posted while paging shifts the pages by one
        if item["id"] not in seen:
            seen.add(item["id"])
            unique.append(item)
    return unique


def to_changed_file(item: JsonObject) -> ChangedFile:
    patch = item.get("patch")
    return ChangedFile(
        path=str(item["filename"]),
        status=str(item.get("status") or "modified"),
        previous_path=item.get("previous_filename"),
        patch=patch if isinstance(patch, str) else None,
    )


def _unique_files(items: list[JsonObject]) -> tuple[ChangedFile, ...]:
    files: dict[str, ChangedFile] = {}
    for item in items:
        files.setdefault(str(item["filename"]), to_changed_file(item))
    return tuple(files.values())


def _unique(shas: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(shas))


def _pages(count: int, cap: int) -> int:
    return max(1, min(ceil(count / PER_PAGE), cap))


def _pull_path(ref: SignoffRef) -> str:
    return f"/repos/{ref.full_name}/pulls/{ref.pr}"


def _files_path(ref: SignoffRef) -> str:
    return f"{_pull_path(ref)}/files"


def _commits_path(ref: SignoffRef) -> str:
    return f"{_pull_path(ref)}/commits"


def _comments_path(ref: SignoffRef) -> str:
    return f"/repos/{ref.full_name}/issues/{ref.pr}/comments"


def _compare_path(ref: SignoffRef, raw_pull: JsonObject) -> str:
    base = _dig(raw_pull, "base", "sha")
    return f"/repos/{ref.full_name}/compare/{base}...{head_sha(raw_pull)}"


def _dig(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data
