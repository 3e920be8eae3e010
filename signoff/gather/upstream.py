"""Upstream recipe links named in the sign-off: PR state and patches, or published pages.

Upstream PRs are read through PyGithub's requester (`pulls/{n}` and its files); each file's
`text` is the PR's patch for it: full-text reads of upstream files are skipped to save requests.
Published pages (recipes.vllm.ai, docs.sglang.io) are not GitHub hosts, which PyGithub's
requester refuses to contact, so they are fetched with `requests` directly: GET, 10 s timeout,
2 MB cap, no credentials sent.
"""

from __future__ import annotations

from urllib.parse import urljoin

import requests
from github.GithubException import GithubException

from signoff.evidence import LinkState, UpstreamFile, UpstreamLink
from signoff.gather.api import Api, JsonObject, error_status
from signoff.parse.links import RecipeLinkRef, classify_recipe_link
from signoff.policy import RecipePolicy

MAX_LINKS = 5
PAGE_TIMEOUT = 10
PAGE_MAX_BYTES = 2 * 1024 * 1024
MAX_FILE_PAGES = 3
MAX_REDIRECTS = 3


def read_link(api: Api, ref: RecipeLinkRef, policy: RecipePolicy) -> UpstreamLink:
    if ref.kind == "pull" and ref.number is not None:
        return _read_pull(api, ref, ref.number)
    if ref.kind == "page":
        return read_page(ref.url, policy)
    return UpstreamLink(url=ref.url, kind=ref.kind, state="not_checked", repo=ref.repo)


def _read_pull(api: Api, ref: RecipeLinkRef, number: int) -> UpstreamLink:
    try:
        pull = api.get_object(f"/repos/{ref.repo}/pulls/{number}")
        files = api.pages(f"/repos/{ref.repo}/pulls/{number}/files", max_pages=MAX_FILE_PAGES)
    except GithubException as exc:
        return UpstreamLink(
            url=ref.url,
            kind="pull",
            state="unreachable",
            repo=ref.repo,
            number=number,
            reason=error_status(exc),
        )
    return UpstreamLink(
        url=ref.url,
        kind="pull",
        state=pull_state(pull),
        repo=ref.repo,
        number=number,
        merged_at=pull.get("merged_at"),
        files=tuple(_to_file(item) for item in files),
    )


def pull_state(pull: JsonObject) -> LinkState:
    if pull.get("merged_at"):
        return "merged"
    if pull.get("state") == "closed":
        return "closed"
    return "draft" if pull.get("draft") else "open"


def _to_file(item: JsonObject) -> UpstreamFile:
    patch = item.get("patch")
    return UpstreamFile(
        path=str(item.get("filename") or ""), text=patch if isinstance(patch, str) else None
    )


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
        return _page(url, "unreachable", reason=type(exc).__name__)
    return _page(url, "published", text=text)


def _page(url: str, state: LinkState, *, text: str | None = None, reason: str = "") -> UpstreamLink:
    return UpstreamLink(url=url, kind="page", state=state, page_text=text, reason=reason)
