"""Upstream recipe links named in the sign-off: PR state and recipe files, or published pages.

Upstream PRs are read through PyGithub's requester: `pulls/{n}`, its files list, then each changed
recipe document (Markdown, MDX, YAML, a cookbook's JSX config) whole, through the contents API at
the merge commit (`merge_commit_sha`; an unmerged PR at its head, which Check 3 rejects anyway).
A PR that edits an existing recipe keeps most of its arguments in unchanged lines, so its patch is
not the recipe. An MDX page that imports a cookbook config it did not change gets that config read
too. Cost per PR: 1 + up to MAX_FILE_PAGES list pages + up to MAX_RECIPE_FILES contents reads;
the PR and the first page of its files are independent reads (`prefetch` sends both ahead).
Published pages (recipes.vllm.ai, docs.sglang.io) are not GitHub hosts, which PyGithub's
requester refuses to contact, so they are fetched with `requests` directly: GET, 10 s timeout,
2 MB cap, no credentials sent. A page the profile maps to the repository file it is generated
from (recipes.vllm.ai: `models/<org>/<model>.yaml`) also gets that file read at the source
repository's head: 2 more requests (the head commit, the contents).
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import requests
from github.GithubException import GithubException

from signoff.evidence import LinkState, UpstreamFile, UpstreamLink
from signoff.github.answers import CommitItem, FileItem, UpstreamPull
from signoff.github.api import Api, JsonObject, error_status
from signoff.parse.comment.links import RecipeLinkRef, classify_recipe_link
from signoff.parse.recipes.cookbook_jsx import imported_configs
from signoff.parse.recipes.document import is_recipe_document
from signoff.policy import RecipePolicy

MAX_LINKS = 5
PAGE_TIMEOUT = 10
PAGE_MAX_BYTES = 2 * 1024 * 1024
MAX_FILE_PAGES = 3
MAX_REDIRECTS = 3
MAX_RECIPE_FILES = 8  # recipe documents read whole per upstream PR (contents API requests)
MAX_RECIPE_BYTES = 512 * 1024  # a longer recipe document is not read (judged as unavailable)


def prefetch(api: Api, ref: RecipeLinkRef) -> None:
    """Send an upstream PR's own read and its first files page ahead (`read_link` takes them)."""
    if ref.kind == "pull" and ref.number is not None:
        api.prefetch(_pull_path(ref.repo, ref.number), item=_PULL)
        api.prefetch_pages(f"{_pull_path(ref.repo, ref.number)}/files", 1, item=_FILE)


def read_link(api: Api, ref: RecipeLinkRef, policy: RecipePolicy) -> UpstreamLink:
    if ref.kind == "pull" and ref.number is not None:
        return _read_pull(api, ref, ref.number)
    if ref.kind == "page":
        return with_source(api, read_page(ref.url, policy), policy)
    return UpstreamLink(url=ref.url, kind=ref.kind, state="not_checked", repo=ref.repo)


def _read_pull(api: Api, ref: RecipeLinkRef, number: int) -> UpstreamLink:
    try:
        pull = api.get_object(_pull_path(ref.repo, number), item=_PULL)
        listed = api.pages(
            f"{_pull_path(ref.repo, number)}/files", max_pages=MAX_FILE_PAGES, item=_FILE
        )
    except GithubException as exc:
        return UpstreamLink(
            url=ref.url,
            kind="pull",
            state="unreachable",
            repo=ref.repo,
            number=number,
            reason=error_status(exc),
        )
    state = pull_state(pull)
    read_at = _read_commit(pull, state)
    files = _read_files(api, ref.repo, listed, read_at)
    return UpstreamLink(
        url=ref.url,
        kind="pull",
        state=state,
        repo=ref.repo,
        number=number,
        merged_at=pull.get("merged_at"),
        read_at=read_at,
        files=files,
        files_complete=len(listed) < MAX_FILE_PAGES * 100,
    )


def _pull_path(repo: str, number: int) -> str:
    return f"/repos/{repo}/pulls/{number}"


def pull_state(pull: JsonObject) -> LinkState:
    if pull.get("merged_at"):
        return "merged"
    if pull.get("state") == "closed":
        return "closed"
    return "draft" if pull.get("draft") else "open"


def _read_commit(pull: JsonObject, state: LinkState) -> str:
    """Where the recipe is read: the merge commit of a merged PR, else the PR's head."""
    merge = pull.get("merge_commit_sha")
    if state == "merged" and isinstance(merge, str) and merge:
        return merge
    head = pull.get("head")
    sha = head.get("sha") if isinstance(head, dict) else None
    return sha if isinstance(sha, str) else ""


def _read_files(
    api: Api, repo: str, listed: list[JsonObject], sha: str
) -> tuple[UpstreamFile, ...]:
    """Every changed recipe document read whole at `sha`, plus cookbook configs a page imports."""
    wanted = [
        str(item.get("filename") or "")
        for item in listed
        if item.get("status") != "removed" and is_recipe_document(str(item.get("filename") or ""))
    ]
    out: list[UpstreamFile] = []
    budget = MAX_RECIPE_FILES
    queue = sorted(set(wanted))
    seen = set(queue)
    while queue:
        path = queue.pop(0)
        if budget <= 0 or not sha:
            why = "no commit to read at" if not sha else f"over the {MAX_RECIPE_FILES}-file bound"
            out.append(UpstreamFile(path=path, sha=sha, state="skipped", reason=why))
            continue
        budget -= 1
        read = _read_file(api, repo, path, sha)
        out.append(read)
        for extra in imported_configs(path, read.text or ""):
            if extra not in seen:
                seen.add(extra)
                queue.append(extra)
    return tuple(sorted(out, key=lambda f: f.path))


def _read_file(api: Api, repo: str, path: str, sha: str) -> UpstreamFile:
    try:
        text = api.file_text(repo, path, sha)
    except GithubException as exc:
        return UpstreamFile(path=path, sha=sha, state="unavailable", reason=error_status(exc))
    if text is None:
        return UpstreamFile(path=path, sha=sha, state="missing", reason="404 Not Found")
    if len(text.encode("utf-8")) > MAX_RECIPE_BYTES:
        return UpstreamFile(path=path, sha=sha, state="unavailable", reason="larger than 512 KB")
    return UpstreamFile(path=path, sha=sha, text=text)


_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")  # a path segment that names no directory


def page_source(url: str, policy: RecipePolicy) -> tuple[str, str] | None:
    """(repo, path) of the file a published page is generated from, when the profile names one;
    URL segments that could leave the mapped folder (`..`, empty, odd characters) map to none."""
    parts = urlsplit(url)
    for source in policy.sources:
        if source.kind != "page" or not source.source_path or parts.hostname != source.host:
            continue
        if not parts.path.startswith(source.path_prefix):
            continue
        segments = [s for s in parts.path[len(source.path_prefix) :].split("/") if s]
        needed = len(re.findall(r"\{\d+\}", source.source_path))
        if len(segments) != needed or not all(_SEGMENT.match(s) for s in segments):
            return None
        return source.source_repo, source.source_path.format(*segments)
    return None


def with_source(api: Api, link: UpstreamLink, policy: RecipePolicy) -> UpstreamLink:
    """A published page plus the repository file it is generated from (read at the source
    repository's head, which is what the page shows); unchanged when the profile maps none."""
    found = page_source(link.url, policy) if link.state == "published" else None
    if found is None:
        return link
    repo, path = found
    try:
        head = api.get_object(f"/repos/{repo}/commits/HEAD", item=CommitItem.model_validate)
    except GithubException as exc:
        missing = UpstreamFile(path=path, state="unavailable", reason=error_status(exc))
        return link.model_copy(update={"repo": repo, "files": (missing,)})
    sha = str(head.get("sha") or "")
    files = _read_files(api, repo, [{"filename": path}], sha)
    return link.model_copy(update={"repo": repo, "read_at": sha, "files": files})


def read_page(url: str, policy: RecipePolicy) -> UpstreamLink:
    """A published recipe page: `published` with its text, or `unreachable` with the reason.

    Redirects are followed by hand, at most MAX_REDIRECTS, and only to recipe-page locations
    the profile lists: a link from a sign-off must not steer the runner to any other host.
    """
    target = url
    for _ in range(MAX_REDIRECTS + 1):
        answer_or_link = _fetch_page(url, target)
        if isinstance(answer_or_link, UpstreamLink):
            return answer_or_link
        ref = classify_recipe_link(answer_or_link, policy)
        if ref is None or ref.kind != "page":
            return _page(url, "unreachable", reason="redirected outside the recipe sites")
        target = answer_or_link
    return _page(url, "unreachable", reason="too many redirects")


def _fetch_page(url: str, target: str) -> UpstreamLink | str:
    """The page at `target` (as evidence for `url`), or the Location it redirects to."""
    try:
        with requests.get(
            target, timeout=PAGE_TIMEOUT, stream=True, allow_redirects=False
        ) as answer:
            if answer.is_redirect:
                return urljoin(target, answer.headers.get("location", ""))
            if answer.status_code != 200:
                return _page(url, "unreachable", reason=f"HTTP {answer.status_code}")
            body = bytearray()
            for chunk in answer.iter_content(65536):
                body.extend(chunk)
                if len(body) > PAGE_MAX_BYTES:
                    return _page(url, "unreachable", reason="page larger than 2 MB")
            text = bytes(body).decode(answer.encoding or "utf-8", errors="replace")
    except requests.RequestException as exc:
        return _page(url, "unreachable", reason=_failure_words(exc))
    return _page(url, "published", text=text)


def _failure_words(exc: requests.RequestException) -> str:
    """Why a page could not be fetched, in words (never Python's exception names)."""
    if isinstance(exc, requests.Timeout):
        return f"no answer within {PAGE_TIMEOUT} s"
    if isinstance(exc, requests.ConnectionError):
        return "the connection failed"
    if isinstance(exc, requests.TooManyRedirects):
        return "too many redirects"
    return "the request failed"


def _page(url: str, state: LinkState, *, text: str | None = None, reason: str = "") -> UpstreamLink:
    return UpstreamLink(url=url, kind="page", state=state, page_text=text, reason=reason)


_PULL = UpstreamPull.model_validate
_FILE = FileItem.model_validate
